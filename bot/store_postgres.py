"""The shared backend of the store: PostgreSQL through asyncpg, for several bot processes on one database.

The queries are the ones in bot/store.py, written with ``?`` placeholders and numbered here (``$1, $2, ...``).
A move is one statement, ``INSERT INTO moves``, whose ``INSTEAD OF INSERT`` trigger (a plpgsql function made
by migrations/postgres/) checks the version by compare-and-set and writes state, action log, deadlines and
result in that statement's transaction: one round trip, with the statement prepared once per connection.

Connections come from a pool (a connection runs one query at a time; the bot runs many channels at once).
Returning a connection to the pool sends nothing: the store leaves no session state behind (no ``SET``, no
session advisory lock, no ``LISTEN``), so asyncpg's reset query would only cost a round trip per query.
The schema's number is the one row of ``geotable_schema``; migrations run in one transaction under an
advisory lock, so processes that start together apply each migration once.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

import asyncpg

from bot.store import ChannelBusy, StaleVersion, Store, migrations

MIGRATION_LOCK = 0x6765_6F74  # "geot": pg_advisory_xact_lock key held while migrating
SCHEMA_TABLE = "geotable_schema"


class PostgresStore(Store):
    dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool):
        self.pool = pool

    @classmethod
    async def connect(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresStore:
        pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size, reset=_leave_as_is)
        store = cls(pool)
        try:
            await store.migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self.pool.close()

    async def migrate(self, upto: int | None = None) -> int:
        async with self.pool.acquire() as con, con.transaction():
            await con.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await con.execute(f"CREATE TABLE IF NOT EXISTS {SCHEMA_TABLE} (version INTEGER NOT NULL)")
            current = await con.fetchval(f"SELECT version FROM {SCHEMA_TABLE}")
            if current is None:
                current = 0
                await con.execute(f"INSERT INTO {SCHEMA_TABLE} (version) VALUES (0)")
            for number, sql in migrations(self.dialect):
                if current < number and (upto is None or number <= upto):
                    await con.execute(sql)
                    await con.execute(f"UPDATE {SCHEMA_TABLE} SET version = $1", number)
                    current = number
        return current

    async def _fetch(self, sql: str, args: Sequence[Any]) -> list[Mapping]:
        try:
            return await self.pool.fetch(numbered(sql), *args)
        except asyncpg.PostgresError as exc:
            raise _translated(exc) from None

    async def _execute(self, sql: str, args: Sequence[Any]) -> int:
        try:
            status = await self.pool.execute(numbered(sql), *args)
        except asyncpg.PostgresError as exc:
            raise _translated(exc) from None
        count = status.rsplit(" ", 1)[-1]  # "UPDATE 1", "INSERT 0 1", "DELETE 3"
        return int(count) if count.isdigit() else 0


@functools.lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    """Portable SQL's ``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (the store's SQL has no ``?`` in
    its string literals)."""
    counter = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


async def _leave_as_is(_connection: asyncpg.Connection) -> None:
    """The pool's reset: nothing to undo (see the module's docstring)."""


def _translated(exc: asyncpg.PostgresError) -> Exception:
    if isinstance(exc, asyncpg.RaiseError) and "stale version" in str(exc):
        return StaleVersion()
    if isinstance(exc, asyncpg.UniqueViolationError) and exc.constraint_name == "tables_open_channel":
        return ChannelBusy()
    return exc
