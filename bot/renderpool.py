"""Boards are drawn in worker processes, never on the bot's event loop or in its threads.

Drawing and PNG encoding are CPU work that holds the GIL: in threads of the bot's own process they starve the
event loop under load (acknowledgements miss Discord's 3 seconds). Worker processes have their own GIL. The
pool is process-wide and stateless (it draws from views), so bots restarted in one process (tests) share it;
workers exit by themselves when the bot process dies.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import render

log = logging.getLogger(__name__)

_lock = threading.Lock()
_executor: ProcessPoolExecutor | None = None


def workers_wanted() -> int:
    return int(os.environ.get("GEOTABLE_RENDER_WORKERS", 0)) or os.cpu_count() or 1


def _warm() -> None:
    """Runs once in each worker: imports and draws once so the first real board is not slow."""
    render.warm_up()


def executor() -> ProcessPoolExecutor:
    global _executor
    with _lock:
        if _executor is None:
            _executor = ProcessPoolExecutor(max_workers=workers_wanted(),
                                            mp_context=multiprocessing.get_context("spawn"), initializer=_warm)
        return _executor


def _reset(broken: ProcessPoolExecutor) -> None:
    global _executor
    with _lock:
        if _executor is broken:
            _executor = None
    broken.shutdown(wait=False, cancel_futures=True)


def pids() -> list[int]:
    pool = _executor
    return [p.pid for p in (getattr(pool, "_processes", None) or {}).values()] if pool else []


async def run(fn, *args):
    """``fn(*args)`` in a worker process. A pool whose worker died is replaced and the call tried again once."""
    loop = asyncio.get_running_loop()
    for attempt in (1, 2):
        pool = executor()
        try:
            return await loop.run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            log.warning("the render pool broke; starting a new one")
            _reset(pool)
            if attempt == 2:
                raise


async def board(game: str, view: dict, names: list[str], last: str | None, focus: dict | None) -> bytes:
    return await run(render.render_board, game, view, names, last, focus)


async def private(game: str, view: dict, name: str) -> bytes:
    return await run(render.render_private, game, view, name)


def start() -> None:
    """Starts the workers now (they import and warm up in parallel with the bot's login)."""
    pool = executor()
    for _ in range(workers_wanted()):
        pool.submit(_noop)


def _noop() -> None:
    return None
