"""Typed settings from the environment (and a .env file, read by ``python -m bot``)."""

from __future__ import annotations

import os
from dataclasses import dataclass


class MissingToken(Exception):
    """No bot token: the bot cannot log in."""


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
        return cls(
            token=token,
            database=env.get("GEOTABLE_DATABASE", cls.database),
            dev_guild=int(guild) if guild else None,
            log_level=env.get("GEOTABLE_LOG_LEVEL", cls.log_level).upper(),
            turn_timeout=int(env.get("GEOTABLE_TURN_TIMEOUT", cls.turn_timeout)),
            lobby_timeout=int(env.get("GEOTABLE_LOBBY_TIMEOUT", cls.lobby_timeout)),
            sync_commands=env.get("GEOTABLE_SYNC_COMMANDS", "1") not in ("0", "false", "no"),
            loop_stats=env.get("GEOTABLE_LOOP_STATS") or None,
        )
