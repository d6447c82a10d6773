"""A tournament's life after /tournament create (issue 28 item 1): the start (Start, or the sign-up deadline),
each round paired (bot/tournament/, pure) and claimed once in the store, its tables opened each in a thread of
the tournament's channel with the players seated (``TableService.open_seated``), the next round when the last
table of a round ends (or its deadline passes), the podium at the end.

Everything that moves a tournament on is one function, ``advance``, which reads the tournament as stored and
does the next thing due, under a lock per tournament: at a table's end (``table_ended``, heard from every
publication of a table: bot/boards.py), from the loop (``run``: at start, at the next stored deadline, at least
every ``POLL`` seconds) and after Start. Each step is written so that a repeat changes nothing: the start is a
compare-and-set on the tournament's version, a round is claimed by its primary key (one process, once), a
board's table is written in the same transaction as the board's link to it, the end by the status. So a
restart, kill -9 or a second process finds the tournament where the store says it is and goes on from there.
Decisions (an ended table's places, the round deadline): docs/rules/tournaments.md (T-entries of the bot)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque

import discord

from bot import nonces
from bot.entrants import Snapshot, departed, done
from bot.round_posts import Posts
from bot.store.tournaments import OPEN, POST_STALE, Board, RoundRow, TournamentRow
from bot.table.model import Change, KeyedLocks
from bot.table.refusals import Refusal, Refused
from bot.threads import ARCHIVE_AFTER
from bot.tournament.pairing import (
    fewest,
    knockout_round,
    knockout_rounds,
    swiss_round,
)
from bot.ui import tournament as words
from bot.workers import pool
from games import get_engine
from i18n import _, localize, say

log = logging.getLogger(__name__)

POLL = 60.0
"""The loop's longest sleep (it also wakes at a table's end and at the next stored deadline)."""
ROUND_LIVE = 3 * 3600
"""A live round's deadline: tables still open this long after the round began are ended (T-B2)."""
ROUND_MOVES = 30
"""A turn-based round's deadline: this many times the time per move (T-B2)."""
QUIET = discord.AllowedMentions.none()


def round_time(pace: int | None) -> float:
    return ROUND_LIVE if pace is None else ROUND_MOVES * pace


class Rounds(Posts):
    """Owned by the Tournament cog (``Tournament.rounds``)."""

    def __init__(self, bot):
        self.bot = bot
        self.locks = KeyedLocks()
        self._wake: asyncio.Future | None = None
        self._tasks: set[asyncio.Task] = set()
        self.passes = asyncio.Event()
        """Set after each pass of the loop (tests wait for it)."""
        self.opened: deque[tuple[int, int, float, float]] = deque(maxlen=1000)
        """(tournament, round, when the call that found it due began, when its tables were all posted): loop
        times, for the benchmark (benchmarks/tournament.py)."""

    @property
    def service(self):
        return self.bot.service

    @property
    def store(self):
        return self.bot.service.store

    @property
    def boards(self):
        return self.bot.get_cog("Tables").boards

    def now(self) -> float:
        return self.service.clock()

    async def snapshot(self, tournament_id: int) -> Snapshot | None:
        t = await self.store.tournament(tournament_id)
        if t is None:
            return None
        return Snapshot(t, await self.store.entries(t.id), await self.store.rounds(t.id), await self.store.boards(t.id))

    # --- the loop and the hooks ------------------------------------------------------------------------
    def wake(self) -> None:
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    async def run(self) -> None:
        """Moves every open tournament of this process's shards on: at start (what came due while away), at
        each stored deadline (sign-up, a round's), woken by a table's end, at least every ``POLL`` seconds."""
        await self.bot.wait_until_ready()
        pool.background.set(True)  # nobody's click waits on this loop: people's boards are drawn first
        while not self.bot.is_closed():
            self.passes.clear()
            delay = POLL
            try:
                for t in await self.store.open_tournaments(self.bot.settings.shards):
                    await self.advance(t.id)
                    due = await self._due(t.id)
                    if due is not None:
                        delay = min(delay, max(due - self.now(), 0.05))
            except Exception:
                log.exception("tournaments")
            self.passes.set()
            self._wake = asyncio.get_running_loop().create_future()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake, delay)

    async def _due(self, tournament_id: int) -> float | None:
        """When the tournament next needs a look: its sign-up deadline, its round's deadline, or when a post
        claimed by a process that may have died can be claimed again."""
        t = await self.store.tournament(tournament_id)
        if t is None:
            return None
        if t.status == "signup":
            return t.signup_due
        if t.status not in OPEN:
            return None if t.final_message is not None else (t.final_claimed or 0.0) + POST_STALE
        rounds = await self.store.rounds(t.id)
        if not rounds:
            return None
        r = rounds[-1]
        if not r.posted and r.post_claimed is not None:
            return min(r.due_at or r.post_claimed + POST_STALE, r.post_claimed + POST_STALE)
        return r.due_at

    def table_ended(self, table) -> None:
        """A table ended (a publication of its end): if it is a tournament's, the tournament moves on."""
        task = asyncio.create_task(self._ended(table.id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _ended(self, table_id: int) -> None:
        found = await self.store.board_of_table(table_id)
        if found is not None:
            await self.advance(found[0])

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    # --- moving on -------------------------------------------------------------------------------------
    async def advance(self, tournament_id: int) -> None:
        """The next thing due for the tournament, if any (see the module's docstring); errors are logged."""
        async with self.locks(tournament_id):
            try:
                await self._advance(tournament_id)
            except Exception:
                log.exception("tournament %s", tournament_id)

    async def _advance(self, tournament_id: int) -> None:
        found = asyncio.get_running_loop().time()
        s = await self.snapshot(tournament_id)
        if s is None:
            return
        if s.t.status not in OPEN:
            if s.t.final_message is None:  # closed, its closing post not made yet (a crash between)
                await self._closing(s)
            return
        t = s.t
        if t.status == "signup":
            if t.signup_due is not None and self.now() >= t.signup_due:
                await self._start(s, None)
            return
        current = s.rounds[-1] if s.rounds else None
        if current is not None and not current.posted:
            await self._open(s, current, found)
            return
        if current is not None:
            still = [b for b in s.boards if b.round == current.number and not done(b)]
            if still:
                if current.due_at is not None and self.now() >= current.due_at:
                    await self._time_up(t, still)
                return
            if await self._drop_departed(s):
                s = await self.snapshot(tournament_id)
        await self._next(s, (current.number if current else 0) + 1, found)

    async def _drop_departed(self, s: Snapshot) -> bool:
        """Who left or was removed at a table of the round counts as out from then on (T-B3)."""
        dropped = False
        for b in s.boards:
            if done(b) and b.round == s.t.round:
                for seat in departed(b):
                    dropped |= await self.store.drop_entry(s.t.id, b.seats[seat], b.round)
        return dropped

    async def _time_up(self, t: TournamentRow, still: list[Board], why: str | None = None) -> None:
        """The round's deadline passed (or ``why``: the tournament was ended): its tables still open are ended
        (their ends move the tournament on)."""
        lang = await self.service.language(t.guild_id)
        for b in still:
            table = await self.service.get(b.table_id) if b.table_id else None
            if table is None or table.status not in ("lobby", "playing"):
                continue
            with contextlib.suppress(Refused):
                change = await self.service.end(table, why or localize(_("the round's time ran out"), lang))
                await self.boards.publish(change)

    async def _next(self, s: Snapshot, number: int, found: float) -> None:
        t = s.t
        entrants, played = s.entrants(), s.played()
        if t.format == "swiss":
            pairing = swiss_round(entrants, played, t.size, number) if number <= t.rounds else None
        else:
            pairing = knockout_round(entrants, played, t.size, number)
        if pairing is None or not pairing.tables:
            await self._finish(s)
            return
        tables = [list(table) for table in pairing.tables]
        seated = [u for table in tables for u in table]
        if len(seated) != len(set(seated)):  # never: the pure logic seats everyone once (checked again here)
            raise RuntimeError(f"tournament {t.id} round {number}: a player seated twice")
        now = self.now()
        if not await self.store.claim_round(t.id, number, tables, list(pairing.byes), now + round_time(t.pace), now):
            return  # claimed by another call or process: it opens the tables
        s = await self.snapshot(t.id)
        await self._open(s, s.rounds[-1], found)

    async def _open(self, s: Snapshot, r: RoundRow, found: float) -> None:
        """Opens every table of round ``r`` not opened yet (each in a thread of its own), shows every table of it
        not shown yet (one opened just before a crash), then announces the round, once. Every step is a repeat
        away from nothing: a board's thread and table are set once in the store, the ping and a board's first
        message carry a nonce named by the table, the announcement is claimed, sent with its nonce, recorded."""
        t, who = s.t, s.who
        parent = self.bot.get_channel(t.channel_id)
        lang = await self.service.language(t.guild_id)
        shown = []
        for b in [b for b in s.boards if b.round == r.number]:
            thread_id = b.thread_id or await self._thread(t, r.number, b.board, parent, lang)
            if b.table_id is not None:
                change = await self._unshown(b.table_id)
            else:
                players = [{"id": u, "name": who.get(u, "?")} for u in b.seats]
                change = await self.service.open_seated(
                    (t.id, r.number, b.board), guild_id=t.guild_id, thread_id=thread_id, parent_id=t.channel_id,
                    game=t.game, options=t.options, players=players, pace=t.pace)
            if change is not None:
                shown.append(self._show(t, r, b, change, lang))
        await asyncio.gather(*shown)
        self.opened.append((t.id, r.number, found, asyncio.get_running_loop().time()))
        if not await self.store.claim_round_post(t.id, r.number, self.now()):
            return  # another call or process announces it (or did, and the claim goes stale if it died)
        s = await self.snapshot(t.id)
        await self.post_round(s, r, lang, nonce=nonces.once("tournament_round", t.id, r.number))
        await self.store.round_posted(t.id, r.number)
        await self.refresh(s)

    async def _unshown(self, table_id: int) -> Change | None:
        """A board's table whose board was never posted (the process died between opening and showing it)."""
        table = await self.service.get(table_id)
        if table is None or table.row.message_id is not None:
            return None
        return Change(table, before=frozenset(), finished=table.status == "finished", closed=table.status == "ended")

    async def _thread(self, t: TournamentRow, number: int, board: int, parent, lang: str) -> int:
        name = say(lang, "{game} #{number} · round {round} · table {board}", game=get_engine(t.game).title,
                   number=t.id, round=number, board=board)[:100]
        kind = discord.ChannelType.news_thread if parent.is_news() else discord.ChannelType.public_thread
        thread = await parent.create_thread(name=name, type=kind, auto_archive_duration=ARCHIVE_AFTER)
        stored = await self.store.set_board_thread(t.id, number, board, thread.id)
        if stored != thread.id:  # another process made the board's thread first: this one goes
            with contextlib.suppress(discord.HTTPException):
                await thread.delete()
        return stored

    async def _show(self, t: TournamentRow, r: RoundRow, b: Board, change, lang: str) -> None:
        """The players' one ping in their table's thread, then the board (no turn ping of its own)."""
        table = change.table
        if table.status in ("lobby", "playing"):  # (a table ended before it was ever shown gets no "good luck")
            mention = [u for u in b.seats if await self.store.pings_enabled(u)]
            thread = self.bot.get_partial_messageable(table.row.channel_id, guild_id=t.guild_id)
            players = " · ".join(f"<@{u}>" for u in b.seats)
            try:
                await thread.send(say(lang, "{players}: round {round}, table {board} of {title}. Good luck!",
                                      players=players, round=r.number, board=b.board,
                                      title=localize(words.title(t), lang))[:2000],
                                  allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in mention]),
                                  nonce=nonces.once("tournament_ping", table.id))
            except discord.HTTPException as exc:
                log.warning("tournament %s: could not ping table %s (%s)", t.id, table.id, exc)
        change.before = None  # the players were pinged just now: the board's first turn ping would be a second
        await self.boards.publish(change)

    # --- start and end --------------------------------------------------------------------------------------
    async def start(self, tournament_id: int, user_name: str) -> None:
        """A moderator's Start (``Refused`` with one sentence when it can't start, nothing changed)."""
        async with self.locks(tournament_id):
            s = await self.snapshot(tournament_id)
            if s is None:
                raise Refused(Refusal.NO_GAME, _("There is no such tournament."))
            if s.t.status != "signup":
                raise Refused(Refusal.LOBBY_CLOSED, _("This tournament has already started.")
                              if s.t.status == "running" else _("This tournament is over."))
            await self._start(s, user_name)

    async def _start(self, s: Snapshot, by: str | None) -> None:
        t, found = s.t, asyncio.get_running_loop().time()
        need = fewest(t.format, t.size)
        if len(s.entries) < need:
            if by is not None:
                raise Refused(Refusal.TOO_FEW_PLAYERS, _(
                    "This tournament needs at least {n} players to start; {signed} signed up.", n=need,
                    signed=len(s.entries)))
            lang = await self.service.language(t.guild_id)
            reason = localize(_("too few players signed up ({signed} of at least {n})", signed=len(s.entries),
                                n=need), lang)
            if await self.store.close_tournament(t.id, "cancelled", reason):
                await self._closing(await self.snapshot(t.id))
            return
        rated = await self.store.entry_ratings(t.guild_id, t.game, [e.user_id for e in s.entries])
        order = sorted(s.entries, key=lambda e: (rated.get(e.user_id) is None, -(rated.get(e.user_id) or 0)))
        seeds = [(e.user_id, i + 1, rated.get(e.user_id)) for i, e in enumerate(order)]
        rounds = t.rounds if t.format == "swiss" else knockout_rounds(len(s.entries), t.size)
        if not await self.store.start_tournament(t.id, t.version, rounds, seeds):
            if by is not None:
                raise Refused(Refusal.LOBBY_CLOSED, _("This tournament has already started."))
            return
        s = await self.snapshot(t.id)
        await self._next(s, 1, found)

    async def _finish(self, s: Snapshot) -> None:
        """The last round is over: the final standings, the winner and the podium, once."""
        if not await self.store.close_tournament(s.t.id, "finished"):
            return
        await self._closing(await self.snapshot(s.t.id))

    async def _closing(self, s: Snapshot) -> None:
        """A closed tournament's post (the podium, its end, its cancellation), once: claimed, sent with its
        nonce, recorded; a crash in between leaves a claim the loop takes again (``POST_STALE``)."""
        t = s.t
        if not await self.store.claim_final(t.id, self.now()):
            return
        nonce = nonces.once("tournament_closed", t.id)
        if t.status == "cancelled":
            lang = await self.service.language(t.guild_id)
            message = await self.say(t, say(lang, "{title} is cancelled: {reason}.", title=localize(
                words.title(t), lang), reason=t.end_reason or ""), nonce=nonce)
        else:
            message = await self.post_final(s, nonce=nonce)
        await self.store.final_posted(t.id, message)
        await self.refresh(s)

    async def end(self, tournament_id: int, reason: str) -> Snapshot:
        """``/tournament end``: the results up to now kept, the tables of the round in play ended."""
        async with self.locks(tournament_id):
            s = await self.snapshot(tournament_id)
            if s is None or not await self.store.close_tournament(tournament_id, "ended", reason):
                raise Refused(Refusal.GAME_OVER, _("This tournament is already over."))
            still = [b for b in s.boards if b.round == s.t.round and not done(b)]
            lang = await self.service.language(s.t.guild_id)
            await self._time_up(s.t, still, say(lang, "a moderator ended the tournament"))
            s = await self.snapshot(tournament_id)
            await self._closing(s)
            return s
