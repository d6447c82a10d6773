"""The embedded backend of the store: one SQLite file through aiosqlite (WAL, ``synchronous=NORMAL``).

The connection runs in autocommit mode: a statement is atomic and one trip to aiosqlite's thread. A move's
statements run in one ``BEGIN IMMEDIATE`` transaction in one trip (``_run``) while the store's lock keeps every
other statement of the one connection out of it. The schema's number is ``PRAGMA user_version``.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.base import Store
from bot.store.core import Steps
from bot.store.dialects import check_database_setting, migrations
from bot.store.errors import ChannelBusy, DatabaseUnavailable, TournamentOpen


class SQLiteStore(Store):
    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection):
        self.db = db
        self._lock = asyncio.Lock()
        """Held by every statement and by a transaction from its BEGIN to its end: on the one connection, a
        statement run during a transaction would be part of it."""

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
        async with self._lock:
            (current,) = (await self.db.execute_fetchall("PRAGMA user_version"))[0]
            for number, sql in migrations(self.dialect):
                if current < number and (upto is None or number <= upto):
                    await self.db.executescript(
                        f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;")
                    current = number
        return current

    async def _fetch(self, sql: str, args: Sequence[Any]) -> list[Mapping]:
        async with self._lock:
            return await _fetch(self.db, sql, args)

    async def _execute(self, sql: str, args: Sequence[Any]) -> int:
        async with self._lock:
            return await _execute(self.db, sql, args)

    async def _run(self, steps: Steps) -> Any:
        """The whole transaction in one trip to aiosqlite's thread (``_in_one_go``): the store's lock is held
        for that trip only, not across several turns of a busy event loop (five trips a move held it, and
        every other statement waited, for tens of milliseconds under load). aiosqlite has no public call for
        a function of ours on its connection: ``_execute`` and ``_conn`` are its own (the lock file pins it;
        tests/bot/test_store.py would fail on a change)."""
        async with self._lock:
            try:
                return await self.db._execute(_in_one_go, self.db._conn, steps)
            except sqlite3.IntegrityError as exc:
                raise _translated(exc) from None


def _in_one_go(conn: sqlite3.Connection, steps: Steps) -> Any:
    """Runs ``steps`` in one ``BEGIN IMMEDIATE`` transaction on the calling (the database's) thread. BEGIN
    IMMEDIATE takes the database's write lock at once (waiting up to ``busy_timeout`` for another
    process's), so the transaction never fails half-way for want of it."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = None
        while True:
            try:
                kind, sql, args = steps.send(result)
            except StopIteration as done:
                conn.execute("COMMIT")
                return done.value
            cursor = conn.execute(sql, args)
            result = cursor.fetchall() if kind == "fetch" else cursor.rowcount
    except BaseException:
        with contextlib.suppress(sqlite3.OperationalError):  # (SQLite may have rolled back already)
            conn.execute("ROLLBACK")
        raise


async def _fetch(db: aiosqlite.Connection, sql: str, args: Sequence[Any]) -> list[Mapping]:
    try:
        return list(await db.execute_fetchall(sql, args))  # one trip to the thread
    except sqlite3.IntegrityError as exc:
        raise _translated(exc) from None


async def _execute(db: aiosqlite.Connection, sql: str, args: Sequence[Any]) -> int:
    try:
        cursor = await db.execute(sql, args)
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
    if "tables.channel_id" in str(exc):  # the one-open-table-per-channel index
        return ChannelBusy()
    if "tournaments.channel_id" in str(exc):  # the one-open-tournament-per-channel index (migration 021)
        return TournamentOpen()
    return exc
