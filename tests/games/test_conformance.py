"""The protocol every registered game must keep (design.md, 'The conformance suite')."""

import random

import pytest

import games
from games.conformance import check_illegal_rejected, check_round_trip, random_playout, single_action_share
from games.core import RulesError
from tests.games.clicks import NEAR_IDENTICAL_MAX, measure

ENGINES = games.all_engines()
SEEDS = range(60)


def player_counts(engine):
    return sorted({engine.min_players, max(engine.min_players, 2), engine.max_players})


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_random_playouts_end_and_keep_the_protocol(engine):
    for seed in SEEDS:
        for players in player_counts(engine):
            chooser = random.Random(seed * 31 + players)
            steps = 0

            def check(eng, state):
                nonlocal steps
                steps += 1
                if steps % 7 == 0:
                    check_round_trip(eng, state)
                    check_illegal_rejected(eng, state)
                for seat in eng.to_act(state):
                    assert eng.legal_actions(state, seat), "a seat to act must have a legal action"

            final, log = random_playout(engine, players, seed, chooser=chooser, system_rate=0.02, check=check)
            assert engine.result(final) is not None
            assert not engine.to_act(final)
            # replay from players, options, seed and the log rebuilds the state exactly
            assert engine.encode(engine.replay(players, {}, seed, log)) == engine.encode(final)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_almost_every_decision_is_a_real_choice(engine):
    """A step with a single legal action is no choice: the table plays it (and logs it), so fewer than 2% of
    the points where a seat must act offer one action (random games, with timeouts and departures)."""
    played = [(players, seed) for seed in range(40) for players in player_counts(engine)]
    points, singles, labels = single_action_share(engine, played)
    assert points > 1000
    common = sorted(labels.items(), key=lambda kv: -kv[1])[:8]
    assert singles / points < 0.02, f"{singles} of {points} decision points offer one action: {common}"


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_every_step_offers_few_alike_buttons_and_every_move(engine):
    """Issue 26: no step shows more than 10 buttons of near-identical labels (a menu is one control); each step
    as the bot builds it (bot.table.choices.offer: the table's board and panel, a lesson) reaches exactly the
    legal moves, each once; and the clicks a move needs (1, or 2 for a group then its move) are measured:
    ``pytest -s`` prints them per game (random games, each move picked uniformly among the legal ones)."""
    report = measure(engine, [(players, seed) for seed in range(10) for players in player_counts(engine)])
    print("\n" + report.line()[:300])
    assert len(report.clicks) > 1000
    assert report.worst[0] <= NEAR_IDENTICAL_MAX, report.line()
    assert max(report.clicks) <= 2


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_global_random_does_not_matter(engine):
    players = max(engine.min_players, 2)
    random.seed(1)
    a, log = random_playout(engine, players, 7, chooser=random.Random(3))
    random.seed(999)
    random.random()
    b = engine.replay(players, {}, 7, log)
    assert engine.encode(a) == engine.encode(b)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_same_seed_same_game_different_seed_differs(engine):
    players = max(engine.min_players, 2)
    starts = {engine.encode(engine.new(players, {}, seed)) for seed in range(20)}
    assert len(starts) > 1
    assert engine.encode(engine.new(players, {}, 5)) == engine.encode(engine.new(players, {}, 5))


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_views_hide_other_seats_secrets(engine):
    """A seat's view never changes when only other seats' secrets change."""
    chooser = random.Random(11)
    for seed in range(20):
        players = max(engine.min_players, 2)
        state = engine.new(players, {}, seed)
        for _ in range(30):
            to_act = sorted(engine.to_act(state))
            if not to_act:
                break
            for seat in [None, *range(players)]:
                base = engine.view(state, seat)
                for variant in engine.secret_variants(state, seat, chooser):
                    assert engine.view(variant, seat) == base
            seat = chooser.choice(to_act)
            state, _ = engine.apply(state, seat, chooser.choice(engine.legal_actions(state, seat)).key)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_bad_player_counts_and_options_are_refused(engine):
    with pytest.raises(RulesError):
        engine.new(engine.max_players + 1, {}, 1)
    with pytest.raises(RulesError):
        engine.new(max(engine.min_players, 2), {"no_such_option": 1}, 1)


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_a_finished_game_refuses_every_action_even_the_tables(engine):
    players = max(engine.min_players, 2)
    final, _ = random_playout(engine, players, 4, chooser=random.Random(4))
    before = engine.encode(final)
    for seat, key in ((-1, "leave:0"), (-1, f"timeout:{players - 1}"), (0, "p")):
        with pytest.raises(RulesError, match="over|not the one"):
            engine.apply(final, seat, key)
    assert engine.encode(final) == before
