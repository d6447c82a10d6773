"""Which database the one database setting names (a SQLite path or a PostgreSQL URL), the checks that keep a
mistyped URL from becoming a file, and each dialect's migrations (``bot/migrations/<dialect>/``)."""

from __future__ import annotations

import re
import urllib.parse
from importlib import resources
from pathlib import Path

from bot.store.errors import NotADatabaseSetting

DIALECTS = ("sqlite", "postgres")
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
