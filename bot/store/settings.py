"""Settings: a server's (turn timeout, channels, retention, language) and a user's (pings)."""

from __future__ import annotations

from bot.store.records import GuildSettings


class Settings:
    """Part of :class:`bot.store.base.Store` (statements through the primitives of bot/store/core.py)."""

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self._fetchrow("SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if not row:
            return GuildSettings(guild_id)
        return GuildSettings.from_row(row)

    async def save_guild_settings(self, s: GuildSettings) -> None:
        await self._execute(
            "INSERT INTO guild_settings (guild_id, turn_timeout, allowed_channels, retention_days, language,"
            " pace_default, pace_max, away_max, threads_live, threads_turn_based)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " turn_timeout = excluded.turn_timeout,"
            " allowed_channels = excluded.allowed_channels, retention_days = excluded.retention_days,"
            " language = excluded.language, pace_default = excluded.pace_default, pace_max = excluded.pace_max,"
            " away_max = excluded.away_max, threads_live = excluded.threads_live,"
            " threads_turn_based = excluded.threads_turn_based",
            (s.guild_id, s.turn_timeout, s.stored_channels(), s.retention_days or None, s.language or None,
             s.pace_default, s.pace_max, s.away_max, _flag(s.threads_live), _flag(s.threads_turn_based)),
        )

    # --- user settings -------------------------------------------------------------------------------
    async def pings_enabled(self, user_id: int) -> bool:
        row = await self._fetchrow("SELECT pings FROM user_settings WHERE user_id = ?", (user_id,))
        return bool(row[0]) if row else True

    async def set_pings(self, user_id: int, enabled: bool) -> None:
        await self._execute(
            "INSERT INTO user_settings (user_id, pings) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET pings = excluded.pings",
            (user_id, int(enabled)),
        )

    async def user_settings(self, user_id: int) -> dict | None:
        """The stored settings of a user (every server), or None when they never changed any."""
        row = await self._fetchrow("SELECT * FROM user_settings WHERE user_id = ?", (user_id,))
        return dict(row) if row else None


def _flag(value: bool | None) -> int | None:
    return None if value is None else int(value)
