"""A 300-move game's replay (/replay): the log played again, the boards drawn and the animated GIF encoded,
timed in a render worker as the bot does it (bot/workers/renderpool.py ``replay``), against one board render as the
baseline. Prints seconds and bytes (target: a few seconds, a few MB, under Discord's 10 MB limit).

    python -m benchmarks.replay [--plies N]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time

from games import get_engine

GAME = "geomancy"
NAMES = ["Ana", "Bo"]


def long_game(plies: int) -> tuple[int, list[tuple[int, str]]]:
    """(seed, log) of a game played by random legal moves: the first seed whose game lasts ``plies`` moves or
    more, to its end (or, if none does in 40 seeds, the longest one)."""
    engine, best = get_engine(GAME), (0, [])
    for seed in range(40):
        rng, state, log = random.Random(seed), engine.new(len(NAMES), None, seed), []
        while not engine.is_over(state):
            seat = sorted(engine.to_act(state))[0]
            key = rng.choice(engine.legal_actions(state, seat)).key
            state, _ = engine.apply(state, seat, key)
            log.append((seat, key))
        if len(log) >= plies:
            return seed, log
        best = max(best, (seed, log), key=lambda b: len(b[1]))
    return best


async def timed_in_workers(seed: int, log: list[tuple[int, str]]) -> tuple[float, float, object]:
    from bot.table.words import board_view
    from bot.workers import renderpool
    from render import render_board

    players = [{"id": 100 + i, "name": n} for i, n in enumerate(NAMES)]
    await renderpool.ready()
    engine = get_engine(GAME)
    state = engine.new(len(NAMES), None, seed)
    for seat, key in log:
        state, _ = engine.apply(state, seat, key)
    view = board_view(engine, state)
    await renderpool.run(render_board, GAME, view, NAMES, "Final", None, ())  # warm
    begun = time.perf_counter()
    await renderpool.run(render_board, GAME, view, NAMES, "Final", None, ())
    board = time.perf_counter() - begun
    begun = time.perf_counter()
    made = await renderpool.replay(GAME, players, {}, seed, log, None, "Benchmark replay\n")
    return time.perf_counter() - begun, board, made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--plies", type=int, default=300)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    seed, log = long_game(args.plies)
    seconds, board, made = asyncio.run(timed_in_workers(seed, log))
    print(f"replay of a {len(log)}-move {GAME} game (seed {seed}): {seconds:.2f} s in a render worker,"
          f" {len(made.gif) / 1e6:.2f} MB GIF of {made.frames} frames, move list {len(made.moves) / 1e3:.1f} kB"
          f" (target: a few seconds, well under 10 MB)")
    print(f"  one board render (the baseline): {board * 1e3:.1f} ms; the replay costs {seconds / board:.0f} boards"
          + ("" if seconds < 5 and len(made.gif) < 10 * 1024 * 1024 else "   ABOVE TARGET"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
