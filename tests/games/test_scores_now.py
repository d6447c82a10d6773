"""``Engine.scores_now``: each seat's score as the game stands, the result's scores once it is over (the bot keeps
a leaving player's own score with it when a computer takes their seat over: bot/computers.py ``handed_over``)."""

import random

import pytest

from games import all_engines


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.slug)
def test_scores_now_is_a_score_per_seat_and_the_results_at_the_end(engine):
    for seed in range(3):
        players = max(engine.min_players, 2)
        state, rng = engine.new(players, None, seed), random.Random(seed)
        for _ in range(3000):
            now = engine.scores_now(state)
            assert now is not None and len(now) == players
            if engine.is_over(state):
                break
            seat = sorted(engine.to_act(state))[0]
            state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).key)
        assert engine.is_over(state)
        assert engine.scores_now(state) == tuple(engine.result(state).scores)
