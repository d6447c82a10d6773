"""The bot under load: every click acknowledged, the event loop free, rendering near the CPU's limit.

    python -m benchmarks.load            # the full run (about 4 minutes)
    python -m benchmarks.load --quick    # a smoke run (about a minute)
    python -m benchmarks.load --keep DIR # keep the bot's database, logs, loop stats and step timings in DIR

The REAL bot runs as a child process (playground/run_bot.py, through benchmarks/bot_child.py) against
the fake Discord, which runs in this process; so does a bare discord.py bot (benchmarks/bare_bot.py), the
baseline of a click, against a second fake of its own in this process. Every table is a one-player Geek Out!
Masters game in its own channel; a move is a click on the first button of its board ("Rules" excluded). The
fake stamps each request as it answers it: a click's acknowledgement is its ``POST
/interactions/{id}/{token}/callback``, its edit the next ``PATCH`` of that table's board or that callback
itself when it carries the board (type 7: the bot answers a click with its board when it is ready within
0.25 s, see ``Ack`` in bot/boards.py; the bare bot always defers, then edits).

Every figure is printed next to its baseline from the same run (the machine is noisy; ratios travel):

- lost clicks (acknowledgement refused, e.g. 10062 after 3 s, or never sent) / clicks sent: a burst of 2
  clicks on each of N tables at once (a double click: the second carries a stale board), and a sustained rate
  over many tables; the bare bot takes the same burst;
- the bot's event-loop lag p99 / max (bot/loopwatch.py) in each phase, against the bot idle with the same
  tables open (and the bare bot's in its burst); the target (max 20 ms) holds at the steady rate, the burst's
  and the big table count's are shown beside it;
- click-to-edit p50 / p99 at a steady rate, against the sequential click-to-edit;
- capacity: the offered rate is ramped until p99 > 1 s or an acknowledgement fails; the highest sustained
  rate is compared with cores / (CPU seconds of one move in the sequential run: the bot's, its render
  workers' and the loopback Discord's, which shares these cores; the bot's alone is printed too);
- sequential click-to-edit / (the bare bot's + one render_board in this process), the three measured in turn,
  click after click, so a busy spell of the machine weighs on all of them;
- memory: bot RSS per open table, and its growth over many moves;
- computers beside people: ``computer_tables`` more Geek Out! tables of one person and two computers
  (``/play geek-out computers:2``, normal and strong in turn), the person clicking the first button about a
  second after their board comes, the computers moving by themselves (thinking in the bot's worker
  processes); meanwhile the steady rate and the burst are played again on the people's tables: no click lost,
  the loop lag and click-to-edit p99 within the same targets (against the same phases without computers).

Also printed: where a click's time goes inside the bot (each step timed from outside, see
benchmarks/bot_child.py), CPU per move of each process, and per phase the share of the machine's CPU that
other processes took ("others"): on a shared machine a figure measured while others took much of the CPU says
little; run again. The fake's own loop lag and CPU are printed too: if it were the bottleneck it would show
there (in this benchmark it keeps no attachment bytes and splits uploads cheaply, ``FakeDiscord(light=True)``).

Experiments: ``--workers N`` (render workers), ``--nice-workers 10`` (render workers below the event loop's
priority), ``--profile FILE`` (cProfile of the bot's event-loop thread; slows it, figures not comparable).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import itertools
import json
import math
import os
import signal
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks import work_folder
from benchmarks.bare_bot import BareBotProcess, bare_message
from bot.loopwatch import cpu_seconds, rss_bytes
from playground.fake_discord import FakeDiscord, interactive
from playground.run_bot import BotProcess

FIRST_CHANNEL = 10_000
FIRST_USER = 3_000_000
TURNS = 10  # the longest games: ~150 moves each when the first button is always clicked
P99_CAPACITY = 1.0  # a rate is sustained while click-to-edit p99 stays under this (and every click is acked)


@dataclass
class Scale:
    bare: int  # sequential clicks on the bare bot
    sequential: int  # sequential moves of ours
    small: int  # tables of the steady and burst phases
    big: int  # tables of the sustained phase (and the ramp)
    steady_rate: float
    steady_for: float
    sustained_rate: float
    sustained_for: float
    idle_for: float
    step_for: float
    steps: tuple[float, ...]  # ramp, as fractions of cores / CPU per move
    soak_first: int  # moves of the soak before its first memory reading
    soak_more: int  # at least this many moves more before the last one...
    soak_to: int  # ...and at least this many since the bot started
    computer_tables: int = 100  # tables played by computers beside the people's (the last phases)


FULL = Scale(bare=200, sequential=200, small=500, big=2000, steady_rate=50, steady_for=20, sustained_rate=100,
             sustained_for=25, idle_for=5, step_for=8, steps=(0.5, 0.65, 0.8, 0.9, 1.0, 1.1), soak_first=1000,
             soak_more=3000, soak_to=15_000)
QUICK = Scale(bare=60, sequential=60, small=100, big=300, steady_rate=50, steady_for=6, sustained_rate=100,
              sustained_for=6, idle_for=2, step_for=4, steps=(0.6, 0.8, 1.0), soak_first=300,
              soak_more=600, soak_to=3_000)


# --- small statistics ---------------------------------------------------------------------------------------
def pct(values: list[float], q: float) -> float:
    """Nearest-rank percentile; missing values are passed as ``math.inf``."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def ms(x: float) -> str:
    return "inf" if math.isinf(x) else "nan" if math.isnan(x) else f"{x * 1e3:.1f}"


def mb(x: float) -> str:
    return f"{x / 2**20:.1f}"


class LagWatch:
    """The benchmark process's own loop lag (the fake runs on this loop): the same 5 ms heartbeat as the bot's."""

    def __init__(self, interval: float = 0.005):
        self.interval = interval
        self.lags: list[float] = []
        self.task: asyncio.Task | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(self.interval)
            self.lags.append(max(0.0, loop.time() - start - self.interval))

    def start(self) -> None:
        self.task = asyncio.create_task(self._run())

    def reset(self) -> None:
        self.lags = []

    def stats(self) -> dict:
        return {"p99": pct(self.lags, 0.99), "max": max(self.lags, default=0.0)}


# --- the driver ---------------------------------------------------------------------------------------------
@dataclass(eq=False)
class Click:
    id: int
    desk: Desk | None
    kind: str  # move, start, double (the stale second click of a double click), bare
    sent: float
    acked: float | None = None
    ack_error: int | None = None
    edited: float | None = None

    @property
    def to_edit(self) -> float:
        return self.edited - self.sent if self.edited is not None else math.inf

    @property
    def to_ack(self) -> float:
        return self.acked - self.sent if self.acked is not None else math.inf


@dataclass(eq=False)
class Desk:
    """A table as the players see it: its channel, its one player, its message."""

    channel: int
    user: int
    message_id: int | None = None
    status: str = "new"  # new, lobby, playing, over
    pending: Click | None = None
    edits: int = 0
    waiter: asyncio.Future | None = None


@dataclass(eq=False)
class ComputerTable:
    """A person playing Geek Out! against two computers: they click the first button of their board about a
    second after it comes; the computers move by themselves."""

    channel: int
    user: int
    strength: str
    lobby_id: int | None = None
    updates: int = 0  # messages posted or edited in its channel once started (boards, mostly)
    person_clicks: int = 0
    clicking: bool = False  # the person's next click is planned
    waiter: asyncio.Future | None = None


PERSON_PAUSE = 1.0  # seconds a person of a computer table looks at their board before clicking


@dataclass
class Phase:
    name: str
    clicks: list[Click] = field(default_factory=list)
    started: float = 0.0
    ended: float = 0.0
    lag: dict = field(default_factory=dict)  # the bot's
    fake_lag: dict = field(default_factory=dict)
    cpu: float = 0.0  # bot + workers, seconds
    bot_cpu: float = 0.0
    workers_cpu: float = 0.0
    fake_cpu: float = 0.0  # this process (the fake Discord and the driver)
    others_cpu: float = 0.0  # the rest of the machine (other users' tests...)
    starved: int = 0  # clicks not sent: every table was still waiting for its board
    edits: int = 0  # board edits seen (moves + redraws)
    extra: dict = field(default_factory=dict)
    trace: dict = field(default_factory=dict)  # the bot's step -> sorted seconds

    def lost(self) -> int:
        """Clicks whose acknowledgement never came."""
        return sum(1 for c in self.clicks if c.acked is None and c.ack_error is None)

    def refused(self) -> int:
        return sum(1 for c in self.clicks if c.ack_error is not None)

    def moves(self) -> list[Click]:
        return [c for c in self.clicks if c.kind in ("move", "start", "bare")]


class Load:
    def __init__(self, scale: Scale, folder: Path, quiet: bool = False, workers: int | None = None,
                 nice: int = 0, profile: str | None = None):
        self.scale = scale
        self.env = {}
        if workers:
            self.env["GEOTABLE_RENDER_WORKERS"] = str(workers)
        if profile:
            self.env["GEOTABLE_BENCH_PROFILE"] = profile
        self.trace_path = folder / "trace.json"
        self.env["GEOTABLE_BENCH_TRACE"] = str(self.trace_path)
        self.trace_generation = 0
        self.nice = nice
        self.profile = profile
        self.folder = folder
        self.quiet = quiet
        self.computer_channel = FIRST_CHANNEL + scale.big + 1
        channels = tuple(range(FIRST_CHANNEL, FIRST_CHANNEL + scale.big)) + tuple(
            range(self.computer_channel, self.computer_channel + scale.computer_tables))
        self.fake = FakeDiscord(channels=channels, threads=(), light=True)
        self.fake.listeners.append(self._on_request)
        self.bare_channel = FIRST_CHANNEL + scale.big
        self.bare_fake = FakeDiscord(channels=(self.bare_channel,), threads=(), light=True)
        """The bare bot's own Discord in this process (a gateway sends every event to every bot connected),
        so both bots can be up at once and clicked in turn (the interleaved phase)."""
        self.bare_fake.listeners.append(self._on_request)
        self.bare_fake.add_user(FIRST_USER, "P0")
        self.desks: dict[int, Desk] = {}
        for i in range(scale.big):
            user = FIRST_USER + i
            self.fake.add_user(user, f"P{i}")
            self.desks[FIRST_CHANNEL + i] = Desk(FIRST_CHANNEL + i, user)
        self.computer_tables: dict[int, ComputerTable] = {}
        for i in range(scale.computer_tables):
            user = FIRST_USER + scale.big + 1 + i
            self.fake.add_user(user, f"C{i}")
            channel = self.computer_channel + i
            self.computer_tables[channel] = ComputerTable(channel, user, ("normal", "strong")[i % 2])
        self.computer_updates = 0
        self.computer_requests = 0  # requests of the computer tables (messages, their people's clicks' answers)
        self.computer_clicks: set[str] = set()  # ids and tokens of those people's clicks
        self.clicks: dict[int, Click] = {}
        self.bare_pending: dict[int, collections.deque] = collections.defaultdict(collections.deque)
        """bare bot's message id -> its clicks waiting for their edit, in order"""
        self.bare_message_id: int | None = None
        self.bare_stats_path = folder / "bare-loop.json"
        self.idle: collections.deque | None = None  # desks free for the next click of a rate phase
        self.moves = 0  # board edits answering a click, since the bot started
        self.edits = 0
        self.watch = LagWatch()
        self.bot: BotProcess | None = None
        self.bare: BareBotProcess | None = None
        self.stats_path = folder / "loop.json"
        self.worker_pids: set[int] = set()
        self.phases: dict[str, Phase] = {}
        self.memory: list[tuple[str, int, int, int]] = []  # (when, moves, bot rss, workers rss)

    def say(self, text: str) -> None:
        if not self.quiet:
            print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)

    # --- what the fake answered ----------------------------------------------------------------------
    def _on_request(self, method: str, path: str, result, error) -> None:
        now = time.perf_counter()
        parts = path.strip("/").split("/")
        counted = len(parts) > 2 and (parts[1] in self.computer_clicks or parts[2] in self.computer_clicks)
        if counted:
            self.computer_requests += 1  # answering a click of a computer table's person
        if parts[0] == "interactions" and parts[-1] == "callback":
            click = self.clicks.get(int(parts[1]))
            if click is not None and click.acked is None and click.ack_error is None:
                if error is None:
                    click.acked = now
                else:
                    click.ack_error = error.code
            resource = (result or {}).get("resource") or {}
            if resource.get("type") != 7:  # else the board answered the click: an edit of its message
                return
            result = resource["message"]
            method, parts = "PATCH", ["channels", result["channel_id"], "messages", result["id"]]
        if parts[0] != "channels" or len(parts) < 3 or parts[2] != "messages" or result is None:
            return
        channel = int(parts[1])
        if channel == self.bare_channel:
            waiting = self.bare_pending.get(int(parts[3])) if method == "PATCH" and len(parts) == 4 else None
            if waiting:
                waiting.popleft().edited = now
                self._wake_bare()
            return
        robot = self.computer_tables.get(channel)
        if robot is not None:
            self.computer_requests += not counted
            if robot.lobby_id is None and method == "POST" and len(parts) == 3 and _is_lobby(result):
                robot.lobby_id = int(result["id"])
            elif robot.lobby_id is not None and method in ("POST", "PATCH"):
                robot.updates += 1
                self.computer_updates += 1
                moves = [x for x in _labels(result) if x not in ("Rules", "Join", "Leave", "Start")]
                if moves and not robot.clicking and "Start" not in _labels(result):  # a board, not the lobby
                    robot.clicking = True
                    asyncio.get_running_loop().call_later(
                        PERSON_PAUSE, lambda: asyncio.ensure_future(self._person_clicks(robot, int(result["id"]))))
            if robot.waiter is not None and not robot.waiter.done():
                robot.waiter.set_result(None)
            return
        desk = self.desks.get(channel)
        if desk is None:
            return
        if method == "POST" and len(parts) == 3 and _is_lobby(result):
            desk.message_id = int(result["id"])
            desk.status = "lobby"
            self._wake(desk)
        elif method == "PATCH" and len(parts) == 4 and int(parts[3]) == desk.message_id:
            self.edits += 1
            desk.edits += 1
            desk.status = "playing" if any(x != "Rules" for x in _labels(result)) else "over"
            click, desk.pending = desk.pending, None
            if click is not None:
                click.edited = now
                self.moves += 1
                if self.idle is not None and desk.status == "playing":
                    self.idle.append(desk)
            self._wake(desk)

    def _wake(self, desk: Desk) -> None:
        if desk.waiter is not None and not desk.waiter.done():
            desk.waiter.set_result(None)

    def _wake_bare(self) -> None:
        waiter = getattr(self, "_bare_waiter", None)
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    # --- driving ---------------------------------------------------------------------------------------
    async def _click(self, desk: Desk, kind: str = "move", label: str | None = None,
                     message: dict | None = None, before=None) -> Click:
        """Clicks ``label`` (default: the first button but Rules) on the desk's message. The click is known
        before it is dispatched, so an acknowledgement however fast is matched."""
        fake = self.bare_fake if kind == "bare" else self.fake
        message = message or fake.messages[desk.message_id]
        if label is None:
            label = next(x for x in _labels(message) if x != "Rules")
        button = fake.find_component(message, label=label)
        it, payload = fake._interaction(3, desk.user, desk.channel,
                                        {"custom_id": button["custom_id"], "component_type": 2}, message)
        click = Click(it.id, desk, kind, time.perf_counter())
        self.clicks[it.id] = click
        if kind != "double":
            desk.pending = click
        if before is not None:
            before(click)
        await fake.dispatch("INTERACTION_CREATE", payload)
        return click

    async def _wait_desk(self, desk: Desk, condition, timeout: float = 30.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not condition():
            desk.waiter = loop.create_future()
            try:
                await asyncio.wait_for(desk.waiter, max(0.01, deadline - loop.time()))
            except TimeoutError:
                raise TimeoutError(f"table in channel {desk.channel}: nothing came (status {desk.status})") from None
            finally:
                desk.waiter = None

    async def open(self, desk: Desk) -> None:
        """/play geek-out turns:10, then Start: the table shows its first board."""
        desk.status, desk.message_id = "new", None
        await self.fake.slash(desk.user, desk.channel, "play", "geek-out", settle=False, turns=TURNS)
        await self._wait_desk(desk, lambda: desk.status == "lobby")
        await self._click(desk, "start", label="Start")
        await self._wait_desk(desk, lambda: desk.pending is None)

    async def open_many(self, desks: list[Desk], at_once: int = 32) -> float:
        gate = asyncio.Semaphore(at_once)
        started = time.perf_counter()

        async def one(desk):
            async with gate:
                await self.open(desk)

        await asyncio.gather(*(one(d) for d in desks))
        return time.perf_counter() - started

    async def move(self, desk: Desk) -> Click:
        """One move, waiting for its board."""
        click = await self._click(desk)
        await self._wait_desk(desk, lambda: desk.pending is None)
        return click

    async def _settled(self, clicks: list[Click], timeout: float) -> None:
        """Until every click is acknowledged (or refused) and every move's board is edited, or ``timeout``."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if all((c.acked is not None or c.ack_error is not None)
                   and (c.edited is not None or c.kind == "double") for c in clicks):
                return
            await asyncio.sleep(0.02)

    async def _quiet(self, for_seconds: float = 1.0, timeout: float = 30.0) -> None:
        """Until the fake saw no request for ``for_seconds`` (the computer tables' own requests aside: they
        play on by themselves)."""
        def requests() -> int:
            return len(self.fake.requests) - self.computer_requests

        deadline = time.perf_counter() + timeout
        seen, since = requests(), time.perf_counter()
        while time.perf_counter() < deadline:
            await asyncio.sleep(0.1)
            if requests() != seen:
                seen, since = requests(), time.perf_counter()
            elif time.perf_counter() - since >= for_seconds:
                return

    # --- the bot's own figures -------------------------------------------------------------------------
    def _workers(self) -> list[int]:
        with contextlib.suppress(OSError, ValueError):
            data = json.loads(self.stats_path.read_text())
            pids = [w["pid"] for w in data.get("workers", [])]
            self.worker_pids.update(pids)
            return pids
        return []

    def cpu(self) -> tuple[float, float]:
        """CPU seconds of the bot process (or of the bare bot while it runs) and of its render workers, now."""
        if self.bot is None or self.bot.proc is None:
            if self.bare is not None and self.bare.proc is not None:
                return cpu_seconds(self.bare.proc.pid), 0.0
            return 0.0, 0.0
        return cpu_seconds(self.bot.proc.pid), sum(cpu_seconds(p) for p in self._workers())

    def rss(self) -> tuple[int, int]:
        return rss_bytes(self.bot.proc.pid), sum(rss_bytes(p) for p in self._workers())

    async def reset_lag(self) -> None:
        """The bot's loop lag, and its step timings, start afresh. The timings first: the bot writes them in a
        signal handler on its event loop (tens of ms with thousands of samples), which a phase's lag must not
        count (it did: the one stall over 20 ms of the phases with the most clicks)."""
        await self.trace()
        if self.bare is not None and self.bare.proc is not None:
            self.bare.proc.send_signal(signal.SIGUSR1)
        if self.bot is not None and self.bot.proc is not None:
            self.bot.proc.send_signal(signal.SIGUSR1)
        self.watch.reset()

    async def trace(self) -> dict[str, list[float]]:
        """The bot's step timings since the last reset (benchmarks/bot_child.py)."""
        if self.bot is None or self.bot.proc is None:
            return {}
        self.bot.proc.send_signal(signal.SIGUSR2)
        self.trace_generation += 1
        for _ in range(50):
            await asyncio.sleep(0.05)
            with contextlib.suppress(OSError, ValueError):
                data = json.loads(self.trace_path.read_text())
                if data["generation"] >= self.trace_generation:
                    return data["samples"]
        return {}

    async def bot_lag(self) -> dict:
        """The bot's loop lag since the last reset, from a stats file written after now."""
        if self.bot is not None and self.bot.proc is not None:
            proc, path = self.bot.proc, self.stats_path
        elif self.bare is not None and self.bare.proc is not None:
            proc, path = self.bare.proc, self.bare_stats_path
        else:
            return {"p99": math.nan, "max": math.nan}
        now = time.time()
        for _ in range(40):
            with contextlib.suppress(OSError, ValueError):
                data = json.loads(path.read_text())
                if data["at"] >= now:
                    return data
            await asyncio.sleep(0.1)
        state = "running" if proc.returncode is None else f"exited with {proc.returncode}"
        raise TimeoutError(f"the bot stopped writing its loop stats (the bot process {state}; see "
                           f"{self.folder / 'bot.log'})")

    async def checkpoint(self, when: str) -> None:
        await self._quiet(0.5)
        await asyncio.sleep(1.0)  # let the bot's buffers settle
        bot, workers = self.rss()
        self.memory.append((when, self.moves, bot, workers))
        self.say(f"memory {when}: moves {self.moves}, bot rss {mb(bot)} MB, workers {mb(workers)} MB")

    async def phase(self, name: str, body) -> Phase:
        """Runs ``body(phase)`` with the bot's lag reset before and read after, CPU counted both sides."""
        phase = Phase(name)
        self.say(f"phase {name}")
        await self.reset_lag()
        await asyncio.sleep(0.05)
        (bot, workers), fake_cpu, busy, edits = self.cpu(), time.process_time(), machine_busy(), self.edits
        phase.started = time.perf_counter()
        await body(phase)
        phase.ended = time.perf_counter()
        bot2, workers2 = self.cpu()
        phase.bot_cpu, phase.workers_cpu = bot2 - bot, workers2 - workers
        phase.cpu = phase.bot_cpu + phase.workers_cpu
        phase.fake_cpu = time.process_time() - fake_cpu
        phase.others_cpu = max(0.0, machine_busy() - busy - phase.cpu - phase.fake_cpu)
        phase.edits = self.edits - edits
        phase.lag = await self.bot_lag()  # before the step timings are written (``reset_lag``)
        phase.trace = await self.trace()
        phase.fake_lag = self.watch.stats()
        self.phases[name] = phase
        self.say(f"  {describe(phase)}")
        return phase

    # --- phases ----------------------------------------------------------------------------------------
    async def idle_phase(self, phase: Phase) -> None:
        await asyncio.sleep(self.scale.idle_for)

    async def sequential(self, phase: Phase, desks: list[Desk], n: int, before_each=None) -> None:
        """``n`` moves one after the other, round the desks still playing (``await before_each()`` before each)."""
        desks = [d for d in desks if d.status == "playing"]
        i = 0
        while len(phase.clicks) < n:
            desk = desks[i % len(desks)]
            i += 1
            if desk.status != "playing":
                continue
            if before_each is not None:
                await before_each()
            phase.clicks.append(await self.move(desk))

    async def bare_sequential(self, phase: Phase, n: int) -> None:
        for _ in range(n):
            phase.clicks.append(await self.bare_move())

    async def bare_move(self) -> Click:
        """One click on the bare bot's message, returned once its edit came."""
        desk = Desk(self.bare_channel, FIRST_USER, self.bare_message_id)
        self._bare_waiter = asyncio.get_running_loop().create_future()
        click = await self._click(desk, "bare", label="Go", before=self.bare_pending[self.bare_message_id].append)
        if click.edited is None:
            await asyncio.wait_for(self._bare_waiter, 10)
        return click

    async def interleaved(self, phase: Phase, desks: list[Desk], n: int, board: Callable[[], object]) -> None:
        """Sequential clicks on our bot and on the bare bot in turn, with an in-process ``board()`` (the
        render the bare bot is spared) between them: the three baselines see the same machine."""
        bare, renders = phase.extra.setdefault("bare", []), phase.extra.setdefault("render", [])

        async def baselines() -> None:
            bare.append(await self.bare_move())
            t = time.perf_counter()
            board()
            renders.append(time.perf_counter() - t)

        await self.sequential(phase, desks, n, before_each=baselines)

    async def bare_burst(self, phase: Phase, tables: int) -> None:
        """The burst on the bare bot: two clicks on each of ``tables`` messages as fast as the fake dispatches
        (it answers both: defer and edit)."""
        messages = [bare_message(self.bare_fake, self.bare_channel) for _ in range(tables)]
        t0 = time.perf_counter()
        for message in messages:
            desk = Desk(self.bare_channel, FIRST_USER, int(message["id"]))
            pending = self.bare_pending[desk.message_id]
            for _ in range(2):
                phase.clicks.append(await self._click(desk, "bare", label="Go", message=message,
                                                      before=pending.append))
        phase.extra["dispatch"] = time.perf_counter() - t0
        await self._settled(phase.clicks, 30.0)
        phase.extra["all_acked"] = max((c.acked or math.inf) for c in phase.clicks) - t0
        phase.extra["all_edited"] = max((c.edited or math.inf) for c in phase.clicks) - t0
        await self._quiet(1.0)

    async def rate(self, phase: Phase, desks: list[Desk], rate: float, seconds: float, drain: float = 10.0) -> None:
        """Clicks at ``rate`` a second for ``seconds``, each on a table whose last board has come (round robin)."""
        self.idle = collections.deque(d for d in desks if d.status == "playing" and d.pending is None)
        try:
            t0 = time.perf_counter()
            for n in range(max(1, round(seconds * rate))):
                delay = t0 + n / rate - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                if self.idle:
                    phase.clicks.append(await self._click(self.idle.popleft()))
                else:
                    phase.starved += 1
            phase.extra["window"] = time.perf_counter() - t0
            await self._settled(phase.clicks, drain)
        finally:
            self.idle = None
        await self._settled(phase.clicks, 5.0)  # stragglers past the drain: lost or very late

    async def burst(self, phase: Phase, desks: list[Desk]) -> None:
        """Two clicks on every table as fast as the fake dispatches them: a double click each (the second
        carries the same, soon stale, board)."""
        desks = [d for d in desks if d.status == "playing" and d.pending is None]
        requests = len(self.fake.requests)
        t0 = time.perf_counter()
        for desk in desks:
            message = self.fake.messages[desk.message_id]
            label = next(x for x in _labels(message) if x != "Rules")
            phase.clicks.append(await self._click(desk, "move", label=label, message=message))
            phase.clicks.append(await self._click(desk, "double", label=label, message=message))
        phase.extra["dispatch"] = time.perf_counter() - t0
        await self._settled(phase.clicks, 30.0)
        phase.extra["all_acked"] = max((c.acked or math.inf) for c in phase.clicks) - t0
        phase.extra["all_edited"] = max((c.edited or math.inf) for c in phase.clicks if c.kind == "move") - t0
        await self._quiet(1.0)
        kinds = collections.Counter(m + " " + ("webhook" if p.startswith("/webhooks") else "message")
                                    for m, p in self.fake.requests[requests:]
                                    if p.startswith(("/webhooks", "/channels")))
        phase.extra["requests"] = dict(kinds)

    async def ramp(self, desks: list[Desk], capacity: float) -> tuple[float, list[Phase]]:
        """Offered rates from ``steps`` x the CPU's capacity, until one is not sustained (when the first already
        is not, half and a quarter of it are tried)."""
        best, phases = 0.0, []
        steps = list(self.scale.steps)
        k = 0
        while k < len(steps):
            rate = steps[k] * capacity
            k += 1
            p = await self.phase(f"ramp {k}: {rate:.0f}/s",
                                 lambda ph, r=rate: self.rate(ph, desks, r, self.scale.step_for, drain=5.0))
            phases.append(p)
            moves = p.moves()
            p99 = pct([c.to_edit for c in moves], 0.99)
            done = [c.edited for c in moves if c.edited is not None]
            achieved = len(done) / (max(done) - min(c.sent for c in moves)) if len(done) > 1 else 0.0
            p.extra["achieved"] = achieved
            ok = p.lost() == 0 and p.refused() == 0 and p99 <= P99_CAPACITY and p.starved == 0
            p.extra["sustained"] = ok
            await self._quiet(1.0)
            if ok:  # every click acknowledged and shown, p99 within bounds: the offered rate was sustained
                best = max(best, rate)
            elif best == 0.0 and steps[k - 1] > self.scale.steps[0] / 5:
                steps = steps[:k] + [steps[k - 1] / 2]  # nothing sustained yet: look lower
            else:
                break
        return best, phases

    async def soak(self, phase: Phase, desks: list[Desk], rate: float, moves: int) -> None:
        """At least ``moves`` more moves at ``rate``."""
        await self.rate(phase, desks, rate, max(1.0, moves / rate))

    async def _wait_robot(self, robot: ComputerTable, condition, timeout: float = 60.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not condition():
            robot.waiter = loop.create_future()
            try:
                await asyncio.wait_for(robot.waiter, max(0.01, deadline - loop.time()))
            except TimeoutError:
                raise TimeoutError(f"computer table in channel {robot.channel}: nothing came") from None
            finally:
                robot.waiter = None

    async def open_computer_table(self, robot: ComputerTable) -> None:
        """/play geek-out computers:2, then Start: the person plays their turns (``_person_clicks``)."""
        await self.fake.slash(robot.user, robot.channel, "play", "geek-out", settle=False, computers=2,
                              strength=robot.strength, turns=TURNS)
        await self._wait_robot(robot, lambda: robot.lobby_id is not None)
        lobby = self.fake.messages[robot.lobby_id]
        start = self.fake.find_component(lobby, label="Start")
        await self.fake.interact(robot.user, lobby, start["custom_id"], settle=False)
        await self._wait_robot(robot, lambda: robot.updates > 0)

    async def _person_clicks(self, robot: ComputerTable, message_id: int) -> None:
        """The person of a computer table clicks the first move button of their board (not measured)."""
        robot.clicking = False
        message = self.fake.messages.get(message_id)
        if not isinstance(message, dict):
            return
        moves = [x for x in _labels(message) if x not in ("Rules", "Join", "Leave", "Start")]
        if moves:
            button = self.fake.find_component(message, label=moves[0])
            with contextlib.suppress(Exception):  # a board replaced meanwhile: the next one is clicked
                it = await self.fake.interact(robot.user, message, button["custom_id"], settle=False)
                self.computer_clicks.update((str(it.id), it.token))
                robot.person_clicks += 1

    async def open_computer_tables(self, at_once: int = 16) -> float:
        gate = asyncio.Semaphore(at_once)
        started = time.perf_counter()

        async def one(robot):
            async with gate:
                await self.open_computer_table(robot)

        await asyncio.gather(*(one(r) for r in self.computer_tables.values()))
        return time.perf_counter() - started

    async def with_computers(self, phase: Phase, body) -> None:
        """``body(phase)``, counting the computers' board updates meanwhile (they play on their own)."""
        updates, t0 = self.computer_updates, time.perf_counter()
        clicks = sum(r.person_clicks for r in self.computer_tables.values())
        await body(phase)
        took = time.perf_counter() - t0
        phase.extra["computer boards/s"] = (self.computer_updates - updates) / took
        phase.extra["people clicks/s"] = (sum(r.person_clicks for r in self.computer_tables.values())
                                                   - clicks) / took

    # --- the whole run ---------------------------------------------------------------------------------
    async def run(self) -> dict:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError):  # a SIGTERM (timeout, kill) still stops the children
            loop.add_signal_handler(signal.SIGTERM, asyncio.current_task().cancel)
        try:
            return await self._run()
        finally:
            await self.close()

    async def _run(self) -> dict:
        s = self.scale
        await self.fake.start()
        await self.bare_fake.start()
        self.watch.start()
        png, render_time, png_sizes, board = measure_render(self.folder)
        self.say(f"render_board in-process: median {ms(render_time)} ms; png {png_sizes} bytes")
        # the baseline of one click: a bare discord.py bot
        self.bare = BareBotProcess(self.bare_fake, str(png), str(self.folder / "bare.log"),
                                   loop_stats=str(self.bare_stats_path))
        await self.bare.start()
        await self.bot_lag()
        self.bare_message_id = int(bare_message(self.bare_fake, self.bare_channel)["id"])
        await self.phase("bare warm-up", lambda p: self.bare_sequential(p, 20))
        bare = await self.phase("bare sequential", lambda p: self.bare_sequential(p, s.bare))
        bare_idle = await self.phase("bare idle", self.idle_phase)
        bare_burst = await self.phase(f"bare burst {2 * s.small}", lambda p: self.bare_burst(p, s.small))

        # through benchmarks/bot_child.py: its own command line, and the step timings
        self.bot = BotProcess(self.fake, str(self.folder / "geotable.db"), log_path=str(self.folder / "bot.log"),
                              env=self.env, module="benchmarks.bot_child", loop_stats=str(self.stats_path),
                              turn_timeout=3600)
        await self.bot.start(timeout=60)
        await self.bot_lag()
        if self.nice:  # an experiment: render workers below the event loop's priority
            for pid in self._workers():
                os.setpriority(os.PRIO_PROCESS, pid, self.nice)
        await self.checkpoint("idle, no table")
        idle0 = await self.phase("idle, no table", self.idle_phase)
        desks = list(self.desks.values())
        small, big = desks[: s.small], desks
        seq_desks = small[:10]
        # the first board after the cold start against the next ones (one table at a time; it was 3-11 s while
        # the render workers still warmed up with the bot online, see benchmarks/first_click.py)
        opened = []
        for desk in seq_desks[:4]:
            begun = time.perf_counter()
            await self.open(desk)
            opened.append(time.perf_counter() - begun)
        later = statistics.median(opened[1:])
        self.say(f"first table after the cold start (/play + Start to its board): {ms(opened[0])} ms / the next"
                 f" tables' {ms(later)} ms = {opened[0] / later:.2f} (target about 1)")
        await self.open_many(seq_desks[4:])
        await self.phase("warm-up", lambda p: self.sequential(p, seq_desks, 20))
        versus = await self.phase("sequential, in turn with the bare bot",
                                  lambda p: self.interleaved(p, seq_desks, s.sequential, board))
        await self.bare.stop()
        self.bare = None
        seq = await self.phase("sequential", lambda p: self.sequential(p, seq_desks, s.sequential))
        cpu_move = seq.cpu / len(seq.clicks)
        fake_move = seq.fake_cpu / len(seq.clicks)
        cores = os.cpu_count() or 1
        capacity = cores / (cpu_move + fake_move)  # the loopback Discord's share of a move runs on these cores too
        self.say(f"CPU per move {ms(cpu_move)} ms + the fake's {ms(fake_move)} ms -> capacity {capacity:.0f} moves/s")

        took = await self.open_many(small[10:])
        self.say(f"opened {len(small)} tables ({took:.1f} s)")
        await self.checkpoint(f"{len(small)} tables")
        idle_small = await self.phase(f"idle, {len(small)} tables", self.idle_phase)
        steady = await self.phase(f"{s.steady_rate:.0f}/s over {len(small)}",
                                  lambda p: self.rate(p, small, s.steady_rate, s.steady_for))
        await self._quiet(1.0)
        burst = await self.phase(f"burst {2 * len(small)} over {len(small)}", lambda p: self.burst(p, small))
        took = await self.open_many(big[s.small:])
        self.say(f"opened {len(big)} tables ({took:.1f} s)")
        await self.checkpoint(f"{len(big)} tables")
        idle_big = await self.phase(f"idle, {len(big)} tables", self.idle_phase)
        sustained = await self.phase(f"{s.sustained_rate:.0f}/s over {len(big)}",
                                     lambda p: self.rate(p, big, s.sustained_rate, s.sustained_for))
        await self._quiet(1.0)
        best, ramp = await self.ramp(big, capacity)
        await self._quiet(1.0)
        await self.checkpoint("after the ramp")
        # memory over many moves: the same rate, the same tables, two quiet readings
        soak_rate = max(20.0, 0.6 * (best or capacity))
        await self.phase("soak 1", lambda p: self.soak(p, big, soak_rate, s.soak_first))
        await self.checkpoint("soak, first part")
        more = max(s.soak_more, s.soak_to - self.moves)
        await self.phase("soak 2", lambda p: self.soak(p, big, soak_rate, more))
        await self.checkpoint("end")
        # computers beside the people: their tables play on their own while the people's phases run again
        computers = {}
        if s.computer_tables:
            took = await self.open_computer_tables()
            self.say(f"opened {s.computer_tables} tables of computers ({took:.1f} s)")
            computers["steady"] = await self.phase(
                f"{s.steady_rate:.0f}/s over {len(small)} + computers",
                lambda p: self.with_computers(p, lambda q: self.rate(q, small, s.steady_rate, s.steady_for)))
            await self._quiet(1.0)
            computers["burst"] = await self.phase(
                f"burst {2 * len(small)} + computers", lambda p: self.with_computers(p, lambda q: self.burst(q, small)))
        return dict(computers=computers, versus=versus, bare=bare, bare_idle=bare_idle, bare_burst=bare_burst, seq=seq, idle0=idle0, idle_small=idle_small, idle_big=idle_big, steady=steady,
                    burst=burst, sustained=sustained, ramp=ramp, best=best, capacity=capacity, cores=cores,
                    cpu_move=cpu_move, fake_move=fake_move, render_time=render_time, png_sizes=png_sizes, small=len(small), big=len(big))

    async def close(self) -> None:
        if self.bare is not None:
            with contextlib.suppress(Exception):
                await self.bare.stop()
        if self.bot is not None:
            self._workers()
            if self.bot.proc is not None:
                self.worker_pids.update(descendants(self.bot.proc.pid))
                if self.profile and self.bot.proc.returncode is None:  # SIGTERM writes the profile
                    self.bot.proc.terminate()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.bot.proc.wait(), 20)
            with contextlib.suppress(Exception):
                await self.bot.kill()
        for pid in self.worker_pids:  # workers exit by themselves once the bot is gone; make sure
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        if self.watch.task:
            self.watch.task.cancel()
        with contextlib.suppress(Exception):
            await self.fake.stop()
        with contextlib.suppress(Exception):
            await self.bare_fake.stop()


def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (all cores), from /proc/stat."""
    try:
        ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0.0
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> set[int]:
    """Processes under ``pid`` (its render workers and their resource tracker), from /proc."""
    children: dict[int, list[int]] = collections.defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                children[int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])].append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _labels(message: dict) -> list[str]:
    """The labels of a message's buttons, in order (a Components V2 message's nested ones too)."""
    return [c.get("label") or "" for c in interactive(message.get("components") or []) if c.get("type") == 2]


def _is_lobby(message: dict) -> bool:
    """A new lobby: it offers Join or Start (Start first for its seated host once the table may start; a
    computer's Remove beside its seat before either)."""
    return bool({"Join", "Start"} & set(_labels(message)))


def measure_render(folder: Path) -> tuple[Path, float, tuple[int, int], Callable[[], bytes]]:
    """The median time of ``render.render_board`` on Geek Out boards of a one-player game, in this process,
    a board PNG of median size for the bare bot, and a function drawing the next of those boards."""
    from games.geek_out.rules import GeekOut
    from render import render_board

    engine = GeekOut()
    views = []
    for seed in range(8):
        state = engine.new(1, {"turns": TURNS}, seed)
        for _ in range(6):
            if not engine.to_act(state):
                break
            views.append(engine.view(state, None))
            seat = next(iter(engine.to_act(state)))
            state, _ = engine.apply(state, seat, engine.legal_actions(state, seat)[0].key)
    last = "P0's Meeple rerolled die 4: Dragon -> 42"
    render_board("geek_out", views[0], ["P0"], last)
    times, pngs = [], []
    for i in range(60):
        t = time.perf_counter()
        png = render_board("geek_out", views[i % len(views)], ["P0"], last)
        times.append(time.perf_counter() - t)
        pngs.append(png)
    pngs.sort(key=len)
    path = folder / "board.png"
    path.write_bytes(pngs[len(pngs) // 2])
    turn = itertools.count()
    return (path, statistics.median(times), (len(pngs[0]), len(pngs[-1])),
            lambda: render_board("geek_out", views[next(turn) % len(views)], ["P0"], last))


def held(p: Phase) -> str:
    """How much of the phase's worst loop lag the loop thread spent running (ours to fix) rather than waiting for
    the CPU (bot/loopwatch.py)."""
    return f"longest lag spent running on the loop thread: {ms(p.lag.get('held_max', math.nan))} ms"


def describe(p: Phase) -> str:
    moves = p.moves()
    edit = [c.to_edit for c in moves]
    ack = [c.to_ack for c in p.clicks]
    text = (f"clicks {len(p.clicks)} lost {p.lost()} refused {p.refused()}"
            + (f" starved {p.starved}" if p.starved else "")
            + (f" | edit p50 {ms(pct(edit, .5))} p99 {ms(pct(edit, .99))} ms | ack p99 {ms(pct(ack, .99))} max "
               f"{ms(max(ack))} ms" if moves else "")
            + f" | bot lag p99 {ms(p.lag['p99'])} max {ms(p.lag['max'])} ms (on its CPU max "
            + f"{ms(p.lag.get('held_max', math.nan))} ms, {p.lag.get('held_over_20ms', '?')} of "
            + f"{p.lag.get('over_20ms', '?')} over 20 ms) | fake lag p99 "
              f"{ms(p.fake_lag['p99'])} max {ms(p.fake_lag['max'])} ms"
            + f" | cpu s: bot {p.bot_cpu:.1f} workers {p.workers_cpu:.1f} fake {p.fake_cpu:.1f} others "
              f"{p.others_cpu:.1f} over {p.ended - p.started:.1f} s")
    if p.extra:
        text += " | " + ", ".join(f"{k} {v:.3g}" if isinstance(v, float) else f"{k} {v}" for k, v in p.extra.items()
                                  if not isinstance(v, list))  # lists are the samples figures are made of
    return text


def report(load: Load, r: dict) -> int:
    rows = []  # (figure, measured, target, ok or None, baseline, the phases it comes from)
    cores = r["cores"]

    def add(name, value, target, ok, base, *phases):
        rows.append((name, value, target, ok, base, phases))

    def others(phases) -> float:
        """The share of the machine's CPU that other processes took while these phases ran."""
        wall = sum(p.ended - p.started for p in phases)
        return sum(p.others_cpu for p in phases) / (cores * wall) if wall else 0.0

    sc = load.scale
    small, big = r["small"], r["big"]
    idle_small, idle_big = r["idle_small"], r["idle_big"]
    # 1. no click is lost
    for key, what in (("burst", f"burst, {2 * small} clicks on {small} tables"),
                      ("sustained", f"{sc.sustained_rate:.0f} clicks/s on {big} tables")):
        p = r[key]
        lost = p.lost() + p.refused()
        ack = [c.to_ack for c in p.clicks]
        add(f"lost clicks, {what}", f"{lost}/{len(p.clicks)}", "0", lost == 0 and p.starved == 0,
            f"ack p99 {ms(pct(ack, .99))} max {ms(max(ack))} ms of the 3000 ms window", p)
    bb = r["bare_burst"]
    ack = [c.to_ack for c in bb.clicks]
    add("(info) the bare discord.py bot, the same burst", f"{bb.lost() + bb.refused()}/{len(bb.clicks)} lost", "-",
        None, f"ack p99 {ms(pct(ack, .99))} max {ms(max(ack))} ms; loop lag p99 {ms(bb.lag['p99'])} max "
              f"{ms(bb.lag['max'])} ms (idle {ms(r['bare_idle'].lag['max'])})", bb)
    # 2. the event loop
    # the target is the (500 tables at 50 clicks/s); the burst and the 2,000 tables are shown beside it:
    # their max is one full garbage collection of a heap of many tables (see "gc pause" above)
    for key, what, idle, target in (("steady", f"{sc.steady_rate:.0f}/s on {small} tables", idle_small, True),
                                    ("burst", f"burst on {small} tables", idle_small, False),
                                    ("sustained", f"{sc.sustained_rate:.0f}/s on {big} tables", idle_big, False)):
        p = r[key]
        add(f"{'' if target else '(info) '}bot loop lag p99 / max, {what}",
            f"{ms(p.lag['p99'])} / {ms(p.lag['max'])} ms", "max<=20ms" if target else "-",
            p.lag["max"] <= 0.020 if target else None,
            f"idle, same tables: {ms(idle.lag['p99'])} / {ms(idle.lag['max'])} ms; {held(p)}", p, idle)
    # 3. latency and capacity
    steady, seq = r["steady"], r["seq"]
    edit = [c.to_edit for c in steady.moves()]
    seq_edit = [c.to_edit for c in seq.clicks]
    add(f"click-to-edit p50 / p99, {sc.steady_rate:.0f}/s on {small} tables",
        f"{ms(pct(edit, .5))} / {ms(pct(edit, .99))} ms", "p99<300ms", pct(edit, .99) < 0.300,
        f"sequential p50 {ms(pct(seq_edit, .5))} ms (p99 = {pct(edit, .99) / pct(seq_edit, .5):.1f}x)", steady, seq)
    for key, what in (("burst", f"burst on {small} tables"), ("sustained", f"{sc.sustained_rate:.0f}/s on {big} tables")):
        e = [c.to_edit for c in r[key].moves()]
        add(f"(info) click-to-edit p50 / p99, {what}", f"{ms(pct(e, .5))} / {ms(pct(e, .99))} ms", "-", None,
            f"sequential p50 {ms(pct(seq_edit, .5))} ms", r[key], seq)
    cap_ratio = r["best"] / r["capacity"]
    add("capacity: max sustained / (cores / CPU per move)", f"{r['best']:.0f}/s = {cap_ratio:.2f}", ">=0.80",
        cap_ratio >= 0.8, f"{r['cores']} cores / ({ms(r['cpu_move'])} bot + workers + {ms(r['fake_move'])} the "
        f"loopback Discord's) = {r['capacity']:.0f}/s", seq, *r["ramp"])
    bot_only = r["cores"] / r["cpu_move"]
    add("(info) the same, against the bot's CPU per move alone", f"{r['best'] / bot_only:.2f}", "-", None,
        f"{r['cores']} / {ms(r['cpu_move'])} ms = {bot_only:.0f}/s", seq, *r["ramp"])
    sustained_steps = [p for p in r["ramp"] if p.extra.get("sustained")]
    if sustained_steps:
        top = max(sustained_steps, key=lambda p: p.extra["achieved"])
        left = r["cores"] * (1 - others([top]))
        per_move = r["cpu_move"] + r["fake_move"]
        add("(info) the same, against the CPU other processes left", f"{r['best'] / (left / per_move):.2f}",
            "-", None, f"{left:.2f} cores free in that step / {ms(per_move)} ms = {left / per_move:.0f}/s", top)
    versus = r["versus"]
    bare = [c.to_edit for c in versus.extra["bare"]]
    render_time = statistics.median(versus.extra["render"])
    ours, base = pct([c.to_edit for c in versus.clicks], .5), pct(bare, .5) + render_time
    add("sequential click-to-edit p50 / (bare bot + render), in turn", f"{ms(ours)} ms = {ours / base:.2f}",
        "<=1.2", ours / base <= 1.2, f"{ms(pct(bare, .5))} + {ms(render_time)} ms", versus)
    # 5. computers playing 100 tables beside the people's (the same phases again)
    if r["computers"]:
        cs, cb = r["computers"]["steady"], r["computers"]["burst"]
        lost = sum(p.lost() + p.refused() for p in (cs, cb))
        clicks = sum(len(p.clicks) for p in (cs, cb))
        ack = [c.to_ack for p in (cs, cb) for c in p.clicks]
        add(f"lost clicks with {sc.computer_tables} computer tables playing (steady + burst)", f"{lost}/{clicks}", "0",
            lost == 0 and cs.starved == 0, f"ack p99 {ms(pct(ack, .99))} max {ms(max(ack))} ms", cs, cb)
        add(f"bot loop lag p99 / max, {sc.steady_rate:.0f}/s + {sc.computer_tables} computer tables",
            f"{ms(cs.lag['p99'])} / {ms(cs.lag['max'])} ms", "max<=20ms", cs.lag["max"] <= 0.020,
            f"without computers: {ms(steady.lag['p99'])} / {ms(steady.lag['max'])} ms; {held(cs)}", cs, steady)
        e = [c.to_edit for c in cs.moves()]
        add(f"click-to-edit p50 / p99, {sc.steady_rate:.0f}/s + {sc.computer_tables} computer tables",
            f"{ms(pct(e, .5))} / {ms(pct(e, .99))} ms", "p99<300ms", pct(e, .99) < 0.300,
            f"without computers: {ms(pct(edit, .5))} / {ms(pct(edit, .99))} ms; the computer tables' boards "
            f"{cs.extra['computer boards/s']:.1f}/s", cs, steady)
    # 4. memory
    mem = {when: (moves, bot, workers) for when, moves, bot, workers in load.memory}
    idle_rss = mem["idle, no table"][1]
    m_small, m_big = mem[f"{small} tables"], mem[f"{big} tables"]
    per = (m_big[1] - idle_rss) / big
    marginal = (m_big[1] - m_small[1]) / (big - small)
    add(f"bot RSS per open table ({big} open)", f"{per / 1024:.1f} KB", "-", None,
        f"idle {mb(idle_rss)} MB; marginal {small}->{big} tables {marginal / 1024:.1f} KB")
    end, soak1 = mem["end"], mem["soak, first part"]
    growth = end[1] - soak1[1]
    per10k = growth / max(1, end[0] - soak1[0]) * 10_000
    add(f"bot RSS growth over {end[0] - soak1[0]} moves of the soak ({soak1[0]} -> {end[0]})",
        f"{mb(growth)} MB = {growth / soak1[1] * 100:+.1f}%", "<=+2%", growth / soak1[1] <= 0.02,
        f"{mb(soak1[1])} MB; {per10k / 2**20:+.2f} MB per 10,000 moves; workers {mb(soak1[2])} -> {mb(end[2])} MB")
    add(f"(info) bot RSS, {m_big[0]} -> {end[0]} moves", f"{mb(m_big[1])} -> {mb(end[1])} MB", "-", None,
        f"{(end[1] - m_big[1]) / m_big[1] * 100:+.1f}% (the peak-load phases between raise the heap's high-water)")

    print()
    print("Phases (bot lag: bot/loopwatch.py in the bot; fake lag: this process, where the fake Discord runs;")
    print("        cpu: bot main process, render workers, this process, the rest of the machine):")
    for name, p in load.phases.items():
        print(f"  {name:22} {describe(p)}")
    shown = [p for p in (seq, steady, r["burst"], r["sustained"], *r["ramp"][-2:], *r["computers"].values())
             if p.trace]
    if shown:
        print("Where a click's time goes in the bot (wall time of each step, p50 / p99 ms; benchmarks/bot_child.py):")
        labels = sorted(dict.fromkeys(k for p in shown for k in p.trace), key=lambda k: k.startswith("gc"))
        width = max(len(x) for x in labels)
        print(f"  {'step':{width}}  " + "  ".join(f"{p.name[:17]:>17}" for p in shown))
        for label in labels:
            cells = []
            for p in shown:
                v = p.trace.get(label) or []
                if label.startswith("gc pause"):  # how many, and the longest
                    cells.append(f"{len(v)}x, max {ms(max(v))}" if v else "-")
                else:
                    cells.append(f"{ms(pct(v, .5))} / {ms(pct(v, .99))}" if v else "-")
            print(f"  {label:{width}}  " + "  ".join(f"{c:>17}" for c in cells))
    bare_cpu = r["bare"].bot_cpu / max(1, len(r["bare"].clicks))
    print(f"CPU per click of the bare bot: {ms(bare_cpu)} ms (ours, main process: "
          f"{ms(seq.bot_cpu / len(seq.clicks))} ms)")
    print("Memory (quiet readings: moves since the bot started, bot RSS, render workers RSS):")
    for when, moves, bot, workers in load.memory:
        print(f"  {when:22} {moves:6d} moves  bot {mb(bot):>7} MB  workers {mb(workers):>7} MB")
    print(f"CPU per move, sequential: bot {ms(seq.bot_cpu / len(seq.clicks))} + workers "
          f"{ms(seq.workers_cpu / len(seq.clicks))} ms; the fake and driver {ms(r['fake_move'])} ms; render_board "
          f"alone {ms(r['render_time'])} ms (PNG {r['png_sizes'][0]}-{r['png_sizes'][1]} bytes). Idle bot: "
          f"{r['idle0'].bot_cpu / max(1e-9, r['idle0'].ended - r['idle0'].started) * 1e3:.0f} ms CPU a second.")
    print()
    w = max(len(x[0]) for x in rows)
    v = max(len(x[1]) for x in rows)
    print(f"{'figure':{w}}  {'measured':>{v}}  {'target':>9}  result  others  baseline (same run)")
    failed, noisy = 0, 0
    for name, value, target, ok, base, phases in rows:
        mark = "" if ok is None else ("PASS" if ok else "FAIL")
        failed += ok is False
        share = others(phases) if phases else 0.0
        noisy += share > 0.15
        print(f"{name:{w}}  {value:>{v}}  {target:>9}  {mark:6}  {share * 100:4.0f}%  {base}")
    print("(others: the share of the machine's CPU that other processes took meanwhile"
          + (f"; {noisy} figure(s) measured on a busy machine (>15%): run again when it is quiet)" if noisy else ")"))
    with contextlib.suppress(OSError):
        lines = (load.folder / "bot.log").read_text(errors="replace").splitlines()
        bad = [x for x in lines if (" ERROR " in x or " WARNING " in x or "Traceback" in x)
               and "voice will NOT be supported" not in x]
        if bad:
            print(f"\nThe bot logged {len(bad)} warnings/errors; first: {bad[0][:300]}")
    return failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of about a minute")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--keep", metavar="DIR", help="keep the database, logs and loop stats in DIR")
    parser.add_argument("--workers", type=int, help="render workers of the bot (default: its own, = cores)")
    parser.add_argument("--nice-workers", type=int, default=0, metavar="N",
                        help="experiment: renice the render workers to N (e.g. 10) once started")
    parser.add_argument("--profile", metavar="FILE", help="diagnosis: cProfile of the bot's event-loop thread "
                        "(adds overhead: figures are then not comparable)")
    args = parser.parse_args(argv)
    scale = QUICK if args.quick else FULL
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        folder = work_folder(stack, args.keep, "load")
        load = Load(scale, folder, quiet=args.quiet, workers=args.workers, nice=args.nice_workers,
                    profile=str(Path(args.profile).resolve()) if args.profile else None)
        results = asyncio.run(load.run())
        failed = report(load, results)
    print(f"\n{'quick' if args.quick else 'full'} load run: {time.perf_counter() - started:.0f} s, "
          f"{failed} figure(s) off target")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
