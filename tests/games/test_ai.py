"""Computer players of every game (games/ai.py, games/<game>/ai.py): the checks every game's computer keeps.

Per game, its own tests (tests/games/test_ai_<game>.py) check its method and its strength; these check the
shape: it picks a legal action, decides from its seat's view only (the same choice for every state that
differs in what the seat may not see), and computer-only games end with the engine's invariants holding.
"""

import random

import pytest

import games
from games.ai import STRENGTHS, choose
from games.conformance import check_round_trip

ENGINES = games.all_engines()


def player_counts(engine):
    return sorted({max(engine.min_players, 2), engine.max_players})


def computer_game(engine, players: int, seed: int, strengths: list[str], max_steps: int = 5000):
    """One game of computers only (seat s plays at ``strengths[s]``); returns the final state and the log."""
    state = engine.new(players, {}, seed)
    log = []
    for _ in range(max_steps):
        to_act = sorted(engine.to_act(state))
        if not to_act:
            return state, log
        seat = to_act[0]
        key = choose(engine, state, seat, strengths[seat], seed)
        state, _ = engine.apply(state, seat, key)
        log.append((seat, key))
    raise AssertionError(f"{engine.slug}: a computers' game did not end within {max_steps} steps")


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_computer_games_end_with_the_invariants_holding(engine):
    for seed in range(12):
        for players in player_counts(engine):
            strengths = [STRENGTHS[(seed + s) % 2] for s in range(players)]  # easy and normal: fast
            final, log = computer_game(engine, players, seed, strengths)
            assert engine.result(final) is not None
            check_round_trip(engine, final)
            assert engine.encode(engine.replay(players, {}, seed, log)) == engine.encode(final)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
@pytest.mark.parametrize("strength", STRENGTHS)
def test_a_computer_decides_from_its_seats_view_only(engine, strength):
    """The same decision (same decision seed) for every state that differs only in what the seat can't see."""
    rng = random.Random(5)
    checked = 0
    for seed in range(4):
        state = engine.new(max(engine.min_players, 2), {}, seed)
        for step in range(60):
            to_act = sorted(engine.to_act(state))
            if not to_act:
                break
            seat = to_act[0]
            if step % 6 == 0 and len(engine.legal_actions(state, seat)) > 1:
                mine = choose(engine, state, seat, strength, 99)
                for variant in engine.secret_variants(state, seat, rng):
                    assert choose(engine, variant, seat, strength, 99) == mine, (engine.slug, seed, step)
                    checked += 1
            state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).key)
    if any(engine.secret_variants(engine.new(max(engine.min_players, 2), {}, s), 0, rng) for s in range(3)):
        assert checked, f"{engine.slug}: no decision was compared against a secret variant"
