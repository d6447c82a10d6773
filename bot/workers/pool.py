"""The worker processes' transport and pool, shared by the two kinds of workers (bot/workers/renderpool.py
draws, bot/workers/thinkpool.py thinks).

The pool is a few long-lived processes, each talking to the bot over its own socket pair with asyncio streams
(a request: the pickled call; a reply: the pickled result), so a call costs its work plus well under a
millisecond of transport (``concurrent.futures.ProcessPoolExecutor`` costs ~2 ms more per call through its
feeder threads and queues). Calls wait for a free worker, a person's click before background work (``Idle``,
``background``); a worker that dies is replaced and the call retried
once. Workers watch their parent and exit when it dies, even by SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import importlib
import logging
import multiprocessing
import os
import pickle
import signal
import socket
import struct
import threading
import time
from collections import deque

log = logging.getLogger(__name__)

background: contextvars.ContextVar[bool] = contextvars.ContextVar("geotable_background", default=False)
"""True in work nobody is waiting on at that moment (a computer's move, a timer's firing): its calls to a pool
wait behind every call made for a person's click (``Idle``). Set once at the top of such a task; the tasks it
starts inherit it."""

_HEADER = struct.Struct("!I")


# --- the worker side (runs in the child process) ---------------------------------------------------------------
def _watch_parent(parent: int) -> None:
    while True:
        if os.getppid() != parent:
            os._exit(0)
        time.sleep(1.0)


def _recv_exactly(sock: socket.socket, n: int) -> bytes:
    data = bytearray()
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return bytes(data)


def _serve(sock: socket.socket, parent: int, preload: str) -> None:
    """The worker's loop: read a call, run it, send back ("ok", result) or ("error", exception). A worker whose
    bot is gone exits quietly (code 0, no traceback). ``preload``: the module the calls' functions live in,
    imported before the first one comes (``render`` for the render pool, bot/workers/thinkpool.py for thinking)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group: the bot shuts us down
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    importlib.import_module(preload)

    while True:
        try:
            (size,) = _HEADER.unpack(_recv_exactly(sock, _HEADER.size))
            fn, args = pickle.loads(_recv_exactly(sock, size))
        except (EOFError, OSError):  # the bot closed its end or died (even by SIGKILL): leave quietly
            os._exit(0)
        try:
            reply = ("ok", fn(*args))
        except Exception as exc:  # the bot logs it; the worker stays up
            reply = ("error", exc)
        data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            sock.sendall(_HEADER.pack(len(data)) + data)
        except OSError:  # the bot died while we drew (a reset connection, a broken pipe)
            os._exit(0)


def ping() -> None:
    """A no-op call: the worker has started and imported the renderers."""


# --- the bot side ----------------------------------------------------------------------------------------------
class Worker:
    def __init__(self, preload: str, name: str, niceness: int = 0):
        """``niceness``: how far below the bot's priority the process runs (``os.setpriority``), so that on
        busy cores the event loop (every click's acknowledgement) is served before the workers' CPU work."""
        ours, theirs = socket.socketpair()
        ctx = multiprocessing.get_context("spawn")
        self.process = ctx.Process(target=_serve, args=(theirs, os.getpid(), preload), daemon=True, name=name)
        self.process.start()
        if niceness:
            with contextlib.suppress(OSError):  # a system that refuses it: the bot's priority, still correct
                own = os.getpriority(os.PRIO_PROCESS, 0)
                os.setpriority(os.PRIO_PROCESS, self.process.pid, min(19, own + niceness))
        theirs.close()
        self.sock = ours
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.warm = False
        """It has every game's palette, the fonts and the photos (``RenderPool.ready``)."""
        self.owed = 0
        """Replies not read: a call cut short (cancelled, e.g. its bot stopped, or its event loop gone) leaves its
        reply in the socket, or half read in a reader of a loop that is gone; the pool replaces such a worker
        rather than hand that reply to the next call (``WorkerPool._usable``)."""

    async def call(self, fn, args: tuple):
        loop = asyncio.get_running_loop()
        if self.loop is not loop:  # streams belong to one event loop (tests run several, one after another)
            self.reader, self.writer = await asyncio.open_connection(sock=self.sock.dup())
            self.loop = loop
        data = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
        self.owed += 1
        self.writer.write(_HEADER.pack(len(data)) + data)
        (size,) = _HEADER.unpack(await self.reader.readexactly(_HEADER.size))
        status, value = pickle.loads(await self.reader.readexactly(size))
        self.owed -= 1
        if status == "error":
            raise value
        return value

    def alive(self) -> bool:
        return self.process.is_alive()

    def close(self) -> None:
        if self.writer is not None and self.loop is not None and not self.loop.is_closed():
            self.writer.close()  # (a stream of a loop that is gone cannot be closed: killing the worker ends it)
        self.sock.close()
        if self.process.is_alive():
            self.process.kill()


BACKGROUND_WAITS_AT_MOST = 2.0
"""Seconds a background call waits behind people's at most: then it goes next (a load of clicks that never
pauses held a computer's board, and the deadline loop awaiting its timers' boards, for good)."""


class Idle:
    """A pool's idle workers, handed out people first: a waiting call made in ``background`` gets a worker only
    when no call for a person's click waits, or once it has waited ``BACKGROUND_WAITS_AT_MOST``. Among each kind,
    first come first served; the worker used last goes out first (its caches are warm: a board drawn by a worker
    that was idle for a while costs ~15% more)."""

    def __init__(self):
        self._free: list[Worker] = []
        self._waiting: tuple[deque[tuple[float, asyncio.Future]], deque[tuple[float, asyncio.Future]]] = (
            deque(), deque())
        """Calls waiting for a worker (since when, its future): a person's first, then background ones."""

    def put_nowait(self, worker: Worker) -> None:
        people, later = self._waiting
        while later and later[0][1].done():
            later.popleft()
        overdue = bool(later) and time.monotonic() - later[0][0] >= BACKGROUND_WAITS_AT_MOST
        for queue in (later, people) if overdue else (people, later):
            while queue:
                _since, waiter = queue.popleft()
                if not waiter.done():
                    waiter.set_result(worker)
                    return
        self._free.append(worker)

    async def get(self, later: bool = False) -> Worker:
        """An idle worker; ``later``: a background call (see the class)."""
        if self._free:  # (a free worker means nobody waits)
            return self._free.pop()
        waiter = asyncio.get_running_loop().create_future()
        self._waiting[later].append((time.monotonic(), waiter))
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # handed a worker just as it was cancelled: pass it on
                self.put_nowait(waiter.result())
            raise

    def waiting(self) -> tuple[int, int]:
        """How many calls wait: (for people, in the background)."""
        return tuple(sum(not w.done() for _since, w in queue) for queue in self._waiting)


class WorkerPool:
    """Worker processes behind one idle queue: ``run(fn, *args)`` calls ``fn`` in an idle worker. A worker whose
    call was cut short (``Worker.owed``) or that died is replaced and warmed (``_warm``) before its next call.
    The render pool (bot/workers/renderpool.py) and the thinking pool (bot/workers/thinkpool.py) are its two kinds."""

    what = "worker"
    """How the log names a worker of this pool."""

    def __init__(self, size: int):
        self.size = size
        self._workers: list[Worker] = []
        self._idle: Idle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _new_worker(self) -> Worker:
        raise NotImplementedError  # each kind of pool starts its own (the module its calls live in)

    async def _warm(self, worker: Worker) -> None:
        """Makes a fresh worker ready for calls (sets ``worker.warm``); nothing by default."""
        worker.warm = True

    def start(self) -> None:
        while len(self._workers) < self.size:
            self._workers.append(self._new_worker())

    def _queue(self) -> Idle:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a bot restarted in the same process (tests): a queue of this loop
            self.start()
            self._idle = Idle()
            for worker in self._workers:
                self._idle.put_nowait(worker)
            self._loop = loop
        return self._idle

    async def run(self, fn, *args):
        idle = self._queue()
        worker = await idle.get(later=background.get())
        try:
            if worker.owed or not worker.warm:
                worker = self._usable(worker)
                await self._warm(worker)
            return await worker.call(fn, args)
        except (EOFError, ConnectionError, asyncio.IncompleteReadError):
            log.warning("a %s died; starting a new one and trying again", self.what)
            worker = self._replace(worker)
            await self._warm(worker)
            return await worker.call(fn, args)
        finally:
            idle.put_nowait(worker)

    def _usable(self, worker: Worker) -> Worker:
        """The worker, or a fresh one in its place when a call to it was cut short (its reply would be read as
        the next call's: a board's PNG taken for a palette, a board taken for a decision)."""
        return self._replace(worker) if worker.owed else worker

    def _replace(self, dead: Worker) -> Worker:
        dead.close()
        fresh = self._new_worker()
        self._workers[self._workers.index(dead)] = fresh
        return fresh

    async def ready(self) -> None:
        """Returns once every worker is warm (``_warm``; none is used meanwhile)."""
        idle = self._queue()
        workers = [self._usable(await idle.get()) for _ in self._workers]
        try:
            await asyncio.gather(*(self._warm(w) for w in workers))
        finally:
            for worker in workers:
                idle.put_nowait(worker)

    async def ready_within(self, timeout: float) -> None:
        """``ready``, awaited before the bot goes online: a worker that dies meanwhile or a machine too slow to
        warm up in ``timeout`` costs a warning, not the start (the work is then done as the workers get to
        it). The warm-up is not cancelled on a timeout: a call cut short would leave its reply in the worker's
        socket."""
        warming = asyncio.ensure_future(self.ready())
        done, _ = await asyncio.wait({warming}, timeout=timeout)
        if not done:
            log.warning("the %ss are not warm after %.0f s; starting anyway", self.what, timeout)
        elif warming.exception() is not None:
            log.warning("the %ss did not warm up (%r); starting anyway", self.what, warming.exception())

    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers]


class OnePool:
    """The one pool of a kind in this process, made on first use: the module-level face of renderpool and
    thinkpool (``pool()``, ``start()``, ``ready()``, ``pids()``)."""

    def __init__(self, make):
        self._make = make
        self._pool: WorkerPool | None = None

    def pool(self) -> WorkerPool:
        if self._pool is None:
            self._pool = self._make()
        return self._pool

    def start(self) -> None:
        """Starts the workers now (they import and warm up while the bot logs in)."""
        self.pool().start()

    async def ready(self, timeout: float = 120.0) -> None:
        """Waits until every worker is warm (``WorkerPool.ready_within``)."""
        await self.pool().ready_within(timeout)

    def pids(self) -> list[int]:
        return self._pool.pids() if self._pool is not None else []
