"""Globe Twister's solver and puzzle generator (pure Python, deterministic).

* ``min_one_turn``: the fewest cards that solve a puzzle in one turn (an exact iterative-deepening search over
  programs in reading order, with a lower bound on the cards still needed); it proves the par of one-turn
  puzzles (no shorter one-turn solution exists).
* ``plan``: some solution over several turns (exact for one turn where it is small, else a beam search turn by
  turn) for hints in solo play; not necessarily the shortest.
* ``generate``: a fresh puzzle of a level with its par and a known solution, built backwards from the solved
  photo by undoing random programs (well under a second).
* ``needs_two_turns``: the rotation argument that no single turn solves a puzzle (each green card turns one
  tile, Red 2 at most one more, moves never turn a tile).

``python -m games.globe_twister.solver`` rewrites data/puzzles.json (the shipped solo puzzles).
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from operator import itemgetter

from games.globe_twister.puzzle import (
    CARDS,
    CELLS,
    DIRECTIONS,
    GREEN,
    RED,
    TARGETS_ANY,
    TARGETS_UPRIGHT,
    TURN,
    Arrangement,
    Placement,
    apply_card,
    move_of,
    run_placements,
    solved_in,
)
from i18n import _

BIT = {card: 1 << i for i, card in enumerate(CARDS)}
RED_BITS = BIT["r1"] | BIT["r2"]
G_BITS = BIT["g1"] | BIT["g2"] | BIT["g3"]
SWAP_CARDS = ("b1", "b2", "b3", "b4")


def hand_mask(hand) -> int:
    mask = 0
    for card in hand:
        mask |= BIT[card]
    return mask


@cache
def placements_at(cell: int) -> tuple[tuple[str, str | None, int, int, object], ...]:
    """Every placement of a card at ``cell`` that has an effect by its place: (card, direction, bit, kind,
    data); kind 0 turns the tile (data: quarter turns), 1 moves tiles (data: an itemgetter of the cells' new
    contents), 2 is a red card (its effect depends on the tile)."""
    out = []
    for card in CARDS:
        if card in TURN:
            out.append((card, None, BIT[card], 0, TURN[card]))
        elif card in RED:
            out.append((card, None, BIT[card], 2, None))
        else:
            for direction in DIRECTIONS.get(card, (None,)):
                perm = move_of(cell, card, direction)
                if perm is not None:
                    out.append((card, direction, BIT[card], 1, itemgetter(*perm)))
    return tuple(out)


def _apply_op(arr: Arrangement, cell: int, card: str, kind: int, data) -> Arrangement:
    if kind == 1:
        return data(arr)
    if kind == 0:
        out = list(arr)
        code = out[cell]
        out[cell] = (code & ~3) | ((code + data) & 3)
        return tuple(out)
    return apply_card(arr, cell, card, None)


# --- distance to solved ------------------------------------------------------------------------------------
def _tables() -> tuple[tuple[int, ...], ...]:
    """Per cell and tile code, packed counters: bits 6k.. count the tiles in their cell for the photo turned k
    times, bits 24 + 6r.. count the tiles turned r times; the sum over the cells counts them all at once."""
    out = []
    for cell in CELLS:
        row = []
        for code in range(36):
            value = 1 << (24 + 6 * (code & 3))
            for k in range(4):
                if solved_in(k)[cell] >> 2 == code >> 2:
                    value |= 1 << (6 * k)
            row.append(value)
        out.append(tuple(row))
    return tuple(out)


T0, T1, T2, T3, T4, T5, T6, T7, T8 = _tables()


def _packed(a: Arrangement) -> int:
    return (T0[a[0]] + T1[a[1]] + T2[a[2]] + T3[a[3]] + T4[a[4]] + T5[a[5]] + T6[a[6]] + T7[a[7]]
            + T8[a[8]])


def distances(arr: Arrangement, targets) -> list[tuple[int, int]]:
    """Per target (the photo turned k = 0, 1... times): (tiles out of their cell, tiles turned wrong)."""
    s = _packed(arr)
    return [(9 - ((s >> (6 * k)) & 63), 9 - ((s >> (24 + 6 * k)) & 63)) for k in range(len(targets))]


# --- lower bounds ------------------------------------------------------------------------------------------
def _move_cards_needed(m: int, mask: int, red_free: bool) -> int:
    """The fewest moving cards that can put ``m`` misplaced tiles right: Blue 5 moves three tiles, every other
    moving card two; each card once, one red card at most. A large number when they cannot."""
    if m <= 0:
        return 0
    count = 0
    if mask & BIT["b5"]:
        m -= 3
        count += 1
    for card in SWAP_CARDS:
        if m <= 0:
            return count
        if mask & BIT[card]:
            m -= 2
            count += 1
    if m > 0 and red_free and mask & RED_BITS:
        m -= 2
        count += 1
    return count if m <= 0 else 99


@cache
def _bound_tables(mask: int, red_free: bool) -> tuple[int, bool, tuple[int, ...], tuple[int, ...]]:
    """For the cards left: greens, whether Red 2 may still turn a tile, the moving cards needed for m = 0..9
    misplaced tiles, and the same once Red 2 has put two of them right."""
    greens = bin(mask & G_BITS).count("1")
    r2 = red_free and bool(mask & BIT["r2"])
    moves = tuple(_move_cards_needed(m, mask, red_free) for m in range(10))
    after_r2 = tuple(_move_cards_needed(max(0, m - 2), mask & ~RED_BITS, False) for m in range(10))
    return greens, r2, moves, after_r2


def lower_bound(arr: Arrangement, mask: int, red_free: bool, targets) -> int:
    """A lower bound on the cards one turn still needs to reach one of ``targets``: each green card turns one
    tile, Red 2 turns one tile upright (and moves two), moves never turn, a move puts at most two tiles right
    (Blue 5 three). 99 when the cards left cannot do it."""
    greens, r2, moves, after_r2 = _bound_tables(mask, red_free)
    best = 99
    s = _packed(arr)
    for k in range(len(targets)):
        m = 9 - ((s >> (6 * k)) & 63)
        w = 9 - ((s >> (24 + 6 * k)) & 63)
        if m == 0 and w == 0:
            return 0
        if w <= greens:
            v = w + moves[m]
            if v < best:
                best = v
        if r2 and k == 0 and w >= 1 and w - 1 <= greens:
            # Red 2 turns one tile upright and moves two: the other moves then have m - 2 tiles to put right
            v = w + after_r2[m]
            if v < best:
                best = v
    return best


def turn_capacity(red: bool, upright: bool) -> int:
    """Tiles one turn can turn: the three green cards, and Red 2 for the upright photo."""
    return 3 + (1 if red and upright else 0)


def needs_two_turns(arr: Arrangement, red: bool, any_rotation: bool = True) -> bool:
    """True when no single turn can solve the puzzle: for every accepted orientation more tiles are turned
    wrong than the green cards (and Red 2, which turns a tile upright) can turn in one turn."""
    for k in (range(4) if any_rotation else (0,)):
        w = sum(1 for code in arr if code & 3 != k)
        if w <= turn_capacity(red, k == 0):
            return False
    return True


# --- the exact one-turn search -----------------------------------------------------------------------------
class SearchLimit(Exception):
    """The search looked at more positions than it was allowed."""


def min_one_turn(arr: Arrangement, hand=CARDS, *, red: bool = True, any_rotation: bool = True,
                 max_cards: int = 9, node_limit: int | None = None) -> list[Placement] | None:
    """The fewest placements that solve ``arr`` in one turn (at most ``max_cards``), in reading order, or None
    when no such program exists. Exact: iterative deepening on the number of cards, pruned by
    ``lower_bound`` and by positions already seen at the same cell with the same cards left."""
    targets = TARGETS_ANY if any_rotation else TARGETS_UPRIGHT
    mask0 = hand_mask(hand)
    if not red:
        mask0 &= ~RED_BITS
    if arr in targets:
        return []
    nodes = 0

    def search(start: int, a: Arrangement, mask: int, red_free: bool, budget: int, seen: set) -> list | None:
        nonlocal nodes
        nodes += 1
        if node_limit is not None and nodes > node_limit:
            raise SearchLimit
        need = lower_bound(a, mask, red_free, targets)
        for cell in range(start, 10 - need):
            for card, direction, bit, kind, data in placements_at(cell):
                if not mask & bit or (bit & RED_BITS and not red_free):
                    continue
                b = _apply_op(a, cell, card, kind, data)
                if b == a:
                    continue
                if b in targets:
                    return [(cell, card, direction)]
                if budget <= 1:
                    continue
                nmask = mask & ~bit
                nred = red_free and not bit & RED_BITS
                if lower_bound(b, nmask, nred, targets) > budget - 1:
                    continue
                key = (cell, b, nmask)
                if key in seen:
                    continue
                seen.add(key)
                found = search(cell + 1, b, nmask, nred, budget - 1, seen)
                if found is not None:
                    return [(cell, card, direction), *found]
        return None

    first = lower_bound(arr, mask0, True, targets)
    for budget in range(max(1, first), max_cards + 1):
        found = search(0, arr, mask0, True, budget, set())
        if found is not None:
            return found
    return None


# --- several turns: a plan for hints --------------------------------------------------------------------
def _score(arr: Arrangement, targets) -> float:
    """How far from solved (lower is better): turned tiles weigh more than misplaced ones (a turn turns at most
    three or four)."""
    best = 99.0
    s = _packed(arr)
    for k in range(len(targets)):
        m = 9 - ((s >> (6 * k)) & 63)
        w = 9 - ((s >> (24 + 6 * k)) & 63)
        best = min(best, 1.5 * w + m + (0.5 if w > 3 else 0))
    return best


def turn_candidates(arr: Arrangement, hand, *, red: bool, any_rotation: bool,
                    width: int = 30) -> list[tuple[float, list[Placement], Arrangement]]:
    """Good programs for one turn, best first: a beam search over the cells in reading order towards
    ``_score``. Each: (score after, placements, arrangement after); the arrangement itself is not among them."""
    targets = TARGETS_ANY if any_rotation else TARGETS_UPRIGHT
    mask0 = hand_mask(hand) & (~0 if red else ~RED_BITS)
    beam: list[tuple[float, int, Arrangement, int, bool, tuple]] = [(_score(arr, targets), 0, arr, mask0, True, ())]
    for cell in CELLS:
        options: dict[tuple[Arrangement, int], tuple] = {}
        for entry in beam:
            score, used, a, mask, red_free, placed = entry
            options.setdefault((a, mask), entry)
            for card, direction, bit, kind, data in placements_at(cell):
                if not mask & bit or (bit & RED_BITS and not red_free):
                    continue
                b = _apply_op(a, cell, card, kind, data)
                if b == a:
                    continue
                key = (b, mask & ~bit)
                if key in options:
                    continue
                options[key] = (_score(b, targets), used + 1, b, mask & ~bit, red_free and not bit & RED_BITS,
                                (*placed, (cell, card, direction)))
        beam = sorted(options.values(), key=lambda o: (o[0], o[1]))[:width]
    out, seen = [], {arr}
    for score, _used, a, _mask, _red, placed in beam:
        if a not in seen:
            seen.add(a)
            out.append((score, list(placed), a))
    return out


def plan(arr: Arrangement, hand, *, red: bool = True, red_left=RED, any_rotation: bool = True,
         max_turns: int = 12) -> list[list[Placement]] | None:
    """As ``_plan`` (remembered: a replay of a game asks again for the same plans)."""
    found = _plan(tuple(arr), tuple(hand), red, tuple(red_left), any_rotation, max_turns)
    return None if found is None else [list(program) for program in found]


@lru_cache(maxsize=512)
def _plan(arr: Arrangement, hand: tuple, red: bool, red_left: tuple, any_rotation: bool,
          max_turns: int) -> tuple[tuple[Placement, ...], ...] | None:
    found = _search_plan(arr, hand, red=red, red_left=red_left, any_rotation=any_rotation, max_turns=max_turns)
    return None if found is None else tuple(tuple(program) for program in found)


def _search_plan(arr: Arrangement, hand, *, red: bool, red_left, any_rotation: bool,
                 max_turns: int) -> list[list[Placement]] | None:
    """Some solution of ``arr``: a program per turn, each keeping the card rules; red cards played are gone for
    the next turns (``red_left``: the red cards still in hand). Each turn: an exact one-turn solution of up to
    five cards if there is one; else a beam-search turn from which an exact one-turn solution of up to four
    cards exists; else the best-scoring turn to a position not met before. None if none is found in
    ``max_turns`` (never seen in the tests' random scrambles)."""
    targets = TARGETS_ANY if any_rotation else TARGETS_UPRIGHT
    base = [c for c in hand if c not in RED]
    reds = [c for c in RED if c in red_left and c in hand] if red else []
    turns: list[list[Placement]] = []
    visited = {arr}
    while len(turns) < max_turns:
        if arr in targets:
            return turns
        here = base + reds
        try:
            found = min_one_turn(arr, here, red=red, any_rotation=any_rotation, max_cards=5, node_limit=1000)
        except SearchLimit:
            found = None
        if found is not None:
            return [*turns, found]
        candidates = turn_candidates(arr, here, red=red, any_rotation=any_rotation)
        if len(turns) + 2 <= max_turns and _score(arr, targets) <= 8:
            for _score_after, program, after in candidates[:4]:
                left = [c for c in here if c not in RED or c not in {p[1] for p in program}]
                try:
                    last = min_one_turn(after, left, red=red, any_rotation=any_rotation, max_cards=4,
                                        node_limit=500)
                except SearchLimit:
                    last = None
                if last is not None:
                    return [*turns, program, last]
        now = _score(arr, targets)
        fresh = [c for c in candidates if c[2] not in visited]
        if not fresh:
            return None
        better = [c for c in fresh if c[0] < now]
        _s, program, arr = (better or fresh)[0]
        visited.add(arr)
        reds = [c for c in reds if c not in {p[1] for p in program}]
        turns.append(program)
    return None


# --- undoing cards: puzzles built backwards ----------------------------------------------------------------
def undo_card(after: Arrangement, cell: int, card: str, direction: str | None, rng) -> Arrangement | None:
    """An arrangement that ``card`` at ``cell`` turns into ``after`` (with a real effect), chosen with ``rng``
    (``below(n)``) where several are possible; None if there is none."""
    if card in TURN:
        out = list(after)
        code = out[cell]
        out[cell] = (code & ~3) | ((code - TURN[card]) & 3)
        return tuple(out)
    if card in RED:
        # the card sent tile t from this cell to cell t (t now lies there; upright for Red 2)
        homes = [t for t in CELLS if t != cell and after[t] >> 2 == t and (card == "r1" or after[t] & 3 == 0)]
        if card == "r2" and after[cell] == cell * 4:
            homes.append(cell)  # Red 2 on a tile already home turned it upright
        if not homes:
            return None
        t = homes[rng.below(len(homes))]
        out = list(after)
        if t == cell:
            out[cell] = cell * 4 + 1 + rng.below(3)
            return tuple(out)
        moved = t * 4 + (rng.below(4) if card == "r2" else after[t] & 3)
        out[cell], out[t] = after[t], after[cell]
        out[cell] = moved
        return tuple(out)
    perm = move_of(cell, card, direction)
    if perm is None:
        return None
    out = [0] * 9
    for i, p in enumerate(perm):
        out[p] = after[i]
    return tuple(out)


def random_program(rng, cards: int, *, greens: int | None = None, red: bool = False,
                   red_cards=RED) -> list[Placement]:
    """``cards`` random effective placements (``greens`` of them green; one red card if ``red``), distinct cells
    and cards, in reading order."""
    pool_green = list(GREEN)
    pool_move = ["b1", "b2", "b3", "b4", "b5"]
    if greens is None:
        greens = min(3, sum(1 for _step in range(cards) if rng.below(2)))
    greens = min(greens, cards, 3)
    chosen: list[str] = []
    for _step in range(greens):
        chosen.append(pool_green.pop(rng.below(len(pool_green))))
    rest = cards - greens
    if red and rest > 0 and red_cards:
        reds = list(red_cards)
        chosen.append(reds[rng.below(len(reds))])
        rest -= 1
    for _step in range(min(rest, len(pool_move))):
        chosen.append(pool_move.pop(rng.below(len(pool_move))))
    cells = list(CELLS)
    placements = []
    for card in chosen:
        options = []
        for cell in cells:
            for direction in DIRECTIONS.get(card, (None,)):
                if card in TURN or card in RED or move_of(cell, card, direction) is not None:
                    options.append((cell, direction))
        if not options:
            continue
        cell, direction = options[rng.below(len(options))]
        cells.remove(cell)
        placements.append((cell, card, direction))
    placements.sort()
    return placements


def undo_program(after: Arrangement, placements, rng) -> Arrangement | None:
    arr = after
    for cell, card, direction in sorted(placements, reverse=True):
        before = undo_card(arr, cell, card, direction, rng)
        if before is None or before == arr:
            return None
        arr = before
    return arr


# --- levels ------------------------------------------------------------------------------------------------
LEVELS = ("tourist", "backpacker", "globetrotter", "wild")
LEVEL_NAMES = {"tourist": _("Tourist ★"), "backpacker": _("Backpacker ★★"), "globetrotter": _("Globetrotter ★★★"),
               "wild": _("Into the Wild ★★★★★")}
"""The levels' names as shown (the stars are part of the name: the board draws them as stars)."""
LEVEL_SPECS = {
    # turns, fewest and most par cards, greens per turn (low, high), moves per turn (low, high), red allowed
    "tourist": {"turns": 1, "cards": (3, 6), "greens": (0, 3), "moves": (1, 5), "red": True},
    "backpacker": {"turns": 2, "cards": (4, 6), "greens": (2, 3), "moves": (0, 1), "red": False},
    "globetrotter": {"turns": 2, "cards": (6, 8), "greens": (2, 3), "moves": (1, 3), "red": True},
    "wild": {"turns": 3, "min_turns": 2, "cards": (7, 10), "greens": (1, 3), "moves": (1, 2), "red": True},
}


def _pick(rng, low: int, high: int) -> int:
    return low + rng.below(high - low + 1)


def generate(level: str, rng, *, tries: int = 400) -> dict:
    """A fresh puzzle of ``level``: {"tiles", "par": {"turns", "cards"}, "red", "solution", "proof"}.

    One-turn levels: a random program undone from the solved photo (any of its four turns), then the exact
    search finds the fewest cards (the par, proven). Longer levels: one random program per turn undone from
    the last turn back; kept only if the rotation argument proves that one turn cannot solve it; the par is the
    known solution (an upper bound)."""
    spec = LEVEL_SPECS[level]
    low, high = spec["cards"]
    for _step in range(tries):
        red_cards = list(RED) if spec["red"] else []
        programs: list[list[Placement]] = []
        for _turn in range(spec["turns"]):
            greens = _pick(rng, *spec["greens"])
            moves = _pick(rng, *spec["moves"])
            use_red = bool(red_cards) and rng.below(3) == 0
            program = random_program(rng, greens + moves + (1 if use_red else 0), greens=greens,
                                     red=use_red, red_cards=red_cards)
            red_cards = [c for c in red_cards if c not in {p[1] for p in program}]
            programs.append(program)
        uses_red = any(p[1] in RED for program in programs for p in program)
        k = 0 if uses_red else rng.below(4)
        arr: Arrangement | None = solved_in(k)
        for program in reversed(programs):
            arr = undo_program(arr, program, rng)
            if arr is None:
                break
        if arr is None or arr in TARGETS_ANY:
            continue
        if spec["turns"] == 1:
            best = min_one_turn(arr, CARDS, red=spec["red"], max_cards=min(len(programs[0]), high))
            if best is None or not low <= len(best) <= high:
                continue
            return {"tiles": [[c >> 2, c & 3] for c in arr], "par": {"turns": 1, "cards": len(best)},
                    "red": spec["red"], "solution": [[list(p) for p in best]], "proof": "minimal"}
        # a turn of the known solution may already finish the puzzle (in another turn of the photo)
        a = arr
        for i, program in enumerate(programs):
            a = run_placements(a, program)
            if a in TARGETS_ANY:
                programs = programs[:i + 1]
                break
        if not needs_two_turns(arr, spec["red"]):
            continue
        # the planner often finds a shorter solution: the par is the best one known
        better = plan(arr, CARDS, red=spec["red"], max_turns=len(programs))
        if better is not None and (len(better), sum(map(len, better))) < (len(programs), sum(map(len, programs))):
            programs = better
        total = sum(len(p) for p in programs)
        if not low <= total <= high or len(programs) < spec.get("min_turns", spec["turns"]):
            continue
        return {"tiles": [[c >> 2, c & 3] for c in arr], "par": {"turns": len(programs), "cards": total},
                "red": spec["red"], "solution": [[list(p) for p in program] for program in programs],
                "proof": "known solution"}
    raise RuntimeError(f"no {level} puzzle found")  # pragma: no cover


class SeedRng:
    """A tiny deterministic ``below(n)`` source for the data build (the engine passes games.core.Rng)."""

    def __init__(self, seed: int):
        from games.core import Rng

        self._rng = Rng({"seed": seed, "rng": 0})

    def below(self, n: int) -> int:
        return self._rng.below(n)


PUZZLES_PER_LEVEL = 10


def build_data(seed: int = 2018) -> dict:
    """The shipped solo puzzles: PUZZLES_PER_LEVEL distinct ones per level, their pars spread evenly over the
    level's range, sorted by par."""
    rng = SeedRng(seed)
    levels = {}
    for level in LEVELS:
        spec = LEVEL_SPECS[level]
        keys = (spec["turns"] - spec.get("min_turns", spec["turns"]) + 1) * (spec["cards"][1] - spec["cards"][0] + 1)
        quota = -(-PUZZLES_PER_LEVEL // keys)
        found: list[dict] = []
        seen = set()
        count: dict[tuple[int, int], int] = {}
        while len(found) < PUZZLES_PER_LEVEL:
            puzzle = generate(level, rng)
            key = tuple(map(tuple, puzzle["tiles"]))
            par = (puzzle["par"]["turns"], puzzle["par"]["cards"])
            if key in seen or count.get(par, 0) >= quota:
                continue
            seen.add(key)
            count[par] = count.get(par, 0) + 1
            found.append(puzzle)
        found.sort(key=lambda p: (p["par"]["turns"], p["par"]["cards"]))
        levels[level] = found
    return {"levels": levels}


def main() -> None:  # pragma: no cover - a build step
    from importlib import resources

    path = resources.files("games.globe_twister") / "data" / "puzzles.json"
    data = build_data()
    text = json.dumps(data, indent=None, separators=(",", ":"))
    text = text.replace('{"tiles"', '\n{"tiles"')
    with open(str(path), "w", encoding="utf-8") as fh:
        fh.write(text + "\n")


if __name__ == "__main__":  # pragma: no cover
    main()
