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

import functools
import hashlib
import importlib
import random
from abc import ABC, abstractmethod
from typing import ClassVar

from games.core import Action, Engine, State, get_engine
from i18n import N_, Text, _, pgettext

STRENGTHS = ("easy", "normal", "strong")


# --- computers' names: data (Text), never parsed -------------------------------------------------------------
def strength_name(strength: str) -> Text:
    """A strength as a word inside a name or sentence ("Computer (strong)")."""
    return {"easy": pgettext("strength", "easy"), "normal": pgettext("strength", "normal"),
            "strong": pgettext("strength", "strong")}[strength]


def _strength_title(strength: str) -> Text:
    """A strength as a computer's short name ("Strong", "Strong 2")."""
    return {"easy": pgettext("computer", "Easy"), "normal": pgettext("computer", "Normal"),
            "strong": pgettext("computer", "Strong")}[strength]


COMPUTER = N_("Computer ({strength})")
NUMBERED = N_("Computer {number} ({strength})")
STAND_IN = N_("Computer for {person}")
_NAMES = (COMPUTER, NUMBERED, STAND_IN)


@functools.lru_cache(maxsize=256)
def computer_name(strength: str, number: int = 1) -> Text:
    """A computer's name at a table: "Computer (strong)", the second of a strength "Computer 2 (strong)".
    Made once (the same ``Text`` every time, never changed): a table names its seats at every move and board
    (``Table.names``), and building these took a few percent of the bot's loop with computers playing."""
    if number <= 1:
        return _("Computer ({strength})", strength=strength_name(strength))
    return _("Computer {number} ({strength})", number=number, strength=strength_name(strength))


@functools.lru_cache(maxsize=1024)
def stand_in_name(person: str) -> Text:
    """The computer that took a person's seat: "Computer for Dee" (a person's name is never translated). Made
    once a name, as ``computer_name``."""
    return _("Computer for {person}", person=person)


def is_computer_name(name: object) -> bool:
    """Whether ``name`` is a computer's (built by ``computer_name`` / ``stand_in_name``), not a person's."""
    return isinstance(name, Text) and name.msgid in _NAMES and name.parts is None


def _strength_of(name: Text) -> str:
    strength = name.params["strength"]
    return strength.msgid if isinstance(strength, Text) else str(strength)


def short_computer_name(name: Text, letters: int | None = None) -> Text:
    """A computer's name where room is short, telling the seats apart (a robot's head beside it says
    "computer"): "Strong 2", "Easy", "Dee's bot" (the first name of whose seat it took; ``letters``: that name
    clipped to so many letters and an ellipsis, "Wil…'s bot")."""
    if name.msgid == STAND_IN:
        person = str(name.params["person"])
        first = (person.split() or [person])[0]
        if letters is not None and len(first) > letters:
            first = first[:letters] + "…"
        return _("{person}'s bot", person=first)
    title = _strength_title(_strength_of(name))
    if name.msgid == NUMBERED:
        return pgettext("computer", "{strength} {number}", strength=title, number=name.params["number"])
    return title


def least_computer_name(name: Text) -> Text:
    """The least of a computer's name a board may show: its short form, a first name clipped to 3 letters."""
    return short_computer_name(name, letters=3)


class Computer(ABC):
    """One game's computer player. Subclasses set ``slug`` and implement :meth:`choose`."""

    slug: ClassVar[str]
    strengths: ClassVar[dict[str, str]] = {
        "easy": _("plays sensibly but short-sighted, with the odd loose move"),
        "normal": _("makes the best move it sees right now"),
        "strong": _("looks ahead and plans, within a second or two"),
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
        raise ValueError(f"unknown strength {strength!r}")  # (a programming error: never shown to a player)
    actions = engine.legal_actions(state, seat)
    if len(actions) == 1:
        return actions[0].key
    view = engine.view(state, seat)
    key = get_computer(engine.slug).choose(view, seat, actions, strength, decision_rng(seed, state["ply"], seat))
    if key not in {a.key for a in actions}:
        raise RuntimeError(f"the {engine.slug} computer chose {key!r}, not a legal action")
    return key
