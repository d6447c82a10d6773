"""Help for players. (/rules, the rule pages with pictures, is bot/cogs/rules.py.)"""

from __future__ import annotations

from discord.ext import commands


class Help(commands.Cog):
    def __init__(self, bot):
        self.bot = bot
