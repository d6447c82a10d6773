"""Globe Twister coaching: the strong computer's program (the shortest that rebuilds the photo, else a turn
after which one more turn does), entered click by click, with what it achieves.

``why`` says which card goes where next and what the whole program does: how many cards, and whether running
it rebuilds the photo this turn or leaves fewer tiles out of place (counted on the arrangement after the run,
the way the rules judge a solved photo: any turn of the whole photo counts when the solo level allows it).
"""

from __future__ import annotations

from games.coach import Advice, Coach
from games.core import State
from games.globe_twister.ai import next_key, plan_seed, program_for
from games.globe_twister.puzzle import (
    CARD_NAMES,
    CELL_NAMES,
    DIR_NAMES,
    TARGETS_ANY,
    TARGETS_UPRIGHT,
    from_pairs,
    run_placements,
)
from games.globe_twister.rules import GlobeTwister
from games.globe_twister.solver import LEVELS
from i18n import _, ngettext


def out_of_place(arr, any_rotation: bool) -> int:
    """Tiles not where (and not turned as) the nearest allowed solution wants them."""
    targets = TARGETS_ANY if any_rotation else TARGETS_UPRIGHT
    return min(sum(a != t for a, t in zip(arr, target, strict=True)) for target in targets)


def placement(cell: int, card: str, direction: str | None):
    """"Blue 1: swap with the neighbour on cell 5 (centre), arrow right"."""
    if direction is None:
        return _("{card} on cell {cell} ({where})", card=CARD_NAMES[card], cell=cell + 1,
                 where=CELL_NAMES[cell])
    return _("{card} on cell {cell} ({where}), arrow {direction}", card=CARD_NAMES[card], cell=cell + 1,
             where=CELL_NAMES[cell], direction=DIR_NAMES[direction])


class GlobeTwisterCoach(Coach):
    slug = "globe_twister"
    goal = _("Rebuild the photo: program action cards that swap and turn its tiles until every tile is back "
             "in place, in as few turns as you can.")
    levels = len(LEVELS)
    """A lesson per solo level, tourist to wild."""

    def lesson(self, level: int) -> tuple[int, dict]:
        return 1, {"puzzle": LEVELS[max(0, min(level, len(LEVELS) - 1))]}

    def level_of(self, options: dict) -> int:
        puzzle = options.get("puzzle")
        return LEVELS.index(puzzle) if puzzle in LEVELS else 0

    def completed(self, engine: GlobeTwister, state: State, seat: int) -> bool:
        """The photo rebuilt (a solo level can also end unsolved, at its turn limit)."""
        solo = engine.view(state, seat)["solo"]
        return bool(solo and solo["solved"])

    def advise(self, engine: GlobeTwister, state: State, seat: int) -> Advice:
        view = engine.view(state, seat)
        legal = {a.key for a in engine.legal_actions(state, seat)}
        if view["phase"] == "side":
            return Advice("front", _("Pick the side of your photo: both are the same puzzle."),
                          _("The front is the easier photo to recognise."), {})
        arr = from_pairs(view["puzzles"][seat])
        hand = tuple(view["hands"][seat])
        any_rotation = view["any_rotation"]
        seed = plan_seed(arr, hand, any_rotation, seat, view["turn"])
        target = program_for(arr, hand, any_rotation, "strong", seed, view["solo"] is not None)
        program = [None if e is None else (e["card"], e["dir"]) for e in view["program"]]
        key = next_key(program, view["step"], target, legal)
        if key not in legal:
            key = "back" if "back" in legal else "lock"
        placements = [(cell, e[0], e[1]) for cell, e in enumerate(target) if e is not None]
        after = run_placements(arr, placements)
        before_wrong, after_wrong = out_of_place(arr, any_rotation), out_of_place(after, any_rotation)
        step = view["step"]
        if step is None:
            choice = _("Program your turn: put action cards on the cells of the frame (a card acts on the tile in "
                       "its cell); when you lock in, they run in reading order, cell 1 to cell 9. Pick a cell.")
        elif step.get("card") is None:
            picked = step["cell"]
            choice = _("Pick the card for cell {cell} ({where}): each button says what the card does to the tile "
                       "in that cell.", cell=picked + 1, where=CELL_NAMES[picked])
        else:
            choice = _("Pick the direction of the card's arrow on cell {cell}: the tile it swaps with, or moves "
                       "towards, lies that way.", cell=step["cell"] + 1)
        cards = len(placements)
        if after_wrong == 0:
            whole = ngettext("This {n}-card program rebuilds the photo this turn.",
                             "This {n}-card program rebuilds the photo this turn.", cards)
        else:
            whole = ngettext("No program solves it this turn; this {n}-card one leaves {after} tiles out of "
                             "place (now {before}) for the next turn.",
                             "No program solves it this turn; this {n}-card one leaves {after} tiles out of "
                             "place (now {before}) for the next turn.", cards,
                             after=after_wrong, before=before_wrong)
        if key == "lock":
            why = _("Your program is complete. {whole} Lock it in.", whole=whole)
        elif key.startswith("c"):
            cell = int(key[1:])
            want = target[cell]
            if want is None or program[cell] == want:
                why = _("Cell {cell} holds a card your program does not need: open it to take the card back. "
                        "{whole}", cell=cell + 1, whole=whole)
            else:
                why = _("Next: {placement}. {whole}", placement=placement(cell, want[0], want[1]), whole=whole)
        elif key in ("back", "x"):
            why = _("That card is not the one this cell needs: take it back. {whole}", whole=whole)
        else:
            cell = view["step"]["cell"]
            want = target[cell]
            why = _("Next: {placement}. {whole}", placement=placement(cell, want[0], want[1]), whole=whole)
        return Advice(key, choice, why, {"cards": cards, "before": before_wrong, "after": after_wrong,
                                          "target": target})


COACH = GlobeTwisterCoach
