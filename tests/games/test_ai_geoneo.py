"""GEONEO computer (games/geoneo/ai.py): its samples fit what it saw, it blocks an opponent's big shape,
keeps the opponent off a field that completes one, and clears its biggest shapes."""

import random
from collections import Counter

from games.ai import choose
from games.core import get_engine
from games.geoneo.ai import clear_value, sample_state
from games.geoneo.rules import CARDS

# the opponent (colour 1) holds three corners of the whole board's rectangle: A1, H1 and A6 (H6 shows a 3)
CORNERS = (0, 7, 40)
FOURTH = 47


def planted(phase: str):
    engine = get_engine("geoneo")
    state = engine.new(2, {}, 11)
    pieces = [None] * 48
    for f in CORNERS:
        pieces[f] = 1
    state.update(pieces=pieces, supply=[18, 15], away=[], deck=[], scores=[0, 0], highlight=None)
    if phase == "place":
        state.update(phase="place", place={"seat": 0, "number": 3}, round={"start": 0, "plays": []})
    else:
        # the opponent opened with a 2; seat 0 plays last: +1 makes 3 (the opponent places on H6)
        state["hands"] = [[1, 1, 4, 4, 4, 4, 5, 5, 5], [1, 2, 2, 3, 3, 3, 3, 6]]
        state["deck"] = sorted((Counter(CARDS) - Counter(state["hands"][0] + state["hands"][1] + [2])).elements())
        state.update(phase="play", place=None,
                     round={"start": 1, "plays": [{"seat": 1, "card": 2, "op": "first", "result": 2}]})
    return engine, state


def test_strong_takes_the_field_that_completes_the_opponents_rectangle():
    engine, state = planted("place")
    assert state["numbers"][FOURTH] == 3
    assert choose(engine, state, 0, "strong", 1) == f"f{FOURTH}"
    assert choose(engine, state, 0, "normal", 1) != f"f{FOURTH}"  # normal only sees its own gain (none)


def test_normal_and_strong_do_not_hand_the_opponent_its_rectangle():
    engine, state = planted("play")
    keys = {a.key for a in engine.legal_actions(state, 0)}
    assert "a1" in keys  # 2 + 1 = 3 would let the opponent place on H6
    for strength in ("normal", "strong"):
        for seed in range(3):
            assert choose(engine, state, 0, strength, seed) != "a1"


def test_samples_keep_what_the_seat_saw_and_deal_the_rest():
    engine = get_engine("geoneo")
    rng = random.Random(2)
    state = engine.new(3, {}, 5)
    for _ in range(25):
        seat = next(iter(engine.to_act(state)))
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).key)
    seat = next(iter(engine.to_act(state)))
    view = engine.view(state, seat)
    for k in range(5):
        sample = sample_state(view, seat, random.Random(k))
        assert sample["hands"][seat] == state["hands"][seat]
        assert [len(h) for h in sample["hands"]] == [len(h) for h in state["hands"]]
        played = [p["card"] for p in sample["round"]["plays"]]
        assert Counter(sum(sample["hands"], []) + sample["deck"] + sample["away"] + played) == Counter(CARDS)
        assert engine.view(sample, seat) | {"highlight": None} == view | {"highlight": None}
        assert sample["seed"] != state["seed"]


def test_clearing_takes_the_biggest_shape_and_strong_scores_at_least_as_much():
    engine = get_engine("geoneo")
    rng = random.Random(8)
    for seed in range(3):
        pieces = [None] * 48
        for f in rng.sample(range(48), 20):
            pieces[f] = rng.randrange(2)
        state = engine.new(2, {}, seed)
        state.update(pieces=pieces, supply=[0, 0], phase="clear", clearer=0, place=None,
                     round={"start": 0, "plays": []})
        actions = engine.legal_actions(state, 0)
        assert choose(engine, state, 0, "normal", 1) == actions[0].key  # the engine lists the biggest first
        totals = {}
        for strength in ("normal", "strong"):
            s = state
            while s["phase"] != "over":
                seat = s["clearer"]
                s, _ = engine.apply(s, seat, choose(engine, s, seat, strength if seat == 0 else "normal", 1))
            totals[strength] = s["scores"][0]
        assert totals["normal"] == clear_value(pieces, 8, 0)  # greedy: shapes of colours never interact
        assert totals["strong"] >= totals["normal"]


def brute_clearing(pieces: list, colour: int) -> int:
    """The most a colour can score by clearing, every order of every shape tried (small boards only)."""
    from games.geoneo.rules import shapes

    best = 0
    for _key, points, corners in shapes(pieces, 8, colour):
        board = list(pieces)
        for f in corners:
            board[f] = None
        best = max(best, points + brute_clearing(board, colour))
    return best


def test_the_best_clearing_is_the_most_any_order_of_shapes_scores():
    """``best_clearing`` (strong's clearing, exact) against every order of shapes on small boards; clearing
    its first shape keeps the rest of the best; greedy clearing (the biggest first) is often worse."""
    from games.geoneo.ai import best_clearing
    from games.geoneo.rules import shapes

    rng = random.Random(6)
    worse = 0
    for _ in range(60):
        pieces = [None] * 48
        for f in rng.sample(range(48), rng.randrange(2, 9)):
            pieces[f] = 0
        total, key = best_clearing(pieces, 8, 0)
        assert total == brute_clearing(pieces, 0)
        if key is None:
            assert total == 0
            continue
        _key, points, corners = next(s for s in shapes(pieces, 8, 0) if s[0] == key)
        board = [None if f in corners else p for f, p in enumerate(pieces)]
        assert points + best_clearing(board, 8, 0)[0] == total
        worse += clear_value(pieces, 8, 0) < total
    assert worse > 5


def test_strongs_card_choice_values_each_board_once(monkeypatch):
    """Strong plays each card out on twelve sampled deals; the boards before the placement are the same in
    every deal, so their shape searches are memoised (4 players late in a game: about 15 000 searches and up
    to 3 s on a loaded core before, a few hundred then; valuing what each colour's next piece can expect on
    each board takes some 1800 now)."""
    import games.geoneo.ai as geoneo_ai

    engine = get_engine("geoneo")
    state = engine.new(4, {}, 105)
    while state["ply"] < 120 or state["phase"] != "play" or state["round"]["plays"]:
        seat = sorted(engine.to_act(state))[0]
        state, _ = engine.apply(state, seat, choose(engine, state, seat, "normal", 2))
    seat = sorted(engine.to_act(state))[0]
    assert len(engine.legal_actions(state, seat)) >= 4
    calls = []
    real = geoneo_ai.best_shape
    monkeypatch.setattr(geoneo_ai, "best_shape", lambda *a: calls.append(a) or real(*a))
    for cache in (geoneo_ai._clear_value, geoneo_ai._future_value, geoneo_ai._strong_field):
        cache.cache_clear()
    choose(engine, state, seat, "strong", 1)
    assert 0 < len(calls) < 2500


def test_the_best_shape_is_the_rules_first_shape():
    """``best_shape`` (the computers' quick search) finds the shape the rules list first, on boards of every
    density and both widths."""
    from games.geoneo.ai import best_shape
    from games.geoneo.rules import shapes

    rng = random.Random(4)
    for _ in range(1500):
        width = rng.choice((6, 8))
        density = rng.random()
        pieces = [rng.choice((0, 1, 2)) if rng.random() < density else None for _ in range(48)]
        for colour in (0, 1, 2):
            found = shapes(pieces, width, colour)
            assert best_shape(pieces, width, colour) == ((found[0][1], found[0][2]) if found else None)
