"""Computer players, measured: self-play tournaments per game and think time per strength (docs/ai.md).

    python -m benchmarks.ai [--quick] [--game slug] [--games N]

For every game with a computer (``games/<slug>/ai.py``):
- two-player matches, seats alternated game by game: strong vs easy (target >= 75 %), normal vs a uniformly
  random player (target >= 90 %), strong vs normal (target > 50 %), strong vs greedy (target >= 90 %: the
  one-ply greedy player written from the rules, benchmarks/greedy.py, independent of the computers'
  evaluation); a win counts 1, a shared victory 1/2; the share is printed with its Wilson 95 % confidence
  interval;
- a multi-player table where the game allows one (3 seats: strong, normal, easy rotated; 4 seats with teams:
  strong partners against normal partners, sides alternated): each strength's average place (1 = first);
  and 3 seats of strong and two greedy players, strong's seat rotated: strong's average place against the
  greedy players' (target: strong's the best by a clear margin, its interval clear of theirs);
- think time per strength over every decision with a choice, as wall time and as CPU time
  (``time.process_time``: the process's own, which other jobs on the machine do not stretch): p50, p99 and
  the maximum (targets: easy and normal under 0.2 s, strong under 2 s);
- game-specific checks: Geek Out's strong mean turn score against the solver's optimum (mean over simulated
  turns with a 95 % interval).
``--greedy`` plays only the figures against the greedy player (strong vs greedy, the table of strong and two
greedy players) and the think times. ``--quick`` plays a few games of each (about a minute for all five games: a smoke run whose intervals are
wide); decisions and dice come from fixed seeds, so a run is reproducible. A figure is flagged off target
only when its interval says so (a win share whose whole 95 % interval misses the target, an average place
whose interval does not show strong ahead); think times are flagged when p99 or the maximum is over (in CPU
time, or in wall time only: then other jobs held the core).
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import random
import statistics
import sys
import time

import games
from benchmarks.greedy import Greedy
from games.ai import choose, decision_rng
from games.core import Engine

TARGETS = {("strong", "easy"): 0.75, ("normal", "random"): 0.90, ("strong", "normal"): 0.5,
           ("strong", "greedy"): 0.90}
THINK_TARGET = {"easy": 0.2, "normal": 0.2, "strong": 2.0}
QUICK_GAMES = 4
"""Two-player games per duel in ``--quick`` (seats alternated: two each way); the intervals are wide."""
QUICK_TABLES = 3
"""Games per multi-player table in ``--quick`` (every seat of the rotation once)."""


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (successes may be fractional: a shared victory is 1/2)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def with_computer() -> list[Engine]:
    return [e for e in games.all_engines() if importlib.util.find_spec(f"games.{e.slug}.ai") is not None]


class Table:
    """Plays computer-only games and keeps the think times by strength."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.greedy = Greedy(engine)
        self.times: dict[str, list[float]] = {}
        """Per strength, the wall time of each decision with a choice."""
        self.cpu: dict[str, list[float]] = {}
        """The same decisions' CPU time (``time.process_time``)."""

    def play(self, strengths: list[str], seed: int, options: dict | None = None):
        engine = self.engine
        state = engine.new(len(strengths), options or {}, seed)
        pick = random.Random(seed)
        for _ in range(100_000):
            to_act = sorted(engine.to_act(state))
            if not to_act:
                return engine.result(state), state
            seat = to_act[0]
            strength = strengths[seat]
            actions = engine.legal_actions(state, seat)
            if strength == "random":
                key = pick.choice(actions).key
            elif len(actions) == 1:
                key = actions[0].key
            elif strength == "greedy":
                key = self.greedy.choose(state, seat, decision_rng(("greedy", seed), state["ply"], seat))
            else:
                started, cpu = time.perf_counter(), time.process_time()
                key = choose(engine, state, seat, strength, ("bench", seed))
                self.cpu.setdefault(strength, []).append(time.process_time() - cpu)
                self.times.setdefault(strength, []).append(time.perf_counter() - started)
            state, _ = engine.apply(state, seat, key)
        raise RuntimeError(f"{engine.slug}: a benchmark game did not end")


def place(result, seat: int) -> float:
    """1 for first; seats tied share the better place."""
    before = 0
    for group in result.ranking:
        if seat in group:
            return before + 1
        before += len(group)
    raise ValueError(seat)


def duel(table: Table, a: str, b: str, n: int, seed0: int) -> tuple[float, int]:
    """``a``'s wins (a shared victory 1/2) in ``n`` two-player games against ``b``, seats alternated."""
    wins = 0.0
    for g in range(n):
        seats = [a, b] if g % 2 == 0 else [b, a]
        result, _ = table.play(seats, seed0 + g)
        me, other = seats.index(a), 1 - seats.index(a)
        wins += 1.0 if place(result, me) < place(result, other) else 0.5 if place(result, me) == place(result, other) else 0.0
    return wins, n


def tables(engine: Engine) -> list[int]:
    """Multi-player sizes measured: 3 seats where allowed, and 4 where the game plays it in teams."""
    out = [3] if engine.min_players <= 3 <= engine.max_players else []
    if engine.min_players <= 4 <= engine.max_players and engine.teams(4):
        out.append(4)
    return out


def multi(table: Table, players: int, n: int, seed0: int) -> tuple[int, dict[str, list[float]]]:
    """Average place per strength: 3 seats with strong, normal and easy rotated, or 4 seats as two teams
    (strong partners against normal partners, sides alternated)."""
    engine = table.engine
    teams = engine.teams(players)
    places: dict[str, list[float]] = {}
    for g in range(n):
        if teams:
            pair = ["strong", "normal"] if g % 2 == 0 else ["normal", "strong"]
            seats = [pair[s % 2] for s in range(players)]
        else:
            base = ["strong", "normal", "easy"]
            seats = [base[(s + g) % 3] for s in range(players)]
        result, _ = table.play(seats, seed0 + g)
        for s, strength in enumerate(seats):
            places.setdefault(strength, []).append(place(result, s))
    return players, places


def against_greedy(table: Table, n: int, seed0: int) -> dict[str, list[float]]:
    """Three seats, strong and two greedy players, strong's seat rotated: the places of strong and of the
    greedy players (both pooled)."""
    places: dict[str, list[float]] = {}
    for g in range(n):
        seats = ["greedy"] * 3
        seats[g % 3] = "strong"
        result, _ = table.play(seats, seed0 + g)
        for s, strength in enumerate(seats):
            places.setdefault(strength, []).append(place(result, s))
    return places


def geek_out_optimum(turns: int, seed0: int) -> tuple[float, float, float, int]:
    """Strong's mean points per turn in solo games (every turn played for points, none is a last turn
    against anyone) against the solver's expected value of a fresh turn."""
    from games.geek_out.ai import points_solver

    table = Table(games.get_engine("geek_out"))
    scores: list[int] = []
    seed = seed0
    while len(scores) < turns:
        _, state = table.play(["strong"], seed, {"turns": 10})
        scores.extend(state["scores"][0])
        seed += 1
    mean = statistics.mean(scores)
    half = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores))
    return points_solver().turn_start(), mean, half, len(scores)


def share_line(a: str, b: str, wins: float, played: int) -> tuple[str, tuple]:
    """One duel's line: the share, its Wilson interval and width, and a flag only when the whole interval
    is on the wrong side of the target."""
    low, high = wilson(wins, played)
    share = wins / played
    target = TARGETS[(a, b)]
    strict = b == "normal"  # strong vs normal: more often than not
    if (high <= target) if strict else (high < target):
        flag = "   BELOW TARGET"
    elif (share <= target) if strict else (share < target):
        flag = "   (below target, within the interval)"
    else:
        flag = ""
    line = (f"  {a:>6} vs {b:<6} {share:6.1%}  95% CI [{low:.1%}, {high:.1%}] (width {high - low:.0%})"
            f"  n={played}  target {'>' if strict else '>='} {target:.0%}{flag}")
    return line, (share, low, high, played)


def mean_interval(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % interval (normal approximation)."""
    mean = statistics.mean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("inf")
    return mean, half


def run_game(engine: Engine, n: int, multi_n: int, greedy_only: bool = False) -> dict:
    table = Table(engine)
    out: dict = {"game": engine.slug, "duels": {}}
    print(f"== {engine.title} ({engine.slug})")
    if engine.min_players <= 2 <= engine.max_players:
        for k, (a, b) in enumerate(TARGETS):
            if greedy_only and b != "greedy":
                continue
            wins, games_played = duel(table, a, b, n, 1000 * (k + 1))
            line, figures = share_line(a, b, wins, games_played)
            out["duels"][f"{a} vs {b}"] = figures
            print(line)
    for players in tables(engine) if multi_n and not greedy_only else []:
        players, places = multi(table, players, multi_n, 9000 + 100 * players)
        intervals = {k: mean_interval(v) for k, v in places.items()}
        out[f"multi {players}"] = {k: m for k, (m, _) in intervals.items()}
        shown = ", ".join(f"{k} {m:.2f} +- {h:.2f}" for k, (m, h) in sorted(intervals.items(), key=lambda kv: kv[1][0]))
        strong, rival = intervals["strong"], intervals["normal"]
        flag = "   STRONG NOT AHEAD" if strong[0] - strong[1] > rival[0] + rival[1] else ""
        print(f"  {players} players, average place (1 = first, 95% intervals, n={multi_n}): {shown}{flag}")
    if multi_n and engine.min_players <= 3 <= engine.max_players:
        places = against_greedy(table, multi_n, 7000)
        strong, rival = mean_interval(places["strong"]), mean_interval(places["greedy"])
        out["strong + 2 greedy"] = {"strong": strong[0], "greedy": rival[0]}
        won = sum(p == 1 for p in places["strong"])
        flag = "" if strong[0] + strong[1] < rival[0] - rival[1] else "   STRONG NOT CLEARLY AHEAD"
        print(f"  3 players, strong and two greedy (n={multi_n}): average place strong {strong[0]:.2f} +- "
              f"{strong[1]:.2f}, greedy {rival[0]:.2f} +- {rival[1]:.2f}; strong first {won}/{multi_n}{flag}")
    for strength in ("easy", "normal", "strong"):
        times, cpu = table.times.get(strength, []), table.cpu.get(strength, [])
        if not times:
            continue
        p50, p99, worst = percentile(times, 0.5), percentile(times, 0.99), max(times)
        c50, c99, cworst = percentile(cpu, 0.5), percentile(cpu, 0.99), max(cpu)
        limit = THINK_TARGET[strength]
        if max(c99, cworst) >= limit:
            flag = "   ABOVE TARGET"
        elif max(p99, worst) >= limit:  # the CPU time is within: other jobs held the core
            flag = "   ABOVE TARGET in wall time only"
        else:
            flag = ""
        print(f"  think {strength:>6}: p50 {p50 * 1e3:8.2f} ms  p99 {p99 * 1e3:8.2f} ms  max {worst * 1e3:8.1f} ms"
              f"  (CPU: p50 {c50 * 1e3:.2f}, p99 {c99 * 1e3:.2f}, max {cworst * 1e3:.1f} ms)"
              f"  ({len(times)} decisions; target < {limit} s){flag}")
        out[f"think {strength}"] = (p50, p99, worst, len(times))
        out[f"cpu {strength}"] = (c50, c99, cworst, len(cpu))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ai", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few games of each (a smoke run)")
    parser.add_argument("--game", help="one game's slug")
    parser.add_argument("--games", type=int, help="two-player games per pairing")
    parser.add_argument("--greedy", action="store_true",
                        help="only strong against the greedy player (duels, a table of three) and think times")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    n = args.games or (QUICK_GAMES if args.quick else 200)
    multi_n = QUICK_TABLES if args.quick and not args.games else max(30, n // 2)
    engines = [e for e in with_computer() if args.game in (None, e.slug)]
    if not engines:
        print(f"no computer for {args.game!r}")
        return 1
    started = time.perf_counter()
    for engine in engines:
        begun = time.perf_counter()
        run_game(engine, n, multi_n, args.greedy)
        if engine.slug == "geek_out" and not args.greedy:
            optimum, mean, half, turns = geek_out_optimum(100 if args.quick else 2000, 777)
            inside = abs(mean - optimum) <= half
            print(f"  strong's mean turn: {mean:.3f} +- {half:.3f} (95%, {turns} turns); the solver's optimum"
                  f" {optimum:.3f}{'' if inside else '   OUTSIDE THE INTERVAL'}")
        print(f"  ({time.perf_counter() - begun:.0f} s)")
        print()
    print(f"computer players: {time.perf_counter() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
