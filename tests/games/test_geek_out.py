"""Geek Out! Masters against ../shared/rules/geek-out-masters.txt, decisions.md and docs/rules/geek-out-masters.md."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core import SYSTEM, RulesError
from games.geek_out.rules import FACES, NAMES, OPPOSITE, GeekOut, moves, points_for, turn_value

E = GeekOut()
PEOPLE = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal"]


def said(events):
    """Event texts as the log shows them, with seat placeholders replaced by names."""
    return [e.text.format(**{f"p{i}": n for i, n in enumerate(PEOPLE)}) for e in events]


def fresh(players=2, seed=0, rest="inactive"):
    """A state at the start of a turn with every die parked in ``rest`` so tests place dice explicitly."""
    s = E.new(players, {}, seed)
    for d in s["dice"]:
        d.update(zone=rest, face="42")
    s["phase"] = "act"
    s["selected"] = None
    return s


def arranged(active=None, inactive=None, used=None, scored=None, players=2, rest="inactive", log=None, seed=0):
    """Places the dice and settles the turn; forced steps are played at once, their lines appended to ``log``."""
    s = fresh(players, seed=seed, rest=rest)
    events = []
    E.arrange(s, events, active=active or {}, inactive=inactive or {}, used=used or {}, scored=scored or {})
    if log is not None:
        log.extend(said(events))
    return s


def keys(s):
    return [a.key for a in E.legal_actions(s, s["current"])]


def labels(s):
    return [a.label for a in E.legal_actions(s, s["current"])]


def play(s, key):
    s2, events = E.apply(s, s["current"], key)
    return s2, said(events)


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
        for d in s["dice"]:
            d.update(zone="used")
        events = []
        E._start_turn(s, events)
        z = E.zones(s)
        assert z["active"] == [1, 2, 3, 4, 5, 6, 7] and z["inactive"] == [8, 9, 10]
        assert z["used"] == [] and z["scored"] == []
        rolled = said(events)[0].split(" and rolls ")[1].rstrip(".").split(", ")
        assert rolled == [NAMES[face(s, n)] for n in range(1, 8)]


def test_first_player_is_random():
    assert {E.new(4, {}, seed)["first"] for seed in range(60)} == {0, 1, 2, 3}


# --- each face -------------------------------------------------------------------------------------------
def test_meeple_rerolls_another_die_and_goes_to_used():
    s = arranged(active={1: "meeple", 2: "dragon", 3: "42", 4: "heart"}, rest="used")
    assert keys(s) == ["u4", "u1"] and labels(s) == ["Heart: no inactive die, no effect", "Meeple: reroll a die"]
    s, _ = play(s, "u1")
    assert s["phase"] == "target" and keys(s) == ["t3", "t4", "t2", "back"]
    assert labels(s) == ["Reroll a 42", "Reroll a Heart", "Reroll a Dragon", "Choose another die"]
    s, text = play(s, "t2")
    assert zone(s, 1) == "used"
    assert text[0] in {f"Ana's Meeple rerolled a Dragon into a {NAMES[f]}." for f in FACES if f != "dragon"} | {
        "Ana's Meeple rerolled a Dragon: a Dragon again."
    }


def test_superhero_flips_to_the_opposite_face():
    s = arranged(active={1: "hero", 2: "dragon", 3: "meeple"})
    assert labels(s) == ["Meeple: reroll a die", "Superhero: flip a die"]
    s, _ = play(s, "u1")
    assert labels(s) == ["Flip a Meeple (to Spaceship)", "Flip a Dragon (to Superhero)", "Choose another die"]
    s, text = play(s, "t2")
    assert face(s, 2) == "hero" and zone(s, 1) == "used"
    assert text[0] == "Ana's Superhero flipped a Dragon to a Superhero."


def test_superhero_may_turn_a_die_into_a_dragon_and_is_forced_to_if_it_is_the_only_target():
    # the only move there is: the table plays it, and the new Dragon eats the turn
    log = []
    s = arranged(active={1: "hero", 2: "hero"}, used={3: "42"}, scored={4: "42"}, log=log)
    assert s["scores"][0] == [0] and s["current"] == 1
    assert log[:2] == ["Ana's Superhero flipped a Superhero to a Dragon.", "A Dragon eats Ana's 1 die showing 42: 0 points this turn."]
    # with another choice it is the player's to make, and legal
    s = arranged(active={1: "hero", 2: "hero", 3: "heart"}, used={4: "42"})
    assert labels(s) == ["Heart: bring in a die", "Superhero: flip a die"]
    s, _ = play(s, "u1")
    assert labels(s) == ["Flip a Heart (to 42)", "Flip a Superhero (to Dragon)", "Choose another die"]
    s, text = play(s, "t2")
    assert text[0] == "Ana's Superhero flipped a Superhero to a Dragon."


def test_spaceship_sends_another_die_to_inactive():
    s = arranged(active={1: "ship", 2: "dragon", 3: "42"}, used={4: "42"})
    # the Spaceship is the only die to use: straight to its targets, and no "back" (there is nothing else)
    assert s["phase"] == "target" and s["selected"] == 0
    assert keys(s) == ["t3", "t2"] and labels(s) == ["Send a 42 away", "Send a Dragon away"]
    s, text = play(s, "t2")
    assert zone(s, 2) == "inactive" and zone(s, 1) == "used"
    # only a 42 remains active: it is scored and the player chooses
    assert zone(s, 3) == "scored" and s["phase"] == "choose"
    assert text == ["Ana's Spaceship sent a Dragon to the inactive zone."]


def test_lone_spaceship_self_destructs_and_scores_zero():
    log = []
    s = arranged(active={1: "ship"}, used={2: "meeple"}, scored={3: "42", 4: "42"}, log=log)
    assert s["scores"][0] == [0] and s["current"] == 1
    assert log[0] == "Ana's Spaceship is alone and self-destructs, destroying 2 scored 42s: 0 points this turn."
    log = []
    arranged(active={1: "ship"}, used={2: "meeple"}, log=log)
    assert log[0] == "Ana's Spaceship is alone and self-destructs: 0 points this turn."


def test_heart_brings_in_an_inactive_die_and_rolls_it():
    s = arranged(active={1: "heart", 2: "hero", 3: "42"}, inactive={8: "42"}, rest="used")
    assert keys(s) == ["u1", "u2"]
    assert labels(s) == ["Heart: bring in a die", "Superhero: flip a die"]
    s, text = play(s, "u1")
    assert zone(s, 1) == "used" and zone(s, 8) != "inactive"
    m = re.fullmatch(r"Ana's Heart brought in a die: (.+)\.", text[0])
    assert m and m.group(1) in NAMES.values()


def test_a_lone_heart_is_played_by_the_table():
    log = []
    s = arranged(active={1: "heart", 2: "42"}, inactive={8: "42"}, rest="used", log=log)
    assert zone(s, 1) == "used" and zone(s, 8) != "inactive"
    assert re.fullmatch(r"Ana's Heart brought in a die: (.+)\.", log[0])


def test_heart_with_no_inactive_die_does_nothing():
    log = []
    s = arranged(active={1: "heart", 2: "42"}, rest="used", log=log)
    assert log == ["Ana's Heart found no inactive die: no effect."]
    assert zone(s, 1) == "used" and zone(s, 2) == "scored" and s["phase"] == "choose"


def test_lone_meeple_or_superhero_goes_to_used_with_no_effect():
    for f in ("meeple", "hero"):
        log = []
        s = arranged(active={1: f}, used={2: "42"}, log=log)
        assert zone(s, 1) == "used" and s["phase"] == "choose"
        assert log == [f"Ana's {NAMES[f]} had no other die to act on: no effect."]


def test_order_of_actions_is_the_players_choice():
    s = arranged(active={1: "meeple", 2: "heart", 3: "hero", 4: "dragon"})
    assert keys(s) == ["u2", "u1", "u3"]
    assert labels(s) == ["Heart: bring in a die", "Meeple: reroll a die", "Superhero: flip a die"]
    s, _ = play(s, "u3")
    assert "back" in keys(s)
    s, _ = play(s, "back")
    assert s["phase"] == "act" and keys(s) == ["u2", "u1", "u3"]


def test_42s_and_dragons_stay_active_while_actions_remain_and_are_targets():
    s = arranged(active={1: "meeple", 2: "42", 3: "dragon"})
    assert zone(s, 2) == "active" and zone(s, 3) == "active"
    assert s["phase"] == "target" and keys(s) == ["t2", "t3"]


def test_a_player_cannot_pick_a_die_that_is_not_an_action():
    s = arranged(active={1: "meeple", 2: "42", 3: "dragon", 4: "heart"})
    for bad in ("u2", "u3", "t2", "c", "p", "back", "u11", "u0", "u01"):
        with pytest.raises(RulesError):
            E.apply(s, s["current"], bad)


# --- identical dice, one click, forced steps -------------------------------------------------------------
def test_identical_dice_are_offered_once_and_any_of_them_may_be_named():
    s = arranged(active={1: "42", 2: "meeple", 3: "meeple", 4: "hero", 5: "hero", 6: "dragon", 7: "42"})
    assert keys(s) == ["u2", "u4"] and labels(s) == ["Meeple: reroll a die", "Superhero: flip a die"]
    # another die showing the same face is the same move (an older button keeps working)
    assert E.encode(E.apply(s, 0, "u3")[0]) == E.encode(E.apply(s, 0, "u2")[0])
    assert E.encode(E.apply(s, 0, "u5")[0]) == E.encode(E.apply(s, 0, "u4")[0])
    t, _ = play(s, "u5")
    assert t["selected"] == 3
    assert keys(t) == ["t1", "t2", "t5", "t6", "back"]
    assert labels(t) == [
        "Flip a 42 (to Heart)", "Flip a Meeple (to Spaceship)", "Flip a Superhero (to Dragon)",
        "Flip a Dragon (to Superhero)", "Choose another die",
    ]
    assert E.encode(E.apply(t, 0, "t7")[0]) == E.encode(E.apply(t, 0, "t1")[0])
    assert E.encode(E.apply(t, 0, "t3")[0]) == E.encode(E.apply(t, 0, "t2")[0])
    for bad in ("t4", "u2", "u4", "t8", "t0"):  # the chosen die itself, use keys, dice that are not active
        with pytest.raises(RulesError):
            E.apply(t, 0, bad)


def test_a_die_with_a_unique_target_acts_in_one_click():
    s = arranged(active={1: "hero", 2: "heart"}, rest="used")
    assert labels(s) == ["Heart: no inactive die, no effect", "Superhero: flip the Heart (to 42)"]
    s, text = play(s, "u1")
    assert text == ["Ana's Superhero flipped a Heart to a 42."]
    assert zone(s, 2) == "scored" and s["phase"] == "choose"
    # several dice of the one target face: still one click ("a" Heart, the lowest-numbered one)
    s = arranged(active={1: "hero", 2: "heart", 3: "heart"}, rest="used")
    assert labels(s) == ["Heart: no inactive die, no effect", "Superhero: flip a Heart (to 42)"]
    s, text = play(s, "u1")
    assert text == ["Ana's Superhero flipped a Heart to a 42.", "Ana's Heart found no inactive die: no effect."]
    assert zone(s, 2) == "scored" and zone(s, 3) == "used" and s["phase"] == "choose"
    for act, label in (
        ({1: "meeple", 2: "42", 3: "heart", 4: "heart"}, "Meeple: reroll a die"),
        ({1: "meeple", 2: "42", 3: "hero"}, "Meeple: reroll a die"),
        ({1: "ship", 2: "dragon", 3: "heart"}, "Spaceship: send a die away"),
        ({1: "ship", 2: "dragon", 3: "hero", 4: "hero"}, "Spaceship: send a die away"),
        ({1: "ship", 2: "heart"}, "Spaceship: send the Heart away"),
        ({1: "meeple", 2: "heart"}, "Meeple: reroll the Heart"),
    ):
        assert label in labels(arranged(active=act, rest="used"))


def test_forced_steps_chain_until_a_real_choice_and_each_is_logged():
    # the Superhero's only target is the 42; the Heart it makes finds no inactive die; then the turn asks
    log = []
    s = arranged(active={1: "hero", 2: "42"}, used={3: "ship"}, rest="used", log=log)
    assert log == ["Ana's Superhero flipped a 42 to a Heart.", "Ana's Heart found no inactive die: no effect."]
    assert s["phase"] == "choose" and s["current"] == 0
    # a forced step inside a move: after the player's choice the lone Meeple is played by the table too
    s = arranged(active={1: "hero", 2: "heart", 3: "ship"}, rest="used")
    s, _ = play(s, "u3")
    s, text = play(s, "t2")
    assert text == [
        "Ana's Spaceship sent a Heart to the inactive zone.",
        "Ana's Superhero had no other die to act on: no effect.",
    ]
    assert s["phase"] == "choose"


def test_no_decision_ever_has_a_single_option():
    for seed in range(40):
        s = E.new(3, {}, seed)
        while E.to_act(s):
            acts = E.legal_actions(s, s["current"])
            assert len(acts) >= 2, acts
            s, _ = E.apply(s, s["current"], acts[(seed + s["ply"]) % len(acts)].key)


def test_back_is_offered_only_when_there_was_a_choice_of_die():
    s = arranged(active={1: "meeple", 2: "42", 3: "dragon"})
    assert "back" not in keys(s)
    with pytest.raises(RulesError):
        E.apply(s, 0, "back")
    s = arranged(active={1: "meeple", 2: "42", 3: "dragon", 4: "heart"})
    s, _ = play(s, "u1")
    assert keys(s)[-1] == "back"


# --- end of actions --------------------------------------------------------------------------------------
def test_dragon_left_busts_the_turn():
    log = []
    s = arranged(active={2: "42", 3: "dragon"}, scored={4: "42", 5: "42"}, used={1: "meeple"}, log=log)
    assert s["scores"][0] == [0] and s["current"] == 1  # the turn already ended: the other player is up
    assert log[0] == "A Dragon eats Ana's 3 dice showing 42: 0 points this turn."
    assert log[1].startswith("Bo starts turn 1 and rolls ")


def test_the_bust_sentence_reads_well():
    cases = [
        ({2: "dragon", 3: "dragon"}, {}, "2 Dragons end Ana's turn: 0 points this turn."),
        ({2: "dragon"}, {}, "A Dragon ends Ana's turn: 0 points this turn."),
        ({2: "dragon", 3: "dragon", 5: "42"}, {4: "42"}, "2 Dragons eat Ana's 2 dice showing 42: 0 points this turn."),
    ]
    for active, scored, line in cases:
        log = []
        arranged(active=active, scored=scored, used={1: "meeple"}, log=log)
        assert log[0] == line


def test_only_42s_are_scored_then_continue_or_pass():
    s = arranged(active={2: "42", 3: "42"}, used={1: "meeple"})
    assert s["phase"] == "choose"
    assert E.zones(s)["scored"] == [2, 3]
    assert keys(s) == ["c", "p"]
    assert labels(s) == ["Continue: roll 1 used die", "Pass: bank 3 points"]


def test_no_active_dice_left_also_offers_the_choice():
    s = arranged(active={}, used={1: "meeple", 2: "hero"}, scored={3: "42"})
    assert s["phase"] == "choose" and labels(s) == ["Continue: roll 2 used dice", "Pass: bank 1 point"]


def test_no_used_dice_forces_a_pass():
    log = []
    s = arranged(active={1: "42", 2: "42", 3: "42"}, log=log)
    assert s["scores"][0] == [6] and s["current"] == 1
    assert log[0] == "Ana has no used dice to roll and banks 6 points for 3 dice showing 42."


def test_continue_rolls_the_used_dice_only():
    checked = 0
    for seed in range(40):
        s = arranged(active={2: "42"}, used={1: "meeple", 5: "hero"}, inactive={8: "dragon"}, seed=seed)
        cur = s["current"]
        s, text = play(s, "c")
        m = re.fullmatch(rf"{PEOPLE[cur]} continues and rolls 2 dice: ([^,]+), ([^,]+)\.", text[0])
        assert m and {m.group(1), m.group(2)} <= set(NAMES.values())
        if s["current"] == cur and not any("Heart brought in" in t for t in text):
            assert zone(s, 8) == "inactive"  # inactive dice stay inactive
            assert zone(s, 2) == "scored"  # scored dice stay at risk
            checked += 1
    assert checked >= 5


def test_pass_banks_the_triangle_number_and_banked_points_are_never_lost():
    s = arranged(active={2: "42", 3: "42", 4: "42", 5: "42"}, used={1: "meeple"})
    assert labels(s)[1] == "Pass: bank 10 points"
    s, text = play(s, "p")
    assert s["scores"][0] == [10]
    assert text[0] == "Ana passes and banks 10 points for 4 dice showing 42."
    # the next bust of this player does not touch the banked 10
    s["current"] = 0
    for d in s["dice"]:
        d["zone"] = "inactive"
    E.arrange(s, active={1: "dragon"}, scored={2: "42"})
    assert s["scores"][0] == [10, 0]


# --- game length and the winner --------------------------------------------------------------------------
def test_everyone_plays_five_turns_then_highest_total_wins():
    s = E.new(3, {}, 4)
    while E.to_act(s):
        cur = s["current"]
        acts = keys(s)
        assert "winners" not in E.view(s, None)
        s, _ = E.apply(s, cur, "p" if "p" in acts else acts[0])
    assert s["turns"] == [5, 5, 5]
    r = E.result(s)
    totals = [sum(x) for x in s["scores"]]
    assert list(r.scores) == totals
    assert all(totals[w] == max(totals) for w in r.winners)
    assert E.view(s, None)["winners"] == list(r.winners) == list(r.ranking[0])


def test_ties_share_the_victory():
    s = E.new(3, {}, 1)
    s["phase"] = "over"
    s["scores"] = [[10, 5], [15], [3]]
    assert E.result(s).winners == (0, 1)
    assert E.view(s, 2)["winners"] == [0, 1]


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


# --- the turn timeout ------------------------------------------------------------------------------------
def timeout(s):
    cur = s["current"]
    s2, events = E.apply(s, SYSTEM, f"timeout:{cur}")
    return s2, said(events)


def test_timeout_finishes_the_turn_and_passes():
    s = arranged(active={2: "42", 3: "42"}, used={1: "meeple"})
    s, text = timeout(s)
    assert s["scores"][0] == [3] and s["current"] == 1
    assert text[:2] == ["Ana ran out of time; the table finishes their turn.", "Ana passes and banks 3 points for 2 dice showing 42."]


def test_timeout_never_flips_a_superhero_into_a_dragon_when_a_42_can_be_saved():
    # [Superhero, Superhero, 42] with three 42s scored: the old table flipped the other Superhero and banked 0.
    # A sensible player flips the 42 to a Heart, then flips the Heart back: four 42s, 10 points.
    s = arranged(active={1: "hero", 2: "hero", 3: "42"}, scored={4: "42", 5: "42", 6: "42"}, rest="used")
    assert E.timeout_move(s) == (("hero", "42"), 10)
    s, text = timeout(s)
    assert s["scores"][0] == [10] >= [points_for(4)]
    assert text[1:4] == [
        "Ana's Superhero flipped a 42 to a Heart.",
        "Ana's Superhero flipped a Heart to a 42.",
        "Ana passes and banks 10 points for 4 dice showing 42.",
    ]
    # with inactive dice a Heart could gamble; the table still flips the 42 and expects at least those 10
    s = arranged(active={1: "hero", 2: "hero", 3: "42"}, scored={4: "42", 5: "42", 6: "42"})
    move, value = E.timeout_move(s)
    assert move == ("hero", "42") and value >= 10


def test_timeout_flips_the_dragon():
    s = arranged(active={1: "hero", 2: "dragon", 3: "42", 4: "42"}, rest="used")
    assert E.timeout_move(s) == (("hero", "dragon"), 1)
    s, text = timeout(s)
    assert text[1] == "Ana's Superhero flipped a Dragon to a Superhero."
    assert s["scores"][0] == [1]
    # and a Spaceship sends the Dragon away rather than the 42 (from the target step the player left)
    s = arranged(active={1: "ship", 2: "dragon", 3: "42"}, rest="used")
    assert s["phase"] == "target"
    s, text = timeout(s)
    assert text[1] == "Ana's Spaceship sent a Dragon to the inactive zone."
    assert s["scores"][0] == [1]


def test_timeout_breaks_ties_by_button_order():
    # Heart (no inactive die) or Superhero on a Heart: both lead to 3 × 42 = 6 points
    s = arranged(active={1: "heart", 2: "heart", 3: "hero"}, scored={4: "42", 5: "42"}, rest="used")
    assert labels(s) == ["Heart: no inactive die, no effect", "Superhero: flip a Heart (to 42)"]
    assert E.timeout_move(s) == (("heart", None), 6)
    s, text = timeout(s)
    assert text[1] == "Ana's Heart found no inactive die: no effect."
    assert s["scores"][0] == [6]


def test_timeout_in_a_solo_game_ends_only_that_turn():
    s = arranged(active={1: "hero", 2: "hero", 3: "42"}, players=1, rest="used")
    s, _ = timeout(s)
    assert s["turns"] == [1] and s["scores"] == [[1]] and E.to_act(s) == {0}


# an independent brute force over dice (not faces), without memoisation: every die may act on every other die
ACTING = {"heart", "meeple", "ship", "hero"}


def brute_value(active, inactive, scored):
    if not any(f in ACTING for f in active):
        return 0 if "dragon" in active else points_for(scored + active.count("42"))
    return max(brute_use(active, inactive, scored, i, j) for i, j in brute_choices(active))


def brute_choices(active):
    for i, f in enumerate(active):
        if f in ACTING:
            if f == "heart" or len(active) == 1:
                yield i, None
            else:
                yield from ((i, j) for j in range(len(active)) if j != i)


def brute_use(active, inactive, scored, i, j):
    from fractions import Fraction

    f = active[i]
    rest = [x for k, x in enumerate(active) if k not in (i, j)]
    if f == "heart":
        if not inactive:
            return brute_value(rest, inactive, scored)
        return Fraction(sum(brute_value([*rest, g], inactive - 1, scored) for g in FACES), 6)
    if j is None:
        return 0 if f == "ship" else brute_value(rest, inactive, scored)
    if f == "meeple":
        return Fraction(sum(brute_value([*rest, g], inactive, scored) for g in FACES), 6)
    if f == "hero":
        return brute_value([*rest, OPPOSITE[active[j]]], inactive, scored)
    return brute_value(rest, inactive + 1, scored)


@given(
    active=st.lists(st.sampled_from(FACES), min_size=1, max_size=4),
    inactive=st.integers(0, 2),
    scored=st.integers(0, 4),
)
def test_timeout_choice_is_the_expectimax_optimum(active, inactive, scored):
    if not any(f in ACTING for f in active):
        return
    s = fresh(rest="used")
    numbers = iter(range(1, 11))
    placed = {z: {next(numbers): f for f in fs} for z, fs in (
        ("active", active), ("inactive", ["42"] * inactive), ("scored", ["42"] * scored))}
    for z, dice in placed.items():
        for n, f in dice.items():
            s["dice"][n - 1].update(zone=z, face=f)
    (use, target), value = E.timeout_move(s)
    best = brute_value(active, inactive, scored)
    assert value == best
    assert brute_use(active, inactive, scored, *dice_of(active, (use, target))) == best
    # ties: the first option of that value in button order (Heart, Meeple, Superhero, Spaceship; targets in
    # the order 42, Heart, Meeple, Spaceship, Superhero, Dragon)
    first = next(m for m in moves(active) if brute_use(active, inactive, scored, *dice_of(active, m)) == best)
    assert (use, target) == first


def dice_of(active, move):
    use, target = move
    i = active.index(use)
    return i, (None if target is None else next(k for k, f in enumerate(active) if f == target and k != i))


def test_timeout_expected_points_never_fall_below_the_old_first_option_table():
    from fractions import Fraction

    def old_value(active, inactive, scored):
        # the old table: the first action die in die order, aimed at a Dragon if any, else at the first other die
        if not any(f in ACTING for f in active):
            return 0 if "dragon" in active else points_for(scored + active.count("42"))
        i = next(k for k, f in enumerate(active) if f in ACTING)
        others = [k for k in range(len(active)) if k != i]
        j = None
        if active[i] != "heart" and others:
            j = next((k for k in others if active[k] == "dragon"), others[0])
        f = active[i]
        rest = [x for k, x in enumerate(active) if k not in (i, j)]
        if f == "heart":
            if not inactive:
                return old_value(rest, inactive, scored)
            return Fraction(sum(old_value([*rest, g], inactive - 1, scored) for g in FACES), 6)
        if j is None:
            return 0 if f == "ship" else old_value(rest, inactive, scored)
        if f == "meeple":
            return Fraction(sum(old_value([*rest, g], inactive, scored) for g in FACES), 6)
        if f == "hero":
            return old_value([*rest, OPPOSITE[active[j]]], inactive, scored)
        return old_value(rest, inactive + 1, scored)

    assert old_value(["hero", "hero", "42"], 0, 3) == 0 < turn_value(("42", "hero", "hero"), 0, 3) == 10
    from itertools import combinations_with_replacement

    for k in range(1, 4):
        for active in combinations_with_replacement(FACES, k):
            for inactive in (0, 1):
                new = turn_value(tuple(active), inactive, 2)
                assert new >= old_value(list(active), inactive, 2)
                assert new == brute_value(list(active), inactive, 2)


# --- absent and departing players ------------------------------------------------------------------------
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
    assert E.view(s, None)["winners"] == [survivor]


def test_leave_twice_and_bad_seats_are_refused():
    s = E.new(3, {}, 0)
    s, _ = E.apply(s, SYSTEM, "leave:1")
    for bad in ("leave:1", "leave:9", "leave:x", "timeout:7", "boom"):
        with pytest.raises(RulesError):
            E.apply(s, SYSTEM, bad)


# --- invariants over random games ------------------------------------------------------------------------
DIE_NUMBER = re.compile(r"\b(die|dice) \d")


@given(seed=st.integers(0, 2**32), players=st.integers(1, 8), picks=st.lists(st.integers(0, 30), max_size=400))
def test_invariants_hold_in_random_games(seed, players, picks):
    s = E.new(players, {}, seed)
    banked = [0] * players
    for pick in picks:
        if not E.to_act(s):
            assert "winners" in E.view(s, None)
            break
        assert "winners" not in E.view(s, None)
        cur = s["current"]
        acts = E.legal_actions(s, cur)
        # no click without a choice; labels name faces, never die numbers
        assert len(acts) >= 2
        for a in acts:
            assert not re.search(r"\bdie \d", a.label), a.label
            assert a.key != "c" or a.label.startswith("Continue")
            assert a.key != "p" or a.label.startswith("Pass")
        key = acts[pick % len(acts)].key
        before = s
        if pick % 17 == 0:
            s, events = E.apply(s, SYSTEM, f"timeout:{cur}")
        else:
            s, events = E.apply(s, cur, key)
        texts = said(events)
        for t in texts:
            assert "{" not in t and not DIE_NUMBER.search(t) and "stuck with" not in t, t
        # ten dice always accounted for across the four zones
        z = E.zones(s)
        assert sorted(sum(z.values(), [])) == list(range(1, 11))
        # every die that went to the used zone was logged: one line per die used, auto-played or not
        if s["current"] == cur and s["turns"] == before["turns"] and events and events[0].seat != SYSTEM:
            used_before = 0 if key == "c" else len(E.zones(before)["used"])
            uses = [t for t in texts if t.startswith(f"{PEOPLE[cur]}'s ")]
            assert len(z["used"]) - used_before == len(uses)
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


def test_what_the_table_plays_before_the_first_click_is_in_the_opening_log():
    s = E.new(2, {}, 1916)  # seat 0's first roll has one forced step and then busts
    texts = [e.text for e in E.opening(s)]
    assert texts[0].startswith("{p0} starts turn 1 and rolls")
    assert any("Heart brought in a die" in t for t in texts) and any("Dragons eat {p0}'s" in t for t in texts)
    assert texts[-1].startswith("{p1} starts turn 1") and s["current"] == 1 and s["scores"][0] == [0]
    assert E.encode(E.decode(E.encode(s))) == E.encode(s)
