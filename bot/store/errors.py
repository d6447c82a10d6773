"""The store's exceptions: a write refused (a stale version or ratings, a second open table or tournament, a
person still playing) and a database setting the bot cannot use."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.store.privacy import PersonTable


class StaleVersion(Exception):
    """The table changed since the caller loaded it: nothing was written."""


class ChannelBusy(Exception):
    """The channel already has an open table."""


class TournamentOpen(Exception):
    """The channel already has a tournament in sign-up or running (migration 021's index): nothing was written."""


class StaleRatings(Exception):
    """A game's end was about to write ratings computed from ratings that changed since they were read (another
    game of one of its players was rated meanwhile): nothing was written. ``record_move`` reads them again."""


class DatabaseUnavailable(Exception):
    """The database setting names a database the bot cannot use: the message is the cause in words (never the
    password), for ``python -m bot`` to print in one sentence with the setting's name."""


class NotADatabaseSetting(ValueError):
    """The database setting looks like a URL but is not one the bot supports (the message says so, password
    masked)."""


class StillPlaying(Exception):
    """A person asked for their data to be deleted while a table of the server that is still open names them:
    nothing was deleted. ``tables``: those tables."""

    def __init__(self, tables: list[PersonTable]):
        super().__init__(f"still at {len(tables)} open table(s)")
        self.tables = tables
