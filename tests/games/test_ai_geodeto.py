"""Geodeto's computer (games/geodeto/ai.py): its moves-to-goal estimate, its samples of what it cannot see,
and planted positions where each strength does what it promises."""

import copy
import random

import pytest

from games.ai import choose
from games.geodeto import ai
from games.geodeto.rules import continents_of, deck, met_on, triples
from tests.games.test_geodeto import E, P, arrange, game, make_public, set_hand, turn

ALL_CARDS = sorted(deck())
FAR = ("usa", "mt-everest")
"""Hand cards no planted position here brings near."""


def random_states(players: int, seed: int, every: int = 7, steps: int = 400):
    """States along a game of random actions: every ``every``-th one, all phases and steps included."""
    rng = random.Random(seed)
    state = E.new(players, {}, seed)
    for step in range(steps):
        if E.is_over(state):
            yield state
            return
        if step % every == 0:
            yield state
        seat = state["current"]
        keys = [a.key for a in E.legal_actions(state, seat) if a.key != "back"]
        state, _ = E.apply(state, seat, rng.choice(keys))


def whole_turn(state, seat, strength, seed=0):
    """The seat's computer plays both steps of its action; returns the state after and the keys."""
    played = []
    while state["current"] == seat and state["phase"] == "turn" and not E.is_over(state):
        key = choose(E, state, seat, strength, seed)
        played.append(key)
        state, _ = E.apply(state, seat, key)
        if state["step"] is None:
            break
    return state, played


def claimable_in_one_action(state, seat, card):
    """Whether some action of ``seat`` now ends with ``card`` among their fulfilled goals (brute force)."""
    for first in [a.key for a in E.legal_actions(state, seat) if a.key != "back"]:
        mid, _ = E.apply(state, seat, first)
        seconds = [a.key for a in E.legal_actions(mid, seat) if a.key != "back"] if mid["step"] else [None]
        for second in seconds:
            after = E.apply(mid, seat, second)[0] if second else mid
            if any(f["card"] == card for f in after["fulfilled"][seat]):
                return True
    return False


# --- the estimate ----------------------------------------------------------------------------------------
def test_the_cost_is_zero_exactly_when_the_trio_stands_and_one_for_every_trio_one_action_forms():
    checked_one = 0
    for state in (s for seed in range(12) for s in random_states(2, seed, every=5, steps=200)):
        if state["phase"] != "turn" or state["step"] is not None:
            continue
        seat = state["current"]
        view = E.view(state, seat)
        board = ai.board_of(view, seat)
        loc = ai.locate(board.towers)
        found = triples(state["towers"])
        formed_by_one = set()
        for action in ai.full_actions(board, seat, view["forbidden"], draws=False):
            after, _ = ai.act(board, seat, action)
            formed_by_one.update(c for c in ALL_CARDS if ai.stands(c, after.towers) is not None)
        for card in ALL_CARDS:
            cost = ai.trio_cost(card, board.towers, loc, board.closed)
            assert (cost == 0) == (met_on(card, found) is not None), card
            if card in formed_by_one and cost:
                assert cost == 1, (card, state["towers"])
                checked_one += 1
    assert checked_one


def test_the_search_moves_and_claims_as_the_engine_does():
    """Every action the search generates is legal in the engine, and its board after it matches the engine's."""
    for state in random_states(3, 8, every=13):
        if state["phase"] != "turn" or state["step"] is not None:
            continue
        seat = state["current"]
        view = E.view(state, seat)
        board = ai.board_of(view, seat)
        actions = ai.full_actions(board, seat, view["forbidden"])
        first_keys = {a.key for a in E.legal_actions(state, seat)}
        for action in actions[::5]:
            assert ai.first_key(action) in first_keys
            mid, _ = E.apply(state, seat, ai.first_key(action))
            after_state, _ = E.apply(mid, seat, ai.second_key(action))
            after, got = ai.act(board, seat, action)
            engine_towers = [[tuple(t) for t in place] for place in after_state["towers"]]
            assert sorted(map(sorted, after.towers)) == sorted(map(sorted, engine_towers))
            assert sorted(got) == sorted(f["card"] for f in after_state["fulfilled"][seat][len(view["fulfilled"][seat]):])


# --- hidden information --------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 4])
def test_a_sampled_state_shows_the_seat_exactly_its_view_and_keeps_the_piles_by_continent(players):
    rng = random.Random(1)
    compared = 0
    for state in (s for seed in (players, 10 + players) for s in random_states(players, seed, every=9)):
        seat = min(E.to_act(state)) if E.to_act(state) else 0
        view = E.view(state, seat)
        sample = ai.sample_state(view, seat, rng)
        assert E.view(sample, seat) == view
        assert sample["seed"] != state["seed"]
        for pile, cards in enumerate(sample["piles"]):
            assert all(pile in continents_of(c) for c in cards)
        cards = [c for h in sample["hands"] for c in h] + [c for p in sample["piles"] for c in p]
        cards += [f["card"] for fs in sample["fulfilled"] for f in fs]
        assert sorted(cards) == ALL_CARDS
        if not E.is_over(state):
            key = E.legal_actions(sample, seat)[0].key
            E.apply(sample, seat, key)  # a sample is a state the engine plays on
        compared += 1
    assert compared > 10


def test_samples_differ_in_what_the_seat_cannot_see_only():
    state = game(3, seed=4)
    view = E.view(state, 0)
    hands = {tuple(ai.deal(view, 0, random.Random(k))[0][1]) for k in range(8)}
    assert len(hands) > 1  # other hands are guessed, not read
    for k in range(8):
        dealt_hands, _ = ai.deal(view, 0, random.Random(k))
        assert dealt_hands[0] == state["hands"][0]
        assert [len(h) for h in dealt_hands] == [len(h) for h in state["hands"]]


# --- planted positions ---------------------------------------------------------------------------------
def italy_one_move_away(forbidden_for_me: bool):
    """Italy (large red, medium white, small green, bottom to top, in Europe) needs only the small green on top,
    which sits in Africa (a neighbour) or in the Ocean."""
    s = game(2, seed=2)
    arrange(s, europe=[["lR", "mW"]], africa=[] if forbidden_for_me else [["sG"]])
    turn(s, 0)
    if forbidden_for_me:
        s["last_pick"] = [1, P("sG")]  # the opponent just moved it: no takeback for seat 0
    return s


@pytest.mark.parametrize("strength", ["normal", "strong"])
def test_normal_and_strong_complete_a_goal_in_hand_one_move_away(strength):
    s = set_hand(italy_one_move_away(False), 0, "italy", *FAR)
    after, played = whole_turn(s, 0, strength)
    assert played == [f"m{P('sG')}", f"o{P('mW')}"]
    assert "italy" in [f["card"] for f in after["fulfilled"][0]]


def test_easy_mostly_completes_it_too_but_not_always():
    s = set_hand(italy_one_move_away(False), 0, "italy", *FAR)
    firsts = [choose(E, s, 0, "easy", seed) for seed in range(60)]
    took = firsts.count(f"m{P('sG')}")
    assert 30 <= took < 60


@pytest.mark.parametrize("strength", ["normal", "strong"])
def test_a_public_goal_one_move_away_is_claimed(strength):
    s = make_public(set_hand(italy_one_move_away(False), 0, *FAR), "italy")
    after, _ = whole_turn(s, 0, strength)
    assert "italy" in [f["card"] for f in after["fulfilled"][0]]


def test_strong_spoils_a_public_goal_the_next_player_could_claim_and_it_cannot():
    """The small green is forbidden to seat 0 (no takeback): it cannot claim Italy, seat 1 could next turn.
    Strong breaks the tower, takes the piece or the card, or closes Europe."""
    base = make_public(set_hand(italy_one_move_away(True), 0, *FAR), "italy")
    set_hand(base, 1, "china")
    assert not claimable_in_one_action(base, 0, "italy")
    assert claimable_in_one_action(turn(copy.deepcopy(base), 1) | {"last_pick": None}, 1, "italy")
    for seed in range(3):
        after, played = whole_turn(base, 0, "strong", seed)
        assert not claimable_in_one_action(after, 1, "italy"), played


def test_the_evaluators_memoised_cost_is_the_estimate_and_spares_most_of_it():
    """Within a decision most searched actions leave a card's trio alone: ``Evaluator.cost`` looks those up
    (keyed by what ``trio_cost`` reads) and always agrees with computing it afresh."""
    looked_up = computed = 0
    for state in random_states(3, 21, every=5, steps=200):
        if E.is_over(state) or state["phase"] != "turn" or state["step"] is not None:
            continue
        seat = state["current"]
        view = E.view(state, seat)
        board = ai.board_of(view, seat)
        evaluator = ai.Evaluator(seat, ai.PUBLIC_SHARE["normal"])
        for action in ai.full_actions(board, seat, view["forbidden"]):
            after, _ = ai.act(board, seat, action)
            loc = ai.locate(after.towers)
            for card in after.hand + [c for c in after.tops if c is not None]:
                assert evaluator.cost(card, after, loc) == ai.trio_cost(card, after.towers, loc, after.closed)
                looked_up += 1
        computed += len(evaluator.costs)
    assert looked_up > 1000 and computed < looked_up / 2


def test_the_quick_paths_of_the_search_agree_with_the_plain_ones():
    """The search's shortcuts change nothing: a board after a move or a draw located from the board before
    is the board located afresh, and a board's value is the plain sum of ``card_points`` times the cost's
    weight over the hand (less the hand penalty) and, shared, over the public goals."""
    reused = 0
    for state in random_states(3, 21, every=5, steps=200):
        if E.is_over(state) or state["phase"] != "turn" or state["step"] is not None:
            continue
        seat = state["current"]
        view = E.view(state, seat)
        board = ai.board_of(view, seat)
        base = ai.locate(board.towers)
        evaluator = ai.Evaluator(seat, ai.PUBLIC_SHARE["normal"])
        for action in ai.full_actions(board, seat, view["forbidden"]):
            after, got = ai.act(board, seat, action)
            loc = ai.locate(after.towers)
            quick = ai.located_after(base, after, action, got)
            if quick is not None:
                assert quick == loc, action
                reused += 1
            if got or after.countdown <= 0:
                continue
            plain = 0.0
            for card in after.hand:
                plain += ai.card_points(card, after.formed, after.countdown) * ai.WEIGHTS[
                    ai.trio_cost(card, after.towers, loc, after.closed)]
            plain -= ai.hand_penalty(after.countdown) * len(after.hand)
            for card in after.tops:
                if card is not None:
                    cost = ai.trio_cost(card, after.towers, loc, after.closed)
                    plain += evaluator.public_share * ai.card_points(card, after.formed, after.countdown) * ai.WEIGHTS[cost]
            assert evaluator.value(after, got, board, quick) == plain, action
    assert reused > 1000
