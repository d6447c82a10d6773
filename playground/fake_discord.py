"""A loopback fake of Discord (REST API and gateway) that the real discord.py client connects to.

It keeps every message it is sent (with components and attachment bytes), answers like Discord does, and
refuses what Discord refuses: component and text limits, a second acknowledgement (40060), a response
after 3 seconds (10062), a webhook call with an expired 15-minute token (50027), and a request body that
Discord's own OpenAPI spec refuses (50035 with its ``errors``; the schemas: ``discord_api_schema.json``,
checked when the ``jsonschema`` package is installed; ``invalid_bodies`` lists each such refusal).
Tests and the playground's page drive it through :class:`FakeDiscord` methods: ``slash``, ``autocomplete``, ``click``, ``select``,
``interact``, ``say``, ``messages_in``, ``ephemerals``; ``settle`` waits for the bot's answers, ``wait_until``
for what it does by itself (deadlines); ``observers`` see what a Discord client would show.

It shards like Discord (see "shards" below): more guilds with ``add_guild``, ``shard_count`` for what
``/gateway/bot`` recommends, and each gateway connection gets only the guilds of the shard it identified as.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import mimetypes
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from playground.fake_errors import ALL_PERMISSIONS, DiscordError
from playground.fake_threads import THREAD_TYPES, FakeThreads

DISCORD_EPOCH_MS = 1420070400000
APP_ID = 900000000000000001
MANAGE_GUILD = 1 << 5
MANAGE_MESSAGES = 1 << 13
SEND_MESSAGES = 1 << 11
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)  # view, send, embed...
ACK_WINDOW = 3.0
TOKEN_LIFETIME = 15 * 60
NONCE_WINDOW = 120.0
"""Seconds a message's nonce is remembered (Discord: "the past few minutes"; the fake takes the short end)."""


@dataclass
class Interaction:
    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    created: float
    message_id: int | None = None  # the message a clicked component is on
    acked: int | None = None  # the callback type once acknowledged
    original_id: int | None = None  # the message the response created or edited
    error: DiscordError | None = None
    followups: list[int] = field(default_factory=list)
    command: str | None = None  # "play geek-out" for a slash command or its autocomplete
    choices: list[dict] | None = None  # an autocomplete's answer


class FakeDiscord(FakeThreads):
    def __init__(self, guild_id: int = 500, channels: tuple[int, ...] = (600, 601, 602), threads: tuple[int, ...] = (700,),
                 *, light: bool = False, names: dict[int, str] | None = None, check_spec: bool | None = None):
        """``check_spec``: refuse request bodies that Discord's API spec refuses (None: when ``jsonschema``, a
        dev dependency, is installed, as for the tests; a playground installed without the dev tools has none,
        and ``light`` load benchmarks run without the checks, which cost 1-2 ms of this process a message)."""
        names = names or {}
        self.guild_id = guild_id
        self.guild_name = "Fake Guild"
        self.channels = {c: {"id": str(c), "type": 0, "name": names.get(c, f"table-{c}"), "guild_id": str(guild_id),
                             "position": i, "permission_overwrites": []} for i, c in enumerate(channels)}
        self.threads = {t: {"id": str(t), "type": 11, "name": names.get(t, f"thread-{t}"), "guild_id": str(guild_id),
                            "parent_id": str(channels[0]), "owner_id": "1", "member_count": 1, "message_count": 0,
                            "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                                "archive_timestamp": "2026-01-01T00:00:00+00:00", "locked": False}}
                        for t in threads}
        self.channels.update(self.threads)
        self.bot_user = {"id": str(APP_ID), "username": "Geotable", "discriminator": "0", "global_name": None,
                         "avatar": None, "bot": True}
        self.users: dict[int, dict] = {}
        self.permissions: dict[int, int] = {}
        self.bot_permissions: dict[int, int] = {}
        self.locales: dict[int, str] = {}
        """user -> the language of their Discord client (an interaction's ``locale``; "en-US" unless set)."""
        self.guild_locales: dict[int, str] = {}
        """guild -> its preferred locale (GUILD_CREATE, an interaction's ``guild_locale``; "en-US" unless set)."""
        self.system_channels: dict[int, int] = {}
        """guild -> its system channel (where Discord posts its notices; none unless set, see ``join``)."""
        self.messages: dict[int, dict] = {}  # id -> message payload (public and ephemeral)
        self.ephemeral_of: dict[int, int] = {}  # message id -> user id it was shown to
        self.files: dict[int, bytes] = {}  # attachment id -> bytes
        self.interactions: dict[int, Interaction] = {}
        self.tokens: dict[str, Interaction] = {}
        self.commands: dict[str, dict] = {}
        self.requests: list[tuple[str, str]] = []
        self.rejections: list[DiscordError] = []
        self.spec = ApiSpec.load() if check_spec or (check_spec is None and not light and ApiSpec.available()) \
            else None
        self.invalid_bodies: list[tuple[str, str, DiscordError]] = []
        """(method, path, error) of each request whose body the spec refused: tests' fixtures fail on any."""
        self.light = light
        """True for load benchmarks: attachments are checked and sized but their bytes are not kept, and multipart
        bodies are split directly (aiohttp's part reader costs about a millisecond of this process a request)."""
        self.listeners: list = []
        """Callables ``(method, path, result, error)`` run as each REST request is answered (benchmarks time
        acknowledgements and edits with them); ``error`` is the DiscordError refused, else None."""
        self.observers: list = []
        """Callables ``(event, data)`` told what a member's Discord client would show: ``("message", message)``
        when one is posted or edited, ``("delete", message)``, ``("failed", interaction)`` when an interaction
        got no acknowledgement in 3 seconds, ``("refused", (method, path, error))`` for each refused request,
        ``("channel", thread)`` and ``("channel_delete", channel)`` (fake_threads.py)."""
        self.notifications: list[tuple[int, int]] = []
        """(user, message) for every mention that notified."""
        self.connections = 0  # gateway sessions that reached READY (a restarted bot makes a new one)
        self.shard_count = 1
        """The number of shards ``/gateway/bot`` recommends."""
        self.identified: list[tuple[int, int]] = []
        """``[shard id, shard count]`` of every gateway session that identified, in order."""
        self._shard_of: dict[web.WebSocketResponse, tuple[int, int]] = {}
        self.nonces: dict[tuple[str, str], tuple[int, float]] = {}
        """``(author id, nonce)`` -> (message id, when): the messages created with ``enforce_nonce``."""
        self.clock_offset = 0.0  # seconds added to "now" (to age tokens and messages)
        self.latency = 0.0
        """Seconds every REST request waits before it is answered (benchmarks: a real Discord's round trip)."""
        self._ids = itertools.count(1)
        self._seq = itertools.count(1)
        self._sockets: list[web.WebSocketResponse] = []
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- lifecycle -----------------------------------------------------------------------------------
    async def start(self) -> None:
        app = web.Application(client_max_size=30 * 1024 * 1024)
        app.router.add_route("*", "/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        app.router.add_get("/attachments/{id}/{filename}", self._attachment)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def _attachment(self, request: web.Request) -> web.Response:
        """An attachment's bytes, as Discord's CDN serves them."""
        data = self.files.get(int(request.match_info["id"])) if request.match_info["id"].isdigit() else None
        if data is None:
            raise web.HTTPNotFound()
        kind = mimetypes.guess_type(request.match_info["filename"])[0] or "application/octet-stream"
        return web.Response(body=data, content_type=kind)

    def assert_spec_kept(self) -> None:
        """Fails naming each request whose body Discord's API spec refused (the tests' fixtures call it at the
        end: the bot may carry on after such a refusal, Discord would not have)."""
        assert not self.invalid_bodies, "Discord's API spec refused: " + "; ".join(
            f"{method} {path}: {exc}" for method, path, exc in self.invalid_bodies)

    def now(self) -> float:
        return time.time() + self.clock_offset

    def snowflake(self) -> int:
        ms = int(self.now() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._ids) & 0x3FFFFF)

    # --- people --------------------------------------------------------------------------------------
    def add_user(self, user_id: int, name: str, *, moderator: bool = False, locale: str | None = None) -> dict:
        """A member; ``locale``: their Discord client's language (Discord's codes: "de", "es-ES"; "en-US" unless
        given)."""
        user = {"id": str(user_id), "username": name.lower(), "discriminator": "0", "global_name": name,
                "avatar": None, "bot": False}
        self.users[user_id] = user
        self.permissions[user_id] = MEMBER_PERMISSIONS | (MANAGE_GUILD | MANAGE_MESSAGES if moderator else 0)
        if locale is not None:
            self.locales[user_id] = locale
        return user

    def locale_of(self, user_id: int) -> str:
        return self.locales.get(user_id, "en-US")

    def guild_locale(self, guild_id: int | None = None) -> str:
        return self.guild_locales.get(self.guild_id if guild_id is None else guild_id, "en-US")

    async def set_guild_locale(self, locale: str, guild_id: int | None = None) -> None:
        """The server's preferred locale changes (Server Settings > Community > Overview); a connected bot
        hears of it as Discord tells it, a GUILD_UPDATE."""
        guild_id = self.guild_id if guild_id is None else guild_id
        self.guild_locales[guild_id] = locale
        for ws in self._connections_for(guild_id):
            await self._send(ws, "GUILD_UPDATE", self._guild(guild_id))
        await self.settle()

    def member(self, user_id: int) -> dict:
        return {"user": self.users[user_id], "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False, "mute": False, "flags": 0, "nick": None, "avatar": None,
                "permissions": str(self.permissions[user_id])}

    # --- gateway -------------------------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                if data["op"] == 1:
                    asyncio.ensure_future(self._heartbeat_ack(ws))
                elif data["op"] == 2:
                    shard = self._identify(ws, data["d"])
                    guilds = self.guilds_of_shard(*shard)
                    await self._send(ws, "READY", {
                        "v": 10, "user": self.bot_user, "shard": list(shard),
                        "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                        "session_id": "fake-session", "resume_gateway_url": self.gateway_url,
                        "application": {"id": str(APP_ID), "flags": 0}, "private_channels": [],
                    })
                    for guild_id in guilds:
                        await self._send(ws, "GUILD_CREATE", self._guild(guild_id))
                    self.connections += 1
                elif data["op"] == 6:
                    await ws.send_str(json.dumps({"op": 9, "d": False}))
        finally:
            if ws in self._sockets:
                self._sockets.remove(ws)
            self._shard_of.pop(ws, None)
        return ws

    @staticmethod
    async def _heartbeat_ack(ws: web.WebSocketResponse) -> None:
        """Answers a heartbeat a moment later, as over a network: an answer at once can arrive before
        discord.py's keep-alive thread has noted when it sent the heartbeat, and it then warns that it is
        41 seconds behind."""
        await asyncio.sleep(0.05)
        with contextlib.suppress(ConnectionError, RuntimeError):
            await ws.send_str(json.dumps({"op": 11}))

    def _guild(self, guild_id: int) -> dict:
        everyone = {"id": str(guild_id), "name": "@everyone", "permissions": str(MEMBER_PERMISSIONS),
                    "position": 0, "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}
        bot_member = {"user": self.bot_user, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                      "deaf": False, "mute": False, "flags": 0}
        name = self.guild_name if guild_id == self.guild_id else f"Guild {guild_id}"
        return {"id": str(guild_id), "name": name, "owner_id": "1", "roles": [everyone],
                "channels": [c for i, c in self.channels.items()
                             if i not in self.threads and self.guild_of(i) == guild_id],
                "threads": [t for i, t in self.threads.items()  # the active ones
                            if self.guild_of(i) == guild_id and not t["thread_metadata"]["archived"]],
                "members": [bot_member],
                "member_count": 1 + len(self.users), "unavailable": False, "emojis": [], "stickers": [],
                "features": [], "voice_states": [], "presences": [], "large": False, "stage_instances": [],
                "guild_scheduled_events": [], "premium_tier": 0, "preferred_locale": self.guild_locale(guild_id),
                "joined_at": "2026-01-01T00:00:00+00:00", "mfa_level": 0, "verification_level": 0,
                "explicit_content_filter": 0, "default_message_notifications": 0, "afk_timeout": 300,
                "system_channel_flags": 0, "system_channel_id": _id_or_none(self.system_channels.get(guild_id)),
                "nsfw_level": 0, "icon": None, "description": None}

    async def _send(self, ws, event: str, data: dict) -> None:
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": next(self._seq), "d": data}))

    async def dispatch(self, event: str, data: dict) -> None:
        """Sends a gateway event to the connection of its guild's shard (none connected: it is lost, as a
        click on Discord fails while the bot is away)."""
        if not self._sockets:
            raise RuntimeError("no bot is connected to the fake gateway")
        for ws in self._connections_for(int(data["guild_id"]) if data.get("guild_id") else None):
            await self._send(ws, event, data)

    # --- shards --------------------------------------------------------------------------------------
    def add_guild(self, guild_id: int, channels: tuple[int, ...]) -> None:
        """Another guild the bot is in, with its text channels."""
        first = len(self.channels)
        self.channels.update({c: {"id": str(c), "type": 0, "name": f"table-{c}", "guild_id": str(guild_id),
                                  "position": first + i, "permission_overwrites": []}
                              for i, c in enumerate(channels)})

    async def join(self, guild_id: int, channels: tuple[int, ...], *, system_channel: int | None = None,
                   locale: str = "en-US", may_send: bool = True) -> None:
        """Someone adds the bot to a new server: Discord sends the bot's session a GUILD_CREATE without
        ``unavailable`` (the ones at a start, for servers READY listed, say ``"unavailable": false``: that is how
        a client tells a join from a server coming back). ``system_channel``: one of ``channels``, where Discord
        posts its own notices; ``may_send=False`` denies everyone (and so the bot) sending there."""
        self.add_guild(guild_id, channels)
        self.guild_locales[guild_id] = locale
        if system_channel is not None:
            self.system_channels[guild_id] = system_channel
            if not may_send:
                self.channels[system_channel]["permission_overwrites"] = [
                    {"id": str(guild_id), "type": 0, "allow": "0", "deny": str(SEND_MESSAGES)}]
        data = self._guild(guild_id)
        del data["unavailable"]
        for ws in self._connections_for(guild_id):
            await self._send(ws, "GUILD_CREATE", data)
        await self.settle()

    def guild_of(self, channel_id: int) -> int:
        return int(self.channels[channel_id]["guild_id"])

    def guilds_of_shard(self, shard_id: int, shard_count: int) -> list[int]:
        """The guilds Discord sends a session identified as ``[shard_id, shard_count]``."""
        guilds = dict.fromkeys(self.guild_of(c) for c in self.channels)
        return [g for g in guilds if (g >> 22) % shard_count == shard_id]

    def _identify(self, ws: web.WebSocketResponse, identify: dict) -> tuple[int, int]:
        shard_id, shard_count = identify.get("shard") or (0, 1)  # an unsharded client is shard 0 of 1
        self._shard_of[ws] = (shard_id, shard_count)
        self.identified.append((shard_id, shard_count))
        return shard_id, shard_count

    def _connections_for(self, guild_id: int | None) -> list[web.WebSocketResponse]:
        """The newest identified connection of each shard the guild is on (every one when no guild)."""
        newest = {}
        for ws in self._sockets:
            shard = self._shard_of.get(ws)
            if shard is not None and (guild_id is None or (guild_id >> 22) % shard[1] == shard[0]):
                newest[shard] = ws
        return list(newest.values())

    # --- REST ----------------------------------------------------------------------------------------
    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        method = request.method
        self.requests.append((method, path))
        if self.latency:
            await asyncio.sleep(self.latency)
        try:
            payload, uploads = await self._read(request)
            if self.spec is not None:
                try:
                    self.spec.check(method, path, payload)
                except DiscordError as exc:
                    self.invalid_bodies.append((method, path, exc))
                    raise
            result = await self._route(method, path, payload, uploads, request)
        except DiscordError as exc:
            self.rejections.append(exc)
            for listener in self.listeners:
                listener(method, path, None, exc)
            self._tell("refused", (method, path, exc))
            body = {"code": exc.code, "message": exc.message} | ({"errors": exc.errors} if exc.errors else {})
            return web.Response(status=exc.status, body=json.dumps(body), content_type="application/json")
        for listener in self.listeners:
            listener(method, path, result, None)
        if result is None:
            return web.Response(status=204)
        return web.Response(status=200, body=json.dumps(result), content_type="application/json")

    async def _read(self, request: web.Request) -> tuple[Any, dict[str, bytes]]:
        uploads: dict[str, bytes] = {}
        if request.content_type.startswith("multipart/") and self.light:
            return _split_multipart(await request.read(), request.headers.get("Content-Type", ""))
        if request.content_type.startswith("multipart/"):
            payload = None
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                else:
                    uploads[part.name] = bytes(await part.read())
            return payload, uploads
        body = await request.read()
        return (json.loads(body) if body else None), uploads

    async def _route(self, method: str, path: str, payload, uploads, request) -> Any:
        parts = path.strip("/").split("/")
        if path == "/users/@me":
            return self.bot_user
        if path == "/oauth2/applications/@me":
            return {"id": str(APP_ID), "name": "Geotable", "icon": None, "description": "", "rpc_origins": [],
                    "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
                    "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None},
                    "flags": 0, "summary": "", "team": None}
        if parts[0] == "gateway":
            return {"url": self.gateway_url, "shards": self.shard_count,
                    "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0,
                                            "max_concurrency": 16}}
        if parts[0] == "applications" and parts[-1] == "commands":
            if method == "PUT":
                check_commands(payload)
                self.commands = {}
                out = []
                for cmd in payload:
                    cmd = dict(cmd, id=str(self.snowflake()), application_id=str(APP_ID), version="1")
                    self.commands[cmd["name"]] = cmd
                    out.append(cmd)
                return out
            return list(self.commands.values())
        if parts[0] == "interactions" and parts[-1] == "callback":
            await self._callback_in_thread(int(parts[1]), (payload or {}).get("type"))
            return self._callback(int(parts[1]), parts[2], payload, uploads)
        if parts[0] == "webhooks":
            await self._webhook_in_thread(method, parts[2], parts[3:])
            return self._webhook(method, parts[2], parts[3:], payload, uploads)
        if parts[0] == "channels":
            channel_id = int(parts[1])
            if channel_id not in self.channels:
                raise DiscordError(404, 10003, "Unknown Channel")
            if len(parts) == 2 and method == "PATCH":
                return await self._edit_channel(channel_id, payload)
            if len(parts) == 2 and method == "DELETE" and self.channels[channel_id]["type"] in THREAD_TYPES:
                thread = self.channels.pop(channel_id)  # the bot deletes a thread (e.g. one it made twice)
                self.threads.pop(channel_id, None)
                self._drop_messages(channel_id)
                self._tell("channel_delete", thread)
                await self._event("THREAD_DELETE", {"id": str(channel_id), "guild_id": thread["guild_id"],
                                                      "parent_id": thread["parent_id"], "type": thread["type"]})
                return thread
            if len(parts) == 2:
                return self.channels[channel_id]
            if len(parts) == 3 and parts[2] == "threads" and method == "POST":
                return await self._start_thread(channel_id, payload, uploads)
            if parts[2] == "messages":
                if len(parts) == 3 and method == "POST":
                    await self._before_post(channel_id)
                    sent = self._sent_with_nonce(payload, self.bot_user)
                    if sent is not None:
                        return sent
                    message = self._create(channel_id, payload, uploads, author=self.bot_user)
                    self._remember_nonce(payload, message)
                    return message
                if len(parts) == 3 and method == "GET":
                    msgs = [m for m in self.messages.values()
                            if int(m["channel_id"]) == channel_id and int(m["id"]) not in self.ephemeral_of]
                    return sorted(msgs, key=lambda m: -int(m["id"]))[: int(request.query.get("limit", 50))]
                message_id = int(parts[3])
                message = self.messages.get(message_id)
                if message is None or int(message["channel_id"]) != channel_id or message_id in self.ephemeral_of:
                    raise DiscordError(404, 10008, "Unknown Message")
                if method == "GET":
                    return message
                if method == "PATCH":
                    if message["author"]["id"] != self.bot_user["id"]:
                        raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
                    self._before_edit(channel_id)
                    return self._edit(message, payload, uploads)
                if method == "DELETE":
                    self._tell("delete", self.messages.pop(message_id))
                    return None
        raise DiscordError(404, 0, f"404: Not Found ({method} {path})")

    # --- interactions --------------------------------------------------------------------------------
    async def _callback_in_thread(self, interaction_id: int, kind: int | None) -> None:
        """An interaction's response in a thread: a new message (4, 5) as a message posted there, an update of
        the clicked message (7) as an edit there (fake_threads.py)."""
        it = self.interactions.get(interaction_id)
        if it is None or it.acked is not None:
            return  # refused by ``_callback`` as before
        if kind in (4, 5):
            await self._before_post(it.channel_id)
        elif kind == 7:
            self._before_edit(it.channel_id)

    async def _webhook_in_thread(self, method: str, token: str, rest: list[str]) -> None:
        it = self.tokens.get(token)
        if it is None or self.now() - it.created > TOKEN_LIFETIME:
            return  # refused by ``_webhook`` as before
        if not rest and method == "POST":
            await self._before_post(it.channel_id)
        elif method == "PATCH":
            self._before_edit(it.channel_id)

    def _callback(self, interaction_id: int, token: str, payload: dict, uploads) -> dict:
        it = self.interactions.get(interaction_id)
        if it is None or it.token != token:
            raise DiscordError(404, 10062, "Unknown interaction")
        if it.acked is not None:
            it.error = DiscordError(400, 40060, "Interaction has already been acknowledged.")
            raise it.error
        if self.now() - it.created > ACK_WINDOW:
            it.error = DiscordError(404, 10062, "Unknown interaction")
            raise it.error
        kind = payload["type"]
        data = payload.get("data") or {}
        if kind in (6, 7) and it.type != 3:
            raise DiscordError(400, 50035, "Invalid Form Body: update types need a component interaction")
        if (kind == 8) != (it.type == 4):
            raise DiscordError(400, 50035, "Invalid Form Body: an autocomplete is answered with choices (type 8), "
                                           "and only an autocomplete")
        message = None
        if kind in (4, 5):
            if kind == 5:
                data = {"content": "", "flags": data.get("flags", 0) | 128}
            message = self._create(it.channel_id, data, uploads, author=self.bot_user, interaction=it)
            it.original_id = int(message["id"])
        elif kind == 6:
            it.original_id = it.message_id
        elif kind == 7:
            message = self._edit(self.messages[it.message_id], data, uploads)
            it.original_id = it.message_id
        elif kind == 8:
            choices = data.get("choices") or []
            if len(choices) > 25 or any(len(c["name"]) > 100 for c in choices):
                raise DiscordError(400, 50035, "Invalid Form Body: at most 25 choices of at most 100 characters")
            it.choices = choices
        elif kind != 9:
            raise DiscordError(400, 50035, f"Invalid Form Body: unknown callback type {kind}")
        it.acked = kind
        response = {"interaction": {"id": str(it.id), "type": it.type, "response_message_id":
                                    str(it.original_id) if it.original_id else None,
                                    "response_message_loading": kind == 5,
                                    "response_message_ephemeral": bool(message and int(message["id"]) in
                                                                       self.ephemeral_of)}}
        if message is not None:
            response["resource"] = {"type": kind, "message": message}
        return response

    def _webhook(self, method: str, token: str, rest: list[str], payload, uploads) -> Any:
        it = self.tokens.get(token)
        if it is None or self.now() - it.created > TOKEN_LIFETIME:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        if not rest:  # POST a followup
            if it.acked is None:
                raise DiscordError(400, 40060, "Interaction has not been acknowledged.")
            message = self._create(it.channel_id, payload, uploads, author=self.bot_user, interaction=it)
            it.followups.append(int(message["id"]))
            return message
        target = rest[1]
        if target == "@original":
            if it.original_id is None:
                raise DiscordError(404, 10008, "Unknown Message")
            message_id = it.original_id
        else:
            message_id = int(target)
        message = self.messages.get(message_id)
        if message is None:
            raise DiscordError(404, 10008, "Unknown Message")
        if method == "GET":
            return message
        if method == "DELETE":
            self._tell("delete", self.messages.pop(message_id))
            return None
        loading = message.get("flags", 0) & 128  # a deferred answer's first edit is its content, not an edit
        message["flags"] = message.get("flags", 0) & ~128
        return self._edit(message, payload, uploads, edited=not loading)

    # --- messages ------------------------------------------------------------------------------------
    def _sent_with_nonce(self, payload: dict | None, author: dict) -> dict | None:
        """Discord's ``enforce_nonce``: a message created by the same author with the same nonce in the last few
        minutes (``NONCE_WINDOW``) is answered again instead of creating another (discord.py sends
        ``enforce_nonce`` with every message; a nonce is an integer or a string of at most 25 characters)."""
        nonce = (payload or {}).get("nonce")
        if nonce is None:
            return None
        if isinstance(nonce, str) and len(nonce) > 25:
            raise _field_error(["nonce"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
        if not (payload or {}).get("enforce_nonce"):
            return None
        seen = self.nonces.get((author["id"], str(nonce)))
        if seen is None or self.now() - seen[1] > NONCE_WINDOW or seen[0] not in self.messages:
            return None
        return self.messages[seen[0]]

    def _remember_nonce(self, payload: dict | None, message: dict) -> None:
        nonce = (payload or {}).get("nonce")
        if nonce is not None and (payload or {}).get("enforce_nonce"):
            self.nonces[(message["author"]["id"], str(nonce))] = (int(message["id"]), self.now())

    def _create(self, channel_id: int, payload: dict, uploads, *, author: dict,
                interaction: Interaction | None = None, message_id: int | None = None) -> dict:
        payload = payload or {}
        check_message(payload, uploads)
        message_id = message_id or self.snowflake()
        message = {
            "id": str(message_id), "channel_id": str(channel_id), "guild_id": str(self.guild_of(channel_id)),
            "author": author,
            "content": "", "timestamp": _iso(self.now()), "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [], "embeds": [],
            "components": [], "pinned": False, "type": 0 if interaction is None else 20, "flags": 0,
        }
        if interaction is not None:
            message["application_id"] = str(APP_ID)
            message["webhook_id"] = str(APP_ID)
            user = self.users[interaction.user_id]
            message["interaction_metadata"] = {"id": str(interaction.id), "type": interaction.type, "user": user,
                                               "authorizing_integration_owners": {"0": str(self.guild_of(channel_id))}}
            if interaction.message_id is not None:
                message["interaction_metadata"]["interacted_message_id"] = str(interaction.message_id)
            if interaction.command is not None:  # what Discord's client shows as "Ana used /play geek-out"
                message["interaction"] = {"id": str(interaction.id), "type": interaction.type,
                                          "name": interaction.command, "user": user}
        self._apply(message, payload, uploads)
        message["flags"] = payload.get("flags", 0) or 0
        message["mentions"] = [self.users[u] for u in self._notified(payload) if u in self.users]
        self.notifications += [(u, message_id) for u in self._notified(payload)]
        if interaction is not None and message["flags"] & 64:
            self.ephemeral_of[message_id] = interaction.user_id
        self.messages[message_id] = message
        self._tell("message", message)
        return message

    @staticmethod
    def _notified(payload: dict) -> list[int]:
        """Users a new message notifies: mentions in its content (never in embeds), as allowed_mentions lets
        them through (without allowed_mentions every mention notifies). Edits notify nobody."""
        mentioned = [int(u) for u in re.findall(r"<@!?(\d+)>", payload.get("content") or "")]
        allowed = payload.get("allowed_mentions")
        if allowed is None or "users" in (allowed.get("parse") or []):
            return mentioned
        return [u for u in mentioned if str(u) in [str(x) for x in allowed.get("users") or []]]

    def _edit(self, message: dict, payload: dict, uploads, *, edited: bool = True) -> dict:
        check_message(payload or {}, uploads, editing=True, current=message)
        self._apply(message, payload or {}, uploads)
        had = message.get("flags") or 0
        if (payload or {}).get("flags") is not None:  # an edit sets SUPPRESS_EMBEDS and IS_COMPONENTS_V2 only
            message["flags"] = had & ~4 | payload["flags"] & (4 | IS_COMPONENTS_V2)
        if message["flags"] & IS_COMPONENTS_V2:  # a message converted to V2 has no content or embeds left
            message["content"], message["embeds"] = "", []
        if edited:
            message["edited_timestamp"] = _iso(self.now())
        self._tell("message", message)
        return message

    def _apply(self, message: dict, payload: dict, uploads: dict[str, bytes]) -> None:
        for key in ("content", "embeds", "components"):
            if key in payload and payload[key] is not None:
                message[key] = payload[key]
        if "attachments" in payload or uploads:
            kept = []
            existing = {a["id"]: a for a in message["attachments"]}
            for i, att in enumerate(payload.get("attachments") or []):
                if str(att.get("id")) in existing:
                    kept.append(existing[str(att["id"])])
                    continue
                data = uploads.get(f"files[{att.get('id', i)}]")
                if data is None:
                    raise DiscordError(400, 50035, "Invalid Form Body: attachment without an uploaded file")
                attachment_id = self.snowflake()
                if not self.light:
                    self.files[attachment_id] = data
                filename = att.get("filename", "file")
                url = f"http://127.0.0.1:{self.port}/attachments/{attachment_id}/{filename}"
                kept.append({"id": str(attachment_id), "filename": filename, "size": len(data), "url": url,
                             "proxy_url": url, "content_type": mimetypes.guess_type(filename)[0]})
            message["attachments"] = kept

    # --- the driver ----------------------------------------------------------------------------------
    def _interaction(self, kind: int, user_id: int, channel_id: int, data: dict,
                     message: dict | None = None) -> tuple[Interaction, dict]:
        it = Interaction(self.snowflake(), f"tok{next(self._ids)}x" + "a" * 40, kind, user_id, channel_id,
                         self.now(), int(message["id"]) if message else None)
        self.interactions[it.id] = it
        self.tokens[it.token] = it
        guild_id = self.guild_of(channel_id)
        payload = {
            "id": str(it.id), "application_id": str(APP_ID), "type": kind, "token": it.token, "version": 1,
            "guild_id": str(guild_id), "channel_id": str(channel_id), "channel": self.channels[channel_id],
            "member": self.member(user_id), "app_permissions": str(self.bot_may(channel_id)), "locale": self.locale_of(user_id),
            "guild_locale": self.guild_locale(guild_id), "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0, "attachment_size_limit": 10 * 1024 * 1024, "data": data,
        }
        if message is not None:
            payload["message"] = message
        return it, payload

    async def _dispatch_interaction(self, it: Interaction, payload: dict) -> None:
        """Dispatches an interaction; observers hear of it when no acknowledgement came in time."""
        if self.observers:
            asyncio.get_running_loop().call_later(ACK_WINDOW + 0.1, self._check_answered, it)
        await self.dispatch("INTERACTION_CREATE", payload)

    def _check_answered(self, it: Interaction) -> None:
        if it.acked is None:  # Discord's client now says "This interaction failed"
            self._tell("failed", it)

    def _tell(self, event: str, data) -> None:
        for observer in self.observers:
            observer(event, data)

    def _command_data(self, channel_id: int, name: str, path: tuple[str, ...], options: dict,
                      focused: str | None = None) -> dict:
        """An application command's interaction data, as Discord's client builds it from what the user typed;
        it refuses what that client refuses: a missing required option, a value of the wrong type, out of range
        or not among the choices (an autocomplete's partial input is not checked)."""
        command = self.commands.get(name)
        if command is None:
            raise AssertionError(f"/{name} was never synced; commands: {sorted(self.commands)}")
        resolved: dict = {}
        spec = command
        for sub in path:
            spec = next((o for o in spec.get("options", []) if o["name"] == sub and o["type"] in (1, 2)), None)
            if spec is None:
                raise AssertionError(f"/{name} has no subcommand {' '.join(path)}")
        if focused is None:
            for opt_spec in spec.get("options", []):
                if opt_spec.get("required") and opt_spec["name"] not in options:
                    raise DiscordError(400, 50035, f"Invalid option {opt_spec['name']}: required")
        typed = []
        for opt_name, value in options.items():
            opt_spec = next((o for o in spec.get("options", []) if o["name"] == opt_name), None)
            if opt_spec is None:
                raise AssertionError(f"/{name} {' '.join(path)} has no option {opt_name}")
            kind = opt_spec["type"]
            if opt_name == focused:
                typed.append({"name": opt_name, "type": kind, "value": str(value), "focused": True})
                continue
            _check_option(opt_spec, value)
            if kind in (6, 7):
                value = int(value)
            if kind == 6:
                resolved.setdefault("users", {})[str(value)] = self.users[value]
                member = self.member(value)
                member.pop("user")
                resolved.setdefault("members", {})[str(value)] = member
                value = str(value)
            elif kind == 7:
                if opt_spec.get("channel_types") and self.channels[value]["type"] not in opt_spec["channel_types"]:
                    raise DiscordError(400, 50035, f"Invalid option {opt_name}: not a kind of channel it offers")
                resolved.setdefault("channels", {})[str(value)] = dict(self.channels[value],
                                                                       permissions=str(ALL_PERMISSIONS))
                value = str(value)
            typed.append({"name": opt_name, "type": kind, "value": value})
        for depth, sub in enumerate(reversed(path)):
            typed = [{"name": sub, "type": 1 if depth == 0 else 2, "options": typed}]
        data = {"id": command["id"], "name": name, "type": 1, "options": typed,
                "guild_id": str(self.guild_of(channel_id))}
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(self, user_id: int, channel_id: int, name: str, /, *path: str, settle: bool = True,
                    **options) -> Interaction:
        """Runs ``/name [path...] option=value``; members and channels are passed as ids (int or str)."""
        data = self._command_data(channel_id, name, path, options)
        it, payload = self._interaction(2, user_id, channel_id, data)
        it.command = " ".join((name, *path))
        await self._dispatch_interaction(it, payload)
        if settle:
            await self.settle()
        return it

    async def autocomplete(self, user_id: int, channel_id: int, name: str, /, *path: str, focused: str,
                           **options) -> list[dict]:
        """What Discord's client offers while the user types option ``focused`` of ``/name [path...]``: an
        autocomplete interaction (type 4), answered with up to 25 choices (callback type 8). Works with a bot
        in another process too; [] when no answer came within Discord's 3 seconds."""
        data = self._command_data(channel_id, name, path, options, focused=focused)
        it, payload = self._interaction(4, user_id, channel_id, data)
        it.command = " ".join((name, *path))
        await self.dispatch("INTERACTION_CREATE", payload)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ACK_WINDOW
        while it.acked is None and it.error is None and loop.time() < deadline:
            await asyncio.sleep(0.01)
        return it.choices or []

    async def interact(self, user_id: int, message: dict | int, custom_id: str, values: list[str] | None = None,
                       *, settle: bool = True) -> Interaction:
        """A component interaction as Discord's client sends it: the ``custom_id`` (and a menu's chosen
        ``values``) the user's screen showed, with the message as it is now (``message`` may be a copy taken
        earlier: a screen that had not refreshed yet)."""
        message_id = message if isinstance(message, int) else int(message["id"])
        current = self.messages.get(message_id, message)
        if isinstance(current, int):
            raise DiscordError(404, 10008, "Unknown Message")
        data = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
        if values is not None:
            data["values"] = values
        it, payload = self._interaction(3, user_id, int(current["channel_id"]), data, current)
        await self._dispatch_interaction(it, payload)
        if settle:
            await self.settle()
        return it

    async def interact_together(self, clicks: list[tuple[int, dict, str]], *, settle: bool = True) -> list[Interaction]:
        """Component interactions of several users at the same moment: ``(user, message, custom_id)`` each,
        all built first (as their screens showed them) and sent on the gateway back to back, before the bot
        answers any of them (two players clicking within the same millisecond)."""
        built = []
        for user_id, message, custom_id in clicks:
            current = self.messages.get(int(message["id"]), message)
            data = {"custom_id": custom_id, "component_type": 2}
            built.append(self._interaction(3, user_id, int(current["channel_id"]), data, current))
        await asyncio.gather(*(self._dispatch_interaction(it, payload) for it, payload in built))
        if settle:
            await self.settle()
        return [it for it, _ in built]

    async def click(self, user_id: int, message: dict | int, label: str | None = None, *,
                    custom_id: str | None = None, settle: bool = True) -> Interaction:
        """Clicks the button with ``label`` (or ``custom_id``) on ``message``, as the user would.

        Pass a copy of a message taken earlier (``snapshot``) to click a board as a user whose screen had
        not refreshed yet saw it."""
        if isinstance(message, int):
            message = self.messages[message]
        button = self.find_component(message, label=label, custom_id=custom_id, kind=2)
        return await self.interact(user_id, message, button["custom_id"], settle=settle)

    async def click_forged(self, user_id: int, message: dict, custom_id: str) -> Interaction:
        """A click carrying a custom_id we put on a copy of the message (a forged or malformed one)."""
        forged = snapshot(message)
        forged["components"] = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Forged",
                                                            "custom_id": custom_id}]}]
        return await self.click(user_id, forged, custom_id=custom_id)

    async def select(self, user_id: int, message: dict | int, value: str, *, custom_id: str | None = None,
                     settle: bool = True) -> Interaction:
        message = self.messages[int(message)] if isinstance(message, int) else self.messages[int(message["id"])]
        menu = self.find_component(message, custom_id=custom_id, kind=3, value=value)
        return await self.interact(user_id, message, menu["custom_id"], [value], settle=settle)

    async def say(self, user_id: int, channel_id: int, text: str, *, settle: bool = True) -> dict:
        """A member posts a plain message (the bot sees MESSAGE_CREATE; it reads no content)."""
        message = self._create(channel_id, {"content": text}, {}, author=self.users[user_id])
        event = dict(message, member={k: v for k, v in self.member(user_id).items() if k != "user"})
        await self.dispatch("MESSAGE_CREATE", event)
        if settle:
            await self.settle()
        return message

    def find_component(self, message: dict, *, label=None, custom_id=None, kind=2, value=None) -> dict:
        """A button or menu of the message, wherever it sits (an action row, a V2 container's rows, a section's
        accessory)."""
        found = list(interactive(message.get("components") or []))
        for comp in found:
            if comp["type"] != kind:
                continue
            if custom_id is not None and comp.get("custom_id") == custom_id:
                return comp
            if label is not None and comp.get("label", "").startswith(label):
                return comp
            if value is not None and any(o["value"] == value for o in comp.get("options", [])):
                return comp
        labels = [c.get("label") or c.get("placeholder") for c in found]
        raise AssertionError(f"no component {label or custom_id or value!r} on the message; it has {labels}")

    def messages_in(self, channel_id: int) -> list[dict]:
        """Public messages of a channel, in the order they were posted."""
        return [m for i, m in self.messages.items() if int(m["channel_id"]) == channel_id and i not in self.ephemeral_of]

    def ephemerals(self, user_id: int) -> list[dict]:
        return [self.messages[i] for i, u in self.ephemeral_of.items() if u == user_id and i in self.messages]

    def replies_to(self, it: Interaction) -> list[dict]:
        ids = ([it.original_id] if it.original_id and it.acked in (4, 5) else []) + it.followups
        return [self.messages[i] for i in ids if i in self.messages]

    async def settle(self, timeout: float = 60.0) -> None:
        """Waits until the bot has finished handling everything sent so far: no new task is running."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        await asyncio.sleep(0.01)
        while loop.time() < deadline:
            pending = self._busy()
            if not pending:
                await asyncio.sleep(0.01)
                pending = self._busy()
                if not pending:
                    return
            await asyncio.wait(pending, timeout=0.05)
        names = [t.get_name() + ":" + repr(t.get_coro())[:80] for t in pending]
        raise AssertionError(f"the bot did not settle in time; still running: {names}")

    async def wait_until(self, condition, timeout: float = 120.0, *, what: str = "") -> None:
        """Waits until ``condition()`` holds, for what the bot does by itself and ``settle`` cannot see: a
        deadline its timer loop fires, a bot in another process, a message or edit yet to come. It checks as
        each request of the bot is answered (what posts, edits or deletes a message) and every 50 ms.
        ``timeout`` is generous on purpose: a busy machine just takes longer, and only a bot that never gets
        there reaches it (an AssertionError naming ``what``)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        changed = asyncio.Event()

        def wake(*_args) -> None:
            changed.set()

        self.listeners.append(wake)
        try:
            while not condition():
                if loop.time() > deadline:
                    raise AssertionError(f"waited {timeout:g} s in vain for {what or 'the condition'}")
                changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), 0.05)
        finally:
            self.listeners.remove(wake)

    baseline_tasks: set = set()

    def _busy(self) -> list[asyncio.Task]:
        """The bot's tasks still at work. The fake's own keep-alive connection handlers don't count: a
        request in flight always has a bot task waiting for its answer."""
        me = asyncio.current_task()
        return [t for t in asyncio.all_tasks()
                if not t.done() and t is not me and t not in self.baseline_tasks
                and "RequestHandler.start" not in repr(t.get_coro())]

    def mark_baseline(self) -> None:
        """Long-lived tasks (gateway reader, heartbeats, timers) that ``settle`` must not wait for."""
        self.baseline_tasks = {t for t in asyncio.all_tasks() if not t.done()}


# --- Discord's limits ------------------------------------------------------------------------------------
IS_COMPONENTS_V2 = 1 << 15
V2_TOP = {1, 9, 10, 12, 13, 14, 17}
"""What a V2 message may hold at its top: action row, section, text display, media gallery, file, separator,
container."""
V2_IN_CONTAINER = {1, 9, 10, 12, 13, 14}
SELECTS = {3, 5, 6, 7, 8}


def _field_error(path: list, code: str, message: str) -> DiscordError:
    """Discord's 50035 with the field's error at ``path`` (as ``{"components": {"0": {"_errors": [...]}}}``)."""
    errors: dict = {"_errors": [{"code": code, "message": message}]}
    for key in reversed(path):
        errors = {str(key): errors}
    return DiscordError(400, 50035, f"Invalid Form Body: {message}", errors)


def check_v2(payload: dict, current: dict | None = None) -> None:
    """A Components V2 message (flag IS_COMPONENTS_V2), as Discord checks it: no content or embeds (nor left
    over on a classic message being converted), at most 40 components counting nested ones, at most 4,000
    characters of text displays in all, each kind where it may sit (an action row of 1-5 buttons or 1 select,
    a section of 1-3 text displays and one button or thumbnail accessory, a media gallery of 1-10 items, no
    container in a container), unique component ids."""
    legacy = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"
    for key in ("content", "embeds", "sticker_ids", "poll"):
        value = payload[key] if key in payload else (current or {}).get(key)
        if value:
            raise _field_error([key], legacy, f"The '{key}' field cannot be used when using "
                                              f"MessageFlags.IS_COMPONENTS_V2")
    top = payload.get("components") if "components" in payload else (current or {}).get("components")
    if not top:
        raise DiscordError(400, 50006, "Cannot send an empty message")
    tally = {"total": 0, "chars": 0, "ids": set()}
    for i, item in enumerate(top):
        _check_v2_item(item, tally, ["components", i], V2_TOP)
    total, chars = tally["total"], tally["chars"]
    if total > 40:
        raise _field_error(["components"], "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
                           f"The message has {total} components; at most 40 are allowed")
    if chars > 4000:
        raise _field_error(["components"], "COMPONENT_MAX_TEXT_LENGTH_EXCEEDED",
                           f"The text displays hold {chars} characters; at most 4000 are allowed")


def _check_v2_item(item: dict, tally: dict, path: list, allowed: set[int]) -> None:
    """One component of a V2 message and those inside it (``check_v2``); ``tally``: the totals so far."""
    kind = item.get("type")
    tally["total"] += 1
    if kind not in allowed:
        raise _field_error(path, "UNION_TYPE_CHOICES", f"Component type {kind} is not allowed here")
    if item.get("id") is not None:
        if item["id"] in tally["ids"]:
            raise _field_error(path + ["id"], "COMPONENT_DUPLICATE_ID", "Component ids must be unique")
        tally["ids"].add(item["id"])
    children = item.get("components") or []
    if kind == 1:
        buttons = [c for c in children if c.get("type") == 2]
        menus = [c for c in children if c.get("type") in SELECTS]
        if not children or len(buttons) + len(menus) != len(children) or (menus and len(children) > 1) \
                or len(buttons) > 5:
            raise _field_error(path + ["components"], "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                               "An action row holds 1 to 5 buttons or one select menu")
        for i, c in enumerate(children):
            _check_v2_item(c, tally, path + ["components", i], {2} | SELECTS)
    elif kind == 9:
        if not 1 <= len(children) <= 3:
            raise _field_error(path + ["components"], "BASE_TYPE_BAD_LENGTH",
                               "A section holds 1 to 3 text displays")
        for i, c in enumerate(children):
            _check_v2_item(c, tally, path + ["components", i], {10})
        accessory = item.get("accessory")
        if not accessory:
            raise _field_error(path + ["accessory"], "BASE_TYPE_REQUIRED", "A section needs an accessory")
        _check_v2_item(accessory, tally, path + ["accessory"], {2, 11})
    elif kind == 17:
        if not children:
            raise _field_error(path + ["components"], "BASE_TYPE_BAD_LENGTH", "A container holds components")
        for i, c in enumerate(children):
            _check_v2_item(c, tally, path + ["components", i], V2_IN_CONTAINER)
    elif kind == 10:
        tally["chars"] += len(item.get("content") or "")
    elif kind == 12:
        items = item.get("items") or []
        if not 1 <= len(items) <= 10:
            raise _field_error(path + ["items"], "BASE_TYPE_BAD_LENGTH", "A media gallery holds 1 to 10 items")
        for i, media in enumerate(items):
            if len(media.get("description") or "") > 1024:
                raise _field_error(path + ["items", i, "description"], "BASE_TYPE_MAX_LENGTH",
                                   "Must be 1024 or fewer in length.")
    elif kind == 11 and len(item.get("description") or "") > 1024:
        raise _field_error(path + ["description"], "BASE_TYPE_MAX_LENGTH", "Must be 1024 or fewer in length.")


def check_message(payload: dict, uploads: dict[str, bytes], editing: bool = False,
                  current: dict | None = None) -> None:
    """``current``: the message an edit changes (its flag IS_COMPONENTS_V2 stays: an edit may set it, never
    clear it)."""
    def bad(why: str):
        raise DiscordError(400, 50035, f"Invalid Form Body: {why}")

    was_v2 = bool(current and (current.get("flags") or 0) & IS_COMPONENTS_V2)
    flags = payload.get("flags")
    if was_v2 and flags is not None and not flags & IS_COMPONENTS_V2:
        raise _field_error(["flags"], "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                           "The IS_COMPONENTS_V2 flag cannot be removed from a message")
    v2 = was_v2 or bool((flags or 0) & IS_COMPONENTS_V2)
    if v2:
        check_v2(payload, current)
        _check_interactive(payload, bad)
        for data in uploads.values():
            if len(data) > 10 * 1024 * 1024:
                raise DiscordError(413, 40005, "Request entity too large")
        return
    if len(payload.get("content") or "") > 2000:
        bad("content longer than 2000")
    embeds = payload.get("embeds") or []
    if len(embeds) > 10:
        bad("more than 10 embeds")
    total = 0
    for e in embeds:
        for key, limit in (("title", 256), ("description", 4096)):
            if len(e.get(key) or "") > limit:
                bad(f"embed {key} longer than {limit}")
            total += len(e.get(key) or "")
        for f in e.get("fields", []):
            total += len(f.get("name", "")) + len(f.get("value", ""))
        total += len((e.get("footer") or {}).get("text", ""))
    if total > 6000:
        bad("embeds longer than 6000 in all")
    rows = payload.get("components") or []
    if len(rows) > 5:
        bad("more than 5 action rows")
    for row in rows:
        if row.get("type") != 1:
            bad("top-level component is not an action row")
        comps = row.get("components", [])
        if not comps or len(comps) > 5:
            bad("an action row holds 1 to 5 components")
        if any(c["type"] == 3 for c in comps) and len(comps) > 1:
            bad("a select menu must be alone in its row")
    _check_interactive(payload, bad)
    for data in uploads.values():
        if len(data) > 10 * 1024 * 1024:
            raise DiscordError(413, 40005, "Request entity too large")


def _check_interactive(payload: dict, bad) -> None:
    """The buttons and menus of a message, wherever they sit: custom_ids, labels, options."""
    seen = set()
    for c in interactive(payload.get("components") or []):
        cid = c.get("custom_id")
        if c["type"] == 2 and c.get("style") != 5 and not cid:
            bad("button without custom_id")
        if cid is not None:
            if len(cid) > 100:
                bad("custom_id longer than 100")
            if cid in seen:
                bad("duplicate custom_id")
            seen.add(cid)
        if len(c.get("label") or "") > 80:
            bad("button label longer than 80")
        if c["type"] == 3:
            opts = c.get("options", [])
            if not 1 <= len(opts) <= 25:
                bad("a select menu has 1 to 25 options")
            if len({o["value"] for o in opts}) != len(opts):
                bad("duplicate select option value")
            for o in opts:
                if len(o["label"]) > 100 or len(o["value"]) > 100:
                    bad("select option longer than 100")


_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


_LOCALE = re.compile(r"^[a-z]{2}(-[A-Z0-9]{2,3})?$")


def check_commands(commands: list[dict]) -> None:
    """What Discord refuses in a bulk overwrite of application commands: names of 1-32 lower-case word
    characters or dashes, in English and in every language of ``name_localizations``, unique among siblings
    in each language; descriptions of 1-100 characters (commands, subcommands, options; and each of
    ``description_localizations``); at most 25 options and 25 choices, each choice's name (and its
    localizations) 1-100 characters."""
    def bad(why: str):
        raise DiscordError(400, 50035, f"Invalid Form Body: {why}")

    def localized(item: dict, key: str, path: str) -> dict:
        found = item.get(key) or {}
        for locale in found:
            if not _LOCALE.match(locale):
                bad(f"{path}: {key} has no locale {locale!r}")
        return found

    def check(item: dict, path: str) -> None:
        names = {"": item.get("name", ""), **localized(item, "name_localizations", path)}
        for locale, name in names.items():
            if not _COMMAND_NAME.match(name) or name != name.lower():
                bad(f"{path}: {locale or 'name'} {name!r}")
        descriptions = [item.get("description", ""), *localized(item, "description_localizations", path).values()]
        if not all(1 <= len(d) <= 100 for d in descriptions):
            bad(f"{path}: description must be 1-100 characters")
        choices = item.get("choices") or []
        texts = [t for c in choices for t in (c["name"], *localized(c, "name_localizations", path).values())]
        if len(choices) > 25 or any(not 1 <= len(t) <= 100 for t in texts):
            bad(f"{path}: at most 25 choices of 1-100 characters")
        options = item.get("options") or []
        if len(options) > 25:
            bad(f"{path}: at most 25 options")
        siblings(options, path)
        for option in options:
            check(option, f"{path} {option.get('name')}")

    def siblings(items: list[dict], path: str) -> None:
        """Two commands (or options of one command) with one name in a language: Discord refuses the sync."""
        locales = {"", *(loc for item in items for loc in item.get("name_localizations") or {})}
        for locale in locales:  # a name not localized shows in English in that language too
            seen: dict[str, str] = {}
            for item in items:
                name = (item.get("name_localizations") or {}).get(locale, item.get("name", ""))
                other = seen.setdefault(name, item.get("name", ""))
                if other != item.get("name", ""):
                    bad(f"{path}: {other} and {item.get('name')} are both {name!r} in {locale or 'English'}")

    siblings(commands, "")
    for command in commands:
        check(command, command.get("name", "?"))


def _check_option(spec: dict, value) -> None:
    """What Discord's own client refuses to send for a typed slash-command option."""
    def bad(why: str):
        raise DiscordError(400, 50035, f"Invalid option {spec['name']}: {why}")

    kind = spec["type"]
    if kind == 4 and (isinstance(value, bool) or not isinstance(value, int)):
        bad("not an integer")
    if kind == 5 and not isinstance(value, bool):
        bad("not a boolean")
    if kind == 3 and not isinstance(value, str):
        bad("not a string")
    if "min_value" in spec and value < spec["min_value"]:
        bad(f"below {spec['min_value']}")
    if "max_value" in spec and value > spec["max_value"]:
        bad(f"above {spec['max_value']}")
    if spec.get("choices") and value not in [c["value"] for c in spec["choices"]]:
        bad("not one of the choices")


class ApiSpec:
    """The request bodies Discord's OpenAPI spec (discord/discord-api-spec) accepts on the routes the bot uses,
    from ``discord_api_schema.json`` (a subset of the spec's schemas; its ``$comment`` says which and from
    which commit): ``check`` refuses a body the spec refuses as Discord does, 400 with code 50035 and the
    ``errors`` tree that discord.py shows ("In 0.options.1.channel_types.6: ...")."""

    FILE = Path(__file__).with_name("discord_api_schema.json")
    CODES = {"required": "BASE_TYPE_REQUIRED", "enum": "BASE_TYPE_CHOICES", "const": "BASE_TYPE_CHOICES",
             "maxLength": "BASE_TYPE_BAD_LENGTH", "minLength": "BASE_TYPE_BAD_LENGTH",
             "maxItems": "BASE_TYPE_BAD_LENGTH", "minItems": "BASE_TYPE_BAD_LENGTH"}
    """Discord's error code for the schema keywords that have an obvious one; the others: SCHEMA_<KEYWORD>."""

    _loaded: ApiSpec | None = None
    _accepted: dict[str, None] = {}
    """Bodies accepted already (as JSON text), the newest 256: a bot sends the same command sync at each start
    of each test, and checking it costs some 0.2 s."""

    @classmethod
    def load(cls) -> ApiSpec:
        if cls._loaded is None:
            cls._loaded = cls()
        return cls._loaded

    @staticmethod
    def available() -> bool:
        try:
            import jsonschema  # noqa: F401
        except ImportError:
            return False
        return True

    def __init__(self):
        from jsonschema import Draft202012Validator

        spec = json.loads(self.FILE.read_text())
        self.routes = []
        for route, name in spec["x-routes"].items():
            method, template = route.split(" ", 1)
            pattern = re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(template))
            validator = Draft202012Validator({"$defs": spec["$defs"], "$ref": f"#/$defs/{name}"})
            self.routes.append((method, re.compile(pattern + "$"), validator))

    def check(self, method: str, path: str, payload) -> None:
        for route_method, pattern, validator in self.routes:
            if route_method == method and pattern.match(path):
                text = json.dumps([route_method, pattern.pattern, payload], sort_keys=True)
                if text in self._accepted:
                    return
                errors = {}
                for error in validator.iter_errors(payload):
                    leaf = _deepest(error)
                    node = errors
                    for key in leaf.absolute_path:
                        node = node.setdefault(str(key), {})
                    code = self.CODES.get(leaf.validator, f"SCHEMA_{str(leaf.validator).upper()}")
                    node.setdefault("_errors", []).append({"code": code, "message": leaf.message[:300]})
                if errors:
                    raise DiscordError(400, 50035, "Invalid Form Body", errors)
                self._accepted[text] = None
                if len(self._accepted) > 256:
                    del self._accepted[next(iter(self._accepted))]
                return


def _deepest(error):
    """The error that says what is wrong: for a oneOf (an option, a component, a callback: one schema per
    ``type``; a nullable value), the deepest error of its branches, in the branch the value was meant for
    (the others fail at its ``type``, or at null, sooner)."""
    if not error.context:
        return error
    leaves = [_deepest(e) for e in error.context]
    return max(reversed(leaves), key=lambda e: len(e.absolute_path))


_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
_PART_NAME = re.compile(rb'(?:^|[;\s])name="([^"]*)"', re.IGNORECASE | re.MULTILINE)


def _split_multipart(body: bytes, content_type: str) -> tuple[Any, dict[str, bytes]]:
    """A multipart/form-data body as (payload_json, {part name: bytes}), split without parsing each part's
    headers in full (FakeDiscord(light=True))."""
    match = _BOUNDARY.search(content_type)
    if match is None:
        raise DiscordError(400, 50035, "Invalid Form Body: multipart without a boundary")
    payload, uploads = None, {}
    for part in body.split(b"--" + match.group(1).encode())[1:]:
        if part.startswith(b"--"):
            break
        head, _, data = part.partition(b"\r\n\r\n")
        name = _PART_NAME.search(head)
        if name is None:
            continue
        data = data[:-2] if data.endswith(b"\r\n") else data
        if name.group(1) == b"payload_json":
            payload = json.loads(data)
        else:
            uploads[name.group(1).decode()] = data
    return payload, uploads


def nested(components: list[dict]):
    """Every component of a tree, depth first (a section's accessory after its texts)."""
    for component in components or []:
        yield component
        yield from nested(component.get("components") or [])
        if component.get("accessory"):
            yield from nested([component["accessory"]])


def interactive(components: list[dict]):
    """The buttons and select menus of a component tree, in order."""
    return (c for c in nested(components) if c.get("type") in (2, 3, 5, 6, 7, 8))


def snapshot(message: dict) -> dict:
    """A deep copy of a message as a user's screen shows it now."""
    return json.loads(json.dumps(message))


def _id_or_none(value: int | None) -> str | None:
    return None if value is None else str(value)


def _iso(ts: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ts)) + f".{int(ts % 1 * 1e6):06d}+00:00"
