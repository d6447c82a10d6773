"""Coaching for ``/learn``: for a learner's seat in a position, the move to suggest and why, in words.

Each game's coach lives beside its engine (``games/<game>/coach.py``, class ``Coach`` named by ``COACH``) and
is pure like it. Its advice is computed from the position, not canned: the suggested move is the one the
game's strong computer (or an exact evaluation) prefers, and ``why`` states the facts that make it good
(points, chances, what the move completes or prevents). ``facts`` holds those numbers so the tests can check
them against the engine. ``choice`` explains the decision in front of the learner: what the buttons mean here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module

from games.core import Engine, State
from i18n import Text


@dataclass(frozen=True)
class Advice:
    key: str
    """The suggested action's key: one of ``engine.legal_actions(state, seat)``."""
    choice: Text
    """The decision in front of the learner, in a sentence or two."""
    why: Text
    """Why the suggested move is good here."""
    facts: dict = field(default_factory=dict)
    """The numbers ``why`` states (for the tests)."""


class Coach:
    slug = ""

    def advise(self, engine: Engine, state: State, seat: int) -> Advice:
        raise NotImplementedError


_COACHES: dict[str, Coach] = {}


def get_coach(slug: str) -> Coach:
    if slug not in _COACHES:
        module = import_module(f"games.{slug}.coach")
        _COACHES[slug] = module.COACH()
    return _COACHES[slug]


def advise(engine: Engine, state: State, seat: int) -> Advice:
    """The coach's advice for ``seat`` (which must be to act in ``state``)."""
    if seat not in engine.to_act(state):
        raise ValueError(f"seat {seat} is not to act")
    return get_coach(engine.slug).advise(engine, state, seat)
