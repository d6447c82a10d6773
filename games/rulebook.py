"""Rule pages: a game's rules in a few short pages, each with an example position the engine itself reached.

Each game's ``games/<slug>/rulebook.py`` lists its ``PAGES``; a page's example is a function that plays legal
actions from a seed (or uses the engine's own helpers for tests and examples, such as Geek Out's ``arrange``
or Geomancy's forced throws) and returns the state to draw, so a picture can never show a position the rules
do not allow. Pure like every engine: the bot draws the example with the game's renderer (bot/cogs/rules.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module

from games import play
from games.core import Engine, Event, State, get_engine

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")
"""The example players' names (names are never translated)."""


@dataclass
class Example:
    """A position to draw: the state, what the board should mark (the renderer's ``focus``) and the events of
    the move that led to it (the board's footer)."""

    state: State
    focus: dict | None = None
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class Page:
    title: str
    """A short title (a ``Text``)."""
    text: str
    """A few short sentences (a ``Text``)."""
    example: Callable[[], Example]


def pages(slug: str) -> tuple[Page, ...]:
    """The rule pages of game ``slug`` (its ``games/<slug>/rulebook.py``)."""
    return import_module(f"games.{slug}.rulebook").PAGES


@cache
def example(slug: str, page: int) -> Example:
    """Page ``page``'s (0-based) example, built once per process (engines are deterministic)."""
    return pages(slug)[page].example()


def act(engine: Engine, state: State, key: str, seat: int | None = None) -> tuple[State, list[Event]]:
    """Plays ``key`` for ``seat`` (default: the one seat to act); raises if it is not a legal action."""
    if seat is None:
        seat = min(engine.to_act(state))
    if key not in {a.key for a in engine.legal_actions(state, seat)}:
        raise ValueError(f"{key!r} is not legal for seat {seat}")
    return engine.apply(state, seat, key)


def play_until(engine: Engine, state: State, done: Callable[[State], bool], *, strength: str = "normal",
               limit: int = 3000) -> tuple[State, list[Event]]:
    """The computers play every seat from ``state`` until ``done(state)`` (``games.play.play_until``); returns
    the state and the events of the last move. Deterministic: the computers' choices are seeded by the state's
    ply."""
    state, moves = play.play_until(engine, state, done, strength=strength, seed=lambda _n: "rulebook", limit=limit)
    if done(state):
        return state, moves[-1][2] if moves else []
    raise RuntimeError(f"{engine.slug}: the example position was not reached")


def engine(slug: str) -> Engine:
    return get_engine(slug)
