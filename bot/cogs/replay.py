"""/replay <id>: a finished game of this server played again as an animated GIF of its boards, with its move
list as a text file. The game is rebuilt from its action log in a render worker (bot/replay.py via
``renderpool.replay``); the boards are the public ones, so secrets stay hidden."""

from __future__ import annotations

import io
import time

import discord
from discord import app_commands
from discord.ext import commands

from bot import renderpool
from bot.cogs.tables import say
from bot.replay import ReplayError
from bot.store import FinishedGame, table_id_of
from games import get_engine


def heading(game: FinishedGame, title: str) -> str:
    """The move list's first lines: which game, who played, when it ended."""
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(game.finished_at))
    names = ", ".join(f"{p['was']['name']} (a computer took over)" if "was" in p else p["name"]
                      for p in game.players)
    return f"{title}, game #{game.short_id}, finished {when}\nPlayers: {names}\n"


def summary(game: FinishedGame, title: str, frames: int, moves: int) -> str:
    winners = [p["name"] for p in game.winners]
    won = f" Won by {', '.join(winners)}." if winners else ""
    link = (f" Final board: https://discord.com/channels/{game.guild_id}/{game.channel_id}/{game.message_id}"
            if game.message_id and game.channel_id else "")
    return (f"Replay of game #{game.short_id} ({title}), finished <t:{int(game.finished_at)}:f>:{won}"
            f" {moves} moves in {frames} frames; the move list is attached.{link}")


class Replays(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="replay", description="Replay a finished game as an animation, with its move list")
    @app_commands.guild_only()
    @app_commands.describe(game_id="The game's short id, as /history shows it (e.g. 12)")
    @app_commands.rename(game_id="id")
    async def replay(self, interaction: discord.Interaction, game_id: str) -> None:
        if interaction.guild_id is None:
            await say(interaction, "Replays are of games played in a server: ask there.")
            return
        store = self.bot.store
        if table_id_of(game_id) is None:
            await say(interaction, "Game ids are numbers, e.g. #12 (see /history).")
            return
        shown = str(table_id_of(game_id))  # the number itself: no mentions or markdown echoed
        game = await store.result_by_short_id(interaction.guild_id, game_id)
        if game is None:
            await say(interaction, await self._why_none(interaction.guild_id, game_id, shown))
            return
        row = await store.get_table(game.table_id)
        if row is None:  # pruned a moment ago (the server keeps finished games for a while only)
            await say(interaction, f"There is no finished game #{shown} in this server (see /history for the ids).")
            return
        actions = await store.actions(game.table_id)
        title = get_engine(game.game).title
        await interaction.response.defer(thinking=True)
        players = game.players or row.players
        try:
            made = await renderpool.replay(game.game, players, row.options, row.seed, actions, row.last_move,
                                           heading(game, title))
        except ReplayError:
            await interaction.edit_original_response(
                content=f"Game #{game.short_id} was played under older rules and no longer plays back: no replay.")
            return
        await interaction.edit_original_response(
            content=summary(game, title, made.frames, made.plies),
            attachments=[discord.File(io.BytesIO(made.gif), filename=f"replay-{game.short_id}.gif"),
                         discord.File(io.BytesIO(made.moves.encode()), filename=f"moves-{game.short_id}.txt")])

    async def _why_none(self, guild_id: int, game_id: str, shown: str) -> str:
        """Why there is no replay: a game still in play or closed before its end (of this server), or no such
        game here (another server's game reads as unknown: its existence is not this server's business)."""
        table_id = table_id_of(game_id)
        row = await self.bot.store.get_table(table_id) if table_id is not None else None
        if row is None or row.guild_id != guild_id:
            return f"There is no finished game #{shown} in this server (see /history for the ids)."
        if row.status in ("lobby", "playing"):
            return f"Game #{shown} is not over yet: watch it live in <#{row.channel_id}>."
        return f"Game #{shown} was closed before its end, so it has no replay."
