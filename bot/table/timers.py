"""Deadlines: the turn timeouts, the game timers (Globe Twister's sand timer), forgotten lobbies and the
computers' pending moves, fired once each when due (``fire_due``), and the deadline loop's wake-up."""

from __future__ import annotations

import asyncio
import logging

import i18n
from bot.computers import is_computer
from bot.store import StaleVersion
from bot.table.model import Change, Table, people_to_act
from bot.table.refusals import Refused
from games import get_engine
from games.core import SYSTEM
from i18n import _

log = logging.getLogger(__name__)


class Timers:
    """Part of :class:`bot.table.service.TableService` (its other parts through ``self``)."""

    async def fire_due(self) -> list[Change]:
        """Applies every deadline of this process's shards that has passed: idle players time out, forgotten
        lobbies close, computers move. Only due deadlines are read (indexed); one that fails is logged and does
        not stop the others. A firing is a versioned move: a process that fired late (it lost the channel) is
        refused. A computer's move is started here and thinks in a worker process while the loop goes on; it
        shows its own change as soon as it is committed (``_computer_turn``, ``show``), and the table's next
        step cannot start before (its task is in ``_thinking`` until then). Without ``show`` (a service with no
        channel: tests), the computers' changes committed since the last call are returned with the others."""
        changes, self._computer_changes = self._computer_changes, []
        self._evict()  # tables idle past their time leave memory also while nothing else is asked for
        for table_id, kind, _due in await self.store.due_deadlines(self.clock(), shards=self.shards):
            if kind == "turn" and table_id in self._thinking:
                continue  # its computers are thinking or showing their move: never two of their moves at once
            try:
                if kind == "turn" and await self._computers_wait(table_id):
                    self._thinking[table_id] = asyncio.create_task(self._computer_turn(table_id),
                                                                   name=f"geotable-computer-{table_id}")
                    continue
                change = await self._fire(table_id, kind)
            except Refused as exc:  # e.g. another writer moved first: the next tick sees the new deadline
                log.info("deadline %s of table %s not fired: %s", kind, table_id, exc)
            except Exception:
                log.exception("deadline %s of table %s failed", kind, table_id)
            else:
                if change is not None:
                    changes.append(change)
        return changes

    async def next_deadline(self) -> float | None:
        return await self.store.next_deadline(self.shards)

    async def restore_turn_deadlines(self) -> None:
        """At start: a game in play whose turn deadline is missing (the start writes the table, then its
        deadline: a crash between the two) gets one, so its computers move and its people time out."""
        for table_id in await self.store.without_turn_deadline(self.shards):
            table = await self.get(table_id)
            if table is None or table.status != "playing" or not table.to_act():
                continue
            async with self.lock(table.row.channel_id):
                if await self.store.deadline(table_id, "turn") is None:
                    table.turn_due = await self._turn_due(table, table.state, table.players)
                    await self.store.set_deadline(table_id, "turn", table.turn_due)

    async def restore_waiting(self) -> None:
        """At start: the games in play (of this process's shards) with no rows of who is to act (from a
        database before migration 016) get them, read from their stored state without loading the tables
        into memory (thousands of turn-based games may be waiting)."""
        for row in await self.store.playing_without_waiting(self.shards):
            try:
                engine = get_engine(row.game)
                users = people_to_act(engine, engine.decode(row.state) if row.state else None, row.players)
                if users:
                    async with self.lock(row.channel_id):
                        await self.store.fill_waiting(row.id, row.version, row.guild_id, users)
            except Exception:
                log.exception("table %s: who is to act could not be restored", row.id)

    def wake_timers(self) -> None:
        """A deadline may have moved earlier (or a computer's step is shown and its next may be due): the
        timer loop looks again at once; a wake while the loop is busy is kept for its next sleep."""
        self._wake_pending = True
        if self._timers_wake is not None and not self._timers_wake.done():
            self._timers_wake.set_result(None)

    async def sleep_until_woken(self, delay: float) -> None:
        """Sleeps ``delay`` seconds, or less when ``wake_timers`` is called (also before: then it returns at
        once; a plain future, no extra task)."""
        if self._wake_pending or self._computer_changes:
            self._wake_pending = False
            await asyncio.sleep(0)
            return
        self._timers_wake = asyncio.get_running_loop().create_future()
        try:
            await asyncio.wait_for(self._timers_wake, delay)
        except TimeoutError:
            pass
        finally:
            self._timers_wake = None
            self._wake_pending = False

    async def _fire(self, table_id: int, kind: str) -> Change | None:
        table = await self.get(table_id)
        if table is None:
            await self.store.clear_deadline(table_id, kind)
            return None
        async with self.lock(table.row.channel_id):
            # fired on the table as stored (rare enough to read it): a deadline that no longer fits our copy
            # may be another writer's, and is never cleared on the word of a stale copy
            await self._reload(table)
            return await self._racing(table, lambda: self._fire_once(table, kind))

    async def _fire_once(self, table: Table, kind: str) -> Change | None:
        table_id = table.id
        # the deadline may have moved while we waited for the lock
        current = await self.store.deadline(table_id, kind)
        if current is None or current > self.clock():
            return None
        if kind == "lobby" and table.status == "lobby":
            lang = await self.language(table.row.guild_id)
            await self.store.close_table(table.id, "ended", i18n.localize(_("nobody started the lobby"), lang))
            table.row = await self.store.get_table(table.id)
            self._forget(table)
            return Change(table, _("Nobody started this lobby in time, so it closed."), closed=True)
        if kind == "timer" and table.status == "playing" and table.engine.timer(table.state):
            name = table.engine.timer(table.state)[0]
            return await self._apply(table, SYSTEM, f"timer:{name}")
        if kind == "remind":
            return await self._remind(table)  # a turn-based turn's reminder (bot/table/clock.py)
        if kind == "turn" and table.status == "playing":
            texts, timed_out, announced = [], [], []
            before = frozenset(table.to_act())
            change = None
            for seat in [s for s in table.to_act() if not is_computer(table.players[s])]:
                played = True
                try:
                    if table.row.pace is not None:  # turn-based: played, a computer's, or the third: a leave
                        change, played = await self._paced_timeout(table, seat)
                    else:
                        change = await self._apply(table, SYSTEM, f"timeout:{seat}")
                except StaleVersion:
                    if change is None:
                        raise
                    await self._reload(table)  # another writer came in between: show what was done
                    break
                texts.append(change.text)
                if played:
                    timed_out.append(seat)
                announced += change.announcements
                if table.status != "playing":
                    break
            if change is not None:
                change.text = i18n.join(texts)
                change.before = before
                change.timed_out = tuple(timed_out)
                change.announcements = announced
            return change
        await self.store.clear_deadline(table_id, kind)
        return None
