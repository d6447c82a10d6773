"""The store: tables, the action log, deadlines, guild and user settings, results.

One interface, :class:`Store`, and two backends chosen by the one database setting (``bot.database.open_store``;
this module imports neither backend):

- a path (the default ``data/geotable.db``): SQLite through aiosqlite, embedded (bot/store_sqlite.py);
- a ``postgresql://`` or ``postgres://`` URL: PostgreSQL through asyncpg, shared by several bot processes
  (bot/store_postgres.py).

All the queries live here, once, in SQL both databases speak (``?`` placeholders; ``ON CONFLICT ... DO
UPDATE``; ``RETURNING``). A backend only connects, applies its migrations (``bot/migrations/<dialect>/``, a
parallel set kept in step by tests/bot/test_store.py), runs a statement or a transaction of several, turning
its driver's errors into :class:`ChannelBusy`. A move is committed here too (``commit_move``: the version's
compare-and-set, state, action log, deadlines and, at the end, result and ratings in one transaction), so
it is written once for both databases and no migration re-creates it.
"""

from __future__ import annotations

import abc
import contextlib
import json
import re
import time
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from bot.ratings import Outcome, Plan, Skill, outcome

DIALECTS = ("sqlite", "postgres")


class StaleVersion(Exception):
    """The table changed since the caller loaded it: nothing was written."""


class ChannelBusy(Exception):
    """The channel already has an open table."""


class StaleRatings(Exception):
    """A game's end was about to write ratings computed from ratings that changed since they were read (another
    game of one of its players was rated meanwhile): nothing was written. ``record_move`` reads them again."""


RATING_ATTEMPTS = 20
"""How often ``record_move`` recomputes a game's ratings when other games of its players keep ending first."""


class DatabaseUnavailable(Exception):
    """The database setting names a database the bot cannot use: the message is the cause in words (never the
    password), for ``python -m bot`` to print in one sentence with the setting's name."""


class NotADatabaseSetting(ValueError):
    """The database setting looks like a URL but is not one the bot supports (the message says so, password
    masked)."""


@dataclass(frozen=True)
class Shards:
    """The shards one bot process runs out of ``count``. A guild is on shard ``(guild_id >> 22) % count``
    (Discord's rule), and a table on its guild's: a process serves only its shards' tables (heals their
    boards, fires their deadlines), so each channel is served by exactly one process."""

    count: int
    ids: tuple[int, ...]

    def of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.count

    def sql(self, guild_column: str) -> tuple[str, tuple[int, ...]]:
        """A condition on a guild id column that holds for this process's guilds, and its arguments (the
        same arithmetic in SQLite and PostgreSQL)."""
        marks = ", ".join("?" * len(self.ids))
        return f"(({guild_column} >> 22) % ?) IN ({marks})", (self.count, *self.ids)


@dataclass
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    game: str
    options: dict
    seed: int
    status: str
    players: list[dict]
    host_id: int
    state: str | None
    version: int
    message_id: int | None
    last_move: str | None
    end_reason: str | None
    created_at: float
    updated_at: float
    ping_message_id: int | None = None
    shown_version: int = 0
    takeover: bool = True
    """A computer takes over the seat of a player who leaves or is removed during play (a lobby option)."""

    @classmethod
    def from_row(cls, row: Mapping) -> TableRow:
        data = dict(row)
        data["options"] = json.loads(data["options"])
        data["players"] = json.loads(data["players"])
        if "takeover" in data:
            data["takeover"] = bool(data["takeover"])
        return cls(**data)


@dataclass(frozen=True)
class Standing:
    """A row of a leaderboard: ``rank`` is shared by equal ratings (1, 2, 2, 4)."""

    rank: int
    user_id: int
    name: str
    rating: int
    games: int
    wins: int


@dataclass(frozen=True)
class Leaderboard:
    game: str
    rows: list[Standing]
    """The best ``limit`` rated players of the game in the server."""
    own: Standing | None
    """The asker's row (also when it is among ``rows``); None when they have no rating in this game yet."""
    players: int
    """How many people have a rating in this game in this server."""


@dataclass(frozen=True)
class GameStats:
    """A person's figures in one game in one server: ``games``/``wins`` are rated games, ``unrated`` the
    finished games that were not rated (with computers, ...), ``best_score`` over every finished game."""

    game: str
    games: int
    wins: int
    unrated: int
    rating: int | None
    best_score: float | None
    trend: list[tuple[float, int]]
    """(finished at, rating after) of their latest rated games, oldest first."""


def short_id(table_id: int) -> str:
    """A finished game's short id: its table number as the board shows it ("table 10" -> ``10``)."""
    return str(table_id)


def table_id_of(short: str) -> int | None:
    """The table id of a short id (``10`` or ``#10``), or None when it is not one."""
    text = short.strip().removeprefix("#").strip()
    if not text or len(text) > 19 or not text.isascii() or not text.isdigit():
        return None
    number = int(text)
    return number if number < 1 << 63 else None


@dataclass(frozen=True)
class FinishedGame:
    """A stored result as history shows it; ``guild_id``, ``channel_id`` and ``message_id`` make the link to
    its final board (``message_id`` None: never posted)."""

    table_id: int
    guild_id: int
    channel_id: int | None
    message_id: int | None
    game: str
    finished_at: float
    standings: dict

    @property
    def short_id(self) -> str:
        return short_id(self.table_id)

    @property
    def players(self) -> list[dict]:
        return self.standings.get("players", [])

    @property
    def outcome(self) -> Outcome:
        """Who won, as the ratings count it (a seat a computer took over ranks after the people still playing)."""
        return outcome(self.game, self.players, self.standings.get("ranking") or [],
                       bool(self.standings.get("no_winner")))

    @property
    def winners(self) -> list[dict]:
        """The players of the first place (none when nobody won)."""
        return [self.players[s] for s in self.outcome.winners if s < len(self.players)]

    @property
    def departed(self) -> list[str]:
        """The names of the persons whose seats the game's own ranking put first though they left (a computer
        played their seat on): the reason ``winners`` are not the game's own."""
        return [self.players[s]["was"]["name"] for s in self.outcome.overtaken if s < len(self.players)]

    @classmethod
    def from_row(cls, row: Mapping) -> FinishedGame:
        return cls(row["table_id"], row["guild_id"], row["channel_id"], row["message_id"], row["game"],
                   row["finished_at"], json.loads(row["standings"]))


FORMER_PLAYER = "Former player"
"""The name a person's seats get in stored games once they had their data deleted (``/privacy delete``)."""
FORMER_ID = 0
"""The id their seats get instead of theirs: no Discord user has it, and computers have negative ones."""
FORMER_MEMBER = "a former member"
"""Who ended a game, in its stored reason ("... (by a former member)"), once that moderator had their data deleted."""

OPEN = ("lobby", "playing")


@dataclass(frozen=True)
class PersonTable:
    """A table of a server that names a person: they sit at it (or sat, and a computer plays their seat),
    host it, or ended it as a moderator (its reason says "(by <name>)")."""

    id: int
    channel_id: int
    status: str
    game: str
    players: list[dict]
    host_id: int
    last_move: str | None
    end_reason: str | None
    standings: dict | None
    """The stored result (finished games)."""
    names: frozenset[str]
    """The names they have at it (their seats' names; none when they only ended it)."""
    seated: bool
    """They sit (or sat) at it, or host it."""

    @property
    def open(self) -> bool:
        return self.status in OPEN


def anonymised_players(players: list[dict], user_id: int) -> tuple[list[dict], set[str]]:
    """``players`` (a table's seats or a result's) with ``user_id``'s seats, and those computers took over from
    them, no longer naming them (``FORMER_PLAYER``, id ``FORMER_ID``); and the names those seats had. The other
    seats are returned as they are, so the game stays whole for the others."""
    out, names = [], set()
    for player in players:
        was = player.get("was")
        if player.get("id") == user_id:
            names.add(player["name"])
            out.append({**player, "id": FORMER_ID, "name": FORMER_PLAYER})
        elif isinstance(was, dict) and was.get("id") == user_id:
            names.add(was["name"])
            out.append({**player, "name": f"Computer for {FORMER_PLAYER}",
                        "was": {"id": FORMER_ID, "name": FORMER_PLAYER}})
        else:
            out.append(player)
    return out, names


def without_names(text: str | None, names: Sequence[str] | set[str], moderator_names: Sequence[str] = ()) -> str | None:
    """``text`` (a stored last move or end reason) with each of ``names`` as a whole word replaced by
    ``FORMER_PLAYER``, and "(by <name>)" of ``moderator_names`` by "(by a former member)"."""
    if not text:
        return text
    for name in sorted(moderator_names, key=len, reverse=True):
        text = text.replace(f"(by {name})", f"(by {FORMER_MEMBER})")
    words = [re.escape(n) for n in sorted(names, key=len, reverse=True) if n]
    if words:
        text = re.sub(rf"(?<!\w)(?:{'|'.join(words)})(?!\w)", FORMER_PLAYER, text)
    return text


class StillPlaying(Exception):
    """A person asked for their data to be deleted while a table of the server that is still open names them:
    nothing was deleted. ``tables``: those tables."""

    def __init__(self, tables: list[PersonTable]):
        super().__init__(f"still at {len(tables)} open table(s)")
        self.tables = tables


@dataclass(frozen=True)
class Lesson:
    """A /learn lesson: the engine replays its state from ``seed``, ``options`` and ``log``."""

    id: int
    user_id: int
    guild_id: int | None
    game: str
    options: dict
    seed: int
    players: int
    log: list
    version: int

    @classmethod
    def from_row(cls, row: Mapping) -> Lesson:
        return cls(row["id"], row["user_id"], row["guild_id"], row["game"], json.loads(row["options"]),
                   row["seed"], row["players"], [tuple(x) for x in json.loads(row["log"])], row["version"])


@dataclass(frozen=True)
class Forgotten:
    """What ``Store.forget_person`` did."""

    tables: int
    """Stored tables (games, lobbies) whose seats, results and texts no longer name them."""
    ratings: int
    """Games whose rating rows were deleted."""
    settings: bool
    """Their settings (every server) were deleted."""
    panels: int


@dataclass(frozen=True)
class Lease:
    """One row of ``shard_leases``: who serves a shard (see bot/leases.py)."""

    shard_id: int
    shard_count: int
    owner: str
    heartbeat_at: float


@dataclass
class GuildSettings:
    """A server's settings. Where games may be started: ``allowed_channels`` None, every channel except
    ``forbidden_channels``; a list, only those channels. A thread (a forum post) is decided by its own entry,
    else by its parent's, so allowing or forbidding a channel or a forum covers its threads, and a thread of
    an allowed channel can still be forbidden on its own; with games allowed everywhere, a thread of a
    forbidden channel can be allowed on its own (``also_threads``).

    The lists live in the one ``allowed_channels`` column (no schema change): NULL (everywhere), a JSON
    list (only these; what older versions wrote) or ``{"only": [...] or null, "except": [...], "also": [...]}``."""

    guild_id: int
    turn_timeout: int | None = None
    allowed_channels: list[int] | None = None
    forbidden_channels: list[int] = field(default_factory=list)
    also_threads: list[int] = field(default_factory=list)
    """Games allowed everywhere: threads allowed although their channel is forbidden."""
    retention_days: int | None = None
    """Finished games older than this many days are deleted with their logs (None: kept forever)."""
    language: str | None = None
    """The language of the server's public messages and boards as a moderator set it (``/mod language``:
    "en", "de", "es"); None follows the server's Discord language (bot/language.py)."""

    def allows(self, channel_id: int, parent_id: int | None = None) -> bool:
        """Whether a game may be started in ``channel_id`` (a thread's ``parent_id``: its channel or forum)."""
        if channel_id in self.forbidden_channels:
            return False
        if self.allowed_channels is None:
            return channel_id in self.also_threads or parent_id not in self.forbidden_channels
        return channel_id in self.allowed_channels or parent_id in self.allowed_channels

    def stored_channels(self) -> str | None:
        """The ``allowed_channels`` column's text for these settings."""
        if not self.forbidden_channels and not self.also_threads:
            return None if self.allowed_channels is None else json.dumps(self.allowed_channels)
        return json.dumps({"only": self.allowed_channels, "except": self.forbidden_channels}
                          | ({"also": self.also_threads} if self.also_threads else {}))

    @classmethod
    def from_row(cls, row: Mapping) -> GuildSettings:
        stored = json.loads(row["allowed_channels"]) if row["allowed_channels"] else None
        retention = row["retention_days"] or None
        language = row["language"] or None
        if isinstance(stored, dict):
            return cls(row["guild_id"], row["turn_timeout"], stored.get("only"), list(stored.get("except", [])),
                       list(stored.get("also", [])), retention, language)
        return cls(row["guild_id"], row["turn_timeout"], stored, retention_days=retention, language=language)


POSTGRES_SCHEMES = ("postgresql", "postgres")
_LOOKS_LIKE_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:/")
"""A scheme of two letters or more, a colon and a slash: ``postgresql:/x``, ``mysql://``. (``C:/data`` is a
Windows path: one letter.)"""


def is_postgres_url(database: str | Path) -> bool:
    """Whether the database setting names a PostgreSQL server (else it is a SQLite file's path)."""
    return str(database).startswith(tuple(f"{scheme}://" for scheme in POSTGRES_SCHEMES))


def masked(database: str | Path) -> str:
    """The database setting with any password in it replaced by ``***``, fit to print.

    >>> masked("postgresql+asyncpg://user:secret@host/db")
    'postgresql+asyncpg://user:***@host/db'
    >>> masked("postgresql://user:se/c#r?e@t@host/db?password=secret&sslmode=require")
    'postgresql://user:***@host/db?password=***&sslmode=require'

    A generated password often holds ``/ # ? @`` unencoded: everything up to the last ``@`` is masked.
    """
    text = re.sub(r"([?&]password=)[^&#]*", r"\1***", str(database), flags=re.IGNORECASE)
    return re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*://[^/?#@:]*:).*@", r"\1***@", text)


def check_database_setting(database: str | Path) -> None:
    """Refuses (:class:`NotADatabaseSetting`) what looks like a URL but is not a PostgreSQL one: such a string
    must never become a SQLite file named after it, password included."""
    text = str(database)
    if is_postgres_url(text):
        try:
            urllib.parse.urlsplit(text).port  # noqa: B018 (a port that is not a number raises here)
        except ValueError:
            raise NotADatabaseSetting(
                f"the port in {masked(text)} is not a port number (postgresql://user:password@host:5432/name; "
                "a password with / # ? or @ in it must be percent-encoded: %2F %23 %3F %40)"
            ) from None
        return
    if "://" in text or _LOOKS_LIKE_URL.match(text):
        raise NotADatabaseSetting(
            f"{masked(text)} looks like a URL but is not one the bot supports: use "
            "postgresql://user:password@host:5432/name for PostgreSQL, or a file path for SQLite"
        )


def migrations(dialect: str = "sqlite") -> list[tuple[int, str]]:
    """The numbered SQL files of ``bot/migrations/<dialect>/``, in order: [(1, sql), (2, sql), ...]. Numbers
    run 1, 2, 3 ... without gaps: a database records only the last number it applied, so a file numbered
    below it (a gap filled later) would never be applied."""
    if dialect not in DIALECTS:
        raise ValueError(f"no migrations for {dialect!r}")
    folder = resources.files("bot") / "migrations" / dialect
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _ in found]
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"the {dialect} migrations must be numbered 1, 2, 3 ... without gaps: {numbers}")
    return found


class Transaction(abc.ABC):
    """The statements of one transaction (``Store._transaction``), as ``Store._fetch`` and ``Store._execute``."""

    @abc.abstractmethod
    async def fetch(self, sql: str, args: Sequence[Any]) -> list[Mapping]:
        """Rows of one statement."""

    @abc.abstractmethod
    async def execute(self, sql: str, args: Sequence[Any]) -> int:
        """Runs one statement; returns the number of rows it changed."""


class Store(abc.ABC):
    """What the table service and the cogs may ask of the database. Backends implement the primitives
    (``_fetch``, ``_execute``, ``migrate``, ``close``); every query is written once, here."""

    dialect: str = ""

    # --- what a backend provides ---------------------------------------------------------------------
    @abc.abstractmethod
    async def close(self) -> None:
        """Closes the connection (or pool)."""

    @abc.abstractmethod
    async def migrate(self, upto: int | None = None) -> int:
        """Applies the migrations not yet applied (up to number ``upto``); returns the schema's number."""

    @abc.abstractmethod
    async def _fetch(self, sql: str, args: Sequence[Any]) -> list[Mapping]:
        """Rows of one statement (each readable by column name and by position)."""

    @abc.abstractmethod
    async def _execute(self, sql: str, args: Sequence[Any]) -> int:
        """Runs one statement in its own transaction; returns the number of rows it changed. Raises
        :class:`ChannelBusy` for a second open table."""

    @abc.abstractmethod
    def _transaction(self) -> contextlib.AbstractAsyncContextManager[Transaction]:
        """Statements that are written together or not at all: ``async with self._transaction() as tx``;
        an exception out of the block (or a cancellation) rolls every one of them back. No other statement
        of this store runs inside it: in the block, only ``tx`` runs statements (SQLite: the store's own
        methods would wait for the transaction's end)."""

    async def execute(self, sql: str, *args: Any) -> int:
        """One statement of portable SQL (``?`` placeholders), for maintenance and tests."""
        return await self._execute(sql, args)

    async def _fetchrow(self, sql: str, args: Sequence[Any]) -> Mapping | None:
        rows = await self._fetch(sql, args)
        return rows[0] if rows else None

    async def _fetchval(self, sql: str, args: Sequence[Any]) -> Any:
        row = await self._fetchrow(sql, args)
        return row[0] if row else None

    # --- tables --------------------------------------------------------------------------------------
    async def create_table(
        self, *, guild_id: int, channel_id: int, game: str, options: dict, seed: int, host: dict,
        lobby_due: float | None, others: Sequence[dict] = (), takeover: bool = True, host_seat: int = 0,
    ) -> TableRow:
        """A new lobby seating ``host`` (in seat ``host_seat``) and ``others`` (computer seats asked for with
        /play; a rematch's seats, kept ones included); ``takeover``: the lobby's takeover switch."""
        now = time.time()
        seating = list(others)
        seating.insert(host_seat, host)
        row = await self._fetchrow(
            "INSERT INTO tables (guild_id, channel_id, game, options, seed, status, players, host_id,"
            " created_at, updated_at, takeover) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?) RETURNING *",
            (guild_id, channel_id, game, json.dumps(options), seed, json.dumps(seating), host["id"], now, now,
             int(takeover)),
        )
        if lobby_due is not None:
            await self.set_deadline(row["id"], "lobby", lobby_due)
        return TableRow.from_row(row)

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self._fetchrow("SELECT * FROM tables WHERE id = ?", (table_id,))
        return TableRow.from_row(row) if row else None

    async def open_table_in(self, channel_id: int) -> TableRow | None:
        row = await self._fetchrow(
            "SELECT * FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing')", (channel_id,)
        )
        return TableRow.from_row(row) if row else None

    async def update_lobby(self, table_id: int, version: int, players: list[dict], host_id: int) -> None:
        """Changes the lobby's seating; raises StaleVersion if someone else changed it first."""
        await self._update_checked(
            "UPDATE tables SET players = ?, host_id = ?, version = version + 1, updated_at = ?"
            " WHERE id = ? AND version = ? AND status = 'lobby'",
            (json.dumps(players), host_id, time.time(), table_id, version),
        )

    async def set_takeover(self, table_id: int, version: int, on: bool) -> None:
        """The lobby's option: a computer takes over a departing player's seat; StaleVersion as
        ``update_lobby``."""
        await self._update_checked(
            "UPDATE tables SET takeover = ?, version = version + 1, updated_at = ?"
            " WHERE id = ? AND version = ? AND status = 'lobby'",
            (int(on), time.time(), table_id, version),
        )

    async def start_table(self, table_id: int, version: int, players: list[dict], state: str,
                          turn_due: float | None, last_move: str = "") -> None:
        await self._update_checked(
            "UPDATE tables SET status = 'playing', players = ?, state = ?, last_move = ?, version = version + 1,"
            " updated_at = ? WHERE id = ? AND version = ? AND status = 'lobby'",
            (json.dumps(players), state, last_move, time.time(), table_id, version),
        )
        await self._execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,))
        if turn_due is not None:
            await self.set_deadline(table_id, "turn", turn_due)

    async def record_move(
        self, *, table_id: int, version: int, state: str, status: str, ply: int, seat: int, action: str,
        turn_due: float | None, standings: dict | None, last_move: str = "", timer_due: float | None = None,
        players: list[dict] | None = None, ratings: Plan | None = None,
    ) -> None:
        """``commit_move`` with the ratings of a game's end (``ratings``: bot/ratings.py's plan) computed from
        its people's stored ratings; when another game of one of them was rated between the read and the
        write, nothing is written and the ratings are read and computed again."""
        for _attempt in range(RATING_ATTEMPTS):
            rows = None
            if standings is not None and ratings is not None:
                rows = ratings.rows(await self.skills(table_id, ratings.users) if ratings.rated else {})
            try:
                await self.commit_move(table_id=table_id, version=version, state=state, status=status, ply=ply,
                                       seat=seat, action=action, turn_due=turn_due, standings=standings,
                                       last_move=last_move, timer_due=timer_due, players=players, rows=rows)
                return
            except StaleRatings:
                continue
        raise StaleRatings()

    async def commit_move(
        self, *, table_id: int, version: int, state: str, status: str, ply: int, seat: int, action: str,
        turn_due: float | None, standings: dict | None, last_move: str = "", timer_due: float | None = None,
        players: list[dict] | None = None, rows: list[dict] | None = None,
    ) -> None:
        """Commits one accepted move in one transaction, before its board is shown: the table's state, version
        and last move (and the seating when it changed: ``players``, a seat handed to a computer), the action
        log, the turn deadline (None: none), the game timer (None: unchanged, 0: none) and, at the end
        (``standings``), the result with its people's rows and ratings (``rows``: ``Plan.rows``).

        Raises :class:`StaleVersion` unless the table is at ``version``: the first statement is a
        compare-and-set on it (on PostgreSQL a concurrent writer's update makes it wait for the row, then
        match nothing). Raises :class:`StaleRatings` when a rated row's stored count of rated games is not one
        less than the row's (another game of theirs was rated since they were read; on PostgreSQL also judged
        on the row as committed while the upsert waited for it). Either way nothing is written."""
        now = time.time()
        async with self._transaction() as tx:
            changed = await tx.fetch(
                "UPDATE tables SET state = ?, version = version + 1, status = ?, updated_at = ?, last_move = ?,"
                " players = COALESCE(?, players) WHERE id = ? AND version = ? RETURNING guild_id, channel_id, game",
                (state, status, now, last_move, json.dumps(players) if players is not None else None, table_id,
                 version))
            if not changed:
                raise StaleVersion()
            table = changed[0]
            await tx.execute("INSERT INTO actions (table_id, ply, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                             (table_id, ply, seat, action, now))
            due, gone = [], []
            (due if turn_due is not None else gone).append(("turn", turn_due))
            if timer_due is not None:
                (due if timer_due > 0 else gone).append(("timer", timer_due))
            if gone:
                await tx.execute(f"DELETE FROM deadlines WHERE table_id = ? AND kind IN ({', '.join('?' * len(gone))})",
                                 (table_id, *(kind for kind, _ in gone)))
            if due:
                await tx.execute(
                    f"INSERT INTO deadlines (table_id, kind, due_at) VALUES {', '.join(['(?, ?, ?)'] * len(due))}"
                    " ON CONFLICT (table_id, kind) DO UPDATE SET due_at = excluded.due_at",
                    tuple(value for kind, at in due for value in (table_id, kind, at)))
            if standings is None:
                return
            await tx.execute(
                "INSERT INTO results (table_id, guild_id, game, standings, finished_at, channel_id)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, table["guild_id"], table["game"], json.dumps(standings), now, table["channel_id"]))
            if rows:
                await self._rate(tx, table_id, table["guild_id"], table["game"], rows, now)

    @staticmethod
    async def _rate(tx: Transaction, table_id: int, guild_id: int, game: str, rows: list[dict], now: float) -> None:
        """The people's rows of a finished game and their ratings (``commit_move``)."""
        rated = [r for r in rows if r["rated"]]
        if rated:
            stored = {r["user_id"]: r["games"] for r in await tx.fetch(
                f"SELECT user_id, games FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN"
                f" ({', '.join('?' * len(rated))})", (guild_id, game, *(r["user_id"] for r in rated)))}
            if any(stored.get(r["user_id"], 0) != r["games"] - 1 for r in rated):
                raise StaleRatings()
        await tx.execute(
            "INSERT INTO result_players (table_id, seat, guild_id, user_id, game, place, score, won, rated, rating,"
            f" finished_at) VALUES {', '.join(['(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'] * len(rows))}",
            tuple(v for r in rows for v in (table_id, r["seat"], guild_id, r["user_id"], game, r["place"], r["score"],
                                            r["won"], r["rated"], r["rating"], now)))
        # a rated row is written only if the stored count is still one less, judged on the row as committed
        # (PostgreSQL's INSERT ... ON CONFLICT re-reads a row another transaction changed while this one waited)
        written = await tx.execute(
            "INSERT INTO ratings (guild_id, user_id, game, name, mu, sigma, rating, games, wins, unrated, best_score,"
            f" updated_at) VALUES {', '.join(['(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'] * len(rows))}"
            " ON CONFLICT (guild_id, user_id, game) DO UPDATE SET name = excluded.name,"
            " mu = CASE WHEN excluded.rating IS NULL THEN ratings.mu ELSE excluded.mu END,"
            " sigma = CASE WHEN excluded.rating IS NULL THEN ratings.sigma ELSE excluded.sigma END,"
            " rating = CASE WHEN excluded.rating IS NULL THEN ratings.rating ELSE excluded.rating END,"
            " games = CASE WHEN excluded.rating IS NULL THEN ratings.games ELSE excluded.games END,"
            " wins = ratings.wins + excluded.wins, unrated = ratings.unrated + excluded.unrated,"
            " best_score = CASE WHEN ratings.best_score IS NULL OR excluded.best_score > ratings.best_score"
            " THEN excluded.best_score ELSE ratings.best_score END, updated_at = excluded.updated_at"
            " WHERE excluded.rating IS NULL OR ratings.games = excluded.games - 1",
            tuple(v for r in rows for v in (guild_id, r["user_id"], game, r["name"], r["mu"], r["sigma"], r["rating"],
                                            r["games"], r["won"] * r["rated"], 1 - r["rated"], r["score"], now)))
        if written != len(rows):
            raise StaleRatings()

    async def skills(self, table_id: int, users: Sequence[int]) -> dict[int, Skill]:
        """The stored ratings of ``users`` for the game of ``table_id`` in its server (those who have one)."""
        if not users:
            return {}
        marks = ", ".join("?" * len(users))
        rows = await self._fetch(
            "SELECT r.user_id, r.mu, r.sigma, r.games FROM tables t JOIN ratings r ON r.guild_id = t.guild_id"
            f" AND r.game = t.game WHERE t.id = ? AND r.user_id IN ({marks})", (table_id, *users))
        return {r["user_id"]: Skill(r["mu"], r["sigma"], r["games"]) for r in rows}

    async def close_table(self, table_id: int, status: str, reason: str | None) -> None:
        """Ends a lobby or game without a result (abandoned, ended by a moderator)."""
        await self._execute(
            "UPDATE tables SET status = ?, end_reason = ?, version = version + 1, updated_at = ? WHERE id = ?",
            (status, reason, time.time(), table_id),
        )
        await self._execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,))

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        await self._execute("UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id))

    async def set_shown_version(self, table_id: int, version: int) -> None:
        """The version the table's channel message shows now (written after the message was edited; never
        goes back)."""
        await self._execute("UPDATE tables SET shown_version = ? WHERE id = ? AND shown_version < ?",
                            (version, table_id, version))

    async def behind(self, shards: Shards | None = None) -> list[int]:
        """Tables whose channel message shows an older version than the table: open ones, and finished ones
        whose end was never shown (a crash between the commit and the edit). ``shards``: only theirs."""
        where, args = shards.sql("guild_id") if shards else ("TRUE", ())
        rows = await self._fetch(
            "SELECT id FROM tables WHERE message_id IS NOT NULL AND shown_version < version"
            f" AND status IN ('lobby', 'playing', 'finished', 'ended') AND {where} ORDER BY id", args
        )
        return [r[0] for r in rows]

    async def set_ping_message(self, table_id: int, message_id: int | None) -> None:
        await self._execute("UPDATE tables SET ping_message_id = ? WHERE id = ?", (message_id, table_id))

    async def actions(self, table_id: int) -> list[tuple[int, str]]:
        rows = await self._fetch("SELECT seat, action FROM actions WHERE table_id = ? ORDER BY ply", (table_id,))
        return [(r["seat"], r["action"]) for r in rows]

    async def results(self, guild_id: int) -> list[dict]:
        rows = await self._fetch("SELECT * FROM results WHERE guild_id = ? ORDER BY finished_at", (guild_id,))
        return [dict(r) | {"standings": json.loads(r["standings"])} for r in rows]

    # --- ratings, leaderboards, stats, history (written by record_move: migrations 008) -----------------
    async def leaderboard(self, guild_id: int, game: str, limit: int = 10,
                          around_user: int | None = None) -> Leaderboard:
        """The server's best rated players of ``game`` (index ``ratings_board``), and ``around_user``'s own row
        with its rank (a count of the ratings above theirs on the same index)."""
        found = await self._fetch(
            "SELECT user_id, name, rating, games, wins FROM ratings WHERE guild_id = ? AND game = ?"
            " AND rating IS NOT NULL ORDER BY rating DESC, user_id DESC LIMIT ?", (guild_id, game, limit))
        rows: list[Standing] = []
        for i, r in enumerate(found):
            rank = rows[-1].rank if rows and found[i - 1]["rating"] == r["rating"] else i + 1
            rows.append(Standing(rank, r["user_id"], r["name"], round(r["rating"]), r["games"], r["wins"]))
        players = await self._fetchval(
            "SELECT count(*) FROM ratings WHERE guild_id = ? AND game = ? AND rating IS NOT NULL", (guild_id, game))
        own = next((row for row in rows if row.user_id == around_user), None)
        if own is None and around_user is not None:
            mine = await self._fetchrow(
                "SELECT user_id, name, rating, games, wins FROM ratings WHERE guild_id = ? AND user_id = ?"
                " AND game = ? AND rating IS NOT NULL", (guild_id, around_user, game))
            if mine is not None:
                above = await self._fetchval(
                    "SELECT count(*) FROM ratings WHERE guild_id = ? AND game = ? AND rating > ?",
                    (guild_id, game, mine["rating"]))
                own = Standing(above + 1, mine["user_id"], mine["name"], round(mine["rating"]), mine["games"],
                               mine["wins"])
        return Leaderboard(game, rows, own, players)

    async def stats(self, guild_id: int, user_id: int, trend: int = 20) -> list[GameStats]:
        """``user_id``'s figures per game in the server (primary key of ``ratings``) with the ratings after
        their latest ``trend`` rated games (index ``result_players_user``), games in name order."""
        found = await self._fetch(
            "SELECT game, rating, games, wins, unrated, best_score FROM ratings WHERE guild_id = ? AND user_id = ?"
            " ORDER BY game", (guild_id, user_id))
        out = []
        for r in found:
            points: list[tuple[float, int]] = []
            if r["games"]:
                latest = await self._fetch(
                    "SELECT finished_at, rating FROM result_players WHERE guild_id = ? AND user_id = ? AND game = ?"
                    " AND rated = 1 ORDER BY finished_at DESC LIMIT ?", (guild_id, user_id, r["game"], trend))
                points = [(p["finished_at"], round(p["rating"])) for p in reversed(latest)]
            out.append(GameStats(r["game"], r["games"], r["wins"], r["unrated"],
                                 round(r["rating"]) if r["rating"] is not None else None, r["best_score"], points))
        return out

    async def history(self, guild_id: int, channel_id: int | None = None, limit: int = 10) -> list[FinishedGame]:
        """The latest finished games of the server, or of one of its channels, newest first (indexes
        ``results_guild_finished``, ``results_channel_finished``)."""
        where, args = ("r.channel_id = ? AND r.guild_id = ?", (channel_id, guild_id)) if channel_id is not None \
            else ("r.guild_id = ?", (guild_id,))
        rows = await self._fetch(
            "SELECT r.table_id, r.guild_id, r.channel_id, t.message_id, r.game, r.finished_at, r.standings"
            f" FROM results r JOIN tables t ON t.id = r.table_id WHERE {where} ORDER BY r.finished_at DESC LIMIT ?",
            (*args, limit))
        return [FinishedGame.from_row(r) for r in rows]

    async def result_by_short_id(self, guild_id: int, short: str) -> FinishedGame | None:
        """The finished game of the server with that short id (``short_id``), or None (also for another
        server's game)."""
        table_id = table_id_of(short)
        if table_id is None:
            return None
        row = await self._fetchrow(
            "SELECT r.table_id, r.guild_id, r.channel_id, t.message_id, r.game, r.finished_at, r.standings"
            " FROM results r JOIN tables t ON t.id = r.table_id WHERE r.table_id = ? AND r.guild_id = ?",
            (table_id, guild_id))
        return FinishedGame.from_row(row) if row else None

    async def result_players(self, table_id: int) -> list[dict]:
        """The people's rows of a finished game, by seat."""
        rows = await self._fetch("SELECT * FROM result_players WHERE table_id = ? ORDER BY seat", (table_id,))
        return [dict(r) for r in rows]

    # --- private panels (bot/panels.py) ---------------------------------------------------------------
    async def save_panel(self, table_id: int, user_id: int, *, seat: int, application_id: int, token: str,
                         message_id: int | None, opened: float, locale: str | None = None) -> None:
        """``locale``: the language the panel speaks (its player's), kept for after a restart."""
        await self._execute(
            "INSERT INTO panels (table_id, user_id, seat, application_id, token, message_id, opened, locale)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO UPDATE SET seat = excluded.seat,"
            " application_id = excluded.application_id, token = excluded.token, message_id = excluded.message_id,"
            " opened = excluded.opened, locale = excluded.locale",
            (table_id, user_id, seat, application_id, token, message_id, opened, locale),
        )

    async def delete_panel(self, table_id: int, user_id: int | None = None) -> None:
        """Forgets the user's panel at the table (``user_id`` None: every panel of the table)."""
        if user_id is None:
            await self._execute("DELETE FROM panels WHERE table_id = ?", (table_id,))
        else:
            await self._execute("DELETE FROM panels WHERE table_id = ? AND user_id = ?", (table_id, user_id))

    async def live_panels(self, opened_since: float, shards: Shards | None = None) -> list[dict]:
        """Panels whose token was issued after ``opened_since`` (still editable), of ``shards``' tables; the
        older ones are deleted."""
        await self._execute("DELETE FROM panels WHERE opened < ?", (opened_since,))
        where, args = shards.sql("t.guild_id") if shards else ("TRUE", ())
        rows = await self._fetch(
            "SELECT p.table_id, p.user_id, p.seat, p.application_id, p.token, p.message_id, p.opened, p.locale"
            " FROM panels p"
            f" JOIN tables t ON t.id = p.table_id WHERE p.opened >= ? AND {where} ORDER BY p.opened",
            (opened_since, *args))
        return [dict(r) for r in rows]

    # --- deadlines -----------------------------------------------------------------------------------
    async def set_deadline(self, table_id: int, kind: str, due_at: float) -> None:
        await self._execute(
            "INSERT INTO deadlines (table_id, kind, due_at) VALUES (?, ?, ?)"
            " ON CONFLICT (table_id, kind) DO UPDATE SET due_at = excluded.due_at",
            (table_id, kind, due_at),
        )

    async def clear_deadline(self, table_id: int, kind: str) -> None:
        await self._execute("DELETE FROM deadlines WHERE table_id = ? AND kind = ?", (table_id, kind))

    async def deadlines(self) -> list[tuple[int, str, float]]:
        rows = await self._fetch("SELECT table_id, kind, due_at FROM deadlines ORDER BY due_at, table_id, kind", ())
        return [(r[0], r[1], r[2]) for r in rows]

    async def due_deadlines(self, now: float, limit: int = 200,
                            shards: Shards | None = None) -> list[tuple[int, str, float]]:
        """Deadlines that have passed, oldest first (indexed: never reads the ones still to come).
        ``shards``: only those of their tables."""
        where, args = self._deadlines_of(shards)
        rows = await self._fetch(
            "SELECT d.table_id, d.kind, d.due_at FROM deadlines d JOIN tables t ON t.id = d.table_id"
            f" WHERE d.due_at <= ? AND {where} ORDER BY d.due_at LIMIT ?", (now, *args, limit)
        )
        return [(r[0], r[1], r[2]) for r in rows]

    async def next_deadline(self, shards: Shards | None = None) -> float | None:
        """When the next deadline (of ``shards``' tables) is due: the first in due order that matches."""
        where, args = self._deadlines_of(shards)
        return await self._fetchval(
            "SELECT d.due_at FROM deadlines d JOIN tables t ON t.id = d.table_id"
            f" WHERE {where} ORDER BY d.due_at LIMIT 1", args
        )

    @staticmethod
    def _deadlines_of(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
        return shards.sql("t.guild_id") if shards else ("TRUE", ())

    async def without_turn_deadline(self, shards: Shards | None = None) -> list[int]:
        """Games in play with no turn deadline (a start cut short between its two statements by a crash)."""
        where, args = shards.sql("t.guild_id") if shards else ("TRUE", ())
        rows = await self._fetch(
            "SELECT t.id FROM tables t WHERE t.status = 'playing' AND NOT EXISTS (SELECT 1 FROM deadlines d"
            f" WHERE d.table_id = t.id AND d.kind = 'turn') AND {where} ORDER BY t.id", args)
        return [r[0] for r in rows]

    async def deadline(self, table_id: int, kind: str) -> float | None:
        return await self._fetchval("SELECT due_at FROM deadlines WHERE table_id = ? AND kind = ?", (table_id, kind))

    # --- guild settings ------------------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self._fetchrow("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if not row:
            return GuildSettings(guild_id)
        return GuildSettings.from_row(row)

    async def save_guild_settings(self, s: GuildSettings) -> None:
        await self._execute(
            "INSERT INTO guild_settings (guild_id, turn_timeout, allowed_channels, retention_days, language)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET turn_timeout = excluded.turn_timeout,"
            " allowed_channels = excluded.allowed_channels, retention_days = excluded.retention_days,"
            " language = excluded.language",
            (s.guild_id, s.turn_timeout, s.stored_channels(), s.retention_days or None, s.language or None),
        )

    # --- user settings -------------------------------------------------------------------------------
    async def pings_enabled(self, user_id: int) -> bool:
        row = await self._fetchrow("SELECT pings FROM user_settings WHERE user_id = ?", (user_id,))
        return bool(row[0]) if row else True

    async def set_pings(self, user_id: int, enabled: bool) -> None:
        await self._execute(
            "INSERT INTO user_settings (user_id, pings) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET pings = excluded.pings",
            (user_id, int(enabled)),
        )

    async def user_settings(self, user_id: int) -> dict | None:
        """The stored settings of a user (every server), or None when they never changed any."""
        row = await self._fetchrow("SELECT * FROM user_settings WHERE user_id = ?", (user_id,))
        return dict(row) if row else None

    # --- lessons (/learn, migration 010) -----------------------------------------------------------------
    async def start_lesson(self, *, user_id: int, guild_id: int | None, game: str, options: dict, seed: int,
                           players: int, log: list) -> Lesson:
        """A new lesson of ``game`` for ``user_id``, replacing their lesson of that game if there was one."""
        now = time.time()
        await self._execute("DELETE FROM lessons WHERE user_id = ? AND game = ?", (user_id, game))
        row = await self._fetchrow(
            "INSERT INTO lessons (user_id, guild_id, game, options, seed, players, log, version, created_at,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
            (user_id, guild_id, game, json.dumps(options), seed, players, json.dumps(log), len(log), now, now))
        return Lesson.from_row(row)

    async def lesson(self, lesson_id: int) -> Lesson | None:
        row = await self._fetchrow("SELECT * FROM lessons WHERE id = ?", (lesson_id,))
        return Lesson.from_row(row) if row else None

    async def advance_lesson(self, lesson: Lesson, log: list) -> bool:
        """Stores the lesson's longer log if nobody stored another since ``lesson`` was read (False: a click
        on the same step won the race; nothing is written)."""
        changed = await self._execute(
            "UPDATE lessons SET log = ?, version = ?, updated_at = ? WHERE id = ? AND version = ?",
            (json.dumps(log), len(log), time.time(), lesson.id, lesson.version))
        return changed == 1

    async def end_lesson(self, lesson_id: int) -> None:
        await self._execute("DELETE FROM lessons WHERE id = ?", (lesson_id,))

    # --- a person's data (/privacy) and how long games are kept (migration 009) ------------------------
    PAGE = 1000
    """Tables read per statement while looking for a person's (so no statement holds the database long)."""

    async def person_tables(self, guild_id: int, user_id: int, names: Sequence[str] = ()) -> list[PersonTable]:
        """The server's tables that name ``user_id``: seated (or the person a computer took over from), host,
        or the moderator who ended it ("(by <name>)" in its reason, for their seats' names and ``names``).
        Read in pages of ``PAGE`` tables on the index ``tables_guild_created``, oldest first; each page's
        candidates (seating text holding the id, host, or a moderator's end) come back with their result."""
        found: list[PersonTable] = []
        ended_by_moderator: list[PersonTable] = []
        cursor: tuple[float, int] = (-1.0, 0)
        while True:
            rows = await self._fetch(
                "SELECT p.id, p.created_at, t.channel_id, t.status, t.game, t.players, t.host_id, t.last_move, t.end_reason,"
                " r.standings FROM (SELECT id, created_at FROM tables WHERE guild_id = ? AND (created_at, id) > (?, ?)"
                " ORDER BY created_at, id LIMIT ?) p"
                " LEFT JOIN tables t ON t.id = p.id AND (t.players LIKE ? OR t.host_id = ? OR t.end_reason LIKE '%(by %')"
                " LEFT JOIN results r ON r.table_id = t.id ORDER BY p.created_at, p.id",
                (guild_id, *cursor, self.PAGE, f"%{user_id}%", user_id))
            for r in rows:
                if r["status"] is None:
                    continue
                players = json.loads(r["players"])
                _, seat_names = anonymised_players(players, user_id)
                seated = bool(seat_names) or r["host_id"] == user_id
                table = PersonTable(r["id"], r["channel_id"], r["status"], r["game"], players, r["host_id"], r["last_move"],
                                    r["end_reason"], json.loads(r["standings"]) if r["standings"] else None,
                                    frozenset(seat_names), seated)
                (found if seated else ended_by_moderator).append(table)
            if len(rows) < self.PAGE:
                break
            cursor = (rows[-1]["created_at"], rows[-1]["id"])
        known = set(names).union(*(t.names for t in found))
        found += [t for t in ended_by_moderator if any(f"(by {n})" in (t.end_reason or "") for n in known)]
        return sorted(found, key=lambda t: t.id)

    async def panel_count(self, guild_id: int, user_id: int) -> int:
        """How many private panels of ``user_id`` the store keeps for the server's tables."""
        return await self._fetchval(
            "SELECT count(*) FROM panels p JOIN tables t ON t.id = p.table_id WHERE p.user_id = ? AND t.guild_id = ?",
            (user_id, guild_id))

    async def claim_confirmation(self, message_id: int, now: float) -> bool:
        """Marks /privacy's confirmation ``message_id`` as clicked; False when it already was (in any process,
        before a restart too): one statement, so of two clicks at once exactly one claims it."""
        return await self._execute("INSERT INTO privacy_confirmations (message_id, confirmed_at) VALUES (?, ?)"
                                   " ON CONFLICT (message_id) DO NOTHING", (message_id, now)) == 1

    async def release_confirmation(self, message_id: int) -> None:
        """The confirmation may be clicked again (its deletion failed before doing anything)."""
        await self._execute("DELETE FROM privacy_confirmations WHERE message_id = ?", (message_id,))

    async def forget_person(self, guild_id: int, user_id: int, names: Sequence[str] = ()) -> Forgotten:
        """Deletes ``user_id``'s data in the server and their settings (every server): their ratings rows and
        panels are deleted; their seats in the server's stored tables and results, the rows of result_players
        and the names in stored texts (last moves, end reasons; ``names``: more names of theirs, e.g. their
        display name now) become ``FORMER_PLAYER`` / ``FORMER_ID``, so the games stay whole for the others.
        Raises :class:`StillPlaying` (nothing deleted) while an open table of the server names them.

        Several statements, each safe to repeat, in an order that a second call after a crash finishes the
        work: a result is rewritten before its table (the table's seating is what finds it again)."""
        tables = await self.person_tables(guild_id, user_id, names)
        still = [t for t in tables if t.open]
        if still:
            raise StillPlaying(still)
        known = sorted(set(names).union(*(t.names for t in tables)))
        for t in tables:
            players, _ = anonymised_players(t.players, user_id)
            if t.standings is not None and t.seated:
                result_players, _ = anonymised_players(t.standings.get("players", []), user_id)
                await self._execute("UPDATE results SET standings = ? WHERE table_id = ?",
                                    (json.dumps(dict(t.standings, players=result_players)), t.id))
            await self._execute(
                "UPDATE tables SET players = ?, host_id = ?, last_move = ?, end_reason = ? WHERE id = ?",
                (json.dumps(players), FORMER_ID if t.host_id == user_id else t.host_id,
                 without_names(t.last_move, t.names), without_names(t.end_reason, t.names, known), t.id))
        await self._execute("UPDATE result_players SET user_id = ? WHERE guild_id = ? AND user_id = ?",
                            (FORMER_ID, guild_id, user_id))
        rated = await self._execute("DELETE FROM ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        panels = await self._execute(
            "DELETE FROM panels WHERE user_id = ? AND table_id IN (SELECT id FROM tables WHERE guild_id = ?)",
            (user_id, guild_id))
        settings = await self._execute("DELETE FROM user_settings WHERE user_id = ?", (user_id,))
        await self._execute("DELETE FROM lessons WHERE user_id = ?", (user_id,))  # /learn: private, not kept
        return Forgotten(len(tables), rated, bool(settings), panels)

    async def retention_guilds(self, shards: Shards | None = None) -> list[tuple[int, int]]:
        """(guild id, days) of the servers (of ``shards``) that keep finished games for a number of days."""
        where, args = shards.sql("guild_id") if shards else ("TRUE", ())
        rows = await self._fetch("SELECT guild_id, retention_days FROM guild_settings WHERE retention_days > 0"
                                 f" AND {where} ORDER BY guild_id", args)
        return [(r[0], r[1]) for r in rows]

    async def prune_tables(self, guild_id: int, before: float, limit: int = 100) -> int:
        """Deletes up to ``limit`` of the server's finished or ended tables (games, closed lobbies) that were
        created and ended before ``before`` (epoch seconds), oldest first, each with its action log, result,
        result_players rows, deadlines and panels (the trigger ``tables_delete``): one statement, so a batch
        goes whole or not at all. Open tables are never touched. Returns how many tables went."""
        return await self._execute(
            "DELETE FROM tables WHERE id IN (SELECT id FROM tables WHERE guild_id = ? AND created_at < ?"
            " AND status IN ('finished', 'ended') AND updated_at < ? ORDER BY created_at, id LIMIT ?)",
            (guild_id, before, before, limit))

    # --- shard leases (bot/leases.py) ------------------------------------------------------------------
    async def leases(self) -> list[Lease]:
        rows = await self._fetch("SELECT shard_id, shard_count, owner, heartbeat_at FROM shard_leases"
                                 " ORDER BY shard_id", ())
        return [Lease(*r) for r in rows]

    async def take_lease(self, shard_id: int, shard_count: int, owner: str, now: float, stale_before: float) -> bool:
        """Takes (or renews) the lease of one shard unless another owner's heartbeat is newer than
        ``stale_before``; True when ``owner`` holds it now. One statement: two processes racing for a shard
        cannot both win it."""
        return await self._execute(
            "INSERT INTO shard_leases (shard_id, shard_count, owner, heartbeat_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (shard_id) DO UPDATE SET shard_count = excluded.shard_count, owner = excluded.owner,"
            " heartbeat_at = excluded.heartbeat_at"
            " WHERE shard_leases.owner = excluded.owner OR shard_leases.heartbeat_at < ?",
            (shard_id, shard_count, owner, now, stale_before),
        ) == 1

    async def renew_leases(self, owner: str, now: float) -> int:
        """The heartbeat: renews every lease ``owner`` still holds; returns how many."""
        return await self._execute("UPDATE shard_leases SET heartbeat_at = ? WHERE owner = ?", (now, owner))

    async def release_leases(self, owner: str) -> None:
        await self._execute("DELETE FROM shard_leases WHERE owner = ?", (owner,))

    # --- helpers -------------------------------------------------------------------------------------
    async def _update_checked(self, sql: str, params: tuple) -> None:
        if await self._execute(sql, params) != 1:
            raise StaleVersion()
