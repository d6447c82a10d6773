"""Checks every engine must pass, used by tests/games/test_conformance.py over every registered game.

A random playout picks uniformly among the legal actions of a random seat to act (and now and then a
SYSTEM timeout or departure), checking the protocol after every step.
"""

from __future__ import annotations

import json
import random

from games.core import SYSTEM, Engine, RulesError, State


def random_playout(
    engine: Engine, players: int, seed: int, *, chooser: random.Random, system_rate: float = 0.0,
    max_steps: int = 20_000, check=None,
) -> tuple[State, list[tuple[int, str]]]:
    """Plays one game to its end; returns the final state and the action log. ``check(engine, state)`` runs
    after every step."""
    state = engine.new(players, {}, seed)
    log: list[tuple[int, str]] = []
    for _ in range(max_steps):
        to_act = sorted(engine.to_act(state))
        if not to_act:
            return state, log
        seat = chooser.choice(to_act)
        if system_rate and chooser.random() < system_rate:
            remaining = engine.remaining(state)
            if chooser.random() < 0.2 and len(remaining) > 1:
                key = f"leave:{chooser.choice(remaining)}"
            else:
                key = f"timeout:{seat}"
            actor = SYSTEM
        else:
            actions = engine.legal_actions(state, seat)
            assert actions, f"{engine.slug}: seat {seat} is to act but has no legal action"
            assert len({a.key for a in actions}) == len(actions), "action keys must be unique"
            key = chooser.choice(actions).key
            actor = seat
        state, _events = engine.apply(state, actor, key)
        log.append((actor, key))
        if check:
            check(engine, state)
    raise AssertionError(f"{engine.slug}: game did not end within {max_steps} steps")


def check_round_trip(engine: Engine, state: State) -> None:
    text = engine.encode(state)
    assert engine.decode(text) == state
    assert engine.encode(engine.decode(text)) == text
    json.loads(text)


def check_illegal_rejected(engine: Engine, state: State) -> None:
    """Keys that are not legal raise RulesError and leave the state untouched."""
    before = engine.encode(state)
    for seat in range(state["players"]):
        legal = {a.key for a in engine.legal_actions(state, seat)}
        for key in ("zz", "", "u99", "t0", "leave:", *(["p", "c"] if not legal else [])):
            if key in legal:
                continue
            try:
                engine.apply(state, seat, key)
            except RulesError:
                pass
            else:
                raise AssertionError(f"{engine.slug}: illegal key {key!r} accepted for seat {seat}")
    assert engine.encode(state) == before


def single_action_share(engine: Engine, games: list[tuple[int, int]], *, system_rate: float = 0.02
                        ) -> tuple[int, int, dict[str, int]]:
    """Plays ``games`` (players, seed) at random and counts the decision points (a seat that must act, in a
    state the game reached) and those offering exactly one legal action, which are no choice: the table
    should play them. Returns (decision points, single-action points, their labels with counts)."""
    points = singles = 0
    labels: dict[str, int] = {}

    def count(eng: Engine, state: State) -> None:
        nonlocal points, singles
        for seat in eng.to_act(state):
            actions = eng.legal_actions(state, seat)
            points += 1
            if len(actions) == 1:
                singles += 1
                labels[actions[0].label] = labels.get(actions[0].label, 0) + 1

    for players, seed in games:
        count(engine, engine.new(players, {}, seed))
        random_playout(engine, players, seed, chooser=random.Random(seed * 17 + players), system_rate=system_rate,
                       check=count)
    return points, singles, labels
