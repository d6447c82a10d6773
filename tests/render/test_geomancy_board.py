"""The Geomancy board (docs/rendering.md, "Geomancy"): the chessboard and its coordinates, stones as pyramids
seen from above, the players' hands, prisoners and points, the last cast (landings, recasts and why, knocks),
captures, what the player to act is choosing, the aura overlay and the end."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import i18n
import render
from games.ai import computer_name, stand_in_name
from games.geomancy.model import DIR_NAMES, parse_square
from games.geomancy.rules import OFF_BOARD, Geomancy, forced, size_of
from render import geomancy as gm
from render import render_board
from render.common import PLAYER_COLOURS, has_glyph, least_name, record_layout, record_texts, short_name
from tests.render.test_languages import is_a_name, leaks
from tests.render.test_legibility import geomancy_focuses, geomancy_states

E = Geomancy()
NAMES = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay"]
RED, BLUE = 0, 1
S, M, L = 1, 2, 3


def sq(name: str) -> int:
    return parse_square(name)


def blank(players: int = 2, rnd: int = 1) -> dict:
    s = E.new(players, {}, 0)
    s["round"] = rnd
    s["start"] = s["current"] = 0
    return s


def place(s: dict, owner: int, size: int, square: str, direction: str = "N") -> int:
    per = s["per"]
    stone = next(i for i in s["hands"][owner] if size_of(per, i) == size)
    s["hands"][owner].remove(stone)
    s["board"][sq(square)].append(stone)
    s["dirs"][stone] = DIR_NAMES.index(direction)
    return stone


def set_hand(s: dict, seat: int, *sizes: int) -> list[int]:
    per = s["per"]
    pool = list(s["hands"][seat])
    chosen: list[int] = []
    for size in sizes:
        chosen.append(next(i for i in pool if size_of(per, i) == size and i not in chosen))
    s["hands"][seat] = sorted(chosen)
    return sorted(chosen, key=lambda i: (-size_of(per, i), i))


def texts(view: dict, names=NAMES, last=None, focus=None) -> list[str]:
    with record_texts() as out:
        render_board("geomancy", view, names[: view["players"]], last, focus)
    return out


def png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


# --- the registry ----------------------------------------------------------------------------------------
def test_geomancy_is_registered_with_the_aura_overlay():
    assert render.has_board("geomancy") and not render.has_private("geomancy")
    assert gm.OVERLAYS == {"auras": "Auras"}
    assert render.overlays("geomancy") == {"auras": "Auras"}


# --- the board -------------------------------------------------------------------------------------------
def test_the_start_names_coordinates_players_the_round_and_whose_turn_it_is():
    s = E.new(3, {}, 1)
    view = E.view(s, None)
    drawn = texts(view)
    for k in range(8):
        assert "abcdefgh"[k] in drawn and str(k + 1) in drawn
    for seat in range(3):
        assert NAMES[seat] in drawn
    assert drawn.count("0 pts") == 3
    assert "Round 1 of 3: small stones" in drawn
    seat = view["current"]
    assert f"{NAMES[seat]}: cast 5 stones, turn one or pass" in drawn


def test_every_stone_shows_its_owner_size_and_direction():
    """Colour and a dark mark per seat (never colour alone); the footprint grows with the size; the tip points
    the stone's way (north up, east right)."""
    assert gm.STONE_L[0] < gm.STONE_L[1] < gm.STONE_L[2] and gm.STONE_W[0] < gm.STONE_W[1] < gm.STONE_W[2]
    for seat in range(6):
        sprite = gm.stone_sprite(seat, 3, 0)
        colours = {c[:3] for _, c in sprite.getcolors(sprite.width * sprite.height) if c[3] == 255}
        assert gm.INK in colours and set(gm.face_colours(seat)) <= colours, seat
    areas = [gm.stone_sprite(0, size, 0).getchannel("A").point(lambda a: a > 128 and 255).histogram()[255]
             for size in (1, 2, 3)]
    assert areas[0] < areas[1] < areas[2]
    north = gm.stone_sprite(0, 3, 0).getchannel("A").getbbox()
    east = gm.stone_sprite(0, 3, 2).getchannel("A").getbbox()
    assert north[3] - north[1] > north[2] - north[0]  # taller than wide
    assert east[2] - east[0] > east[3] - east[1]  # wider than tall
    # the tip: the top half of a north stone is narrower than its bottom half
    alpha = gm.stone_sprite(0, 3, 0).getchannel("A")
    w, h = alpha.size
    top = alpha.crop((0, 0, w, h // 2)).point(lambda a: a > 128 and 255).histogram()[255]
    bottom = alpha.crop((0, h // 2, w, h)).point(lambda a: a > 128 and 255).histogram()[255]
    assert top < bottom
    assert len({gm.stone_sprite(1, 2, d).tobytes() for d in range(8)}) == 8


def test_stones_are_drawn_where_they_lie():
    s = blank()
    place(s, RED, S, "a1", "N")
    place(s, BLUE, S, "h8", "S")
    img = gm.draw_board(E.view(s, None), NAMES[:2])
    for name, seat in (("a1", RED), ("h8", BLUE)):
        x0, y0, x1, y1 = gm.square_box(sq(name))
        inside = {c for _, c in img.crop((x0, y0, x1, y1)).getcolors(4096)}
        assert set(gm.face_colours(seat)) <= inside, name
    x0, y0, x1, y1 = gm.square_box(sq("d4"))
    assert len(img.crop((x0, y0, x1, y1)).getcolors(4096)) == 1  # an empty square: one flat colour
    assert gm.square_box(sq("a1"))[1] > gm.square_box(sq("a8"))[1]  # rank 1 at the bottom


def test_a_cast_shows_where_each_stone_landed_and_which_came_back_and_why():
    s = blank(rnd=2)
    resident = place(s, BLUE, S, "c3", "N")
    set_hand(s, RED, M, S, S)
    s, _ = E.cast(s, RED, sq("d4"), [forced("e4", "NE", knocks=(resident,)), forced("d5", upright=True),
                                     OFF_BOARD])
    view = E.view(s, None)
    drawn = texts(view)
    assert "Ana cast 3 at d4" in drawn
    assert "landed" in drawn and "recast: upright" in drawn and "recast: off the board" in drawn
    knock = view["last_cast"]["knocks"][0]
    assert f"knocked c3 → {gm.SQUARE_NAMES[knock['to']]}" in drawn
    plain = gm.draw_board(dict(view, last_cast=None, last_turn=None), NAMES[:2])
    marked = gm.draw_board(view, NAMES[:2])
    assert plain.tobytes() != marked.tobytes()
    x0, y0, x1, y1 = gm.square_box(sq("e4"))  # the landed stone's square is framed in the last turn's colour
    assert gm.LAST_TURN in {c for _, c in marked.crop((x0, y0, x1, y1)).getcolors(8192)}


# Colour vision deficiencies (Machado, Oliveira & Fernandes 2009, severity 1), on linear RGB
SIMULATIONS = {
    "typical": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def seen_as(colour: tuple[int, int, int], vision: str) -> tuple[float, float, float]:
    """``colour`` as that vision sees it, in CIE L*a*b* (D65)."""
    linear = [c / 255 / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in colour]
    r, g, b = (min(1.0, max(0.0, sum(m * v for m, v in zip(row, linear, strict=True))))
               for row in SIMULATIONS[vision])
    xyz = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b, \
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def colour_distance(a, b, vision: str) -> float:
    """CIE76 delta E between two colours as that vision sees them (about 2: just noticeable; over 20: plainly
    different colours)."""
    return sum((u - v) ** 2 for u, v in zip(seen_as(a, vision), seen_as(b, vision), strict=True)) ** 0.5


def test_the_last_turn_is_marked_in_a_colour_no_player_has_for_every_colour_vision():
    """The frames, crosshair and arrows of the last turn (and its lines in the panel) are drawn in one colour
    that is plainly none of the six players' stone colours, also with protanopia, deuteranopia and tritanopia
    (they were sky blue, the first player's colour)."""
    s = blank(rnd=2)
    set_hand(s, RED, M, S)
    s, _ = E.cast(s, RED, sq("d4"), [forced("e4", "NE"), OFF_BOARD])
    board = gm.draw_board(E.view(s, None), NAMES[:2])
    x0, y0, x1, y1 = gm.square_box(sq("e4"))
    frame = board.getpixel((x0 + 1, (y0 + y1) // 2))  # the frame's left side, clear of the stone
    for seat, stone in enumerate(PLAYER_COLOURS[:E.max_players]):
        for vision in SIMULATIONS:
            assert colour_distance(frame, stone, vision) > 20, (frame, seat, stone, vision)


def test_a_tie_and_a_landing_capture_are_named():
    s = blank(rnd=2)
    blue_m = place(s, BLUE, M, "e4", "N")
    blue_s = place(s, BLUE, S, "b2", "N")
    set_hand(s, RED, M, M)
    s, _ = E.cast(s, RED, sq("e4"), [forced("e4", "E"), forced("b2", "W")])
    view = E.view(s, None)
    assert {r["reason"] for r in view["last_cast"]["recasts"]} == {"tie"}
    assert [c["id"] for c in view["last_captures"]] == [blue_s]
    drawn = texts(view)
    assert "recast: a tie" in drawn and "b2: Ana landed on it" in drawn
    assert blue_m in s["hands"][BLUE]


def test_an_aura_capture_is_marked_and_named():
    s = blank(rnd=3)
    place(s, BLUE, S, "d6", "N")
    set_hand(s, RED, L)
    s, _ = E.cast(s, RED, sq("d4"), [forced("d4", "N")])  # a large sends 3 into d5, 2 into d6: d6 falls
    view = E.view(s, None)
    cap = view["last_captures"][0]
    assert cap["how"] == "aura" and cap["square"] == sq("d6")
    drawn = texts(view)
    assert f"d6: Ana's aura {cap['strength']} took it" in drawn
    assert "1 prisoner" in drawn


def test_the_aim_rank_is_gold_and_named():
    s = blank()
    focus = E.focus(s, 0, "Aim at rank 4")
    drawn = texts(E.view(s, None), focus=focus)
    assert [t for t in drawn if len(t) == 2 and t[1] == "4" and t[0].isalpha()] == [f"{f}4" for f in "abcdefgh"]
    assert "Ana: aim at a square of rank 4" in drawn
    img = gm.draw_board(E.view(s, None), NAMES[:2], None, focus)
    x0, y0, x1, y1 = gm.square_box(sq("e4"))
    assert gm.GOLD_SQ in {c for _, c in img.crop((x0, y0, x1, y1)).getcolors(8192)}


def test_turning_a_stone_marks_the_stones_and_the_directions_on_offer():
    s = blank()
    place(s, RED, S, "e4", "N")
    place(s, RED, S, "b2", "W")
    view = E.view(s, None)
    focus = E.focus(s, 0, "Reorient or pass")
    assert focus == {"kind": "reorient", "squares": [sq("b2"), sq("e4")]}
    plain = render_board("geomancy", view, NAMES[:2])
    marked = render_board("geomancy", view, NAMES[:2], None, focus)
    assert plain != marked
    assert "Ana: pick a stone to turn, or pass" in texts(view, focus=focus)
    s, _ = E.apply(s, 0, f"r{sq('e4')}")
    view = E.view(s, None)
    assert "Ana: point the small on e4 a new way" in texts(view)
    s, _ = E.apply(s, 0, "d3")
    drawn = texts(E.view(s, None))
    assert "Ana turned a stone" in drawn and "e4: N → SE" in drawn


def test_a_same_colour_choice_shows_both_stones_to_keep():
    s = blank(rnd=2)
    set_hand(s, RED, M, S)
    s, _ = E.cast(s, RED, sq("e4"), [forced("e4", "E"), forced("e4", "N")])
    view = E.view(s, None)
    assert view["phase"] == "choose"
    drawn = texts(view)
    assert "Ana: keep one of your stones on e4" in drawn
    assert "KEEP ONE ON E4" in drawn and "medium, facing E" in drawn and "small, facing N" in drawn


def test_the_aura_overlay_shows_the_strongest_two_per_square():
    s = blank(3, rnd=3)
    place(s, RED, L, "a1", "N")  # a2: 3, a3: 2, a4: 1
    place(s, BLUE, M, "c2", "W")  # b2: 2, a2: 1
    place(s, 2, S, "b1", "NW")  # a2: 1 as well: three colours on a2, the strongest two shown
    view = E.view(s, None)
    assert view["auras"][sq("a2")] == [3, 1, 1]
    overlay = {"overlay": "auras"}
    drawn = texts(view, focus=overlay)
    assert "AURAS" in drawn and "Auras: their strength on each square" in drawn
    img = gm.draw_board(view, NAMES[:3], None, overlay)
    x0, y0, x1, y1 = gm.square_box(sq("a2"))
    inside = {c for _, c in img.crop((x0, y0, x1, y1)).getcolors(8192)}
    assert PLAYER_COLOURS[RED] in inside and PLAYER_COLOURS[BLUE] in inside  # red 3, then blue 1 (seat order)
    assert PLAYER_COLOURS[2] not in inside
    assert gm.aura_tint(gm.LIGHT_SQ if (0 + 1) % 2 else gm.DARK_SQ, RED) in inside  # red is the strongest there
    plain = gm.draw_board(view, NAMES[:3])
    assert img.tobytes() != plain.tobytes()
    # an overlay this board does not know: the plain board
    assert render_board("geomancy", view, NAMES[:3], None, {"overlay": "x"}) == render_board("geomancy", view,
                                                                                             NAMES[:3])


def test_game_over_names_the_winner_and_the_points():
    s = blank()
    place(s, RED, L, "a1", "N")
    place(s, BLUE, S, "h8", "S")
    s["prisoners"][RED] = [s["hands"][BLUE].pop()]
    s["phase"] = "over"
    view = E.view(s, None)
    drawn = texts(view)
    best = view["scores"][RED]
    assert f"Ana wins with {best} points!" in drawn
    detail = view["score_detail"][RED]
    assert f"board {detail['board']} + prisoners {detail['prisoners']}" in drawn
    assert any(t.startswith("Ana & Bo tie with") for t in texts(dict(view, winners=[0, 1])))


def test_a_player_who_left_is_marked():
    s = E.new(3, {}, 2)
    s, _ = E.apply(s, -1, "leave:1")
    assert "Bo (left)" in texts(E.view(s, None))


def test_every_board_is_600_wide_for_the_phone_and_as_tall_as_it_says():
    """Drawn for the phone (a Components V2 media gallery on a 360 px phone shows it 240 px wide): 600 px wide,
    the board's 8 x 68 px squares and the panel under it (it was 800 x 600 for Discord's 400 x 300 embed)."""
    tallest = 0
    for what, s in geomancy_states():
        view = E.view(s, None)
        for focus in [None, *geomancy_focuses(s)]:
            img = png(render_board("geomancy", view, NAMES[: s["players"]], "Ana casts.", focus))
            overlay = (focus or {}).get("overlay")
            assert img.size == (600, gm.board_height(view, overlay)), (what, focus, img.size)
            tallest = max(tallest, img.height)
    assert tallest <= 1250, tallest


# --- languages ----------------------------------------------------------------------------------------------
LANGUAGE_NAMES = ["Ana", computer_name("strong", 2), stand_in_name("Dee Long"), "Wilhelmina Cholmondeley-Smythe",
                  "Bo", "Eve"]
"""A person, a computer, a computer that took a person's seat, a long name: the harness's seats, and a long one."""


@pytest.fixture(scope="module")
def pseudo():
    code = i18n.install_pseudo()
    yield code
    i18n.remove_language(code)


@pytest.mark.parametrize("locale", ["en", "de", "es", "qps"])
def test_every_stage_reads_in_every_language(locale, pseudo):
    """Every stage for 2-6 players with the overlay, an aim rank and the stones to turn (more than
    tests/render/test_languages.py's four boards), drawn in each language: no label clipped (a name aside), no
    text outside the image, every glyph in the font, and in qps no word left unmarked."""
    clipped, outside, missing, leaked = set(), set(), set(), set()
    for what, s in geomancy_states():
        view = E.view(s, None)
        who = LANGUAGE_NAMES[: s["players"]]
        with i18n.using(locale):
            forms = {str(i18n.here(n)) for n in who} | {short_name(n) for n in who}
            forms |= {f for f in (least_name(n) for n in who) if f}
        forms = sorted(forms, key=len, reverse=True)
        for focus in (None, *geomancy_focuses(s)):
            with record_layout() as (fits, boxes):
                render_board("geomancy", view, who, None, focus, (1, 2), locale=locale)
            clipped |= {(what, asked, drawn) for asked, drawn in fits if drawn != asked and not is_a_name(asked, forms)}
            for text, (x0, y0, x1, y1), (w, h) in boxes:
                if x0 < -1 or y0 < -1 or x1 > w + 1 or y1 > h + 1:
                    outside.add((what, text))
                missing |= {(what, ch) for ch in text if not ch.isspace() and not has_glyph(ch)}
            if locale == pseudo:
                words = [w for n in who for w in str(n).replace("-", " ").split()]  # a clipped name leaves a stub
                leaked |= {(what, w) for w in leaks([t for t, _box, _size in boxes], forms)
                           if not any(word.startswith(w) for word in words)}
    assert not clipped, sorted(clipped)[:20]
    assert not outside, sorted(outside)[:20]
    assert not missing, sorted(missing)[:20]
    assert not leaked, sorted(leaked)[:20]
