"""/rules: a readable summary of a game's rules and what its computer players do, for the asker only."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.tables import GAME_CHOICES
from bot.ui import messages
from games import get_engine


class Help(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="rules", description="How a game is played (only you see it)")
    @app_commands.describe(game="The game whose rules you want to read")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        await interaction.response.send_message(**messages.rules_message(get_engine(game.value)), ephemeral=True)
