"""Players' private panels: the one ephemeral message per player and table that the bot keeps current.

A panel is the original response of an interaction (the "My hand" click, or a later click on the panel
itself, which Discord lets us answer by updating the panel). Discord lets a bot edit it only through that
interaction's token, for 15 minutes; every click on the panel brings a fresh token, so a player who plays
from their panel keeps it live. What editing a panel needs (application id, token, message, seat, when the
token was issued) is also kept in the store (migration 006), written in the background so a move never waits
for it: after a restart the panels are read back (``load``) and the next publication updates them as before.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

import discord

import i18n
from bot.language import member_language
from bot.store import Shards, Store

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 15 * 60
MARGIN = 30
"""Seconds before Discord's 15-minute limit at which we stop editing (an edit in flight must still land)."""


class StoredInteraction:
    """A panel's interaction read back from the store after a restart: its token still edits (and deletes)
    the interaction's original response, the panel, through the interaction webhook."""

    def __init__(self, client: discord.Client, application_id: int, token: str):
        self.client = client
        self.application_id = application_id
        self.token = token

    def _webhook(self) -> discord.Webhook:
        data = {"id": self.application_id, "type": 3, "token": self.token}
        return discord.Webhook.from_state(data, state=self.client._connection)  # type: ignore[arg-type]

    async def edit_original_response(self, **fields) -> discord.WebhookMessage:
        return await self._webhook().edit_message("@original", **fields)  # type: ignore[arg-type]

    async def delete_original_response(self) -> None:
        await self._webhook().delete_message("@original")  # type: ignore[arg-type]


@dataclass
class Panel:
    interaction: discord.Interaction | StoredInteraction
    """The latest interaction whose original response is the panel: its token edits the panel."""
    seat: int
    opened: float
    """When that token was issued, on the bot's clock."""
    message_id: int | None = None
    """The panel message, once known (a "My hand" panel learns it when first drawn)."""
    locale: str = i18n.DEFAULT
    """The language the panel speaks: its player's (the latest click's ``interaction.locale``)."""


class Panels:
    def __init__(self, clock=time.time, store: Store | None = None):
        self.clock = clock
        self.store = store
        self._by_table: dict[int, dict[int, Panel]] = {}
        self._unsaved: dict[tuple[int, int | None], Panel | None] = {}
        """(table, user) -> the panel to write (None: to delete; user None: every panel of the table)."""
        self._writer: asyncio.Task | None = None

    async def load(self, client: discord.Client, shards: Shards | None = None) -> None:
        """Reads back the panels still editable (of ``shards``' tables) after a restart."""
        if self.store is None:
            return
        for row in await self.store.live_panels(self.clock() - (TOKEN_LIFETIME - MARGIN), shards):
            interaction = StoredInteraction(client, row["application_id"], row["token"])
            self._by_table.setdefault(row["table_id"], {})[row["user_id"]] = Panel(
                interaction, row["seat"], row["opened"], row["message_id"], i18n.pick(row["locale"]))

    def get(self, table_id: int, user_id: int) -> Panel | None:
        return self._by_table.get(table_id, {}).get(user_id)

    def set(self, table_id: int, user_id: int, interaction: discord.Interaction, seat: int,
            message_id: int | None = None) -> tuple[Panel, Panel | None]:
        """From now on the user's panel is ``interaction``'s original response. Returns the new panel and the
        one it replaces when that is another message (the caller removes it)."""
        panels = self._by_table.setdefault(table_id, {})
        old = panels.get(user_id)
        new = panels[user_id] = Panel(interaction, seat, self.clock(), message_id, member_language(interaction))
        self.save(table_id, user_id, new)
        if old is not None and (message_id is None or old.message_id != message_id):
            return new, old
        return new, None

    def save(self, table_id: int, user_id: int, panel: Panel | None) -> None:
        """Writes the user's panel (None: its removal) to the store in the background, in order; writes
        queued for the same panel collapse into the last."""
        if self.store is None:
            return
        self._unsaved.pop((table_id, user_id), None)  # re-queued at the end: writes keep their order
        self._unsaved[(table_id, user_id)] = panel
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write(), name="geotable-panels")

    async def _write(self) -> None:
        while self._unsaved:
            (table_id, user_id), panel = next(iter(self._unsaved.items()))
            del self._unsaved[(table_id, user_id)]
            try:
                if panel is None:
                    await self.store.delete_panel(table_id, user_id)
                else:
                    await self.store.save_panel(
                        table_id, user_id, seat=panel.seat, application_id=panel.interaction.application_id,
                        token=panel.interaction.token, message_id=panel.message_id, opened=panel.opened,
                        locale=panel.locale)
            except Exception:  # a panel not kept across a restart is revived by the player's next click
                log.exception("could not store the panel of %s at table %s", user_id, table_id)

    async def flush(self) -> None:
        """Waits until every panel write queued so far has reached the store."""
        while self._writer is not None and not self._writer.done():
            await self._writer

    async def close(self) -> None:
        """At shutdown: the queued writes reach the store, later ones (a publication still finishing while the
        store closes) are dropped instead of failing against a closed store; the players' next click revives
        those panels."""
        await self.flush()
        self.store = None

    def is_live(self, panel: Panel) -> bool:
        """Whether Discord still lets the bot edit (or delete) the panel with its token."""
        return self.clock() - panel.opened < TOKEN_LIFETIME - MARGIN

    def live(self, table_id: int) -> list[tuple[int, Panel]]:
        """(user, panel) of the table's panels whose token still allows an edit; forgets the others."""
        panels = self._by_table.get(table_id, {})
        for user_id in [u for u, p in panels.items() if not self.is_live(p)]:
            self.drop(table_id, user_id)
        return list(panels.items())

    def drop(self, table_id: int, user_id: int, panel: Panel | None = None) -> None:
        """Forgets the user's panel (only if it is still ``panel``, when given: a newer one stays)."""
        panels = self._by_table.get(table_id, {})
        if user_id in panels and (panel is None or panels[user_id] is panel):
            del panels[user_id]
            self.save(table_id, user_id, None)

    def drop_table(self, table_id: int) -> None:
        if self._by_table.pop(table_id, None) is not None:
            self.save(table_id, None, None)

    def __len__(self) -> int:
        return sum(len(p) for p in self._by_table.values())
