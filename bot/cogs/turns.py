"""/turns: every table of this server where it is the member's turn (or their part of a simultaneous stage is
due), with its game, opponents, time left and a link to its board, for them alone (issue 27).

Read from the store's waiting rows (bot/store/waiting.py: one indexed query, whatever the number of open
tables), never from the table service's memory: with shards, the slash command arrives at its guild's shard,
and the rows are the server's either way."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.computers import display_name
from bot.language import member_language
from bot.store import Turn
from bot.ui.choices import game_title
from bot.ui.layout import MAX_TEXT, screen
from bot.ui.say import say
from i18n import _, ngettext

ROOM = MAX_TEXT - 200
"""The characters of /turns' lines: a V2 message's text less its heading and small print."""


def board_link(guild_id: int, turn: Turn) -> str | None:
    """The jump link to the table's board (None: it has none yet)."""
    if not turn.message_id:
        return None
    return f"https://discord.com/channels/{guild_id}/{turn.channel_id}/{turn.message_id}"



def turn_line(guild_id: int, user_id: int, turn: Turn, lang: str) -> str:
    """One table in /turns: its game, channel and opponents, when its turn deadline is due, its board."""
    others = [i18n.localize(display_name(p), lang) for p in turn.players if p.get("id") != user_id]
    line = (_("**{game}** in {channel} with {opponents}", game=game_title(turn.game), channel=f"<#{turn.channel_id}>",
              opponents=", ".join(others)) if others
            else _("**{game}** in {channel}", game=game_title(turn.game), channel=f"<#{turn.channel_id}>"))
    parts = [line]
    if turn.due_at is not None:
        parts.append(_("time runs out {when}", when=f"<t:{int(turn.due_at)}:R>"))
    link = board_link(guild_id, turn)
    if link:
        parts.append(_("[board]({url})", url=link))
    return i18n.localize(i18n.join(parts, " · "), lang)


def turns_text(guild_id: int, user_id: int, found: list[Turn], lang: str) -> str:
    """The lines of /turns, soonest deadline first, within ``ROOM`` (the rest counted in a last line)."""
    lines = [f"- {turn_line(guild_id, user_id, turn, lang)}" for turn in found]
    shown = len(lines)
    while len("\n".join(lines[:shown])) > ROOM - 100:
        shown -= 1
    if shown < len(lines):
        rest = len(lines) - shown
        return "\n".join([*lines[:shown], i18n.localize(ngettext("…and {n} more table.", "…and {n} more tables.",
                                                                 rest), lang)])
    return "\n".join(lines)


class Turns(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="turns", description="Where it's your turn in this server (only you see it)")
    @app_commands.guild_only()
    async def turns(self, interaction: discord.Interaction) -> None:
        found = await self.bot.store.turns(interaction.guild_id, interaction.user.id)
        if not found:
            await say(interaction, _("It's not your turn at any table on this server."))
            return
        lang = member_language(interaction)
        title = ngettext("Your turn at {n} table", "Your turn at {n} tables", len(found))
        soonest = _("The table whose time runs out first is on top.")  # (not inside say(): Babel reads its own)
        view = screen(i18n.localize(title, lang), turns_text(interaction.guild_id, interaction.user.id, found, lang),
                      small=i18n.localize(soonest, lang))
        await say(interaction, None, view=view)
