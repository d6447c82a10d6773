"""The SQLite store (aiosqlite, WAL): tables, the action log, deadlines, guild settings and results.

All SQL lives here. Writes that must be atomic are single statements (see the ``moves`` view in
migrations/001_init.sql), so the connection runs in autocommit mode and each write is one trip to
aiosqlite's thread.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite


class StaleVersion(Exception):
    """The table changed since the caller loaded it: nothing was written."""


class ChannelBusy(Exception):
    """The channel already has an open table."""


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

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> TableRow:
        data = dict(row)
        data["options"] = json.loads(data["options"])
        data["players"] = json.loads(data["players"])
        return cls(**data)


@dataclass
class GuildSettings:
    guild_id: int
    turn_timeout: int | None = None
    allowed_channels: list[int] | None = None


def migrations() -> list[tuple[int, str]]:
    """Numbered SQL files in bot/migrations, in order: [(1, sql), (2, sql), ...]."""
    folder = resources.files("bot") / "migrations"
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text(encoding="utf-8")))
    found.sort()
    if [n for n, _ in found] != list(range(1, len(found) + 1)):
        raise RuntimeError("migrations must be numbered 001, 002, ... without gaps")
    return found


class Store:
    def __init__(self, db: aiosqlite.Connection):
        self.db = db

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        db.row_factory = sqlite3.Row
        await db.execute("PRAGMA busy_timeout = 5000")
        await db.execute("PRAGMA journal_mode = WAL")
        await db.execute("PRAGMA synchronous = NORMAL")
        await db.execute("PRAGMA foreign_keys = ON")
        store = cls(db)
        await store.migrate()
        return store

    async def close(self) -> None:
        await self.db.close()

    async def migrate(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cur:
            (current,) = await cur.fetchone()
        for number, sql in migrations():
            if number > current:
                await self.db.executescript(f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
                current = number
        return current

    # --- tables --------------------------------------------------------------------------------------
    async def create_table(
        self, *, guild_id: int, channel_id: int, game: str, options: dict, seed: int, host: dict,
        lobby_due: float | None,
    ) -> TableRow:
        now = time.time()
        try:
            async with self.db.execute(
                "INSERT INTO tables (guild_id, channel_id, game, options, seed, status, players, host_id,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?) RETURNING *",
                (guild_id, channel_id, game, json.dumps(options), seed, json.dumps([host]), host["id"], now, now),
            ) as cur:
                row = await cur.fetchone()
        except sqlite3.IntegrityError:
            raise ChannelBusy() from None
        if lobby_due is not None:
            await self.set_deadline(row["id"], "lobby", lobby_due)
        return TableRow.from_row(row)

    async def get_table(self, table_id: int) -> TableRow | None:
        async with self.db.execute("SELECT * FROM tables WHERE id = ?", (table_id,)) as cur:
            row = await cur.fetchone()
        return TableRow.from_row(row) if row else None

    async def open_table_in(self, channel_id: int) -> TableRow | None:
        async with self.db.execute(
            "SELECT * FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing')", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        return TableRow.from_row(row) if row else None

    async def update_lobby(self, table_id: int, version: int, players: list[dict], host_id: int) -> None:
        """Changes the lobby's seating; raises StaleVersion if someone else changed it first."""
        await self._update_checked(
            "UPDATE tables SET players = ?, host_id = ?, version = version + 1, updated_at = ?"
            " WHERE id = ? AND version = ? AND status = 'lobby'",
            (json.dumps(players), host_id, time.time(), table_id, version),
        )

    async def start_table(self, table_id: int, version: int, players: list[dict], state: str,
                          turn_due: float | None, last_move: str = "") -> None:
        await self._update_checked(
            "UPDATE tables SET status = 'playing', players = ?, state = ?, last_move = ?, version = version + 1,"
            " updated_at = ? WHERE id = ? AND version = ? AND status = 'lobby'",
            (json.dumps(players), state, last_move, time.time(), table_id, version),
        )
        await self.db.execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,))
        if turn_due is not None:
            await self.set_deadline(table_id, "turn", turn_due)

    async def record_move(
        self, *, table_id: int, version: int, state: str, status: str, ply: int, seat: int, action: str,
        turn_due: float | None, standings: dict | None, last_move: str = "", timer_due: float | None = None,
    ) -> None:
        """State, version, action log, turn deadline, game timer (None: unchanged, 0: none) and (at the end)
        the result, in one statement."""
        try:
            await self.db.execute(
                "INSERT INTO moves (table_id, version, state, status, ply, seat, action, at, last_move, due_at,"
                " standings, timer_due) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, version, state, status, ply, seat, action, time.time(), last_move, turn_due,
                 json.dumps(standings) if standings is not None else None, timer_due),
            )
        except sqlite3.IntegrityError as exc:
            if "stale version" in str(exc):
                raise StaleVersion() from None
            raise

    async def close_table(self, table_id: int, status: str, reason: str | None) -> None:
        """Ends a lobby or game without a result (abandoned, ended by a moderator)."""
        await self.db.execute(
            "UPDATE tables SET status = ?, end_reason = ?, version = version + 1, updated_at = ? WHERE id = ?",
            (status, reason, time.time(), table_id),
        )
        await self.db.execute("DELETE FROM deadlines WHERE table_id = ?", (table_id,))

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        await self.db.execute("UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id))

    async def set_shown_version(self, table_id: int, version: int) -> None:
        """The version the table's channel message shows now (written after the message was edited)."""
        await self.db.execute("UPDATE tables SET shown_version = MAX(shown_version, ?) WHERE id = ?",
                              (version, table_id))

    async def behind(self) -> list[int]:
        """Tables whose channel message shows an older version than the table: open ones, and finished ones
        whose end was never shown (a crash between the commit and the edit)."""
        async with self.db.execute(
            "SELECT id FROM tables WHERE message_id IS NOT NULL AND shown_version < version"
            " AND status IN ('lobby', 'playing', 'finished', 'ended') ORDER BY id"
        ) as cur:
            return [r[0] for r in await cur.fetchall()]

    async def set_ping_message(self, table_id: int, message_id: int | None) -> None:
        await self.db.execute("UPDATE tables SET ping_message_id = ? WHERE id = ?", (message_id, table_id))

    async def actions(self, table_id: int) -> list[tuple[int, str]]:
        async with self.db.execute(
            "SELECT seat, action FROM actions WHERE table_id = ? ORDER BY ply", (table_id,)
        ) as cur:
            return [(r["seat"], r["action"]) for r in await cur.fetchall()]

    async def results(self, guild_id: int) -> list[dict]:
        async with self.db.execute(
            "SELECT * FROM results WHERE guild_id = ? ORDER BY finished_at", (guild_id,)
        ) as cur:
            return [dict(r) | {"standings": json.loads(r["standings"])} for r in await cur.fetchall()]

    # --- deadlines -----------------------------------------------------------------------------------
    async def set_deadline(self, table_id: int, kind: str, due_at: float) -> None:
        await self.db.execute(
            "INSERT INTO deadlines (table_id, kind, due_at) VALUES (?, ?, ?)"
            " ON CONFLICT (table_id, kind) DO UPDATE SET due_at = excluded.due_at",
            (table_id, kind, due_at),
        )

    async def clear_deadline(self, table_id: int, kind: str) -> None:
        await self.db.execute("DELETE FROM deadlines WHERE table_id = ? AND kind = ?", (table_id, kind))

    async def deadlines(self) -> list[tuple[int, str, float]]:
        async with self.db.execute("SELECT table_id, kind, due_at FROM deadlines ORDER BY due_at") as cur:
            return [(r[0], r[1], r[2]) for r in await cur.fetchall()]

    async def due_deadlines(self, now: float, limit: int = 200) -> list[tuple[int, str, float]]:
        """Deadlines that have passed, oldest first (indexed: never reads the ones still to come)."""
        async with self.db.execute(
            "SELECT table_id, kind, due_at FROM deadlines WHERE due_at <= ? ORDER BY due_at LIMIT ?", (now, limit)
        ) as cur:
            return [(r[0], r[1], r[2]) for r in await cur.fetchall()]

    async def next_deadline(self) -> float | None:
        async with self.db.execute("SELECT MIN(due_at) FROM deadlines") as cur:
            row = await cur.fetchone()
        return row[0]

    async def deadline(self, table_id: int, kind: str) -> float | None:
        async with self.db.execute(
            "SELECT due_at FROM deadlines WHERE table_id = ? AND kind = ?", (table_id, kind)
        ) as cur:
            row = await cur.fetchone()
        return row[0] if row else None

    # --- guild settings ------------------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async with self.db.execute("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)) as cur:
            row = await cur.fetchone()
        if not row:
            return GuildSettings(guild_id)
        channels = json.loads(row["allowed_channels"]) if row["allowed_channels"] else None
        return GuildSettings(guild_id, row["turn_timeout"], channels)

    async def save_guild_settings(self, s: GuildSettings) -> None:
        await self.db.execute(
            "INSERT INTO guild_settings (guild_id, turn_timeout, allowed_channels) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET turn_timeout = excluded.turn_timeout,"
            " allowed_channels = excluded.allowed_channels",
            (s.guild_id, s.turn_timeout, json.dumps(s.allowed_channels) if s.allowed_channels is not None else None),
        )

    # --- user settings -------------------------------------------------------------------------------
    async def pings_enabled(self, user_id: int) -> bool:
        async with self.db.execute("SELECT pings FROM user_settings WHERE user_id = ?", (user_id,)) as cur:
            row = await cur.fetchone()
        return bool(row[0]) if row else True

    async def set_pings(self, user_id: int, enabled: bool) -> None:
        await self.db.execute(
            "INSERT INTO user_settings (user_id, pings) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET pings = excluded.pings",
            (user_id, int(enabled)),
        )

    # --- helpers -------------------------------------------------------------------------------------
    async def _update_checked(self, sql: str, params: tuple) -> None:
        async with self.db.execute(sql, params) as cur:
            if cur.rowcount != 1:
                raise StaleVersion()
