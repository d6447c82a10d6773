"""Shard leases (bot/leases.py): which process serves which shard, taken, renewed and released each in one
statement."""

from __future__ import annotations

from bot.store.records import Lease


class Leases:
    """Part of :class:`bot.store.base.Store` (statements through the primitives of bot/store/core.py)."""

    async def leases(self) -> list[Lease]:
        rows = await self._fetch("SELECT shard_id, shard_count, owner, heartbeat_at FROM shard_leases"
                                 " ORDER BY shard_id", ())
        return [Lease(*r) for r in rows]

    async def take_lease(self, shard_id: int, shard_count: int, owner: str, now: float, stale_before: float) -> bool:
        """Takes (or renews) the lease of one shard unless another owner's heartbeat is newer than
        ``stale_before``; True when ``owner`` holds it now. One statement: two processes racing for a shard
        cannot both win it."""
        return await self._execute(
            "INSERT INTO shard_leases (shard_id, shard_count, owner, heartbeat_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (shard_id) DO UPDATE SET shard_count = excluded.shard_count, owner = excluded.owner,"
            " heartbeat_at = excluded.heartbeat_at"
            " WHERE shard_leases.owner = excluded.owner OR shard_leases.heartbeat_at < ?",
            (shard_id, shard_count, owner, now, stale_before),
        ) == 1

    async def renew_leases(self, owner: str, now: float) -> int:
        """The heartbeat: renews every lease ``owner`` still holds; returns how many."""
        return await self._execute("UPDATE shard_leases SET heartbeat_at = ? WHERE owner = ?", (now, owner))

    async def release_leases(self, owner: str) -> None:
        await self._execute("DELETE FROM shard_leases WHERE owner = ?", (owner,))
