"""Geomancy's rule pages (see games/rulebook.py): rounds, casting, auras, an aura capture, the end.

The capture page uses the engine's forced throws (``Geomancy.cast`` with ``forced``: the same turn as a real
cast, only where the stones land is given), so the capture is the engine's own."""

from __future__ import annotations

from games.geomancy.rules import forced, parse_square
from games.rulebook import Example, Page, engine, play_until
from i18n import _

SEED = 1
ANA, BEN = 0, 1
CAPTURED = "d5"
"""The capture page: Ben's small on d5 falls to the auras of Ana's smalls on d4 (pointing north) and c5
(pointing east): 1 + 1 = 2 is more than its 1 pip."""


def _new():
    return engine("geomancy").new(2, {}, SEED)


def rounds() -> Example:
    """Ben's first cast, as the stones really fell."""
    state, events = play_until(engine("geomancy"), _new(), lambda s: s["ply"] >= 1)
    return Example(state, None, events)


def casting() -> Example:
    """A few turns into the game."""
    state, events = play_until(engine("geomancy"), _new(), lambda s: s["ply"] >= 4 and s["phase"] == "turn")
    return Example(state, None, events)


def auras() -> Example:
    """Round 2 under way (medium stones of 2 pips beside the small ones), with the aura overlay."""
    state, _events = play_until(engine("geomancy"), _new(), lambda s: s["round"] == 2 and s["round_turns"] >= 2)
    return Example(state, {"overlay": "auras"})


def capture() -> Example:
    e = engine("geomancy")
    state = _new()
    state, _events = e.cast(state, BEN, parse_square("e4"),
                            [forced(CAPTURED, "S"), forced("f6", "E"), forced("g3", "N"), forced("b7", "W"),
                             forced("e2", "S")])
    state, events = e.cast(state, ANA, parse_square("d4"),
                           [forced("d4", "N"), forced("c5", "E"), forced("c2", "W"), forced("h5", "N"),
                            forced("a7", "NW")])
    return Example(state, None, events[-1:])


def end() -> Example:
    state, events = play_until(engine("geomancy"), _new(), engine("geomancy").is_over)
    return Example(state, None, events[-1:])


PAGES = (
    Page(_("Rounds"),
         _("Three rounds: small stones, then medium, then large. On your turn cast all your stones of the "
           "round's size at a square you aim at, turn one of your stones, or pass."),
         rounds),
    Page(_("Casting"),
         _("Stones scatter around the aim and point in a random direction. One that lands upright or off the "
           "board comes back to your hand. On a shared square the larger stone captures the smaller (same "
           "size: both are cast again)."),
         casting),
    Page(_("Auras"),
         _("A stone of 3 pips sends 3, 2, 1 along its arrow (2 pips: 2, 1), stopped by the first stone. The "
           "numbers show each colour's aura."),
         auras),
    Page(_("Capture"),
         _("A stone under more of one enemy colour's aura than its own pips is captured. Auras of one colour "
           "add up: two small stones pointing at a small stone take it."),
         capture),
    Page(_("The end"),
         _("A round ends when every stone of its size is cast and everyone passed in a row. After round 3 you "
           "score your stones' pips on the board plus your prisoners' pips."),
         end),
)
