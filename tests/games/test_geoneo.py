"""GEONEO against ../shared/rules/geoneo.txt and the decisions."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core import SYSTEM, RulesError
from games.geoneo.rules import CARDS, PIECES, Geoneo, field_name, shapes, standard_board

E = Geoneo()
W = 8


def f(name):
    """'C4' -> field index."""
    return (int(name[1:]) - 1) * W + "ABCDEFGH".index(name[0])


def board_with(colour_fields, width=8, height=6):
    pieces = [None] * (width * height)
    for colour, names in colour_fields.items():
        for n in names:
            pieces[f(n)] = colour
    return pieces


def shape_points(pieces, colour=0):
    return {k: pts / 2 for k, pts, _ in shapes(pieces, W, colour)}


# --- the board is data ---------------------------------------------------------------------------------
def test_standard_board_has_each_number_on_eight_fields_and_no_equal_neighbours():
    rows = standard_board()
    assert len(rows) == 6 and all(len(r) == 8 for r in rows)
    flat = [n for r in rows for n in r]
    assert all(flat.count(n) == 8 for n in range(1, 7))
    for r in range(6):
        for c in range(8):
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr or dc) and 0 <= r + dr < 6 and 0 <= c + dc < 8:
                        assert rows[r][c] != rows[r + dr][c + dc]


def test_field_names():
    assert field_name(0, 8) == "A1" and field_name(47, 8) == "H6" and field_name(f("C4"), 8) == "C4"


# --- the scoring examples --------------------------------------------------------------------------------
def test_lines_of_eight_four_and_two_fields():
    pieces = board_with({0: ["A1", "H1"]})
    assert shape_points(pieces) == {f"L{f('A1')}.{f('H1')}": 8}
    pieces = board_with({0: ["B2", "B5"]})  # a column, 4 fields end to end
    assert list(shape_points(pieces).values()) == [4]
    pieces = board_with({0: ["C3", "D4"]})  # a diagonal of 2 fields
    assert list(shape_points(pieces).values()) == [2]
    pieces = board_with({0: ["A1", "F6"]})  # the long diagonal: 6 fields
    assert list(shape_points(pieces).values()) == [6]


def test_fields_between_may_hold_anything():
    pieces = board_with({0: ["A1", "H1"], 1: ["C1", "D1"]})
    assert shape_points(pieces)[f"L{f('A1')}.{f('H1')}"] == 8


def test_not_aligned_is_no_line():
    assert shape_points(board_with({0: ["A1", "B3"]})) == {}


def test_rectangle_is_side_times_side_and_square_too():
    pieces = board_with({0: ["B2", "E2", "B4", "E4"]})  # 4 x 3 fields
    pts = shape_points(pieces)
    assert pts[f"R{f('B2')}.{f('E2')}.{f('B4')}.{f('E4')}"] == 12
    pieces = board_with({0: ["A1", "C1", "A3", "C3"]})  # 3 x 3 square
    assert max(shape_points(pieces).values()) == 9


def test_triangle_is_leg_times_leg_over_two_with_halves_kept():
    pieces = board_with({0: ["A1", "C1", "A3"]})  # legs 3 and 3: 4.5
    tri = {k: v for k, v in shape_points(pieces).items() if k.startswith("T")}
    assert tri == {f"T{f('A1')}.{f('C1')}.{f('A3')}": 4.5}
    pieces = board_with({0: ["B2", "F2", "B4"]})  # legs 5 and 3: 7.5
    assert [v for k, v in shape_points(pieces).items() if k.startswith("T")] == [7.5]
    pieces = board_with({0: ["A1", "B1", "A2"]})  # the smallest: legs 2 and 2 = 2
    assert [v for k, v in shape_points(pieces).items() if k.startswith("T")] == [2]


def test_a_rectangle_also_holds_four_triangles_and_shapes_come_best_first():
    pieces = board_with({0: ["A1", "C1", "A3", "C3"]})
    found = shapes(pieces, W, 0)
    kinds = [k[0] for k, _, _ in found]
    assert kinds.count("R") == 1 and kinds.count("T") == 4 and kinds.count("L") == 6
    pts = [p for _, p, _ in found]
    assert pts == sorted(pts, reverse=True)
    assert shapes(pieces, W, 1) == []  # other colours' pieces never count


# --- rounds and placement --------------------------------------------------------------------------------
def game(players=2, seed=0):
    return E.new(players, {}, seed)


def set_hands(s, hands):
    s["hands"] = [sorted(h) for h in hands]


def act(s, seat, key):
    s, events = E.apply(s, seat, key)
    return s, [e.text for e in events]


def test_setup_deals_nine_and_pieces_by_player_count():
    for n, pieces in PIECES.items():
        s = game(n)
        assert all(len(h) == 9 for h in s["hands"]) and s["supply"] == [pieces] * n
        assert len(s["deck"]) == 36 - 9 * n
        assert sorted(sum(s["hands"], []) + s["deck"]) == sorted(CARDS)


def test_intermediate_results_stay_in_0_to_6_and_the_final_in_1_to_6():
    s = game(3)
    first = s["round"]["start"]
    second, last = (first + 1) % 3, (first + 2) % 3
    s["hands"][first] = [5] * 9
    s["hands"][second] = sorted([3, 2] + [6] * 7)
    s["hands"][last] = sorted([5, 1] + [6] * 7)
    s, _ = act(s, first, "c5")
    # 5+2, 5+3, 5+6 are over 6 and 5-6 is below 0
    assert [a.key for a in E.legal_actions(s, second)] == ["s2", "s3"]
    s, _ = act(s, second, "s3")  # 2
    # the final result: 2+1 = 3 and 2-1 = 1 fit; 2+5, 2+6 are over 6; 2-5, 2-6 below 0
    assert [a.key for a in E.legal_actions(s, last)] == ["a1", "s1"]
    s["hands"][last] = sorted([2] + [6] * 8)
    # 2-2 = 0 is fine in the middle of a round but not as the final result
    assert [a.key for a in E.legal_actions(s, last)] == ["a2"]


def test_a_player_with_no_fitting_card_puts_one_away_and_the_result_stays():
    s = game(2)
    a = s["round"]["start"]
    b = 1 - a
    s["hands"][a] = [3] * 9
    s["hands"][b] = [4] * 5 + [5] * 4
    s, _ = act(s, a, "c3")
    assert [x.key for x in E.legal_actions(s, b)] == ["d4", "d5"]  # 3+4, 3+5 are over 6; 3-4, 3-5 below 1
    s, text = act(s, b, "d5")
    assert "puts a 5 away" in text[0]
    assert s["phase"] == "place" and s["place"] == {"seat": a, "number": 3}


def test_a_step_with_a_single_option_is_played_by_the_table_and_logged():
    s = game(2)
    a = s["round"]["start"]
    b = 1 - a
    s["hands"][a] = [6] * 9
    s["hands"][b] = [6] * 9
    s, text = act(s, a, "c6")  # b's only option is to put a 6 away: the table does it
    assert text[1:] == [f"{{p{b}}} has a single option; the table plays it.",
                        f"{{p{b}}} has no card that fits and puts a 6 away (still 6)."]
    assert s["round"]["plays"][-1] == {"seat": b, "card": 6, "op": "away", "result": 6}
    assert s["phase"] == "place" and E.to_act(s) == {a} and len(E.legal_actions(s, a)) == 8
    # forced steps chain until a real choice: with one free 6 left, the table places there as well
    t = game(2)
    t["round"]["start"] = a
    t["hands"][a], t["hands"][b] = [6] * 5 + [1] * 4, [6] * 9
    sixes = [i for i, n in enumerate(t["numbers"]) if n == 6]
    for i in sixes[1:]:
        t["pieces"][i] = b
    t, text = act(t, a, "c6")
    assert t["pieces"][sixes[0]] == a and f"{{p{a}}} places on {field_name(sixes[0], W)}." in text
    assert len(E.legal_actions(t, next(iter(E.to_act(t))))) > 1  # the table goes on up to a real choice


def test_the_start_player_places_on_the_final_result_and_placing_is_mandatory():
    s = game(2)
    a = s["round"]["start"]
    s["hands"][a] = [2] + [4] * 8
    s["hands"][1 - a] = [1] * 8 + [2]
    s, _ = act(s, a, "c4")
    s, _ = act(s, 1 - a, "a1")
    assert s["phase"] == "place" and s["place"] == {"seat": a, "number": 5}
    fields = [x.key for x in E.legal_actions(s, a)]
    assert len(fields) == 8 and all(s["numbers"][int(k[1:])] == 5 for k in fields)
    with pytest.raises(RulesError):
        E.apply(s, a, f"f{next(i for i, n in enumerate(s['numbers']) if n == 4)}")
    s, _ = act(s, a, fields[0])
    assert s["pieces"][int(fields[0][1:])] == 0 if a == 0 else 1
    assert s["round"]["start"] == 1 - a and s["phase"] == "play"  # the next start player is the left neighbour


def test_no_free_field_falls_back_to_the_last_player_and_the_result_before_their_card():
    s = game(3)
    a = s["round"]["start"]
    b, c = (a + 1) % 3, (a + 2) % 3
    s["hands"][a], s["hands"][b], s["hands"][c] = [2] * 9, [1] * 9, [2] + [3] * 8
    for i, n in enumerate(s["numbers"]):
        if n == 6:
            s["pieces"][i] = 2  # every 6 is taken
    s, _ = act(s, a, "c2")
    s, _ = act(s, b, "a1")  # 3
    s, _ = act(s, c, "a3")  # 6: no free 6
    # the last player (c) places on the result before their card: 3
    assert s["place"] == {"seat": c, "number": 3}
    # and when 3 is full too, the player before (b) places on the result before theirs: 2
    s2 = game(3)
    s2["hands"] = [list(h) for h in s["hands"]]
    s2["round"] = {"start": a, "plays": []}
    s2["hands"][a], s2["hands"][b], s2["hands"][c] = [2] * 9, [1] * 9, [2] + [3] * 8
    for i, n in enumerate(s2["numbers"]):
        if n in (6, 3):
            s2["pieces"][i] = 2
    s2, _ = act(s2, a, "c2")
    s2, _ = act(s2, b, "a1")
    s2, _ = act(s2, c, "a3")
    assert s2["place"] == {"seat": b, "number": 2}


def test_nobody_can_place_and_the_round_passes():
    s = game(2)
    a = s["round"]["start"]
    s["hands"][a], s["hands"][1 - a] = [3] * 9, [1] + [3] * 8
    for i, n in enumerate(s["numbers"]):
        if n in (3, 6):
            s["pieces"][i] = 1 - a
    s, text = act(s, a, "c3")
    s, text = act(s, 1 - a, "a3")
    assert "nobody places" in text[-1] and s["phase"] == "play" and s["round"]["start"] == 1 - a


def test_a_final_zero_voids_the_round():
    """Unreachable by legal play (from 0 every card fits as +v), so the rule is checked on a built state."""
    s = game(3)
    a = s["round"]["start"]
    b, c = (a + 1) % 3, (a + 2) % 3
    s["round"]["plays"] = [{"seat": a, "card": 2, "op": "first", "result": 2},
                           {"seat": b, "card": 2, "op": "-", "result": 0},
                           {"seat": c, "card": 6, "op": "away", "result": 0}]
    s["hands"][a].pop(), s["hands"][b].pop(), s["hands"][c].pop()
    events = []
    E._end_of_cards(s, events)
    assert "void" in events[0].text
    assert s["phase"] == "play" and s["round"] == {"start": b, "plays": []} and s["away"][-3:] == [2, 2, 6]


def test_put_away_keeps_the_result_even_mid_round():
    s = game(3)
    a = s["round"]["start"]
    b = (a + 1) % 3
    s["hands"][a], s["hands"][b] = [6] * 8, [1, 1, 1, 1, 1, 1, 1, 1, 1]
    s["round"]["plays"] = [{"seat": a, "card": 6, "op": "first", "result": 6}]
    assert [x.key for x in E.legal_actions(s, b)] == ["s1"]
    s["hands"][b] = [6] * 9
    assert [x.key for x in E.legal_actions(s, b)] == ["s6"]  # 6-6 = 0 is fine in the middle


def test_cards_run_out_and_are_dealt_again():
    s = game(2, seed=3)
    dealt = 0
    while s["phase"] == "play" or s["phase"] == "place":
        seat = next(iter(E.to_act(s)))
        before = sum(len(h) for h in s["hands"])
        s, events = E.apply(s, seat, E.legal_actions(s, seat)[0].key)
        if any("dealt again" in e.text for e in events):
            dealt += 1
            assert all(len(h) == 9 for h in s["hands"]) and before <= 2
        if dealt:
            break
    assert dealt == 1


def test_four_players_play_as_two_teams_and_share_a_colour():
    s = game(4)
    assert [E._colour(s, seat) for seat in range(4)] == [0, 1, 0, 1]
    assert s["supply"] == [9, 9, 9, 9]
    # a seat without pieces places its partner's
    s["supply"][0] = 0
    assert E._supply_seat(s, 0) == 2


def test_clearing_starts_with_the_player_who_placed_the_last_piece():
    s = game(2)
    a = s["round"]["start"]
    s["supply"][a] = 1
    s["hands"][a], s["hands"][1 - a] = [4] * 9, [1] * 9
    colour = a
    # give the player a line already on the board
    s["pieces"][f("A1")] = colour
    s["pieces"][f("A6")] = colour
    s, _ = act(s, a, "c4")
    s, _ = act(s, 1 - a, "a1")
    s, text = act(s, a, E.legal_actions(s, a)[0].key)
    assert s["phase"] == "clear" and s["clearer"] == a
    best = E.legal_actions(s, a)[0]
    s, text = act(s, a, best.key)
    assert "clears" in text[0]


def test_clearing_scores_removes_corners_only_skips_and_ends():
    s = game(2)
    s["phase"] = "clear"
    s["pieces"] = board_with({0: ["A1", "C1", "A3", "C3", "B2"], 1: ["H6", "H4"]})
    s["clearer"] = 0
    s["round"]["plays"] = []
    keys = [x.key for x in E.legal_actions(s, 0)]
    rect = f"R{f('A1')}.{f('C1')}.{f('A3')}.{f('C3')}"
    assert keys[0] == rect
    s, text = act(s, 0, rect)
    assert s["scores"][0] == 18  # 9 points, in halves
    assert s["pieces"][f("B2")] == 0  # a piece inside the shape stays
    assert all(s["pieces"][f(n)] is None for n in ("A1", "C1", "A3", "C3"))
    # then seat 1's only shape, the line H4-H6 (3 points), is cleared by the table
    assert "{p1} has a single option; the table plays it." in text and "{p1} clears a Line H4-H6 for 3 points." in text
    assert s["scores"][1] == 6
    # nobody has a shape now (a lone B2): the game ends
    assert s["phase"] == "over"
    r = E.result(s)
    assert r.scores == (9, 3) and r.winners == (0,)


def test_team_scores_are_shared_and_ranked_together():
    s = game(4)
    s["phase"] = "over"
    s["scores"] = [10, 7]
    r = E.result(s)
    assert r.scores == (5, 3.5, 5, 3.5) and r.ranking[0] == (0, 2)


def test_a_hand_is_seen_only_by_its_owner():
    s = game(3)
    assert "hand" not in E.view(s, None)
    v1 = E.view(s, 1)
    assert v1["hand"] == s["hands"][1] and "hands" not in v1 and "deck" not in v1
    assert all(k != "hand" or v == s["hands"][1] for k, v in v1.items())


def test_a_departed_seat_is_played_by_the_table():
    s = game(3, seed=5)
    s, _ = E.apply(s, SYSTEM, "leave:1")
    for _ in range(20):
        seat = next(iter(E.to_act(s)))
        assert seat != 1
        s, _ = E.apply(s, seat, E.legal_actions(s, seat)[0].key)
    s2 = game(2)
    s2, _ = E.apply(s2, SYSTEM, "leave:0")
    assert E.result(s2).winners == (1,)


# --- invariants over random games ------------------------------------------------------------------------
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), picks=st.lists(st.integers(0, 50), max_size=300))
def test_invariants_hold_in_random_games(seed, players, picks):
    s = E.new(players, {}, seed)
    total_pieces = PIECES[players] * players
    for pick in picks:
        to_act = sorted(E.to_act(s))
        if not to_act:
            break
        seat = to_act[0]
        acts = E.legal_actions(s, seat)
        before = s
        s, _ = E.apply(s, seat, acts[pick % len(acts)].key)
        # the 36 cards are always in hands, on the table, put away or in the face-down pile
        cards = sum(s["hands"], []) + [p["card"] for p in s["round"]["plays"]] + s["away"] + s["deck"]
        assert sorted(cards) == sorted(CARDS)
        # pieces on the board + in supply + cleared are constant (a field holds one piece by construction)
        on_board = sum(1 for p in s["pieces"] if p is not None)
        assert on_board + sum(s["supply"]) + sum(s["cleared"]) == total_pieces
        # results stay in range
        for p in s["round"]["plays"]:
            assert 0 <= p["result"] <= 6
        # clearing removes only the chosen shape's corners
        if before["phase"] == "clear":
            gone = [i for i, (x, y) in enumerate(zip(before["pieces"], s["pieces"], strict=True)) if x != y]
            assert gone == sorted(s["highlight"])
            assert all(s["pieces"][i] is None for i in gone)
        # scores never fall
        assert all(a >= b for a, b in zip(s["scores"], before["scores"], strict=True))
