"""Globe Twister's computer player: it plans a whole program from its own puzzle and hand, then enters it card
by card with the engine's ordinary keys (``c<cell>``, ``k<card>``, ``d<dir>``, ``x``) and locks in. At a table
the bot holds that lock-in back while a person is still programming (``games.play.computer_keys``'s ``hold``; rule
decision 7a in docs/rules/globe-twister.md), so a computer never turns the sand timer before the people.

Everyone programs at once and in secret, so the computer decides from its own view only: its puzzle, its hand
(red cards played are gone) and whether any turn of the whole photo counts (solo). Other players' programs are
never in its view and never matter to its plan. The plan is a pure function of that view and the strength, so
every decision recomputes the same program (remembered, so only the first key of a turn thinks) and the next
key follows from comparing it with the program entered so far.

Strengths:
- ``easy``: some turns the hint planner's turn (as normal), else one cheap look for a short one-turn
  solution, else a short random-ish improvement, built cell by cell in reading order.
- ``normal``: the solver's hint planner: an exact one-turn solution of up to five cards under a small node
  budget, else a greedy beam-search turn (preferring one after which a short finish is known).
- ``strong``: the solver's optimum: the shortest one-turn program (exact iterative deepening, red cards kept
  where a program without them exists, the rules' first tiebreaker); when no turn can solve the puzzle, a
  beam search for a turn after which one more turn solves it (checked exactly), else the planner.
"""

from __future__ import annotations

import hashlib
import random
from functools import lru_cache

from games.ai import Computer
from games.core import Action
from games.globe_twister.puzzle import (
    CELLS,
    RED,
    TARGETS_ANY,
    TARGETS_UPRIGHT,
    Arrangement,
    Placement,
    from_pairs,
    run_placements,
)
from games.globe_twister.solver import (
    RED_BITS,
    SearchLimit,
    _apply_op,
    _score,
    hand_mask,
    min_one_turn,
    needs_two_turns,
    placements_at,
    plan,
    turn_candidates,
)
from i18n import _

STRONG_NODES = 60_000
"""Positions the strong one-turn search may look at (the optimum of every puzzle a turn can solve in the tests
and benchmarks is found well within it)."""
STRONG_WIDTH = 40
"""Turns the strong player tries as the first of a two-turn solution."""
STRONG_FINISH_NODES = 3_000
"""Positions per tried turn for the exact search of the finishing turn."""
STRONG_FINISH_SEARCHES = 12
"""At most this many tried turns get that search (the most promising first): a bound on the think time."""
EASY_NODES = 150
"""Positions easy's quick look for a short one-turn solution may look at."""
EASY_PLANNED = 0.3
"""Easy's share of turns played with the hint planner (normal's turn): enough to finish its photo."""


def plan_seed(arr: Arrangement, hand: tuple, any_rotation: bool, seat: int, turn: int) -> int:
    """The seed of a turn's plan: drawn from the view, so every decision of the turn plans the same program."""
    text = repr((arr, hand, any_rotation, seat, turn))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def _one_turn(arr: Arrangement, hand, *, red: bool, any_rotation: bool, max_cards: int,
              nodes: int) -> list[Placement] | None:
    try:
        return min_one_turn(arr, hand, red=red, any_rotation=any_rotation, max_cards=max_cards, node_limit=nodes)
    except SearchLimit:
        return None


def rotation_excess(arr: Arrangement, any_rotation: bool) -> int:
    """How many more tiles are turned wrong than one turn's green cards can set right, at best over the
    accepted orientations: each green card turns one tile by its own amount (G1 a quarter clockwise, G2 counter-
    clockwise, G3 a half), so a turn sets right at most one tile of each wrong amount (moves never turn)."""
    best = 99
    for k in (range(4) if any_rotation else (0,)):
        need = [0, 0, 0, 0]
        for code in arr:
            need[(k - code) & 3] += 1
        best = min(best, max(0, need[1] - 1) + max(0, need[2] - 1) + max(0, need[3] - 1))
    return best


def finishing_candidates(arr: Arrangement, hand, *, red: bool, any_rotation: bool,
                         width: int) -> list[tuple[list[Placement], Arrangement]]:
    """First turns of a two-turn solution, most promising first: a beam search over the cells in reading
    order that leaves as few tiles as possible which the next turn's green cards cannot turn, then the
    solver's distance."""
    targets = TARGETS_ANY if any_rotation else TARGETS_UPRIGHT

    def rank(a: Arrangement) -> tuple:
        return rotation_excess(a, any_rotation), _score(a, targets)

    mask0 = hand_mask(hand) & (~0 if red else ~RED_BITS)
    beam = [(rank(arr), 0, arr, mask0, red, ())]
    for cell in CELLS:
        options: dict = {}
        for entry in beam:
            _rank, used, a, mask, red_free, placed = entry
            options.setdefault((a, mask), entry)
            for card, direction, bit, kind, data in placements_at(cell):
                if not mask & bit or (bit & RED_BITS and not red_free):
                    continue
                b = _apply_op(a, cell, card, kind, data)
                if b == a or (b, mask & ~bit) in options:
                    continue
                options[(b, mask & ~bit)] = (rank(b), used + 1, b, mask & ~bit, red_free and not bit & RED_BITS,
                                             (*placed, (cell, card, direction)))
        beam = sorted(options.values(), key=lambda o: (o[0], o[1]))[:width]
    return [(list(placed), a) for _rank, _used, a, _mask, _red, placed in beam if a != arr]


def strong_program(arr: Arrangement, hand: tuple, any_rotation: bool, keep_red: bool) -> tuple[Placement, ...]:
    """The shortest program that solves ``arr`` now (at a table without a red card when one exists: most red
    cards left is the first tiebreaker; alone simply the fewest cards, the par), else the first turn of a
    two-turn solution, else the planner's turn."""
    red = any(c in RED for c in hand)
    targets = TARGETS_ANY if any_rotation else TARGETS_UPRIGHT
    if not needs_two_turns(arr, red, any_rotation):
        plain = [c for c in hand if c not in RED]
        if keep_red and not needs_two_turns(arr, False, any_rotation):
            found = _one_turn(arr, plain, red=False, any_rotation=any_rotation, max_cards=9, nodes=STRONG_NODES)
            if found is not None:
                return tuple(found)
        if red:
            found = _one_turn(arr, hand, red=True, any_rotation=any_rotation, max_cards=9, nodes=STRONG_NODES)
            if found is not None:
                return tuple(found)
    best: tuple | None = None
    searches = 0
    for program, after in finishing_candidates(arr, hand, red=red, any_rotation=any_rotation, width=STRONG_WIDTH):
        used_red = [p[1] for p in program if p[1] in RED]
        left = [c for c in hand if c not in used_red]  # red cards played are gone; the other one stays
        left_red = any(c in RED for c in left)
        if after in targets:
            rank = (0, -sum(c in RED for c in left), len(program))
        elif needs_two_turns(after, left_red, any_rotation) or searches >= STRONG_FINISH_SEARCHES:
            continue
        else:
            searches += 1
            finish = _one_turn(after, left, red=left_red, any_rotation=any_rotation, max_cards=9,
                               nodes=STRONG_FINISH_NODES)
            if finish is None:
                continue
            red_after = sum(c in RED for c in left) - sum(p[1] in RED for p in finish)
            rank = (1, -red_after, len(finish))
        if best is None or rank < best[0]:
            best = (rank, program)
    if best is not None:
        return tuple(best[1])
    if keep_red and red:
        # the planner's turns with and without the red cards: the red ones only if they save a turn
        with_red = plan(arr, hand, red=True, red_left=[c for c in RED if c in hand], any_rotation=any_rotation)
        without = plan(arr, [c for c in hand if c not in RED], red=False, any_rotation=any_rotation)
        if without and (not with_red or len(without) <= len(with_red)):
            return tuple(without[0])
    return normal_program(arr, hand, any_rotation)


def normal_program(arr: Arrangement, hand: tuple, any_rotation: bool) -> tuple[Placement, ...]:
    """The first turn of the solver's hint planner (greedy: not necessarily the shortest)."""
    red = any(c in RED for c in hand)
    found = plan(arr, hand, red=red, red_left=[c for c in RED if c in hand], any_rotation=any_rotation)
    if found:
        return tuple(found[0])
    candidates = turn_candidates(arr, hand, red=red, any_rotation=any_rotation, width=10)
    return tuple(candidates[0][1]) if candidates else ()


def easy_program(arr: Arrangement, hand: tuple, any_rotation: bool, seed: int) -> tuple[Placement, ...]:
    """Some turns (``EASY_PLANNED``) the hint planner's turn, as normal plays it; else a quick look for a
    one-turn solution of at most four cards, else a program built cell by cell in reading order, each cell
    taking a random one of the cards that bring the puzzle closer (or none). The cell-by-cell programs alone
    got stuck: a third of the rounds ended unsolved after ten turns."""
    rng = random.Random(seed)
    if rng.random() < EASY_PLANNED:
        return normal_program(arr, hand, any_rotation)
    red = any(c in RED for c in hand)
    if rng.random() < 0.7:
        found = _one_turn(arr, hand, red=red, any_rotation=any_rotation, max_cards=4, nodes=EASY_NODES)
        if found is not None:
            return tuple(found)
    targets = TARGETS_ANY if any_rotation else TARGETS_UPRIGHT
    mask = hand_mask(hand)
    red_free = red
    a = arr
    program: list[Placement] = []
    for cell in CELLS:
        now = _score(a, targets)
        better = []
        for card, direction, bit, kind, data in placements_at(cell):
            if not mask & bit or (bit & RED_BITS and not red_free):
                continue
            b = _apply_op(a, cell, card, kind, data)
            if b != a and _score(b, targets) < now:
                better.append((card, direction, bit, b))
        if not better or rng.random() < 0.3:
            continue
        card, direction, bit, b = rng.choice(better)
        program.append((cell, card, direction))
        mask &= ~bit
        red_free = red_free and not bit & RED_BITS
        a = b
        if a in targets:
            break
    return tuple(program)


@lru_cache(maxsize=2048)
def program_for(arr: Arrangement, hand: tuple, any_rotation: bool, strength: str, seed: int,
                solo: bool = False) -> tuple:
    """The program (nine entries: None or (card, direction)) the computer enters this turn."""
    if strength == "strong":
        placements = strong_program(arr, hand, any_rotation, keep_red=not solo)
    elif strength == "normal":
        placements = normal_program(arr, hand, any_rotation)
    else:
        placements = easy_program(arr, hand, any_rotation, seed)
    frame: list = [None] * 9
    for cell, card, direction in placements:
        frame[cell] = (card, direction)
    return tuple(frame)


def next_key(program: list, step: dict | None, target: tuple, legal: set[str]) -> str:
    """The next key that brings the entered ``program`` to ``target``: wrong cards are taken back first (a card
    can only be placed once), then the missing ones are placed; with nothing left to do, lock in."""
    if step is not None:
        cell = step["cell"]
        want, have = target[cell], program[cell]
        if step.get("card") is not None:
            if want is not None and want[0] == step["card"] and f"d{want[1]}" in legal:
                return f"d{want[1]}"
            return "back"
        if want is not None and have != want and f"k{want[0]}" in legal and (have is None or have[0] != want[0]
                                                                                 or want[1] is not None):
            return f"k{want[0]}"
        if have is not None and have != want:
            return "x"
        return "back"
    for cell in CELLS:
        if program[cell] is not None and program[cell] != target[cell]:
            return f"c{cell}"
    for cell in CELLS:
        if target[cell] is not None and program[cell] != target[cell]:
            return f"c{cell}"
    return "lock"


class GlobeTwisterComputer(Computer):
    slug = "globe_twister"
    strengths = {
        "easy": _("plays the hint planner's turn now and then, else a short solution or a quick improvement"),
        "normal": _("plays the hint planner's turn: greedy, not always the shortest"),
        "strong": _("finds the shortest program that rebuilds the photo, else plans two turns ahead"),
    }

    def choose(self, view: dict, seat: int, actions: list[Action], strength: str, rng: random.Random) -> str:
        legal = {a.key for a in actions}
        if view["phase"] == "side":
            # both sides are the same puzzle for a computer: the front unless an easy one fancies the back
            return "back" if strength == "easy" and rng.random() < 0.5 else "front"
        arr = from_pairs(view["puzzles"][seat])
        hand = tuple(view["hands"][seat])
        any_rotation = view["any_rotation"]
        seed = plan_seed(arr, hand, any_rotation, seat, view["turn"])
        target = program_for(arr, hand, any_rotation, strength, seed, view["solo"] is not None)
        program = [None if e is None else (e["card"], e["dir"]) for e in view["program"]]
        key = next_key(program, view["step"], target, legal)
        if key in legal:
            return key
        for fallback in ("back", "lock"):
            if fallback in legal:
                return fallback
        return actions[0].key


COMPUTER = GlobeTwisterComputer


def solves(arr: Arrangement, target: tuple, any_rotation: bool) -> bool:
    """Whether a planned frame rebuilds the photo (for tests)."""
    placements = [(cell, e[0], e[1]) for cell, e in enumerate(target) if e is not None]
    return run_placements(arr, placements) in (TARGETS_ANY if any_rotation else TARGETS_UPRIGHT)
