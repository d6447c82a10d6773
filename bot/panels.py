"""Players' private panels: the one ephemeral message per player and table that the bot keeps current.

A panel is the original response of an interaction (the "My hand" click, or a later click on the panel
itself, which Discord lets us answer by updating the panel). Discord lets a bot edit it only through that
interaction's token, for 15 minutes; every click on the panel brings a fresh token, so a player who plays
from their panel keeps it live. Panels are kept in memory only: after a restart (or once the token is too
old) a click on the panel or on "My hand" makes it live again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import discord

TOKEN_LIFETIME = 15 * 60
MARGIN = 30
"""Seconds before Discord's 15-minute limit at which we stop editing (an edit in flight must still land)."""


@dataclass
class Panel:
    interaction: discord.Interaction
    """The latest interaction whose original response is the panel: its token edits the panel."""
    seat: int
    opened: float
    """When that token was issued, on the bot's clock."""
    message_id: int | None = None
    """The panel message, once known (a "My hand" panel learns it when first drawn)."""


class Panels:
    def __init__(self, clock=time.time):
        self.clock = clock
        self._by_table: dict[int, dict[int, Panel]] = {}

    def get(self, table_id: int, user_id: int) -> Panel | None:
        return self._by_table.get(table_id, {}).get(user_id)

    def set(self, table_id: int, user_id: int, interaction: discord.Interaction, seat: int,
            message_id: int | None = None) -> tuple[Panel, Panel | None]:
        """From now on the user's panel is ``interaction``'s original response. Returns the new panel and the
        one it replaces when that is another message (the caller removes it)."""
        panels = self._by_table.setdefault(table_id, {})
        old = panels.get(user_id)
        new = panels[user_id] = Panel(interaction, seat, self.clock(), message_id)
        if old is not None and (message_id is None or old.message_id != message_id):
            return new, old
        return new, None

    def is_live(self, panel: Panel) -> bool:
        """Whether Discord still lets the bot edit (or delete) the panel with its token."""
        return self.clock() - panel.opened < TOKEN_LIFETIME - MARGIN

    def live(self, table_id: int) -> list[tuple[int, Panel]]:
        """(user, panel) of the table's panels whose token still allows an edit; forgets the others."""
        panels = self._by_table.get(table_id, {})
        for user_id in [u for u, p in panels.items() if not self.is_live(p)]:
            del panels[user_id]
        return list(panels.items())

    def drop(self, table_id: int, user_id: int, panel: Panel | None = None) -> None:
        """Forgets the user's panel (only if it is still ``panel``, when given: a newer one stays)."""
        panels = self._by_table.get(table_id, {})
        if panel is None or panels.get(user_id) is panel:
            panels.pop(user_id, None)

    def drop_table(self, table_id: int) -> None:
        self._by_table.pop(table_id, None)

    def __len__(self) -> int:
        return sum(len(p) for p in self._by_table.values())
