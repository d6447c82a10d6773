"""The daily puzzle's store (migration 017): members' attempts per server and day, the server's reset hour and
board channel, and the finished days' board posts (claimed once). The day arithmetic is here too: a server's day
runs from its reset hour (UTC) to the next day's."""

from __future__ import annotations

import datetime
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass

from bot.store.records import Shards

CLAIM_STALE = 45.0
"""Seconds after which a board post claimed and never posted (the process died mid-post) is claimed again: under
Discord's nonce window, so a post Discord made before the process died is answered again, not doubled
(bot/nonces.py)."""


def day_of(ts: float, reset_hour: int) -> str:
    """The server's day at ``ts``: the UTC date of ``ts`` less the reset hour ("2026-11-29" runs from
    ``reset_hour``:00 UTC on the 29th to the same hour on the 30th)."""
    return datetime.datetime.fromtimestamp(ts - reset_hour * 3600, datetime.UTC).date().isoformat()


def shift(day: str, days: int) -> str:
    return (datetime.date.fromisoformat(day) + datetime.timedelta(days=days)).isoformat()


def day_end(day: str, reset_hour: int) -> float:
    """When ``day`` ends (the next reset), in seconds since the epoch."""
    start = datetime.datetime.fromisoformat(day).replace(tzinfo=datetime.UTC)
    return (start + datetime.timedelta(days=1, hours=reset_hour)).timestamp()


@dataclass(frozen=True)
class DailyResult:
    guild_id: int
    day: str
    user_id: int
    log: list
    version: int
    finished: bool
    solved: bool
    moves: int
    par: int
    grid: str
    streak: int
    shared: bool

    @classmethod
    def from_row(cls, row: Mapping) -> DailyResult:
        return cls(row["guild_id"], row["day"], row["user_id"], json.loads(row["log"]), row["version"],
                   bool(row["finished"]), bool(row["solved"]), row["moves"], row["par"], row["squares"], row["streak"],
                   bool(row["shared"]))


@dataclass(frozen=True)
class DailySettings:
    guild_id: int
    reset_hour: int = 0
    channel_id: int | None = None


class Daily:
    """Part of :class:`bot.store.base.Store` (statements through the primitives of bot/store/core.py)."""

    # --- settings --------------------------------------------------------------------------------------
    async def daily_settings(self, guild_id: int) -> DailySettings:
        row = await self._fetchrow("SELECT * FROM daily_settings WHERE guild_id = ?", (guild_id,))
        return DailySettings(guild_id, row["reset_hour"], row["channel_id"]) if row else DailySettings(guild_id)

    async def save_daily_settings(self, s: DailySettings) -> None:
        await self._execute(
            "INSERT INTO daily_settings (guild_id, reset_hour, channel_id) VALUES (?, ?, ?) ON CONFLICT (guild_id)"
            " DO UPDATE SET reset_hour = excluded.reset_hour, channel_id = excluded.channel_id",
            (s.guild_id, s.reset_hour, s.channel_id))

    # --- attempts ---------------------------------------------------------------------------------------
    async def daily_result(self, guild_id: int, day: str, user_id: int) -> DailyResult | None:
        row = await self._fetchrow("SELECT * FROM daily_results WHERE guild_id = ? AND day = ? AND user_id = ?",
                                   (guild_id, day, user_id))
        return DailyResult.from_row(row) if row else None

    async def start_daily(self, guild_id: int, day: str, user_id: int, par: int) -> DailyResult:
        """The member's attempt at the day (a new one, or the one already there: never a second)."""
        await self._execute(
            "INSERT INTO daily_results (guild_id, day, user_id, log, version, par, squares, started_at)"
            " VALUES (?, ?, ?, '[]', 0, ?, '', ?) ON CONFLICT (guild_id, day, user_id) DO NOTHING",
            (guild_id, day, user_id, par, time.time()))
        return await self.daily_result(guild_id, day, user_id)

    async def advance_daily(self, result: DailyResult, log: list) -> bool:
        """Stores the longer log if nobody stored another since ``result`` was read (False: nothing written)."""
        return await self._execute(
            "UPDATE daily_results SET log = ?, version = ? WHERE guild_id = ? AND day = ? AND user_id = ?"
            " AND version = ? AND finished = 0",
            (json.dumps(log), len(log), result.guild_id, result.day, result.user_id, result.version)) == 1

    async def finish_daily(self, result: DailyResult, log: list, *, solved: bool, moves: int, grid: str) -> bool:
        """The last step of an attempt, with its score and its streak (the day before's streak in this server
        plus one when solved, else 0), in one statement (compare-and-set on the version)."""
        before = shift(result.day, -1)
        return await self._execute(
            "UPDATE daily_results SET log = ?, version = ?, finished = 1, solved = ?, moves = ?, squares = ?,"
            " finished_at = ?, streak = CASE WHEN ? = 1 THEN 1 + COALESCE((SELECT p.streak FROM daily_results p"
            " WHERE p.guild_id = ? AND p.day = ? AND p.user_id = ? AND p.solved = 1), 0) ELSE 0 END"
            " WHERE guild_id = ? AND day = ? AND user_id = ? AND version = ? AND finished = 0",
            (json.dumps(log), len(log), int(solved), moves, grid, time.time(), int(solved),
             result.guild_id, before, result.user_id, result.guild_id, result.day, result.user_id,
             result.version)) == 1

    async def mark_shared(self, guild_id: int, day: str, user_id: int) -> bool:
        """Claims the attempt's one share (False: it was shared already, or is not finished)."""
        return await self._execute(
            "UPDATE daily_results SET shared = 1 WHERE guild_id = ? AND day = ? AND user_id = ? AND finished = 1"
            " AND shared = 0", (guild_id, day, user_id)) == 1

    async def unmark_shared(self, guild_id: int, day: str, user_id: int) -> None:
        """The share could not be posted: it may be tried again."""
        await self._execute("UPDATE daily_results SET shared = 0 WHERE guild_id = ? AND day = ? AND user_id = ?",
                            (guild_id, day, user_id))

    async def daily_board(self, guild_id: int, day: str, limit: int = 25) -> list[DailyResult]:
        """The day's finished attempts in the server, best first: solved, fewest moves, earliest (the primary
        key's prefix finds them)."""
        rows = await self._fetch(
            "SELECT * FROM daily_results WHERE guild_id = ? AND day = ? AND finished = 1"
            " ORDER BY solved DESC, moves, finished_at LIMIT ?", (guild_id, day, limit))
        return [DailyResult.from_row(r) for r in rows]

    async def daily_count(self, guild_id: int, day: str) -> tuple[int, int]:
        """(finished, solved) on the day in the server."""
        row = await self._fetchrow(
            "SELECT COUNT(*) AS n, COALESCE(SUM(solved), 0) AS s FROM daily_results WHERE guild_id = ? AND day = ?"
            " AND finished = 1", (guild_id, day))
        return int(row["n"]), int(row["s"])

    async def forget_daily(self, guild_id: int, user_id: int) -> int:
        """/privacy delete: the member's attempts in the server."""
        return await self._execute("DELETE FROM daily_results WHERE guild_id = ? AND user_id = ?",
                                   (guild_id, user_id))

    async def daily_result_count(self, guild_id: int, user_id: int) -> int:
        return int(await self._fetchval("SELECT COUNT(*) FROM daily_results WHERE guild_id = ? AND user_id = ?",
                                        (guild_id, user_id)))

    # --- the finished day's board post ------------------------------------------------------------------------
    async def daily_channels(self, shards: Shards | None = None) -> list[DailySettings]:
        """The servers (of ``shards``) that post the finished day's board."""
        where, args = shards.sql("guild_id") if shards else ("TRUE", ())
        rows = await self._fetch(f"SELECT * FROM daily_settings WHERE channel_id IS NOT NULL AND {where}", args)
        return [DailySettings(r["guild_id"], r["reset_hour"], r["channel_id"]) for r in rows]

    async def claim_daily_post(self, guild_id: int, day: str, now: float) -> bool:
        """Claims the post of ``day``'s board: True for exactly one caller (any process); a claim older than
        ``CLAIM_STALE`` that was never posted is claimed again (compare-and-set on its time)."""
        if await self._execute("INSERT INTO daily_posts (guild_id, day, claimed_at) VALUES (?, ?, ?)"
                               " ON CONFLICT (guild_id, day) DO NOTHING", (guild_id, day, now)) == 1:
            return True
        return await self._execute(
            "UPDATE daily_posts SET claimed_at = ? WHERE guild_id = ? AND day = ? AND message_id IS NULL"
            " AND claimed_at < ?", (now, guild_id, day, now - CLAIM_STALE)) == 1

    async def daily_posted(self, guild_id: int, day: str, message_id: int) -> None:
        await self._execute("UPDATE daily_posts SET message_id = ? WHERE guild_id = ? AND day = ?",
                            (message_id, guild_id, day))

    async def daily_post(self, guild_id: int, day: str) -> int | None:
        """The post's message id (0: nothing to post; None: not posted, or no such claim)."""
        return await self._fetchval("SELECT message_id FROM daily_posts WHERE guild_id = ? AND day = ?",
                                    (guild_id, day))
