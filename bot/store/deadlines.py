"""Deadlines: a table's lobby, turn and game-timer deadlines (bot/table/timers.py fires them), read in due
order and per shard."""

from __future__ import annotations

from bot.store.records import Shards


class Deadlines:
    """Part of :class:`bot.store.base.Store` (statements through the primitives of bot/store/core.py)."""

    async def set_deadline(self, table_id: int, kind: str, due_at: float) -> None:
        await self._execute(
            "INSERT INTO deadlines (table_id, kind, due_at) VALUES (?, ?, ?)"
            " ON CONFLICT (table_id, kind) DO UPDATE SET due_at = excluded.due_at",
            (table_id, kind, due_at),
        )

    async def claim_deadline(self, table_id: int, kind: str, now: float) -> bool:
        """Deletes the table's deadline of ``kind`` if it is due at ``now``; True for the one caller that did
        (one statement: a deadline that only says something, a reminder, is said once)."""
        return await self._execute("DELETE FROM deadlines WHERE table_id = ? AND kind = ? AND due_at <= ?",
                                   (table_id, kind, now)) == 1

    async def clear_deadline(self, table_id: int, kind: str) -> None:
        await self._execute("DELETE FROM deadlines WHERE table_id = ? AND kind = ?", (table_id, kind))

    async def deadlines(self) -> list[tuple[int, str, float]]:
        rows = await self._fetch("SELECT table_id, kind, due_at FROM deadlines ORDER BY due_at, table_id, kind", ())
        return [(r[0], r[1], r[2]) for r in rows]

    async def due_deadlines(self, now: float, limit: int = 200,
                            shards: Shards | None = None) -> list[tuple[int, str, float]]:
        """Deadlines that have passed, oldest first (indexed: never reads the ones still to come).
        ``shards``: only those of their tables."""
        where, args = self._deadlines_of(shards)
        rows = await self._fetch(
            "SELECT d.table_id, d.kind, d.due_at FROM deadlines d JOIN tables t ON t.id = d.table_id"
            f" WHERE d.due_at <= ? AND {where} ORDER BY d.due_at LIMIT ?", (now, *args, limit)
        )
        return [(r[0], r[1], r[2]) for r in rows]

    async def next_deadline(self, shards: Shards | None = None) -> float | None:
        """When the next deadline (of ``shards``' tables) is due: the first in due order that matches."""
        where, args = self._deadlines_of(shards)
        return await self._fetchval(
            "SELECT d.due_at FROM deadlines d JOIN tables t ON t.id = d.table_id"
            f" WHERE {where} ORDER BY d.due_at LIMIT 1", args
        )

    @staticmethod
    def _deadlines_of(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
        return shards.sql("t.guild_id") if shards else ("TRUE", ())

    async def without_turn_deadline(self, shards: Shards | None = None) -> list[int]:
        """Games in play with no turn deadline (a start cut short between its two statements by a crash)."""
        where, args = shards.sql("t.guild_id") if shards else ("TRUE", ())
        rows = await self._fetch(
            "SELECT t.id FROM tables t WHERE t.status = 'playing' AND NOT EXISTS (SELECT 1 FROM deadlines d"
            f" WHERE d.table_id = t.id AND d.kind = 'turn') AND {where} ORDER BY t.id", args)
        return [r[0] for r in rows]

    async def deadline(self, table_id: int, kind: str) -> float | None:
        return await self._fetchval("SELECT due_at FROM deadlines WHERE table_id = ? AND kind = ?", (table_id, kind))
