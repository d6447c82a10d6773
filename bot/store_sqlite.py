"""The embedded backend of the store: one SQLite file through aiosqlite (WAL, ``synchronous=NORMAL``).

The connection runs in autocommit mode and every write is one statement (a move too: see the ``moves`` view
in migrations/sqlite/001_init.sql), so each is atomic and one trip to aiosqlite's thread. The schema's
number is ``PRAGMA user_version``.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store import (
    ChannelBusy,
    DatabaseUnavailable,
    StaleRatings,
    StaleVersion,
    Store,
    check_database_setting,
    migrations,
)


class SQLiteStore(Store):
    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection):
        self.db = db

    @classmethod
    async def connect(cls, path: str | Path) -> SQLiteStore:
        """Opens (creating the file, and its folder when the folder above exists) and migrates. Raises
        :class:`DatabaseUnavailable` with the cause in words (a missing folder, one that cannot be written, a
        file that is not a SQLite database)."""
        check_database_setting(path)  # never a file named after a URL
        if str(path) != ":memory:":
            if Path(path).is_dir():
                raise DatabaseUnavailable(f"{path} is a folder, not a SQLite file")
            _make_folder(Path(path))
        connecting = aiosqlite.connect(str(path), isolation_level=None)
        try:
            db = await connecting
        except sqlite3.Error as exc:
            await _stopped(connecting)
            raise DatabaseUnavailable(_cause(Path(path), exc)) from None
        try:
            db.row_factory = sqlite3.Row
            await db.execute("PRAGMA busy_timeout = 5000")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            store = cls(db)
            await store.migrate()
        except sqlite3.Error as exc:
            await db.close()
            raise DatabaseUnavailable(_cause(Path(path), exc)) from None
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


async def _stopped(connection: aiosqlite.Connection) -> None:
    """Waits for the thread of a connection that failed to open: aiosqlite stops it then, and the thread hands
    its last result to the event loop. Left running, it would do so after ``asyncio.run`` has closed the loop
    (the bot exits on this failure), and print an "Event loop is closed" traceback after our one sentence."""
    thread = getattr(connection, "_thread", None)  # (aiosqlite keeps no public handle on it)
    if thread is not None and thread.is_alive():
        await asyncio.to_thread(thread.join)


def _make_folder(path: Path) -> None:
    """The file's folder: created when missing (``data/`` on a first start), but only one level, so a
    mistyped path is refused rather than built."""
    folder = path.parent
    if folder.is_dir():
        return
    if folder.exists():
        raise DatabaseUnavailable(f"{folder}, the folder of the SQLite file {path}, is a file")
    if not folder.parent.is_dir():
        raise DatabaseUnavailable(f"the folder {folder.parent} of the SQLite file {path} does not exist")
    try:
        folder.mkdir()
    except OSError as exc:
        raise DatabaseUnavailable(f"the folder {folder} for the SQLite file {path} cannot be created "
                                  f"({exc.strerror or exc})") from None


def _cause(path: Path, exc: sqlite3.Error) -> str:
    message = str(exc)
    if "not a database" in message:
        return f"{path} is not a SQLite database file"
    if "readonly" in message or "unable to open" in message:
        return f"the SQLite file {path} cannot be opened for writing ({message}; check the folder's permissions)"
    return f"the SQLite file {path} cannot be used ({message})"


def _translated(exc: sqlite3.IntegrityError) -> Exception:
    message = str(exc)
    if "stale version" in message:
        return StaleVersion()
    if "stale ratings" in message:
        return StaleRatings()
    if "tables.channel_id" in message:  # the one-open-table-per-channel index
        return ChannelBusy()
    return exc
