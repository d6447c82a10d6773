"""/replay <id>: a finished game of this server played again as an animated GIF of its boards, with its move
list as a text file, posted as a screen of the layout kit (bot/ui/layout.py) in the game's accent: the animation
in a media gallery with its description in words, the move list as a file. The game is rebuilt from its action
log in a render worker (bot/replay.py via ``renderpool.replay``); the boards are the public ones, so secrets stay
hidden."""

from __future__ import annotations

import io
import time

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.computers import display_name
from bot.language import channel_language
from bot.ratings import outcome_sentence
from bot.replay import ReplayError
from bot.store import FinishedGame, table_id_of
from bot.ui.layout import screen
from bot.ui.say import say
from bot.workers import renderpool
from games import get_engine
from i18n import _


def heading(game: FinishedGame, title: str) -> i18n.Text:
    """The move list's first lines: which game, who played, when it ended."""
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(game.finished_at))
    names = i18n.join([_("{name} (a computer took over)", name=p["was"]["name"]) if "was" in p else display_name(p)
                       for p in game.players], ", ")
    return _("{game}, game #{id}, finished {when}\nPlayers: {names}\n", game=title, id=game.short_id, when=when,
             names=names)


def summary(game: FinishedGame, frames: int, moves: int) -> list[i18n.Text]:
    """The replay's lines under its title: when it ended, who won, its moves and frames, its final board."""
    winners = [display_name(p) for p in game.winners]
    parts = [_("Finished {when}.", when=f"<t:{int(game.finished_at)}:f>")]
    if winners and game.departed:  # the game's own winner left: the sentence the board and standings say
        parts.append(outcome_sentence(winners, game.departed))
    elif winners:
        parts.append(_("Won by {names}.", names=i18n.join(winners, ", ")))
    parts.append(_("{moves} moves in {frames} frames; the move list is attached.", moves=moves, frames=frames))
    if game.message_id and game.channel_id:
        parts.append(_("Final board: {url}",
                       url=f"https://discord.com/channels/{game.guild_id}/{game.channel_id}/{game.message_id}"))
    return parts


class Replays(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="replay", description="Replay a finished game as an animation, with its move list")
    @app_commands.guild_only()
    @app_commands.describe(game_id="The game's short id, as /history shows it (e.g. 12)")
    @app_commands.rename(game_id="id")
    async def replay(self, interaction: discord.Interaction, game_id: str) -> None:
        if interaction.guild_id is None:
            await say(interaction, _("Replays are of games played in a server: ask there."))
            return
        store = self.bot.store
        if table_id_of(game_id) is None:
            await say(interaction, _("Game ids are numbers, e.g. #12 (see /history)."))
            return
        shown = str(table_id_of(game_id))  # the number itself: no mentions or markdown echoed
        game = await store.result_by_short_id(interaction.guild_id, game_id)
        if game is None:
            await say(interaction, await self._why_none(interaction.guild_id, game_id, shown))
            return
        row = await store.get_table(game.table_id)
        if row is None:  # pruned a moment ago (the server keeps finished games for a while only)
            await say(interaction, _("There is no finished game #{id} in this server (see /history for the ids).",
                                      id=shown))
            return
        actions = await store.actions(game.table_id)
        title = get_engine(game.game).title
        await interaction.response.defer(thinking=True)
        players = game.players or row.players
        lang = await channel_language(interaction)  # a replay is posted in the channel
        try:
            made = await renderpool.replay(game.game, players, row.options, row.seed, actions, row.last_move,
                                           heading(game, title), locale=lang, paced=row.pace is not None)
        except ReplayError:
            await interaction.edit_original_response(content=i18n.localize(_(
                "Game #{id} was played under older rules and no longer plays back: no replay.", id=game.short_id),
                lang))
            return
        gif, moves = f"replay-{game.short_id}.gif", f"moves-{game.short_id}.txt"
        view = screen(i18n.localize(_("Replay of game #{id}: {game}", id=game.short_id, game=title), lang),
                      *(i18n.localize(line, lang) for line in summary(game, made.frames, made.plies)),
                      accent=get_engine(game.game).accent, files=[moves],
                      image=(gif, i18n.localize(_("The public boards of game #{id}, one frame a move, as an "
                                                  "animation.", id=game.short_id), lang)))
        await interaction.edit_original_response(
            content=None, view=view, attachments=[discord.File(io.BytesIO(made.gif), filename=gif),
                                                  discord.File(io.BytesIO(made.moves.encode()), filename=moves)])

    async def _why_none(self, guild_id: int, game_id: str, shown: str) -> i18n.Text:
        """Why there is no replay: a game still in play or closed before its end (of this server), or no such
        game here (another server's game reads as unknown: its existence is not this server's business)."""
        table_id = table_id_of(game_id)
        row = await self.bot.store.get_table(table_id) if table_id is not None else None
        if row is None or row.guild_id != guild_id:
            return _("There is no finished game #{id} in this server (see /history for the ids).", id=shown)
        if row.status in ("lobby", "playing"):
            return _("Game #{id} is not over yet: watch it live in {channel}.", id=shown,
                     channel=f"<#{row.channel_id}>")
        return _("Game #{id} was closed before its end, so it has no replay.", id=shown)
