"""What a backend provides to the store (bot/store/sqlite.py, bot/store/postgres.py): a statement, a
transaction of several, migrating and closing; and the few helpers every part of the store builds its queries on."""

from __future__ import annotations

import abc
import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from bot.store.errors import StaleVersion


class Transaction(abc.ABC):
    """The statements of one transaction (``Store._transaction``), as ``Store._fetch`` and ``Store._execute``."""

    @abc.abstractmethod
    async def fetch(self, sql: str, args: Sequence[Any]) -> list[Mapping]:
        """Rows of one statement."""

    @abc.abstractmethod
    async def execute(self, sql: str, args: Sequence[Any]) -> int:
        """Runs one statement; returns the number of rows it changed."""


class StoreCore(abc.ABC):
    """The primitives a backend implements (``_fetch``, ``_execute``, ``_transaction``, ``migrate``,
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

    async def _update_checked(self, sql: str, params: tuple) -> None:
        if await self._execute(sql, params) != 1:
            raise StaleVersion()
