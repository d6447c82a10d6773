"""Moderator commands: end a game, remove a player, the turn timeout and the channels games may use.

Hidden from members without the permission (default_permissions) and checked again when run, since
server admins can change who sees a command.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.tables import say
from bot.tables import UserError


class Admin(commands.Cog):
    mod = app_commands.Group(
        name="mod", description="Moderate Geotable games", guild_only=True,
        default_permissions=discord.Permissions(manage_messages=True),
    )

    def __init__(self, bot):
        self.bot = bot
        self.service = bot.service

    @property
    def tables(self):
        return self.bot.get_cog("Tables")

    @mod.command(name="end", description="End this channel's game now")
    @app_commands.describe(reason="Why (shown in the channel)")
    @app_commands.checks.has_permissions(manage_messages=True)
    async def end(self, interaction: discord.Interaction, reason: str) -> None:
        table = await self.tables.table_here(interaction)
        if table is None:
            return
        try:
            change = await self.service.end(table, f"{reason[:300]} (by {interaction.user.display_name})")
        except UserError as exc:
            await say(interaction, str(exc))
            return
        await say(interaction, "The game is ended.")
        await self.tables.publish(change)

    @mod.command(name="remove", description="Remove a player from this channel's game")
    @app_commands.checks.has_permissions(manage_messages=True)
    async def remove(self, interaction: discord.Interaction, player: discord.Member) -> None:
        table = await self.tables.table_here(interaction)
        if table is None:
            return
        try:
            change = await self.service.leave(table, player.id, by=interaction.user.display_name)
        except UserError as exc:
            await say(interaction, str(exc))
            return
        await say(interaction, f"{player.display_name} was removed.")
        await self.tables.publish(change)

    @mod.command(name="timeout", description="Set how long a player may think before the table plays for them")
    @app_commands.describe(seconds="30 to 86400; the bot's default when left out")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def timeout(self, interaction: discord.Interaction,
                      seconds: app_commands.Range[int, 30, 86400] | None = None) -> None:
        settings = await self.service.settings(interaction.guild_id)
        settings.turn_timeout = seconds
        await self.service.save_settings(settings)
        shown = seconds or self.service.defaults.turn_timeout
        await say(interaction, f"Turn timeout is now {shown} seconds (from the next move on).")

    @mod.command(name="channels", description="Choose the channels where games may be started")
    @app_commands.describe(action="allow or forbid a channel, allow everywhere, or show the list")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def channels(self, interaction: discord.Interaction,
                       action: Literal["allow", "forbid", "everywhere", "show"],
                       channel: discord.TextChannel | None = None) -> None:
        settings = await self.service.settings(interaction.guild_id)
        if action in ("allow", "forbid"):
            if channel is None:
                await say(interaction, f"Name the channel to {action}.")
                return
            allowed = set(settings.allowed_channels or [])
            (allowed.add if action == "allow" else allowed.discard)(channel.id)
            settings.allowed_channels = sorted(allowed)
        elif action == "everywhere":
            settings.allowed_channels = None
        if action != "show":
            await self.service.save_settings(settings)
        if settings.allowed_channels is None:
            text = "Games may be started in every channel."
        elif not settings.allowed_channels:
            text = "No channel allows games now; use /mod channels allow."
        else:
            text = "Games may be started in: " + ", ".join(f"<#{c}>" for c in settings.allowed_channels)
        await say(interaction, text)
