"""The store: tables, the action log, deadlines, guild and user settings, results.

One interface, :class:`Store`, and two backends chosen by the one database setting (``bot.database.open_store``;
this package's interface imports neither backend):

- a path (the default ``data/geotable.db``): SQLite through aiosqlite, embedded (bot/store/sqlite.py);
- a ``postgresql://`` or ``postgres://`` URL: PostgreSQL through asyncpg, shared by several bot processes
  (bot/store/postgres.py).

All the queries live in the store's parts, once, in SQL both databases speak (``?`` placeholders; ``ON
CONFLICT ... DO UPDATE``; ``RETURNING``). A backend only connects, applies its migrations
(``bot/migrations/<dialect>/``, a parallel set kept in step by tests/bot/test_store.py), runs a statement or a
transaction of several, turning its driver's errors into :class:`ChannelBusy` and :class:`TournamentOpen`.
A move is committed by the store too (``commit_move``: the version's compare-and-set, state, action log, deadlines and, at the end, result and
ratings in one transaction), so it is written once for both databases and no migration re-creates it.

The modules, and what each owns:
- ``base``: :class:`Store`, composed of the parts below; ``core``: what a backend provides (``Steps``,
  the primitives) and the helpers the parts build on;
- the parts: ``tables`` (a table's row, lobby to close), ``moves`` (``commit_move``, ``record_move``, ratings),
  ``results`` (leaderboards, stats, history), ``panels``, ``deadlines``, ``settings`` (server and user),
  ``lessons`` (/learn), ``privacy`` (a person's data, retention), ``seasons`` (seasons, hall of fame), ``leases`` (shards), ``waiting`` (who is to
  act where: /turns);
- ``records``: the rows the store hands back; ``errors``: its exceptions; ``dialects``: the database setting
  and each dialect's migrations;
- the backends ``sqlite`` and ``postgres`` (imported only by bot/database.py).

Every public name is importable from ``bot.store`` itself.
"""

from bot.store.base import Store
from bot.store.core import Steps
from bot.store.dialects import (
    DIALECTS,
    POSTGRES_SCHEMES,
    check_database_setting,
    is_postgres_url,
    masked,
    migrations,
)
from bot.store.errors import (
    ChannelBusy,
    DatabaseUnavailable,
    NotADatabaseSetting,
    StaleRatings,
    StaleVersion,
    StillPlaying,
    TournamentOpen,
)
from bot.store.moves import RATING_ATTEMPTS
from bot.store.privacy import (
    FORMER_ID,
    FORMER_MEMBER,
    FORMER_PLAYER,
    OPEN,
    Forgotten,
    PersonTable,
    anonymised_players,
    without_names,
)
from bot.store.records import (
    FinishedGame,
    GameStats,
    GuildSettings,
    Leaderboard,
    Lease,
    Lesson,
    Shards,
    Standing,
    TableRow,
    short_id,
    table_id_of,
)
from bot.store.seasons import Podium, Season
from bot.store.waiting import Turn

__all__ = [
    "DIALECTS", "FORMER_ID", "FORMER_MEMBER", "FORMER_PLAYER", "OPEN", "POSTGRES_SCHEMES", "RATING_ATTEMPTS",
    "ChannelBusy", "DatabaseUnavailable", "FinishedGame", "Forgotten", "GameStats", "GuildSettings", "Leaderboard",
    "Lease", "Lesson", "NotADatabaseSetting", "PersonTable", "Podium", "Season", "Shards", "StaleRatings", "StaleVersion", "Standing",
    "StillPlaying", "Store", "TableRow", "TournamentOpen", "Turn", "Steps", "anonymised_players", "check_database_setting",
    "is_postgres_url", "masked", "migrations", "short_id", "table_id_of", "without_names",
]
