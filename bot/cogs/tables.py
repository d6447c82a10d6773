"""Players' commands (/play, /game status, /game leave), button clicks, and showing boards in channels."""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections import defaultdict

import discord
from discord import app_commands
from discord.ext import commands

from bot.tables import LOBBY_KEYS, Change, Table, UserError
from bot.ui import components, messages
from games import all_engines, get_engine

log = logging.getLogger(__name__)

BURIED_AFTER = 6
"""Messages from others below the board after which the next move posts a fresh board at the bottom."""
REPOST_AFTER = 50 * 60
"""Seconds after which the board is posted afresh rather than edited (Discord stops bots editing old
interaction messages after about an hour; a fresh board also sits where players look)."""

GAME_CHOICES = [app_commands.Choice(name=e.title, value=e.slug) for e in all_engines()]


def parse_options(text: str | None) -> dict:
    """``"turns=3, variant=x"`` -> ``{"turns": 3, "variant": "x"}``; numbers and true/false are typed."""
    options: dict = {}
    for part in (text or "").replace(";", ",").split(","):
        if not part.strip():
            continue
        if "=" not in part:
            raise UserError(f"Options look like name=value, separated by commas (not {part.strip()!r}).")
        name, value = (s.strip() for s in part.split("=", 1))
        if value.lower() in ("true", "yes", "on", "false", "no", "off"):
            options[name] = value.lower() in ("true", "yes", "on")
        elif value.lstrip("-").isdigit():
            options[name] = int(value)
        else:
            options[name] = value
    return options


def user_of(interaction: discord.Interaction) -> dict:
    return {"id": interaction.user.id, "name": interaction.user.display_name}


async def say(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral sentence, whether or not the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


class Tables(commands.Cog):
    game = app_commands.Group(name="game", description="The game in this channel", guild_only=True)

    def __init__(self, bot):
        self.bot = bot
        self.service = bot.service
        self._publish_locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    # --- /play ---------------------------------------------------------------------------------------
    @app_commands.command(name="play", description="Open a table for a game in this channel")
    @app_commands.describe(game="The game to play", options="Options as name=value, e.g. turns=3")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                   options: str | None = None) -> None:
        try:
            table = await self.service.open_lobby(
                interaction.guild_id, interaction.channel_id, game.value, parse_options(options), user_of(interaction)
            )
        except UserError as exc:
            await say(interaction, str(exc))
            return
        await interaction.response.send_message(
            f"Opened a {table.engine.title} table here; the lobby is below.", ephemeral=True
        )
        await self.publish(Change(table, f"{interaction.user.display_name} opened the table."))

    @play.autocomplete("options")
    async def _options_hint(self, interaction: discord.Interaction, current: str):
        slug = getattr(interaction.namespace, "game", None)
        try:
            engine = get_engine(slug)
        except KeyError:
            return []
        hint = ", ".join(f"{o.name}={o.default}" for o in engine.options)
        return [app_commands.Choice(name=f"{hint}"[:100], value=hint[:100])] if hint else []

    # --- /game ---------------------------------------------------------------------------------------
    async def table_here(self, interaction: discord.Interaction) -> Table | None:
        """The open table of the interaction's channel; answers the user when there is none."""
        table = await self.service.in_channel(interaction.channel_id)
        if table is None:
            await say(interaction, "There is no game in this channel. Start one with /play.")
        return table

    @game.command(name="status", description="Post the current board of this channel's game again")
    async def status(self, interaction: discord.Interaction) -> None:
        table = await self.table_here(interaction)
        if table is None:
            return
        await interaction.response.send_message("Here is the board again, below.", ephemeral=True)
        await self.publish(Change(table), fresh=True)

    @game.command(name="leave", description="Leave this channel's game (it goes on without you)")
    async def leave(self, interaction: discord.Interaction) -> None:
        table = await self.table_here(interaction)
        if table is None:
            return
        try:
            change = await self.service.leave(table, interaction.user.id)
        except UserError as exc:
            await say(interaction, str(exc))
            return
        await say(interaction, "You left the game.")
        await self.publish(change)

    # --- clicks --------------------------------------------------------------------------------------
    async def on_click(self, interaction: discord.Interaction, table_id: int | None, version: int, key: str) -> None:
        if table_id is None:
            await say(interaction, "This button doesn't belong to any game I know.")
            return
        if key == "hand":
            await self._show_private(interaction, table_id)
            return
        if key.startswith("page."):
            await self._show_page(interaction, table_id, version, key)
            return
        if key == "rules":
            table = await self.service.get(table_id)
            if table is None:
                await say(interaction, "This board is gone: there is no such game.")
            else:
                await say(interaction, messages.rules_text(table.engine))
            return
        await interaction.response.defer()
        private = bool(interaction.message and interaction.message.flags.ephemeral)
        try:
            if key in LOBBY_KEYS:
                change = await self.service.lobby(table_id, key, user_of(interaction))
            else:
                change = await self.service.act(table_id, version, key, interaction.user.id)
        except UserError as exc:
            text = str(exc)
            table = await self.service.get(table_id)
            if exc.stale and table is not None and table.row.message_id:
                text += f" {self._link(table)}"
            await interaction.followup.send(text, ephemeral=True)
            return
        if private:  # a move from a player's own ephemeral: show them what is left, without old buttons
            await self._refresh_private(interaction, change.table)
        await self.publish(change)

    async def _show_private(self, interaction: discord.Interaction, table_id: int) -> None:
        """A fresh ephemeral with the player's secret part and, on their turn, their secret moves."""
        table = await self.service.get(table_id)
        if table is None or table.status != "playing":
            await say(interaction, "This game is not running.")
            return
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await say(interaction, "You are not playing at this table.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        message = await self._private_message(table, seat)
        await interaction.edit_original_response(content=message["content"], attachments=[message["file"]],
                                                 view=message.get("view"))

    async def _refresh_private(self, interaction: discord.Interaction, table: Table) -> None:
        seat = table.seat_of(interaction.user.id)
        if seat is None or table.status != "playing":
            await interaction.edit_original_response(content="Played.", attachments=[], view=None)
            return
        message = await self._private_message(table, seat)
        await interaction.edit_original_response(content=message["content"], attachments=[message["file"]],
                                                 view=message.get("view"))

    async def _private_message(self, table: Table, seat: int) -> dict:
        image = await self.service.render_private(table, seat)
        secret = [a for a in table.actions_for(seat) if a.secret] if seat in table.to_act() else []
        text = "Your hand (only you can see this)."
        text += " Your move: choose a card." if secret else " It is not your turn to play a card."
        message = {"content": text, "file": discord.File(io.BytesIO(image), filename="hand.png")}
        view = components.private_view(table, secret)
        if view is not None:
            message["view"] = view
        return message

    async def _show_page(self, interaction: discord.Interaction, table_id: int, version: int, key: str) -> None:
        table = await self.service.get(table_id)
        if table is None or table.status != "playing" or version != table.version:
            await say(interaction, "This board is out of date or over.")
            return
        await interaction.response.defer()
        table.menu_page = (table.version, int(key.split(".", 1)[1]) if key[5:].isdigit() else 0)
        await self.publish(Change(table))

    # --- showing boards ------------------------------------------------------------------------------
    def _link(self, table: Table) -> str:
        return f"https://discord.com/channels/{table.row.guild_id}/{table.row.channel_id}/{table.row.message_id}"

    async def publish(self, change: Change, *, fresh: bool = False) -> None:
        """Shows the table as it is now: edits its message, or posts a fresh one when the old is buried,
        old or gone (retiring the old one's buttons). One publication per channel at a time, in order."""
        table = change.table
        channel = self.bot.get_partial_messageable(table.row.channel_id, guild_id=table.row.guild_id)
        async with self._publish_locks[table.row.channel_id]:
            kwargs = await self._message(table, change)
            old = table.row.message_id
            if old and not fresh and table.messages_since_board < BURIED_AFTER and not self._too_old(old):
                try:
                    await channel.get_partial_message(old).edit(**kwargs)
                except discord.NotFound:
                    old = None
                else:
                    await self._after(table, change, channel)
                    return
            files = kwargs.pop("attachments")
            message = await channel.send(files=files, **{k: v for k, v in kwargs.items() if v is not None})
            await self.service.set_message(table, message.id)
            if old:
                try:
                    await channel.get_partial_message(old).edit(view=None)
                except discord.HTTPException:
                    log.info("could not retire the old board %s of table %s", old, table.id)
            await self._after(table, change, channel)

    async def _after(self, table: Table, change: Change, channel) -> None:
        if change.finished:
            result = table.result()
            if result is not None:
                await channel.send(messages.standings(table, result))
        elif change.closed and change.text:
            await channel.send(change.text[:2000])

    async def _message(self, table: Table, change: Change) -> dict:
        if table.status == "lobby" or (table.status == "ended" and table.state is None):
            note = change.text if table.status == "lobby" else f"Closed: {table.row.end_reason}"
            view = components.lobby_view(table) if table.status == "lobby" else None
            return {"embed": messages.lobby_embed(table, note), "view": view, "attachments": []}
        image = await self.service.render(table)
        filename = f"table{table.id}-{table.version}.png"
        embed = messages.table_embed(table, filename)
        if table.status == "ended":
            embed.description = f"**Ended:** {table.row.end_reason}"
        version, page = table.menu_page
        return {"embed": embed, "attachments": [discord.File(io.BytesIO(image), filename=filename)],
                "view": components.table_view(table, page if version == table.version else 0)}

    def _too_old(self, message_id: int) -> bool:
        return time.time() - discord.utils.snowflake_time(message_id).timestamp() > REPOST_AFTER

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author.id == self.bot.user.id:
            return
        for table in self.service.cached_in(message.channel.id):
            if table.row.message_id and message.id > table.row.message_id:
                table.messages_since_board += 1
