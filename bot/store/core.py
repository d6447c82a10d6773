"""What a backend provides to the store (bot/store/sqlite.py, bot/store/postgres.py): a statement, a
transaction of several, migrating and closing; and the few helpers every part of the store builds its queries on."""

from __future__ import annotations

import abc
from collections.abc import Generator, Mapping, Sequence
from typing import Any

from bot.store.errors import StaleVersion

Statement = tuple[str, str, Sequence[Any]]
"""One statement of a transaction: ("fetch", sql, args) for its rows, ("execute", sql, args) for its count."""
Steps = Generator[Statement, Any, Any]
"""A transaction written as a generator: it yields each statement and is sent back its rows (a list) or its
count of changed rows (an int); what it returns is the transaction's result, an exception out of it rolls
everything back. Written without I/O, it runs the same on each backend: SQLite runs it whole in its thread,
in one trip (bot/store/sqlite.py); PostgreSQL statement by statement (``drive``)."""


async def drive(steps: Steps, fetch, execute) -> Any:
    """Runs ``steps`` with ``fetch(sql, args)`` and ``execute(sql, args)`` coroutines (inside a transaction
    the caller opened); returns the steps' result."""
    result = None
    while True:
        try:
            kind, sql, args = steps.send(result)
        except StopIteration as done:
            return done.value
        result = await (fetch(sql, args) if kind == "fetch" else execute(sql, args))


class StoreCore(abc.ABC):
    """The primitives a backend implements (``_fetch``, ``_execute``, ``_run``, ``migrate``,
    ``close``), and the helpers the store's parts use them through."""

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
    async def _run(self, steps: Steps) -> Any:
        """Statements that are written together or not at all (``Steps``); returns their result. An exception
        out of them (or a cancellation before they were sent) rolls every one of them back; no other statement
        of this store runs among them."""

    async def execute(self, sql: str, *args: Any) -> int:
        """One statement of portable SQL (``?`` placeholders), for maintenance and tests."""
        return await self._execute(sql, args)

    async def _fetchrow(self, sql: str, args: Sequence[Any]) -> Mapping | None:
        rows = await self._fetch(sql, args)
        return rows[0] if rows else None

    async def _fetchval(self, sql: str, args: Sequence[Any]) -> Any:
        row = await self._fetchrow(sql, args)
        return row[0] if row else None

    async def _update_checked(self, sql: str, params: tuple) -> None:
        if await self._execute(sql, params) != 1:
            raise StaleVersion()
