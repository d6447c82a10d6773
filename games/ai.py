"""Computer players: the shape every game's computer shares (each game's own is ``games/<game>/ai.py``).

A computer is a fourth client of the engines, beside the bot, the tests and the benchmarks, and as pure as
they are: no Discord, database or Pillow, no global randomness, no clock. It decides from what its seat may
see, ``Engine.view(state, seat)``, never from the full state: hidden information (a hand, a goal card, the
order of a deck, the next dice) is handled by sampling full states consistent with that view (each
game's ``sample_state(view, seat, rng)``, where it has hidden information), never by peeking. So its choice is the same for every state that differs only
in what the seat may not see (``Engine.secret_variants``), which a test checks for every game.

Strengths (one line each, shown to players by ``describe``):
- ``easy``: plays sensibly but short-sighted, with a little chance of a loose move;
- ``normal``: plays every move for its immediate best, reading the board;
- ``strong``: searches ahead (per game: dynamic programming, sampling, lookahead) within a fixed budget.

``seed`` makes a decision reproducible (tests, benchmarks); the bot derives it from the table and the move
number, never from the game's own seed (which fixes the deck order and the dice to come).
"""

from __future__ import annotations

import hashlib
import importlib
import random
from abc import ABC, abstractmethod
from typing import ClassVar

from games.core import Action, Engine, State, get_engine

STRENGTHS = ("easy", "normal", "strong")


class Computer(ABC):
    """One game's computer player. Subclasses set ``slug`` and implement :meth:`choose`."""

    slug: ClassVar[str]
    strengths: ClassVar[dict[str, str]] = {
        "easy": "plays sensibly but short-sighted, with the odd loose move",
        "normal": "makes the best move it sees right now",
        "strong": "looks ahead and plans, within a second or two",
    }
    """What each strength does, in one line (the lobby and /rules show it)."""

    def __init__(self) -> None:
        self.engine: Engine = get_engine(self.slug)

    @abstractmethod
    def choose(self, view: dict, seat: int, actions: list[Action], strength: str, rng: random.Random) -> str:
        """The key of one of ``actions`` (``seat``'s legal actions now, in the engine's order) for ``seat``,
        decided from ``view`` (``Engine.view(state, seat)``) alone. ``rng`` is the decision's own generator."""


def decision_rng(seed: int | str, *parts: object) -> random.Random:
    """A generator for one decision from a seed and what identifies the decision (table, ply, seat)."""
    digest = hashlib.blake2b(repr((seed, *parts)).encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


_COMPUTERS: dict[str, Computer] = {}


def get_computer(slug: str) -> Computer:
    """The computer player of game ``slug`` (``games/<slug>/ai.py``'s ``COMPUTER`` class)."""
    if slug not in _COMPUTERS:
        module = importlib.import_module(f"games.{slug}.ai")
        _COMPUTERS[slug] = module.COMPUTER()
    return _COMPUTERS[slug]


def choose(engine: Engine, state: State, seat: int, strength: str, seed: int | str) -> str:
    """What the computer in ``seat`` plays now: it is handed the seat's view and legal actions only."""
    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}")
    actions = engine.legal_actions(state, seat)
    if len(actions) == 1:
        return actions[0].key
    view = engine.view(state, seat)
    key = get_computer(engine.slug).choose(view, seat, actions, strength, decision_rng(seed, state["ply"], seat))
    if key not in {a.key for a in actions}:
        raise RuntimeError(f"the {engine.slug} computer chose {key!r}, not a legal action")
    return key
