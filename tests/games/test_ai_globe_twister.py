"""Globe Twister's computer (games/globe_twister/ai.py): strong finds the solver's optimum, the program is
entered with the engine's ordinary keys from any partial program, and the side stage and solo are played."""

import random

import pytest

from games.ai import choose
from games.globe_twister.ai import next_key, program_for, solves
from games.globe_twister.puzzle import CARDS, DIRECTIONS, RED, SOLVED, from_pairs
from games.globe_twister.rules import GlobeTwister, shipped_puzzles
from games.globe_twister.solver import SeedRng, min_one_turn, undo_program

E = GlobeTwister()


def run_turn(state, seat, strength, seed=7, limit=200):
    """The computer enters its program and locks in; returns the state after the lock."""
    for _ in range(limit):
        key = choose(E, state, seat, strength, seed)
        state, _ = E.apply(state, seat, key)
        if key == "lock":
            return state
    raise AssertionError("the computer never locked in")


def solo_game(level, number, strength):
    state = E.new(1, {"puzzle": level, "number": number}, 1)
    while not E.is_over(state):
        state = run_turn(state, 0, strength)
    return state["solo"]


@pytest.mark.parametrize("number", range(1, 11))
def test_strong_rebuilds_every_tourist_puzzle_at_its_proven_par(number):
    solo = solo_game("tourist", number, "strong")
    par = shipped_puzzles()["tourist"][number - 1]["par"]
    assert solo["solved"] and solo["turns"] == 1 and solo["cards"] == par["cards"]


@pytest.mark.parametrize("number", (1, 4, 8))
def test_strong_rebuilds_two_turn_puzzles_in_two_turns(number):
    solo = solo_game("backpacker", number, "strong")
    assert solo["solved"] and solo["turns"] == 2


def test_at_a_table_strong_plays_the_shortest_program_keeping_its_red_cards():
    """A puzzle one turn can solve: strong's program solves it, has no red card when one without exists (most
    red cards left is the first tiebreaker), and no red-free program is shorter."""
    checked = shorter_with_red = 0
    for seed in range(200):
        rng = random.Random(seed)
        arr = SOLVED
        program = [(c, k, rng.choice(DIRECTIONS[k]) if k in DIRECTIONS else None)
                   for c, k in zip(sorted(rng.sample(range(9), 3)), rng.sample(CARDS[:8], 3), strict=True)]
        start = undo_program(arr, program, SeedRng(seed))
        if start is None or start == arr:
            continue
        target = program_for(start, tuple(CARDS), False, "strong", 0)
        assert solves(start, target, False)
        best = min_one_turn(start, [c for c in CARDS if c not in RED], red=False, any_rotation=False)
        placed = [e for e in target if e is not None]
        assert not any(e[0] in RED for e in placed)
        assert len(placed) == len(best)
        checked += 1
        shorter_with_red += len(min_one_turn(start, CARDS, red=True, any_rotation=False)) < len(best)
    assert checked > 40 and shorter_with_red


def test_the_program_is_entered_from_any_partial_program_and_then_locked():
    """Whatever is already in the frame (wrong cards, a card choice in progress), the keys reach the plan."""
    rng = random.Random(3)
    for seed in range(15):
        state = E.new(2, {}, seed)
        for _ in range(rng.randrange(0, 12)):  # someone fiddled with seat 0's frame
            keys = [a.key for a in E.legal_actions(state, 0) if a.key not in ("lock", "hint")]
            state, _ = E.apply(state, 0, rng.choice(keys))
        view = E.view(state, 0)
        target = program_for(from_pairs(view["puzzles"][0]), tuple(view["hands"][0]), False, "normal", 0)
        for _ in range(100):
            key = choose(E, state, 0, "normal", seed)
            if key == "lock":
                break
            state, _ = E.apply(state, 0, key)
        else:
            raise AssertionError("never locked in")
        entered = tuple(None if e is None else tuple(e) for e in state["programs"][0])
        assert entered == target


def test_next_key_takes_a_card_back_before_placing_it_elsewhere():
    program = [("g1", None)] + [None] * 8
    target = (None, ("g1", None)) + (None,) * 7
    assert next_key(program, None, target, {"c0", "c1", "lock"}) == "c0"
    assert next_key(program, {"cell": 0}, target, {"x", "back", "kg2"}) == "x"
    assert next_key([None] * 9, None, target, {"c1", "lock"}) == "c1"
    assert next_key([None] * 9, {"cell": 1}, target, {"kg1", "back"}) == "kg1"
    assert next_key([None] * 9, {"cell": 3, "card": "b1"}, (None,) * 3 + (("b1", "e"),) + (None,) * 5,
                    {"dn", "de", "back"}) == "de"
    assert next_key(list(target), None, target, {"c0", "lock"}) == "lock"


@pytest.mark.parametrize("strength", ("easy", "normal", "strong"))
def test_every_strength_chooses_a_side_and_plays_the_race_to_its_end(strength):
    state = E.new(2, {"photo": "choose"}, 5)
    steps = 0
    while not E.is_over(state):
        seat = sorted(E.to_act(state))[0]
        key = choose(E, state, seat, strength, steps)
        state, _ = E.apply(state, seat, key)
        steps += 1
        assert steps < 3000
    assert E.result(state) is not None
    assert state["sides"] != [None, None]


def test_easy_plans_from_the_view_alone():
    """The same view gives the same plan, so the easy player's random improvement never wavers mid-turn."""
    state = E.new(2, {}, 11)
    view = E.view(state, 1)
    arr = from_pairs(view["puzzles"][1])
    first = program_for(arr, tuple(view["hands"][1]), False, "easy", 42)
    program_for.cache_clear()
    assert program_for(arr, tuple(view["hands"][1]), False, "easy", 42) == first
