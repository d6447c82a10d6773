"""Coaching for ``/learn``: for a learner's seat in a position, the move to suggest and why, in words.

Each game's coach lives beside its engine (``games/<game>/coach.py``, class ``Coach`` named by ``COACH``) and
is pure like it. Its advice is computed from the position, not canned: the suggested move is the one the
game's strong computer (or an exact evaluation) prefers, and ``why`` states the facts that make it good
(points, chances, what the move completes or prevents). ``facts`` holds those numbers so the tests can check
them against the engine. ``choice`` explains the decision in front of the learner: what the buttons mean here.

A coach also sets up its game's lessons: the players and options of each level (``lesson``), how many levels
there are (``levels``), which level a lesson's options are (``level_of``) and whether the learner completed it
(``completed``), so bot/cogs/learn.py names no game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from importlib import import_module

from games import play
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


class Coach(ABC):
    slug = ""
    goal: Text | str = ""
    """How the game is won, in two sentences: the lesson's first screen shows it to a newcomer."""

    @abstractmethod
    def advise(self, engine: Engine, state: State, seat: int) -> Advice:
        """The advice for ``seat``, which is to act in ``state``."""

    def weaker(self, engine: Engine, state: State, seat: int, key: str) -> Text | None:
        """One sentence when ``seat`` plays ``key`` (legal, not the suggestion) in ``state`` and the coach's
        measure says it is worth less than the suggestion: what the move was worth and what the suggestion
        would have given. None when it is worth as much, or when the coach has no measure for the step."""
        return None

    # --- the lessons of /learn: the learner (seat ``LEARNER``) and computers ----------------------------------
    levels = 1
    """How many lessons, one level each, easiest first (Globe Twister: its solo levels)."""

    def lesson(self, level: int) -> tuple[int, dict]:
        """(players, options) of the lesson of ``level`` (0-based; past the last: the last): by default the
        learner and one computer with the game's default options."""
        return 2, {}

    def level_of(self, options: dict) -> int:
        """The level of a lesson set up with ``options`` (``lesson``'s)."""
        return 0

    def completed(self, engine: Engine, state: State, seat: int) -> bool:
        """Whether the learner in ``seat`` completed the level in ``state`` (the next level is then offered):
        by default, the game is over."""
        return engine.is_over(state)


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


# --- a lesson's step (/learn), computed where the computers think -------------------------------------------------
LEARNER = 0
"""The learner's seat in a lesson."""
STEP_LIMIT = 300
"""Computer moves played in a row at most (a safety net: every game hands the turn back long before)."""


@dataclass(frozen=True)
class LessonStep:
    """A lesson after the learner's move (or its start): the state, the log that replays it, what happened
    (the learner's move and the computers' answers, as events) and the advice for the learner's next choice
    (None when the game is over). ``refused``: the key was not one of the learner's moves; nothing changed."""

    state: State
    log: list
    events: list
    advice: Advice | None
    refused: bool = False
    weaker: Text | None = None
    """The learner's move was worth less than the suggestion: by how much, in a sentence (``Coach.weaker``)."""


def computers_move(engine: Engine, state: State, seed: int, log: list, strength: str) -> tuple[State, list]:
    """Plays every seat but the learner's (computers of ``strength``, ``games.play.play_until``) until the
    learner is to act or the game ends; returns the state and the events, appending the moves to ``log``."""
    start = len(log)
    state, moves = play.play_until(engine, state, lambda s: not engine.to_act(s) or LEARNER in engine.to_act(s),
                                   strength=strength, seed=lambda n: (seed, start + n), limit=STEP_LIMIT)
    log.extend((seat, key) for seat, key, _events in moves)
    return state, [event for _seat, _key, events in moves for event in events]


def lesson_step(game: str, players: int, options: dict, seed: int, log: list, key: str | None,
                strength: str) -> LessonStep:
    """The lesson replayed from its log, the learner's ``key`` played (None: the lesson's start, with the game's
    opening; or a step shown again), the computers' answers, and the coach's advice; when the learner's move
    was worth less than the suggestion, the coach's sentence saying so (``Coach.weaker``). Pure and self-contained: the bot runs it in its
    thinking workers (a coach's search must not hold up the bot's other clicks)."""
    from games.core import get_engine

    engine = get_engine(game)
    log = [tuple(x) for x in log]
    weaker = None
    if key is None and not log:
        state = engine.new(players, options, seed)
        events = list(engine.opening(state))
    else:
        state = engine.replay(players, options, seed, log)
        events = []
    if key is not None:
        if LEARNER not in engine.to_act(state) or key not in {a.key for a in engine.legal_actions(state, LEARNER)}:
            return LessonStep(state, log, [], None, refused=True)
        weaker = get_coach(game).weaker(engine, state, LEARNER, key)
        state, happened = engine.apply(state, LEARNER, key)
        log.append((LEARNER, key))
        events.extend(happened)
    state, answered = computers_move(engine, state, seed, log, strength)
    events.extend(answered)
    advice = None if engine.is_over(state) else advise(engine, state, LEARNER)
    return LessonStep(state, log, events, advice, weaker=weaker)
