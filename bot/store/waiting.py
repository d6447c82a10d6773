"""Who is to act where (/turns): a row per person a table in play waits for, written in the same transaction as
the move (``commit_move``), start (``start_table``) or close (``close_table``) that changes it; the rows of one
member in one server read on the index ``waiting_member`` (migration 016) with each table's turn deadline."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.core import Steps
from bot.store.records import Shards, TableRow


@dataclass(frozen=True)
class Turn:
    """A table in play where a member is to act (``Store.turns``)."""

    table_id: int
    game: str
    channel_id: int
    message_id: int | None
    players: list[dict]
    due_at: float | None
    """The table's turn deadline (None: none is stored)."""


def waiting_steps(table_id: int, guild_id: int, users: Sequence[int]) -> Steps:
    """The statements that make ``users`` the people ``table_id`` waits for (none: nobody, e.g. at its end),
    for a transaction of the store (bot/store/core.py ``Steps``)."""
    yield ("execute", "DELETE FROM waiting WHERE table_id = ?", (table_id,))
    users = list(dict.fromkeys(users))
    if users:
        yield ("execute", f"INSERT INTO waiting (table_id, user_id, guild_id) VALUES {', '.join(['(?, ?, ?)'] * len(users))}"
               " ON CONFLICT (table_id, user_id) DO NOTHING",
               tuple(v for user in users for v in (table_id, user, guild_id)))


def _fill(table_id: int, version: int, guild_id: int, users: Sequence[int]) -> Steps:
    """``Waiting.fill_waiting``: written only while the table is still in play at ``version``."""
    still = yield ("fetch", "SELECT id FROM tables WHERE id = ? AND version = ? AND status = 'playing'",
                   (table_id, version))
    if not still:
        return False
    yield from waiting_steps(table_id, guild_id, users)
    return True


class Waiting:
    """Part of :class:`bot.store.base.Store` (statements through the primitives of bot/store/core.py)."""

    async def turns(self, guild_id: int, user_id: int) -> list[Turn]:
        """The server's tables in play where ``user_id`` is to act, the soonest deadline first: the member's
        rows (index ``waiting_member``), each with its table (by id) and turn deadline (by its key)."""
        rows = await self._fetch(
            "SELECT t.id, t.game, t.channel_id, t.message_id, t.players, d.due_at FROM waiting w"
            " JOIN tables t ON t.id = w.table_id"
            " LEFT JOIN deadlines d ON d.table_id = w.table_id AND d.kind = 'turn'"
            " WHERE w.guild_id = ? AND w.user_id = ? AND t.status = 'playing'"
            " ORDER BY d.due_at IS NULL, d.due_at, t.id", (guild_id, user_id))
        return [Turn(r["id"], r["game"], r["channel_id"], r["message_id"], json.loads(r["players"]), r["due_at"])
                for r in rows]

    async def waiting_for(self, table_id: int) -> list[int]:
        """The people ``table_id`` waits for, by id."""
        rows = await self._fetch("SELECT user_id FROM waiting WHERE table_id = ? ORDER BY user_id", (table_id,))
        return [r[0] for r in rows]

    async def playing_without_waiting(self, shards: Shards | None = None) -> list[TableRow]:
        """Games in play (of ``shards``' guilds) that wait for nobody as stored: those of a database from before
        migration 016 (``TableService.restore_waiting`` writes their rows), or whose computers are to act."""
        where, args = shards.sql("t.guild_id") if shards else ("TRUE", ())
        rows = await self._fetch(
            "SELECT t.* FROM tables t WHERE t.status = 'playing' AND NOT EXISTS (SELECT 1 FROM waiting w"
            f" WHERE w.table_id = t.id) AND {where} ORDER BY t.id", args)
        return [TableRow.from_row(r) for r in rows]

    async def fill_waiting(self, table_id: int, version: int, guild_id: int, users: Sequence[int]) -> bool:
        """Writes the people a table in play waits for, read from its state at ``version``; False (nothing
        written) when the table moved on or ended meanwhile."""
        return await self._run(_fill(table_id, version, guild_id, users))
