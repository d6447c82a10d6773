"""Computer players think in worker processes, never on the bot's event loop (like the boards: bot/workers/renderpool.py).

A decision is CPU work (a strong Geodeto or Globe Twister computer searches for up to a second or two) that
would stall every click of the process if it ran on the loop or in a thread of it. The pool is a sibling of the
render pool and reuses its workers (a process each, its own socket pair, pickled calls; they exit when the bot
dies); its size is GEOTABLE_AI_WORKERS (default: one per core). ``ready()`` (awaited before the bot goes
online) has every worker import every game's computer, so the first decision costs only its thinking.

The worker's side is :func:`think` (games/play.py): pure, from a snapshot of the state it is sent.
"""

from __future__ import annotations

import logging
import os

from bot.workers.pool import OnePool, Worker, WorkerPool

log = logging.getLogger(__name__)


def workers_wanted() -> int:
    return int(os.environ.get("GEOTABLE_AI_WORKERS", 0)) or os.cpu_count() or 1


# --- the worker side -------------------------------------------------------------------------------------------
def think(game: str, state: dict, seat: int, strength: str, seed: int, whole: bool,
          hold: bool = False) -> list[str]:
    """The keys the computer in ``seat`` plays from ``state`` (``games.play.computer_keys``)."""
    from games import get_engine
    from games.play import computer_keys

    return computer_keys(get_engine(game), state, seat, strength, seed, whole, hold)


NICENESS = 15
"""Thinking workers run below the bot's priority and the render workers' (bot/workers/renderpool.py): a
person's click (the event loop, the board renders) never waits behind a computer's search, which is paced by
seconds anyway (GEOTABLE_COMPUTER_PAUSE)."""


def _warm_up() -> None:
    """Imports every game's computer (its tables and caches load once, not at the first decision)."""
    from games import all_engines
    from games.ai import get_computer

    for engine in all_engines():
        try:
            get_computer(engine.slug)
        except ModuleNotFoundError:  # a game without a computer yet: its seats cannot be offered anyway
            pass


# --- the bot side ----------------------------------------------------------------------------------------------
class ThinkPool(WorkerPool):
    what = "thinking worker"

    def _new_worker(self) -> Worker:
        return Worker(preload="bot.workers.thinkpool", name="geotable-think", niceness=NICENESS)

    async def _warm(self, worker: Worker) -> None:
        if not worker.warm:
            await worker.call(_warm_up, ())
            worker.warm = True



_one = OnePool(lambda: ThinkPool(workers_wanted()))
pool, start, ready, pids = _one.pool, _one.start, _one.ready, _one.pids


async def decide(game: str, state: dict, seat: int, strength: str, seed: int, whole: bool,
                 hold: bool = False) -> list[str]:
    """What the computer in ``seat`` plays (see :func:`think`), decided in a worker process."""
    return await pool().run(think, game, state, seat, strength, seed, whole, hold)
