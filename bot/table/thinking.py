"""Computers at the table: a due computer move thinks in a worker process outside the channel's lock
(bot/workers/thinkpool.py, games/play.py), commits under the lock only if the table is still as it thought,
and shows its change at once (``show``) before the table's next step can start."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import i18n
from bot.computers import is_computer
from bot.store import StaleVersion
from bot.table.model import Change, Table, computer_seed
from bot.workers import pool, thinkpool
from games.core import State

log = logging.getLogger(__name__)


COMPUTERS_AT_ONCE = 4
"""Computers' moves reading or committing at one time, over all tables: the others wait their turn, so a person's
click finds at most these few ahead of it in the store's queue (100 computer tables stepping together queued
~100 commits before it: p99 ~80 ms more per click)."""


class Thinking:
    """Part of :class:`bot.table.service.TableService` (its other parts through ``self``)."""

    def _computer_slots(self) -> asyncio.Semaphore:
        """The ``COMPUTERS_AT_ONCE`` slots of this event loop (a bot restarted in the same process: new ones)."""
        loop = asyncio.get_running_loop()
        slots = getattr(self, "_slots", None)
        if slots is None or slots[0] is not loop:
            slots = self._slots = (loop, asyncio.Semaphore(COMPUTERS_AT_ONCE))
        return slots[1]

    async def _computers_wait(self, table_id: int) -> bool:
        """Whether the table's due turn deadline is its computers' (else its people's timeout)."""
        table = await self.get(table_id)
        return (table is not None and table.status == "playing"
                and bool(table.computers_due(held=table.waiting_for_people())))

    async def _computer_turn(self, table_id: int) -> None:
        """A computer's pending move (its turn deadline is due): think on a snapshot outside the channel's
        lock, in a worker process, then commit under the lock only if the computer's choices are still what it
        thought about (the same version, or in a simultaneous stage the seat's unchanged token); else think
        again. Only the computers to act move, one step each, except in secret simultaneous play (Globe
        Twister's programming), where each enters its whole program at once. The pending move is the stored
        deadline and the commit a versioned write, so it happens once, also across a restart or kill -9. The
        committed move is shown at once (``show``), before the table's next step can start. Its boards are drawn
        after those of people's clicks waiting meanwhile (``pool.background``)."""
        pool.background.set(True)  # (this task's own context: the click that may have started it is not touched)
        try:
            for _attempt in range(5):
                done, change = await self._computer_attempt(table_id)
                if change is not None:
                    await self._show(change)
                if done:
                    return
            log.warning("the computers of table %s found the table changed five times in a row", table_id)
        except Exception:
            log.exception("a computer's move at table %s failed", table_id)
        finally:
            self._thinking.pop(table_id, None)
            self.wake_timers()  # its next step may be due already: the deadline loop looks at once

    async def _computer_attempt(self, table_id: int) -> tuple[bool, Change | None]:
        """One think-then-commit of ``_computer_turn``: (done, the change to show); done is False when the
        table changed meanwhile (think again)."""
        table = await self.get(table_id)
        if table is None:
            return True, None
        async with self._computer_slots(), self.lock(table.row.channel_id):
            await self._refresh(table)
            due = await self.store.deadline(table_id, "turn")
            if table.status != "playing" or due is None or due > self.clock():
                return True, None
            waiting = table.computers_due(held=table.waiting_for_people())
            if not waiting:  # people's turn after all (the table moved on): their timeout
                return True, await self._racing(table, lambda: self._fire_once(table, "turn"))
            version, state = table.version, table.state
            tokens = {seat: table.seat_token(seat) for seat in waiting}
            whole = len(table.to_act()) > 1 or table.engine.timer(state) is not None
            # a person still to act beside them: the computers do all but end their part (lock in)
            hold = any(not is_computer(table.players[s]) for s in table.to_act())
            seed = computer_seed(table.row)
        thoughts = await asyncio.gather(*(self._think(table, state, seat, strength, seed, whole, hold)
                                          for seat, strength in waiting.items()))
        plans = dict(zip(waiting, thoughts, strict=True))
        async with self._computer_slots(), self.lock(table.row.channel_id):
            return await self._racing(table, lambda: self._play_computers(table, version, tokens, plans, hold))

    async def _think(self, table: Table, state: State, seat: int, strength: str, seed: int,
                     whole: bool, hold: bool) -> list[str]:
        """The computer's keys, thought in a worker process (``hold``: see ``thinkpool.think``). A computer
        that fails (a bug in a game's computer) plays the first legal move instead, logged, so the table never
        stalls on it."""
        try:
            return await thinkpool.decide(table.row.game, state, seat, strength, seed, whole, hold)
        except Exception:
            log.exception("the %s computer failed to decide at table %s; it plays the first legal move",
                          table.row.game, table.id)
            return [table.engine.legal_actions(state, seat)[0].key]

    async def _play_computers(self, table: Table, version: int, tokens: dict[int, str],
                              plans: dict[int, list[str]], hold: bool) -> tuple[bool, Change | None]:
        """Commits the computers' planned keys (each a logged move), for the seats whose choices did not change
        since ``version``. ``hold``: planned while a person was still to act beside them, so each such
        computer then waits for the people (``Table.held``). Returns (done, the change to show): done is
        False when none could move (think again); with nothing to commit because every computer due now
        waits for the people, the deadline becomes the people's timeout."""
        due = await self.store.deadline(table.id, "turn")
        if table.status != "playing" or due is None or due > self.clock():
            return True, None
        before = frozenset(table.to_act())
        texts, announced, change = [], [], None
        plans = {seat: keys for seat, keys in plans.items()
                 if self._seat_unchanged(table, seat, version, tokens[seat])}
        idle = {seat for seat, keys in plans.items() if hold and not keys}
        table.held |= idle  # nothing to enter: they wait (first, so the deadline the others' moves write knows)
        for seat, keys in plans.items():
            if table.status != "playing" or not self._seat_unchanged(table, seat, version, tokens[seat]):
                continue
            for n, key in enumerate(keys, 1):
                try:
                    change = await self._apply(table, seat, key, then_waits=hold and n == len(keys),
                                               draw=n == len(keys))
                except StaleVersion:
                    if change is None:
                        raise
                    await self._reload(table)  # another writer came in between: show what was done
                    break
                announced += change.announcements
                if table.status != "playing" or change.announcements:
                    break
            if change is not None and change.text and change.text not in texts[-1:]:
                texts.append(change.text)  # its words since the last board (``Moves._apply``)
        if change is None:
            if not idle:
                return False, None
            table.turn_due = await self._turn_due(table, table.state, table.players)
            await self.store.set_deadline(table.id, "turn", table.turn_due)
            return True, None
        change.text = i18n.join(texts)
        change.before = before
        change.announcements = announced
        return True, change

    async def _show(self, change: Change) -> None:
        """Shows a computer's committed change now (``show``), or hands it to the next ``fire_due``; a quiet
        step (``Change.quiet``) is said with the next board."""
        if change.quiet:
            return
        if self.show is None:
            self._computer_changes.append(change)
            return
        try:
            await self.show(change)
        except Exception:  # committed all the same: the next start shows it again (heal)
            log.exception("showing the computers' move at table %s failed", change.table.id)

    async def computers_done(self) -> None:
        """Waits until the computers' moves under way are committed (or given up)."""
        while self._thinking:
            await asyncio.gather(*self._thinking.values(), return_exceptions=True)

    async def stop_computers(self) -> None:
        """Cancels the computers' moves under way (the bot stops): nothing half-written, the deadlines stay."""
        tasks = list(self._thinking.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
