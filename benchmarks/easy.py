"""The easy computers against random play: a beginner, not a wreck (issue 24, docs/ai.md).

    python -m benchmarks.easy [--quick]

Easy should make a beginner's mistakes but still play toward the goal. Measured from fixed seeds (a run is
reproducible), each figure beside random play's and normal's where that makes sense:
- Geodeto: two-player games of easy against a uniformly random player (seats alternated): the games in which
  easy completed no goal, and its goals per game;
- Globe Twister: two-player rounds of easy against random (default options: a round ends without a winner
  after 10 turns): the rounds in which easy did not rebuild its photo within the 10 turns;
- Geek Out: the mean points a turn in solo games of 10 turns (target for easy: clearly between random and
  normal).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time

from benchmarks.ai import Table, wilson
from games import get_engine


def geodeto_goals(strength: str, n: int, seed0: int = 24_000) -> list[int]:
    """Goals ``strength`` completed in each of ``n`` two-player games against random play."""
    table = Table(get_engine("geodeto"))
    goals = []
    for g in range(n):
        seats = [strength, "random"] if g % 2 == 0 else ["random", strength]
        _result, state = table.play(seats, seed0 + g)
        goals.append(len(state["fulfilled"][seats.index(strength)]))
    return goals


def globe_twister_rebuilt(strength: str, n: int, seed0: int = 24_000) -> list[int | None]:
    """For each of ``n`` two-player rounds against random play, the turn in which ``strength`` rebuilt its photo
    (None: not within the round's 10 turns)."""
    table = Table(get_engine("globe_twister"))
    turns = []
    for g in range(n):
        seats = [strength, "random"] if g % 2 == 0 else ["random", strength]
        _result, state = table.play(seats, seed0 + g)
        [log] = state["travel_log"]
        turns.append(log["turns"] if log["winner"] == seats.index(strength) else None)
    return turns


def geek_out_points(strength: str, turns: int, seed0: int = 24_000) -> list[int]:
    """``strength``'s points in each of ``turns`` turns of solo games (10 turns a game)."""
    table = Table(get_engine("geek_out"))
    scores: list[int] = []
    seed = seed0
    while len(scores) < turns:
        _result, state = table.play([strength], seed, {"turns": 10})
        scores.extend(state["scores"][0])
        seed += 1
    return scores[:turns]


def mean_half(values: list[float]) -> tuple[float, float]:
    return statistics.mean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.easy", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games (a smoke run)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    geodeto_n, twister_n, geek_turns = (12, 20, 200) if args.quick else (60, 100, 2000)
    started = time.perf_counter()

    goals = geodeto_goals("easy", geodeto_n)
    none = sum(g == 0 for g in goals)
    low, high = wilson(none, geodeto_n)
    print(f"Geodeto, easy vs random: no goal completed in {none} of {geodeto_n} games (95% CI {low:.0%}-{high:.0%});"
          f" {statistics.mean(goals):.2f} goals a game")

    rebuilt = globe_twister_rebuilt("easy", twister_n)
    missed = sum(t is None for t in rebuilt)
    low, high = wilson(missed, twister_n)
    done = [t for t in rebuilt if t is not None]
    print(f"Globe Twister, easy vs random: photo not rebuilt within 10 turns in {missed} of {twister_n} rounds "
          f"(95% CI {low:.0%}-{high:.0%}); rebuilt in {statistics.mean(done):.1f} turns on average"
          if done else f"Globe Twister, easy vs random: never rebuilt in {twister_n} rounds")

    for strength in ("random", "easy", "normal"):
        mean, half = mean_half(geek_out_points(strength, geek_turns))
        print(f"Geek Out, {strength:>6}: {mean:5.2f} +- {half:.2f} points a turn (95%, {geek_turns} turns of solo games)")
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
