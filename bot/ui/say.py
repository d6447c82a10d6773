"""The one way to say a sentence to a member: ephemeral, in their language (every cog and /learn use it)."""

from __future__ import annotations

import discord

import i18n
from bot.language import member_language
from i18n import localize


def in_member_language(interaction: discord.Interaction, text: str) -> str:
    """``text`` in the member's language: a ``Text`` is translated; a plain string is looked up as a message
    (``say(interaction, "...")``'s literal is extracted into the catalogs), else said as it is."""
    lang = member_language(interaction)
    if not isinstance(text, i18n.Text) and lang != i18n.DEFAULT:
        text = i18n.Text(text)
    return localize(text, lang)


async def say(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral sentence in the member's language, whether or not the interaction was already
    acknowledged."""
    text = in_member_language(interaction, text)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)
