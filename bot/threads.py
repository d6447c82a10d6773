"""Tables in threads of their own (issue 27), the Discord side: where /play opens a table (``Threads.where``),
making the thread or forum post named after the game and table number (``Place.make``), the parent channel's
link line and result line, an archived thread unarchived before the table posts there (``awake``), and a
deleted thread or channel ending its tables (``gone``). The decision itself is pure: bot/table/threads.py.

Decisions: /play inside a thread opens the table in that thread (a thread can't hold threads: it is already a
place of its own, and ``thread:yes`` there says so), except in a forum post with ``thread:yes``, which opens a
new post of the forum. /play run in a forum itself opens a post. A table's ``channel_id`` is its thread's, so
the one-open-table-per-channel rule holds for a channel and each of its threads."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import discord

import i18n
from bot.table.model import Change, Table
from bot.table.refusals import Refusal, Refused
from bot.table.threads import thread_name, wants_thread
from bot.table.words import end_words
from bot.ui import final
from i18n import _, localize

log = logging.getLogger(__name__)

ARCHIVE_AFTER = 10080
"""Minutes of quiet after which Discord archives a table's thread (the longest it offers: 7 days); the table
unarchives it when it posts there again."""
QUIET = discord.AllowedMentions.none()

CREATE_PUBLIC_THREADS = _("Create Public Threads")
SEND_IN_THREADS = _("Send Messages in Threads")
CREATE_POSTS = _("Create Posts")
"""Discord's names of the permissions (as its server settings show them), for the one sentence that names them."""


@dataclass
class Place:
    """Where /play opens its table: ``parent`` set, a new thread (``forum``: a post) of that channel."""

    parent: discord.abc.GuildChannel | None = None
    forum: bool = False
    note: str = ""
    """Said after /play's reply (``thread:yes`` in a thread: the table stays in it)."""


class Threads:
    def __init__(self, bot, service):
        self.bot = bot
        self.service = service

    # --- opening -------------------------------------------------------------------------------------
    async def where(self, interaction: discord.Interaction, asked: bool | None, turn_based: bool = False) -> Place:
        """Where /play opens (refused, nothing made or stored, when the bot lacks a permission for a thread)."""
        channel = interaction.channel
        if isinstance(channel, discord.ForumChannel):
            place = Place(channel, forum=True)
        elif isinstance(channel, discord.Thread):
            if asked and isinstance(channel.parent, discord.ForumChannel):
                place = Place(channel.parent, forum=True)
            else:
                return Place(note=_("This is a thread already, so the table opens here.") if asked else "")
        elif isinstance(channel, discord.TextChannel):
            settings = await self.service.settings(interaction.guild_id)
            if not wants_thread(settings, asked, turn_based):
                return Place()
            place = Place(channel)
        else:  # a voice channel's chat: no threads there
            if asked:
                return Place(note=_("Threads can't be opened here, so the table opens in this channel."))
            return Place()
        self._check_permissions(interaction, place)
        return place

    @staticmethod
    def _check_permissions(interaction: discord.Interaction, place: Place) -> None:
        have = interaction.app_permissions
        needed = [(have.send_messages, CREATE_POSTS)] if place.forum else [
            (have.create_public_threads, CREATE_PUBLIC_THREADS), (have.send_messages_in_threads, SEND_IN_THREADS)]
        for granted, name in needed:
            if not granted:
                raise Refused(Refusal.CHANNEL_NOT_ALLOWED, _(
                    "I can't open a table in a thread here: I need the permission \u201c{permission}\u201d in "
                    "this channel.", permission=name))

    def maker(self, place: Place, lang: str):
        """The function the table service calls with the new lobby to make its thread (its id returned)."""
        async def make(table: Table) -> int:
            name = thread_name(table.engine.title, table.id, lang)
            if place.forum:
                made = await place.parent.create_thread(
                    name=name, auto_archive_duration=ARCHIVE_AFTER, allowed_mentions=QUIET,
                    content=i18n.say(lang, "The lobby of this {game} table comes here in a moment.",
                                     game=table.engine.title))
                table.row.message_id = made.message.id  # the post's first message becomes the lobby
                await self.service.set_message(table, made.message.id)
                return made.thread.id
            kind = discord.ChannelType.news_thread if place.parent.is_news() else discord.ChannelType.public_thread
            thread = await place.parent.create_thread(name=name, type=kind, auto_archive_duration=ARCHIVE_AFTER)
            return thread.id
        return make

    async def link_line(self, table: Table, host: str) -> None:
        """The one short line in the parent channel that links the new table's thread."""
        if table.row.parent_channel_id is None or self._is_forum(table):
            return  # a forum lists its posts itself
        lang = await self.service.language(table.row.guild_id)
        await self._parent_says(table, i18n.say(lang, "{player} opened a {game} table in its own thread: {thread}",
                                                player=host, game=table.engine.title,
                                                thread=f"<#{table.row.channel_id}>"))

    async def result_line(self, table: Table, change: Change, lang: str) -> None:
        """At the table's end, one line in the parent channel: the result (or why it closed), with the thread."""
        if table.row.parent_channel_id is None or self._is_forum(table):
            return
        thread = f"<#{table.row.channel_id}>"
        if change.finished:
            result = table.result()
            if result is None:
                return
            text = i18n.say(lang, "{game} in {thread} is over: {result}", game=table.engine.title, thread=thread,
                            result=final.winners_sentence(table, result, lang) or i18n.say(lang, "Nobody won."))
        elif change.closed:
            text = i18n.say(lang, "The {game} table in {thread} was closed: {reason}", game=table.engine.title,
                            thread=thread, reason=localize(end_words(table.row.end_reason) or "", lang))
        else:
            return
        await self._parent_says(table, text)

    def _is_forum(self, table: Table) -> bool:
        return isinstance(self.bot.get_channel(table.row.parent_channel_id), discord.ForumChannel)

    async def _parent_says(self, table: Table, text: str) -> None:
        channel = self.bot.get_partial_messageable(table.row.parent_channel_id, guild_id=table.row.guild_id)
        try:
            await channel.send(text[:2000], allowed_mentions=QUIET)
        except discord.HTTPException as exc:  # the parent's line is a courtesy: the table goes on without it
            log.info("table %s: no line in its parent channel %s (%s)", table.id, table.row.parent_channel_id, exc)

    # --- while it is played --------------------------------------------------------------------------
    async def awake(self, table: Table) -> bool:
        """Before the table posts or edits in its thread: unarchives it when Discord archived it (a thread the
        client holds as active needs nothing). False when the thread is gone: the table is ended (``gone``)."""
        if table.row.parent_channel_id is None:
            return True
        guild = self.bot.get_guild(table.row.guild_id)
        thread = guild.get_thread(table.row.channel_id) if guild else None
        if thread is not None and not thread.archived:
            return True
        try:
            await self.bot.http.edit_channel(table.row.channel_id, archived=False)
        except discord.NotFound:
            await self.gone(table.row.channel_id)
            return False
        except discord.HTTPException as exc:  # e.g. locked by a moderator: posting will say what Discord says
            log.warning("table %s: could not unarchive its thread %s (%s)", table.id, table.row.channel_id, exc)
        return True

    # --- deleted threads and channels ----------------------------------------------------------------
    async def gone(self, channel_id: int, *, parent_gone: bool = False) -> list[Table]:
        """Ends the open tables of a deleted thread or channel (and, a channel, those of its threads): closed
        'ended', unrated, their deadlines gone, nothing posted where nothing is left. The parent channel of a
        deleted thread gets one line saying so."""
        ids = await self.service.store.open_tables_under(channel_id) if parent_gone else []
        tables = [t for t in [await self.service.in_channel(channel_id)] if t is not None]
        tables += [t for t in [await self.service.get(i) for i in ids] if t is not None and t not in tables]
        ended = []
        for table in tables:
            lang = await self.service.language(table.row.guild_id)
            own = table.row.channel_id == channel_id
            why = _("its thread was deleted") if own and table.row.parent_channel_id else _("its channel was deleted")
            try:
                await self.service.end(table, localize(why, lang))
            except Refused:  # ended meanwhile
                continue
            log.info("table %s (%s) ended: %s %s was deleted", table.id, table.row.game,
                     "its channel" if parent_gone else "its thread", channel_id)
            ended.append(table)
            if not parent_gone and table.row.parent_channel_id and not self._is_forum(table):
                await self._parent_says(table, i18n.say(lang, "The {game} table {table} ended: its thread was deleted.",
                                                        game=table.engine.title, table=table.id))
        return ended
