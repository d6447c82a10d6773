"""The playground: the loopback Discord, the real bot as a child process, and a web page on 127.0.0.1 that
shows the fake's channels as Discord's client does and sends what a member does there as real interactions.

The page (``static/``) talks to :class:`Playground` through a small JSON API and one WebSocket:

- ``GET /api/live`` (WebSocket): first ``{"type": "hello", ...}`` with the guild, channels, members,
  commands, every message and notice; then each change as it happens: ``message`` (posted or edited),
  ``delete``, ``notice`` (a refused request, an interaction that failed), ``bot`` (online, restarting...),
  ``channel`` (a thread made or changed: the sidebar lists it under its channel) and ``channel_delete``.
- ``POST /api/slash``, ``/api/autocomplete``, ``/api/interact``, ``/api/say``: a member's command, the
  choices while they type an option, a click or a menu choice, a plain message; ``POST /api/restart``.
- ``POST /api/language``: the language of the members' Discord clients and of the server (English, Deutsch,
  Español): the bot answers in it, and the page greets a newcomer with the bot's hello in it (``hello`` carries
  the hello in every language; a page that finds no language chosen yet picks its browser's).

Nothing here decides anything for the bot: a click is an INTERACTION_CREATE the bot answers through the fake's
REST API like any Discord client's click, and the fake refuses what Discord refuses.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
from importlib import resources
from pathlib import Path

from aiohttp import web

import i18n
from bot.greeting import hello as bot_hello
from playground.fake_discord import DiscordError, FakeDiscord, Interaction
from playground.run_bot import BotProcess
from playground.words import words as page_words

log = logging.getLogger(__name__)

CHANNELS = {601: "games-1", 602: "games-2", 603: "games-3"}
THREADS = {701: "side-table"}  # a thread of the first channel
MEMBERS = (  # (id, name, role): any member may play; the moderator has Manage Server and Manage Messages
    (101, "Ana", "player"), (102, "Bo", "player"), (103, "Cy", "player"), (104, "Dee", "player"),
    (105, "Sol", "spectator"), (199, "Mo", "moderator"),
)
STATIC = resources.files("playground") / "static"
DISCORD_LOCALES = {"en": "en-US", "de": "de", "es": "es-ES"}
"""Our languages as a Discord client names them (what the members' interactions and the server say)."""


class Playground:
    """The fake Discord plus the page. ``bot`` is anything with async ``start``, ``stop`` and ``restart``
    (by default :class:`BotProcess`, the real bot in a child process, so that it can be restarted while the
    page stays open)."""

    def __init__(self, database: str, *, bot_log: str | None = None, bot=None):
        self.fake = FakeDiscord(channels=tuple(CHANNELS), threads=tuple(THREADS), names={**CHANNELS, **THREADS})
        self.fake.guild_name = "Geotable playground"
        for user_id, name, role in MEMBERS:
            self.fake.add_user(user_id, name, moderator=role == "moderator")
        self.roles = {user_id: role for user_id, _name, role in MEMBERS}
        self.language = i18n.DEFAULT
        self.language_chosen = False
        """False until someone picks a language (the first page then offers its browser's)."""
        self.bot = bot or BotProcess(self.fake, database, log_path=bot_log)
        self.status = "starting"
        self.notices: list[dict] = []
        self._pages: dict[web.WebSocketResponse, asyncio.Queue] = {}  # each open page and what it is yet to hear
        self._runner: web.AppRunner | None = None
        self.fake.observers.append(self._observe)

    # --- lifecycle -----------------------------------------------------------------------------------
    async def start(self, port: int = 8080) -> int:
        """Starts the fake, serves the page on 127.0.0.1:``port`` (any free port when it is taken or 0),
        then starts the bot. Returns the page's port."""
        await self.fake.start()
        app = web.Application()
        app.router.add_get("/", self._index)
        app.router.add_static("/static", Path(str(STATIC)))
        app.router.add_get("/api/live", self._live)
        app.router.add_post("/api/slash", self._slash)
        app.router.add_post("/api/autocomplete", self._autocomplete)
        app.router.add_post("/api/interact", self._interact)
        app.router.add_post("/api/say", self._say)
        app.router.add_post("/api/restart", self._restart)
        app.router.add_post("/api/language", self._language)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        try:
            site = web.TCPSite(self._runner, "127.0.0.1", port)
            await site.start()
        except OSError:
            site = web.TCPSite(self._runner, "127.0.0.1", 0)
            await site.start()
        await self._bot_up(self.bot.start)
        return site._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            await self.bot.stop()
        for ws in list(self._pages):  # else the server waits for open pages to go away by themselves
            await ws.close()
        if self._runner:
            await self._runner.cleanup()
        await self.fake.stop()

    async def _bot_up(self, how) -> None:
        try:
            await how()
        except Exception as exc:
            log.exception("the bot did not start")
            self._set_status("offline", f"The bot did not start: {exc}")
            self._notice({"kind": "refused", "channel_id": None, "only_for": None, "message_id": None,
                          "text": f"The bot did not start ({exc}); its output is in the playground's terminal."})
            return
        self._set_status("online")

    def _set_status(self, status: str, text: str = "") -> None:
        self.status = status
        self._broadcast({"type": "bot", "status": status, "text": text, "commands": list(self.fake.commands.values())})

    # --- what the page is told -----------------------------------------------------------------------
    def hello(self) -> dict:
        fake = self.fake
        return {
            "type": "hello", "guild": {"id": str(fake.guild_id), "name": fake.guild_name},
            "bot": fake.bot_user, "status": self.status,
            "channels": [self._channel(ch) for ch in fake.channels.values()],
            "members": [dict(fake.users[u], role=self.roles[u], permissions=str(fake.permissions[u]))
                        for u in fake.users],
            "commands": list(fake.commands.values()),
            "messages": [self._message_event(m) for m in fake.messages.values()],
            "notices": self.notices,
            "language": self.language, "language_chosen": self.language_chosen,
            "languages": [{"code": code, "name": i18n.language_name(code)} for code in i18n.LOCALES],
            "greetings": {code: i18n.localize(bot_hello(), code) for code in i18n.LOCALES},
            "words": {code: page_words(code) for code in i18n.LOCALES},
        }

    @staticmethod
    def _channel(channel: dict) -> dict:
        """A channel or thread as the sidebar lists it (``thread_of``: a thread's channel)."""
        meta = channel.get("thread_metadata") or {}
        return {"id": str(channel["id"]), "name": channel["name"], "thread_of": channel.get("parent_id"),
                "archived": bool(meta.get("archived"))}

    def _message_event(self, message: dict) -> dict:
        only_for = self.fake.ephemeral_of.get(int(message["id"]))
        return {"type": "message", "message": message, "only_for": str(only_for) if only_for else None}

    def _observe(self, event: str, data) -> None:
        if event == "message":
            self._broadcast(self._message_event(data))
        elif event == "delete":
            self._broadcast({"type": "delete", "id": data["id"], "channel_id": data["channel_id"]})
        elif event == "failed":
            self._failed(data)
        elif event == "refused":
            self._refused(*data)
        elif event == "channel":
            self._broadcast({"type": "channel", "channel": self._channel(data)})
        elif event == "channel_delete":
            self._broadcast({"type": "channel_delete", "id": str(data["id"])})

    def _failed(self, it: Interaction) -> None:
        """What Discord's client shows the member when the bot did not answer in 3 seconds."""
        text = "This interaction failed" if it.type == 3 else "The application did not respond"
        self._notice({"kind": "failed", "channel_id": str(it.channel_id), "only_for": str(it.user_id),
                      "message_id": str(it.message_id) if it.message_id else None, "text": text})

    def _refused(self, method: str, path: str, error: DiscordError) -> None:
        """A request of the bot that Discord would refuse: shown in the channel it was about."""
        parts = path.strip("/").split("/")
        channel = None
        if parts[0] == "channels" and parts[1:]:
            channel = parts[1]
        elif parts[0] == "interactions" and parts[1:] and parts[1].isdigit():
            it = self.fake.interactions.get(int(parts[1]))
            channel = it and str(it.channel_id)
        elif parts[0] == "webhooks" and len(parts) > 2:
            it = self.fake.tokens.get(parts[2])
            channel = it and str(it.channel_id)
        self._notice({"kind": "refused", "channel_id": channel, "only_for": None, "message_id": None,
                      "text": f"Discord refused the bot's {method} {path}: {error.status} "
                              f"(code {error.code}) {error.message}"})

    def _notice(self, notice: dict) -> None:
        notice["id"] = str(self.fake.snowflake())  # orders it among the messages
        self.notices.append(notice)
        self._broadcast({"type": "notice", "notice": notice})

    def _broadcast(self, event: dict) -> None:
        text = json.dumps(event)
        for queue in self._pages.values():
            queue.put_nowait(text)

    # --- HTTP ----------------------------------------------------------------------------------------
    async def _index(self, request: web.Request) -> web.FileResponse:
        return web.FileResponse(Path(str(STATIC / "index.html")))

    async def _live(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=30)
        await ws.prepare(request)
        queue: asyncio.Queue = asyncio.Queue()
        queue.put_nowait(json.dumps(self.hello()))
        self._pages[ws] = queue

        async def write() -> None:
            while True:
                await ws.send_str(await queue.get())

        writer = asyncio.create_task(write())
        try:
            async for _ in ws:  # the page sends nothing; this waits for it to go away
                pass
        finally:
            self._pages.pop(ws, None)
            writer.cancel()
        return ws

    async def _slash(self, request: web.Request) -> web.Response:
        body = await request.json()
        name, *path = body["command"].split()
        options = {k: v for k, v in (body.get("options") or {}).items() if v is not None and v != ""}
        return await self._attempt(self.fake.slash(int(body["member"]), int(body["channel"]), name, *path,
                                                   settle=False, **options))

    async def _autocomplete(self, request: web.Request) -> web.Response:
        body = await request.json()
        name, *path = body["command"].split()
        options = {k: v for k, v in (body.get("options") or {}).items() if v is not None}
        try:
            choices = await self.fake.autocomplete(int(body["member"]), int(body["channel"]), name, *path,
                                                   focused=body["focused"], **options)
        except (DiscordError, AssertionError, RuntimeError):
            choices = []
        return web.json_response({"choices": choices})

    async def _interact(self, request: web.Request) -> web.Response:
        body = await request.json()
        return await self._attempt(self.fake.interact(int(body["member"]), int(body["message"]), body["custom_id"],
                                                      body.get("values"), settle=False))

    async def _say(self, request: web.Request) -> web.Response:
        body = await request.json()
        content = str(body.get("content", "")).strip()
        if not content or len(content) > 2000:
            return web.json_response({"error": "A message has 1 to 2000 characters."}, status=400)
        return await self._attempt(self.fake.say(int(body["member"]), int(body["channel"]), content, settle=False))

    async def _attempt(self, action) -> web.Response:
        """Runs a member's action; what Discord's client would refuse comes back as a sentence. With the bot
        down, the interaction simply goes unanswered: the page shows that it failed, as Discord does."""
        try:
            await action
        except (DiscordError, AssertionError) as exc:
            return web.json_response({"error": getattr(exc, "message", None) or str(exc)}, status=400)
        except RuntimeError:  # no bot connected to the gateway
            pass
        return web.json_response({"ok": True})

    async def _language(self, request: web.Request) -> web.Response:
        body = await request.json()
        code = body.get("language")
        if code not in DISCORD_LOCALES:
            return web.json_response({"error": "Pick English, Deutsch or Español."}, status=400)
        await self.set_language(code)
        return web.json_response({"ok": True})

    async def set_language(self, code: str) -> None:
        """Every member's Discord client and the server speak ``code`` from now on (the server's change reaches
        a connected bot as Discord sends it: a GUILD_UPDATE)."""
        fake, locale = self.fake, DISCORD_LOCALES[code]
        self.language, self.language_chosen = code, True
        for user_id in fake.users:
            fake.locales[user_id] = locale
        fake.guild_locales[fake.guild_id] = locale
        with contextlib.suppress(ConnectionError, RuntimeError):  # no bot connected: it reads it when it starts
            for ws in fake._connections_for(fake.guild_id):
                await fake._send(ws, "GUILD_UPDATE", fake._guild(fake.guild_id))
        self._broadcast({"type": "language", "language": code})

    async def _restart(self, request: web.Request) -> web.Response:
        if self.status == "restarting":
            return web.json_response({"error": "The bot is already restarting."}, status=409)
        self._set_status("restarting")
        await self._bot_up(self.bot.restart)
        return web.json_response({"ok": self.status == "online"})


async def serve(database: str, port: int, bot_log: str | None = None) -> None:
    """``python -m playground``: a fresh database, the page's address printed, until Ctrl-C or SIGTERM.

    Both signals are handled here explicitly, whatever this process inherited: a shell script that starts the
    playground in the background starts it with SIGINT ignored, and Ctrl-C must stop it all the same. Stopping
    stops the bot (SIGTERM, which its render workers follow) and frees the port; the exit code is 0."""
    loop = asyncio.get_running_loop()
    stopped = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stopped.set)
    for suffix in ("", "-wal", "-shm"):
        Path(database + suffix).unlink(missing_ok=True)
    Path(database).parent.mkdir(parents=True, exist_ok=True)
    playground = Playground(database, bot_log=bot_log)
    print("Starting the playground: the real Geotable bot against a loopback Discord (no token, no internet)...",
          flush=True)
    starting = asyncio.create_task(playground.start(port))
    stopping = asyncio.create_task(stopped.wait())
    try:
        await asyncio.wait({starting, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if not stopping.done():
            page_port = starting.result()
            if port and page_port != port:
                print(f"Port {port} is taken; using {page_port} instead.", flush=True)
            print(f"Playground ready: open http://127.0.0.1:{page_port}/ in your browser (Ctrl-C to stop).",
                  flush=True)
            await stopping
    finally:
        for task in (starting, stopping):  # a signal during start-up stops it half-way
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        print("Stopping the playground...", flush=True)
        await playground.stop()
        print("Playground stopped.", flush=True)
