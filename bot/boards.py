"""Showing a table in its channel: the board message (edited, or posted afresh when buried, old or gone), the
ping of whose turn came, announcements and final standings, the players' private panels, and the
acknowledgement of a click that its new board answers (``Ack``). One publication per channel at a time.
Owned by the Tables cog (``Tables.boards``); the table service's computers publish through it too."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import time

import discord

import i18n
from bot import nonces
from bot.computers import is_computer
from bot.panels import Panels
from bot.table.model import Change, KeyedLocks, Table
from bot.table.words import board_view, end_words
from bot.threads import Threads
from bot.ui import components, layout, messages, screens
from bot.ui.cycles import spent
from bot.workers import renderpool
from i18n import _, localize
from render import has_card, has_score_sheet, render_card, render_score_sheet

log = logging.getLogger(__name__)

BURIED_AFTER = 6
"""Messages from others below the board after which the next move posts a fresh board at the bottom."""
REPOST_AFTER = 50 * 60
"""Seconds after which the board is posted afresh rather than edited (Discord stops bots editing old
interaction messages after about an hour; a fresh board also sits where players look)."""
PRESENT_FOR = 60
"""A player who clicked at the table this many seconds ago is at the table: their turn needs no ping."""

def marked_seats(table: Table) -> tuple[int, ...]:
    """The seats a computer plays, marked on the boards beside their names."""
    return tuple(s for s, p in enumerate(table.players) if is_computer(p))



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


class Boards:
    """What the channel and the players' panels show of each table (see the module's docstring)."""

    def __init__(self, bot, service):
        self.bot = bot
        self.service = service
        self.panels = Panels(clock=lambda: self.service.clock(), store=self.service.store)
        self.lock = KeyedLocks()
        """One publication per channel at a time (a panel opened meanwhile waits too)."""
        self._seen: dict[int, dict[int, float]] = {}
        """table -> user -> when they last clicked there (a player who just acted needs no ping)."""
        self.threads = Threads(bot, service)
        """Tables in threads of their own: where /play opens, archived threads woken, deleted ones ended."""
        self.ended: list = []
        """Called with each table whose end was just shown (a tournament moves on: bot/rounds.py)."""

    def forget(self, table: Table) -> None:
        """A table that ended with nowhere to show it (its thread or channel deleted): no panel, no ping state."""
        self._seen.pop(table.id, None)
        self.panels.drop_table(table.id)

    def clicked(self, table_id: int, user_id: int) -> None:
        """A member clicked at an open table just now: their turn, coming, needs no ping."""
        self._seen.setdefault(table_id, {})[user_id] = self.service.clock()

    # --- private panels ------------------------------------------------------------------------------
    async def open_panel(self, interaction: discord.Interaction, table: Table, seat: int) -> None:
        """A fresh panel for ``seat`` (the player's secret part and, on their turn, their moves); the previous
        one goes. The click is acknowledged here (the panel is its answer)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.lock(table.row.channel_id):  # no publication edits panels meanwhile
            _new, old = self.panels.set(table.id, interaction.user.id, interaction, seat)
            await self._remove_panel(old)
            await self.edit_panel(table, interaction.user.id)

    async def _remove_panel(self, panel) -> None:
        if panel is not None and self.panels.is_live(panel):
            with contextlib.suppress(discord.HTTPException):
                await panel.interaction.delete_original_response()

    async def keep_panel(self, interaction: discord.Interaction, table: Table) -> None:
        """A click on a panel: its fresh token keeps the panel editable for another 15 minutes. A click on an
        older panel makes that one the player's panel, and the newer one is removed."""
        seat = table.seat_of(interaction.user.id)
        if seat is not None:
            _new, old = self.panels.set(table.id, interaction.user.id, interaction, seat, interaction.message.id)
            await self._remove_panel(old)

    async def edit_panel(self, table: Table, user_id: int, note: str = "") -> None:
        panel = self.panels.get(table.id, user_id)
        if panel is None:
            return
        try:
            lang = panel.locale
            if table.status != "playing" or table.seat_of(user_id) is None:
                self.panels.drop(table.id, user_id, panel)
                await panel.interaction.edit_original_response(
                    content=None, attachments=[], view=screens.words(table, messages.panel_closed(table, lang)))
                return
            image = await self.service.render_private(table, panel.seat, lang)
            filename = f"panel{table.id}-{table.version}.png"
            view = screens.panel(table, panel.seat, filename, note, lang)
            try:  # (content cleared: a panel opened before the upgrade said its words there)
                message = await panel.interaction.edit_original_response(
                    content=None, attachments=[discord.File(io.BytesIO(image), filename=filename)], view=view)
            finally:
                spent(view)
            if panel.message_id != message.id:  # a "My hand" panel learns its message when first drawn
                panel.message_id = message.id
                self.panels.save(table.id, user_id, panel)
        except discord.HTTPException as exc:  # the token expired (50027) or the message is gone
            log.info("panel of %s at table %s no longer editable: %s", user_id, table.id, exc)
            self.panels.drop(table.id, user_id, panel)

    async def _refresh_panels(self, table: Table) -> None:
        live = self.panels.live(table.id)
        if live:
            await asyncio.gather(*(self.edit_panel(table, user_id) for user_id, _panel in live))
        if table.status not in ("lobby", "playing"):
            self.panels.drop_table(table.id)

    # --- showing boards ------------------------------------------------------------------------------
    def link(self, table: Table, message_id: int | None = None) -> str:
        return (f"https://discord.com/channels/{table.row.guild_id}/{table.row.channel_id}/"
                f"{message_id or table.row.message_id}")

    async def publish(self, change: Change, *, fresh: bool = False, answer: Ack | None = None) -> None:
        """Shows the table as it is now: edits its message, or posts a fresh one when the old is buried,
        old or gone (retiring the old one's buttons); then pings whose turn came and refreshes the players'
        panels. One publication per channel at a time, in order. ``answer``: the click that made the move,
        which the new board answers when it is ready in time and the click was on the board."""
        table = change.table
        channel = self.bot.get_partial_messageable(table.row.channel_id, guild_id=table.row.guild_id)
        async with self.lock(table.row.channel_id):
            if not await self.threads.awake(table):  # its thread was deleted: the table ended, nothing to show
                self.forget(table)
                return
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
            if change.finished or change.closed:
                for hook in self.ended:
                    hook(table)
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
        try:
            await self._post_board(table, kwargs, channel, fresh, answer)
        finally:
            spent(kwargs.get("view"))

    async def _post_board(self, table: Table, kwargs: dict, channel, fresh: bool, answer: Ack | None) -> None:
        """The board's message: the click answered with it, else the message edited, else a new one posted
        (a buried, old or deleted board; the old one's buttons retired)."""
        old = table.row.message_id
        if old and not fresh and table.messages_since_board < BURIED_AFTER and not self._too_old(old):
            if answer is not None and answer.message_id == old and answer.take():
                try:
                    await answer.interaction.response.edit_message(**kwargs, **legacy(answer.interaction.message))
                except discord.HTTPException:  # too late for the click (the edit below still shows the board)
                    for file in kwargs["attachments"]:
                        file.reset()
                else:
                    return
            try:  # (an old board may be a classic one: its words and embed go, the V2 layout takes its place)
                await channel.get_partial_message(old).edit(**kwargs, content=None, embed=None)
            except discord.NotFound:
                old = None
            else:
                return
        files = kwargs.pop("attachments")
        # a table's first board, sent again after a crash before its id was stored, is answered, not doubled
        first = nonces.once("board", table.id) if table.row.message_id is None else None
        message = await channel.send(files=files, nonce=first, **{k: v for k, v in kwargs.items() if v is not None})
        await self.service.set_message(table, message.id)
        if table.row.ping_message_id and table.ping_text:  # the ping links the board: point it at the new one
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(table.row.ping_message_id).edit(
                    content=f"{table.ping_text}\n{self.link(table)}"[:2000],
                    allowed_mentions=discord.AllowedMentions.none())
        if old:
            try:
                await self._retire(channel, old)
            except discord.HTTPException:
                log.info("could not retire the old board %s of table %s", old, table.id)

    @staticmethod
    async def _retire(channel, message_id: int) -> None:
        """The board no longer current keeps its words and image, not its buttons, nor a countdown (it would run
        into the past). A V2 board is drawn again without them; a classic one (posted before the upgrade) loses
        its view, and its countdown line."""
        shown = await channel.fetch_message(message_id)
        kept = layout.retired(shown, counting)
        if kept is not None:
            await shown.edit(view=kept)
            return
        shown = await shown.edit(view=None)
        embed = shown.embeds[0].copy() if shown and shown.embeds else None
        lines = (embed.description or "").split("\n") if embed else []
        if any(counting(line) for line in lines):
            embed.description = "\n".join(line for line in lines if not counting(line))
            await shown.edit(embed=embed)

    async def _ping(self, table: Table, change: Change, channel, lang: str = i18n.DEFAULT) -> None:
        """Mentions the players whose turn just came (in message content: mentions in embeds and edits do
        not notify), unless they clicked at the table moments ago or switched pings off. The table keeps at
        most one ping message in the channel: each new one replaces the last."""
        if change.reminded:
            await self._remind(table, channel, lang)
            return
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
            text += f"\n{self.link(table)}"
            message = await channel.send(
                text[:2000], view=components.ping_view(table, lang) if mention else None,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in mention],
                                                         everyone=False, roles=False, replied_user=False),
            )
            await self.service.set_ping_message(table, message.id)

    async def _remind(self, table: Table, channel, lang: str = i18n.DEFAULT) -> None:
        """A turn-based turn's one reminder (a fifth of its time left): the people to act who did not switch
        pings off are mentioned once more; it takes the place of the table's ping message."""
        mention = [table.players[s]["id"] for s in table.to_act() if not is_computer(table.players[s])]
        mention = [u for u in mention if await self.service.store.pings_enabled(u)]
        if not mention:
            return
        old = table.row.ping_message_id
        if old:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).delete()
            await self.service.set_ping_message(table, None)
        text = table.ping_text = messages.reminder(table, mention, lang)
        message = await channel.send(
            f"{text}\n{self.link(table)}"[:2000], view=components.ping_view(table, lang),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in mention], everyone=False,
                                                     roles=False, replied_user=False))
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
                sheet = files[0].filename if files else None
                await channel.send(view=screens.standings(table, result, sheet, lang), files=files,
                                   allowed_mentions=quiet)
        elif change.closed and change.text:
            await channel.send(localize(change.text, lang)[:2000], allowed_mentions=quiet)
        await self.threads.result_line(table, change, lang)

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
            return {"view": screens.lobby(table, note, lang), "attachments": []}
        drawing = asyncio.ensure_future(self.service.render(table, lang, change.board))  # words built meanwhile
        filename = f"table{table.id}-{table.version}.png"
        view = screens.table(table, filename, lang, now=self.service.clock())
        image = await drawing
        return {"attachments": [discord.File(io.BytesIO(image), filename=filename)], "view": view}

    def _too_old(self, message_id: int) -> bool:
        return time.time() - discord.utils.snowflake_time(message_id).timestamp() > REPOST_AFTER


def counting(line: str) -> bool:
    """A board's live countdown line."""
    return line.startswith(messages.COUNTDOWN)


def legacy(message: discord.Message | None) -> dict:
    """What an edit to a V2 layout clears of a classic message (posted before the upgrade): its content and
    embeds (Discord refuses them beside the flag IS_COMPONENTS_V2)."""
    if message is not None and message.flags.components_v2:
        return {}
    return {"content": None, "embed": None}
