"""Away: a member's vacation from a server's turn-based tables (``/game away``), and the turn deadlines it
moves (their clocks paused: pushed past the vacation, pulled back when they come back early)."""

from __future__ import annotations


class Away:
    """Part of :class:`bot.store.base.Store` (statements through the primitives of bot/store/core.py)."""

    async def set_away(self, guild_id: int, user_id: int, until: float, now: float) -> bool:
        """``user_id`` is away in ``guild_id`` until ``until``; False (nothing written) while they already are
        (one statement: a double click writes once)."""
        return await self._execute(
            "INSERT INTO away (guild_id, user_id, until, since) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET until = excluded.until, since = excluded.since"
            " WHERE away.until <= ?", (guild_id, user_id, until, now, now)) == 1

    async def end_away(self, guild_id: int, user_id: int, now: float) -> float | None:
        """Ends the vacation of ``user_id`` (``/game back``): when it would have ended, or None when they were
        not away."""
        rows = await self._fetch("DELETE FROM away WHERE guild_id = ? AND user_id = ? RETURNING until",
                                 (guild_id, user_id))
        until = rows[0][0] if rows else None
        return until if until is not None and until > now else None

    async def away_of(self, guild_id: int, user_ids: list[int], now: float) -> dict[int, float]:
        """user -> until, of those of ``user_ids`` away in ``guild_id`` now."""
        if not user_ids:
            return {}
        marks = ", ".join("?" * len(user_ids))
        rows = await self._fetch(f"SELECT user_id, until FROM away WHERE guild_id = ? AND user_id IN ({marks})"
                                 " AND until > ?", (guild_id, *user_ids, now))
        return {r[0]: r[1] for r in rows}

    async def turn_based_tables_of(self, guild_id: int, user_id: int) -> list[int]:
        """The turn-based games in play in ``guild_id`` that wait for ``user_id`` (the indexed rows of
        bot/store/waiting.py: a seat not to act has no clock to pause)."""
        rows = await self._fetch(
            "SELECT t.id FROM waiting w JOIN tables t ON t.id = w.table_id WHERE w.guild_id = ? AND w.user_id = ?"
            " AND t.status = 'playing' AND t.pace IS NOT NULL ORDER BY t.id", (guild_id, user_id))
        return [r[0] for r in rows]

    async def shift_deadlines(self, table_id: int, by: float, kinds: tuple[str, ...] = ("turn", "remind")) -> None:
        """Moves the table's deadlines of ``kinds`` by ``by`` seconds (a clock paused or resumed)."""
        marks = ", ".join("?" * len(kinds))
        await self._execute(f"UPDATE deadlines SET due_at = due_at + ? WHERE table_id = ? AND kind IN ({marks})",
                            (by, table_id, *kinds))

    async def latest_of_seat(self, table_id: int, seat: int, limit: int) -> list[tuple[int, str]]:
        """The latest logged actions of ``seat`` and the table's timeouts of it, newest first (at most
        ``limit``): enough to count its turns that ran out in a row (bot/table/pace.py)."""
        rows = await self._fetch(
            "SELECT seat, action FROM actions WHERE table_id = ? AND (seat = ? OR (seat = -1 AND action = ?))"
            " ORDER BY ply DESC LIMIT ?", (table_id, seat, f"timeout:{seat}", limit))
        return [(r[0], r[1]) for r in rows]
