"""The players' side of a table: /play's callback (``open_table``), /game (status, leave, pings) and every click
on a table's buttons and menus (``on_click``, from ``Geotable.on_key``). What the channel then shows is
bot/boards.py's (``Tables.boards``); how /play is built per game, bot/cogs/play.py; a refusal raised here or by
the table service is answered by the one handler (bot/ui/refusals.py), except an outdated screen's, which this
cog first brings up to date (``_stale``)."""

from __future__ import annotations

import asyncio
import io
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.boards import Ack, Boards, marked_seats
from bot.cogs.rules import send_rules
from bot.language import member_language
from bot.table.model import Change, Table
from bot.table.pace import AWAY_MOST
from bot.table.refusals import Refusal, Refused
from bot.table.seating import is_invited
from bot.table.words import board_view
from bot.ui import components, keys, messages
from bot.ui.say import say, think
from bot.workers import renderpool
from i18n import _, localize, ngettext
from render import has_private, overlays

MOVES_AT_ONCE = 32
"""Moves handled at the same time; more wait their turn (already acknowledged), so a burst of clicks never
starves the acknowledgements of the clicks behind it."""
ANSWER_WITHIN = 0.25
"""Seconds a move's board has to answer its click itself (see :class:`Ack`) before a plain defer goes out."""


def user_of(interaction: discord.Interaction) -> dict:
    return {"id": interaction.user.id, "name": interaction.user.display_name}


class Tables(commands.Cog):
    game = app_commands.Group(name="game", description="The game in this channel", guild_only=True)

    def __init__(self, bot):
        self.bot = bot
        self.service = bot.service
        self.boards = Boards(bot, self.service)
        self._moves = asyncio.Semaphore(MOVES_AT_ONCE)

    async def cog_load(self) -> None:
        await self.boards.panels.load(self.bot, self.service.shards)  # the panels opened before a restart
        self.service.show = self.boards.publish  # a computer's move is shown as soon as it is committed

    async def cog_unload(self) -> None:
        self.service.show = None
        await self.boards.panels.close()

    # --- /play ---------------------------------------------------------------------------------------
    async def open_table(self, interaction: discord.Interaction, slug: str, options: dict,
                         computers: list[str] = (), note: str = "", pace: str | None = None,
                         thread: bool | None = None) -> None:
        """``computers``: a strength per computer seated after the host (/play's computers and strength);
        ``note``: said after the reply (what /play made of a strength given alone); ``pace``: /play's pace
        ("live", "24h"...; None: the server's default), resolved to seconds per move (None: live) before the
        lobby opens; ``thread``: /play's ``thread:yes|no``, None: the server's default for that pace
        (bot/threads.py decides where)."""
        seconds = await self.service.default_pace(interaction.guild_id, pace)
        threads = self.boards.threads
        place = await threads.where(interaction, thread, turn_based=seconds is not None)
        make = None
        if place.parent is not None:
            make = threads.maker(place, await self.service.language(interaction.guild_id))
        table = await self.service.open_lobby(
            interaction.guild_id, place.parent.id if place.parent else interaction.channel_id, slug, options,
            user_of(interaction), parent_id=getattr(place.parent or interaction.channel, "parent_id", None),
            computers=computers, place=make, pace=seconds,
        )
        if table.row.parent_channel_id:
            opened = _("Opened a {game} table in a thread of its own: {thread}", game=table.engine.title,
                       thread=f"<#{table.row.channel_id}>")
        else:
            opened = _("Opened a {game} table here; the lobby is below.", game=table.engine.title)
        await say(interaction, i18n.join([opened, place.note, note]))
        await self.boards.publish(Change(table, _("{player} opened the table.", player=interaction.user.display_name)))
        await threads.link_line(table, interaction.user.display_name)

    # --- /game ---------------------------------------------------------------------------------------
    async def table_here(self, interaction: discord.Interaction) -> Table:
        """The open table of the interaction's channel; refused when there is none."""
        table = await self.service.in_channel(interaction.channel_id)
        if table is None:
            raise Refused(Refusal.NO_GAME, _("There is no game in this channel. Start one with /play."))
        return table

    @game.command(name="status", description="Post the current board of this channel's game again")
    async def status(self, interaction: discord.Interaction) -> None:
        table = await self.table_here(interaction)
        await say(interaction, _("Here is the board again, below."))
        await self.boards.publish(Change(table), fresh=True)

    @game.command(name="leave", description="Leave this channel's game (it goes on without you)")
    async def leave(self, interaction: discord.Interaction) -> None:
        table = await self.table_here(interaction)
        change = await self.service.leave(table, interaction.user.id)
        await say(interaction, _("You left the game."))
        await self.boards.publish(change)

    @game.command(name="pings", description="Whether I mention you when your turn comes (in every server)")
    @app_commands.describe(enabled="on: mention me when it is my turn; off: don't")
    async def pings(self, interaction: discord.Interaction, enabled: Literal["on", "off"]) -> None:
        await self.service.store.set_pings(interaction.user.id, enabled == "on")
        await say(interaction, messages.pings_sentence(enabled == "on", member_language(interaction)))

    @game.command(name="away", description="Pause your clocks in this server's turn-based games for some days")
    @app_commands.describe(days="How many days you are away (at most the server's limit, 14 unless set)")
    async def away(self, interaction: discord.Interaction, days: app_commands.Range[int, 1, AWAY_MOST]) -> None:
        until, tables = await self.service.go_away(interaction.guild_id, interaction.user.id, days)
        await say(interaction, ngettext(
            "You are away until {date}: your clocks in this server's turn-based games are paused ({n} game waits for "
            "you). /game back ends it early.",
            "You are away until {date}: your clocks in this server's turn-based games are paused ({n} games wait for "
            "you). /game back ends it early.", len(tables), date=f"<t:{int(until)}:f>"))
        for table in tables:
            await self.boards.publish(Change(table))

    @game.command(name="back", description="End your time away: your clocks in turn-based games run again")
    async def back(self, interaction: discord.Interaction) -> None:
        tables = await self.service.come_back(interaction.guild_id, interaction.user.id)
        await say(interaction, ngettext("Welcome back: your clocks run again ({n} game with the time it had left).",
                                        "Welcome back: your clocks run again ({n} games with the time they had left).",
                                        len(tables)))
        for table in tables:
            await self.boards.publish(Change(table))

    # --- clicks --------------------------------------------------------------------------------------
    async def on_click(self, interaction: discord.Interaction, what: keys.Move | keys.Utility | None) -> None:
        """A click on a table's button or menu (``Geotable.on_key``); None: an id of a table's that names none
        (forged or malformed)."""
        if what is None:
            await say(interaction, _("This button doesn't belong to any game I know."))
            return
        table_id = what.table
        if self.service.is_open(table_id):  # only tables that exist: forged ids must not grow the map
            self.boards.clicked(table_id, interaction.user.id)
        if isinstance(what, keys.Move):
            await self._act(interaction, table_id, what.version, what.key, what.token)
        elif what.name in keys.LOBBY:
            await self._act(interaction, table_id, what.version, what.text, lobby=True)
        elif what.name == "hand":
            await self._open_panel(interaction, table_id)
        elif what.name == "pick":
            await self._pick(interaction, table_id, what.version, what.arg or "", what.token)
        elif what.name == "rules":
            table = await self.service.get(table_id)
            if table is None:
                raise Refused(Refusal.NO_GAME)
            await send_rules(interaction, table.row.game)
        elif what.name == "overlay":
            await self._show_overlay(interaction, table_id, what.arg or "")
        elif what.name == "pings" and what.arg == "off":
            await self.service.store.set_pings(interaction.user.id, False)
            await say(interaction, messages.pings_sentence(False, member_language(interaction)))
        elif what.name == "rematch":
            await self._rematch(interaction, table_id)
        else:
            await say(interaction, _("This button doesn't belong to any game I know."))

    async def _show_overlay(self, interaction: discord.Interaction, table_id: int, name: str) -> None:
        """The board drawn another way (Geomancy's auras), for the asker only; anyone may look."""
        table = await self.service.get(table_id)
        if table is None or table.state is None or name not in overlays(table.row.game):
            raise Refused(Refusal.ILLEGAL_MOVE, _("There is nothing like that to show for this game."))
        await think(interaction)
        lang = member_language(interaction)
        view = board_view(table.engine, table.state)
        image = await renderpool.board(table.row.game, view, table.names, table.last_move(lang), {"overlay": name},
                                       marked_seats(table), locale=lang)
        label = overlays(table.row.game)[name]
        await say(
            interaction, i18n.say(lang, "{overlay} of table {table} now (only you can see this).",
                                  overlay=localize(label, lang), table=table.id),
            files=[discord.File(io.BytesIO(image), filename=f"{name}{table.id}-{table.version}.png")])

    async def _open_panel(self, interaction: discord.Interaction, table_id: int) -> None:
        """A fresh panel (the player's secret part and, on their turn, their moves); the previous one goes."""
        table = await self.service.get(table_id)
        if table is None or table.status != "playing":
            raise Refused(Refusal.NOT_STARTED if table is not None and table.status == "lobby" else Refusal.GAME_OVER,
                          _("This game is not running."))
        if not has_private(table.row.game):
            raise Refused(Refusal.ILLEGAL_MOVE, _("{game} has no private hand: everything is on the board.",
                                                  game=table.engine.title))
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            raise Refused(Refusal.NOT_A_PLAYER)
        await self.boards.open_panel(interaction, table, seat)

    async def _rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        """The final board's Rematch: a new lobby under the board (``TableService.rematch``); the people whose
        seats it keeps are mentioned once (unless they switched pings off), with a link to it."""
        table = await self.service.rematch(table_id, user_of(interaction),
                                           parent_id=getattr(interaction.channel, "parent_id", None))
        kept = [p for p in table.players if is_invited(p)]
        await say(interaction, messages.rematch_reply(table, kept, member_language(interaction)))
        await self.boards.publish(Change(table, _("{player} asked for a rematch.", player=interaction.user.display_name)))
        if kept:
            mention = [p["id"] for p in kept if await self.service.store.pings_enabled(p["id"])]
            channel = self.bot.get_partial_messageable(table.row.channel_id, guild_id=table.row.guild_id)
            call = messages.rematch_call(table, interaction.user.display_name, kept,
                                         await self.service.language(table.row.guild_id))
            await channel.send(
                f"{call}\n{self.boards.link(table)}"[:2000],
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in mention],
                                                         everyone=False, roles=False, replied_user=False))

    def _from_panel(self, interaction: discord.Interaction) -> bool:
        return bool(interaction.message and interaction.message.flags.ephemeral)

    async def _act(self, interaction: discord.Interaction, table_id: int, version: int, key: str,
                   token: str | None = None, *, lobby: bool = False) -> None:
        """A move (``key``: an action key), or with ``lobby`` a lobby's button (``key``: ``keys.Utility.text``)."""
        # acknowledged by the board itself when it is drawn in time, else by a defer; the move waits for a slot
        ack = Ack(interaction, ANSWER_WITHIN)
        try:
            async with self._moves:
                try:
                    if lobby:
                        change = await self.service.lobby(table_id, key, user_of(interaction))
                    else:
                        change = await self.service.act(table_id, version, key, interaction.user.id, token)
                except Refused as refusal:
                    if refusal.kind is not Refusal.STALE:
                        raise  # said by the one handler once the click is acknowledged (``finally``)
                    # an outdated screen: only this cog can show the table again (board, panel), so it does
                    # that first; the one handler then says the sentence that tells what it did
                    await ack.settle()
                    raise await self._stale(interaction, table_id, refusal) from None
                if self._from_panel(interaction):
                    await ack.settle()  # the panel is edited through this click's token: acknowledged first
                    await self.boards.keep_panel(interaction, change.table)
                await self.boards.publish(change, answer=ack)
        finally:
            await ack.settle()

    async def _pick(self, interaction: discord.Interaction, table_id: int, version: int, group: str,
                    token: str | None = None) -> None:
        """The first step of a two-step choice: the board and the player's panel show the chosen group."""
        await interaction.response.defer()
        try:
            table = await self.service.pick(table_id, version, group, interaction.user.id, token)
        except Refused as refusal:
            if refusal.kind is not Refusal.STALE:
                raise
            raise await self._stale(interaction, table_id, refusal) from None  # (as in ``_act``)
        if self._from_panel(interaction):
            await self.boards.keep_panel(interaction, table)
        await self.boards.publish(Change(table))

    async def _stale(self, interaction: discord.Interaction, table_id: int, refusal: Refused) -> Refused:
        """A click on an outdated screen (the special case of the refusals: only this cog can show the table
        again). An out-of-date board that is the table's own message or a panel is brought up to date (it was
        left behind, e.g. by a crash between the commit and the edit); any other old message gets a link to
        the current board. Returns the refusal to say, its sentence telling what was done."""
        text = refusal.text
        table = await self.service.get(table_id)
        if table is not None and table.status in ("lobby", "playing"):
            if self._from_panel(interaction):
                seat = table.seat_of(interaction.user.id)
                if seat is not None:
                    await self.boards.keep_panel(interaction, table)
                    await self.boards.edit_panel(table, interaction.user.id,
                                           note=_("That was out of date; here is the table now."))
                    # said in a message of its own too: the panel's note goes with its next redraw
                    text = _("That was out of date: the table changed before your click arrived. Your panel "
                             "shows it now.")
            elif interaction.message is not None and interaction.message.id == table.row.message_id:
                shown = components.message_version(interaction.message)
                if shown is None or shown < table.version:  # the board itself fell behind: heal it
                    table.drawn = ()
                    await self.boards.publish(Change(table))
                    text = _("This board was out of date; it shows the current state now.")
                else:
                    text = _("That board was out of date: it changed before your click arrived. Have another look.")
            elif table.row.message_id:
                text = _("This board is out of date. The current one: {link}", link=self.boards.link(table))
        return Refused(Refusal.STALE, text)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A deleted thread ends its table (bot/threads.py ``gone``)."""
        for table in await self.boards.threads.gone(payload.thread_id):
            self.boards.forget(table)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A deleted channel ends its table and those of its threads (Discord deletes them with it)."""
        for table in await self.boards.threads.gone(channel.id, parent_gone=True):
            self.boards.forget(table)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author.id == self.bot.user.id:
            return
        for table in self.service.cached_in(message.channel.id):
            if table.row.message_id and message.id > table.row.message_id:
                table.messages_since_board += 1
