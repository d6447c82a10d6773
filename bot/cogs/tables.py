"""Players' commands (/play <game>, /game ...), button clicks, and showing boards, pings and private panels."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import io
import logging
import time
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.computers import is_computer
from bot.language import member_language
from bot.panels import Panels
from bot.table.model import Change, KeyedLocks, Table, UserError
from bot.table.seating import is_invited
from bot.table.words import board_view, end_words
from bot.ui import components, keys, messages
from bot.ui.choices import playable_engines
from bot.ui.say import say, think
from bot.workers import renderpool
from games.ai import STRENGTHS, strength_name
from games.core import Engine, Option
from i18n import _, localize
from render import (
    has_card,
    has_private,
    has_score_sheet,
    overlays,
    render_card,
    render_score_sheet,
)

log = logging.getLogger(__name__)

BURIED_AFTER = 6
"""Messages from others below the board after which the next move posts a fresh board at the bottom."""
REPOST_AFTER = 50 * 60
"""Seconds after which the board is posted afresh rather than edited (Discord stops bots editing old
interaction messages after about an hour; a fresh board also sits where players look)."""
MOVES_AT_ONCE = 32
"""Moves handled at the same time; more wait their turn (already acknowledged), so a burst of clicks never
starves the acknowledgements of the clicks behind it."""
PRESENT_FOR = 60
"""A player who clicked at the table this many seconds ago is at the table: their turn needs no ping."""
ANSWER_WITHIN = 0.25
"""Seconds a move's board has to answer its click itself (see :class:`Ack`) before a plain defer goes out."""

def marked_seats(table: Table) -> tuple[int, ...]:
    """The seats a computer plays, marked on the boards beside their names."""
    return tuple(s for s, p in enumerate(table.players) if is_computer(p))


def user_of(interaction: discord.Interaction) -> dict:
    return {"id": interaction.user.id, "name": interaction.user.display_name}


class Ack:
    """The acknowledgement of a click on a board. When the move's new board is ready within ``grace``
    seconds, it answers the click itself (one request: the interaction callback updates the message);
    otherwise a plain defer leaves after ``grace`` whatever else is going on (a timer of the event loop, so
    a burst of moves waiting for their turn never keeps a click from Discord's 3 seconds) and the board
    follows as an edit. Exactly one of the two is ever sent."""

    def __init__(self, interaction: discord.Interaction, grace: float):
        self.interaction = interaction
        self.claimed = False
        self._defer: asyncio.Future | None = None
        self._timer = asyncio.get_running_loop().call_later(grace, self._send_defer)

    @property
    def message_id(self) -> int | None:
        return self.interaction.message.id if self.interaction.message else None

    def _send_defer(self) -> None:
        if not self.claimed:
            self.claimed = True
            self._defer = asyncio.ensure_future(self.interaction.response.defer())

    def take(self) -> bool:
        """True once, for the caller who will answer the click itself, if the defer has not left yet."""
        if self.claimed:
            return False
        self.claimed = True
        self._timer.cancel()
        return True

    async def settle(self) -> None:
        """Makes sure the click is acknowledged (defers now unless it was answered or deferred)."""
        self._timer.cancel()
        self._send_defer()
        if self._defer is not None:
            await self._defer


# --- /play <game>: one subcommand per game, its options typed from the engine's option list ------------------
def _annotation(option: Option):
    if isinstance(option.default, bool):
        return bool
    if option.choices:
        return Literal.__getitem__(tuple(option.choices))
    if isinstance(option.default, int):
        if option.minimum is not None or option.maximum is not None:
            return app_commands.Range[int, option.minimum, option.maximum]
        return int
    return str


def option_description(option: Option) -> str:
    """The option's words in Discord's picker, its default added when it fits Discord's 100 characters (a
    description is never cut: one too long is a mistake to fix in the engine)."""
    if len(option.description) > 100:
        raise ValueError(f"option {option.name}: description longer than Discord's 100 characters")
    default = ("yes" if option.default else "no") if isinstance(option.default, bool) else option.default
    full = f"{option.description} (default: {default})"
    return full if len(full) <= 100 else option.description


def command_name(engine: Engine) -> str:
    return engine.slug.replace("_", "-")


def play_group(open_table) -> app_commands.Group:
    """``/play geek-out turns:3``, ``/play geoneo computers:1 strength:strong``...: Discord offers and checks
    each game's options and /play's own (``computer_options``). ``open_table(interaction, slug, options,
    computers)`` is called with the options the user gave and a strength per computer seat."""
    group = app_commands.Group(name="play", description="Open a table for a game in this channel", guild_only=True)
    for engine in playable_engines():
        group.add_command(_play_command(engine, open_table))
    return group


COMPUTERS_OPTION = "computers"
STRENGTH_OPTION = "strength"


def computer_options(engine: Engine) -> dict[str, tuple[object, str]]:
    """/play's own options beside the game's: how many computers sit down with the host, and how strong
    they play ({name: (annotation, description)}); none for a game that seats one player only."""
    if engine.max_players < 2:
        return {}
    return {
        COMPUTERS_OPTION: (app_commands.Range[int, 0, engine.max_players - 1],
                           f"Computer players seated with you, 0-{engine.max_players - 1} (default: 0)"),
        STRENGTH_OPTION: (Literal.__getitem__(STRENGTHS),
                          "How well the computers play: easy, normal or strong (default: normal; alone: one computer)"),
    }


def computers_asked(count: int | None, strength: str | None) -> tuple[int, str]:
    """How many computers /play seats, and what the reply adds: a strength without ``computers`` seats one
    computer of that strength (the player asked for a computer); with ``computers:0`` it seats none, and the
    reply says the strength had nothing to apply to."""
    if count is None and strength:
        return 1, _("A {strength} computer sits with you (strength alone seats one; more with computers:N).",
                    strength=strength_name(strength) if strength in STRENGTHS else strength)
    if not count and strength:
        return 0, _("The strength applies to computers: add some with computers:N or from the lobby.")
    return count or 0, ""


def _play_command(engine: Engine, open_table) -> app_commands.Command:
    async def callback(interaction: discord.Interaction, **given):
        count, strength = given.pop(COMPUTERS_OPTION, None), given.pop(STRENGTH_OPTION, None)
        count, note = computers_asked(count, strength)
        await open_table(interaction, engine.slug, {k: v for k, v in given.items() if v is not None},
                         [strength or "normal"] * count, note=note)

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=discord.Interaction)]
    for option in engine.options:
        if option.name in (COMPUTERS_OPTION, STRENGTH_OPTION):
            raise ValueError(f"{engine.slug}: the option {option.name} is /play's own")
        params.append(inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=_annotation(option) | None))
    extra = computer_options(engine)
    for name, (annotation, _words) in extra.items():
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=annotation | None))
    callback.__signature__ = inspect.Signature(params)
    descriptions = {o.name: option_description(o) for o in engine.options}
    descriptions.update({name: words for name, (_annotation, words) in extra.items()})
    if descriptions:
        app_commands.describe(**descriptions)(callback)
    players = (f"{engine.min_players}-{engine.max_players} players" if engine.min_players != engine.max_players
               else f"{engine.min_players} players")
    return app_commands.Command(name=command_name(engine), description=f"{engine.title} ({players})"[:100],
                                callback=callback)


class Tables(commands.Cog):
    game = app_commands.Group(name="game", description="The game in this channel", guild_only=True)

    def __init__(self, bot):
        self.bot = bot
        self.service = bot.service
        self.panels = Panels(clock=lambda: self.service.clock(), store=self.service.store)
        self._publish_lock = KeyedLocks()
        self._moves = asyncio.Semaphore(MOVES_AT_ONCE)
        self._seen: dict[int, dict[int, float]] = {}
        """table -> user -> when they last clicked there (a player who just acted needs no ping)."""

    async def cog_load(self) -> None:
        await self.panels.load(self.bot, self.service.shards)  # the panels opened before a restart
        self.service.show = self.publish  # a computer's move is shown as soon as it is committed

    async def cog_unload(self) -> None:
        self.service.show = None
        await self.panels.close()

    # --- /play ---------------------------------------------------------------------------------------
    async def open_table(self, interaction: discord.Interaction, slug: str, options: dict,
                         computers: list[str] = (), note: str = "") -> None:
        """``computers``: a strength per computer seated after the host (/play's computers and strength);
        ``note``: said after the reply (what /play made of a strength given alone)."""
        try:
            table = await self.service.open_lobby(
                interaction.guild_id, interaction.channel_id, slug, options, user_of(interaction),
                parent_id=getattr(interaction.channel, "parent_id", None), computers=computers,
            )
        except UserError as exc:
            await say(interaction, str(exc))
            return
        reply = i18n.join([_("Opened a {game} table here; the lobby is below.", game=table.engine.title), note])
        await say(interaction, reply)
        await self.publish(Change(table, _("{player} opened the table.", player=interaction.user.display_name)))

    # --- /game ---------------------------------------------------------------------------------------
    async def table_here(self, interaction: discord.Interaction) -> Table | None:
        """The open table of the interaction's channel; answers the user when there is none."""
        table = await self.service.in_channel(interaction.channel_id)
        if table is None:
            await say(interaction, _("There is no game in this channel. Start one with /play."))
        return table

    @game.command(name="status", description="Post the current board of this channel's game again")
    async def status(self, interaction: discord.Interaction) -> None:
        table = await self.table_here(interaction)
        if table is None:
            return
        await say(interaction, _("Here is the board again, below."))
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
        await say(interaction, _("You left the game."))
        await self.publish(change)

    @game.command(name="pings", description="Whether I mention you when your turn comes (in every server)")
    @app_commands.describe(enabled="on: mention me when it is my turn; off: don't")
    async def pings(self, interaction: discord.Interaction, enabled: Literal["on", "off"]) -> None:
        await self.service.store.set_pings(interaction.user.id, enabled == "on")
        await say(interaction, messages.pings_sentence(enabled == "on", member_language(interaction)))

    # --- clicks --------------------------------------------------------------------------------------
    async def on_click(self, interaction: discord.Interaction, what: keys.Move | keys.Utility | None) -> None:
        """A click on a table's button or menu (``Geotable.on_key``); None: an id of a table's that names none
        (forged or malformed)."""
        if what is None:
            await say(interaction, _("This button doesn't belong to any game I know."))
            return
        table_id = what.table
        if self.service.is_open(table_id):  # only tables that exist: forged ids must not grow the map
            self._seen.setdefault(table_id, {})[interaction.user.id] = self.service.clock()
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
                await say(interaction, _("This board is gone: there is no such game."))
            else:
                from bot.cogs.rules import send_rules  # (rules.py imports this module)

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
            await say(interaction, _("There is nothing like that to show for this game."))
            return
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

    async def _rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        """The final board's Rematch: a new lobby under the board (``TableService.rematch``); the people whose
        seats it keeps are mentioned once (unless they switched pings off), with a link to it."""
        try:
            table = await self.service.rematch(table_id, user_of(interaction),
                                               parent_id=getattr(interaction.channel, "parent_id", None))
        except UserError as exc:
            await say(interaction, str(exc))
            return
        kept = [p for p in table.players if is_invited(p)]
        await say(interaction, messages.rematch_reply(table, kept, member_language(interaction)))
        await self.publish(Change(table, _("{player} asked for a rematch.", player=interaction.user.display_name)))
        if kept:
            mention = [p["id"] for p in kept if await self.service.store.pings_enabled(p["id"])]
            channel = self.bot.get_partial_messageable(table.row.channel_id, guild_id=table.row.guild_id)
            call = messages.rematch_call(table, interaction.user.display_name, kept,
                                         await self.service.language(table.row.guild_id))
            await channel.send(
                f"{call}\n{self._link(table)}"[:2000],
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
                except UserError as exc:
                    await ack.settle()
                    await self._refuse(interaction, table_id, exc)
                    return
                if self._from_panel(interaction):
                    await ack.settle()  # the panel is edited through this click's token: acknowledged first
                    await self._keep_panel(interaction, change.table)
                await self.publish(change, answer=ack)
        finally:
            await ack.settle()

    async def _pick(self, interaction: discord.Interaction, table_id: int, version: int, group: str,
                    token: str | None = None) -> None:
        """The first step of a two-step choice: the board and the player's panel show the chosen group."""
        await interaction.response.defer()
        try:
            table = await self.service.pick(table_id, version, group, interaction.user.id, token)
        except UserError as exc:
            await self._refuse(interaction, table_id, exc)
            return
        if self._from_panel(interaction):
            await self._keep_panel(interaction, table)
        await self.publish(Change(table))

    async def _refuse(self, interaction: discord.Interaction, table_id: int, exc: UserError) -> None:
        """Says why nothing happened. An out-of-date board that is the table's own message or a panel is
        brought up to date (it was left behind, e.g. by a crash between the commit and the edit); any other
        old message gets a link to the current board."""
        text = str(exc)
        table = await self.service.get(table_id)
        if exc.stale and table is not None and table.status in ("lobby", "playing"):
            if self._from_panel(interaction):
                seat = table.seat_of(interaction.user.id)
                if seat is not None:
                    await self._keep_panel(interaction, table)
                    await self._edit_panel(table, interaction.user.id,
                                           note=_("That was out of date; here is the table now."))
                    # said in a message of its own too: the panel's note goes with its next redraw
                    text = _("That was out of date: the table changed before your click arrived. Your panel "
                             "shows it now.")
            elif interaction.message is not None and interaction.message.id == table.row.message_id:
                shown = components.message_version(interaction.message)
                if shown is None or shown < table.version:  # the board itself fell behind: heal it
                    table.drawn = ()
                    await self.publish(Change(table))
                    text = _("This board was out of date; it shows the current state now.")
                else:
                    text = _("That board was out of date: it changed before your click arrived. Have another look.")
            elif table.row.message_id:
                text = _("This board is out of date. The current one: {link}", link=self._link(table))
        await say(interaction, text)

    # --- private panels ------------------------------------------------------------------------------
    async def _open_panel(self, interaction: discord.Interaction, table_id: int) -> None:
        """A fresh panel (the player's secret part and, on their turn, their moves); the previous one goes."""
        table = await self.service.get(table_id)
        if table is None or table.status != "playing":
            await say(interaction, _("This game is not running."))
            return
        if not has_private(table.row.game):
            await say(interaction, _("{game} has no private hand: everything is on the board.",
                                     game=table.engine.title))
            return
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await say(interaction, _("You are not playing at this table."))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self._publish_lock(table.row.channel_id):  # no publication edits panels meanwhile
            _new, old = self.panels.set(table.id, interaction.user.id, interaction, seat)
            await self._remove_panel(old)
            await self._edit_panel(table, interaction.user.id)

    async def _remove_panel(self, panel) -> None:
        if panel is not None and self.panels.is_live(panel):
            with contextlib.suppress(discord.HTTPException):
                await panel.interaction.delete_original_response()

    async def _keep_panel(self, interaction: discord.Interaction, table: Table) -> None:
        """A click on a panel: its fresh token keeps the panel editable for another 15 minutes. A click on an
        older panel makes that one the player's panel, and the newer one is removed."""
        seat = table.seat_of(interaction.user.id)
        if seat is not None:
            _new, old = self.panels.set(table.id, interaction.user.id, interaction, seat, interaction.message.id)
            await self._remove_panel(old)

    async def _edit_panel(self, table: Table, user_id: int, note: str = "") -> None:
        panel = self.panels.get(table.id, user_id)
        if panel is None:
            return
        try:
            lang = panel.locale
            if table.status != "playing" or table.seat_of(user_id) is None:
                self.panels.drop(table.id, user_id, panel)
                await panel.interaction.edit_original_response(
                    content=messages.panel_closed(table, lang), attachments=[], view=None)
                return
            image = await self.service.render_private(table, panel.seat, lang)
            message = await panel.interaction.edit_original_response(
                content=messages.panel_text(table, panel.seat, note, lang),
                attachments=[discord.File(io.BytesIO(image), filename=f"panel{table.id}-{table.version}.png")],
                view=components.panel_view(table, panel.seat, lang),
            )
            if panel.message_id != message.id:  # a "My hand" panel learns its message when first drawn
                panel.message_id = message.id
                self.panels.save(table.id, user_id, panel)
        except discord.HTTPException as exc:  # the token expired (50027) or the message is gone
            log.info("panel of %s at table %s no longer editable: %s", user_id, table.id, exc)
            self.panels.drop(table.id, user_id, panel)

    async def _refresh_panels(self, table: Table) -> None:
        live = self.panels.live(table.id)
        if live:
            await asyncio.gather(*(self._edit_panel(table, user_id) for user_id, _panel in live))
        if table.status not in ("lobby", "playing"):
            self.panels.drop_table(table.id)

    # --- showing boards ------------------------------------------------------------------------------
    def _link(self, table: Table, message_id: int | None = None) -> str:
        return (f"https://discord.com/channels/{table.row.guild_id}/{table.row.channel_id}/"
                f"{message_id or table.row.message_id}")

    async def publish(self, change: Change, *, fresh: bool = False, answer: Ack | None = None) -> None:
        """Shows the table as it is now: edits its message, or posts a fresh one when the old is buried,
        old or gone (retiring the old one's buttons); then pings whose turn came and refreshes the players'
        panels. One publication per channel at a time, in order. ``answer``: the click that made the move,
        which the new board answers when it is ready in time and the click was on the board."""
        table = change.table
        channel = self.bot.get_partial_messageable(table.row.channel_id, guild_id=table.row.guild_id)
        async with self._publish_lock(table.row.channel_id):
            lang = await self.service.language(table.row.guild_id)  # what the channel sees is in the server's
            above = [a for a in change.announcements if a.get("before_board")]
            if above:  # e.g. a run's animation: then the board afresh under it, the channel's last message
                await self._announce(table, channel, above, lang)
                fresh = True
            looks = (*table.looks(), lang)
            redraw = fresh or looks != table.drawn
            if redraw:  # else a publication queued before this one already drew the table as it is now
                await self._show_board(table, change, channel, fresh, answer, lang)
                table.drawn = looks
            if answer is not None:
                await answer.settle()
            await self._ping(table, change, channel, lang)
            if redraw and table.state is not None:
                await self._refresh_panels(table)
            if table.status not in ("lobby", "playing"):
                self._seen.pop(table.id, None)
            await self._after(table, change, channel, lang)
            # last: a crash before this line shows the board (and its end) again at the next start
            if table.row.shown_version < looks[0]:
                await self.service.store.set_shown_version(table.id, looks[0])
                table.row.shown_version = looks[0]

    async def heal(self, at_once: int = 16) -> None:
        """Shows again every board that a crash left behind (a move committed, its board never edited)."""
        behind = await self.service.store.behind(self.service.shards)
        for start in range(0, len(behind), at_once):
            await asyncio.gather(*(self._heal(t) for t in behind[start:start + at_once]))

    async def _heal(self, table_id: int) -> None:
        try:
            table = await self.service.get(table_id)
            if table is None:
                return
            if table.status == "ended":
                change = Change(table, _("This table was closed: {reason}", reason=end_words(table.row.end_reason)), closed=True)
            else:
                change = Change(table, finished=table.status == "finished")
            await self.publish(change)
        except Exception:
            log.exception("could not show table %s again", table_id)

    async def _show_board(self, table: Table, change: Change, channel, fresh: bool, answer: Ack | None = None,
                          lang: str = i18n.DEFAULT) -> None:
        kwargs = await self._message(table, change, lang)
        old = table.row.message_id
        if old and not fresh and table.messages_since_board < BURIED_AFTER and not self._too_old(old):
            if answer is not None and answer.message_id == old and answer.take():
                try:
                    await answer.interaction.response.edit_message(**kwargs)
                except discord.HTTPException:  # too late for the click (the edit below still shows the board)
                    for file in kwargs["attachments"]:
                        file.reset()
                else:
                    return
            try:
                await channel.get_partial_message(old).edit(**kwargs)
            except discord.NotFound:
                old = None
            else:
                return
        files = kwargs.pop("attachments")
        message = await channel.send(files=files, **{k: v for k, v in kwargs.items() if v is not None})
        await self.service.set_message(table, message.id)
        if table.row.ping_message_id and table.ping_text:  # the ping links the board: point it at the new one
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(table.row.ping_message_id).edit(
                    content=f"{table.ping_text}\n{self._link(table)}"[:2000],
                    allowed_mentions=discord.AllowedMentions.none())
        if old:
            try:
                retired = await channel.get_partial_message(old).edit(view=None)
                ended = messages.without_countdown(retired.embeds[0]) if retired and retired.embeds else None
                if ended is not None:  # a countdown on a board no longer current: it would run into the past
                    await retired.edit(embed=ended)
            except discord.HTTPException:
                log.info("could not retire the old board %s of table %s", old, table.id)

    async def _ping(self, table: Table, change: Change, channel, lang: str = i18n.DEFAULT) -> None:
        """Mentions the players whose turn just came (in message content: mentions in embeds and edits do
        not notify), unless they clicked at the table moments ago or switched pings off. The table keeps at
        most one ping message in the channel: each new one replaces the last."""
        if change.before is None and table.status in ("lobby", "playing"):
            return  # a redraw: whose turn it is did not change
        now = self.service.clock()
        seen = self._seen.get(table.id, {})
        mention = []
        if table.status == "playing":
            for seat in table.to_act():
                user_id = table.players[seat]["id"]
                if is_computer(table.players[seat]):  # a computer is never pinged (its move follows by itself)
                    continue
                if seat in (change.before or ()) or now - seen.get(user_id, 0) < PRESENT_FOR:
                    continue
                if await self.service.store.pings_enabled(user_id):
                    mention.append(user_id)
        old = table.row.ping_message_id
        text = messages.ping(table, mention, change.timed_out, lang) if table.status == "playing" else ""
        if old and (text or change.before != frozenset(table.to_act())):
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).delete()
            await self.service.set_ping_message(table, None)
        if text:
            table.ping_text = text
            text += f"\n{self._link(table)}"
            message = await channel.send(
                text[:2000], view=components.ping_view(table, lang) if mention else None,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in mention],
                                                         everyone=False, roles=False, replied_user=False),
            )
            await self.service.set_ping_message(table, message.id)

    async def _after(self, table: Table, change: Change, channel, lang: str = i18n.DEFAULT) -> None:
        """What the channel sees besides the board: announcements (a claimed goal card), the final standings
        (with the score sheet, in words and as an image where the game draws one), a closing note."""
        quiet = discord.AllowedMentions.none()
        await self._announce(table, channel, [a for a in change.announcements if not a.get("before_board")], lang)
        if change.finished:
            result = table.result()
            if result is not None:
                files = []
                if has_score_sheet(table.row.game):
                    view = board_view(table.engine, table.state)
                    image = await renderpool.run(functools.partial(render_score_sheet, locale=lang),
                                                 table.row.game, view, table.names, marked_seats(table))
                    files = [discord.File(io.BytesIO(image), filename=f"scores{table.id}.png")]
                await channel.send(messages.standings(table, result, lang), files=files, allowed_mentions=quiet)
        elif change.closed and change.text:
            await channel.send(localize(change.text, lang)[:2000], allowed_mentions=quiet)

    async def _announce(self, table: Table, channel, items: list[dict], lang: str = i18n.DEFAULT) -> None:
        """Posts announcements, each with its card's picture (drawn with the players' names) when there is one."""
        for k, item in enumerate(items):
            files = []
            if item.get("card") is not None and has_card(table.row.game):
                card = {**item["card"], "names": list(table.names), "computers": list(marked_seats(table))}
                image = await renderpool.run(functools.partial(render_card, locale=lang), table.row.game, card,
                                             item.get("note"))
                kind = "gif" if image[:3] == b"GIF" else "png"  # an animation plays inline as a GIF
                name = f"card{table.id}-{table.version}" + (f"-{k}" if len(items) > 1 else "")
                files = [discord.File(io.BytesIO(image), filename=f"{name}.{kind}")]
            await channel.send(localize(item["text"], lang)[:2000], files=files,
                               allowed_mentions=discord.AllowedMentions.none())

    async def _message(self, table: Table, change: Change, lang: str = i18n.DEFAULT) -> dict:
        if table.status == "lobby" or (table.status == "ended" and table.state is None):
            note = change.text if table.status == "lobby" else _("Closed: {reason}", reason=end_words(table.row.end_reason))
            view = components.lobby_view(table, lang) if table.status == "lobby" else None
            return {"embed": messages.lobby_embed(table, note, lang), "view": view, "attachments": []}
        drawing = asyncio.ensure_future(self.service.render(table, lang, change.board))  # words built meanwhile
        filename = f"table{table.id}-{table.version}.png"
        embed = messages.table_embed(table, filename, lang)
        view = components.table_view(table, lang)
        image = await drawing
        return {"embed": embed, "attachments": [discord.File(io.BytesIO(image), filename=filename)], "view": view}

    def _too_old(self, message_id: int) -> bool:
        return time.time() - discord.utils.snowflake_time(message_id).timestamp() > REPOST_AFTER

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        if message.author.id == self.bot.user.id:
            return
        for table in self.service.cached_in(message.channel.id):
            if table.row.message_id and message.id > table.row.message_id:
                table.messages_since_board += 1
