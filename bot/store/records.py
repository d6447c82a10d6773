"""What the store hands back: a table's row, a server's settings, results as leaderboards, stats and history
show them, a lesson, a shard lease; and the shards a process serves. Plain data, no queries."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.ratings import Outcome, outcome


@dataclass(frozen=True)
class Shards:
    """The shards one bot process runs out of ``count``. A guild is on shard ``(guild_id >> 22) % count``
    (Discord's rule), and a table on its guild's: a process serves only its shards' tables (heals their
    boards, fires their deadlines), so each channel is served by exactly one process."""

    count: int
    ids: tuple[int, ...]

    def of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.count

    def sql(self, guild_column: str) -> tuple[str, tuple[int, ...]]:
        """A condition on a guild id column that holds for this process's guilds, and its arguments (the
        same arithmetic in SQLite and PostgreSQL)."""
        marks = ", ".join("?" * len(self.ids))
        return f"(({guild_column} >> 22) % ?) IN ({marks})", (self.count, *self.ids)

@dataclass
class TableRow:
    id: int
    guild_id: int
    channel_id: int
    game: str
    options: dict
    seed: int
    status: str
    players: list[dict]
    host_id: int
    state: str | None
    version: int
    message_id: int | None
    last_move: str | None
    end_reason: str | None
    created_at: float
    updated_at: float
    ping_message_id: int | None = None
    shown_version: int = 0
    takeover: bool = True
    """A computer takes over the seat of a player who leaves or is removed during play (a lobby option)."""
    pace: int | None = None
    """Seconds per move of a turn-based table; None: live (the server's turn timeout). A lobby option."""
    timeout_computer: bool = False
    """What a turn-based table does when a move runs out: the table plays it (as a live table), or (True) a
    computer takes the seat. A lobby option (``on_timeout``)."""

    @property
    def on_timeout(self) -> str:
        """``timeout_computer`` as bot/table/pace.py's ``ON_TIMEOUT`` names it: "play" or "computer"."""
        return "computer" if self.timeout_computer else "play"
    parent_channel_id: int | None = None
    """A table in a thread of its own: the channel (or forum) the thread was opened in, which gets the link line
    and the result line; None for a table in the channel itself (``channel_id`` is then the channel)."""

    @classmethod
    def from_row(cls, row: Mapping) -> TableRow:
        data = dict(row)
        data["options"] = json.loads(data["options"])
        data["players"] = json.loads(data["players"])
        if "takeover" in data:
            data["takeover"] = bool(data["takeover"])
        if "timeout_computer" in data:
            data["timeout_computer"] = bool(data["timeout_computer"])
        return cls(**data)


@dataclass(frozen=True)
class Standing:
    """A row of a leaderboard: ``rank`` is shared by equal ratings (1, 2, 2, 4)."""

    rank: int
    user_id: int
    name: str
    rating: int
    games: int
    wins: int


@dataclass(frozen=True)
class Leaderboard:
    game: str
    rows: list[Standing]
    """The best ``limit`` rated players of the game in the server."""
    own: Standing | None
    """The asker's row (also when it is among ``rows``); None when they have no rating in this game yet."""
    players: int
    """How many people have a rating in this game in this server."""


@dataclass(frozen=True)
class GameStats:
    """A person's figures in one game in one server: ``games``/``wins`` are rated games, ``unrated`` the
    finished games that were not rated (with computers, ...), ``best_score`` over every finished game."""

    game: str
    games: int
    wins: int
    unrated: int
    rating: int | None
    best_score: float | None
    trend: list[tuple[float, int]]
    """(finished at, rating after) of their latest rated games, oldest first."""


def short_id(table_id: int) -> str:
    """A finished game's short id: its table number as the board shows it ("table 10" -> ``10``)."""
    return str(table_id)


def table_id_of(short: str) -> int | None:
    """The table id of a short id (``10`` or ``#10``), or None when it is not one."""
    text = short.strip().removeprefix("#").strip()
    if not text or len(text) > 19 or not text.isascii() or not text.isdigit():
        return None
    number = int(text)
    return number if number < 1 << 63 else None


@dataclass(frozen=True)
class FinishedGame:
    """A stored result as history shows it; ``guild_id``, ``channel_id`` and ``message_id`` make the link to
    its final board (``message_id`` None: never posted)."""

    table_id: int
    guild_id: int
    channel_id: int | None
    message_id: int | None
    game: str
    finished_at: float
    standings: dict

    @property
    def short_id(self) -> str:
        return short_id(self.table_id)

    @property
    def players(self) -> list[dict]:
        return self.standings.get("players", [])

    @property
    def outcome(self) -> Outcome:
        """Who won, as the ratings count it (a seat a computer took over ranks after the people still playing)."""
        return outcome(self.game, self.players, self.standings.get("ranking") or [],
                       bool(self.standings.get("no_winner")))

    @property
    def winners(self) -> list[dict]:
        """The players of the first place (none when nobody won)."""
        return [self.players[s] for s in self.outcome.winners if s < len(self.players)]

    @property
    def departed(self) -> list[str]:
        """The names of the persons whose seats the game's own ranking put first though they left (a computer
        played their seat on): the reason ``winners`` are not the game's own."""
        return [self.players[s]["was"]["name"] for s in self.outcome.overtaken if s < len(self.players)]

    @classmethod
    def from_row(cls, row: Mapping) -> FinishedGame:
        return cls(row["table_id"], row["guild_id"], row["channel_id"], row["message_id"], row["game"],
                   row["finished_at"], json.loads(row["standings"]))


@dataclass(frozen=True)
class Lesson:
    """A /learn lesson: the engine replays its state from ``seed``, ``options`` and ``log``."""

    id: int
    user_id: int
    guild_id: int | None
    game: str
    options: dict
    seed: int
    players: int
    log: list
    version: int

    @classmethod
    def from_row(cls, row: Mapping) -> Lesson:
        return cls(row["id"], row["user_id"], row["guild_id"], row["game"], json.loads(row["options"]),
                   row["seed"], row["players"], [tuple(x) for x in json.loads(row["log"])], row["version"])


@dataclass(frozen=True)
class Lease:
    """One row of ``shard_leases``: who serves a shard (see bot/leases.py)."""

    shard_id: int
    shard_count: int
    owner: str
    heartbeat_at: float


@dataclass
class GuildSettings:
    """A server's settings. Where games may be started: ``allowed_channels`` None, every channel except
    ``forbidden_channels``; a list, only those channels. A thread (a forum post) is decided by its own entry,
    else by its parent's, so allowing or forbidding a channel or a forum covers its threads, and a thread of
    an allowed channel can still be forbidden on its own; with games allowed everywhere, a thread of a
    forbidden channel can be allowed on its own (``also_threads``).

    The lists live in the one ``allowed_channels`` column (no schema change): NULL (everywhere), a JSON
    list (only these; what older versions wrote) or ``{"only": [...] or null, "except": [...], "also": [...]}``."""

    guild_id: int
    turn_timeout: int | None = None
    allowed_channels: list[int] | None = None
    forbidden_channels: list[int] = field(default_factory=list)
    also_threads: list[int] = field(default_factory=list)
    """Games allowed everywhere: threads allowed although their channel is forbidden."""
    retention_days: int | None = None
    """Finished games older than this many days are deleted with their logs (None: kept forever)."""
    language: str | None = None
    """The language of the server's public messages and boards as a moderator set it (``/mod language``:
    "en", "de", "es"); None follows the server's Discord language (bot/language.py)."""
    pace_default: int | None = None
    """The pace of a new table in seconds per move (``/mod pace``); None: live."""
    pace_max: int | None = None
    """The longest pace allowed in seconds (``/mod pace``); None: the bot's (bot/table/pace.py)."""
    away_max: int | None = None
    """The longest ``/game away`` in days; None: the bot's (bot/table/pace.py)."""
    threads_live: bool | None = None
    """Whether /play opens a live table in a thread of its own when the player does not say (``/mod threads``;
    None: the bot's default, see ``bot.table.threads.wants_thread``)."""
    threads_turn_based: bool | None = None
    """The same for turn-based tables."""

    def allows(self, channel_id: int, parent_id: int | None = None) -> bool:
        """Whether a game may be started in ``channel_id`` (a thread's ``parent_id``: its channel or forum)."""
        if channel_id in self.forbidden_channels:
            return False
        if self.allowed_channels is None:
            return channel_id in self.also_threads or parent_id not in self.forbidden_channels
        return channel_id in self.allowed_channels or parent_id in self.allowed_channels

    def stored_channels(self) -> str | None:
        """The ``allowed_channels`` column's text for these settings."""
        if not self.forbidden_channels and not self.also_threads:
            return None if self.allowed_channels is None else json.dumps(self.allowed_channels)
        return json.dumps({"only": self.allowed_channels, "except": self.forbidden_channels}
                          | ({"also": self.also_threads} if self.also_threads else {}))

    @classmethod
    def from_row(cls, row: Mapping) -> GuildSettings:
        stored = json.loads(row["allowed_channels"]) if row["allowed_channels"] else None
        retention = row["retention_days"] or None
        language = row["language"] or None
        pace = {k: row[k] for k in ("pace_default", "pace_max", "away_max")}
        if isinstance(stored, dict):
            settings = cls(row["guild_id"], row["turn_timeout"], stored.get("only"), list(stored.get("except", [])),
                           list(stored.get("also", [])), retention, language, **pace)
        else:
            settings = cls(row["guild_id"], row["turn_timeout"], stored, retention_days=retention, language=language,
                           **pace)
        for name in ("threads_live", "threads_turn_based"):  # (migration 015)
            if dict(row).get(name) is not None:
                setattr(settings, name, bool(row[name]))
        return settings
