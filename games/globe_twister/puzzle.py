"""Globe Twister's puzzle and action cards: what one card does to a 3x3 puzzle (decisions 3, 7-9).

Cells are numbered 0-8 in reading order (``row * 3 + col``, 0 is the top left). A tile is named by its own
cell in the upright photo (tile 4 is the photo's centre); its rotation counts quarter turns clockwise from
upright (0-3). An arrangement is a tuple of nine codes ``tile * 4 + rotation``, one per cell; the solved
upright puzzle is ``(0, 4, 8, ..., 32)``. Seen from outside (the engine's state, the views) a puzzle is a list
of nine ``[tile, rotation]`` pairs.

A placement is ``(cell, card, direction)``; the direction is ``None`` for the cards that act by their cell
alone. Card ids: ``g1`` (turn 90 clockwise), ``g2`` (90 counter-clockwise), ``g3`` (180), ``b1`` (swap with
the orthogonal neighbour), ``b2`` (the diagonal neighbour), ``b3`` (corner with the opposite corner), ``b4``
(edge middle with the opposite edge middle), ``b5`` (to the other end of the row/column, the other two shift
back), ``r1`` (into its own cell), ``r2`` (into its own cell, upright).
"""

from __future__ import annotations

from functools import cache

from i18n import _, pgettext

CELLS = tuple(range(9))
CELL_NAMES = (pgettext("cell", "top left"), pgettext("cell", "top"), pgettext("cell", "top right"),
              pgettext("cell", "left"), pgettext("cell", "centre"), pgettext("cell", "right"),
              pgettext("cell", "bottom left"), pgettext("cell", "bottom"), pgettext("cell", "bottom right"))
"""The cells' names (lazy texts: said in the reader's language when shown)."""
CARDS = ("g1", "g2", "g3", "b1", "b2", "b3", "b4", "b5", "r1", "r2")
GREEN = ("g1", "g2", "g3")
BLUE = ("b1", "b2", "b3", "b4", "b5")
RED = ("r1", "r2")
CARD_NAMES = {
    "g1": _("Green 1: turn 90° clockwise"),
    "g2": _("Green 2: turn 90° counter-clockwise"),
    "g3": _("Green 3: turn 180°"),
    "b1": _("Blue 1: swap with the neighbour"),
    "b2": _("Blue 2: swap with the diagonal neighbour"),
    "b3": _("Blue 3: swap opposite corners"),
    "b4": _("Blue 4: swap opposite edges"),
    "b5": _("Blue 5: to the other end of the line"),
    "r1": _("Red 1: into its own cell"),
    "r2": _("Red 2: into its own cell, upright"),
}
SHORT_NAMES = {"g1": "G1", "g2": "G2", "g3": "G3", "b1": "B1", "b2": "B2", "b3": "B3", "b4": "B4", "b5": "B5",
               "r1": "R1", "r2": "R2"}
ORTHOGONAL = ("n", "e", "s", "w")
DIAGONAL = ("ne", "se", "sw", "nw")
DIRECTIONS = {"b1": ORTHOGONAL, "b2": DIAGONAL, "b5": ORTHOGONAL}
"""The cards whose arrow matters, and the ways their arrow may point (decision 8)."""
STEP = {"n": (-1, 0), "e": (0, 1), "s": (1, 0), "w": (0, -1),
        "ne": (-1, 1), "se": (1, 1), "sw": (1, -1), "nw": (-1, -1)}
DIR_NAMES = {"n": pgettext("direction", "up"), "e": pgettext("direction", "right"),
             "s": pgettext("direction", "down"), "w": pgettext("direction", "left"),
             "ne": pgettext("direction", "up-right"), "se": pgettext("direction", "down-right"),
             "sw": pgettext("direction", "down-left"), "nw": pgettext("direction", "up-left")}
ARROWS = {"n": "↑", "e": "→", "s": "↓", "w": "←", "ne": "↗", "se": "↘", "sw": "↙", "nw": "↖"}
TURN = {"g1": 1, "g2": 3, "g3": 2}
CORNERS = (0, 2, 6, 8)
EDGES = (1, 3, 5, 7)
SOLVED = tuple(t * 4 for t in CELLS)

Arrangement = tuple[int, ...]
Placement = tuple[int, str, str | None]


def tile_of(code: int) -> int:
    return code >> 2


def rot_of(code: int) -> int:
    return code & 3


def turn_cell_cw(cell: int) -> int:
    """Where a cell goes when the whole photo turns 90 degrees clockwise."""
    r, c = divmod(cell, 3)
    return c * 3 + (2 - r)


@cache
def solved_in(k: int) -> Arrangement:
    """The puzzle solved with the whole photo turned ``k`` quarter turns clockwise."""
    out = [0] * 9
    for tile in CELLS:
        cell = tile
        for _step in range(k):
            cell = turn_cell_cw(cell)
        out[cell] = tile * 4 + k
    return tuple(out)


TARGETS_UPRIGHT = (solved_in(0),)
TARGETS_ANY = tuple(solved_in(k) for k in range(4))
"""Solved states: the upright photo (a table game, decision 6), or any of its four turns (solo)."""


def turn_whole(arr: Arrangement, k: int = 1) -> Arrangement:
    """The whole puzzle turned ``k`` quarter turns clockwise (every tile moves and turns with it)."""
    for _step in range(k % 4):
        out = [0] * 9
        for cell, code in enumerate(arr):
            out[turn_cell_cw(cell)] = (code & ~3) | ((code + 1) & 3)
        arr = tuple(out)
    return arr


def is_solved(arr: Arrangement, any_rotation: bool) -> bool:
    return arr in (TARGETS_ANY if any_rotation else TARGETS_UPRIGHT)


# --- what a card does where ---------------------------------------------------------------------------------
def _swap(cell: int, other: int) -> tuple[int, ...]:
    perm = list(CELLS)
    perm[cell], perm[other] = other, cell
    return tuple(perm)


@cache
def move_of(cell: int, card: str, direction: str | None) -> tuple[int, ...] | None:
    """The cell permutation of a blue card placed there (``new[i] = old[perm[i]]``), or None where its effect
    is undefined (decision 8)."""
    r, c = divmod(cell, 3)
    if card in ("b1", "b2"):
        if direction not in DIRECTIONS[card]:
            return None
        dr, dc = STEP[direction]
        if not (0 <= r + dr < 3 and 0 <= c + dc < 3):
            return None
        return _swap(cell, (r + dr) * 3 + c + dc)
    if card == "b3":
        return _swap(cell, 8 - cell) if cell in CORNERS else None
    if card == "b4":
        return _swap(cell, 8 - cell) if cell in EDGES else None
    if card == "b5":
        if direction not in ORTHOGONAL:
            return None
        dr, dc = STEP[direction]
        # the selected tile travels two steps the arrow's way; the two it passes shift one step back
        if not (0 <= r + 2 * dr < 3 and 0 <= c + 2 * dc < 3):
            return None
        line = [cell, (r + dr) * 3 + c + dc, (r + 2 * dr) * 3 + c + 2 * dc]
        perm = list(CELLS)
        perm[line[2]] = line[0]
        perm[line[0]] = line[1]
        perm[line[1]] = line[2]
        return tuple(perm)
    return None


def defined(cell: int, card: str, direction: str | None) -> bool:
    """Whether the card has an effect by its place alone (red cards also depend on the tile: see
    ``apply_card``)."""
    if card in GREEN or card in RED:
        return True
    if card in DIRECTIONS and direction is None:
        return False
    return move_of(cell, card, direction) is not None


def apply_card(arr: Arrangement, cell: int, card: str, direction: str | None) -> Arrangement:
    """One card acting on the tile in its cell now; an undefined placement changes nothing (decision 8). The
    cards that act by their cell alone ignore ``direction``."""
    if card in TURN:
        out = list(arr)
        code = out[cell]
        out[cell] = (code & ~3) | ((code + TURN[card]) & 3)
        return tuple(out)
    if card in RED:
        code = arr[cell]
        home = code >> 2
        out = list(arr)
        if home == cell:  # already in its cell: R1 does nothing, R2 turns it upright
            if card == "r2":
                out[cell] = home * 4
            return tuple(out)
        out[cell], out[home] = out[home], (home * 4 if card == "r2" else code)
        return tuple(out)
    perm = move_of(cell, card, direction)
    if perm is None:
        return arr
    return tuple(arr[p] for p in perm)


def run_program(arr: Arrangement, program) -> list[Arrangement]:
    """Runs a program (nine entries: None or (card, direction)) in reading order: the arrangement after each
    placed card, in order (decision 3)."""
    frames = []
    for cell in CELLS:
        entry = program[cell]
        if entry is None:
            continue
        arr = apply_card(arr, cell, entry[0], entry[1])
        frames.append(arr)
    return frames


def run_placements(arr: Arrangement, placements) -> Arrangement:
    """Runs placements ``(cell, card, direction)`` (any order given; they act in reading order)."""
    for cell, card, direction in sorted(placements, key=lambda p: p[0]):
        arr = apply_card(arr, cell, card, direction)
    return arr


def check_program(placements, hand) -> str | None:
    """Why a program breaks the card rules (one card per cell, each card once, at most one red card, only cards
    in hand), or None."""
    cells = [p[0] for p in placements]
    cards = [p[1] for p in placements]
    if len(set(cells)) != len(cells) or any(c not in CELLS for c in cells):
        return "one card per cell"
    if len(set(cards)) != len(cards):
        return "each card once"
    if sum(c in RED for c in cards) > 1:
        return "at most one red card"
    if any(c not in hand for c in cards):
        return "only cards in hand"
    return None


def to_pairs(arr: Arrangement) -> list[list[int]]:
    return [[code >> 2, code & 3] for code in arr]


def from_pairs(pairs) -> Arrangement:
    return tuple(t * 4 + r for t, r in pairs)


def describe(cell: int, card: str, direction: str | None) -> str:
    """"5 centre: B1 →"."""
    arrow = f" {ARROWS[direction]}" if direction else ""
    return _("{number} {cell}: {card}", number=cell + 1, cell=CELL_NAMES[cell], card=SHORT_NAMES[card] + arrow)
