"""The store: one class, :class:`Store`, composed of its parts by concern (each in its own module of
bot/store/), over the primitives a backend provides (bot/store/core.py)."""

from __future__ import annotations

from bot.store.away import Away
from bot.store.core import StoreCore
from bot.store.daily import Daily
from bot.store.deadlines import Deadlines
from bot.store.leases import Leases
from bot.store.lessons import Lessons
from bot.store.moves import Moves
from bot.store.panels import Panels
from bot.store.privacy import Privacy
from bot.store.results import Results
from bot.store.seasons import Seasons
from bot.store.settings import Settings
from bot.store.tables import Tables
from bot.store.tournaments import Tournaments
from bot.store.waiting import Waiting


class Store(Tables, Moves, Results, Panels, Deadlines, Settings, Lessons, Daily, Tournaments, Privacy, Leases, Away,
            Waiting, Seasons, StoreCore):
    """What the table service and the cogs may ask of the database. Backends implement the primitives
    (``_fetch``, ``_execute``, ``_run``, ``migrate``, ``close``); every query is written once, in the
    parts."""
