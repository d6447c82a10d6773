"""Geomancy's computer (games/geomancy/ai.py): the state behind a view, casts sampled with its own generator
(never the game's), and planted positions: a capturing reorient, a landing capture, a same-colour choice."""

import random

import pytest

from games.ai import choose
from games.core import copy_state
from games.geomancy import ai
from games.geomancy.ai import sample_state, threats
from games.geomancy.model import parse_square
from games.geomancy.rules import Geomancy, aura_map, size_of, stone_id

E = Geomancy()
PER = 5  # stones of each size with two players
D4, E4, F4 = parse_square("d4"), parse_square("e4"), parse_square("f4")


def played(seed, plies, players=2):
    rng = random.Random(seed)
    state = E.new(players, {}, seed)
    for _ in range(plies):
        if E.is_over(state):
            break
        seat = sorted(E.to_act(state))[0]
        state, _ = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)).key)
    return state


@pytest.mark.parametrize("players", (2, 4))
def test_the_state_behind_a_view_is_the_position_with_a_seed_of_its_own(players):
    for seed in range(6):
        state = played(seed, 25 + 7 * seed, players)
        for seat in range(players):
            sampled = sample_state(E.view(state, seat), seat, random.Random(seed))
            for key in ("board", "prisoners", "round", "current", "start", "phase", "choices", "step", "per",
                        "passed", "left", "options"):
                assert sampled[key] == state[key], key
            assert [sorted(h) for h in sampled["hands"]] == [sorted(h) for h in state["hands"]]
            on_board = [s for ss in state["board"] for s in ss]
            assert [sampled["dirs"][s] for s in on_board] == [state["dirs"][s] for s in on_board]
            assert (sampled["seed"], sampled["rng"]) != (state["seed"], state["rng"])
            assert E.view(sampled, seat)["board"] == E.view(state, seat)["board"]


def test_the_decision_never_depends_on_the_games_own_dice():
    """The same position with another seed (other casts to come) gets the same decision, and choosing draws
    nothing from the game's generator."""
    for seed in range(4):
        state = played(seed, 30)
        seat = sorted(E.to_act(state))[0]
        other = copy_state(state)
        other["seed"], other["rng"] = state["seed"] + 1000, 7
        before = E.encode(state)
        for strength in ("easy", "normal", "strong"):
            assert choose(E, state, seat, strength, 5) == choose(E, other, seat, strength, 5)
        assert E.encode(state) == before


def planted(round_, height="low"):
    """Two players, seat 0 to act in ``round_``, an empty board, seat 0 holding only its large stones."""
    state = E.new(2, {"height": height}, 3)
    state.update(round=round_, current=0, start=0)
    mine = [stone_id(PER, 0, size, k) for size in (1, 2) for k in range(PER)]
    state["hands"][0] = [s for s in state["hands"][0] if s not in mine]
    state["prisoners"][1] = mine  # seat 1 took them earlier
    return state


def put(state, stone, square, direction):
    state["board"][square].append(stone)
    state["dirs"][stone] = direction
    state["prisoners"] = [[s for s in p if s != stone] for p in state["prisoners"]]
    state["hands"] = [[s for s in h if s != stone] for h in state["hands"]]


@pytest.mark.parametrize("strength", ("normal", "strong"))
def test_a_stone_is_turned_to_capture(strength):
    state = planted(2)
    put(state, stone_id(PER, 0, 2, 0), D4, 0)  # my medium on d4 points north
    put(state, stone_id(PER, 1, 1, 0), E4, 0)  # their small next to it on e4
    key = choose(E, state, 0, strength, 1)
    assert key == f"r{D4}"
    state, _ = E.apply(state, 0, key)
    assert choose(E, state, 0, strength, 2) == "d2"  # east: an aura of 2 on e4 takes the small stone
    state, _ = E.apply(state, 0, "d2")
    assert stone_id(PER, 1, 1, 0) in state["prisoners"][0]


def test_easy_only_turns_a_stone_that_captures():
    state = planted(2)
    put(state, stone_id(PER, 0, 2, 0), D4, 0)
    put(state, stone_id(PER, 1, 1, 0), F4, 0)  # two squares away: no single turn captures it
    assert {choose(E, state, 0, "easy", seed) for seed in range(20)} == {"pass"}
    put(state, stone_id(PER, 1, 1, 1), E4, 0)
    assert f"r{D4}" in {choose(E, state, 0, "easy", seed) for seed in range(20)}


@pytest.mark.parametrize("strength", ("normal", "strong"))
def test_a_medium_stone_is_cast_onto_a_smaller_enemy(strength):
    state = planted(2)
    state["hands"][0].append(stone_id(PER, 0, 2, 0))
    state["prisoners"][1].remove(stone_id(PER, 0, 2, 0))
    put(state, stone_id(PER, 1, 1, 0), D4, 0)  # their small on d4: a medium landing there takes it
    assert choose(E, state, 0, strength, 1) == f"c{D4}"


@pytest.mark.parametrize("strength", ("normal", "strong"))
def test_the_same_colour_choice_keeps_the_stone_that_captures(strength):
    state = planted(2)
    north, east = stone_id(PER, 0, 2, 0), stone_id(PER, 0, 2, 1)
    put(state, north, D4, 0)
    put(state, east, D4, 2)
    put(state, stone_id(PER, 1, 1, 0), E4, 0)
    state.update(phase="choose", actor=0, last_turn={"seat": 0, "kind": "cast"}, choices=[{"owner": 0, "square": D4, "stones": [north, east]}])
    assert choose(E, state, 0, strength, 1) == f"k{east}"


def test_threats_count_the_best_single_reorient_capture():
    state = planted(2)
    put(state, stone_id(PER, 0, 2, 0), D4, 0)
    put(state, stone_id(PER, 1, 1, 0), E4, 4)
    assert threats(E.pieces(state), 2) == [1, 0]  # my medium can take the small; their small takes nothing


def test_strong_turns_a_stone_to_threaten_where_normal_passes():
    """No turn captures now, but turning the medium on d4 east (or the small on f5 south) puts an aura of 1 on
    their small on f4, so the other stone's turn would take it next: strong sets up the threat, normal sees no
    immediate gain and passes. Nobody holds a stone to cast (their other smalls are prisoners), so no landing
    stone is to be feared: only turns are left."""
    state = planted(2)
    state["prisoners"][0] = [s for s in state["hands"][1] if size_of(PER, s) == 1]
    state["hands"][1] = [s for s in state["hands"][1] if size_of(PER, s) > 1]
    f5 = parse_square("f5")
    put(state, stone_id(PER, 0, 2, 0), D4, 0)
    put(state, stone_id(PER, 0, 1, 0), f5, 0)
    put(state, stone_id(PER, 1, 1, 0), F4, 0)
    assert threats(E.pieces(state), 2) == [0, 0]
    assert choose(E, state, 0, "normal", 1) == "pass"
    key = choose(E, state, 0, "strong", 1)
    assert key in (f"r{D4}", f"r{f5}")
    state, _ = E.apply(state, 0, key)
    state, _ = E.apply(state, 0, choose(E, state, 0, "strong", 2))
    assert threats(E.pieces(state), 2)[0] == 1


def test_exposure_counts_what_a_landing_large_takes_by_turning(monkeypatch):
    """Their larges in hand (round 3): a large landing next to my small on d4, or two squares away (an aura of
    2 there), takes it by one turn, not from three squares (an aura of 1); from d5 it reaches both my small and
    my medium on d6 (the best, the other at half). The exposure counts it only with TURN_EXPOSURE."""
    state = planted(3)
    put(state, stone_id(PER, 0, 1, 0), D4, 0)
    put(state, stone_id(PER, 0, 2, 0), parse_square("d6"), 2)
    pieces = E.pieces(state)
    auras = aura_map(pieces, 2)
    reach = ai.turn_reach(pieces, auras, 1, 0, 3)
    assert reach[E4] == 1 and reach[F4] == 1 and parse_square("g4") not in reach
    assert reach[parse_square("d5")] == 2.5
    assert D4 not in reach and parse_square("d6") not in reach
    with_turns = ai.cast_gain(state, pieces, auras, 1, 0)
    monkeypatch.setattr(ai, "TURN_EXPOSURE", 0.0)
    assert ai.cast_gain(state, pieces, auras, 1, 0) < with_turns
