"""The store: tables, the action log, deadlines, guild and user settings, results.

One interface, :class:`Store`, and two backends chosen by the one database setting (``open_store``):

- a path (the default ``data/geotable.db``): SQLite through aiosqlite, embedded (bot/store_sqlite.py);
- a ``postgresql://`` or ``postgres://`` URL: PostgreSQL through asyncpg, shared by several bot processes
  (bot/store_postgres.py).

All the queries live here, once, in SQL both databases speak (``?`` placeholders; ``ON CONFLICT ... DO
UPDATE``; ``RETURNING``). A backend only connects, applies its migrations (``bot/migrations/<dialect>/``, a
parallel set kept in step by tests/bot/test_store.py) and runs a statement, turning its driver's errors into
:class:`StaleVersion` and :class:`ChannelBusy`. A move is one statement on both (``INSERT INTO moves``: a view
whose ``INSTEAD OF INSERT`` trigger checks the version and writes everything), so it is atomic and one round
trip.
"""

from __future__ import annotations

import abc
import json
import re
import time
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

DIALECTS = ("sqlite", "postgres")


class StaleVersion(Exception):
    """The table changed since the caller loaded it: nothing was written."""


class ChannelBusy(Exception):
    """The channel already has an open table."""


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
        if isinstance(stored, dict):
            return cls(row["guild_id"], row["turn_timeout"], stored.get("only"), list(stored.get("except", [])),
                       list(stored.get("also", [])))
        return cls(row["guild_id"], row["turn_timeout"], stored)


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


async def open_store(database: str | Path) -> Store:
    """Opens (and migrates) the store the database setting names: a PostgreSQL URL or a SQLite path. Raises
    :class:`NotADatabaseSetting` for a URL it does not support and :class:`DatabaseUnavailable` when the
    database cannot be used (the cause in words)."""
    check_database_setting(database)
    if is_postgres_url(str(database)):
        from bot.store_postgres import PostgresStore

        return await PostgresStore.connect(str(database))
    from bot.store_sqlite import SQLiteStore

    return await SQLiteStore.connect(database)


class Store(abc.ABC):
    """What the table service and the cogs may ask of the database. Backends implement the primitives
    (``_fetch``, ``_execute``, ``migrate``, ``close``); every query is written once, here."""

    dialect: str = ""

    @classmethod
    async def open(cls, database: str | Path) -> Store:
        """The store for a database setting (see :func:`open_store`)."""
        return await open_store(database)

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
        :class:`StaleVersion` when the moves trigger refuses, :class:`ChannelBusy` for a second open table."""

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
        lobby_due: float | None, others: Sequence[dict] = (),
    ) -> TableRow:
        """A new lobby seating ``host`` and then ``others`` (computer seats asked for with /play)."""
        now = time.time()
        row = await self._fetchrow(
            "INSERT INTO tables (guild_id, channel_id, game, options, seed, status, players, host_id,"
            " created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?) RETURNING *",
            (guild_id, channel_id, game, json.dumps(options), seed, json.dumps([host, *others]), host["id"], now,
             now),
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
        players: list[dict] | None = None,
    ) -> None:
        """State, version, action log, turn deadline, game timer (None: unchanged, 0: none), the seating when
        it changed (``players``: a seat handed to a computer) and (at the end) the result, in one statement;
        raises StaleVersion (nothing written) unless the table is at ``version``."""
        await self._execute(
            "INSERT INTO moves (table_id, version, state, status, ply, seat, action, at, last_move, due_at,"
            " standings, timer_due, players) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, version, state, status, ply, seat, action, time.time(), last_move, turn_due,
             json.dumps(standings) if standings is not None else None, timer_due,
             json.dumps(players) if players is not None else None),
        )

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

    # --- private panels (bot/panels.py) ---------------------------------------------------------------
    async def save_panel(self, table_id: int, user_id: int, *, seat: int, application_id: int, token: str,
                         message_id: int | None, opened: float) -> None:
        await self._execute(
            "INSERT INTO panels (table_id, user_id, seat, application_id, token, message_id, opened)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO UPDATE SET seat = excluded.seat,"
            " application_id = excluded.application_id, token = excluded.token, message_id = excluded.message_id,"
            " opened = excluded.opened",
            (table_id, user_id, seat, application_id, token, message_id, opened),
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
            "SELECT p.table_id, p.user_id, p.seat, p.application_id, p.token, p.message_id, p.opened FROM panels p"
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
            "INSERT INTO guild_settings (guild_id, turn_timeout, allowed_channels) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET turn_timeout = excluded.turn_timeout,"
            " allowed_channels = excluded.allowed_channels",
            (s.guild_id, s.turn_timeout, s.stored_channels()),
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
