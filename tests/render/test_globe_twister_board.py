"""The Globe Twister pictures (docs/rendering.md, "Globe Twister"): the six photos and their tiles, the public
board in stage B, after a run and at the end, the private panel ("My program") and the animated run."""

from __future__ import annotations

import copy
import io

from PIL import Image, ImageChops, ImageSequence, ImageStat

import render
from games.globe_twister.rules import GlobeTwister
from render import globe_twister as gt
from render import render_board, render_card, render_private
from render.common import MARGIN, P_HEADER_H, P_SMALL, PHONE_CANVAS, record_fonts, record_layout, record_texts
from render.globe_twister import photos
from tests.render.test_legibility import LONG, globe_twister_runs, globe_twister_states

E = GlobeTwister()
NAMES = ["Ana", "Bo", "Cy", "Dee", "Eve"]


def texts(view: dict, names=NAMES, last=None) -> list[str]:
    with record_texts() as out:
        render_board("globe_twister", view, names[: view["players"]], last)
    return out


def header_words(view: dict, names=NAMES, seat: int | None = None) -> str:
    """The board's status (the header's second line: one line, or two at ``P_SMALL``), as one sentence; the
    panel's with ``seat``."""
    with record_layout() as (_fits, boxes):
        if seat is None:
            render_board("globe_twister", view, names[: view["players"]])
        else:
            render_private("globe_twister", view, names[seat])
    return " ".join(t for t, box, _size in boxes if 38 <= box[1] and box[3] <= P_HEADER_H)


def panel_texts(view: dict, name: str = "Ana") -> list[str]:
    with record_texts() as out:
        render_private("globe_twister", view, name)
    return out


def png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def state(players: int, tag: str, options=None, seed: int | None = None, solvers=(0,)) -> dict:
    seeds = [seed] if seed is not None else range(players, players + 20)
    for sd in seeds:
        for t, s in gt.sample_states(players, sd, options or {}, solvers):
            if t == tag:
                return s
    raise AssertionError(f"no {tag} state")


def diff(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) / 3


# --- the registry ----------------------------------------------------------------------------------------
def test_globe_twister_is_registered_with_a_panel_and_run_animations():
    assert render.has_board("globe_twister") and render.has_private("globe_twister")
    assert render.has_card("globe_twister") and not render.has_score_sheet("globe_twister")
    assert render.palette("globe_twister") is None  # photos band under a fixed palette: sent as RGB


# --- the photos ------------------------------------------------------------------------------------------
def test_six_photos_drawn_alike_every_time_and_unlike_each_other():
    assert photos.PHOTOS == ("polar", "asia", "north-america", "latin-america", "europe", "africa")
    masters = [photos.master(name) for name in photos.PHOTOS]
    for img in masters:
        assert img.size == (photos.MASTER, photos.MASTER)
    photos._master.cache_clear()
    assert photos.master("asia").tobytes() == masters[1].tobytes()  # deterministic
    for i in range(6):
        for j in range(i + 1, 6):
            assert diff(masters[i], masters[j]) > 30


def test_every_tile_looks_wrong_when_turned():
    """Each tile has its own up: turned a quarter or half turn it differs clearly from itself (a tile with no
    up, like plain sky or sea, would look the same turned)."""
    for name in photos.PHOTOS:
        for index in range(9):
            upright = photos.tile(name, 60, index, 0)
            for rot in (1, 2, 3):
                assert diff(upright, photos.tile(name, 60, index, rot)) > 12, (name, index, rot)


def test_tiles_turn_clockwise_and_come_from_their_own_cell():
    big = photos.photo("europe", 300)
    top_left = big.crop((0, 0, 100, 100))
    assert diff(photos.tile("europe", 100, 0, 0), top_left) < 3
    turned = photos.tile("europe", 100, 0, 1)  # a quarter turn clockwise: the left edge goes on top
    assert diff(turned, top_left.transpose(Image.Transpose.ROTATE_270)) < 1
    assert diff(photos.tile("europe", 100, 8, 2), big.crop((200, 200, 300, 300)).rotate(180)) < 3


# --- the board -------------------------------------------------------------------------------------------
def test_stage_b_shows_every_puzzle_photo_red_cards_and_who_programs():
    s = state(3, "start", {"photo": "back"})
    view = E.view(s, None)
    drawn = texts(view)
    for seat in range(3):
        assert NAMES[seat] in drawn and view["photos"][seat]["name"] in drawn
    assert drawn.count("programming") == 3 and drawn.count("R1") == 3 and drawn.count("R2") == 3
    assert "Everyone: program, then lock in" in drawn
    assert png(render_board("globe_twister", view, NAMES[:3])).size == (PHONE_CANVAS, gt.board_height(view))


def test_a_lock_in_turns_the_timer_and_shows():
    s = E.new(3, {}, 4)
    s, _ = E.apply(s, 1, "lock")
    view = E.view(s, None)
    drawn = texts(view)
    assert "Sand timer running (30 s): 2 still programming" in drawn
    assert drawn.count("locked in") == 1 and drawn.count("programming") == 2
    s2 = E.new(3, {"no_timer": True}, 4)
    assert "Everyone: program; the first lock-in stops all" in texts(E.view(s2, None))


def test_the_puzzle_is_drawn_as_the_view_turns_its_tiles():
    s = E.new(2, {"photo": "africa"}, 3)
    view = E.view(s, None)
    a = png(render_board("globe_twister", view, NAMES[:2]))
    turned = copy.deepcopy(view)
    turned["puzzles"][0][4][1] = (turned["puzzles"][0][4][1] + 1) % 4
    b = png(render_board("globe_twister", turned, NAMES[:2]))
    box = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox()
    assert box is not None and box[3] <= P_HEADER_H + 8 + gt.BLOCK_H  # only the first player's centre tile changed
    x0, y0, x1, y1 = box
    assert abs((x1 - x0) - gt.board.T) <= 2 and abs((y1 - y0) - gt.board.T) <= 2


def test_right_after_a_run_each_program_shows():
    """The puzzle after it and the program played; the puzzle before it is the run's animation's (posted just
    before the board), not the board's: it would not fit a row at a legible size."""
    s = state(3, "run")
    view = E.view(s, None)
    assert gt.shown_run(view) is not None
    drawn = texts(view)
    assert drawn.count("program") == 3 and "before" not in drawn
    assert f"Turn 1 played, nobody rebuilt: program turn {view['turn']}" in drawn
    for run in view["last_run"]["runs"]:
        for entry in run["program"]:
            if entry:
                assert gt.SHORT_NAMES[entry["card"]] in drawn
    # someone locks in: stage B again
    seat = view["to_act"][0]
    s, _ = E.apply(s, seat, "lock")
    view = E.view(s, None)
    assert gt.shown_run(view) is None and "program" not in texts(view)


def test_the_end_names_the_winner_and_keeps_the_last_run():
    s = state(2, "over", {"photo": "asia"}, solvers=(1,), seed=6)
    view = E.view(s, None)
    assert view["winners"] == [1]
    drawn = texts(view)
    assert "Bo wins!" in drawn and "wins" in drawn and "program" in drawn
    s = state(1, "over", {"turn_limit": 2}, seed=5, solvers=())
    assert "Not rebuilt: nobody won" in texts(E.view(s, None))


def test_nobody_wins_when_no_photo_was_rebuilt():
    """Not a shared victory: no winner in the result, no "wins" or gold banner on the board (solo too)."""
    for players, seed in ((3, 4), (1, 5)):
        s = state(players, "over", {"turn_limit": 1}, seed=seed, solvers=())
        assert all(entry["winner"] is None for entry in s["travel_log"])
        assert E.result(s).winners == () and E.result(s).no_winner
        view = E.view(s, None)
        assert view["winners"] == []
        drawn = texts(view)
        assert ("Nobody rebuilt a photo: nobody won" if players > 1 else "Not rebuilt: nobody won") in drawn
        assert "wins" not in drawn
        image = png(render_board("globe_twister", view, NAMES[:players])).convert("RGB")
        banner = image.crop((40, 44, 560, 94))  # the header's second line: a gold banner when someone won
        gold = dict((c, n) for n, c in banner.getcolors(1 << 16)).get(gt.HIGHLIGHT, 0)
        assert gold < 0.2 * banner.width * banner.height  # gold letters, not a gold banner


def test_solo_shows_the_level_par_and_progress():
    s = state(1, "run", {"puzzle": "backpacker", "number": 2}, seed=3)
    view = E.view(s, None)
    drawn = texts(view)
    assert "Backpacker" in drawn and "par 2 turns, 4 cards" in drawn and "red cards not allowed" in drawn
    assert "last program" in drawn and "so far: 1 turn, 3 cards" in drawn
    assert "Backpacker #2 - turn 2" in drawn
    assert "★" not in "".join(drawn)  # the font has no star: drawn as shapes


def test_boards_and_panels_are_drawn_for_the_phone_for_every_player_count_and_long_names():
    """600 px wide (a phone shows them 240 wide: the width limits them) and at most 1200 tall; a board keeps its
    size all game (a row per player)."""
    heights: dict[int, set[int]] = {}
    for what, s in globe_twister_states():
        view = E.view(s, None)
        img = png(render_board("globe_twister", view, LONG[: s["players"]], "x"))
        assert img.width == PHONE_CANVAS and img.height <= 1200, (what, img.size)
        assert img.mode == "RGB", what
        if s["players"] > 1:
            heights.setdefault(s["players"], set()).add(img.height)
        for seat in range(s["players"]):
            panel_img = png(render_private("globe_twister", E.view(s, seat), LONG[seat]))
            assert panel_img.width == PHONE_CANVAS and panel_img.height <= 1200, (what, seat, panel_img.size)
    assert sorted(heights) == [2, 3, 4, 5] and all(len(h) == 1 for h in heights.values()), heights


def test_every_player_gets_a_row_and_no_footer():
    view = E.view(state(5, "start", {"photo": "back"}), None)
    drawn = texts(view, last="Ana locked in")
    assert "Ana locked in" not in drawn  # the message says the last move
    assert gt.board_height(view) == P_HEADER_H + 8 + 5 * gt.BLOCK_H + 4 * 8 + 8


# --- the private panel -----------------------------------------------------------------------------------
def test_the_panel_shows_the_step_cards_placed_and_what_each_card_does():
    s = E.new(2, {}, 1)
    for key in ("c0", "kb1", "de", "c4", "kg1", "c8"):
        s, _ = E.apply(s, 0, key)
    view = E.view(s, 0)
    drawn = panel_texts(view)
    assert "Cell 9 (bottom right): pick a card" in drawn
    assert "in cell 1" in drawn and "in cell 5" in drawn
    assert "swap opposite corners" in drawn and "to its own cell, upright" in drawn
    assert "YOUR PUZZLE" in drawn and "REBUILD" in drawn and "Polar region" in drawn
    s, _ = E.apply(s, 0, "kb5")
    assert "Cell 9: point B5's arrow" in panel_texts(E.view(s, 0))
    s, _ = E.apply(s, 0, "back")
    s, _ = E.apply(s, 0, "back")
    s, _ = E.apply(s, 0, "lock")
    assert "Locked in: waiting for the others" in panel_texts(E.view(s, 0))


def test_the_panel_marks_the_step_on_the_puzzle_and_the_frame():
    s = E.new(1, {}, 2)
    plain = png(render_private("globe_twister", E.view(s, 0), "Ana"))
    s, _ = E.apply(s, 0, "c4")
    stepping = png(render_private("globe_twister", E.view(s, 0), "Ana"))
    box = ImageChops.difference(plain.convert("RGB"), stepping.convert("RGB")).getbbox()
    assert box is not None
    # gold on the centre tile of the puzzle and on cell 5 of the frame
    img = stepping.convert("RGB")
    x = MARGIN + 6 + 2 + gt.PRIVATE_T + gt.GAP + 2
    y = P_HEADER_H + 12 + 40 + gt.PRIVATE_T + gt.GAP + gt.PRIVATE_T // 2
    assert img.getpixel((x, y)) == gt.HIGHLIGHT


def test_red_cards_played_are_gone_and_hints_show():
    s = E.new(2, {}, 1)
    for seat, key in ((0, "c0"), (0, "kr1"), (0, "lock"), (1, "lock")):
        s, _ = E.apply(s, seat, key)
    assert "r1" not in s["hands"][0]
    assert "played: gone" in panel_texts(E.view(s, 0)) and "played: gone" not in panel_texts(E.view(s, 1))
    s, _ = E.apply(s, 1, "lock")  # stage B again: the red cards under each photo
    with record_texts() as drawn:
        gt.draw_board(E.view(s, None), NAMES[:2])
    assert drawn.count("R1") == 2  # Ana's struck through and grey, still named
    s = E.new(1, {"puzzle": "tourist", "number": 1}, 1)
    s, _ = E.apply(s, 0, "hint")
    view = E.view(s, 0)
    drawn = panel_texts(view)
    assert "1 hint (gold)" in drawn and "Tourist" in drawn and "par 1 turn, 3 cards" in drawn


def test_a_side_being_chosen():
    s = E.new(2, {"photo": "choose"}, 1)
    assert header_words(E.view(s, None)) == "Ana & Bo: choose the polar front or your region's back"
    assert header_words(E.view(s, 0), seat=0) == "Choose the polar front or your region's back"


# --- the run, animated -----------------------------------------------------------------------------------
def nine_card_run() -> dict:
    """A run of a full frame: nine cards (the most a program holds)."""
    s = E.new(2, {}, 11)
    keys = ["c0", "kg1", "c1", "kb1", "ds", "c2", "kg2", "c3", "kb2", "dne", "c4", "kg3", "c5", "kb4", "c6", "kb3",
            "c7", "kb5", "dn", "c8", "kr2"]
    for key in keys:
        s, _ = E.apply(s, 0, key)
    before = s
    s, _ = E.apply(s, 0, "lock")
    s, _ = E.apply(s, 1, "lock")
    [note] = E.announcements(before, s)
    run = next(r for r in note["card"]["runs"] if r["seat"] == 0)
    return {"kind": "run", "turn": note["card"]["turn"], **run}


def test_a_stage_is_one_animation_of_every_program_a_row_each():
    """1-5 players: one GIF of every program running at once, drawn for the phone (600 px wide, a row per
    player, no text under ``P_SMALL``), each player named, a frame per card step of the longest program."""
    for players in range(1, 6):
        s = next(st for tag, st in gt.sample_states(players, 3, {}) if tag == "run")
        note = next(a for a in E.announcements(E.new(players, {}, 3), s))
        card = {**note["card"], "names": NAMES[:players]}
        assert card["kind"] == "runs" and len(card["runs"]) == players and note["before_board"]
        with record_fonts() as sizes, record_texts() as drawn:
            data = render_card("globe_twister", card)
        img = Image.open(io.BytesIO(data))
        assert data[:6] == b"GIF89a" and img.info["loop"] == 0 and len(data) < 1024 * 1024
        assert img.width == PHONE_CANVAS and img.height <= 1100, img.size
        assert min(sizes) >= P_SMALL, players
        longest = max(len(r["steps"]) for r in card["runs"])
        assert img.n_frames == 2 + 2 * longest
        assert all(name in drawn for name in NAMES[:players])
        assert any(t.startswith("Turn 1: the program") for t in drawn)


def test_a_run_is_an_animated_gif_with_a_frame_per_step():
    card = nine_card_run()
    assert card["kind"] == "run" and card["cards"] == 9
    data = render_card("globe_twister", card, "Ana's program")
    assert data[:6] == b"GIF89a"
    img = Image.open(io.BytesIO(data))
    assert img.width <= 600 and len(data) < 1024 * 1024
    frames, durations = [], []
    for frame in ImageSequence.Iterator(img):  # (one image seeking: read each frame as it comes)
        frames.append(frame.convert("RGB"))
        durations.append(frame.info["duration"])
    assert len(frames) == 2 + 2 * 9
    assert durations[0] == gt.FIRST_MS and durations[-1] == gt.LAST_MS
    assert all(800 <= d <= 1000 for d in durations[1:-1:2]) and max(durations[1:-1]) <= 1000
    assert img.info["loop"] == 0
    drawn = gt.run_frames(card, "Ana's program")
    for (expected, _), got in zip(drawn, frames, strict=True):  # what plays is what was drawn
        assert diff(expected, got) < 2.5


def test_a_run_names_each_card_and_what_it_did():
    card = nine_card_run()
    with record_texts() as drawn:
        gt.run_frames(card)
    said = " ".join(drawn)  # (a caption on up to three lines)
    assert "Card 1 of 9: cell 1, G1 turn 90 degrees clockwise" in said
    assert "Card 2 of 9: cell 2, B1 swap with the neighbour (down)" in said
    assert "G1: the tile in cell 1 turned a quarter turn clockwise" in said
    assert "B1: cells 2 and 5 swapped" in said
    assert any(t.startswith("After: ") for t in drawn)


def test_an_empty_program_still_animates():
    card = next(c for _, c in globe_twister_runs() if c["cards"] == 0)
    img = Image.open(io.BytesIO(render_card("globe_twister", card)))
    assert img.n_frames == 2
