"""Typed settings from the environment (and a .env file, read by ``python -m bot``)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from bot.store import NotADatabaseSetting, Shards, check_database_setting, is_postgres_url

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class MissingToken(Exception):
    """No bot token: the bot cannot log in."""


class SettingError(ValueError):
    """A setting's value is not valid: ``name`` is the setting, the message says what is wrong."""

    def __init__(self, name: str, message: str):
        super().__init__(message)
        self.name = name


@dataclass(frozen=True)
class Settings:
    token: str
    database: str = "data/geotable.db"
    dev_guild: int | None = None
    log_level: str = "INFO"
    turn_timeout: int = 600
    lobby_timeout: int = 1800
    sync_commands: bool = True
    loop_stats: str | None = None
    """A file the bot writes its event-loop lag, CPU time and memory to (GEOTABLE_LOOP_STATS; benchmarks)."""
    shard_count: int | None = None
    """How many shards the bot's guilds are split into, over all processes (GEOTABLE_SHARD_COUNT); None:
    as many as Discord recommends, all in this process."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (GEOTABLE_SHARD_IDS, e.g. ``0,1`` or ``0-3``); None: all of them. Needs
    GEOTABLE_SHARD_COUNT."""
    render_workers: int | None = None
    """Processes drawing boards (GEOTABLE_RENDER_WORKERS; None: one per core). bot/workers/renderpool.py reads the
    variable itself; it is checked here, so a bad value is a sentence at start."""
    lease_heartbeat: float = 5.0
    """Seconds between two renewals of this process's shard leases (GEOTABLE_LEASE_HEARTBEAT)."""
    lease_stale: float = 20.0
    """Seconds without a renewal after which a lease counts as abandoned and another process may take its
    shards over (GEOTABLE_LEASE_STALE)."""
    computer_pause: float = 0.8
    """Seconds a computer player waits before its turn, so people can follow (GEOTABLE_COMPUTER_PAUSE)."""
    computer_step_pause: float = 0.05
    """Seconds between two steps of a computer's turn, e.g. two Geek Out dice (GEOTABLE_COMPUTER_STEP_PAUSE):
    shorter than ``computer_pause``, so a turn of many steps is quick to watch."""
    computer_board_every: float | None = None
    """Inside a computer's turn, a step gets a board of its own at most this often, in seconds
    (GEOTABLE_COMPUTER_BOARD_EVERY; None: every ``computer_pause``); the steps between are said with the next
    board. Discord allows a channel about five message edits in five seconds."""
    ai_workers: int | None = None
    """Processes in which computer players think (GEOTABLE_AI_WORKERS; None: one per core). bot/workers/thinkpool.py
    reads the variable itself; it is checked here."""

    @property
    def shards(self) -> Shards | None:
        """The shards whose tables this process serves, when it runs some of them (None: it runs all)."""
        if self.shard_ids is None:
            return None
        return Shards(self.shard_count, self.shard_ids)

    @property
    def database_is_postgres(self) -> bool:
        """Whether GEOTABLE_DATABASE is a PostgreSQL URL (else a SQLite file's path)."""
        return is_postgres_url(self.database)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise MissingToken(
                "Set DISCORD_TOKEN in .env (copy .env.example) to your bot's token from "
                "https://discord.com/developers/applications (your app > Bot > Reset Token)."
            )
        guild = env.get("GEOTABLE_DEV_GUILD", "").strip()
        shard_count, shard_ids = parse_shards(env.get("GEOTABLE_SHARD_COUNT", ""), env.get("GEOTABLE_SHARD_IDS", ""))
        database = env.get("GEOTABLE_DATABASE", "").strip() or cls.database
        try:
            check_database_setting(database)
        except NotADatabaseSetting as exc:
            raise SettingError("GEOTABLE_DATABASE", f"GEOTABLE_DATABASE: {exc}") from None
        workers = _number(env, "GEOTABLE_RENDER_WORKERS", None, int)
        if workers is not None and workers < 1:
            raise SettingError("GEOTABLE_RENDER_WORKERS", f"GEOTABLE_RENDER_WORKERS must be 1 or more (not {workers})")
        ai_workers = _number(env, "GEOTABLE_AI_WORKERS", None, int)
        if ai_workers is not None and ai_workers < 1:
            raise SettingError("GEOTABLE_AI_WORKERS", f"GEOTABLE_AI_WORKERS must be 1 or more (not {ai_workers})")
        pause = _number(env, "GEOTABLE_COMPUTER_PAUSE", cls.computer_pause, float)
        if not 0 <= pause <= 60:
            raise SettingError("GEOTABLE_COMPUTER_PAUSE", f"GEOTABLE_COMPUTER_PAUSE is 0 to 60 seconds (not {pause:g})")
        step_pause = _number(env, "GEOTABLE_COMPUTER_STEP_PAUSE", min(cls.computer_step_pause, pause), float)
        if not 0 <= step_pause <= pause:
            raise SettingError("GEOTABLE_COMPUTER_STEP_PAUSE", "GEOTABLE_COMPUTER_STEP_PAUSE is 0 to "
                               f"GEOTABLE_COMPUTER_PAUSE ({pause:g}) seconds (not {step_pause:g})")
        board_every = _number(env, "GEOTABLE_COMPUTER_BOARD_EVERY", None, float)
        if board_every is not None and not 0 <= board_every <= 60:
            raise SettingError("GEOTABLE_COMPUTER_BOARD_EVERY",
                               f"GEOTABLE_COMPUTER_BOARD_EVERY is 0 to 60 seconds (not {board_every:g})")
        heartbeat = _number(env, "GEOTABLE_LEASE_HEARTBEAT", cls.lease_heartbeat, float)
        stale = _number(env, "GEOTABLE_LEASE_STALE", cls.lease_stale, float)
        if not 0 < heartbeat < stale:
            # the sentence names where the wrong one came from: a heartbeat of 0 or less, or one given beside
            # the default stale time, is the heartbeat's fault
            stale_given = bool(env.get("GEOTABLE_LEASE_STALE", "").strip())
            wrong = ("GEOTABLE_LEASE_HEARTBEAT" if heartbeat <= 0 or (stale > 0 and not stale_given)
                     else "GEOTABLE_LEASE_STALE")
            raise SettingError(wrong, "GEOTABLE_LEASE_STALE must be longer than "
                               f"GEOTABLE_LEASE_HEARTBEAT, and both above 0 (not {stale:g} and {heartbeat:g})")
        log_level = env.get("GEOTABLE_LOG_LEVEL", "").strip().upper() or cls.log_level
        if log_level not in LOG_LEVELS:
            raise SettingError("GEOTABLE_LOG_LEVEL", f"GEOTABLE_LOG_LEVEL is one of {', '.join(LOG_LEVELS)} "
                               f"(not {log_level.lower()!r})")
        return cls(
            token=token,
            database=database,
            dev_guild=_number(env, "GEOTABLE_DEV_GUILD", None, int) if guild else None,
            log_level=log_level,
            turn_timeout=_number(env, "GEOTABLE_TURN_TIMEOUT", cls.turn_timeout, int),
            lobby_timeout=_number(env, "GEOTABLE_LOBBY_TIMEOUT", cls.lobby_timeout, int),
            sync_commands=env.get("GEOTABLE_SYNC_COMMANDS", "1") not in ("0", "false", "no"),
            loop_stats=env.get("GEOTABLE_LOOP_STATS") or None,
            shard_count=shard_count,
            shard_ids=shard_ids,
            render_workers=workers,
            lease_heartbeat=heartbeat,
            lease_stale=stale,
            computer_pause=pause,
            computer_step_pause=step_pause,
            computer_board_every=board_every,
            ai_workers=ai_workers,
        )


def _number(env: dict[str, str], name: str, default, kind):
    """A numeric setting (empty: ``default``); a SettingError names it when it is not a number."""
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        return kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise SettingError(name, f"{name} must be {what} (not {text!r})") from None


def parse_shards(count: str, ids: str) -> tuple[int | None, tuple[int, ...] | None]:
    """GEOTABLE_SHARD_COUNT and GEOTABLE_SHARD_IDS as (count, ids); a SettingError says what is wrong.

    >>> parse_shards("4", "0-1")
    (4, (0, 1))
    >>> parse_shards("4", "")
    (4, None)
    >>> parse_shards("", "")
    (None, None)
    """
    count, ids = count.strip(), ids.strip()
    shard_count = None
    if count:
        if not count.isdigit() or int(count) < 1:
            raise SettingError("GEOTABLE_SHARD_COUNT", f"GEOTABLE_SHARD_COUNT must be a whole number of shards, 1 or more (not {count!r})")
        shard_count = int(count)
    if not ids:
        return shard_count, None
    if shard_count is None:
        raise SettingError("GEOTABLE_SHARD_IDS", "GEOTABLE_SHARD_IDS needs GEOTABLE_SHARD_COUNT (the number of shards over all processes)")
    chosen: list[int] = []
    for part in ids.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
            raise SettingError("GEOTABLE_SHARD_IDS", f"GEOTABLE_SHARD_IDS is a list of shard numbers and ranges like 0,1 or 0-3 (not {ids!r})")
        chosen += range(int(first), int(last if dash else first) + 1)
    if not chosen or len(set(chosen)) != len(chosen):
        raise SettingError("GEOTABLE_SHARD_IDS", f"GEOTABLE_SHARD_IDS names no shard or one shard twice ({ids!r})")
    outside = [i for i in chosen if i >= shard_count]
    if outside:
        raise SettingError("GEOTABLE_SHARD_IDS", f"GEOTABLE_SHARD_IDS {outside} are not below GEOTABLE_SHARD_COUNT ({shard_count})")
    return shard_count, tuple(sorted(chosen))
