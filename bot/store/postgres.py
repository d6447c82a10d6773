"""The shared backend of the store: PostgreSQL through asyncpg, for several bot processes on one database.

The queries are the store's (bot/store/), written with ``?`` placeholders and numbered here (``$1, $2, ...``).
A move's statements (``Store.commit_move``) run in one transaction on one connection of the pool
(``_run``), each prepared once per connection; at the default isolation level (read committed) its
first statement, the version's compare-and-set, makes a concurrent writer of the same table wait for the row
and then match nothing.

Connections come from a pool (a connection runs one query at a time; the bot runs many channels at once).
Returning a connection to the pool sends nothing: the store leaves no session state behind (no ``SET``, no
session advisory lock, no ``LISTEN``), so asyncpg's reset query would only cost a round trip per query.
The schema's number is the one row of ``geotable_schema``; migrations run in one transaction under an
advisory lock, so processes that start together apply each migration once.
"""

from __future__ import annotations

import errno
import functools
import itertools
import re
import socket
import urllib.parse
from collections.abc import Mapping, Sequence
from typing import Any

import asyncpg

from bot.store.base import Store
from bot.store.core import Steps, drive
from bot.store.dialects import check_database_setting, masked, migrations
from bot.store.errors import ChannelBusy, DatabaseUnavailable, TournamentOpen

MIGRATION_LOCK = 0x6765_6F74  # "geot": pg_advisory_xact_lock key held while migrating
SCHEMA_TABLE = "geotable_schema"
CONNECT_TIMEOUT = 10.0
"""Seconds to wait for the server to answer at start (a host that drops packets would otherwise take 60)."""


class PostgresStore(Store):
    dialect = "postgres"

    def __init__(self, pool: asyncpg.Pool):
        self.pool = pool

    @classmethod
    async def connect(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresStore:
        """Connects and migrates; raises :class:`DatabaseUnavailable` with the cause in words (no such
        database or user, a refused password or connection, an unknown host, missing rights, a search_path
        naming no schema), never the password."""
        check_database_setting(url)
        try:
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size, reset=_leave_as_is,
                                             timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise DatabaseUnavailable(_cause(url, exc)) from None
        store = cls(pool)
        try:
            await store.migrate()
        except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            await pool.close()
            raise DatabaseUnavailable(_cause(url, exc)) from None
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
        return await _fetch(self.pool, sql, args)

    async def _execute(self, sql: str, args: Sequence[Any]) -> int:
        return await _execute(self.pool, sql, args)

    async def _run(self, steps: Steps) -> Any:
        async with self.pool.acquire() as con, con.transaction():
            return await drive(steps, functools.partial(_fetch, con), functools.partial(_execute, con))


async def _fetch(runner: asyncpg.Pool | asyncpg.Connection, sql: str, args: Sequence[Any]) -> list[Mapping]:
    try:
        return await runner.fetch(numbered(sql), *args)
    except asyncpg.PostgresError as exc:
        raise _translated(exc) from None


async def _execute(runner: asyncpg.Pool | asyncpg.Connection, sql: str, args: Sequence[Any]) -> int:
    try:
        status = await runner.execute(numbered(sql), *args)
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


def _cause(url: str, exc: BaseException) -> str:
    """Why the server named by ``url`` cannot be used, in words, with the password (if any) masked."""
    parts = urllib.parse.urlsplit(url)
    query = dict(urllib.parse.parse_qsl(parts.query))
    host = parts.hostname or query.get("host") or "localhost"
    try:
        port = parts.port or query.get("port") or 5432
    except ValueError:
        port = "?"
    server = f"{host}:{port}" if not host.startswith("/") else f"the socket in {host}"
    user = urllib.parse.unquote(parts.username or query.get("user") or "") or "(default user)"
    database = urllib.parse.unquote(parts.path.lstrip("/")) or query.get("database") or user
    detail = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    for secret in {parts.password, urllib.parse.unquote(parts.password or ""), query.get("password")} - {None, ""}:
        detail = detail.replace(secret, "***")  # the driver's own words, should they quote the URL
    if isinstance(exc, asyncpg.InvalidCatalogNameError):
        cause = f"the PostgreSQL server at {server} has no database {database!r}"
    elif isinstance(exc, asyncpg.InvalidPasswordError):
        cause = f"the PostgreSQL server at {server} refused the password of user {user!r}"
    elif isinstance(exc, asyncpg.InvalidAuthorizationSpecificationError):
        cause = f"the PostgreSQL server at {server} does not let user {user!r} in ({detail})"
    elif isinstance(exc, asyncpg.InsufficientPrivilegeError):
        cause = (f"user {user!r} lacks a right the bot needs in database {database!r} ({detail}): it must be "
                 "able to create tables and functions there")
    elif isinstance(exc, asyncpg.InvalidSchemaNameError):
        cause = (f"the search_path names no schema that exists and that user {user!r} may use in database "
                 f"{database!r} ({detail}): create the schema first (and grant it), or leave search_path out")
    elif isinstance(exc, socket.gaierror):
        cause = f"the host name {host!r} cannot be resolved ({exc.strerror or detail})"
    elif isinstance(exc, TimeoutError):
        cause = f"the PostgreSQL server at {server} did not answer within {CONNECT_TIMEOUT:g} s"
    elif isinstance(exc, ConnectionRefusedError) or "refused" in detail.lower() or (
            isinstance(exc, OSError) and exc.errno == errno.ECONNREFUSED):
        cause = f"nothing accepts connections at {server} (is PostgreSQL running there, on that port?)"
    elif isinstance(exc, OSError):
        cause = f"the PostgreSQL server at {server} cannot be reached ({exc.strerror or detail})"
    elif isinstance(exc, asyncpg.PostgresError):
        cause = f"the PostgreSQL server at {server} refused: {detail}"
    else:
        cause = f"{masked(url)} is not a usable PostgreSQL URL ({detail})"
    return cause


def _translated(exc: asyncpg.PostgresError) -> Exception:
    if isinstance(exc, asyncpg.UniqueViolationError) and exc.constraint_name == "tables_open_channel":
        return ChannelBusy()
    if isinstance(exc, asyncpg.UniqueViolationError) and exc.constraint_name == "tournaments_open_channel":
        return TournamentOpen()
    return exc
