"""Boards are drawn in worker processes, never on the bot's event loop or in its threads.

Drawing and PNG encoding are CPU work that holds the GIL: in threads of the bot's own process they starve the
event loop under load (acknowledgements miss Discord's 3 seconds). Worker processes have their own GIL.

The pool (bot/workers/pool.py: a few long-lived processes, pickled calls over socket pairs) is process-wide and
stateless (it draws from views), so bots restarted in one process (tests) share it.

Warm-up: a fresh worker has yet to learn each game's PNG palette (drawing sample boards: ~1.5 s for all the
games, several seconds on a busy machine), so a board asked of it would wait that long. ``ready()`` (the bot
awaits it before it connects, so it is never online with cold workers) shares that work: the workers take the
games' palettes one by one from a common list, the pool hands every palette to every worker, and each loads
the fonts and photos. A start costs about the costliest share instead of the sum in each worker; a worker
started later (one that died) gets the palettes the same way before its first board.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time

from bot.workers.pool import OnePool, Worker, WorkerPool, ping

log = logging.getLogger(__name__)


def workers_wanted() -> int:
    return int(os.environ.get("GEOTABLE_RENDER_WORKERS", 0)) or os.cpu_count() or 1


NICENESS = 10
"""Render workers run below the bot's event loop: when the cores are busy (a burst of clicks, other
processes), the loop still acknowledges every click in time and the boards take what is left. Load benchmark
(`python -m benchmarks.load --quick`, 2 cores, 2026-11-28), render workers at the bot's priority against 10
below it (``--nice-workers 10``): loop lag at 50 clicks/s p99 2-12 ms, max 6-35 ms against p99 2-6 ms, max
4-9 ms; at 100 clicks/s max 42-141 ms against 29-39 ms; sustained rate 78-98 against 105-113 clicks/s.
Computers' thinking runs lower still (bot/workers/thinkpool.py)."""


class RenderPool(WorkerPool):
    what = "render worker"

    def _new_worker(self) -> Worker:
        return Worker(preload="render", name="geotable-render", niceness=NICENESS)

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
            await asyncio.gather(*(w.call(ping, ()) for w in workers))
            started = time.perf_counter()
            if self._palettes is None:
                games, learned = render.learned_games(), {}

                async def learn(worker: Worker) -> None:
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

    async def _warm(self, worker: Worker) -> None:
        """Hands a fresh worker the palettes and warms its fonts and photos (once the palettes are known)."""
        if not worker.warm and self._palettes is not None:
            import render

            await worker.call(render.share_palettes, (self._palettes,))
            await worker.call(render.warm_up, ())
            worker.warm = True


_one = OnePool(lambda: RenderPool(workers_wanted()))
pool, start, ready, pids = _one.pool, _one.start, _one.ready, _one.pids


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


async def standings(data: dict, *, locale: str = "en") -> bytes:
    """A tournament's standings image (``render.tournament.render_standings``). ``data``: {"title": the
    tournament and game, "note": e.g. "After round 3 of 5" (both already in the reader's language), "kind":
    "duels" | "tables" | "knockout", "rows": [{"place", "name", "points", "tiebreaks": [two numbers: duels
    Buchholz and Sonneborn-Berger, tables sum of places and opponents' points: ``Standing.tiebreaks``],
    "games", "wins", "dropped": bool, "you": bool (the asker's row), "out": knockout round out in or None}],
    sorted as ``bot.tournament.pairing.standings`` gives them}. More than 24 rows: the top 20 and the asker's."""
    from render.tournament import render_standings

    return await run(render_standings, data, locale)


async def bracket(data: dict, *, locale: str = "en") -> bytes:
    """A knockout's bracket image (``render.tournament.render_bracket``). ``data``: {"title", "note" (the
    header, in the reader's language), "rounds": [{"name": "Final"... (translated), "matches": [{"players":
    [{"name": str, "you": bool} or None (not known yet)], "winner": the index of who went on or None, "bye":
    bool}]}] (``bot.tournament.pairing.bracket``: every round, final last, matches in bracket order), "banner":
    "Ana wins the Spring Cup" or None}. It shows the last three rounds at most (the quarter-finals on, in duels)."""
    from render.tournament import render_bracket

    return await run(render_bracket, data, locale)


async def replay(game: str, players: list[dict], options: dict, seed: int, actions: list[tuple[int, str]],
                 final_last: str | None, heading: str, *, locale: str = "en", paced: bool = False):
    """A finished game rebuilt from its log, as an animated GIF and a move list (``bot.replay.build``): the
    engine's steps and the boards are CPU work, done in a worker like every board; ``locale``: their language."""
    from bot import replay as replays  # (imported in the worker: the replay is built there)

    return await run(replays.build, game, players, options, seed, actions, final_last, heading,
                     replays.animation.MAX_FRAMES, locale, paced)
