"""The daily puzzle (games/globe_twister/daily.py): the same puzzle for a date everywhere, a proven par (the
solver's optimum: nothing shorter solves it), playable to solved through the engine in exactly par cards."""

import pytest

from games.core import get_engine
from games.globe_twister import daily
from games.globe_twister.puzzle import TARGETS_ANY, apply_card, from_pairs
from games.globe_twister.solver import min_one_turn

DAYS = ("2026-11-29", "2026-12-01", "2027-01-01", "2026-02-28")


def test_a_date_gives_the_same_puzzle_every_time_and_days_differ():
    first = daily.puzzle_of("2026-11-29")
    daily.puzzle_of.cache_clear()
    assert daily.puzzle_of("2026-11-29") == first
    assert len({str(daily.puzzle_of(d)["tiles"]) for d in DAYS}) == len(DAYS)
    assert daily.seed_of("2026-11-29") == daily.seed_of("2026-11-29") != daily.seed_of("2026-11-30")


def test_a_date_that_is_no_date_is_refused():
    with pytest.raises(ValueError):
        daily.puzzle_of("2026-02-30")


@pytest.mark.parametrize("day", DAYS)
def test_the_par_is_solved_by_its_solution_and_within_the_range(day):
    puzzle = daily.puzzle_of(day)
    arr = from_pairs(puzzle["tiles"])
    assert arr not in TARGETS_ANY
    for cell, card, direction in puzzle["solution"]:
        arr = apply_card(arr, cell, card, direction)
    assert arr in TARGETS_ANY
    assert len(puzzle["solution"]) == puzzle["par"]
    assert daily.PAR_RANGE[0] <= puzzle["par"] <= daily.PAR_RANGE[1]
    # the one-turn optimum (the solver's exact search) can never beat it
    one = min_one_turn(from_pairs(puzzle["tiles"]), red=False, max_cards=9)
    assert one is None or len(one) >= puzzle["par"]


def _reachable(arr, depth):
    """Every arrangement reachable in at most ``depth`` single placements: a plain breadth-first search, no
    meet in the middle (an independent check of ``exact_par``)."""
    seen, layer = {arr}, [arr]
    for _step in range(depth):
        nxt = []
        for a in layer:
            for cell, card, direction in daily.placements():
                b = apply_card(a, cell, card, direction)
                if b not in seen:
                    seen.add(b)
                    nxt.append(b)
        layer = nxt
    return seen


@pytest.mark.parametrize("day", [d for d in DAYS if daily.puzzle_of(d)["par"] == 4])
def test_no_shorter_sequence_of_cards_solves_it(day):
    puzzle = daily.puzzle_of(day)
    reach = _reachable(from_pairs(puzzle["tiles"]), puzzle["par"] - 1)
    assert not reach & set(TARGETS_ANY)


def test_the_placements_cover_every_card_but_red_and_their_inverses():
    cards = {p[1] for p in daily.placements()}
    assert cards == {"g1", "g2", "g3", "b1", "b2", "b3", "b4", "b5"}
    probe = tuple(range(0, 36, 4))
    for p in daily.placements():
        after = apply_card(probe, *p)
        assert any(apply_card(after, *q) == probe for q in daily.placements())


def test_exact_par_is_optimal_on_small_scrambles():
    arr = TARGETS_ANY[0]
    arr = apply_card(arr, 4, "g1", None)
    assert len(daily.exact_par(arr)) == 1
    arr = apply_card(apply_card(arr, 0, "b3", None), 8, "g3", None)
    assert len(daily.exact_par(arr)) == 3


@pytest.mark.parametrize("day", DAYS[:2])
def test_played_through_the_engine_in_one_card_turns_it_is_solved_in_par_moves(day):
    puzzle = daily.puzzle_of(day)
    log = []
    for cell, card, direction in puzzle["solution"]:
        log += [f"c{cell}", f"k{card}"] + ([f"d{direction}"] if direction else []) + ["lock"]
    done = daily.step(day, log, None)
    assert done["over"] and done["solved"]
    assert done["moves"] == puzzle["par"]
    assert done["grid"].endswith("🟩") and len(done["grid"]) == puzzle["par"]
    assert get_engine("globe_twister").result(done["state"]).scores == (1,)


def test_hints_and_red_cards_are_not_offered_and_a_hint_key_is_refused():
    day = DAYS[0]
    state = daily.start(day)
    keys = {a.key for a in get_engine("globe_twister").legal_actions(state, 0)}
    assert "hint" not in keys
    assert daily.step(day, [], "hint")["refused"]
    cards = {a.key for a in get_engine("globe_twister").legal_actions(daily.replay(day, ["c0"]), 0)}
    assert not cards & {"kr1", "kr2"}
    # after an unsolved turn the engine would offer a hint again: the daily keeps it off
    after = daily.step(day, ["c0", "kg3", "lock"], None)
    assert not after["over"] and "hint" not in {a.key for a in get_engine("globe_twister").legal_actions(
        after["state"], 0)}
    assert after["grid"] in ("⬛", "🟨")
