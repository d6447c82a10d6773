"""Private panels (bot/panels.py): the token and message of each player's own view, kept so a restart can
still edit them while their token lives."""

from __future__ import annotations

from bot.store.records import Shards


class Panels:
    """Part of :class:`bot.store.base.Store` (statements through the primitives of bot/store/core.py)."""

    async def save_panel(self, table_id: int, user_id: int, *, seat: int, application_id: int, token: str,
                         message_id: int | None, opened: float, locale: str | None = None) -> None:
        """``locale``: the language the panel speaks (its player's), kept for after a restart."""
        await self._execute(
            "INSERT INTO panels (table_id, user_id, seat, application_id, token, message_id, opened, locale)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, user_id) DO UPDATE SET seat = excluded.seat,"
            " application_id = excluded.application_id, token = excluded.token, message_id = excluded.message_id,"
            " opened = excluded.opened, locale = excluded.locale",
            (table_id, user_id, seat, application_id, token, message_id, opened, locale),
        )

    async def delete_panel(self, table_id: int, user_id: int | None = None) -> None:
        """Forgets the user's panel at the table (``user_id`` None: every panel of the table)."""
        if user_id is None:
            await self._execute("DELETE FROM panels WHERE table_id = ?", (table_id,))
        else:
            await self._execute("DELETE FROM panels WHERE table_id = ? AND user_id = ?", (table_id, user_id))

    async def live_panels(self, opened_since: float, shards: Shards | None = None) -> list[dict]:
        """Panels whose token was issued after ``opened_since`` (still editable), of ``shards``' tables; the
        older ones are deleted."""
        await self._execute("DELETE FROM panels WHERE opened < ?", (opened_since,))
        where, args = shards.sql("t.guild_id") if shards else ("TRUE", ())
        rows = await self._fetch(
            "SELECT p.table_id, p.user_id, p.seat, p.application_id, p.token, p.message_id, p.opened, p.locale"
            " FROM panels p"
            f" JOIN tables t ON t.id = p.table_id WHERE p.opened >= ? AND {where} ORDER BY p.opened",
            (opened_since, *args))
        return [dict(r) for r in rows]
