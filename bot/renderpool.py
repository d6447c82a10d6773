"""Boards are drawn in worker processes, never on the bot's event loop or in its threads.

Drawing and PNG encoding are CPU work that holds the GIL: in threads of the bot's own process they starve the
event loop under load (acknowledgements miss Discord's 3 seconds). Worker processes have their own GIL.

The pool is a few long-lived processes, each talking to the bot over its own socket pair with asyncio streams
(a request: the pickled call; a reply: the pickled result), so a board costs its render plus well under a
millisecond of transport (``concurrent.futures.ProcessPoolExecutor`` costs ~2 ms more per call through its
feeder threads and queues). Calls wait for a free worker; a worker that dies is replaced and the call retried
once. The pool is process-wide and stateless (it draws from views), so bots restarted in one process (tests)
share it. Workers watch their parent and exit when it dies, even by SIGKILL.

Warm-up: a fresh worker has yet to learn each game's PNG palette (drawing sample boards: ~1.5 s for all the
games, several seconds on a busy machine), so a board asked of it would wait that long. ``ready()`` (the bot
awaits it before it connects, so it is never online with cold workers) shares that work: the workers take the
games' palettes one by one from a common list, the pool hands every palette to every worker, and each loads
the fonts and photos. A start costs about the costliest share instead of the sum in each worker; a worker
started later (one that died) gets the palettes the same way before its first board.
"""

from __future__ import annotations

import asyncio
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

log = logging.getLogger(__name__)

_HEADER = struct.Struct("!I")


def workers_wanted() -> int:
    return int(os.environ.get("GEOTABLE_RENDER_WORKERS", 0)) or os.cpu_count() or 1


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


def _serve(sock: socket.socket, parent: int, preload: str = "render") -> None:
    """The worker's loop: read a call, run it, send back ("ok", result) or ("error", exception). A worker whose
    bot is gone exits quietly (code 0, no traceback). ``preload``: the module the calls' functions live in,
    imported before the first one comes (the thinking workers of bot/thinkpool.py preload theirs)."""
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


def _started() -> None:
    """A no-op call: the worker has started and imported the renderers."""


# --- the bot side ----------------------------------------------------------------------------------------------
class _Worker:
    def __init__(self, preload: str = "render", name: str = "geotable-render"):
        ours, theirs = socket.socketpair()
        ctx = multiprocessing.get_context("spawn")
        self.process = ctx.Process(target=_serve, args=(theirs, os.getpid(), preload), daemon=True, name=name)
        self.process.start()
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


class WorkerPool:
    """Worker processes behind one idle queue: ``run(fn, *args)`` calls ``fn`` in an idle worker. A worker whose
    call was cut short (``_Worker.owed``) or that died is replaced and warmed (``_warm``) before its next call.
    The render pool (below) and the thinking pool (bot/thinkpool.py) are its two kinds."""

    what = "worker"
    """How the log names a worker of this pool."""

    def __init__(self, size: int):
        self.size = size
        self._workers: list[_Worker] = []
        self._idle: asyncio.LifoQueue[_Worker] | None = None
        """Idle workers, the last one used first: its caches are warm (a board drawn by a worker that was
        idle for a while costs ~15% more)."""
        self._loop: asyncio.AbstractEventLoop | None = None

    def _new_worker(self) -> _Worker:
        return _Worker()

    async def _warm(self, worker: _Worker) -> None:
        """Makes a fresh worker ready for calls (sets ``worker.warm``); nothing by default."""
        worker.warm = True

    def start(self) -> None:
        while len(self._workers) < self.size:
            self._workers.append(self._new_worker())

    def _queue(self) -> asyncio.LifoQueue:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a bot restarted in the same process (tests): a queue of this loop
            self.start()
            self._idle = asyncio.LifoQueue()
            for worker in self._workers:
                self._idle.put_nowait(worker)
            self._loop = loop
        return self._idle

    async def run(self, fn, *args):
        idle = self._queue()
        worker = await idle.get()
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

    def _usable(self, worker: _Worker) -> _Worker:
        """The worker, or a fresh one in its place when a call to it was cut short (its reply would be read as
        the next call's: a board's PNG taken for a palette, a board taken for a decision)."""
        return self._replace(worker) if worker.owed else worker

    def _replace(self, dead: _Worker) -> _Worker:
        dead.close()
        fresh = self._new_worker()
        self._workers[self._workers.index(dead)] = fresh
        return fresh

    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers]


class RenderPool(WorkerPool):
    what = "render worker"

    def __init__(self, size: int):
        super().__init__(size)
        self._palettes: dict | None = None
        """Every game's palette, learned by the workers at the first ``ready()``."""

    async def ready(self) -> None:
        """Returns once every worker is warm (see the module's docstring). The first call learns the palettes,
        each game's in one worker; later calls (a bot restarted in the same process) return at once."""
        import render

        idle = self._queue()
        workers = [self._usable(await idle.get()) for _ in self._workers]  # none is drawing meanwhile
        begun = time.perf_counter()
        try:
            await asyncio.gather(*(w.call(_started, ()) for w in workers))
            started = time.perf_counter()
            if self._palettes is None:
                games, learned = render.learned_games(), {}

                async def learn(worker: _Worker) -> None:
                    while games:
                        game = games.pop(0)
                        learned[game] = await worker.call(render.palette, (game,))

                await asyncio.gather(*(learn(w) for w in workers))
                self._palettes = learned
            await asyncio.gather(*(self._warm(w) for w in workers))
            log.info("render workers warm in %.2f s (started %.2f s, then palettes, fonts and photos)",
                     time.perf_counter() - begun, started - begun)
        finally:
            for worker in workers:
                idle.put_nowait(worker)

    async def _warm(self, worker: _Worker) -> None:
        """Hands a fresh worker the palettes and warms its fonts and photos (once the palettes are known)."""
        if not worker.warm and self._palettes is not None:
            import render

            await worker.call(render.share_palettes, (self._palettes,))
            await worker.call(render.warm_up, ())
            worker.warm = True


_pool: RenderPool | None = None


def pool() -> RenderPool:
    global _pool
    if _pool is None:
        _pool = RenderPool(workers_wanted())
    return _pool


def start() -> None:
    """Starts the workers now (they import and warm up in parallel with the bot's login)."""
    pool().start()


async def ready(timeout: float = 120.0) -> None:
    """Waits until the render workers are warm (the bot awaits it before it goes online). A worker that dies
    meanwhile or a machine too slow to warm up in ``timeout`` costs a warning, not the start: the boards are
    then drawn as the workers get to them."""
    warming = asyncio.ensure_future(pool().ready())  # not cancelled on a timeout: a call cut short would
    done, _ = await asyncio.wait({warming}, timeout=timeout)  # leave its reply in the worker's socket
    if not done:
        log.warning("the render workers are not warm after %.0f s; starting anyway", timeout)
    elif warming.exception() is not None:
        log.warning("the render workers did not warm up (%r); starting anyway", warming.exception())


def pids() -> list[int]:
    return pool().pids() if _pool else []


async def run(fn, *args):
    """``fn(*args)`` in a worker process (``fn`` must be importable by name: it travels pickled)."""
    return await pool().run(fn, *args)


async def board(game: str, view: dict, names: list[str], last: str | None, focus: dict | None,
                computers: tuple[int, ...] = (), *, locale: str = "en") -> bytes:
    """The public board (``render.render_board``); ``computers``: the seats a computer plays (marked by name);
    ``locale``: the language of its words (names and ``last`` may be ``Text``: they travel pickled as Text and
    are said in ``locale`` in the worker)."""
    import render

    return await run(render.render_board, game, view, names, last, focus, tuple(computers), locale)


async def private(game: str, view: dict, name: str, *, locale: str = "en") -> bytes:
    import render

    return await run(render.render_private, game, view, name, locale)


async def leaderboard(title: str, rows: list[dict], own: dict | None, players: int, asker: int, *,
                      locale: str = "en") -> bytes:
    """A game's leaderboard image (``render.records.render_leaderboard``)."""
    from render.records import render_leaderboard

    return await run(render_leaderboard, title, rows, own, players, asker, locale)


async def trends(name: str, charts: list[dict], *, locale: str = "en") -> bytes:
    """A member's rating trend per game (``render.records.render_trends``)."""
    from render.records import render_trends

    return await run(render_trends, name, charts, locale)


async def replay(game: str, players: list[dict], options: dict, seed: int, actions: list[tuple[int, str]],
                 final_last: str | None, heading: str, *, locale: str = "en"):
    """A finished game rebuilt from its log, as an animated GIF and a move list (``bot.replay.build``): the
    engine's steps and the boards are CPU work, done in a worker like every board; ``locale``: their language."""
    from bot import replay as replays

    return await run(replays.build, game, players, options, seed, actions, final_last, heading,
                     replays.animation.MAX_FRAMES, locale)
