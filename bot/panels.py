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
    seat: int

    @property
    def opened(self) -> float:
        return self.interaction.created_at.timestamp()


class Panels:
    def __init__(self, clock=time.time):
        self.clock = clock
        self._by_table: dict[int, dict[int, Panel]] = {}

    def get(self, table_id: int, user_id: int) -> Panel | None:
        return self._by_table.get(table_id, {}).get(user_id)

    def set(self, table_id: int, user_id: int, interaction: discord.Interaction, seat: int) -> None:
        """From now on the user's panel is ``interaction``'s original response."""
        self._by_table.setdefault(table_id, {})[user_id] = Panel(interaction, seat)

    def live(self, table_id: int) -> list[tuple[int, Panel]]:
        """(user, panel) of the table's panels whose token still allows an edit; forgets the others."""
        panels = self._by_table.get(table_id, {})
        now = self.clock()
        for user_id in [u for u, p in panels.items() if now - p.opened > TOKEN_LIFETIME - MARGIN]:
            del panels[user_id]
        return list(panels.items())

    def drop(self, table_id: int, user_id: int) -> None:
        self._by_table.get(table_id, {}).pop(user_id, None)

    def drop_table(self, table_id: int) -> None:
        self._by_table.pop(table_id, None)

    def __len__(self) -> int:
        return sum(len(p) for p in self._by_table.values())

