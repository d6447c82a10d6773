"""Computers playing on: the one place that turns a computer's choices (games/ai.py) into moves.

Three callers, one loop each way: a table's computer seat (the bot's thinking workers call
:func:`computer_keys`), a lesson's opponents (games/coach.py) and the rule pages' example positions
(games/rulebook.py) both call :func:`play_until`. Pure: no Discord, no database, no images.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

from games.core import Engine, Event, State

SILENT_STEPS = 4
"""At most so many keys in one firing of a computer playing alone (a pick that says nothing and what completes
it): a bound, so a computer that keeps picking and going back still moves one firing at a time."""


def computer_keys(engine: Engine, state: State, seat: int, strength: str, seed: int, whole: bool,
                  hold: bool = False) -> list[str]:
    """The keys the computer in ``seat`` plays from ``state`` at a table: one step, or (``whole``: secret
    simultaneous play, Globe Twister's programming) every step it takes until it is no longer to act or the
    stage ends (a move with announcements, e.g. the run that ends the stage), so its whole program goes in at
    once. A step is a move that says something: a pick that says nothing (a Geek Out die whose target comes
    next, a Geodeto pyramid whose destination comes next) is played with what completes it, so the channel
    sees one board and one line per die or route, not a board per click. ``hold``: a person is still to act in
    the same stage, so the computer plays only moves that leave who is to act as it is: it stops before the
    move that would end its part or the stage (its lock-in; the keys may then be none), and makes that move
    once no person is still to act."""
    from games.ai import choose

    keys: list[str] = []
    while True:
        key = choose(engine, state, seat, strength, seed)
        after, events = engine.apply(state, seat, key)
        announced = engine.announcements(state, after)
        if hold and (engine.to_act(after) != engine.to_act(state) or announced):
            return keys  # it would end its part (its lock-in), or everyone's ("Stop!")
        keys.append(key)
        if engine.is_over(after) or seat not in engine.to_act(after) or announced:
            return keys
        if not whole and (any(e.text for e in events) or engine.to_act(after) != {seat}
                          or len(keys) >= SILENT_STEPS):
            return keys
        state = after


def play_until(engine: Engine, state: State, done: Callable[[State], bool], *, strength: str,
               seed: Callable[[int], Hashable], limit: int) -> tuple[State, list[tuple[int, str, list[Event]]]]:
    """Computers of ``strength`` play from ``state`` (the lowest seat to act moves first) until ``done(state)``,
    the game ends or ``limit`` moves were made; returns the state and the moves made, each as (seat, key, its
    events). ``seed(n)``: the seed of the n-th move made here (decisions stay reproducible)."""
    from games.ai import choose

    moves: list[tuple[int, str, list[Event]]] = []
    while len(moves) < limit and not done(state) and not engine.is_over(state):
        seat = min(engine.to_act(state))
        key = choose(engine, state, seat, strength, seed(len(moves)))
        state, events = engine.apply(state, seat, key)
        moves.append((seat, key, list(events)))
    return state, moves
