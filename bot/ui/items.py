"""The bot's buttons and menus as discord.py DynamicItems, one class per id prefix of bot/ui/keys.py (whose
``PATTERNS``, with named groups, are their templates), so that they work after a restart; discord.py's
``examples/views/dynamic_counter.py`` is the model.

Each item carries its decoded value (``keys.Key``) and hands a click to the one dispatcher,
``Geotable.on_key`` (bot/client.py). An id of ours that no template matches (forged, malformed) is answered by
``Geotable.on_interaction`` from its family, as is one no longer on its message (an older screen).
"""

from __future__ import annotations

import re
import types

import discord

from bot.ui import cycles, keys

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class _Keyed:
    """What every item of ours does; ``prefix``: the id form it stands for (``keys.PATTERNS``)."""

    prefix: str
    value: keys.Key | None

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item, match: re.Match):
        return cls._of(item.custom_id, keys.read(cls.prefix, match))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.client.on_key(interaction, self.value, listed=True,  # type: ignore[attr-defined]
                                            family=keys.FAMILIES[self.prefix])
        finally:
            cycles.handled(interaction, self.view)  # freed by reference counting, not by the collector


class _KeyedButton(_Keyed):
    @classmethod
    def _of(cls, custom_id: str, value: keys.Key | None, *, label: str = "?", style: str = "secondary",
            row: int | None = None, emoji: str | None = None, disabled: bool = False):
        item = cls(discord.ui.Button(label=label[:80], style=STYLES[style], custom_id=custom_id, row=row,
                                     emoji=emoji or None, disabled=disabled))
        item.value = value
        return item


class _KeyedSelect(_Keyed):
    @classmethod
    def _of(cls, custom_id: str, value: keys.Key | None, *, options: list[discord.SelectOption] | None = None,
            placeholder: str = "", row: int | None = None):
        item = cls(discord.ui.Select(custom_id=custom_id, options=options or [discord.SelectOption(label="?")],
                                     placeholder=placeholder[:150] or None, row=row))
        item.value = value
        return item


def _item_class(prefix: str) -> type:
    select = prefix in keys.SELECTS
    kind = discord.ui.Select if select else discord.ui.Button
    base = _KeyedSelect if select else _KeyedButton
    return types.new_class(f"Keyed_{prefix}", (base, discord.ui.DynamicItem[kind]),
                           {"template": keys.PATTERNS[prefix]}, lambda ns: ns.update(prefix=prefix, __module__=__name__))


ITEMS: dict[str, type] = {prefix: _item_class(prefix) for prefix in keys.PATTERNS}
"""The DynamicItem class of each id prefix (the bot registers them all: ``Geotable.setup_hook``)."""


def button(value: keys.Key, label: str, style: str = "secondary", row: int | None = None, emoji: str | None = None,
           disabled: bool = False) -> discord.ui.Item:
    """A button whose id is ``value``'s (``keys.encode``)."""
    custom_id = keys.encode(value)
    return ITEMS[custom_id.split(":", 1)[0]]._of(custom_id, value, label=label, style=style, row=row, emoji=emoji,
                                                 disabled=disabled)


def select(menu: keys.Menu | keys.LessonMenu, options: list[discord.SelectOption], placeholder: str = "",
           row: int | None = None) -> discord.ui.Item:
    """A select menu whose option values are ``keys.value``s (the lobby's computers: ``computer.<strength>``)."""
    custom_id = keys.encode(menu)
    return ITEMS[custom_id.split(":", 1)[0]]._of(custom_id, menu, options=options, placeholder=placeholder, row=row)


def chosen(interaction: discord.Interaction, menu: keys.Menu | keys.LessonMenu):
    """What the member chose in ``menu`` (``keys.choose``), or None."""
    values = (interaction.data or {}).get("values") or [""]
    return keys.choose(menu, str(values[0]))
