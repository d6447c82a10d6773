"""The discord.py client: sets up (opens the store, takes the shard leases, loads the cogs, registers the
DynamicItems, syncs commands once), stops cleanly, and dispatches: every click to its cog (``on_key``), every
error of a click or a command to one handler (a refusal to bot/ui/refusals.py, anything else an apology).
Its loops (deadlines, pruning, leases) are bot/loops.py's; its changes to discord.py, bot/patches.py's.

It is always auto-sharded: without shard settings one process runs every shard Discord recommends; with
GEOTABLE_SHARD_COUNT and GEOTABLE_SHARD_IDS it runs those shards only, and serves only their guilds' tables
(other processes run the rest, over one shared database)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import signal

import discord
from discord import app_commands
from discord.ext import commands

import bot.patches  # noqa: F401  (discord.py as Geotable needs it, before any use)
import i18n
from bot.cogs.admin import Admin
from bot.cogs.daily import Daily
from bot.cogs.help import Help, greet
from bot.cogs.learn import Learn
from bot.cogs.play import play_group
from bot.cogs.privacy import Privacy
from bot.cogs.records import Records
from bot.cogs.replay import Replays
from bot.cogs.rules import Rules, open_page
from bot.cogs.seasons import Seasons
from bot.cogs.tables import Tables
from bot.cogs.tournament import Tournament
from bot.cogs.turns import Turns
from bot.database import open_store
from bot.gcpace import GcPacer
from bot.language import guild_locale
from bot.leases import ShardLeases, StopWaiting
from bot.loops import PRUNE_EVERY, Loops
from bot.loopwatch import LoopWatch
from bot.settings import Settings
from bot.store import Store
from bot.table.model import Defaults
from bot.table.refusals import Refused
from bot.table.service import TableService
from bot.translator import CatalogTranslator
from bot.ui import components, items, keys, refusals
from bot.ui.say import say
from bot.workers import renderpool, thinkpool
from i18n import N_, _

log = logging.getLogger(__name__)


PERMISSION_NAMES = {"manage_guild": N_("Manage Server"), "manage_messages": N_("Manage Messages")}
"""Permission names as Discord's own UI shows them."""


STOP_GRACE = 5.0
"""Seconds a stop (SIGTERM, SIGINT) gives the clicks under way to finish before the bot closes anyway."""

IN_FLIGHT = ("discord-ui-dynamic-item-", "discord-ui-view-dispatch-", "CommandTree-invoker", "discord.py: on_")
"""Names discord.py gives the tasks that handle an interaction or an event: the work a stop waits for."""

IDENTIFY_INTERVAL = 5.0
"""Seconds Discord wants between two sessions identifying in the same bucket (shard id modulo
``max_concurrency``)."""


def clicks_under_way() -> bool:
    """Whether an interaction or an event is being handled now (bot/gcpace.py waits for a moment without)."""
    return any(task.get_name().startswith(IN_FLIGHT) for task in asyncio.all_tasks())


def stop_signals() -> tuple[signal.Signals, ...]:
    """The signals that stop the bot cleanly: SIGINT (instead of asyncio.run's KeyboardInterrupt) and SIGTERM,
    unless something else took SIGTERM first (the benchmarks' profiler writes its file on it)."""
    free = signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, signal.SIG_IGN)
    return (signal.SIGINT, signal.SIGTERM) if free else (signal.SIGINT,)


class Geotable(Loops, commands.AutoShardedBot):
    """``store``: one opened already (``run`` opens it first, so a database mistake is told before Discord is
    contacted); else ``setup_hook`` opens it. ``handle_signals``: the signals that stop the bot cleanly
    (:meth:`shutdown`; see :func:`stop_signals`); none for bots run inside a test's event loop."""

    def __init__(self, settings: Settings, *, tick: float = 1.0, store: Store | None = None,
                 handle_signals: tuple[signal.Signals, ...] = (), prune_every: float = PRUNE_EVERY, **kwargs):
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True  # to notice a board buried under chat (no message content needed)
        # no message cache or member cache: the bot needs neither, and every cached object lengthens the
        # garbage collector's pauses (the event loop's worst lag under load)
        kwargs.setdefault("max_messages", None)
        kwargs.setdefault("member_cache_flags", discord.MemberCacheFlags.none())
        kwargs.setdefault("chunk_guilds_at_startup", False)
        kwargs.setdefault("shard_count", settings.shard_count)
        kwargs.setdefault("shard_ids", list(settings.shard_ids) if settings.shard_ids is not None else None)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None, **kwargs)
        self.settings = settings
        self.tick = tick
        self.store: Store | None = store
        self.service: TableService | None = None
        self.leases: ShardLeases | None = None
        self.exit_code = 0
        """What ``run`` returns: 0 after a stop asked for, 1 when the shard leases were lost."""
        self.handle_signals = handle_signals
        self._stopping = asyncio.Event()
        self._shutdown_task: asyncio.Task | None = None
        self._deadline_task: asyncio.Task | None = None
        self.timers_started = asyncio.Event()
        """Set once the deadline loop has done its start-up work (healed boards, fired what came due while
        the bot was away) and waits for the next deadline (tests wait for it instead of guessing)."""
        self._watch_task: asyncio.Task | None = None
        self._gc_task: asyncio.Task | None = None
        self.prune_every = prune_every
        self._prune_task: asyncio.Task | None = None
        self._prune_wake: asyncio.Future | None = None
        self.pruned = asyncio.Event()
        """Set after each pass of the pruning task (tests wait for it)."""
        self._lease_task: asyncio.Task | None = None
        self._max_concurrency: int | None = None
        self._identified: dict[int, float] = {}  # shard id -> when it last identified (loop time)
        self.tree.on_error = self.on_app_command_error

    async def setup_hook(self) -> None:
        if self.store is None:
            self.store = await open_store(self.settings.database)
        # this process's shards, before any gateway session: a duplicate waits here without serving
        self.leases = ShardLeases(self.store, self.settings.shard_count, self.settings.shard_ids,
                                  heartbeat=self.settings.lease_heartbeat, stale=self.settings.lease_stale)
        await self.leases.acquire(self._stopping)
        self._lease_task = asyncio.create_task(self._keep_leases(), name="geotable-leases")
        renderpool.start()
        thinkpool.start()
        self._gc_task = asyncio.create_task(GcPacer(clicks_under_way).run(), name="geotable-gc")
        # the workers warm up while the bot sets up
        warm = asyncio.ensure_future(_warm_workers())
        if self.settings.loop_stats:
            watch = LoopWatch(self.settings.loop_stats, workers=lambda: renderpool.pids() + thinkpool.pids())
            self._watch_task = asyncio.create_task(watch.run(), name="geotable-loopwatch")
            with contextlib.suppress(NotImplementedError, RuntimeError):
                asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, watch.reset)
        self.service = TableService(
            self.store, Defaults(self.settings.turn_timeout, self.settings.lobby_timeout, self.settings.computer_pause,
                                 self.settings.computer_step_pause, self.settings.computer_board_every),
            shards=self.settings.shards,
        )
        self.service.discord_locale = lambda guild_id: guild_locale(self.get_guild(guild_id))
        tables = Tables(self)
        await self.add_cog(tables)
        self.tree.add_command(play_group(tables.open_table))
        await self.add_cog(Admin(self))
        await self.add_cog(Help(self))
        await self.add_cog(Rules(self))
        await self.add_cog(Records(self))
        await self.add_cog(Replays(self))
        await self.add_cog(Privacy(self))
        await self.add_cog(Learn(self))
        await self.add_cog(Turns(self))
        await self.add_cog(Daily(self))
        await self.add_cog(Seasons(self))
        await self.add_cog(Tournament(self))
        self.add_dynamic_items(*items.ITEMS.values())
        await self.tree.set_translator(CatalogTranslator())  # German and Spanish names and descriptions
        if self.settings.sync_commands and (self.shard_ids is None or 0 in self.shard_ids):
            # commands are the application's, not a shard's: the process with shard 0 syncs them for all
            if self.settings.dev_guild:
                guild = discord.Object(self.settings.dev_guild)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            else:
                await self.tree.sync()
        self._deadline_task = asyncio.create_task(self._deadlines(), name="geotable-deadlines")
        self._prune_task = asyncio.create_task(self._prune(), name="geotable-pruning")
        # only now: a stop while this hook runs (the lease wait, the command sync) cancels the start-up at its
        # await instead (see `run`); a shutdown beside a running hook closed the HTTP session and the store
        # under it (a traceback, exit 1)
        await warm  # online (connected) only with warm workers: the first board (and decision) as quick as any
        for sig in self.handle_signals:
            asyncio.get_running_loop().add_signal_handler(sig, self.request_stop, sig)

    async def close(self) -> None:
        """Closes at once (what a test's restart does); :meth:`shutdown` lets the work under way finish."""
        self._stopping.set()
        for task in (self._watch_task, self._deadline_task, self._prune_task, self._lease_task, self._gc_task):
            if task and task is not asyncio.current_task():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self.service is not None:
            await self.service.stop_computers()  # their pending moves stay stored deadlines
        await super().close()
        store, self.store = self.store, None  # taken at once: a second close() meanwhile finds nothing to close
        if store:
            if self.leases:
                with contextlib.suppress(Exception):
                    await self.leases.release()
            await store.close()

    # --- stopping ------------------------------------------------------------------------------------
    def request_stop(self, sig: signal.Signals | None = None) -> None:
        """SIGTERM or SIGINT (``docker stop``, Ctrl-C): stop cleanly, once."""
        if self._shutdown_task is None:
            if sig is not None:
                log.warning("%s: finishing the clicks under way, then stopping.", signal.Signals(sig).name)
            self._stopping.set()
            self._shutdown_task = asyncio.create_task(self.shutdown(), name="geotable-shutdown")

    async def shutdown(self, grace: float = STOP_GRACE) -> None:
        """Stops taking clicks (the gateway sessions close, so Discord sends no more), lets the clicks and the
        timers under way finish for up to ``grace`` seconds (a click's commit and its board; what is cut off
        after that is either committed, and its board shown at the next start, or not written at all), gives
        the shard leases up and closes the store."""
        self._stopping.set()
        for shard in list(self.shards.values()):
            with contextlib.suppress(Exception):
                await shard.disconnect()
        me = asyncio.current_task()
        busy = [t for t in asyncio.all_tasks() if t is not me and not t.done() and t.get_name().startswith(IN_FLIGHT)]
        if self._deadline_task:
            busy.append(self._deadline_task)  # it stops after the firing under way (see _deadlines)
        if busy:
            await asyncio.wait(busy, timeout=grace)
        await self.close()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Discord lets ``max_concurrency`` sessions identify at once (one per bucket, shard id modulo it) and
        each bucket once every 5 seconds. discord.py waits 5 seconds before every shard but the first, so a
        process with many shards would take minutes to start; this waits only for the shard's own bucket."""
        shard_id, loop, wait = shard_id or 0, asyncio.get_running_loop(), 0.0
        if self._identified:
            if self._max_concurrency is None:
                self._max_concurrency = (await self.fetch_session_start_limits()).max_concurrency
            buckets = self._max_concurrency
            last = [t for s, t in self._identified.items() if s % buckets == shard_id % buckets]
            wait = max(last, default=-math.inf) + IDENTIFY_INTERVAL - loop.time()
        self._identified[shard_id] = loop.time() + max(wait, 0.0)
        if wait > 0:
            await asyncio.sleep(wait)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """A server added the bot (discord.py tells a join apart from a server coming back at a start): one
        hello in its system channel, if the bot may post there (bot/cogs/help.py)."""
        await greet(guild)

    # --- clicks and errors ---------------------------------------------------------------------------
    async def on_key(self, interaction: discord.Interaction, what: keys.Key | None, *, listed: bool,
                     family: str | None = None) -> None:
        """Every click on a component of ours comes here, decoded (bot/ui/keys.py): from its DynamicItem
        (bot/ui/items.py, ``listed``), or from ``on_interaction`` when it is no longer on its message (an older
        screen) or decodes to nothing (``what`` None: forged or malformed; ``family`` says whose it was)."""
        if isinstance(what, keys.Menu | keys.LessonMenu):  # the member's choice in it
            family = keys.LESSON if isinstance(what, keys.LessonMenu) else keys.TABLE
            what = items.chosen(interaction, what)
        try:
            if isinstance(what, keys.RulePage) or family == keys.RULES:
                await open_page(interaction, what)
            elif isinstance(what, keys.Privacy) or family == keys.PRIVACY:
                await self.get_cog("Privacy").click(interaction, what if listed else None)
            elif isinstance(what, keys.DailyMove | keys.DailyUtility) or family == keys.DAILY:
                await self.get_cog("Daily").click(interaction, what)
            elif isinstance(what, keys.TournamentButton) or family == keys.TOURNAMENT:
                await self.get_cog("Tournament").click(interaction, what)
            elif isinstance(what, keys.LessonMove | keys.LessonUtility) or family == keys.LESSON:
                await self.get_cog("Learn").click(interaction, what)
            else:
                await self.get_cog("Tables").on_click(interaction, what)
        except Refused as refusal:
            await refusals.answer(interaction, refusal)
        except Exception:
            log.exception("click %r failed", what)
            await self._apologise(interaction)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A component's click that no DynamicItem takes gets its answer here, instead of a silent failure: one
        no longer on its message (discord.py's item dispatch skips it: an older screen), a forged or malformed
        id of ours, or one that is none of ours."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if keys.templated(custom_id) and components.on_message(interaction.message, custom_id):
            return  # its DynamicItem answers
        family = keys.family(custom_id)
        if family is None:
            await say(interaction, _("This button doesn't belong to any game I know."))
        else:
            await self.on_key(interaction, keys.decode(custom_id), listed=False, family=family)

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError):
        refusal = refusals.refusal_in(error)
        if refusal is not None:  # a refusal raised by the command (wrapped in CommandInvokeError)
            await refusals.answer(interaction, refusal)
            return
        if isinstance(error, app_commands.MissingPermissions):
            perms = i18n.join([i18n.Text(PERMISSION_NAMES.get(p, p.replace("_", " ").title()))
                               for p in error.missing_permissions], " and ")
            await say(interaction, _("You need the {permissions} permission to do that.", permissions=perms))
            return
        if isinstance(error, app_commands.NoPrivateMessage):
            await say(interaction, _("Games are played in server channels, not in direct messages."))
            return
        if isinstance(error, app_commands.CheckFailure):
            await say(interaction, _("You can't use this command here."))
            return
        if isinstance(error, app_commands.TransformerError):  # a value Discord let through that we can't use
            log.info("command %s: %s", interaction.command and interaction.command.qualified_name, error)
            with contextlib.suppress(discord.HTTPException):
                await say(interaction, transformer_sentence(error))
            return
        name = interaction.command.qualified_name if interaction.command else None
        log.error("command %s failed", name, exc_info=error)
        await self._apologise(interaction, name)

    async def _apologise(self, interaction: discord.Interaction, command: str | None = None) -> None:
        """The answer to a failure of ours: a click or a game command leaves the game as it was (every change
        is one statement); another command (moderation, settings) is named, since its words must fit it."""
        if command is None or command.split()[0] in ("play", "game"):
            text = _("Something went wrong on my side; the game is unchanged. Please try again.")
        else:
            text = _("Something went wrong on my side while running /{command}. Please try again.", command=command)
        with contextlib.suppress(discord.HTTPException):
            await say(interaction, text)


async def _warm_workers() -> None:
    """The render and thinking workers warm up side by side (one task: a stop during start-up cancels it whole)."""
    await asyncio.gather(renderpool.ready(), thinkpool.ready())


async def run(settings: Settings, **options) -> int:
    """Runs the bot until it is stopped; returns the process's exit code (0: stopped as asked). Opens the
    store first: :class:`bot.store.DatabaseUnavailable` (and :class:`bot.leases.ShardCountInUse`) come out
    before anything is shown. ``options`` go to :class:`Geotable` (the playground points it at its fake)."""
    # until the bot's own handlers are in place (the end of setup_hook), SIGTERM and SIGINT end the start-up at
    # once (as PID 1 in a container, an unhandled SIGTERM would be ignored until Docker kills): the cancelled
    # start closes the bot (its leases given up, the store closed)
    loop, starting, signals = asyncio.get_running_loop(), asyncio.current_task(), stop_signals()
    for sig in signals:
        loop.add_signal_handler(sig, starting.cancel)
    try:
        store = await open_store(settings.database)
        bot = Geotable(settings, store=store, handle_signals=signals, **options)
    except asyncio.CancelledError:
        return 0
    try:
        async with bot:
            await bot.start(settings.token)
    except (StopWaiting, asyncio.CancelledError):
        pass
    finally:
        if bot.store is not None:
            await bot.close()
    if bot._shutdown_task is not None:
        await bot._shutdown_task
    return bot.exit_code


def transformer_sentence(error: app_commands.TransformerError) -> str:
    """A command option whose value the command can't take (e.g. a kind of channel no game can be played in)."""
    if error.type is discord.AppCommandOptionType.channel:
        return _("I can't use that kind of channel here: pick a text channel, a thread, a forum or a voice channel.")
    return _("I can't use that value here; please pick another.")
