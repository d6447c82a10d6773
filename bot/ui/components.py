"""Buttons and menus built from an engine's legal actions, as DynamicItems so they work after a restart.

custom_id formats (well under Discord's 100 characters):
  ``gt:<table>:<version>:<key>``   a button; ``key`` is an action key or a lobby/utility key
  ``gs:<table>:<version>:<group>`` a select menu whose option values are action keys
The templates accept anything after the prefix so that a malformed or forged id still reaches our handler
and gets a sentence back instead of a silent failure.
"""

from __future__ import annotations

import re

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


PER_PAGE = 100  # four menus of 25; the fifth row holds the utility buttons


def action_items(table: Table, actions: list[Action], page: int = 0) -> tuple[list[discord.ui.Item], int]:
    """Buttons when they fit in four rows; else menus of 25 options in the given order (best first), four
    per page. Returns the items of ``page`` and the number of pages."""
    if len(actions) <= MAX_BUTTONS:
        items = [button(table, a.key, a.label, a.style, row=i // 5, emoji=a.emoji) for i, a in enumerate(actions)]
        return items, 1
    pages = -(-len(actions) // PER_PAGE)
    page %= pages
    shown = actions[page * PER_PAGE:(page + 1) * PER_PAGE]
    items: list[discord.ui.Item] = []
    for row, start in enumerate(range(0, len(shown), 25)):
        chunk = shown[start:start + 25]
        first = page * PER_PAGE + start + 1
        options = [discord.SelectOption(label=a.label[:100], value=a.key) for a in chunk]
        items.append(TableSelect(f"{table.id}:{table.version}:m{page}.{row}", options,
                                 f"Choose ({first}-{first + len(chunk) - 1} of {len(actions)}, best first)", row=row))
    return items, pages


def table_view(table: Table, page: int = 0) -> discord.ui.View | None:
    """The components of a running table: the public legal moves of the player to act. Secret moves (a card
    from a hand) are offered only in the player's own ephemeral reply to the private button."""
    if table.status != "playing":
        return None
    view = discord.ui.View(timeout=None)
    to_act = table.to_act()
    pages = 1
    if len(to_act) == 1:
        public = [a for a in table.actions_for(to_act[0]) if not a.secret]
        items, pages = action_items(table, public, page)
        for item in items:
            view.add_item(item)
    if table.engine.private_label:
        view.add_item(button(table, "hand", table.engine.private_label, "success", row=4, emoji="🂠"))
    if pages > 1:
        view.add_item(button(table, f"page.{(page + 1) % pages}", f"More choices ({page + 1}/{pages})", row=4))
    view.add_item(button(table, "rules", "Rules", "secondary", row=4, emoji="📖"))
    return view


def private_view(table: Table, actions: list[Action]) -> discord.ui.View | None:
    """The secret moves of one seat, for its ephemeral message."""
    if not actions:
        return None
    view = discord.ui.View(timeout=None)
    items, _ = action_items(table, actions)
    for item in items:
        view.add_item(item)
    return view


def lobby_view(table: Table) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(button(table, "join", "Join", "success"))
    view.add_item(button(table, "leave", "Leave", "secondary"))
    view.add_item(button(table, "start", "Start", "primary"))
    view.add_item(button(table, "rules", "Rules", "secondary", emoji="📖"))
    return view
