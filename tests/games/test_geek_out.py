"""Geek Out! Masters against ../shared/rules/geek-out-masters.txt and the decisions."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core import SYSTEM, RulesError
from games.geek_out.rules import FACES, NAMES, OPPOSITE, GeekOut, points_for

E = GeekOut()


def fresh(players=2, seed=0, rest="inactive"):
    """A state at the start of a turn with every die parked in ``rest`` so tests place dice explicitly."""
    s = E.new(players, {}, seed)
    for d in s["dice"]:
        d.update(zone=rest, face="42")
    s["phase"] = "act"
    s["selected"] = None
    return s


def arranged(active=None, inactive=None, used=None, scored=None, players=2, rest="inactive"):
    s = fresh(players, rest=rest)
    return E.arrange(s, active=active or {}, inactive=inactive or {}, used=used or {}, scored=scored or {})


def keys(s):
    return [a.key for a in E.legal_actions(s, s["current"])]


def play(s, key):
    s2, events = E.apply(s, s["current"], key)
    return s2, [e.text for e in events]


def face(s, n):
    return s["dice"][n - 1]["face"]


def zone(s, n):
    return s["dice"][n - 1]["zone"]


# --- scoring table ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "n,pts", [(1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 21), (7, 28), (8, 36), (9, 45), (10, 55)]
)
def test_scoring_table(n, pts):
    assert points_for(n) == pts


def test_opposite_faces_pair_up():
    assert {frozenset(p) for p in OPPOSITE.items()} == {
        frozenset({"42", "heart"}), frozenset({"meeple", "ship"}), frozenset({"hero", "dragon"})
    }
    assert all(OPPOSITE[OPPOSITE[f]] == f for f in FACES)


# --- setup -----------------------------------------------------------------------------------------------
def test_turn_starts_with_seven_active_and_three_inactive():
    for seed in range(30):
        s = E.new(3, {}, seed)
        # the first turn may already have been settled (all 42s, all dragons), so check before anything moves
        z = E.zones(s)
        if s["phase"] == "act":
            assert len(z["active"]) == 7 and z["inactive"] == [8, 9, 10]
            assert z["used"] == [] and z["scored"] == []


def test_first_player_is_random():
    assert {E.new(4, {}, seed)["first"] for seed in range(60)} == {0, 1, 2, 3}


# --- each face -------------------------------------------------------------------------------------------
def test_meeple_rerolls_another_die_and_goes_to_used():
    s = arranged(active={1: "meeple", 2: "dragon", 3: "42"})
    assert keys(s) == ["u1"]
    s, _ = play(s, "u1")
    assert s["phase"] == "target" and keys(s) == ["t2", "t3", "back"]
    s, text = play(s, "t2")
    assert zone(s, 1) == "used"
    assert "Meeple rerolled die 2: Dragon → " in text[0]


def test_superhero_flips_to_the_opposite_face():
    s = arranged(active={1: "hero", 2: "dragon", 3: "meeple"})
    s, _ = play(s, "u1")
    s, text = play(s, "t2")
    assert face(s, 2) == "hero" and zone(s, 1) == "used"
    assert "flipped die 2: Dragon → Superhero" in text[0]


def test_superhero_may_turn_a_die_into_a_dragon_and_is_forced_to_if_it_is_the_only_target():
    s = arranged(active={1: "hero", 2: "hero"}, used={3: "42"})
    cur = s["current"]
    s, _ = play(s, "u1")
    assert keys(s) == ["t2", "back"]
    s, text = play(s, "t2")
    assert "flipped die 2: Superhero → Dragon" in text[0]
    # no action face left and a Dragon stands: the turn is lost
    assert s["scores"][cur] == [0] and s["current"] != cur
    assert "0 points" in text[1]


def test_spaceship_sends_another_die_to_inactive():
    s = arranged(active={1: "ship", 2: "dragon", 3: "42"}, used={4: "42"})
    s, _ = play(s, "u1")
    s, text = play(s, "t2")
    assert zone(s, 2) == "inactive" and zone(s, 1) == "used"
    # only a 42 remains active: it is scored and the player chooses
    assert zone(s, 3) == "scored" and s["phase"] == "choose"
    assert "Spaceship sent die 2 (Dragon) to the inactive zone" in text[0]


def test_lone_spaceship_self_destructs_and_scores_zero():
    s = arranged(active={1: "ship"}, used={2: "meeple"}, scored={3: "42", 4: "42"})
    cur = s["current"]
    assert [a.label for a in E.legal_actions(s, cur)] == ["Die 1 Spaceship: self-destruct, 0 points"]
    s, text = play(s, "u1")
    assert s["scores"][cur] == [0] and s["current"] != cur
    assert "self-destructs" in text[0]


def test_heart_brings_in_an_inactive_die_and_rolls_it():
    s = arranged(active={1: "heart", 2: "42"}, inactive={8: "42"}, rest="used")
    s, text = play(s, "u1")
    assert zone(s, 1) == "used"
    assert zone(s, 8) != "inactive"
    assert text[0].endswith(f"Heart brought in die 8: {NAMES[face(s, 8)]}.")


def test_heart_with_no_inactive_die_does_nothing():
    s = fresh()
    for d in s["dice"]:
        d["zone"] = "used"
    E.arrange(s, active={1: "heart", 2: "42"})
    s, text = play(s, "u1")
    assert "no effect" in text[0]
    assert zone(s, 1) == "used" and zone(s, 2) == "scored" and s["phase"] == "choose"


def test_lone_meeple_or_superhero_goes_to_used_with_no_effect():
    for f in ("meeple", "hero"):
        s = arranged(active={1: f}, used={2: "42"})
        s, text = play(s, "u1")
        assert zone(s, 1) == "used" and "no effect" in text[0]
        assert s["phase"] == "choose"


def test_order_of_actions_is_the_players_choice():
    s = arranged(active={1: "meeple", 2: "heart", 3: "hero", 4: "dragon"})
    assert keys(s) == ["u1", "u2", "u3"]
    s, _ = play(s, "u3")
    s, _ = play(s, "back")
    assert s["phase"] == "act" and keys(s) == ["u1", "u2", "u3"]


def test_42s_and_dragons_stay_active_while_actions_remain_and_are_targets():
    s = arranged(active={1: "meeple", 2: "42", 3: "dragon"})
    assert zone(s, 2) == "active" and zone(s, 3) == "active"
    s, _ = play(s, "u1")
    assert keys(s) == ["t2", "t3", "back"]


def test_a_player_cannot_pick_a_die_that_is_not_an_action():
    s = arranged(active={1: "meeple", 2: "42", 3: "dragon"})
    for bad in ("u2", "u3", "t2", "c", "p"):
        with pytest.raises(RulesError):
            E.apply(s, s["current"], bad)


# --- end of actions --------------------------------------------------------------------------------------
def test_dragon_left_busts_the_turn():
    s = arranged(active={2: "42", 3: "dragon"}, scored={4: "42", 5: "42"}, used={1: "meeple"})
    cur = 1 - s["current"]  # the turn already ended: the other player is up
    assert s["scores"][cur] == [0]


def test_only_42s_are_scored_then_continue_or_pass():
    s = arranged(active={2: "42", 3: "42"}, used={1: "meeple"})
    assert s["phase"] == "choose"
    assert E.zones(s)["scored"] == [2, 3]
    assert keys(s) == ["c", "p"]


def test_no_active_dice_left_also_offers_the_choice():
    s = arranged(active={}, used={1: "meeple", 2: "hero"}, scored={3: "42"})
    assert s["phase"] == "choose"


def test_no_used_dice_forces_a_pass():
    s = fresh()
    cur = s["current"]
    for d in s["dice"]:
        d["zone"] = "inactive"
    E.arrange(s, active={1: "42", 2: "42", 3: "42"})
    assert s["scores"][cur] == [6] and s["current"] != cur


def test_continue_rolls_the_used_dice_only():
    s = arranged(active={2: "42"}, used={1: "meeple", 5: "hero"}, inactive={8: "dragon"})
    s, text = play(s, "c")
    assert zone(s, 8) == "inactive"  # inactive dice stay inactive
    assert zone(s, 2) == "scored"  # scored dice stay at risk
    assert "rolls 2 dice" in text[0]
    assert all(zone(s, n) != "used" or s["phase"] != "act" for n in (1, 5))


def test_pass_banks_the_triangle_number_and_banked_points_are_never_lost():
    s = arranged(active={2: "42", 3: "42", 4: "42", 5: "42"}, used={1: "meeple"})
    cur = s["current"]
    s, text = play(s, "p")
    assert s["scores"][cur] == [10]
    assert "banks 4 × 42 = 10 points" in text[0]
    # the next bust of this player does not touch the banked 10
    s["current"] = cur
    for d in s["dice"]:
        d["zone"] = "inactive"
    E.arrange(s, active={1: "dragon"}, scored={2: "42"})
    assert s["scores"][cur] == [10, 0]


# --- game length and the winner --------------------------------------------------------------------------
def test_everyone_plays_five_turns_then_highest_total_wins():
    s = E.new(3, {}, 4)
    while E.to_act(s):
        cur = s["current"]
        acts = keys(s)
        s, _ = E.apply(s, cur, "p" if "p" in acts else acts[0])
    assert s["turns"] == [5, 5, 5]
    r = E.result(s)
    totals = [sum(x) for x in s["scores"]]
    assert list(r.scores) == totals
    assert all(totals[w] == max(totals) for w in r.winners)


def test_ties_share_the_victory():
    s = E.new(3, {}, 1)
    s["phase"] = "over"
    s["scores"] = [[10, 5], [15], [3]]
    assert E.result(s).winners == (0, 1)


def test_turn_order_goes_round_from_the_first_player():
    s = E.new(3, {}, 2)
    order = []
    while E.to_act(s) and len(order) < 6:
        cur = s["current"]
        if not order or order[-1] != cur:
            order.append(cur)
        s, _ = E.apply(s, SYSTEM, f"timeout:{cur}")
    first = E.new(3, {}, 2)["first"]
    assert order == [(first + i) % 3 for i in range(6)]


# --- absent and departing players ------------------------------------------------------------------------
def test_timeout_finishes_the_turn_and_passes():
    s = arranged(active={2: "42", 3: "42"}, used={1: "meeple"})
    cur = s["current"]
    s, _ = E.apply(s, SYSTEM, f"timeout:{cur}")
    assert s["scores"][cur] == [3] and s["current"] != cur


def test_timeout_aims_at_dragons():
    s = arranged(active={1: "hero", 2: "42", 3: "dragon"})
    cur = s["current"]
    s, events = E.apply(s, SYSTEM, f"timeout:{cur}")
    assert any("flipped die 3: Dragon → Superhero" in e.text for e in events)


def test_leaving_skips_the_seat_and_a_lone_player_ends_the_game():
    s = E.new(3, {}, 0)
    cur = s["current"]
    s, _ = E.apply(s, SYSTEM, f"leave:{cur}")
    assert s["current"] != cur and E.to_act(s)
    other = s["current"]
    s, _ = E.apply(s, SYSTEM, f"leave:{other}")
    assert not E.to_act(s)
    r = E.result(s)
    survivor = ({0, 1, 2} - {cur, other}).pop()
    assert r.ranking[0] == (survivor,)


def test_leave_twice_and_bad_seats_are_refused():
    s = E.new(3, {}, 0)
    s, _ = E.apply(s, SYSTEM, "leave:1")
    for bad in ("leave:1", "leave:9", "leave:x", "timeout:7", "boom"):
        with pytest.raises(RulesError):
            E.apply(s, SYSTEM, bad)


# --- invariants over random games ------------------------------------------------------------------------
@given(seed=st.integers(0, 2**32), players=st.integers(1, 8), picks=st.lists(st.integers(0, 30), max_size=400))
def test_invariants_hold_in_random_games(seed, players, picks):
    s = E.new(players, {}, seed)
    banked = [0] * players
    for pick in picks:
        if not E.to_act(s):
            break
        cur = s["current"]
        acts = E.legal_actions(s, cur)
        key = acts[pick % len(acts)].key
        before = s
        s, events = E.apply(s, cur, key)
        # ten dice always accounted for across the four zones
        z = E.zones(s)
        assert sorted(sum(z.values(), [])) == list(range(1, 11))
        # banked totals never fall, and a turn's score is always a triangle number of at most 10 dice
        totals = [sum(x) for x in s["scores"]]
        assert all(t >= b for t, b in zip(totals, banked, strict=True))
        banked = totals
        for per_turn in s["scores"]:
            assert all(p in {points_for(n) for n in range(0, 11)} for p in per_turn)
        # a bust scores 0: every bust of a seat in this step added a 0 to that seat's turn scores
        for seat in range(players):
            busts = sum(1 for e in events if e.seat == seat and e.text.endswith(": 0 points this turn."))
            added = s["scores"][seat][len(before["scores"][seat]):]
            assert added.count(0) >= busts
        # no active action face while the player is choosing; no die selected outside the target step
        if s["phase"] == "choose":
            assert all(d["face"] == "42" for d in s["dice"] if d["zone"] == "scored")
            assert not [d for d in s["dice"] if d["zone"] == "active"]
        assert (s["selected"] is None) == (s["phase"] != "target")
        assert before is not s
    assert all(t <= 5 for t in s["turns"])
