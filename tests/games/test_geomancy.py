"""Geomancy against ../shared/rules/geomancy.txt, the decisions and docs/rules/geomancy.md: the casting model
(exact and statistical), every adjudication and capture rule, rounds and the end, and invariants."""

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core import SYSTEM, Rng, RulesError
from games.geomancy.model import (
    DIR_NAMES,
    HEIGHTS,
    SCATTER,
    UPRIGHT,
    block_probability,
    centre,
    expected_distance,
    knock_chance,
    nearest_direction,
    off_board_probability,
    parse_square,
    square_at,
    square_name,
    square_probability,
    step,
    throw,
    within_radius_probability,
)
from games.geomancy.rules import (
    OFF_BOARD,
    ROUND_LAPS,
    STALL_LAPS,
    Geomancy,
    aura_map,
    capture_pass,
    fight,
    forced,
    owner_of,
    size_of,
)

E = Geomancy()
RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3
S, M, L = 1, 2, 3


def sq(name):
    return parse_square(name)


def blank(players=2, seed=0, rnd=1, **options):
    """A fresh game in round ``rnd`` with seat 0 to act."""
    s = E.new(players, options, seed)
    s["round"] = rnd
    s["start"] = s["current"] = 0
    return s


def owned(s, seat):
    per = s["per"]
    return range(seat * 3 * per, (seat + 1) * 3 * per)


def place(s, owner, size, square, direction="N"):
    """Puts a stone of ``owner`` and ``size`` (taken from their hand) on ``square`` pointing ``direction``."""
    per = s["per"]
    stone = next(i for i in s["hands"][owner] if size_of(per, i) == size)
    s["hands"][owner].remove(stone)
    s["board"][sq(square)].append(stone)
    s["dirs"][stone] = DIR_NAMES.index(direction)
    return stone


def set_hand(s, seat, *sizes):
    """Keeps only these stones in ``seat``'s hand (the rest leave the test's game)."""
    per = s["per"]
    pool = list(s["hands"][seat])
    chosen = []
    for size in sizes:
        stone = next(i for i in pool if size_of(per, i) == size and i not in chosen)
        chosen.append(stone)
    s["hands"][seat] = sorted(chosen)
    return sorted(chosen, key=lambda i: (-size_of(per, i), i))


def at(s, name):
    return s["board"][sq(name)]


def act(s, seat, key):
    s, events = E.apply(s, seat, key)
    return s, [e.text for e in events]


def keys(s, seat):
    return [a.key for a in E.legal_actions(s, seat)]


def pieces(*stones):
    """Pieces for the pure aura functions: (square name, owner, pips, direction name) -> the dict they take."""
    return {sq(name): (i, owner, pips, DIR_NAMES.index(d)) for i, (name, owner, pips, d) in enumerate(stones)}


# --- squares and directions ---------------------------------------------------------------------------------
def test_coordinates_and_directions():
    assert sq("a1") == 0 and sq("h1") == 7 and sq("a8") == 56 and sq("h8") == 63 and sq("e4") == 28
    assert all(square_name(i) == n for i, n in [(0, "a1"), (28, "e4"), (63, "h8")])
    assert square_at(*centre(sq("e4"))) == sq("e4")
    assert square_at(-0.01, 3) is None and square_at(8.0, 3) is None and square_at(3, 8.0) is None
    assert square_at(0.0, 0.0) == 0  # a point on a line belongs to the square above / to the right
    assert step(sq("e4"), DIR_NAMES.index("N")) == sq("e5")
    assert step(sq("e4"), DIR_NAMES.index("SW"), 2) == sq("c2")
    assert step(sq("h4"), DIR_NAMES.index("E")) is None
    assert [nearest_direction(b) for b in (0, 22.4, 22.5, 90, 180, 337.5, 359.9)] == [0, 0, 1, 2, 4, 0, 0]


def test_stones_per_size_follow_the_player_count_and_the_first_player_is_drawn():
    for players, per in ((2, 5), (3, 5), (4, 5), (5, 4), (6, 3)):
        s = E.new(players, {}, 1)
        assert s["per"] == per
        for seat in range(players):
            sizes = [size_of(per, i) for i in s["hands"][seat]]
            assert sizes.count(1) == sizes.count(2) == sizes.count(3) == per
            assert all(owner_of(per, i) == seat for i in s["hands"][seat])
    assert len({E.new(4, {}, seed)["start"] for seed in range(30)}) == 4
    assert E.opening(E.new(2, {}, 3))[0].text.startswith("Round 1 (small stones)")


def test_options_height_and_knocks():
    assert E.new(2, {}, 1)["options"] == {"height": "medium", "knocks": True}
    assert E.new(2, {"height": "low", "knocks": False}, 1)["options"] == {"height": "low", "knocks": False}
    with pytest.raises(RulesError):
        E.new(2, {"height": "roof"}, 1)
    with pytest.raises(RulesError):
        E.new(2, {"knocks": "small"}, 1)
    with pytest.raises(RulesError):
        E.new(7, {}, 1)


# --- the casting model: exact -----------------------------------------------------------------------------
def test_throws_replay_exactly_from_the_seed():
    def draws(seed):
        state = {"seed": seed, "rng": 0}
        return [throw(Rng(state), sq("d4"), "medium") for _ in range(20)]

    assert draws(5) == draws(5)
    assert draws(5) != draws(6)
    state = {"seed": 1, "rng": 0}
    throw(Rng(state), 0, "high")
    assert state["rng"] == 4  # exactly four uniforms per throw


def test_a_forced_cast_places_each_stone_exactly():
    s = blank()
    small = set_hand(s, RED, S, S)
    s, events = E.cast(s, RED, sq("d4"), [forced("e4", "NE"), forced("b7", "W")])
    assert at(s, "e4") == [small[0]] and s["dirs"][small[0]] == DIR_NAMES.index("NE")
    assert at(s, "b7") == [small[1]] and s["dirs"][small[1]] == DIR_NAMES.index("W")
    assert s["hands"][RED] == [] and s["current"] == BLUE
    assert "casts 2 small at d4" in events[0].text
    cast = s["last_cast"]
    assert cast["aim"] == sq("d4") and [e["square"] for e in cast["stones"]] == [sq("e4"), sq("b7")]
    assert all(e["result"] == "landed" and e["recast"] is None for e in cast["stones"])


def test_upright_and_off_board_stones_come_back_as_recasts_and_wait_for_the_next_turn():
    s = blank()
    a, b, c = set_hand(s, RED, S, S, S)
    s, events = E.cast(s, RED, sq("a1"), [forced("a1", upright=True), OFF_BOARD, forced("b2", "E")])
    assert sorted(s["hands"][RED]) == sorted([a, b]) and at(s, "b2") == [c] and at(s, "a1") == []
    assert s["dirs"][a] is None and s["dirs"][b] is None
    reasons = {r["id"]: r["reason"] for r in s["last_cast"]["recasts"]}
    assert reasons == {a: "upright", b: "off"}
    results = [e["result"] for e in s["last_cast"]["stones"]]
    assert results == ["upright", "off", "landed"]
    assert "upright on a1 (recast)" in events[0].text and "off the board (recast)" in events[0].text
    # the recasts wait: the turn is over; on their next turn they are cast again
    assert s["current"] == BLUE
    s, _ = act(s, BLUE, "pass")
    assert "c27" in keys(s, RED)
    s2, _ = E.cast(s, RED, sq("d4"), [forced("d4"), forced("d5")])
    assert s2["hands"][RED] == [] and at(s2, "d4") and at(s2, "d5")


def test_a_knocked_stone_slides_one_square_away_keeping_its_direction():
    s = blank()
    blue = place(s, BLUE, S, "e4", "W")
    red, = set_hand(s, RED, L)
    s["round"] = 3
    # a large lands on d4 (west of e4): e4's stone slides east to f4, still pointing W
    s, events = E.cast(s, RED, sq("d4"), [forced("d4", "N", knocks=(blue,))])
    assert at(s, "f4") == [blue] and s["dirs"][blue] == DIR_NAMES.index("W") and at(s, "d4") == [red]
    assert s["last_cast"]["knocks"] == [{"id": blue, "from": sq("e4"), "to": sq("f4"), "by": red}]
    assert "{p1}'s small is knocked from e4 to f4" in events[0].text
    # knocked off the board: a recast
    s3 = blank(rnd=3)
    blue2 = place(s3, BLUE, M, "h4", "N")
    set_hand(s3, RED, L)
    s3, _ = E.cast(s3, RED, sq("g4"), [forced("g4", "N", knocks=(blue2,))])
    assert blue2 in s3["hands"][BLUE] and at(s3, "h4") == []
    assert s3["last_cast"]["recasts"] == [{"id": blue2, "reason": "knocked off"}]


def test_knock_direction_is_away_from_the_landing_point():
    s = blank(rnd=3)
    blue = place(s, BLUE, S, "e4", "N")
    red, = set_hand(s, RED, L)
    # landing south-west of e4's centre pushes it north-east
    throw_ = {"x": 3.9, "y": 2.9, "heading": 0.0, "upright": False, "knocks": [blue]}
    s, _ = E.cast(s, RED, sq("d3"), [throw_])
    assert at(s, "f5") == [blue] and at(s, "d3") == [red]


def test_knocks_can_be_switched_off():
    s = blank(rnd=3, knocks=False)
    blue = place(s, BLUE, S, "e4", "N")
    set_hand(s, RED, L)
    s, _ = E.cast(s, RED, sq("d4"), [forced("d4", knocks=(blue,))])
    assert at(s, "e4") == [blue] and s["last_cast"]["knocks"] == []
    for seed in range(200):
        t = blank(seed=seed, rnd=3, knocks=False)
        place(t, BLUE, S, "d4", "N")
        t["hands"][RED] = [i for i in t["hands"][RED] if size_of(t["per"], i) == L]
        t, _ = act(t, RED, "c27")
        assert t["last_cast"]["knocks"] == []


def test_a_cast_throws_the_rounds_stones_with_smaller_recasts_and_never_larger_ones():
    s = blank(rnd=2)
    per = s["per"]
    small = next(i for i in s["hands"][RED] if size_of(per, i) == S)
    s["hands"][RED] = [i for i in s["hands"][RED] if size_of(per, i) != S or i == small]  # one small recast
    cast = E.castable(s, RED)
    assert sorted(size_of(per, i) for i in cast) == [1, 2, 2, 2, 2, 2]
    s, _ = act(s, RED, "c27")
    assert [size_of(per, e["id"]) for e in s["last_cast"]["stones"]] == [2, 2, 2, 2, 2, 1]  # largest first
    assert all(size_of(per, i) == 3 or i in [r["id"] for r in s["last_cast"]["recasts"]] for i in s["hands"][RED])
    # recasts alone may be cast when the round's stones are all out
    t = blank(rnd=2)
    set_hand(t, RED, S, L)
    assert E.castable(t, RED) == [i for i in t["hands"][RED] if size_of(t["per"], i) == S]
    assert "c0" in keys(t, RED)
    set_hand(t, RED, L)
    assert not any(k.startswith("c") for k in keys(t, RED))


# --- the casting model: statistics --------------------------------------------------------------------------
def within(count, n, p, sigmas=4.5):
    """``count`` successes of ``n`` agree with probability ``p`` within sampling error."""
    sd = math.sqrt(n * p * (1 - p))
    return abs(count - n * p) <= sigmas * sd + 1


def landings(height, aim, casts, players=2):
    """The stones of ``casts`` casts of five smalls at ``aim`` on an empty board, one per seed."""
    out = []
    for seed in range(casts):
        s = blank(players, seed=seed, height=height)
        s, _ = act(s, RED, f"c{aim}")
        out.extend(s["last_cast"]["stones"])
    return out


@pytest.fixture(scope="module")
def centre_casts():
    return {h: landings(h, sq("d4"), 600) for h in HEIGHTS}


def test_at_low_height_most_stones_land_on_or_next_to_the_aimed_square(centre_casts):
    aim = sq("d4")
    for height, stones in centre_casts.items():
        n = len(stones)
        near = sum(1 for e in stones if e["square"] is not None
                   and max(abs(e["square"] % 8 - 3), abs(e["square"] // 8 - 3)) <= 1)
        on = sum(1 for e in stones if e["square"] == aim)
        assert within(near, n, block_probability(aim, height)), height
        assert within(on, n, square_probability(aim, aim, height)), height
        if height == "low":
            assert near / n > 0.97 and on / n > 0.45


def test_higher_drops_scatter_wider(centre_casts):
    means = {}
    cx, cy = centre(sq("d4"))
    for height, stones in centre_casts.items():
        distances = [math.hypot(e["x"] - cx, e["y"] - cy) for e in stones]
        means[height] = sum(distances) / len(distances)
        sd = 0.655 * SCATTER[height] / math.sqrt(len(distances))  # Rayleigh: sd = sigma sqrt((4 - pi) / 2)
        assert abs(means[height] - expected_distance(height)) < 4.5 * sd + 0.01, height
    assert means["low"] < means["medium"] < means["high"]


def test_upright_rates_match_the_documented_figures(centre_casts):
    for height, stones in centre_casts.items():
        flat = [e for e in stones if e["result"] != "off"]
        upright = sum(1 for e in flat if e["result"] == "upright")
        assert within(upright, len(flat), UPRIGHT[height]), height
    assert UPRIGHT == {"low": 0.05, "medium": 0.08, "high": 0.12}


def test_off_board_rates_match_the_documented_figures():
    for height in HEIGHTS:
        for aim in (sq("a1"), sq("d1")):
            stones = landings(height, aim, 300)
            off = sum(1 for e in stones if e["result"] == "off")
            assert within(off, len(stones), off_board_probability(aim, height)), (height, aim)
    assert round(off_board_probability(sq("a1"), "low"), 3) == 0.249  # docs/rules/geomancy.md, the table
    assert round(off_board_probability(sq("d1"), "high"), 3) == 0.346


def test_headings_point_uniformly_in_eight_directions(centre_casts):
    dirs = [e["dir"] for stones in centre_casts.values() for e in stones if e["dir"] is not None]
    for d in range(8):
        assert within(dirs.count(d), len(dirs), 1 / 8), d


@pytest.mark.parametrize("height,size", [("low", L), ("medium", S), ("high", M)])
def test_knock_rates_match_the_documented_figures(height, size):
    """One stone cast at d4 where a stone lies: it is knocked with probability P(point within the radius)
    x the chance per pip (the radius lies wholly on the board)."""
    casts, knocked = 1500, 0
    for seed in range(casts):
        s = blank(seed=seed, rnd=size, height=height)
        target = place(s, BLUE, S, "d4", "N")
        set_hand(s, RED, size)
        s, _ = act(s, RED, "c27")
        knocked += any(k["id"] == target for k in s["last_cast"]["knocks"])
    p = within_radius_probability(height) * knock_chance(height, size)
    assert within(knocked, casts, p), (knocked, casts * p)


# --- shared squares -----------------------------------------------------------------------------------------
def test_fight_the_pure_rule():
    # two stones: same size, both recast; different sizes, the larger captures
    assert fight([(1, RED, S), (2, BLUE, S)]) == (None, [], [1, 2])
    assert fight([(1, RED, S), (2, BLUE, M)]) == (2, [(1, BLUE)], [])
    # three or more: a single largest captures all the others
    assert fight([(1, RED, S), (2, BLUE, L), (3, GREEN, M)]) == (2, [(3, BLUE), (1, BLUE)], [])
    # a tie for largest recasts every stone of that size, the rest fight again
    assert fight([(1, RED, L), (2, BLUE, L), (3, GREEN, M), (4, YELLOW, S)]) == (3, [(4, GREEN)], [1, 2])
    assert fight([(1, RED, L), (2, BLUE, L), (3, GREEN, M)]) == (3, [], [1, 2])
    # every stone ties: the square ends empty (decision 9)
    assert fight([(1, RED, L), (2, BLUE, L), (3, GREEN, M), (4, YELLOW, M)]) == (None, [], [1, 2, 3, 4])


def test_two_stones_of_different_sizes_the_larger_captures_the_smaller():
    s = blank(rnd=2)
    blue = place(s, BLUE, S, "e4", "N")
    red, = set_hand(s, RED, M)
    s, events = E.cast(s, RED, sq("e4"), [forced("e4", "E")])
    assert at(s, "e4") == [red] and s["prisoners"][RED] == [blue] and blue not in s["hands"][BLUE]
    assert s["last_captures"] == [{"id": blue, "owner": BLUE, "size": S, "square": sq("e4"), "by": RED,
                                   "how": "landing", "pass": 0, "strength": None}]
    assert "On e4 {p0}'s medium captures {p1}'s small." in [e.text for e in events]
    # the resident larger stone captures the newcomer just the same
    t = blank(rnd=2)
    blue = place(t, BLUE, L, "e4", "N")
    red, = set_hand(t, RED, M)
    t, _ = E.cast(t, RED, sq("e4"), [forced("e4", "E")])
    assert at(t, "e4") == [blue] and t["prisoners"][BLUE] == [red]


def test_two_stones_of_the_same_size_and_different_colours_are_both_recast():
    s = blank(rnd=2)
    blue = place(s, BLUE, M, "e4", "N")
    red, = set_hand(s, RED, M)
    s, events = E.cast(s, RED, sq("e4"), [forced("e4", "E")])
    assert at(s, "e4") == [] and red in s["hands"][RED] and blue in s["hands"][BLUE]
    assert {r["id"]: r["reason"] for r in s["last_cast"]["recasts"]} == {red: "tie", blue: "tie"}
    assert any("tie for the largest: recast" in e.text for e in events)


def test_two_stones_of_the_same_colour_their_owner_keeps_one():
    s = blank(rnd=2)
    red_m, red_s = set_hand(s, RED, M, S)
    s, _ = E.cast(s, RED, sq("e4"), [forced("e4", "E"), forced("e4", "N")])
    assert s["phase"] == "choose" and E.to_act(s) == {RED}
    assert keys(s, RED) == [f"k{red_s}", f"k{red_m}"]  # by id: smalls are numbered first
    assert E.legal_actions(s, BLUE) == []
    s, texts = act(s, RED, f"k{red_s}")  # the owner may keep the smaller one
    assert at(s, "e4") == [red_s] and red_m in s["hands"][RED]
    assert {"id": red_m, "reason": "choice"} in s["last_cast"]["recasts"]
    assert "{p0} keeps their small on e4; their medium is recast." in texts
    assert s["phase"] == "turn" and s["current"] == BLUE


def test_the_same_colour_choice_goes_to_the_owner_whoever_cast():
    s = blank(rnd=3)
    b1 = place(s, BLUE, S, "e4", "N")
    b2 = place(s, BLUE, M, "f4", "E")
    red, = set_hand(s, RED, L)
    # red lands on d4 and knocks blue's small from e4 onto f4, where blue's medium lies
    s, _ = E.cast(s, RED, sq("d4"), [forced("d4", "N", knocks=(b1,))])
    assert s["phase"] == "choose" and E.to_act(s) == {BLUE}
    assert sorted(keys(s, BLUE)) == sorted([f"k{b1}", f"k{b2}"])
    s, _ = act(s, BLUE, f"k{b1}")
    assert at(s, "f4") == [b1] and b2 in s["hands"][BLUE]
    assert s["current"] == BLUE  # and then it is blue's turn as usual (red's turn is over)


def test_on_a_timeout_the_larger_stone_stays():
    s = blank(rnd=2)
    red_m, red_s = set_hand(s, RED, M, S)
    s, _ = E.cast(s, RED, sq("e4"), [forced("e4", "E"), forced("e4", "N")])
    s, texts = act(s, SYSTEM, f"timeout:{RED}")
    assert at(s, "e4") == [red_m] and red_s in s["hands"][RED]
    assert any("the table chooses" in t for t in texts)


def test_alike_stones_need_no_choice():
    s = blank()
    a, b = set_hand(s, RED, S, S)
    s, _ = E.cast(s, RED, sq("e4"), [forced("e4", "E"), forced("e4", "E")])
    assert s["phase"] == "turn" and at(s, "e4") == [a] and b in s["hands"][RED]


def test_stones_alike_in_size_but_not_in_direction_are_the_owners_choice():
    s = blank()
    a, b = set_hand(s, RED, S, S)
    s, _ = E.cast(s, RED, sq("e4"), [forced("e4", "E"), forced("e4", "W")])
    assert s["phase"] == "choose" and E.to_act(s) == {RED}
    assert sorted(keys(s, RED)) == sorted([f"k{a}", f"k{b}"])
    s, _ = act(s, RED, f"k{b}")
    assert at(s, "e4") == [b] and s["dirs"][b] == DIR_NAMES.index("W")


def test_same_colour_choices_are_asked_in_turn_order_from_the_caster():
    s = blank(3, rnd=2)
    s["current"] = BLUE
    red_s = place(s, RED, S, "e4", "N")
    red_m = place(s, RED, M, "f4", "E")
    green_s = place(s, GREEN, S, "c4", "N")
    green_m = place(s, GREEN, M, "b4", "E")
    blue, = set_hand(s, BLUE, M)
    # blue lands on d4 and knocks red's small onto red's medium (f4) and green's small onto green's (b4)
    s, _ = E.cast(s, BLUE, sq("d4"), [forced("d4", "N", knocks=(red_s, green_s))])
    assert sorted(at(s, "f4")) == sorted([red_s, red_m]) and sorted(at(s, "b4")) == sorted([green_s, green_m])
    assert E.to_act(s) == {GREEN}  # after blue comes green, then red (not red first, by seat)
    s, _ = act(s, GREEN, f"k{green_m}")
    assert E.to_act(s) == {RED}
    s, _ = act(s, RED, f"k{red_m}")
    assert s["phase"] == "turn" and s["current"] == GREEN


def test_three_or_more_each_colour_keeps_one_then_the_single_largest_captures_all():
    s = blank(3, rnd=3)
    g = place(s, GREEN, M, "e4", "N")
    b = place(s, BLUE, S, "e4", "N")  # (built states may hold shared squares before a cast)
    red_l, red_s = set_hand(s, RED, L, S)
    s, _ = E.cast(s, RED, sq("e4"), [forced("e4", "N"), forced("e4", "W")])
    assert E.to_act(s) == {RED}  # red has two stones there: red picks first, before any fight
    s, _ = act(s, RED, f"k{red_l}")
    assert at(s, "e4") == [red_l] and red_s in s["hands"][RED]
    assert sorted(s["prisoners"][RED]) == sorted([g, b])


def test_three_or_more_a_tie_for_largest_recasts_them_and_the_rest_fight():
    s = blank(4, rnd=3)
    b = place(s, BLUE, L, "e4", "N")
    g = place(s, GREEN, M, "e4", "N")
    y = place(s, YELLOW, S, "e4", "N")
    red, = set_hand(s, RED, L)
    s, _ = E.cast(s, RED, sq("e4"), [forced("e4", "N")])
    assert red in s["hands"][RED] and b in s["hands"][BLUE]
    assert at(s, "e4") == [g] and s["prisoners"][GREEN] == [y]
    # every stone ties: the square ends empty
    t = blank(4, rnd=3)
    place(t, BLUE, L, "e4", "N")
    place(t, GREEN, S, "e4", "N")
    place(t, YELLOW, S, "e4", "N")
    set_hand(t, RED, L)
    t, _ = E.cast(t, RED, sq("e4"), [forced("e4", "N")])
    assert at(t, "e4") == [] and all(not p for p in t["prisoners"])


# --- auras --------------------------------------------------------------------------------------------------
def test_fig1_aura_length_and_strength_by_size():
    auras = aura_map(pieces(("b1", RED, 1, "N"), ("d1", RED, 2, "N"), ("f1", RED, 3, "N")), 2)
    assert [auras[sq(n)][RED] for n in ("b2", "b3")] == [1, 0]
    assert [auras[sq(n)][RED] for n in ("d2", "d3", "d4")] == [2, 1, 0]
    assert [auras[sq(n)][RED] for n in ("f2", "f3", "f4", "f5")] == [3, 2, 1, 0]
    assert sum(a[BLUE] for a in auras) == 0


def test_fig2_a_stone_is_captured_only_by_more_aura_than_its_pips():
    # a large pointing at a medium two squares away: 2 is not more than 2
    assert capture_pass(pieces(("a1", RED, 3, "E"), ("c1", BLUE, 2, "N")), 2, RED) == []
    # one square away: 3 > 2
    assert capture_pass(pieces(("a1", RED, 3, "E"), ("b1", BLUE, 2, "N")), 2, RED) == [(sq("b1"), RED, 3)]


def test_same_colour_auras_add_red_captures_green_by_combining_two_stones():
    # the rule text's figure caption: neither red small alone (1) takes the green small; together (2) they do
    board = pieces(("c3", RED, 1, "NE"), ("e5", RED, 1, "SW"), ("d4", GREEN, 1, "N"))
    assert capture_pass(board, 3, RED) == [(sq("d4"), RED, 2)]
    assert capture_pass(pieces(("c3", RED, 1, "NE"), ("d4", GREEN, 1, "N")), 3, RED) == []


def test_auras_of_different_colours_never_add():
    board = pieces(("c3", RED, 1, "NE"), ("e5", BLUE, 1, "SW"), ("d4", GREEN, 1, "N"))
    assert aura_map(board, 3)[sq("d4")] == [1, 1, 0]
    assert capture_pass(board, 3, RED) == []


def test_figs3_4_a_ray_stops_at_the_first_stone_which_still_receives_it():
    # an enemy small between: it is captured (3 > 1), the medium behind it is untouched in this pass
    board = pieces(("a1", RED, 3, "E"), ("b1", BLUE, 1, "N"), ("c1", BLUE, 1, "N"))
    auras = aura_map(board, 2)
    assert auras[sq("b1")][RED] == 3 and auras[sq("c1")][RED] == 0
    assert capture_pass(board, 2, RED) == [(sq("b1"), RED, 3)]
    # an own stone blocks too, and is never captured
    board = pieces(("a1", RED, 3, "E"), ("b1", RED, 1, "N"), ("c1", BLUE, 1, "N"))
    assert aura_map(board, 2)[sq("b1")][RED] == 3
    assert capture_pass(board, 2, RED) == []
    assert capture_pass(board, 2, BLUE) == []


def test_only_a_stone_on_the_diagonal_blocks_a_diagonal_ray_and_rays_leave_the_board():
    board = pieces(("a1", RED, 3, "NE"), ("a2", BLUE, 3, "W"), ("b1", BLUE, 3, "S"), ("c3", BLUE, 1, "W"))
    assert capture_pass(board, 2, RED) == [(sq("c3"), RED, 2)]
    edge = aura_map(pieces(("h4", RED, 3, "E"), ("a8", RED, 3, "NW")), 2)
    assert all(a == [0, 0] for a in edge)
    near_edge = aura_map(pieces(("g4", RED, 3, "E")), 2)
    assert near_edge[sq("h4")][RED] == 3 and sum(a[RED] for a in near_edge) == 3  # the rest is lost, no wrap


def test_two_stones_aimed_at_each_other_fall_together():
    board = pieces(("d4", RED, 2, "E"), ("f4", RED, 1, "W"), ("e4", BLUE, 2, "W"), ("c4", BLUE, 1, "E"))
    assert capture_pass(board, 2, RED) == [(sq("d4"), BLUE, 3), (sq("e4"), RED, 3)]
    # through the engine: both are prisoners after one turn
    s = blank(rnd=2)
    d4 = place(s, RED, M, "d4", "N")
    place(s, RED, S, "f4", "W")
    e4 = place(s, BLUE, M, "e4", "W")
    place(s, BLUE, S, "c4", "E")
    s, _ = act(s, RED, "r27")
    s, texts = act(s, RED, f"d{DIR_NAMES.index('E')}")
    assert s["prisoners"][RED] == [e4] and s["prisoners"][BLUE] == [d4]
    assert {c["pass"] for c in s["last_captures"]} == {1}


def test_captures_repeat_until_nothing_changes():
    s = blank(rnd=3)
    place(s, RED, L, "a1", "N")
    b1 = place(s, BLUE, S, "b1", "N")
    c1 = place(s, BLUE, S, "c1", "N")
    s, _ = act(s, RED, "r0")
    s, texts = act(s, RED, f"d{DIR_NAMES.index('E')}")
    assert s["prisoners"][RED] == [b1, c1]
    assert [(c["id"], c["pass"], c["strength"]) for c in s["last_captures"]] == [(b1, 1, 3), (c1, 2, 2)]
    assert texts[-2:] == ["{p0}'s aura of 3 captures {p1}'s small on b1.",
                          "{p0}'s aura of 2 captures {p1}'s small on c1."]


def test_a_stone_captured_in_a_pass_still_projects_in_it():
    # b1 is captured by red's large; in the same pass its aura (with b3's) captures red's small on b2
    board = pieces(("a1", RED, 3, "E"), ("b1", BLUE, 1, "N"), ("b2", RED, 1, "W"), ("b3", BLUE, 1, "S"))
    assert capture_pass(board, 2, RED) == [(sq("b1"), RED, 3), (sq("b2"), BLUE, 2)]


def test_two_colours_able_to_capture_the_larger_sum_takes_it_then_turn_order():
    # red 3 and green 2 on a blue small: red
    board = pieces(("a1", RED, 3, "E"), ("b2", GREEN, 2, "S"), ("b1", BLUE, 1, "N"))
    assert capture_pass(board, 3, BLUE) == [(sq("b1"), RED, 3)]
    # red 2 and green 2: the player whose turn just ended, else the next in turn order
    board = pieces(("a1", RED, 2, "E"), ("b2", GREEN, 2, "S"), ("b1", BLUE, 1, "N"))
    assert capture_pass(board, 3, GREEN) == [(sq("b1"), GREEN, 2)]
    assert capture_pass(board, 3, RED) == [(sq("b1"), RED, 2)]
    assert capture_pass(board, 3, BLUE) == [(sq("b1"), GREEN, 2)]  # after blue (the owner) comes green
    assert capture_pass(board, 4, 3) == [(sq("b1"), RED, 2)]  # after seat 3 comes red


def test_a_capture_is_shown_on_the_board_and_in_words_and_auras_are_in_the_view():
    s = blank(rnd=2)
    place(s, RED, M, "d4", "N")
    blue = place(s, BLUE, S, "e4", "N")
    s, _ = act(s, RED, "r27")
    s, texts = act(s, RED, f"d{DIR_NAMES.index('E')}")
    v = E.view(s, None)
    assert v["last_captures"][0]["square"] == sq("e4") and v["last_captures"][0]["by"] == RED
    assert "{p0}'s aura of 2 captures {p1}'s small on e4." in texts
    assert v["prisoners"][RED] == [{"id": blue, "owner": BLUE, "size": 1}]
    assert v["auras"][sq("e4")] == [2, 0] and v["auras"][sq("f4")] == [1, 0]
    assert v["last_reorient"]["from"] == 0 and v["last_reorient"]["to"] == 2
    assert v["scores"] == [3, 0] and v["score_detail"][RED] == {"board": 2, "prisoners": 1, "total": 3}


# --- turns ------------------------------------------------------------------------------------------------
def test_turn_choices_aim_in_two_steps_and_reorient_with_back():
    s = blank()
    place(s, RED, S, "e4", "N")
    acts = E.legal_actions(s, RED)
    aims = [a for a in acts if a.key.startswith("c")]
    assert len(aims) == 64 and len({a.group for a in aims}) == 8
    assert all(len([a for a in aims if a.group == g]) == 8 for g in {a.group for a in aims})
    assert aims[0].group == "Aim at rank 8" and aims[0].label == "Aim a8"
    other = [a for a in acts if not a.key.startswith("c")]
    assert [a.key for a in other] == [f"r{sq('e4')}", "pass"]
    assert [a.group for a in other] == ["Reorient a small stone", "Pass"]  # by size: at most five stones each
    assert E.focus(s, RED, "Aim at rank 3") == {"kind": "aim", "rank": 2, "squares": list(range(16, 24))}
    assert E.focus(s, RED, "Reorient or pass") == {"kind": "reorient", "squares": [sq("e4")]}
    assert E.focus(s, RED, "Reorient a small stone") == {"kind": "reorient", "squares": [sq("e4")]}
    assert E.focus(s, RED, "Reorient a large stone") == {"kind": "reorient", "squares": []}
    s, _ = act(s, RED, "r28")
    assert keys(s, RED) == ["d1", "d2", "d3", "d4", "d5", "d6", "d7", "back"]  # not the current N
    assert E.view(s, RED)["step"] == {"square": 28, "name": "e4", "id": at(s, "e4")[0]}
    s, _ = act(s, RED, "back")
    assert s["step"] is None and "r28" in keys(s, RED)
    # nothing to cast: the stones and Pass fit as buttons
    t = blank()
    t["hands"][RED] = []
    for name in ("a1", "b1", "c1"):
        t["board"][sq(name)].append(next(i for i in owned(t, RED) if not any(i in b for b in t["board"])))
        t["dirs"][t["board"][sq(name)][0]] = 0
    assert keys(t, RED) == ["r0", "r1", "r2", "pass"]


def test_bad_input_is_refused_and_harmless():
    s = blank()
    place(s, BLUE, S, "e4", "N")
    before = E.encode(s)
    for key in ("c64", "c-1", "r28", "r0", "d3", "k0", "back", "pass ", "cx"):
        with pytest.raises(RulesError):
            E.apply(s, RED, key)
    with pytest.raises(RulesError):
        E.apply(s, BLUE, "pass")  # not blue's turn
    assert E.encode(s) == before


def test_the_turn_goes_round_in_seat_order():
    s = blank(3)
    for seat in (0, 1, 2, 0):
        assert E.to_act(s) == {seat}
        s, _ = act(s, seat, "pass")


# --- rounds and the end -------------------------------------------------------------------------------------
def empty_hands_of_size(s, size):
    per = s["per"]
    for seat in range(s["players"]):
        s["hands"][seat] = [i for i in s["hands"][seat] if size_of(per, i) != size]


def test_a_round_ends_when_nobody_holds_its_stones_and_everyone_passed_in_a_row():
    s = blank(3)
    empty_hands_of_size(s, S)
    place(s, GREEN, M, "h8", "N")
    s["hands"][BLUE].append(next(i for i in owned(s, BLUE) if size_of(s["per"], i) == S))  # blue holds one
    s, _ = act(s, RED, "pass")
    s, _ = act(s, BLUE, "pass")
    s, _ = act(s, GREEN, "pass")
    s, _ = act(s, RED, "pass")
    assert s["round"] == 1  # blue still holds a small: the round stays open
    s, _ = E.cast(s, BLUE, sq("a1"), [forced("a1")])  # a cast breaks the row of passes
    s, _ = act(s, GREEN, "pass")
    s, _ = act(s, RED, "pass")
    assert s["round"] == 1
    s, texts = act(s, BLUE, "pass")
    assert s["round"] == 2 and "Everyone passed: round 1 is over." in texts


def test_a_move_breaks_the_row_of_passes_and_the_player_after_the_last_mover_starts_the_next_round():
    s = blank(3)
    empty_hands_of_size(s, S)
    place(s, BLUE, M, "h8", "N")
    s, _ = act(s, RED, "pass")
    s, _ = act(s, BLUE, "r63")
    s, _ = act(s, BLUE, "d4")  # blue reorients: the row starts again
    s, _ = act(s, GREEN, "pass")
    s, _ = act(s, RED, "pass")
    assert s["round"] == 1
    s, texts = act(s, BLUE, "pass")
    assert s["round"] == 2 and s["current"] == GREEN and s["start"] == GREEN
    assert "Round 2 (medium stones): {p2} starts." in texts


def test_smaller_recasts_left_at_the_end_of_a_round_are_cast_with_the_next_rounds_stones():
    s = blank(2)
    per = s["per"]
    empty_hands_of_size(s, S)
    small = next(i for i in owned(s, RED) if size_of(per, i) == S)
    s["hands"][RED].append(small)
    s["round"] = 2
    empty_hands_of_size(s, M)
    s, _ = act(s, RED, "pass")  # red keeps the small (passing is allowed with stones in hand)
    s, _ = act(s, BLUE, "pass")
    assert s["round"] == 3 and small in s["hands"][RED]
    s["current"] = RED
    assert small in E.castable(s, RED)
    s, _ = act(s, RED, "c27")
    assert small in [e["id"] for e in s["last_cast"]["stones"]]


def test_the_game_ends_after_the_third_round_with_standings():
    s = blank(3)
    s["round"] = 3
    place(s, RED, M, "a1", "N")
    place(s, BLUE, L, "h8", "S")
    s["prisoners"][RED].append(next(i for i in owned(s, GREEN) if size_of(s["per"], i) == M))
    for seat in range(3):
        s["hands"][seat] = [i for i in s["hands"][seat] if size_of(s["per"], i) == S]  # smalls: score nothing
    for seat in range(3):
        s, texts = act(s, seat, "pass")
    assert E.is_over(s) and E.to_act(s) == frozenset()
    r = E.result(s)
    assert r.scores == (4, 3, 0) and r.ranking == ((0,), (1,), (2,))
    assert "The game is over." in texts and "{p0}: 4 points (2 on the board, 2 in prisoners)" in texts
    assert E.view(s, None)["winners"] == [0]
    with pytest.raises(RulesError, match="over"):
        E.apply(s, RED, "pass")


def test_ties_share_the_victory():
    s = blank(2)
    s["round"] = 3
    s["hands"] = [[], []]
    place_any = [(RED, "a1"), (BLUE, "h8")]
    for seat, name in place_any:
        stone = next(i for i in owned(s, seat) if size_of(s["per"], i) == M)
        s["board"][sq(name)].append(stone)
        s["dirs"][stone] = 0
    s, _ = act(s, RED, "pass")
    s, _ = act(s, BLUE, "pass")
    assert E.result(s).ranking == ((0, 1),)


def test_three_laps_of_passes_end_a_round_but_turning_stones_keeps_it_open():
    s = blank(2)
    place(s, RED, S, "a1", "N")
    place(s, BLUE, S, "h8", "S")
    # turning a stone is a move: it keeps the round open however long it goes on
    for _ in range(STALL_LAPS * 4):
        seat = s["current"]
        square = next(q for q, b in enumerate(s["board"]) if b and owner_of(s["per"], b[0]) == seat)
        s, _ = act(s, seat, f"r{square}")
        s, texts = act(s, seat, next(k for k in keys(s, seat) if k.startswith("d")))
    assert s["round"] == 1 and s["stall"] == 0
    # both hold smalls but only pass: after 3 laps (6 turns) the round ends anyway, with a warning before
    for turn in range(STALL_LAPS * 2):
        assert s["round"] == 1
        if turn >= STALL_LAPS * 2 - 2:
            assert "ends in" in E.notice(s)
        s, texts = act(s, s["current"], "pass")
    assert s["round"] == 2 and any("laps of passes" in t for t in texts)
    assert E.notice(s) is None
    per = s["per"]
    assert sum(1 for i in s["hands"][RED] if size_of(per, i) == S) == 4  # carried into round 2
    assert len(E.castable(s, RED)) == 9


def test_a_departure_never_shortens_the_first_round():
    s = blank(3)
    assert E.view(s, None)["stall_turns_left"] == STALL_LAPS * 3
    s, _ = act(s, SYSTEM, "leave:1")  # not the seat to act: no turn passes
    assert E.view(s, None)["stall_turns_left"] == STALL_LAPS * 3  # laps of the round's three players
    for _ in range(STALL_LAPS * 3 - 1):
        s, _ = act(s, s["current"], "pass")
        assert s["round"] == 1
    s, texts = act(s, s["current"], "pass")
    assert s["round"] == 2 and any("laps of passes" in t for t in texts)


def test_a_round_nobody_moved_in_is_started_again_by_its_starter():
    s = blank(3)  # seat 0 starts; everyone holds smalls and passes for three laps
    for _ in range(STALL_LAPS * 3):
        s, texts = act(s, s["current"], "pass")
    assert s["round"] == 2 and s["start"] == RED and s["current"] == RED
    assert "Round 2 (medium stones): {p0} starts." in texts


def test_after_an_all_pass_round_the_player_after_the_last_mover_of_the_game_starts():
    s = blank(3)
    empty_hands_of_size(s, S)
    place(s, BLUE, M, "h8", "N")
    s, _ = act(s, RED, "pass")
    s, _ = act(s, BLUE, "r63")
    s, _ = act(s, BLUE, "d4")
    for seat in (GREEN, RED, BLUE):
        s, _ = act(s, seat, "pass")
    assert s["round"] == 2 and s["start"] == GREEN  # after blue, the last mover
    empty_hands_of_size(s, M)
    for seat in (GREEN, RED, BLUE):  # nobody moves in round 2
        s, texts = act(s, seat, "pass")
    assert s["round"] == 3 and s["start"] == GREEN and s["current"] == GREEN  # still after blue
    assert "Round 3 (large stones): {p2} starts." in texts


def test_no_round_outlasts_the_safety_net():
    s = blank(2)
    s["round_turns"] = ROUND_LAPS * 2 - 1
    s, texts = act(s, RED, "c27")
    assert s["round"] == 2 and any(f"lasted {ROUND_LAPS} laps" in t for t in texts)


# --- the platform: timeouts, leaving ----------------------------------------------------------------------
def test_an_idle_player_passes_even_in_the_middle_of_a_reorient():
    s = blank()
    place(s, RED, S, "e4", "N")
    s, _ = act(s, RED, "r28")
    s, texts = act(s, SYSTEM, f"timeout:{RED}")
    assert s["step"] is None and s["current"] == BLUE and s["passed"] == [RED]
    assert "{p0} passes." in texts and s["dirs"][at(s, "e4")[0]] == 0
    with pytest.raises(RulesError):
        E.apply(s, SYSTEM, f"timeout:{RED}")


def test_leaving_skips_the_seat_and_the_table_makes_their_choices():
    s = blank(3)
    s, _ = act(s, SYSTEM, "leave:1")
    assert s["current"] == RED
    s, _ = act(s, RED, "pass")
    assert s["current"] == GREEN  # blue is skipped
    # a pending same-colour choice of a player who leaves is made by the table
    t = blank(3, rnd=2)
    red_m, red_s = set_hand(t, RED, M, S)
    t, _ = E.cast(t, RED, sq("e4"), [forced("e4", "E"), forced("e4", "N")])
    assert E.to_act(t) == {RED}
    t, _ = act(t, SYSTEM, "leave:0")
    assert at(t, "e4") == [red_m] and t["phase"] == "turn" and t["current"] == BLUE
    # the player whose turn it is leaves: the turn moves on
    u = blank(3)
    u, _ = act(u, SYSTEM, "leave:0")
    assert u["current"] == BLUE
    # two players and one leaves: the game is over, the one who left ranks last
    w = blank(2)
    w, _ = act(w, SYSTEM, "leave:0")
    assert E.is_over(w) and E.result(w).ranking[-1] == (0,)


def test_the_view_is_public_and_complete():
    s = blank(2, seed=3)
    s, _ = act(s, RED, "c27")
    views = [E.view(s, seat) for seat in (None, 0, 1)]
    assert all({k: v for k, v in view.items() if k != "seat"} == views[0] for view in views)
    v = views[0]
    for key in ("round", "round_name", "phase", "to_act", "board", "hands", "castable", "prisoners", "scores",
                "auras", "last_cast", "last_captures", "height", "knocks", "choices", "step"):
        assert key in v
    assert len(v["auras"]) == 64 and all(len(a) == 2 for a in v["auras"])
    cast = v["last_cast"]
    assert cast["aim"] == 27 and len(cast["stones"]) == 5
    assert all({"x", "y", "square", "dir", "result", "recast"} <= set(e) for e in cast["stones"])
    assert E.secret_variants(s, 0, random.Random(1)) == []


# --- invariants -----------------------------------------------------------------------------------------
def check_invariants(s):
    per, n = s["per"], s["players"]
    total = 3 * per * n
    places = [i for h in s["hands"] for i in h] + [i for b in s["board"] for i in b] + \
             [i for p in s["prisoners"] for i in p]
    assert sorted(places) == list(range(total)), "every stone is in exactly one place"
    for seat in range(n):
        assert all(owner_of(per, i) == seat for i in s["hands"][seat])
        assert all(owner_of(per, i) != seat for i in s["prisoners"][seat]), "own stones are never prisoners"
    for stones in s["board"]:
        assert all(s["dirs"][i] in range(8) for i in stones)
    if s["phase"] != "choose":
        assert all(len(b) <= 1 for b in s["board"]), "at most one stone per square after adjudication"
    view = E.view(s, None)
    for seat in range(n):
        pips = sum(e["size"] for e in view["board"] if e["owner"] == seat)
        pips += sum(p["size"] for p in view["prisoners"][seat])
        assert view["scores"][seat] == pips, "scores equal the pips counted"
    assert sum(view["hands"][seat][k] for seat in range(n) for k in range(3)) == sum(map(len, s["hands"]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2 ** 40), height=st.sampled_from(HEIGHTS),
       knocks=st.booleans(), chooser=st.randoms(use_true_random=False),
       system_rate=st.sampled_from([0.0, 0.0, 0.02]))
def test_invariants_hold_and_every_game_ends(players, seed, height, knocks, chooser, system_rate):
    s = E.new(players, {"height": height, "knocks": knocks}, seed)
    check_invariants(s)
    for _ in range(5000):
        to_act = sorted(E.to_act(s))
        if not to_act:
            break
        seat = chooser.choice(to_act)
        if chooser.random() < system_rate:
            remaining = E.remaining(s)
            if chooser.random() < 0.1 and len(remaining) > 1:
                s, _ = E.apply(s, SYSTEM, f"leave:{chooser.choice(remaining)}")
            else:
                s, _ = E.apply(s, SYSTEM, f"timeout:{seat}")
        else:
            s, _ = E.apply(s, seat, chooser.choice(E.legal_actions(s, seat)).key)
        check_invariants(s)
        if s["phase"] == "turn":  # the capture search ran to its end: no stone is left that an aura takes
            assert capture_pass(E.pieces(s), players, 0) == []
    assert E.is_over(s), "every game ends"
    assert E.result(s) is not None
