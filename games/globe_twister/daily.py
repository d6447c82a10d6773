"""The daily puzzle (issue 28 item 3): one Globe Twister solo puzzle per date, the same for everyone, with its
proven par. Pure: no discord, no database.

* The puzzle of a date is generated from the date alone (``puzzle_of("2026-11-29")``): a seed from the date's
  digest, the solved photo in one of its four turns, then random single-card steps undone from it; kept when
  its par is 4 to 6 cards.
* **Moves** are the cards a player places, over every turn (a card with no effect counts: it was placed). The
  red cards are out of the daily (The Long Voyage), and hints are off.
* **Par** is the fewest cards over any number of turns: a program of k cards in one turn is k single-card steps,
  and k single-card turns are a legal game, so the par is the shortest path from the puzzle to a solved photo
  (any of its four turns) in the graph of single placements. ``exact_par`` finds it by a bidirectional
  breadth-first search (every placement's inverse is a placement: G1/G2, G3, the swaps, Blue 5 from the line's
  other end), so the par is proven: no shorter sequence of cards exists. It is never more than the exact
  one-turn optimum (``solver.min_one_turn``).
"""

from __future__ import annotations

import datetime
import hashlib
from functools import lru_cache

from games.core import get_engine
from games.globe_twister.puzzle import (
    CELLS,
    DIRECTIONS,
    GREEN,
    TARGETS_ANY,
    Arrangement,
    apply_card,
    move_of,
    solved_in,
)
from games.globe_twister.solver import SeedRng
from i18n import _

GAME = "globe_twister"
OPTIONS = {"no_red": True, "puzzle": "random", "turn_limit": 10}
"""The daily's game: solo, no red cards, ten turns at most (unsolved after that)."""
PAR_RANGE = (4, 6)
SCRAMBLE = (5, 7)
"""Single-card steps undone from the solved photo (the par is at most this, often less)."""


@lru_cache(maxsize=1)
def placements() -> tuple[tuple[int, str, str | None], ...]:
    """One placement per distinct effect (no red cards): a swap placed from either end is one edge."""
    seen, out = set(), []
    probe = tuple(range(0, 36, 4))
    for cell in CELLS:
        for card in ("g1", "g2", "g3", "b1", "b2", "b3", "b4", "b5"):
            for direction in DIRECTIONS.get(card, (None,)):
                if card not in GREEN and move_of(cell, card, direction) is None:
                    continue
                effect = (cell, card) if card in GREEN else apply_card(probe, cell, card, direction)
                if effect not in seen:
                    seen.add(effect)
                    out.append((cell, card, direction))
    return tuple(out)


def _neighbours(arr: Arrangement):
    for cell, card, direction in placements():
        yield apply_card(arr, cell, card, direction), (cell, card, direction)


def exact_par(arr: Arrangement, limit: int = 8) -> list[tuple[int, str, str | None]] | None:
    """The shortest sequence of single placements (no red) that solves ``arr`` (any turn of the photo), or None
    if longer than ``limit``. Bidirectional breadth-first search, a whole layer of the smaller side at a time
    (the first layer that meets gives the optimum)."""
    arr = tuple(arr)
    if arr in TARGETS_ANY:
        return []
    fwd: dict = {arr: None}
    bwd: dict = {t: None for t in TARGETS_ANY}
    f_layer, b_layer, depth = [arr], list(TARGETS_ANY), 0
    while depth < limit:
        forward = len(f_layer) <= len(b_layer)
        layer, mine, other = (f_layer, fwd, bwd) if forward else (b_layer, bwd, fwd)
        nxt, meet = [], None
        for a in layer:
            for b, step in _neighbours(a):
                if b in mine:
                    continue
                mine[b] = (a, step)
                nxt.append(b)
                if b in other and meet is None:
                    meet = b
        depth += 1
        if meet is not None:
            return _path(meet, fwd, bwd)
        if not nxt:
            return None
        if forward:
            f_layer = nxt
        else:
            b_layer = nxt
    return None


def _path(meet: Arrangement, fwd: dict, bwd: dict) -> list[tuple[int, str, str | None]]:
    head, a = [], meet
    while fwd[a] is not None:
        prev, step = fwd[a]
        head.append(step)
        a = prev
    head.reverse()
    tail, a = [], meet
    while bwd[a] is not None:
        prev, _step = bwd[a]  # prev is one step nearer the solved photo; the way there undoes that step
        tail.append(_step_towards(a, prev))
        a = prev
    return head + tail


def _step_towards(a: Arrangement, b: Arrangement) -> tuple[int, str, str | None]:
    for c, step in _neighbours(a):
        if c == b:
            return step
    raise AssertionError("no placement between neighbours")  # pragma: no cover


def seed_of(day: str) -> int:
    """The date's seed: the same everywhere (no server id: everyone talks about the same puzzle)."""
    return int.from_bytes(hashlib.blake2b(f"geotable-daily:{day}".encode(), digest_size=8).digest(), "big")


@lru_cache(maxsize=8)
def puzzle_of(day: str) -> dict:
    """{"day", "tiles": [[tile, rotation] x 9], "par": cards, "solution": [[cell, card, dir], ...]}."""
    datetime.date.fromisoformat(day)  # a real date, or ValueError
    rng = SeedRng(seed_of(day))
    ops = placements()
    while True:
        arr = solved_in(rng.below(4))
        for _step in range(SCRAMBLE[0] + rng.below(SCRAMBLE[1] - SCRAMBLE[0] + 1)):
            arr = apply_card(arr, *ops[rng.below(len(ops))])
        best = exact_par(arr, PAR_RANGE[1])
        if best is not None and PAR_RANGE[0] <= len(best):
            return {"day": day, "tiles": [[c >> 2, c & 3] for c in arr], "par": len(best),
                    "solution": [list(p) for p in best]}


# --- playing it through the engine ---------------------------------------------------------------------
def start(day: str) -> dict:
    """The engine's solo state with the day's puzzle in place of its own scramble; hints off."""
    engine = get_engine(GAME)
    state = engine.new(1, OPTIONS, seed_of(day))
    state["puzzles"][0] = [list(p) for p in puzzle_of(day)["tiles"]]
    state["solo"]["plan"] = []  # no hints in the daily
    return state


def replay(day: str, log: list) -> dict:
    """The state after the member's keys (each one the engine's own; ``hint`` is never offered)."""
    engine = get_engine(GAME)
    state = start(day)
    for key in log:
        state, _events = engine.apply(state, 0, key)
        state["solo"]["plan"] = []
    return state


def step(day: str, log: list, key: str | None) -> dict:
    """The attempt after ``key`` (None: as it stands): {"state", "log", "events", "refused", "over", "turns":
    [tiles in place after each turn...], "moves", "solved"}. Run in the thinking workers (cheap, but a replay)."""
    engine = get_engine(GAME)
    state = replay(day, log)
    log, events, refused = list(log), [], False
    if key is not None:
        legal = {a.key for a in engine.legal_actions(state, 0)}
        if key not in legal or key == "hint":
            refused = True
        else:
            state, events = engine.apply(state, 0, key)
            state["solo"]["plan"] = []
            log.append(key)
    return {"state": state, "log": log, "events": events, "refused": refused, "over": engine.is_over(state),
            "moves": state["solo"]["cards"], "solved": state["solo"]["solved"], "grid": grid_of(day, log)}


def in_place(arr: Arrangement) -> int:
    """Tiles right for the nearest turn of the solved photo."""
    return max(sum(a == b for a, b in zip(arr, t, strict=True)) for t in TARGETS_ANY)


def grid_of(day: str, log: list) -> str:
    """One square per turn played, spoiler-free: 🟩 solved, 🟨 more tiles in place than before, ⬛ not."""
    engine = get_engine(GAME)
    state = start(day)
    before = in_place(tuple(t * 4 + r for t, r in state["puzzles"][0]))
    squares = []
    for key in log:
        turn = state["solo"]["turns"]
        state, _events = engine.apply(state, 0, key)
        state["solo"]["plan"] = []
        if state["solo"]["turns"] != turn:
            after = in_place(tuple(t * 4 + r for t, r in state["puzzles"][0]))
            squares.append("🟩" if state["solo"]["solved"] else "🟨" if after > before else "⬛")
            before = after
    return "".join(squares)


def dress(view: dict, day: str) -> dict:
    """A view of the daily's state as the renderer draws it: named the day's puzzle, not "Practice"."""
    if view.get("solo") is not None:
        view["solo"] = dict(view["solo"], level_name=_("Daily puzzle {day}", day=day))
    return view
