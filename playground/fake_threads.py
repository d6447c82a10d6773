"""Threads and forums of the loopback Discord (issue 27): what :class:`playground.fake_discord.FakeDiscord` does
and refuses for them, as Discord does (its "Threads" topic and error codes).

- ``POST /channels/{id}/threads``: in a text channel a thread without a message (``type`` 11, an announcement
  channel's 10; no ``message``); in a forum (type 15) a post, whose ``message`` is its first message
  (required; the thread's id is that message's, as on Discord). Refused without the bot's Create Public Threads (a forum: Send Messages, "Create
  Posts"), 50013 Missing Permissions; a name of 1-100 characters, an ``auto_archive_duration`` of 60, 1440, 4320
  or 10080; a thread's thread, 50024 Cannot execute action on this channel type.
- ``PATCH /channels/{id}`` ``{"archived": false}`` unarchives (a locked thread only with Manage Threads); name
  and auto-archive changes. Each change is a THREAD_UPDATE, a new thread a THREAD_CREATE (``newly_created``), a
  deleted one a THREAD_DELETE, a deleted channel a CHANNEL_DELETE (its threads go with it, with no event each).
- In an archived thread: a new message (REST, an interaction's response or followup) unarchives it unless it
  is locked (then 50083 Thread is archived); an edit of a message there is refused, 50083. Sending in a thread
  needs Send Messages in Threads (50013). A deleted thread or channel answers 10003 Unknown Channel.
- Tests: ``add_forum``, ``archive_thread``, ``delete_thread``, ``delete_channel``, ``set_bot_permissions``
  (what the bot may do in a channel; an interaction's ``app_permissions`` says the same), ``threads_of``.
- Observers (the playground's page) hear ``("channel", thread)`` when a thread is made or changes (archived,
  renamed) and ``("channel_delete", channel)`` when a thread or channel goes, as a Discord client sees them.
"""

from __future__ import annotations

import time

from playground.fake_errors import ALL_PERMISSIONS, DiscordError

SEND_MESSAGES = 1 << 11
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
THREAD_TYPES = (10, 11, 12)
FORUM = 15


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(ts))


class FakeThreads:
    """The thread part of FakeDiscord (mixed in: it uses the fake's channels, messages, clock and gateway)."""

    bot_permissions: dict[int, int]
    """channel -> what the bot may do there (unset: everything); a thread inherits its parent's."""

    # --- helpers for tests ---------------------------------------------------------------------------
    def add_forum(self, forum_id: int, name: str | None = None) -> dict:
        """A forum channel (type 15) of the main guild; call before the bot connects (its GUILD_CREATE)."""
        forum = {"id": str(forum_id), "type": FORUM, "name": name or f"forum-{forum_id}",
                 "guild_id": str(self.guild_id), "position": len(self.channels), "permission_overwrites": [],
                 "available_tags": [], "default_reaction_emoji": None, "default_sort_order": None,
                 "default_forum_layout": 0, "flags": 0, "topic": None, "nsfw": False, "parent_id": None,
                 "rate_limit_per_user": 0, "default_thread_rate_limit_per_user": 0, "last_message_id": None}
        self.channels[forum_id] = forum
        return forum

    def set_bot_permissions(self, channel_id: int, permissions: int | None) -> None:
        """What the bot may do in ``channel_id`` (and its threads); None: everything again."""
        if permissions is None:
            self.bot_permissions.pop(channel_id, None)
        else:
            self.bot_permissions[channel_id] = permissions

    def bot_may(self, channel_id: int) -> int:
        """The bot's permissions in a channel (a thread: its parent's), as an interaction's app_permissions."""
        channel = self.channels.get(channel_id)
        if channel is not None and channel["type"] in THREAD_TYPES and channel_id not in self.bot_permissions:
            channel_id = int(channel["parent_id"])
        return self.bot_permissions.get(channel_id, ALL_PERMISSIONS)

    async def archive_thread(self, thread_id: int, *, locked: bool = False) -> None:
        """Discord archives the thread (its auto-archive time passed, or a moderator did; ``locked``: and locked
        it): a THREAD_UPDATE to the bot."""
        await self._thread_changed(thread_id, archived=True, locked=locked)

    async def delete_thread(self, thread_id: int) -> None:
        """Someone deletes the thread: its messages go, THREAD_DELETE to the bot, and the bot's answers settle."""
        thread = self.channels.pop(thread_id)
        self.threads.pop(thread_id, None)
        self._drop_messages(thread_id)
        self._tell("channel_delete", thread)
        await self._event("THREAD_DELETE", {"id": str(thread_id), "guild_id": thread["guild_id"],
                                              "parent_id": thread["parent_id"], "type": thread["type"]})
        await self.settle()

    async def delete_channel(self, channel_id: int) -> None:
        """Someone deletes a channel: its threads go with it (Discord sends only the CHANNEL_DELETE)."""
        channel = self.channels.pop(channel_id)
        self._drop_messages(channel_id)
        for thread_id in [t for t, c in self.channels.items() if c.get("parent_id") == str(channel_id)]:
            self._tell("channel_delete", self.channels.pop(thread_id))
            self.threads.pop(thread_id, None)
            self._drop_messages(thread_id)
        self._tell("channel_delete", channel)
        await self._event("CHANNEL_DELETE", channel)
        await self.settle()

    def threads_of(self, channel_id: int) -> list[dict]:
        return [c for c in self.channels.values() if c.get("parent_id") == str(channel_id)
                and c["type"] in THREAD_TYPES]

    async def _event(self, event: str, data: dict) -> None:
        """A gateway event to the bot, when one is connected (Discord tells only the sessions it has)."""
        if self._sockets:
            await self.dispatch(event, data)

    def _drop_messages(self, channel_id: int) -> None:
        for message_id in [m for m, msg in self.messages.items() if int(msg["channel_id"]) == channel_id]:
            self.messages.pop(message_id)

    # --- REST ----------------------------------------------------------------------------------------
    async def _start_thread(self, parent_id: int, payload: dict, uploads) -> dict:
        parent = self.channels[parent_id]
        if parent["type"] in THREAD_TYPES or parent["type"] not in (0, 5, FORUM):
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        forum = parent["type"] == FORUM
        needed = SEND_MESSAGES if forum else CREATE_PUBLIC_THREADS
        if not self.bot_may(parent_id) & needed:
            raise DiscordError(403, 50013, "Missing Permissions")
        payload = payload or {}
        name = payload.get("name") or ""
        if not 1 <= len(name) <= 100:
            raise DiscordError(400, 50035, "Invalid Form Body: name must be 1-100 characters")
        duration = payload.get("auto_archive_duration") or 4320
        if duration not in ARCHIVE_DURATIONS:
            raise DiscordError(400, 50035, f"Invalid Form Body: auto_archive_duration {duration}")
        if forum and not isinstance(payload.get("message"), dict):
            raise DiscordError(400, 50035, "Invalid Form Body: a forum post needs its first message")
        kind = 10 if parent["type"] == 5 else 11  # an announcement channel's threads are announcement threads
        if not forum and ("message" in payload or payload.get("type") != kind):
            raise DiscordError(400, 50035, f"Invalid Form Body: a thread of this channel here is of type {kind}, "
                                           "without a message")
        thread_id = self.snowflake()
        now = self.now()
        thread = {"id": str(thread_id), "type": 11 if forum else kind, "name": name, "guild_id": parent["guild_id"],
                  "parent_id": str(parent_id), "owner_id": self.bot_user["id"], "member_count": 1,
                  "message_count": 0, "total_message_sent": 0, "rate_limit_per_user": 0, "flags": 0,
                  "last_message_id": None,
                  "thread_metadata": {"archived": False, "auto_archive_duration": duration,
                                      "archive_timestamp": _iso(now), "locked": False, "create_timestamp": _iso(now)}}
        self.channels[thread_id] = thread
        self.threads[thread_id] = thread
        result = dict(thread)
        if forum:  # the post's first message has the thread's id
            result["message"] = self._create(thread_id, payload["message"], uploads, author=self.bot_user,
                                             message_id=thread_id)
        self._tell("channel", thread)
        await self._event("THREAD_CREATE", dict(thread, newly_created=True))
        return result

    async def _edit_channel(self, channel_id: int, payload: dict) -> dict:
        channel = self.channels[channel_id]
        if channel["type"] not in THREAD_TYPES:
            raise DiscordError(403, 50013, "Missing Permissions")  # the bot never edits other channels
        meta = channel["thread_metadata"]
        payload = payload or {}
        if meta["locked"] and not self.bot_may(channel_id) & MANAGE_THREADS:
            raise DiscordError(400, 50083, "Thread is archived")
        changes = {k: payload[k] for k in ("archived", "locked") if k in payload}
        if "name" in payload:
            channel["name"] = payload["name"]
        await self._thread_changed(channel_id, **changes)
        return channel

    async def _thread_changed(self, thread_id: int, **changes) -> None:
        thread = self.channels[thread_id]
        thread["thread_metadata"].update(changes)
        if "archived" in changes:
            thread["thread_metadata"]["archive_timestamp"] = _iso(self.now())
        self._tell("channel", thread)
        await self._event("THREAD_UPDATE", thread)

    async def _before_post(self, channel_id: int) -> None:
        """A new message in ``channel_id``: in a thread it needs Send Messages in Threads, and an archived thread
        is unarchived by it (a locked one refuses it)."""
        channel = self.channels.get(channel_id)
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        if channel["type"] not in THREAD_TYPES:
            return
        if not self.bot_may(channel_id) & SEND_MESSAGES_IN_THREADS:
            raise DiscordError(403, 50013, "Missing Permissions")
        meta = channel["thread_metadata"]
        if meta["archived"]:
            if meta["locked"] and not self.bot_may(channel_id) & MANAGE_THREADS:
                raise DiscordError(400, 50083, "Thread is archived")
            await self._thread_changed(channel_id, archived=False)

    def _before_edit(self, channel_id: int) -> None:
        """An edit of a message in ``channel_id``: refused in an archived thread (nothing unarchives it)."""
        channel = self.channels.get(channel_id)
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        if channel["type"] in THREAD_TYPES and channel["thread_metadata"]["archived"]:
            raise DiscordError(400, 50083, "Thread is archived")
