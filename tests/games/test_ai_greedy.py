"""The benchmarks' yardstick (benchmarks/greedy.py): a one-ply greedy player written from the rules. It plays
legal keys, decides from its seat's view only (like the computers), and takes the immediate points: a
capture, the biggest shape, the card that rebuilds the photo."""

import random

import pytest

import games
from benchmarks.greedy import Greedy
from games.geomancy.model import parse_square
from games.geomancy.rules import stone_id

ENGINES = games.all_engines()


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_the_greedy_player_plays_legal_keys_decided_from_its_view(engine):
    """Legal keys, and the same key (same generator) for every state that differs only in what the seat
    cannot see; the game's own generator is never drawn from."""
    greedy = Greedy(engine)
    rng = random.Random(3)
    decided = 0
    for seed in range(2):
        state = engine.new(max(engine.min_players, 2), {}, seed)
        for step in range(24):
            to_act = sorted(engine.to_act(state))
            if not to_act:
                break
            seat = to_act[0]
            legal = {a.key for a in engine.legal_actions(state, seat)}
            before = engine.encode(state)
            key = greedy.choose(state, seat, random.Random(step))
            assert key in legal and engine.encode(state) == before
            decided += 1
            if step % 5 == 0:
                for variant in engine.secret_variants(state, seat, rng):
                    assert greedy.choose(variant, seat, random.Random(step)) == key, (engine.slug, seed, step)
            state, _ = engine.apply(state, seat, key)
    assert decided >= 30


def test_geomancy_greedy_turns_a_stone_that_captures():
    engine = games.get_engine("geomancy")
    per = 5
    state = engine.new(2, {"height": "low"}, 3)
    state.update(round=2, current=0, start=0)
    mine = [stone_id(per, 0, size, k) for size in (1, 2) for k in range(per)]
    medium, small = stone_id(per, 0, 2, 0), stone_id(per, 1, 1, 0)
    d4, e4 = parse_square("d4"), parse_square("e4")
    state["prisoners"][1] = [s for s in mine if s != medium]
    state["hands"] = [[s for s in hand if s not in mine and s != small] for hand in state["hands"]]
    state["hands"][0] = []  # its large stones are prisoners too: nothing to cast, turn a stone or pass
    state["prisoners"][1] += [stone_id(per, 0, 3, k) for k in range(per)]
    for stone, square in ((medium, d4), (small, e4)):  # my medium points north at nothing, their small beside it
        state["board"][square].append(stone)
        state["dirs"][stone] = 0
    greedy = Greedy(engine)
    assert greedy.choose(state, 0, random.Random(1)) == f"r{d4}"
    state, _ = engine.apply(state, 0, f"r{d4}")
    assert greedy.choose(state, 0, random.Random(1)) == "d2"  # east: its aura takes the small stone


def test_geoneo_greedy_clears_its_biggest_shape():
    from games.geoneo.rules import shapes

    engine = games.get_engine("geoneo")
    state = engine.new(2, {}, 4)
    pieces = [None] * 48
    for f in (0, 7, 40, 47, 9, 12):  # the whole board's rectangle and a short line
        pieces[f] = 0
    pieces[20] = pieces[23] = 1
    state.update(pieces=pieces, phase="clear", clearer=0, supply=[12, 16], place=None,
                 round={"start": 0, "plays": []})
    biggest = shapes(pieces, 8, 0)[0][0]
    assert {Greedy(engine).choose(state, 0, random.Random(s)) for s in range(5)} == {biggest}


def test_globe_twister_greedy_enters_the_card_that_rebuilds_the_photo_and_locks_in():
    from games.globe_twister.puzzle import SOLVED, to_pairs

    engine = games.get_engine("globe_twister")
    state = engine.new(2, {}, 5)
    while state["phase"] == "side":
        state, _ = engine.apply(state, sorted(engine.to_act(state))[0], "front")
    puzzle = list(SOLVED)
    puzzle[4] = 4 * 4 + 1  # the centre tile turned a quarter clockwise: G2 there rebuilds the photo
    state["puzzles"][0] = to_pairs(tuple(puzzle))
    greedy = Greedy(engine)
    keys = []
    for _step in range(4):
        key = greedy.choose(state, 0, random.Random(2))
        keys.append(key)
        state, _ = engine.apply(state, 0, key)
        if key == "lock":
            break
    assert keys == ["c4", "kg2", "lock"]
