"""Globe Twister against ../shared/rules/globe-twister.txt, the decisions and docs/rules/globe-twister.md."""

import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import SYSTEM, RulesError
from games.globe_twister import solver
from games.globe_twister.puzzle import (
    CARDS,
    CELLS,
    DIRECTIONS,
    RED,
    SOLVED,
    STEP,
    TARGETS_ANY,
    apply_card,
    check_program,
    from_pairs,
    is_solved,
    run_placements,
    solved_in,
    to_pairs,
    turn_whole,
)
from games.globe_twister.rules import GlobeTwister, shipped_puzzles
from games.globe_twister.solver import (
    LEVEL_SPECS,
    LEVELS,
    PUZZLES_PER_LEVEL,
    SeedRng,
    generate,
    min_one_turn,
    needs_two_turns,
    placements_at,
    plan,
    undo_card,
)

E = GlobeTwister()
ALL_DIRS = (None, "n", "e", "s", "w", "ne", "se", "sw", "nw")
# a puzzle where every tile and rotation is distinct from its neighbours': tile t turned t % 4 times
MARKED = tuple(t * 4 + t % 4 for t in CELLS)


def game(players=2, seed=0, **options):
    return E.new(players, options, seed)


def keys(s, seat):
    return [a.key for a in E.legal_actions(s, seat)]


def act(s, seat, *ks):
    for k in ks:
        s, _ = E.apply(s, seat, k)
    return s


def place(s, seat, cell, card, direction=None):
    s = act(s, seat, f"c{cell}", f"k{card}")
    if direction:
        s = act(s, seat, f"d{direction}")
    return s


def program(s, seat, *placements):
    for p in placements:
        s = place(s, seat, *p)
    return s


def with_puzzle(s, seat, arr):
    s = json.loads(E.encode(s))
    s["puzzles"][seat] = to_pairs(arr)
    return s


def swapped(arr, a, b):
    out = list(arr)
    out[a], out[b] = out[b], out[a]
    return tuple(out)


# --- a reference of every card, written from the rule text with rows and columns ---------------------------
def reference(arr, cell, card, direction):
    """What the card does, by the rule text and decisions 7-9, computed independently of puzzle.py."""
    grid = [list(arr[r * 3:r * 3 + 3]) for r in range(3)]
    r, c = divmod(cell, 3)
    out = [row[:] for row in grid]
    turns = {"g1": 1, "g2": -1, "g3": 2}
    if card in turns:  # the cards that act by their cell alone ignore an arrow
        t, rot = divmod(grid[r][c], 4)
        out[r][c] = t * 4 + (rot + turns[card]) % 4
    elif card in ("b1", "b2"):
        ok = ("n", "e", "s", "w") if card == "b1" else ("ne", "se", "sw", "nw")
        if direction not in ok:
            return arr
        dr, dc = STEP[direction]
        if not (0 <= r + dr <= 2 and 0 <= c + dc <= 2):
            return arr
        out[r][c], out[r + dr][c + dc] = grid[r + dr][c + dc], grid[r][c]
    elif card == "b3":
        if (r, c) not in ((0, 0), (0, 2), (2, 0), (2, 2)):
            return arr
        out[r][c], out[2 - r][2 - c] = grid[2 - r][2 - c], grid[r][c]
    elif card == "b4":
        if (r, c) not in ((0, 1), (1, 0), (1, 2), (2, 1)):
            return arr
        out[r][c], out[2 - r][2 - c] = grid[2 - r][2 - c], grid[r][c]
    elif card == "b5":
        if direction not in ("n", "e", "s", "w"):
            return arr
        dr, dc = STEP[direction]
        if not (0 <= r + 2 * dr <= 2 and 0 <= c + 2 * dc <= 2):
            return arr
        line = [(r + i * dr, c + i * dc) for i in range(3)]
        vals = [grid[y][x] for y, x in line]
        for (y, x), v in zip(line, [vals[1], vals[2], vals[0]], strict=True):
            out[y][x] = v
    else:  # red
        t, rot = divmod(grid[r][c], 4)
        hr, hc = divmod(t, 3)
        if (hr, hc) == (r, c):
            if card == "r2":
                out[r][c] = t * 4
        else:
            out[r][c] = grid[hr][hc]
            out[hr][hc] = t * 4 + (0 if card == "r2" else rot)
    return tuple(v for row in out for v in row)


@pytest.mark.parametrize("card", CARDS)
def test_every_card_in_every_cell_and_direction_matches_the_rule_text(card):
    rng = random.Random(card)
    puzzles = [MARKED, SOLVED, turn_whole(MARKED, 1)]
    for _ in range(6):
        tiles = list(CELLS)
        rng.shuffle(tiles)
        puzzles.append(tuple(t * 4 + rng.randrange(4) for t in tiles))
    for arr in puzzles:
        for cell in CELLS:
            for direction in ALL_DIRS:
                assert apply_card(arr, cell, card, direction) == reference(arr, cell, card, direction), (
                    card, cell, direction, arr)


def test_the_cards_effects_on_examples():
    a = MARKED
    assert apply_card(a, 4, "g1", None)[4] == 4 * 4 + 1  # centre tile (rotation 0) turned once
    assert apply_card(a, 3, "g2", None)[3] == 3 * 4 + 2  # rotation 3 - 1
    assert apply_card(a, 1, "g3", None)[1] == 1 * 4 + 3
    assert apply_card(a, 0, "b1", "e") == swapped(a, 0, 1)
    assert apply_card(a, 4, "b2", "sw") == swapped(a, 4, 6)
    assert apply_card(a, 2, "b3", None) == swapped(a, 2, 6)
    assert apply_card(a, 5, "b4", None) == swapped(a, 5, 3)
    # B5 from the left end of the top row to the right: the other two shift one step left
    assert apply_card(a, 0, "b5", "e")[:3] == (a[1], a[2], a[0])
    col = apply_card(a, 6, "b5", "n")
    assert (col[0], col[3], col[6]) == (a[6], a[0], a[3])
    # moving never turns a tile (decision 7)
    assert sorted(apply_card(a, 0, "b3", None)) == sorted(a)


def test_undefined_placements_do_nothing():
    a = MARKED
    assert apply_card(a, 0, "b1", "n") == a and apply_card(a, 0, "b1", "w") == a  # off the grid
    assert apply_card(a, 1, "b2", "ne") == a
    assert apply_card(a, 1, "b3", None) == a and apply_card(a, 4, "b3", None) == a  # not a corner
    assert apply_card(a, 0, "b4", None) == a and apply_card(a, 4, "b4", None) == a  # centre is no edge
    for d in ("n", "e", "s", "w"):
        assert apply_card(a, 4, "b5", d) == a  # never the centre
    assert apply_card(a, 1, "b5", "e") == a and apply_card(a, 2, "b5", "e") == a  # not the end it leaves
    assert apply_card(a, 1, "b5", "s") != a
    assert apply_card(a, 0, "b1", "ne") == a  # a diagonal arrow on an orthogonal card
    assert apply_card(a, 0, "g1", "n") == apply_card(a, 0, "g1", None)  # no arrow to matter


def test_red_cards_send_the_tile_to_its_own_cell():
    a = swapped(MARKED, 0, 8)  # tile 8 (rotation 0) in cell 0, tile 0 (rotation 0) in cell 8
    a = apply_card(a, 0, "g1", None)  # tile 8 now turned once
    r1 = apply_card(a, 0, "r1", None)
    assert r1[8] == 8 * 4 + 1 and r1[0] == 0  # moved, not turned; the other tile swapped in
    r2 = apply_card(a, 0, "r2", None)
    assert r2[8] == 8 * 4 and r2[0] == 0  # moved and turned upright
    b = list(MARKED)
    b[5], b[2] = 2 * 4 + 1, 5 * 4 + 3  # tile 2 in cell 5 turned once; tile 5 in cell 2 turned 3 times
    r2 = apply_card(tuple(b), 5, "r2", None)
    assert r2[2] == 2 * 4 and r2[5] == 5 * 4 + 3  # the displaced tile keeps its rotation
    # already in its cell: R1 does nothing, R2 turns it upright
    assert apply_card(MARKED, 3, "r1", None) == MARKED
    assert apply_card(MARKED, 3, "r2", None)[3] == 3 * 4


def test_programs_run_in_reading_order_on_whatever_tile_is_there():
    # B1 right from cell 1 moves tile 1 into cell 2, where G1 then turns it
    after = run_placements(SOLVED, [(2, "g1", None), (1, "b1", "e")])
    assert after[2] == 1 * 4 + 1 and after[1] == 2 * 4
    # G1 in cell 1 acts before B1 left in cell 2 brings tile 2 there: tile 1 is turned, tile 2 not
    after = run_placements(SOLVED, [(1, "g1", None), (2, "b1", "w")])
    assert after[2] == 1 * 4 + 1 and after[1] == 2 * 4
    # a tile moved back into an earlier cell is not acted on again
    after = run_placements(SOLVED, [(0, "g3", None), (3, "b1", "n")])
    assert after[0] == 3 * 4 and after[3] == 0 * 4 + 2


def test_solved_means_upright_at_a_table_and_any_turn_of_the_photo_alone():
    for k in range(4):
        assert solved_in(k) == turn_whole(SOLVED, k)
        assert is_solved(solved_in(k), any_rotation=True)
        assert is_solved(solved_in(k), any_rotation=False) == (k == 0)


def test_the_card_rules():
    hand = list(CARDS)
    assert check_program([(0, "g1", None), (0, "g2", None)], hand) == "one card per cell"
    assert check_program([(0, "g1", None), (1, "g1", None)], hand) == "each card once"
    assert check_program([(0, "r1", None), (1, "r2", None)], hand) == "at most one red card"
    assert check_program([(0, "r1", None)], [c for c in CARDS if c != "r1"]) == "only cards in hand"
    assert check_program([(0, "r1", None), (1, "g1", None)], hand) is None


# --- invariants under hypothesis ----------------------------------------------------------------------------
placements = st.lists(st.tuples(st.sampled_from(CELLS), st.sampled_from(CARDS), st.sampled_from(ALL_DIRS)),
                      max_size=12)


@settings(max_examples=150, deadline=None)
@given(perm=st.permutations(list(CELLS)), rots=st.lists(st.integers(0, 3), min_size=9, max_size=9),
       steps=placements)
def test_the_nine_tiles_stay_a_permutation_with_rotations(perm, rots, steps):
    arr = tuple(t * 4 + r for t, r in zip(perm, rots, strict=True))
    for cell, card, direction in steps:
        arr = apply_card(arr, cell, card, direction)
        assert sorted(code >> 2 for code in arr) == list(CELLS)
        assert all(0 <= code & 3 <= 3 for code in arr)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5), pick=st.integers(0, 2**32))
def test_a_program_changes_only_its_own_puzzle_and_cards_are_conserved(seed, players, pick):
    rng = random.Random(pick)
    s = game(players, seed)
    seats = list(range(players))
    # build programs without locking, then check, then lock in everyone
    for _ in range(80):
        seat = rng.choice(seats)
        options = [k for k in keys(s, seat) if k not in ("lock", "hint")]
        s = act(s, seat, rng.choice(options))
        for p in seats:  # cards conserved: each card at most once, at most one red, only cards in hand
            placed = [(c, e[0], e[1]) for c, e in enumerate(s["programs"][p]) if e]
            assert check_program(placed, s["hands"][p]) is None
    before = [from_pairs(p) for p in s["puzzles"]]
    frames = [[tuple(e) if e else None for e in s["programs"][p]] for p in seats]
    hands = [list(h) for h in s["hands"]]
    for seat in seats:
        while s["steps"][seat] is not None:
            s = act(s, seat, "back")
        if seat in E.to_act(s):
            s = act(s, seat, "lock")
    assert s["last_run"]["stage"] == 1  # everyone locked in: stage C ran
    for seat in seats:
        expected = run_placements(before[seat], [(c, e[0], e[1]) for c, e in enumerate(frames[seat]) if e])
        run = next(r for r in s["last_run"]["runs"] if r["seat"] == seat)
        assert from_pairs(run["after"]) == expected
        assert from_pairs(run["before"]) == before[seat]
        # the cards come back, except a red card played (gone for the game)
        played_red = [e[0] for e in frames[seat] if e and e[0] in RED]
        if not s["decider"]:  # (a tie-break round deals full hands again)
            assert sorted(s["hands"][seat]) == sorted(c for c in hands[seat] if c not in played_red)


def test_stage_c_runs_every_program_and_keeps_before_after_and_frames():
    s = game(2, 3)
    start = [from_pairs(p) for p in s["puzzles"]]
    s = program(s, 1, (0, "g1"), (4, "b1", "e"), (8, "r1"))
    s = program(s, 0, (4, "b3"))  # no effect on the centre: still used
    s = act(s, 1, "lock")
    assert s["starter"] == 1 and E.timer(s) == ("sand1", 30.0)
    s, events = E.apply(s, 0, "lock")
    run = E.view(s, None)["last_run"]
    assert [r["seat"] for r in run["runs"]] == [1, 0]  # starting with who turned the timer
    r1, r0 = run["runs"]
    assert r1["cards"] == 3 and [st_["cell"] for st_ in r1["steps"]] == [0, 4, 8]
    assert from_pairs(r1["before"]) == start[1]
    assert r1["frames"][0] == r1["before"] and r1["frames"][-1] == r1["after"] and len(r1["frames"]) == 4
    assert from_pairs(r1["frames"][1]) == apply_card(start[1], 0, "g1", None)
    assert r0["cards"] == 1 and r0["steps"][0]["effect"] is False and r0["after"] == r0["before"]
    assert any("no effect" in e.text for e in events)
    assert r1["program"][4] == {"card": "b1", "dir": "e"} and r1["program"][1] is None
    assert "r1" not in s["hands"][1] and "r2" in s["hands"][1] and len(s["hands"][0]) == 10
    assert s["turn"] == 2 and E.timer(s) is None and not any(s["locked"])
    notes = E.announcements(E.new(2, {}, 3), s)
    # one announcement for the whole stage: every program in one animation, posted above the board
    [note] = notes
    assert note["card"]["kind"] == "runs" and note["before_board"]
    assert [r["seat"] for r in note["card"]["runs"]] == [0, 1] and all("frames" in r for r in note["card"]["runs"])
    assert "{p0}'s program" in note["text"] and "{p1}'s program" in note["text"]


# --- the steps of building a program ------------------------------------------------------------------------
def test_building_a_program_in_small_secret_steps():
    s = game(2, 1)
    first = E.legal_actions(s, 0)
    assert [a.key for a in first] == [f"c{c}" for c in CELLS] + ["lock"]
    assert all(a.secret for a in first if a.key != "lock") and not first[-1].secret
    s = act(s, 0, "c3")
    cards = keys(s, 0)
    assert cards == [f"k{c}" for c in CARDS] + ["back"]
    s = act(s, 0, "kb1")
    assert keys(s, 0) == ["dn", "de", "ds", "dw", "back"]
    labels = {a.key: a.label for a in E.legal_actions(s, 0)}
    assert "no effect" in labels["dw"] and "no effect" not in labels["de"]
    s = act(s, 0, "back")
    assert s["steps"][0] == {"cell": 3}
    s = act(s, 0, "kb1", "de")
    assert s["programs"][0][3] == ["b1", "e"] and s["steps"][0] is None
    s = act(s, 0, "c3", "kb1", "ds")  # its own card again turns the arrow
    assert s["programs"][0][3] == ["b1", "s"]
    s = place(s, 0, 0, "r1")
    s = act(s, 0, "c1")
    assert "kr2" not in keys(s, 0) and "kb1" not in keys(s, 0)  # one red card; each card once
    s = act(s, 0, "back", "c0")
    assert "kr2" in keys(s, 0) and "x" in keys(s, 0)  # the red card's own cell may change it
    s = act(s, 0, "kr2")
    assert s["programs"][0][0] == ["r2", None]
    s = act(s, 0, "c0", "x")
    assert s["programs"][0][0] is None
    s = act(s, 0, "clear")
    assert s["programs"][0] == [None] * 9 and "clear" not in keys(s, 0)
    # every list stays small
    for step in (None, {"cell": 4}, {"cell": 4, "card": "b5"}):
        t = json.loads(E.encode(s))
        t["steps"][0] = step
        assert len(E.legal_actions(t, 0)) <= 20


def test_a_restart_keeps_the_program_and_the_step_in_progress():
    s = place(game(3, 2), 1, 4, "g2")
    s = act(s, 1, "c2", "kb2")
    t = E.decode(E.encode(s))
    assert keys(t, 1) == keys(s, 1) == ["dne", "dse", "dsw", "dnw", "back"]
    t = act(t, 1, "dsw", "lock")
    assert E.timer(E.decode(E.encode(t))) == ("sand1", 30.0)


def test_programs_are_secret_until_stage_c():
    s = program(game(3, 4), 0, (0, "g1"), (1, "b2", "sw"))
    s = act(s, 0, "c5")
    for seat in (None, 1, 2):
        view = E.view(s, seat)
        assert "program" not in view or view.get("seat") != 0
        assert view.get("program") in (None, [None] * 9)
        assert "g1" not in json.dumps(view.get("program"))
    own = E.view(s, 0)
    assert own["program"][0] == {"card": "g1", "dir": None} and own["step"] == {"cell": 5}
    s = act(s, 0, "back", "lock")
    s, events = E.apply(s, 1, "lock")
    assert not any("G1" in e.text or "B2" in e.text for e in events)  # a lock-in tells nothing
    s, events = E.apply(s, 2, "lock")
    assert any("G1" in e.text for e in events)  # stage C reveals
    assert E.view(s, 2)["last_run"]["runs"][0]["program"][0] == {"card": "g1", "dir": None}


# --- the timer ----------------------------------------------------------------------------------------------
def test_the_first_lock_in_turns_the_timer_and_its_end_freezes_every_program():
    s = game(3, 5, timer=45)
    assert E.timer(s) is None
    s = place(s, 1, 0, "g1")
    s = act(s, 1, "c4")  # a choice in progress is dropped when the sand runs out
    s = act(s, 2, "lock")
    assert E.timer(s) == ("sand1", 45.0) and E.to_act(s) == {0, 1}
    s = act(s, 0, "lock")
    assert E.timer(s) == ("sand1", 45.0)
    with pytest.raises(RulesError):
        E.apply(s, SYSTEM, "timer:sand2")
    s, events = E.apply(s, SYSTEM, "timer:sand1")
    assert any("sand runs out" in e.text for e in events)
    run = {r["seat"]: r for r in s["last_run"]["runs"]}
    assert [r["seat"] for r in s["last_run"]["runs"]] == [2, 0, 1]
    assert run[1]["cards"] == 1  # frozen as it stood
    assert s["turn"] == 2 and E.timer(s) is None
    s = act(s, 0, "lock")
    assert E.timer(s) == ("sand2", 45.0)  # a new name every stage B


def test_at_a_turn_based_table_the_sand_timer_names_no_seconds():
    """A turn-based table (``paced``) times the sand itself (a fifth of its pace, docs/rules/globe-twister.md 7b):
    the lock-in button, its log line and the board's words name no seconds; a live game's say them, and its state
    has no ``paced`` key (stored states and logs read as before)."""
    from render.globe_twister.words import _status

    live, paced = game(2, 5, timer=45), E.new(2, {"timer": 45}, 5, paced=True)
    assert "paced" not in live and paced["paced"] is True
    lock = {a.key: a.label for a in E.legal_actions(live, 0)}["lock"]
    assert lock == "Lock in and turn the sand timer (45 s)"
    assert {a.key: a.label for a in E.legal_actions(paced, 0)}["lock"] == "Lock in and turn the sand timer"
    live, said_live = E.apply(live, 0, "lock")
    paced, said_paced = E.apply(paced, 0, "lock")
    assert said_live[0].text == "{p0} locks in and turns the sand timer (45 s)."
    assert said_paced[0].text == "{p0} locks in and turns the sand timer."
    assert E.timer(paced) == E.timer(live) == ("sand1", 45.0)  # the same timer: the table sets its deadline
    names = ["Ana", "Bo"]
    assert _status(E.view(live, None), names) == "Sand timer running (45 s): 1 still programming"
    assert _status(E.view(paced, None), names) == "Sand timer running: 1 still programming"


def test_when_everyone_locks_in_the_stage_ends_at_once():
    s = game(2, 6)
    s = act(s, 0, "lock")
    s = act(s, 1, "lock")
    assert s["last_run"]["stage"] == 1 and E.timer(s) is None
    with pytest.raises(RulesError):
        E.apply(s, SYSTEM, "timer:sand1")


def test_no_timer_the_first_lock_in_stops_everyone():
    s = game(3, 7, no_timer=True)
    s = place(s, 1, 4, "g1")
    s, events = E.apply(s, 0, "lock")
    assert "Stop" in events[0].text and E.timer(s) is None
    assert s["last_run"]["stage"] == 1 and s["last_run"]["starter"] == 0
    assert {r["seat"]: r["cards"] for r in s["last_run"]["runs"]} == {0: 0, 1: 1, 2: 0}


def test_a_timeout_locks_the_idle_player_in_without_turning_the_timer():
    s = place(game(2, 8), 0, 4, "g1")
    s = act(s, 0, "c1")
    s, events = E.apply(s, SYSTEM, "timeout:0")
    assert s["locked"][0] and s["starter"] is None and E.timer(s) is None and s["steps"][0] is None
    s = act(s, 1, "lock")
    assert s["last_run"]["runs"][0]["seat"] == 1 and s["last_run"]["runs"][1]["cards"] == 1
    s = game(2, 8, no_timer=True)
    s = act(s, 1, "c0")
    s, _ = E.apply(s, SYSTEM, "timeout:0")
    assert E.to_act(s) == {1}  # a timeout does not shout "Stop!"


# --- assessment and tiebreakers -----------------------------------------------------------------------------
def one_move_from_solved(s, seat):
    """Puts ``seat``'s puzzle one B1 (cell 0, to the right) away from solved."""
    return with_puzzle(s, seat, swapped(SOLVED, 0, 1))


def test_a_single_solver_wins_and_the_game_ends():
    s = one_move_from_solved(game(3, 9), 2)
    s = place(s, 2, 0, "b1", "e")
    s = act(act(act(s, 2, "lock"), 0, "lock"), 1, "lock")
    assert E.is_over(s)
    result = E.result(s)
    assert result.winners == (2,) and result.scores == (0, 0, 1)
    assert s["travel_log"][0]["winner"] == 2 and s["travel_log"][0]["tiebreak"] is None
    assert E.view(s, None)["winners"] == [2]


def test_a_puzzle_turned_as_a_whole_is_not_solved_at_a_table():
    s = with_puzzle(game(2, 9), 0, solved_in(1))
    s = act(act(s, 0, "lock"), 1, "lock")
    assert not E.is_over(s) and s["turn"] == 2


def test_tiebreak_most_red_cards_left():
    s = one_move_from_solved(one_move_from_solved(game(2, 10), 0), 1)
    s = with_puzzle(s, 1, swapped(SOLVED, 0, 8))
    s = place(s, 0, 0, "b1", "e")
    s = place(s, 1, 0, "r1")  # solves too, but spends a red card
    s = act(act(s, 1, "lock"), 0, "lock")
    assert E.result(s).winners == (0,) and s["travel_log"][0]["tiebreak"] == "most red cards left"


def test_tiebreak_fewest_cards_then_who_turned_the_timer():
    s = one_move_from_solved(one_move_from_solved(game(2, 11), 0), 1)
    s = program(s, 0, (0, "b1", "e"), (4, "b3"))  # the useless card still counts (decision 9)
    s = place(s, 1, 0, "b1", "e")
    s = act(act(s, 0, "lock"), 1, "lock")
    assert E.result(s).winners == (1,) and s["travel_log"][0]["tiebreak"] == "fewest cards in the final turn"
    s = one_move_from_solved(one_move_from_solved(game(2, 11), 0), 1)
    s = place(s, 0, 0, "b1", "e")
    s = place(s, 1, 0, "b1", "e")
    s = act(act(s, 1, "lock"), 0, "lock")
    assert E.result(s).winners == (1,) and s["travel_log"][0]["tiebreak"] == "turned the sand timer"


def test_still_tied_the_tied_players_play_again():
    s = game(3, 12)
    for seat in (0, 1):
        s = one_move_from_solved(s, seat)
        s = place(s, seat, 0, "b1", "e")
    s = act(s, 2, "lock")  # the timer is turned by a player who does not solve
    s = act(act(s, 0, "lock"), 1, "lock")
    assert not E.is_over(s) and s["decider"] == 1 and s["active"] == [0, 1] and E.to_act(s) == {0, 1}
    assert s["hands"][0] == list(CARDS) and s["turn"] == 1
    view = E.view(s, None)
    assert view["active"] == [0, 1] and view["decider"] == 1
    s = one_move_from_solved(s, 1)
    s = place(s, 1, 0, "b1", "e")
    s = act(act(s, 1, "lock"), 0, "lock")
    assert E.result(s).winners == (1,) and s["travel_log"][0]["deciders"] == 1


def test_nobody_solves_cards_come_back_red_cards_played_are_gone():
    s = game(2, 13)
    s = place(s, 0, 4, "r2")
    s = act(act(s, 0, "lock"), 1, "lock")
    assert not E.is_over(s)  # seed 13: nobody's puzzle is solved by these programs
    assert s["hands"][0] == [c for c in CARDS if c != "r2"] and s["hands"][1] == list(CARDS)
    assert E.view(s, None)["red_left"] == [1, 2]
    s = act(s, 0, "c4")
    assert "kr2" not in keys(s, 0)


def test_the_turn_limit_ends_a_round_without_a_winner():
    s = game(2, 14, turn_limit=2)
    for _ in range(2):
        s = act(act(s, 0, "lock"), 1, "lock")
    assert E.is_over(s) and s["travel_log"][0]["winner"] is None
    assert E.result(s).scores == (0, 0)
    assert "nobody" in E.result_lines(s)[0]


# --- variants -----------------------------------------------------------------------------------------------
def test_no_red_cards():
    s = game(2, 15, no_red=True)
    assert s["hands"][0] == [c for c in CARDS if c not in RED]
    s = act(s, 0, "c0")
    assert not {"kr1", "kr2"} & set(keys(s, 0))


def test_photo_sides_and_the_travel_log_moves_the_sets():
    s = game(3, 16)
    assert [E.photo_of(s, p) for p in range(3)] == ["polar"] * 3
    s = game(3, 16, photo="back", travel_log=True)
    photos = [E.photo_of(s, p) for p in range(3)]
    assert len(set(photos)) == 3 and "polar" not in photos and s["rounds"] == 3
    seen = [set() for _ in range(3)]
    for rnd in range(3):
        assert s["round"] == rnd
        for p in range(3):
            seen[p].add(E.photo_of(s, p))
        winner = rnd % 2
        s = one_move_from_solved(s, winner)
        s = place(s, winner, 0, "b1", "e")
        s = act(s, winner, "lock")
        for p in range(3):
            if p in E.to_act(s):
                s = act(s, p, "lock")
    assert all(len(x) == 3 for x in seen)  # every player covered every region of the table
    assert E.is_over(s) and s["wins"] == [2, 1, 0] and E.result(s).winners == (0,)
    assert [e["winner"] for e in s["travel_log"]] == [0, 1, 0]
    assert E.result_lines(s)[-1].startswith("Round wins")


def test_one_region_for_everyone():
    s = game(3, 16, photo="asia", travel_log=True)
    assert [E.photo_of(s, p) for p in range(3)] == ["asia"] * 3
    assert [p["photo"] for p in E.view(s, None)["photos"]] == ["asia"] * 3


def test_each_player_chooses_a_side():
    s = game(2, 17, photo="choose")
    assert s["phase"] == "side" and E.to_act(s) == {0, 1}
    assert keys(s, 0) == ["front", "back"]
    s = act(s, 1, "back")
    assert E.to_act(s) == {0}
    s, _ = E.apply(s, SYSTEM, "timeout:0")  # an idle player gets the front
    assert s["phase"] == "program" and s["sides"] == ["front", "back"]
    assert E.photo_of(s, 0) == "polar" and E.photo_of(s, 1) == s["regions"][1]
    assert all(p is not None for p in s["puzzles"])


def test_options_are_checked():
    with pytest.raises(RulesError):
        game(2, 1, puzzle="tourist")
    with pytest.raises(RulesError):
        game(1, 1, number=3)
    with pytest.raises(RulesError):
        game(6, 1)
    with pytest.raises(RulesError):
        game(1, 1, puzzle="tourist", number=PUZZLES_PER_LEVEL + 1)


# --- leaving ------------------------------------------------------------------------------------------------
def test_leaving():
    s = game(3, 18)
    s = act(s, 0, "lock")
    s, _ = E.apply(s, SYSTEM, "leave:2")
    assert E.to_act(s) == {1}
    s = act(s, 1, "lock")
    assert [r["seat"] for r in s["last_run"]["runs"]] == [0, 1]
    s, _ = E.apply(s, SYSTEM, "leave:1")
    assert E.is_over(s) and E.result(s).winners == (0,)
    s = game(1, 18)
    s, _ = E.apply(s, SYSTEM, "leave:0")
    assert E.is_over(s) and E.result(s).scores == (0,)


def test_a_tie_break_round_left_by_one_is_won_by_the_other():
    s = game(3, 12)
    for seat in (0, 1):
        s = one_move_from_solved(s, seat)
        s = place(s, seat, 0, "b1", "e")
    s = act(act(act(s, 2, "lock"), 0, "lock"), 1, "lock")
    assert s["decider"] == 1
    s, _ = E.apply(s, SYSTEM, "leave:0")
    assert E.is_over(s) and E.result(s).winners == (1,)


# --- solo ---------------------------------------------------------------------------------------------------
def test_solo_practice_counts_any_turn_of_the_photo():
    s = game(1, 19)
    view = E.view(s, 0)
    assert view["solo"]["level"] is None and view["solo"]["par"] is None and view["any_rotation"]
    s = with_puzzle(s, 0, swapped(solved_in(2), 4, 5))
    s = place(s, 0, 4, "b1", "e")
    s = act(s, 0, "lock")
    assert E.is_over(s) and E.result(s).scores == (1,)


@pytest.mark.parametrize("level", LEVELS)
def test_solo_levels_show_their_par_and_hints_follow_a_known_solution(level):
    s = game(1, 20, puzzle=level, number=3)
    puzzle = shipped_puzzles()[level][2]
    assert s["puzzles"][0] == puzzle["tiles"]
    view = E.view(s, 0)
    assert view["solo"]["par"] == puzzle["par"] and view["solo"]["red"] == puzzle["red"]
    assert view["solo"]["level"] == level and view["solo"]["number"] == 3
    assert ("r1" in s["hands"][0]) == puzzle["red"]
    for turn in range(puzzle["par"]["turns"]):
        while "hint" in keys(s, 0):
            s = act(s, 0, "hint")
        hints = E.view(s, 0)["solo"]["hints"]
        assert [[h["cell"], h["card"], h["dir"]] for h in hints] == puzzle["solution"][turn]
        assert "hints" not in E.view(s, None)["solo"]  # the panel's, not the channel's
        for h in hints:
            s = place(s, 0, h["cell"], h["card"], h["dir"])
        s = act(s, 0, "lock")
    assert E.is_over(s)
    detail = E.result(s).detail["solo"]
    assert detail["solved"] and detail["turns"] == puzzle["par"]["turns"]
    assert detail["cards"] == puzzle["par"]["cards"] and detail["hints_used"] == puzzle["par"]["cards"]
    assert "made it" in E.result_lines(s)[0]


def test_solo_hint_after_leaving_the_known_path_finds_a_new_solution():
    s = game(1, 21, puzzle="tourist", number=1)
    s = place(s, 0, 4, "g1")
    s = act(s, 0, "lock")
    assert not E.is_over(s) and s["solo"]["plan"] is None
    s = act(s, 0, "hint")
    found = s["solo"]["plan"]
    arr = from_pairs(s["puzzles"][0])
    for program_ in found:
        arr = run_placements(arr, [tuple(p) for p in program_])
    assert arr in TARGETS_ANY
    assert E.view(s, 0)["solo"]["hints"][0] == dict(zip(("cell", "card", "dir"), found[0][0], strict=True))


def test_a_fresh_level_puzzle_comes_from_the_seed():
    a, b = game(1, 22, puzzle="globetrotter"), game(1, 22, puzzle="globetrotter")
    assert a == b and a["solo"]["par"]["turns"] == 2
    assert needs_two_turns(from_pairs(a["puzzles"][0]), a["solo"]["red"])
    c = game(1, 23, puzzle="globetrotter")
    assert c["puzzles"] != a["puzzles"]


def test_practice_hints_solve_random_scrambles():
    for seed in range(4):
        s = game(1, 100 + seed)
        for _turn in range(10):
            while "hint" in keys(s, 0):
                s = act(s, 0, "hint")
            for h in E.view(s, 0)["solo"]["hints"]:
                s = place(s, 0, h["cell"], h["card"], h["dir"])
            s = act(s, 0, "lock")
            if E.is_over(s):
                break
        assert E.result(s).scores == (1,)


# --- the solver and the shipped puzzles ---------------------------------------------------------------------
def brute_force_min(arr, limit, red=True):
    """The fewest cards (up to ``limit``) of a one-turn solution, by trying every program."""
    opts = {c: [(card, d) for card, d, *_ in placements_at(c) if red or card not in RED] for c in CELLS}
    for k in range(limit + 1):
        for cells in itertools.combinations(CELLS, k):
            for choice in itertools.product(*[opts[c] for c in cells]):
                cards = [x[0] for x in choice]
                if len(set(cards)) < k or sum(c in RED for c in cards) > 1:
                    continue
                if run_placements(arr, [(c, *x) for c, x in zip(cells, choice, strict=True)]) in TARGETS_ANY:
                    return k
    return None


def test_the_exact_search_agrees_with_trying_every_program():
    rng = SeedRng(5)
    from games.globe_twister.solver import random_program, undo_program

    checked = 0
    while checked < 12:
        prog = random_program(rng, 1 + rng.below(2), red=rng.below(2) == 0)
        arr = undo_program(solved_in(0), prog, rng)
        if arr is None:
            continue
        if checked % 3 == 0:
            arr = apply_card(arr, rng.below(9), "g1", None)  # sometimes out of reach
        red = checked % 4 != 1
        found = min_one_turn(arr, red=red, max_cards=2)
        expected = brute_force_min(arr, 2, red)
        assert (None if found is None else len(found)) == expected
        if found is not None:
            assert run_placements(arr, found) in TARGETS_ANY
        checked += 1


def test_swapping_two_tiles_a_knight_move_apart_needs_a_red_card():
    arr = swapped(SOLVED, 0, 7)
    assert min_one_turn(arr, red=False, max_cards=4) is None
    assert min_one_turn(arr) == [(0, "r1", None)]


def check_solution(puzzle):
    """The known solution keeps the card rules over its turns and solves the puzzle in par."""
    arr = from_pairs(puzzle["tiles"])
    reds = list(RED) if puzzle["red"] else []
    hand = [c for c in CARDS if c not in RED]
    assert not is_solved(arr, any_rotation=True)
    for i, turn in enumerate(puzzle["solution"]):
        turn = [tuple(p) for p in turn]
        assert check_program(turn, hand + reds) is None
        arr = run_placements(arr, turn)
        reds = [c for c in reds if c not in {p[1] for p in turn}]
        assert is_solved(arr, any_rotation=True) == (i == len(puzzle["solution"]) - 1)
    assert len(puzzle["solution"]) == puzzle["par"]["turns"]
    assert sum(map(len, puzzle["solution"])) == puzzle["par"]["cards"]


def test_every_shipped_puzzle_has_a_proven_par():
    levels = shipped_puzzles()
    assert list(levels) == list(LEVELS)
    seen = set()
    for level, puzzles in levels.items():
        spec = LEVEL_SPECS[level]
        assert len(puzzles) == PUZZLES_PER_LEVEL
        for puzzle in puzzles:
            key = json.dumps(puzzle["tiles"])
            assert key not in seen
            seen.add(key)
            assert sorted(t for t, _ in puzzle["tiles"]) == list(CELLS)
            assert puzzle["red"] == spec["red"]
            check_solution(puzzle)
            arr = from_pairs(puzzle["tiles"])
            par = puzzle["par"]
            assert spec["cards"][0] <= par["cards"] <= spec["cards"][1]
            if par["turns"] == 1:
                # no shorter one-turn solution exists
                assert min_one_turn(arr, red=puzzle["red"], max_cards=par["cards"] - 1) is None
                assert puzzle["proof"] == "minimal"
            else:
                # one turn cannot do it (the rotation argument), the known solution bounds the rest
                assert needs_two_turns(arr, puzzle["red"])
                assert min_one_turn(arr, red=puzzle["red"], max_cards=9, node_limit=50_000) is None
                assert spec.get("min_turns", spec["turns"]) <= par["turns"] <= spec["turns"]


def test_the_rotation_argument():
    # four tiles turned: three greens and Red 2 can do it in one turn, three greens alone cannot
    arr = (0 * 4 + 3, 1 * 4 + 1, 2 * 4 + 2, 3 * 4 + 1, 16, 20, 24, 28, 32)
    assert not needs_two_turns(arr, red=True) and needs_two_turns(arr, red=False)
    assert len(min_one_turn(arr, red=True)) == 4 and min_one_turn(arr, red=False) is None
    # the argument is only a bound: four tiles each turned once cannot be fixed in one turn even with Red 2
    arr = tuple(t * 4 + (1 if t < 4 else 0) for t in CELLS)
    assert not needs_two_turns(arr, red=True) and min_one_turn(arr, red=True) is None


STEPS_WHILE_WAITING = 100_000
"""Cards the solver may try on a position (its unit of work) to make one fresh puzzle: about half a second on
the 2-core test machine (200,000 a second unloaded). The time itself is in the benchmarks (puzzle generation),
not here: a test's verdict must not depend on how busy the machine is."""


@pytest.mark.parametrize("level", LEVELS)
def test_a_fresh_puzzle_of_each_level_is_made_while_the_player_waits(level, monkeypatch):
    steps = 0
    apply_op = solver._apply_op

    def counted(*args):
        nonlocal steps
        steps += 1
        return apply_op(*args)

    monkeypatch.setattr(solver, "_apply_op", counted)  # counts the solver's steps, changes nothing
    rng = SeedRng(77)
    worst = 0
    for _ in range(8):
        solver._plan.cache_clear()  # a plan remembered from another test would hide its search
        steps = 0
        puzzle = generate(level, rng)
        worst = max(worst, steps)
        check_solution(puzzle)
        if puzzle["par"]["turns"] == 1:
            arr = from_pairs(puzzle["tiles"])
            assert min_one_turn(arr, red=puzzle["red"], max_cards=puzzle["par"]["cards"] - 1) is None
    assert 0 < worst <= STEPS_WHILE_WAITING


def test_undoing_a_card_then_playing_it_gives_back_the_position():
    rng = SeedRng(3)
    for k in range(4):
        after = solved_in(k)
        for cell in CELLS:
            for card in CARDS:
                for direction in DIRECTIONS.get(card, (None,)):
                    before = undo_card(after, cell, card, direction, rng)
                    if before is not None:
                        assert apply_card(before, cell, card, direction) == after


def test_plan_keeps_red_cards_gone():
    arr = swapped(swapped(SOLVED, 0, 7), 2, 3)
    found = plan(arr, CARDS, red=True, red_left=("r2",))
    assert found is not None and not any(p[1] == "r1" for turn in found for p in turn)
    assert sum(p[1] in RED for turn in found for p in turn) <= 1
