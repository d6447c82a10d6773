"""Turn-based clocks (issue 27): a lobby's pace and timeout option, a turn-based turn's deadline and its
reminder, what a turn-based table does when a move runs out (plays it, or a computer takes the seat; three in
a row count as leaving), and vacations (``go_away``, ``come_back``: a member's clocks paused in this server's
turn-based tables). The pure rules are bot/table/pace.py's."""

from __future__ import annotations

import logging

from bot.computers import is_computer
from bot.table import pace as paces
from bot.table.model import Change, Table
from bot.table.refusals import Refusal, Refused
from games.core import SYSTEM, State
from i18n import _

log = logging.getLogger(__name__)


class Clock:
    """Part of :class:`bot.table.service.TableService` (its other parts through ``self``)."""

    # --- the lobby -----------------------------------------------------------------------------------
    async def default_pace(self, guild_id: int, asked: str | None) -> int | None:
        """The pace of a new table: ``asked`` (/play's name of it: "live", "24h"...) or the server's default;
        refused (nothing opened) beyond the server's limits."""
        settings = await self.settings(guild_id)
        if asked is None:
            pace = settings.pace_default
            return pace if pace is None or pace <= paces.longest(settings) else paces.longest(settings)
        if asked not in paces.PACE_NAMES:
            raise Refused(Refusal.BAD_OPTIONS, _("A turn-based table takes 1 h, 12 h, 24 h, 3 days or 7 days per "
                                                 "move."))
        pace = paces.PACE_NAMES[asked]
        refused = paces.refused_pace(pace, settings)
        if refused:
            raise Refused(Refusal.BAD_OPTIONS, refused)
        return pace

    async def _set_pace(self, table: Table, user: dict, name: str, arg: str) -> Change:
        """The host's ``pace.<seconds|live>`` or ``ontimeout.<play|computer>`` in the lobby (version-checked
        like the takeover switch)."""
        row = table.row
        pace, on_timeout = row.pace, row.on_timeout
        if name == "pace":
            pace = None if arg == "live" else int(arg) if arg.isdigit() else -1
            refused = paces.refused_pace(pace, await self.settings(row.guild_id))
            if refused:
                raise Refused(Refusal.BAD_OPTIONS, refused)
        else:
            if arg not in paces.ON_TIMEOUT:
                raise Refused(Refusal.ILLEGAL_MOVE, _("That button is not part of this lobby."))
            on_timeout = arg
        if (pace, on_timeout) == (row.pace, row.on_timeout):
            return Change(table, "")
        await self._write(table, self.store.set_pace(table.id, table.version, pace, on_timeout))
        table.row = await self.store.get_table(table.id)
        if name == "pace":
            return Change(table, _("{player}: pace {pace}.", player=user["name"], pace=paces.pace_words(pace)))
        return Change(table, _("{player}: when a move runs out, a computer takes the seat.", player=user["name"])
                      if on_timeout == "computer" else
                      _("{player}: when a move runs out, the table plays it.", player=user["name"]))

    # --- a turn's deadline -----------------------------------------------------------------------------
    async def _paced_due(self, table: Table, state: State, players: list[dict], seat: int) -> float:
        """The deadline of people to act at a turn-based table after a move by ``seat`` that led to
        ``state``: a new turn gets the pace from now (past the vacation of someone to act); a move inside a
        turn or a simultaneous stage (the same people still to act, or some of them) keeps the stage's
        deadline: everyone in a stage gets the same time."""
        now = self.clock()
        before = table.engine.to_act(table.state) if table.state is not None else frozenset()
        after = table.engine.to_act(state)
        if (seat != SYSTEM and table.turn_due is not None and table.turn_due > now and after
                and after <= before):
            return table.turn_due
        people = [players[s]["id"] for s in after if not is_computer(players[s])]
        away = await self.store.away_of(table.row.guild_id, people, now)
        start = max([now, *away.values()])
        return start + table.row.pace

    def _remind_due(self, table: Table, due: float | None, people_due: bool) -> float | None:
        """The reminder written with a move at a turn-based table (``commit_move``'s ``remind_due``): None
        (unchanged: the turn goes on, its reminder sent or still to come, never twice), 0 (none: the game is
        over or computers move) or when a fifth of the new turn's time is left."""
        pace = table.row.pace
        if pace is None:
            return None
        if due is None or not people_due:
            return 0
        if due == table.turn_due:
            return None
        return paces.remind_at(due, pace)

    async def _remember_away(self, table: Table) -> None:
        """Who of the people to act at a turn-based table is away, for its header (``Table.away``)."""
        if table.row.pace is None or table.state is None or table.status != "playing":
            table.away = {}
            return
        people = [table.players[s]["id"] for s in table.to_act() if not is_computer(table.players[s])]
        table.away = await self.store.away_of(table.row.guild_id, people, self.clock())

    # --- a move that ran out ---------------------------------------------------------------------------
    async def _paced_timeout(self, table: Table, seat: int) -> tuple[Change, bool]:
        """A turn-based move of ``seat`` ran out: the table plays it, or (the lobby's option) a computer takes
        the seat; the third in a row counts as leaving (as ``/game leave``). Returns the change and whether
        the table played the move for them."""
        name = table.names[seat]
        latest = await self.store.latest_of_seat(table.id, seat, paces.IN_A_ROW)
        if paces.timeouts_in_a_row(latest, seat) + 1 >= paces.IN_A_ROW:
            if not self._people_in_play(table, but=seat):
                return await self._last_person_leaves(table, seat, None), False
            if table.row.takeover:
                return await self._hand_over(table, seat, _(
                    "{player} let three moves in a row run out, so they left; a computer plays their seat from "
                    "now on.", player=name)), False
            return await self._apply(table, SYSTEM, f"leave:{seat}", text=_(
                "{player} let three moves in a row run out, so they left the game.", player=name)), False
        if table.row.on_timeout == "computer":
            if not self._people_in_play(table, but=seat):
                return await self._last_person_leaves(table, seat, None), False
            return await self._hand_over(table, seat, _(
                "{player}'s time ran out: a computer plays their seat from now on.", player=name)), False
        return await self._apply(table, SYSTEM, f"timeout:{seat}"), True

    async def _remind(self, table: Table) -> Change | None:
        """A turn-based turn's reminder came due: claimed first (deleted by one statement: it fires once, in one
        process), then its ping."""
        if not await self.store.claim_deadline(table.id, "remind", self.clock()):
            return None
        if table.status != "playing" or table.row.pace is None or not table.to_act():
            return None
        if table.turn_due is not None and table.turn_due <= self.clock():
            return None  # the turn itself ran out meanwhile (the bot was down): its timeout says so instead
        await self._remember_away(table)
        return Change(table, reminded=True)

    # --- vacations -------------------------------------------------------------------------------------
    async def go_away(self, guild_id: int, user_id: int, days: int) -> tuple[float, list[Table]]:
        """``user_id`` is away for ``days`` in this server: the turn deadlines of their turn-based tables where
        they are to act are pushed past the vacation, keeping the time they had left. Returns when it ends and
        the tables whose clocks it paused. Refused (nothing changed) past the server's limit or while away."""
        most = paces.away_days(await self.settings(guild_id))
        if not 1 <= days <= most:
            raise Refused(Refusal.BAD_OPTIONS, _("You can be away for 1 to {n} days in this server.", n=most))
        now = self.clock()
        until = now + days * paces.DAY
        if not await self.store.set_away(guild_id, user_id, until, now):
            raise Refused(Refusal.BAD_OPTIONS, _("You are already away; /game back ends it."))
        return until, await self._shift_clocks(guild_id, user_id, until, away=True)

    async def come_back(self, guild_id: int, user_id: int) -> list[Table]:
        """``user_id``'s vacation ends now: their clocks resume with the time they had left."""
        now = self.clock()
        until = await self.store.end_away(guild_id, user_id, now)
        if until is None:
            raise Refused(Refusal.BAD_OPTIONS, _("You are not away."))
        return await self._shift_clocks(guild_id, user_id, until, away=False)

    async def _shift_clocks(self, guild_id: int, user_id: int, until: float, away: bool) -> list[Table]:
        """Moves the turn deadline (and its reminder) of each turn-based table of this server where
        ``user_id`` is to act: later by their vacation (``away``; ending at ``until``), or earlier by what is
        left of it. A stage shared with others already away (a simultaneous stage) is paused until the last of
        them is back: only the part of the vacation past theirs moves it."""
        shifted = []
        for table_id in await self.store.turn_based_tables_of(guild_id, user_id):
            table = await self.get(table_id)
            if table is None:
                continue
            async with self.lock(table.row.channel_id):
                await self._refresh(table)
                seat = table.seat_of(user_id)
                if table.status != "playing" or seat is None or seat not in table.to_act():
                    continue
                now = self.clock()
                people = [table.players[s]["id"] for s in table.to_act() if table.players[s]["id"] != user_id]
                others = await self.store.away_of(guild_id, people, now)
                paused = max(0.0, until - max([now, *others.values()]))
                if paused:
                    await self.store.shift_deadlines(table.id, paused if away else -paused)
                table.turn_due = await self.store.deadline(table.id, "turn")
                await self._remember_away(table)
                table.drawn = ()  # its header changes: drawn again when shown
                shifted.append(table)
        self.wake_timers()
        return shifted
