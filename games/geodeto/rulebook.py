"""Geodeto's rule pages (see games/rulebook.py): the board, a turn, routes, goals, the end."""

from __future__ import annotations

from games.geodeto.rules import OCEAN, pyramid_id
from games.rulebook import Example, Page, act, engine, play_until
from i18n import _

SEED = 1
LARGE_BLACK = pyramid_id("black", "large")
"""The route example's traveller: it starts in Africa."""
AFRICA, AMERICA = 5, 2


def _new():
    return engine("geodeto").new(2, {}, SEED)


def board() -> Example:
    return Example(_new())


def turn() -> Example:
    """The first player has picked Africa's large black pyramid: the board marks where it may go."""
    state, _events = act(engine("geodeto"), _new(), f"m{LARGE_BLACK}")
    return Example(state, {"place": AFRICA, "pyramid": LARGE_BLACK})


def route() -> Example:
    """Large black went from Africa into the Ocean; a turn later it is picked again, and America is one of
    its destinations."""
    e = engine("geodeto")
    state, _events = act(e, _new(), f"m{LARGE_BLACK}")
    state, events = act(e, state, f"t{OCEAN}")
    state, _events = act(e, state, "m13")  # the other player moves medium white into the Ocean
    state, _events = act(e, state, f"t{OCEAN}")
    state, _events = act(e, state, f"m{LARGE_BLACK}")
    return Example(state, {"place": OCEAN, "pyramid": LARGE_BLACK}, events)


def goal() -> Example:
    """The computers play until the first goal is claimed."""
    state, events = play_until(engine("geodeto"), _new(), lambda s: any(s["fulfilled"]))
    return Example(state, None, events)


def end() -> Example:
    """A short journey (two goals) played to its end by the computers."""
    state, events = play_until(engine("geodeto"), engine("geodeto").new(2, {"goals": 2}, SEED),
                               engine("geodeto").is_over)
    return Example(state, None, events)


PAGES = (
    Page(_("The board"),
         _("Six continents lie in a ring around the World Ocean, three pyramids on each. You hold two secret "
           "goal cards; six more goals lie face up on the continents' piles."),
         board),
    Page(_("Your turn"),
         _("Do one thing: move a pyramid (everything on top of it rides along), draw a goal card from a pile, "
           "or use an action card. A larger pyramid never goes on a smaller one."),
         turn),
    Page(_("Routes"),
         _("A pyramid moves to a neighbouring continent or into the Ocean; from the Ocean it may land on any "
           "continent. Africa borders Europe and Antarctica, so Africa to America is two moves: into the "
           "Ocean, then on to America."),
         route),
    Page(_("Goals"),
         _("A goal shows three pyramids stacked in that order in one tower on its continent. After each of "
           "your actions you claim every goal you meet: in your hand or among the six face-up ones. Per goal "
           "you may draw a card."),
         goal),
    Page(_("The end"),
         _("The journey ends with the countdown's last goal. Score: +2 per goal, 3 for the most goals of a "
           "sight group (1 for second), +2 per continent you formed a goal on, -1 per card left in hand."),
         end),
)
