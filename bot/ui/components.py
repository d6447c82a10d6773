"""Buttons and menus built from an engine's legal actions, as DynamicItems so they work after a restart.

custom_id formats (well under Discord's 100 characters):
  ``gt:<table>:<version>:<key>``   a button; ``key`` is an action key or a lobby/utility key
  ``gs:<table>:<version>:<group>`` a select menu whose option values are action keys
The templates accept anything after the prefix so that a malformed or forged id still reaches our handler
and gets a sentence back instead of a silent failure.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import discord

from bot.tables import Table
from games.core import Action

MAX_BUTTONS = 20  # four rows of five; the fifth row holds the utility buttons
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
_BODY = re.compile(r"(?P<table>\d{1,18}):(?P<version>\d{1,9}):(?P<key>[\w:.\-]{1,60})")

ClickHandler = Callable[[discord.Interaction, int | None, int, str], object]


def parse(body: str) -> tuple[int, int, str] | None:
    m = _BODY.fullmatch(body)
    if not m:
        return None
    return int(m["table"]), int(m["version"]), m["key"]


async def _dispatch(interaction: discord.Interaction, body: str, key: str | None = None) -> None:
    handler = interaction.client.on_table_click  # type: ignore[attr-defined]
    parsed = parse(body)
    if parsed is None:
        await handler(interaction, None, 0, "")
        return
    table_id, version, parsed_key = parsed
    await handler(interaction, table_id, version, key if key is not None else parsed_key)


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=r"gt:(?P<body>.*)"):
    def __init__(self, body: str, *, label: str = "?", style=discord.ButtonStyle.secondary, row: int | None = None,
                 emoji: str | None = None):
        super().__init__(
            discord.ui.Button(label=label[:80], style=style, custom_id=f"gt:{body}"[:100], row=row, emoji=emoji)
        )
        self.body = body

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match):
        return cls(match["body"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, self.body)


class TableSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"gs:(?P<body>.*)"):
    def __init__(self, body: str, options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 row: int | None = None):
        super().__init__(
            discord.ui.Select(custom_id=f"gs:{body}"[:100], options=options or [discord.SelectOption(label="?")],
                              placeholder=placeholder[:150] or None, row=row)
        )
        self.body = body

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match):
        return cls(match["body"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or [""]
        parsed = parse(self.body)
        if parsed is None:
            await _dispatch(interaction, self.body)
            return
        table_id, version, _group = parsed
        await _dispatch(interaction, f"{table_id}:{version}:{values[0] or '-'}")


def button(table: Table, key: str, label: str, style: str = "secondary", row: int | None = None,
           emoji: str | None = None) -> TableButton:
    return TableButton(f"{table.id}:{table.version}:{key}", label=label, style=STYLES[style], row=row,
                       emoji=emoji or None)


def action_items(table: Table, actions: list[Action]) -> list[discord.ui.Item]:
    """Buttons when they fit in four rows, else one select menu per action group (each up to 25)."""
    if len(actions) <= MAX_BUTTONS:
        return [button(table, a.key, a.label, a.style, row=i // 5, emoji=a.emoji) for i, a in enumerate(actions)]
    groups: dict[str, list[Action]] = {}
    for a in actions:
        groups.setdefault(a.group or "move", []).append(a)
    items: list[discord.ui.Item] = []
    for row, (group, members) in enumerate(list(groups.items())[:4]):
        for start in range(0, len(members), 25):
            options = [discord.SelectOption(label=a.label[:100], value=a.key) for a in members[start:start + 25]]
            items.append(TableSelect(f"{table.id}:{table.version}:{group}", options, f"Choose: {group}", row=row))
    return items[:4]


def table_view(table: Table) -> discord.ui.View | None:
    """The components of a running table: the legal moves of the player to act."""
    if table.status != "playing":
        return None
    view = discord.ui.View(timeout=None)
    to_act = table.to_act()
    if len(to_act) == 1:
        for item in action_items(table, table.actions_for(to_act[0])):
            view.add_item(item)
    view.add_item(button(table, "rules", "Rules", "secondary", row=4, emoji="📖"))
    return view


def lobby_view(table: Table) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(button(table, "join", "Join", "success"))
    view.add_item(button(table, "leave", "Leave", "secondary"))
    view.add_item(button(table, "start", "Start", "primary"))
    view.add_item(button(table, "rules", "Rules", "secondary", emoji="📖"))
    return view
