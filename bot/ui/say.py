"""The one way to say something to a member alone: ephemeral, in their language (every cog and /learn use it).

``say`` answers an interaction with a sentence, or with a screen of the layout kit (a ``LayoutView``, bot/ui/layout.py:
/help, /history's list, /privacy's report, /rules' pages, a lesson's first step) and its pictures; ``think`` first, when the answer
takes longer than Discord's three seconds (a drawing, a big query): the member sees "thinking…" until ``say``
replaces it. Whether the interaction was answered already is say's business, not the caller's.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

import i18n
from bot.language import member_language
from bot.ui.cycles import spent
from i18n import localize

THINKING = "geotable.thinking"
"""``interaction.extras``' mark of a ``think`` whose "thinking…" no ``say`` replaced yet."""
LIMIT = 2000
"""The characters of a message's content."""


def in_member_language(interaction: discord.Interaction, text: str) -> str:
    """``text`` in the member's language: a ``Text`` is translated; a plain string is looked up as a message
    (``say(interaction, "...")``'s literal is extracted into the catalogs), else said as it is (a name, or words
    already in the member's language)."""
    lang = member_language(interaction)
    if isinstance(text, i18n.Text) or lang == i18n.DEFAULT:
        return localize(text, lang)
    if i18n.catalog(lang).gettext(text) == text:  # no message of ours: said as it is, braces and all
        return text
    return localize(i18n.Text(text), lang)


async def think(interaction: discord.Interaction) -> None:
    """Acknowledge at once, for the member alone ("thinking…"); the next ``say`` replaces it."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    interaction.extras[THINKING] = True


async def say(interaction: discord.Interaction, text: str | None, *, files: Sequence[discord.File] = (),
              view: discord.ui.View | discord.ui.LayoutView | None = None) -> None:
    """``text`` (cut to a message's 2,000 characters) with ``files`` and ``view``, for the member alone, in their
    language (a screen and buttons come already in it): the answer, or what replaces a ``think``, or a message of
    its own when the interaction was answered already (a click whose message is being edited). A screen
    (``LayoutView``) holds its words itself: ``text`` None (Discord refuses content beside it)."""
    if isinstance(view, discord.ui.LayoutView) and text is not None:
        raise ValueError("a Components V2 screen holds its words: say(interaction, None, view=screen)")
    try:
        await _say(interaction, text, files, view)
    finally:
        _let_go(view)


def _let_go(view: discord.ui.View | discord.ui.LayoutView | None) -> None:
    """A sent view of DynamicItems only is nothing discord.py needs: a click is dispatched by its custom_id's
    template and answered after a restart too. Stopped (a followup gave an ephemeral one a 15-minute timer that
    would keep it alive) and emptied (bot/ui/cycles.py). A view with another kind of item keeps listening."""
    if view is None or not all(isinstance(item, discord.ui.DynamicItem) or not item.is_dispatchable()
                               for item in view.walk_children()):
        return
    view.stop()
    spent(view)


async def _say(interaction, text, files, view) -> None:
    fields: dict = {}
    if view is not None:
        fields["view"] = view
    content = None if text is None else in_member_language(interaction, text)[:LIMIT]
    if interaction.extras.pop(THINKING, False):
        await interaction.edit_original_response(content=content, attachments=list(files), **fields)
        return
    if files:
        fields["files"] = list(files)
    said = () if content is None else (content,)
    if interaction.response.is_done():
        await interaction.followup.send(*said, ephemeral=True, **fields)
    else:
        await interaction.response.send_message(*said, ephemeral=True, **fields)
