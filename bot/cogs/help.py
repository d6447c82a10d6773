"""/help and the hello a server gets when the bot joins it: how to start a game and where the rules are.
(/rules, the rule pages with pictures, is bot/cogs/rules.py.)"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.greeting import command, hello
from bot.language import member_language
from bot.ui.layout import screen
from bot.ui.say import say
from i18n import _

log = logging.getLogger(__name__)


def may_greet(guild: discord.Guild) -> discord.TextChannel | None:
    """The server's system channel, if the bot may post there (else no hello at all)."""
    channel = guild.system_channel
    if channel is None or guild.me is None:
        return None
    allowed = channel.permissions_for(guild.me)
    return channel if allowed.view_channel and allowed.send_messages else None


async def greet(guild: discord.Guild) -> None:
    """The hello, once, when the bot joins a server (discord.py's ``on_guild_join``: a new server, never one
    that comes back at a start or a reconnect), in the server's language."""
    channel = may_greet(guild)
    if channel is None:
        return
    try:
        await channel.send(i18n.localize(hello(), i18n.pick(guild.preferred_locale)),
                           allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.info("could not greet server %s in its system channel", guild.id)


class Help(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="help", description="How to start a game and where the rules are (only you see it)")
    async def help(self, interaction: discord.Interaction) -> None:
        """The hello as a screen of the house (bot/ui/layout.py), in the asker's language, where to look for
        one's turns (/turns), the daily puzzle (/daily), the ladders and the hall of fame."""
        lang = member_language(interaction)
        turns = _("`/{turns}` lists every table of this server where it's your turn, with links to the boards.",
                  turns=command("turns"))
        daily = _("Every day a new puzzle, the same for everyone: `/{daily}` (one try, then share your result).",
                  daily=command("daily"))
        ladders = _("`/{leaderboard}` shows a game's best players here (with `season:`, a season's own ladder), "
                    "`/{halloffame}` the podiums of past seasons.", leaderboard=command("leaderboard"),
                    halloffame=command("halloffame"))
        await say(interaction, None, view=screen("Geotable", *(i18n.localize(line, lang) for line in
                                                               (hello(), turns, daily, ladders))))
