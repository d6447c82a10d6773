"""Which store the database setting opens: the one place that knows both backends.

The package ``bot/store/`` is the interface and the queries, and its interface imports neither backend
(bot/store/sqlite.py, bot/store/postgres.py); each backend imports it.
"""

from __future__ import annotations

from pathlib import Path

from bot.store import Store, check_database_setting, is_postgres_url


async def open_store(database: str | Path) -> Store:
    """Opens (and migrates) the store the database setting names: a PostgreSQL URL or a SQLite path. Raises
    :class:`bot.store.NotADatabaseSetting` for a URL it does not support and
    :class:`bot.store.DatabaseUnavailable` when the database cannot be used (the cause in words)."""
    check_database_setting(database)
    if is_postgres_url(str(database)):
        from bot.store.postgres import PostgresStore  # asyncpg is imported only when PostgreSQL is used

        return await PostgresStore.connect(str(database))
    from bot.store.sqlite import SQLiteStore

    return await SQLiteStore.connect(database)
