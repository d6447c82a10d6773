"""Geek Out! Masters' rule pages (see games/rulebook.py): a roll, the action faces, 42s and passing, dragons,
the end. Dice outcomes the pages need are set with the engine's ``arrange`` (its helper for tests and
examples: the turn then settles by the rules, as after any roll)."""

from __future__ import annotations

from games.rulebook import Example, Page, act, engine, play_until
from i18n import _

SEED = 1
BEN = 1
"""Seed 1: Ben starts and rolls Superhero, Meeple, Spaceship, 42, Meeple, 42, Heart (every action face)."""


def _new():
    return engine("geek_out").new(2, {}, SEED)


def roll() -> Example:
    return Example(_new())


def actions() -> Example:
    """Ben uses the Superhero (die 1): the board marks the dice it may flip."""
    state, events = act(engine("geek_out"), _new(), "u1")
    return Example(state, None, events)


def scoring() -> Example:
    """No action face left and three 42s active: Ben may continue or pass."""
    events = []
    state = engine("geek_out").arrange(_new(), events, active={1: "42", 4: "42", 6: "42"},
                                       used={2: "meeple", 3: "ship", 5: "hero", 7: "heart"})
    return Example(state, None, events)


def dragon() -> Example:
    """A Dragon, two 42s and a Superhero active: his Superhero (the only action, so the table
    picks it for him) may flip the Dragon away (or
    a 42, and the Dragon then eats the turn)."""
    events = []
    state = engine("geek_out").arrange(_new(), events, active={1: "hero", 2: "dragon", 4: "42", 6: "42"},
                                       used={3: "ship", 5: "meeple", 7: "heart"})
    return Example(state, None, events)


def end() -> Example:
    state, events = play_until(engine("geek_out"), _new(), engine("geek_out").is_over)
    return Example(state, None, events[-1:])


PAGES = (
    Page(_("A turn"),
         _("Roll 7 of the 10 dice; 3 wait inactive. While an action face is active you must use one, in the "
           "order you choose. A used die moves to the used zone."),
         roll),
    Page(_("Action faces"),
         _("Meeple: reroll another active die. Superhero: flip one to its opposite side. Spaceship: send one to "
           "the inactive dice. Heart: bring an inactive die in and roll it."),
         actions),
    Page(_("42s and passing"),
         _("With no action left, your 42s score. Continue to roll the used dice again (the 42s stay at risk), "
           "or pass to bank 1, 3, 6, 10, 15... points for 1, 2, 3, 4, 5... 42s."),
         scoring),
    Page(_("Dragons"),
         _("A Dragon still active when no action is left eats your turn: 0 points. Here the Superhero can "
           "flip the Dragon first. A Spaceship alone destroys itself and scores 0 too."),
         dragon),
    Page(_("The end"),
         _("Everyone plays 5 turns. The highest total wins; a tie shares the victory."),
         end),
)
