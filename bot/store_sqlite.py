"""The embedded backend of the store: one SQLite file through aiosqlite (WAL, ``synchronous=NORMAL``).

The connection runs in autocommit mode and every write is one statement (a move too: see the ``moves`` view
in migrations/sqlite/001_init.sql), so each is atomic and one trip to aiosqlite's thread. The schema's
number is ``PRAGMA user_version``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store import ChannelBusy, StaleVersion, Store, migrations


class SQLiteStore(Store):
    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection):
        self.db = db

    @classmethod
    async def connect(cls, path: str | Path) -> SQLiteStore:
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

    async def migrate(self, upto: int | None = None) -> int:
        (current,) = (await self.db.execute_fetchall("PRAGMA user_version"))[0]
        for number, sql in migrations(self.dialect):
            if current < number and (upto is None or number <= upto):
                await self.db.executescript(f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
                current = number
        return current

    async def _fetch(self, sql: str, args: Sequence[Any]) -> list[Mapping]:
        try:
            return list(await self.db.execute_fetchall(sql, args))  # one trip to the thread
        except sqlite3.IntegrityError as exc:
            raise _translated(exc) from None

    async def _execute(self, sql: str, args: Sequence[Any]) -> int:
        try:
            cursor = await self.db.execute(sql, args)
        except sqlite3.IntegrityError as exc:
            raise _translated(exc) from None
        return cursor.rowcount


def _translated(exc: sqlite3.IntegrityError) -> Exception:
    message = str(exc)
    if "stale version" in message:
        return StaleVersion()
    if "tables.channel_id" in message:  # the one-open-table-per-channel index
        return ChannelBusy()
    return exc
