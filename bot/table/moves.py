"""Moves: a player's click checked (seat, turn, the screen's version: bot/table/staleness.py), applied by the
engine and committed (state, action log, deadline in one statement) before anything is shown; the first step
of a two-step choice (``pick``); the turn deadline a move leaves."""

from __future__ import annotations

import asyncio
import logging

import i18n
from bot import computers, ratings
from bot.computers import computer_seats, is_computer
from bot.table import pace, recent
from bot.table.choices import group_named
from bot.table.model import Change, Drawing, Table, people_to_act
from bot.table.refusals import Refusal, Refused
from bot.table.words import board_view, ending_focus, name_seats, rules_words
from bot.workers import renderpool
from games.core import SYSTEM, Result, RulesError, State
from i18n import _

log = logging.getLogger(__name__)


def _quiet(future: asyncio.Future) -> None:
    """Marks a background future's exception as seen (a board drawn early and never used)."""
    if not future.cancelled():
        future.exception()


class Moves:
    """Part of :class:`bot.table.service.TableService` (its other parts through ``self``)."""

    async def act(self, table_id: int, version: int, key: str, user_id: int, token: str | None = None) -> Change:
        """A player's click on a screen showing ``version`` (and, for the seat's own buttons, its
        ``seat_token`` then). Raises Refused (nothing changed) unless the move was committed."""
        table = await self._open(table_id)
        async with self.lock(table.row.channel_id):
            await self._catch_up(table, version)
            return await self._racing(table, lambda: self._act(table, version, key, user_id, token))

    async def _act(self, table: Table, version: int, key: str, user_id: int, token: str | None) -> Change:
        if table.status == "lobby":
            raise Refused(Refusal.NOT_STARTED)
        if table.status != "playing":
            raise Refused(Refusal.GAME_OVER)
        seat = self._check_turn(table, user_id, version, token)
        return await self._apply(table, seat, key)

    async def _catch_up(self, table: Table, version: int) -> None:
        """A click on a newer version than ours: another process wrote the table since we loaded it."""
        if version > table.version:
            await self._reload(table)

    def _check_turn(self, table: Table, user_id: int, version: int, token: str | None = None) -> int:
        """The seat of ``user_id`` if they may act now on a screen of ``version``; else a refusal. A screen
        of an older version still counts when it was the seat's own (``token``) and the seat's choices are
        the same now (see ``_seat_unchanged``)."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise Refused(Refusal.NOT_A_PLAYER)
        if version != table.version and not self._seat_unchanged(table, seat, version, token):
            raise Refused(Refusal.STALE)
        if seat not in table.engine.to_act(table.state):
            waiting = i18n.join([table.names[s] for s in table.to_act()], ", ")
            raise Refused(Refusal.NOT_YOUR_TURN, players=waiting)
        return seat

    @staticmethod
    def _seat_unchanged(table: Table, seat: int, version: int, token: str | None) -> bool:
        """Whether a screen of an older ``version`` still shows ``seat`` what it may do now (see
        bot/table/staleness.py): in a simultaneous stage, clicks made at the same moment all play."""
        return table.screen_counts(seat, version, token)

    @staticmethod
    def _track(table: Table, seat: int, tokens: dict[int, str], table_event: bool) -> None:
        """After a move by ``seat`` (just written): whose older screens stop counting. ``tokens``: the tokens,
        before the move, of the other seats that were to act."""
        if seat == SYSTEM or table_event:
            table.screens.moved(table.version, None)
        else:
            table.screens.moved(table.version, seat, [o for o, t in tokens.items() if table.seat_token(o) != t])

    async def _turn_due(self, table: Table, state: State, players: list[dict], seat: int = SYSTEM,
                        held: set[int] | None = None) -> float:
        """The turn deadline after a move by ``seat`` that led to ``state`` with ``players`` seated (``held``:
        the computers waiting for the people then, by default as now): a computer that moves now
        (``Table.computers_due``) moves after the pause, else people time out after the turn timeout (also
        while computers only wait for them: no computer's deadline fires in vain meanwhile). A person's move
        while computers are due keeps their deadline (in a simultaneous stage, people clicking away must not
        keep putting the computers off)."""
        now = self.clock()
        if not table.computers_due(state, players, table.waiting_for_people() if held is None else held):
            if table.row.pace is not None:  # turn-based: bot/table/clock.py
                return await self._paced_due(table, state, players, seat)
            return now + await self.turn_timeout(table.row.guild_id)
        pause = now + self.defaults.pause(self._goes_on(table, state, players, seat))
        waited = table.state is not None and table.computers_due(held=table.waiting_for_people())
        if seat != SYSTEM and not is_computer(players[seat]) and waited and table.turn_due is not None:
            return min(table.turn_due, pause)
        return pause

    @staticmethod
    def _goes_on(table: Table, state: State, players: list[dict], seat: int) -> bool:
        """Whether the move of ``seat`` that led to ``state`` is a step inside a computer's turn: the computer
        was alone to act and still is (its next die, its pick's destination), so its next step follows after
        the short pause. Anything else (another seat's turn, a stage of several, a table event) is a new turn."""
        alone = frozenset({seat})
        return (seat != SYSTEM and is_computer(players[seat]) and table.state is not None
                and table.engine.to_act(table.state) == alone and table.engine.to_act(state) == alone)

    def _too_soon_for_a_board(self, table: Table, state: State, seated: list[dict], seat: int) -> bool:
        """Whether the move of ``seat`` to ``state`` is a computer's step inside its turn that comes too soon
        after the table's last board (``Defaults.board_every``): said with the next board instead."""
        return (self._goes_on(table, state, seated, seat)
                and self.clock() - table.shown_at < self.defaults.board_every - 0.001)  # (the pause's own float)

    async def _apply(self, table: Table, seat: int, key: str, players: list[dict] | None = None,
                     text: str | None = None, then_waits: bool = False, draw: bool = True) -> Change:
        """Plays ``key`` for ``seat`` and commits it (one statement). ``players``: the new seating written
        with it (a seat handed to a computer); ``text``: the move in words instead of the engine's events;
        ``then_waits``: the computer in ``seat`` then waits for the people (``Table.held``); ``draw``: start
        drawing the new board meanwhile (not for a computer's key that more keys follow in the same firing)."""
        engine = table.engine
        try:
            state, events = engine.apply(table.state, seat, key)
        except RulesError as exc:
            raise Refused(Refusal.ILLEGAL_MOVE, rules_words(exc)) from None
        before = engine.to_act(table.state)
        tokens = {s: table.seat_token(s) for s in before if s != seat}
        lang = await self.language(table.row.guild_id)
        seated = table.players if players is None else players
        said = text or table.describe(events)
        quiet = draw and self._too_soon_for_a_board(table, state, seated, seat)
        draw = draw and not quiet
        text = _shown_words(table, said, draw)
        over = engine.is_over(state)
        result = engine.result(state) if over else None
        announcements = engine.announcements(table.state, state)
        event = seat == SYSTEM or bool(announcements)
        held = set() if event else (table.held - {seat}) | ({seat} if then_waits else set())
        due = None if over else await self._turn_due(table, state, seated, seat, held)
        remind = self._remind_due(table, due, not over and not table.computers_due(state, seated, held))
        standings = _standings(result, state, seated) if result is not None else None
        # who the table waits for after the move, written with it when that changes (bot/store/waiting.py)
        waiting = [] if over else people_to_act(engine, state, seated)
        if not over and waiting == people_to_act(engine, table.state, table.players):
            waiting = None
        # a game timer that starts (or stops) with this move is written with it
        timer, timer_before = engine.timer(state), engine.timer(table.state)
        timer_due = None
        if timer != timer_before:
            timer_due = self.clock() + timer[1] if timer else 0
            if timer and table.row.pace is not None:  # turn-based: the sand runs a fifth of the pace
                timer_due = min(self.clock() + pace.sand_seconds(table.row.pace), due or float("inf"))
        # draw the new board while the move is committed (nothing is shown before the commit)
        board = None
        if draw:
            table.shown_at = self.clock()
            board = _start_board(table, state, seated, text, over, lang)
        looks = (table.version + 1, "finished" if over else "playing", ())
        encoded = engine.encode(state)
        await self._write(table, self.store.record_move(
            table_id=table.id, version=table.version, state=encoded,
            status="finished" if over else "playing", ply=table.state["ply"], seat=seat, action=key,
            turn_due=due, standings=standings, last_move=i18n.localize(text, lang), timer_due=timer_due,
            players=players,
            ratings=ratings.plan(table.row.game, standings) if standings is not None else None,
            remind_due=remind,
            waiting=waiting,
        ))
        table.set_state(state, encoded)
        table.row.version += 1
        table.row.last_move = i18n.localize(text, lang)
        kept_said = recent.compact(said) if said else ""  # once for its log line and, most often, its last words
        # made one string only with a board: a step without one (a computer's quiet step, a key that more keys
        # follow) is followed by the next at once, which replaces it (``Table.rest`` makes one of what stays)
        table.last_words = (kept_said if text is said else recent.compact(text)) if draw else text
        table.unshown = () if draw else tuple(_steps(table, said))
        table.recent = recent.kept(table.recent, recent.Entry(seat, kept_said))
        table.row.players = seated
        table.turn_due = due
        if table.row.pace is not None:
            await self._remember_away(table)
        self._track(table, seat, tokens, event)
        table.held = held
        if timer_due is not None:
            table.timer_due = timer_due or None
        if over:
            table.row.status = "finished"
            self._forget(table)
        announced = [dict(a, text=name_seats(a["text"], table.names),
                          note=name_seats(a["note"], table.names) if a.get("note") else None)
                     for a in announcements]
        change = Change(table, text, finished=over, before=before, announcements=announced,
                        board=Drawing(looks, lang, board) if board is not None else None, quiet=quiet)
        if not over and not self._people_in_play(table):
            await self._close_among_computers(change)
        return change

    async def _close_among_computers(self, change: Change) -> None:
        """A game in play with no person left in it (the last one left, was removed, or had their seat handed
        to a computer) ends there: nobody is left to watch the computers play it out."""
        table = change.table
        lang = await self.language(table.row.guild_id)
        await self.store.close_table(table.id, "ended", i18n.localize(_("only computers were left at the table"),
                                                                      lang))
        table.row = await self.store.get_table(table.id)
        self._forget(table)
        change.closed = True
        change.text = i18n.join([change.text, _("Only computers were left at the table, so the game ended.")])

    async def pick(self, table_id: int, version: int, group: str, user_id: int, token: str | None = None) -> Table:
        """The first step of a two-step choice (``group``; "" goes back). Only the seat to act may take it."""
        table = await self._open(table_id)
        async with self.lock(table.row.channel_id):
            await self._catch_up(table, version)
            if table.status != "playing":
                raise Refused(Refusal.NOT_STARTED if table.status == "lobby" else Refusal.GAME_OVER)
            seat = self._check_turn(table, user_id, version, token)
            actions = table.actions_for(seat)
            always = table.engine.grouped(table.state, seat)
            named = group_named(group, actions, always)
            if named is None:  # the public board's groups (without the seat's secret moves)
                named = group_named(group, [a for a in actions if not a.secret], always)
            if named is None:
                raise Refused(Refusal.ILLEGAL_MOVE)
            table.picks[seat] = (table.version, named)
            return table


STEPS_SAID = 8
"""At most this many steps named with a board (the quiet steps before it and its own), one a line: the
latest, after "…" when there were more (all of them are in the action log, /history and the replay)."""


def _steps(table: Table, said: str) -> list:
    """The steps since the table's last board, with this one's words (``said``; a repeat is said once)."""
    return [*table.unshown, *([said] if said and said not in table.unshown[-1:] else [])]


def _shown_words(table: Table, said: str, draw: bool) -> str:
    """The words of a move: every step since the table's last board (a computer's quiet steps, the keys of
    one firing), one a line, its own last; a step that says nothing (a die picked, its target to come) keeps
    the last move on show."""
    steps = _steps(table, said)
    if not steps:
        return recent.text(table.last_words) if table.last_words else (table.row.last_move or "")
    if len(steps) == 1:
        return steps[0]
    if len(steps) > STEPS_SAID:
        steps = ["…", *steps[-STEPS_SAID:]]
    return i18n.join(steps, "\n")


def _standings(result: Result, state: State, seated: list[dict]) -> dict:
    """A finished game's standings as stored with its last move (the ``results`` row)."""
    standings = {"scores": list(result.scores), "ranking": [list(g) for g in result.ranking],
                 "players": seated, "detail": result.detail}
    # keys only present when so (bot/ratings.py: nobody wins; history: an early end)
    return standings | ({"no_winner": True} if result.no_winner else {}) | (
        {"ended_by": state["ended_by"]} if "ended_by" in state else {})


def _start_board(table: Table, state: State, seated: list[dict], text: str, over: bool, lang: str) -> asyncio.Future:
    """Starts drawing the board of ``state`` in a render worker (a failure is left to whoever shows it)."""
    names = [computers.display_name(p) for p in seated]
    board = asyncio.ensure_future(renderpool.board(table.row.game, board_view(table.engine, state), names, text,
                                                   ending_focus(state, names, seated) if over else None,
                                                   tuple(computer_seats(seated)), locale=lang))
    board.add_done_callback(_quiet)
    return board
