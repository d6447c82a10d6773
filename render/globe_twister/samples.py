"""Seeded sample games for the tests and benchmarks."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Sequence

from games.globe_twister.puzzle import (
    DIRECTIONS,
    RED,
)


# --- sample games (tests, palette) --------------------------------------------------------------------------
def _program_keys(rng: random.Random, hand: list[str], cards: int) -> list[str]:
    keys = []
    cells = rng.sample(range(9), min(cards, 9))
    pool = list(hand)
    rng.shuffle(pool)
    red = False
    for cell in cells:
        card = next((c for c in pool if not (c in RED and red)), None)
        if card is None:
            break
        pool.remove(card)
        red = red or card in RED
        keys += [f"c{cell}", f"k{card}"]
        if card in DIRECTIONS:
            keys.append(f"d{rng.choice(DIRECTIONS[card])}")
    return keys


def sample_game(players: int, seed: int, options: dict | None = None, solvers: Sequence[int] = (0,),
                stop_at: int = 400) -> Iterator[dict]:
    """Every state of a seeded game: the seats in ``solvers`` play a known solution (so photos get rebuilt),
    the others random cards; each locks in when its program is set, the sand timer runs out now and then."""
    from games.globe_twister.puzzle import from_pairs
    from games.globe_twister.rules import GlobeTwister
    from games.globe_twister.solver import plan

    engine = GlobeTwister()
    state = engine.new(players, dict(options or {}), seed)
    rng = random.Random(seed)
    queues: dict[int, list[str]] = {}
    stage = None
    count = 0
    yield state
    while engine.to_act(state) and count < stop_at:
        count += 1
        if state["phase"] == "program" and state["stage"] != stage:
            stage = state["stage"]
            queues = {}
            for s in engine.to_act(state):
                hand = state["hands"][s]
                if s in solvers:
                    any_rotation = state["solo"] is not None
                    red = state["solo"]["red"] if state["solo"] is not None else not state["options"]["no_red"]
                    found = plan(from_pairs(state["puzzles"][s]), hand, red=red,
                                 red_left=[c for c in RED if c in hand], any_rotation=any_rotation)
                    keys = []
                    for cell, card, direction in (found[0] if found else []):
                        keys += [f"c{cell}", f"k{card}"] + ([f"d{direction}"] if direction else [])
                    queues[s] = keys + ["lock"]
                else:
                    queues[s] = _program_keys(rng, hand, rng.randrange(0, 6)) + ["lock"]
        running = engine.timer(state)
        if running and rng.random() < 0.08:
            state, _ = engine.apply(state, -1, f"timer:{running[0]}")
            yield state
            continue
        seat = rng.choice(sorted(engine.to_act(state)))
        if state["phase"] == "side":
            key = rng.choice(["front", "back"])
        else:
            queue = queues.get(seat) or ["lock"]
            key = queue.pop(0)
        state, _ = engine.apply(state, seat, key)
        yield state


def sample_states(players: int, seed: int, options: dict | None = None,
                  solvers: Sequence[int] = (0,)) -> list[tuple[str, dict]]:
    """Tagged states of a seeded game: the start, mid-programming (a step in progress), someone locked in with
    the timer running, right after a run, a new round, the end."""
    out: list[tuple[str, dict]] = []
    seen: set[str] = set()
    prev_run = None
    for i, s in enumerate(sample_game(players, seed, options, solvers)):
        tag = None
        if i == 0:
            tag = "start"
        elif s["phase"] == "over":
            tag = "over"
        elif s["phase"] == "side":
            tag = "side"
        elif s["last_run"] is not None and s["last_run"]["stage"] != prev_run:
            prev_run = s["last_run"]["stage"]
            tag = "run" if "run" not in seen else ("new round" if s["turn"] == 1 else "run 2")
        elif any(s["steps"]) and "step" not in seen:
            tag = "step"
        elif any(s["locked"]) and s["starter"] is not None and "locked" not in seen:
            tag = "locked"
        if tag and tag not in seen:
            seen.add(tag)
            out.append((tag, copy.deepcopy(s)))
    return out
