"""The table service's core: the cache of open tables, the channel locks, the server settings, loading and
reloading a table, and the one way a write meets another writer (``_racing``). Every other part of the
service (bot/table/lobby.py, moves.py, departures.py, timers.py, thinking.py) builds on it.

The cache holds the open tables this process touched lately, not every open table: one untouched for
``Defaults.cache_idle`` seconds, or the least recently touched past ``Defaults.cache_max``, is let go (unless a
computer is thinking at it or its channel's lock is held or waited for) and loaded again from the store when
next needed, as after a restart (``_evict``): thousands of turn-based tables that wait for days cost no memory.

The cache and the locks are this process's: they are right because a channel is served by one process at a
time (the one running its guild's shard, see :class:`bot.store.Shards`). When that changes hands (a process
dies and another takes its shards over), the store's version check catches the other writer, and the table
is reloaded instead of refusing clicks on the current board (``_racing``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import replace

import i18n
from bot import language
from bot.computers import computer_seats
from bot.store import GuildSettings, Shards, StaleVersion, Store
from bot.table import recent
from bot.table.model import Change, Defaults, Drawing, KeyedLocks, Table
from bot.table.refusals import Refusal, Refused
from bot.table.words import board_view
from bot.workers import renderpool
from games import get_engine

log = logging.getLogger(__name__)

REST_AT_ONCE = 200
"""At most this many tables rested by one pass of ``TableCore._rest`` (some 2 ms of the event loop; 500 a
pass, right after 2,000 tables were opened, came with a 21.6 ms stall of the idle bot in benchmarks.load)."""


class TableCore:
    """The state every part of the service shares, and loading tables into it."""

    def __init__(self, store: Store, defaults: Defaults | None = None, clock=time.time,
                 shards: Shards | None = None):
        self.store = store
        self.defaults = defaults or Defaults()
        self.clock = clock
        self.shards = shards
        """The shards whose deadlines this process fires (None: every table's, one process runs them all)."""
        self._cache: OrderedDict[int, Table] = OrderedDict()
        """Open tables (lobby or playing) by id, the least recently touched first; a table leaves when it ends,
        or when it sat idle (``_evict``)."""
        self._touched: dict[int, float] = {}
        """table -> when (``time.monotonic``) it was last asked for."""
        self._rested_at = float("-inf")
        """When (``time.monotonic``) ``_rest`` last rested the idle tables' states."""
        self._open_in: dict[int, int] = {}
        """channel -> the id of its open table in the cache (one open table per channel)."""
        self.lock = KeyedLocks()
        """``async with service.lock(channel_id)``: one change at a time per channel."""
        self._settings: dict[int, GuildSettings] = {}
        self._timers_wake: asyncio.Future | None = None
        self._wake_pending = False
        self._thinking: dict[int, asyncio.Task] = {}
        """table -> the task of its computers' move under way (thinking in a worker, then committing)."""
        self._computer_changes: list[Change] = []
        """Computer moves committed since the deadline loop last asked (``fire_due`` hands them over)."""
        self.show: Callable[[Change], Awaitable[None]] | None = None
        """How a computer's committed move is shown at once (the Tables cog's ``publish``); None: handed to the
        caller of ``fire_due`` instead (a service without a channel: tests)."""
        self.discord_locale = lambda guild_id: None
        """guild -> its Discord language (preferred locale): the client's guild cache (bot/client.py)."""

    async def get(self, table_id: int) -> Table | None:
        table = self._cache.get(table_id)
        if table is not None:
            self._touch(table_id)
            self._evict()
            return table
        row = await self.store.get_table(table_id)
        if row is None:
            return None
        engine = get_engine(row.game)
        table = Table(row, engine)
        table.set_state(None, row.state or None)
        await self._recall(table)
        if row.status in ("lobby", "playing"):
            if table.state is not None and engine.timer(table.state):
                table.timer_due = await self.store.deadline(table_id, "timer")
            if row.status == "playing":
                table.turn_due = await self.store.deadline(table_id, "turn")
                await self._remember_away(table)
            self._remember(table)
        return table

    async def _reload(self, table: Table) -> None:
        """Reads the table again from the store into the same object (another writer changed it)."""
        row = await self.store.get_table(table.id)
        if row is None:
            self._forget(table)
            return
        table.row = row
        table.set_state(None, row.state or None)
        table.timer_due = None
        table.screens.reset(row.version)
        table.held = set()
        table.last_words = None
        await self._recall(table)
        table.turn_due = await self.store.deadline(table.id, "turn") if row.status == "playing" else None
        await self._remember_away(table)
        if row.status not in ("lobby", "playing"):
            self._forget(table)
        elif table.state is not None and table.engine.timer(table.state):
            table.timer_due = await self.store.deadline(table.id, "timer")

    async def _recall(self, table: Table) -> None:
        """The table's recent log lines (``Table.recent``) rebuilt from the store's action log, for a game in play
        or one whose last board is still to be shown: the game played again from its start, in a thread (pure
        engine steps, 0.1-0.3 ms a move: a long game's replay must not hold the event loop; see
        docs/architecture.md "The table message"). A finished table loaded again only to be read keeps none (its
        board says its stored last move)."""
        row = table.row
        if table.state is None or (row.status != "playing" and row.shown_version >= row.version):
            table.recent = []
            return
        actions = await self.store.actions(table.id)
        try:
            table.recent = await asyncio.to_thread(recent.rebuild, table.engine, row.players, row.options, row.seed,
                                                   actions, row.pace is not None)
        except Exception:  # a log today's rules cannot play: the board says its stored last move instead
            log.exception("table %s: its recent moves could not be rebuilt from the action log", table.id)
            table.recent = []

    async def _racing(self, table: Table, attempt):
        """``await attempt()``: checks, then versioned writes. When another writer changed the table since it
        was loaded (a process that served this channel before us), the store refuses the write; the table is
        reloaded and ``attempt`` runs once more, so its checks decide on the table as stored (a click on the
        version stored now goes through, one on an older board is refused as stale)."""
        try:
            return await attempt()
        except StaleVersion:
            await self._reload(table)
        try:
            return await attempt()
        except StaleVersion:
            await self._reload(table)
            raise Refused(Refusal.STALE) from None

    def _remember(self, table: Table) -> None:
        self._cache[table.id] = table
        self._open_in[table.row.channel_id] = table.id
        self._touch(table.id)
        self._evict()

    def _forget(self, table: Table) -> None:
        self._cache.pop(table.id, None)
        self._touched.pop(table.id, None)
        if self._open_in.get(table.row.channel_id) == table.id:
            del self._open_in[table.row.channel_id]

    def _touch(self, table_id: int) -> None:
        self._cache.move_to_end(table_id)
        self._touched[table_id] = time.monotonic()

    def _busy(self, table: Table) -> bool:
        """Whether something of this process holds on to the table object: its computers think (``_thinking``)
        or someone holds or waits for its channel's lock (a change under way)."""
        return table.id in self._thinking or self.lock.busy(table.row.channel_id)

    def _evict(self) -> None:
        """Lets go of the tables idle past ``Defaults.cache_idle`` and of the least recently touched past
        ``Defaults.cache_max``, oldest first: work in proportion to what goes (the cache is in touch order). A
        busy one (``_busy``) stays, counted as touched now. What only memory knew of a table let go (which
        older screens still count, ``Table.screens``; a computer's ``held``; a first pick) is lost as at a
        restart: a click on an older board is judged on the table as stored."""
        idle_since = time.monotonic() - self.defaults.cache_idle
        for _ in range(len(self._cache)):
            table_id, table = next(iter(self._cache.items()))
            if len(self._cache) <= self.defaults.cache_max and self._touched[table_id] > idle_since:
                break
            if self._busy(table):
                self._touch(table_id)
                continue
            self._forget(table)
        self._rest()

    def _rest(self) -> None:
        """Rests (``Table.rest``: the state kept as its JSON text, nothing for the garbage collector to walk)
        the tables untouched for ``Defaults.state_rest`` seconds, busy ones aside; at most one pass in that
        time, over the tables touched before it (the cache is in touch order): some 1 ms for 2,000, and
        ``REST_AT_ONCE`` tables rested at most (letting go of a decoded state takes ~9 µs: 2,000 tables loaded
        at once, e.g. at a start, held the loop 18 ms), the others at the next pass."""
        now = time.monotonic()
        if now - self._rested_at < self.defaults.state_rest:
            return
        self._rested_at = now
        rested = 0
        for table_id, table in self._cache.items():
            if self._touched[table_id] > now - self.defaults.state_rest or rested == REST_AT_ONCE:
                return
            if not table.resting() and not self._busy(table):
                table.rest()
                rested += 1

    def cached(self) -> int:
        """How many tables this process holds in memory."""
        return len(self._cache)

    def is_open(self, table_id: int) -> bool:
        """Whether the table is open and in memory (no database trip)."""
        return table_id in self._cache

    async def in_channel(self, channel_id: int) -> Table | None:
        cached = self.cached_in(channel_id)
        if cached:
            return cached[0]
        row = await self.store.open_table_in(channel_id)
        return await self.get(row.id) if row else None

    def cached_in(self, channel_id: int) -> list[Table]:
        """The channel's open table if it is in memory (no database trip: called for every chat message)."""
        table = self._cache.get(self._open_in.get(channel_id, 0))
        return [table] if table is not None and table.status in ("lobby", "playing") else []

    async def settings(self, guild_id: int) -> GuildSettings:
        """A copy of the guild's settings (cached: every move reads the turn timeout)."""
        return replace(await self._settings_read(guild_id))

    async def save_settings(self, settings: GuildSettings) -> None:
        await self.store.save_guild_settings(settings)
        self._settings[settings.guild_id] = replace(settings)

    async def _settings_read(self, guild_id: int) -> GuildSettings:
        """The guild's cached settings themselves, only to be read (``settings`` copies: every move reads its
        language and turn timeout)."""
        if guild_id not in self._settings:
            self._settings[guild_id] = await self.store.guild_settings(guild_id)
        return self._settings[guild_id]

    async def language(self, guild_id: int) -> str:
        """The language of what the guild's channels see (bot/language.py decides)."""
        return language.choose((await self._settings_read(guild_id)).language, self.discord_locale(guild_id))

    async def turn_timeout(self, guild_id: int) -> int:
        return (await self._settings_read(guild_id)).turn_timeout or self.defaults.turn_timeout

    async def _open(self, table_id: int) -> Table:
        table = await self.get(table_id)
        if table is None:
            raise Refused(Refusal.NO_GAME)
        if table.status in ("finished", "ended"):
            raise Refused(Refusal.GAME_OVER)
        return table

    async def _write(self, table: Table, coro) -> None:
        """A versioned write (StaleVersion when another writer moved first: see ``_racing``)."""
        await coro
        self.wake_timers()

    async def set_ping_message(self, table: Table, message_id: int | None) -> None:
        table.row.ping_message_id = message_id
        await self.store.set_ping_message(table.id, message_id)

    async def set_message(self, table: Table, message_id: int | None) -> None:
        table.row.message_id = message_id
        table.messages_since_board = 0
        if message_id:
            table.mark_posted()
        await self.store.set_message(table.id, message_id)

    async def _refresh(self, table: Table) -> None:
        """Reloads the table when the store holds a newer version (another writer), else keeps our copy (and
        the seats' screens that still count, ``Table.since``)."""
        row = await self.store.get_table(table.id)
        if row is None or row.version != table.version:
            await self._reload(table)

    async def render_private(self, table: Table, seat: int, lang: str = i18n.DEFAULT) -> bytes:
        """The seat's own secret part (a hand) as PNG in ``lang`` (its player's), drawn in a worker process.
        Only for that seat's eyes."""
        view = table.engine.view(table.state, seat)
        return await renderpool.private(table.row.game, view, table.names[seat], locale=lang)

    async def render(self, table: Table, lang: str | None = None, drawing: Drawing | None = None) -> bytes:
        """The public board as PNG in ``lang`` (default: the server's), drawn in a worker process (see
        bot/workers/renderpool.py). ``drawing``: the move's board, started while its commit was under way
        (``Change.board``): used when the table still looks so, in that language."""
        lang = lang or await self.language(table.row.guild_id)
        if drawing is not None and drawing.looks == table.looks() and drawing.lang == lang:
            return await drawing.png
        view = board_view(table.engine, table.state)
        return await renderpool.board(table.row.game, view, table.names, table.last_move(lang), table.focus(),
                                      tuple(computer_seats(table.players)), locale=lang)
