"""What rebuilding a table's latest moves costs when it is loaded after a restart (bot/table/recent.py ``rebuild``:
the action log played again with each move's words), against playing the same log without words
(``Engine.replay``), for a long game of each kind played by random legal moves to its end. Prints milliseconds,
per move too.

    python -m benchmarks.recent
"""

from __future__ import annotations

import functools
import random
import time

from bot.table.recent import rebuild
from games import get_engine

GAMES = (("geek_out", 5, {"turns": 10}), ("geodeto", 5, {}), ("geomancy", 6, {}), ("geoneo", 4, {}),
         ("globe_twister", 5, {"travel_log": True}))


def best_of(runs: int, work) -> float:
    times = []
    for _run in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    for slug, players, options in GAMES:
        engine, rng = get_engine(slug), random.Random(3)
        state, log = engine.new(players, options, 3), []
        while not engine.is_over(state):
            seat = sorted(engine.to_act(state))[0]
            key = rng.choice(engine.legal_actions(state, seat)).key
            state, _events = engine.apply(state, seat, key)
            log.append((seat, key))
        seated = [{"id": i + 1, "name": f"P{i}"} for i in range(players)]
        words = best_of(3, functools.partial(rebuild, engine, seated, options, 3, log))
        bare = best_of(3, functools.partial(engine.replay, players, options, 3, log))
        print(f"{slug:14} {players} players {len(log):5} moves: rebuild {words * 1000:7.1f} ms "
              f"({words / len(log) * 1e6:4.0f} µs a move), replay without words {bare * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
