"""The Geodeto pictures: the board (ring, towers, Ocean, action cards, public goals, players, the step in
progress), "My goals", a goal card and the score sheet (docs/rendering.md, "Geodeto")."""

from __future__ import annotations

import copy
import io

import pytest
from PIL import Image

import render
from games.geodeto.rules import CONTINENT_NAMES, Geodeto, deck
from render import (
    NoPrivateImage,
    has_card,
    has_score_sheet,
    render_board,
    render_card,
    render_private,
    render_score_sheet,
)
from render import geodeto as gd
from render.common import record_texts

E = Geodeto()
NAMES = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay"]


def drawn(fn, *args) -> list[str]:
    with record_texts() as texts:
        fn(*args)
    return texts


def board_texts(view: dict, names=NAMES, last=None, focus=None) -> list[str]:
    return drawn(render_board, "geodeto", view, names[: view["players"]], last, focus)


def reach(players: int, found, seeds=range(40), options=None) -> dict:
    """The first state of a sample game (goals fulfilled as in real play) for which ``found(state)`` holds."""
    for seed in seeds:
        for s in gd.sample_game(players, seed, options or {}):
            if found(s):
                return s
    raise AssertionError("no such state")


def png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


# --- the registry ----------------------------------------------------------------------------------------
def test_geodeto_is_registered_with_every_picture():
    assert render.has_board("geodeto") and render.has_private("geodeto")
    assert has_card("geodeto") and has_score_sheet("geodeto")
    for game in ("geek_out", "geoneo"):
        assert not has_card(game) and not has_score_sheet(game)
        with pytest.raises(NoPrivateImage):
            render_card(game, {"name": "x"})
        with pytest.raises(KeyError):  # NoPrivateImage is a KeyError
            render_score_sheet(game, {}, [])


# --- the board -------------------------------------------------------------------------------------------
def test_the_board_names_the_ring_the_ocean_the_cards_and_the_countdown():
    s = E.new(3, {}, 1)
    view = E.view(s, None)
    texts = board_texts(view)
    for name in (*CONTINENT_NAMES, "World Ocean", "Epidemic", "Pirates", "free to play", "free to use"):
        assert name in texts, name
    assert "10 goals to go (of 10)" in texts
    assert f"{NAMES[view['current']]}: move a pyramid or draw a card" in texts
    assert "K = black" in texts and "B = blue" in texts  # the letters on the pyramids, explained
    for goal in view["public_goals"]:
        assert f"{goal['count']} in pile" in texts
        first = goal["card"]["name"].split()[0]
        assert any(t.startswith(first[:5]) for t in texts), goal["card"]["name"]
    for seat in range(3):
        assert NAMES[seat] in texts
    assert texts.count("2 in hand,") == 3 and texts.count("0 goals") == 3


def test_every_pyramid_carries_its_colour_letter_and_its_size():
    """The letter is drawn into each pyramid's sprite (so it is never covered by the pyramid above); sizes
    differ in width and height."""
    assert gd.PYR_W[0] < gd.PYR_W[1] < gd.PYR_W[2] and gd.PYR_H[0] < gd.PYR_H[1] < gd.PYR_H[2]
    assert gd.LETTERS == ("B", "Y", "R", "G", "W", "K")
    for p in range(18):
        sprite = gd.pyramid_sprite(p)
        ink = gd.PYRAMID_INK[p // 3]
        colours = {c[:3] for _, c in sprite.getcolors(sprite.width * sprite.height)}
        assert ink in colours and gd.PYRAMID_FILL[p // 3] in colours, p
    assert gd.pid(5) == 5 and gd.pid({"id": 7, "colour": "red", "size": "medium"}) == 7
    assert gd.pid({"colour": "black", "size": "large"}) == 17


def test_a_closed_continent_and_the_pirates_holder():
    s = reach(4, lambda s: s["epidemic"]["continent"] is not None and s["pirates"]["holder"] is not None
              and s["pirates"]["pyramids"])
    view = E.view(s, None)
    texts = board_texts(view)
    closed = CONTINENT_NAMES[view["epidemic"]["continent"]]
    assert "Closed" in texts and f"on {closed}" in texts
    assert f"held by {NAMES[view['pirates']['holder']]}" in texts


def test_the_picked_pyramid_and_its_destinations_are_marked():
    s = reach(2, lambda s: s["step"] is not None and s["step"]["kind"] == "move")
    view = E.view(s, None)
    step = view["step"]
    texts = board_texts(view)
    assert f"{NAMES[view['current']]}: move the {gd.pname(step['pyramid'])} to a gold mark" in texts
    plain = render_board("geodeto", dict(view, step=None), NAMES[:2])
    marked = render_board("geodeto", view, NAMES[:2])
    place = step["destinations"][0]["place"]
    focus = E.focus(s, s["current"], "Ocean" if place == 6 else CONTINENT_NAMES[place])
    assert focus == {"place": place, "pyramid": step["pyramid"]}
    focused = render_board("geodeto", view, NAMES[:2], None, focus)
    assert len({plain, marked, focused}) == 3
    assert render_board("geodeto", view, NAMES[:2], None, None) == marked


def test_the_marks_follow_the_view():
    s = reach(3, lambda s: s["step"] is not None and s["step"]["kind"] == "move" and s["last_move"])
    view = E.view(s, None)
    marks = gd._marks(view, None)
    step = view["step"]
    assert marks["picked"] == step["pyramid"]
    assert marks["halos"][step["pyramid"]] == gd.HIGHLIGHT
    assert marks["places"] == {d["place"] for d in step["destinations"]}
    assert marks["onto"] == {d["on"] for d in step["destinations"] if d["on"] is not None}
    assert marks["table"] == {d["place"] for d in step["destinations"] if d["on"] is None}
    moved = view["last_move"]["pyramid"]
    if moved not in (step["pyramid"],) and gd._find(view, moved):
        assert marks["halos"][moved] == gd.SKY


def test_drawing_a_card_and_bonus_draws_frame_the_piles_in_gold():
    s = reach(3, lambda s: s["step"] is not None and s["step"]["kind"] == "draw")
    view = E.view(s, None)
    assert "draw the top card of a pile" in " ".join(board_texts(view))
    assert render_board("geodeto", view, NAMES[:3]) != render_board("geodeto", dict(view, step=None), NAMES[:3])
    s = reach(4, lambda s: s["phase"] == "bonus")
    assert "draw a bonus card" in " ".join(board_texts(E.view(s, None)))


def test_the_public_board_is_drawn_from_a_view_without_hands():
    s = reach(3, lambda s: all(len(h) >= 2 for h in s["hands"]) and s["step"] is None and s["ply"] > 10)
    view = E.view(s, None)
    assert "hand" not in view
    before = render_board("geodeto", view, NAMES[:3])
    s = copy.deepcopy(s)
    a, b = s["hands"][0], s["hands"][1]
    a[0], b[0] = b[0], a[0]  # one card changes hands: sizes stay, nothing public changes
    assert render_board("geodeto", E.view(s, None), NAMES[:3]) == before


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_boards_stay_about_800_px_tall(players):
    """~780-850 px; only crowds of tall ships in the Ocean (random play builds many) make a board taller."""
    heights = []
    for i, s in enumerate(gd.sample_game(players, 7, {"extras": True})):
        if i % 10 == 0 or not E.to_act(s):
            img = png(render_board("geodeto", E.view(s, None), NAMES[:players], "Ana moves."))
            assert img.width == 800 and img.height <= 980, (players, i, img.height)
            heights.append(img.height)
    assert sorted(heights)[len(heights) // 2] <= 850, heights


def test_game_over_names_the_winner_and_every_total():
    s = reach(3, lambda s: s["phase"] == "over")
    view = E.view(s, None)
    totals = [row["total"] for row in view["score_sheet"]["players"]]
    texts = board_texts(view)
    best = max(totals)
    won = [seat for seat in range(3) if totals[seat] == best]
    assert view["winners"] == won
    assert any(t.endswith(f"with {best} points!") or t.endswith(f"with {best} point!") for t in texts)
    for seat in range(3):
        assert f"{totals[seat]} pts" in texts or f"{totals[seat]} pt" in texts


# --- "My goals", a card, the score sheet -----------------------------------------------------------------------
def test_my_goals_show_every_card_and_which_are_met():
    s = reach(4, lambda s: len(s["hands"][s["current"]]) >= 3 and s["phase"] == "turn" and s["step"] is None)
    s = copy.deepcopy(s)
    seat = (s["current"] + 1) % 4
    assert gd.rig_goal(s, seat)
    view = E.view(s, seat)
    met = [c for c in view["hand"] if c["met"]]
    assert met
    texts = drawn(render_private, "geodeto", view, "Bo")
    for card in view["hand"]:
        assert card["name"] in texts
        assert card["tweet"].split()[0] in " ".join(texts)
    for card in met:
        assert f"Met on {CONTINENT_NAMES[gd.CONTINENT_KEYS.index(card['met_on'])]}!" in texts
    assert texts.count("Not met yet") == len(view["hand"]) - len(met)
    assert f"Bo: {len(view['hand'])} goal cards, {len(met)} met now" in texts
    img = png(render_private("geodeto", view, "Bo"))
    assert img.width == 800
    mine = E.view(s, s["current"])
    assert "Your turn - " in " ".join(drawn(render_private, "geodeto", mine, "Ana"))


def test_a_goal_card():
    for cid in ("usa", "stonehenge", "princess-elisabeth-station"):
        card = E._card(cid, None) if hasattr(E, "_card") else deck()[cid]
        texts = drawn(render_card, "geodeto", card, "Ana fulfilled it on Europe")
        assert card["name"] in texts and "Ana fulfilled it on Europe" in texts
        assert any(t.startswith("Sight: ") or t.startswith("State, capital ") for t in texts)
        assert png(render_card("geodeto", card)).width == 800


def test_the_score_sheet_is_a_table_of_parts_per_player():
    s = reach(4, lambda s: s["phase"] == "over", options={"extras": True})
    view = E.view(s, None)
    texts = drawn(render_score_sheet, "geodeto", view, NAMES[:4])
    for label in ("Groups (3 / 1)", "Famous places", "Research stations", "Fulfilled goals (+2)",
                  "Cards in hand (-1)", "Continents (+2)", "Last goal (+1)", "Extra cards (+2)", "Total"):
        assert label in texts
    rows = view["score_sheet"]["players"]
    for seat, row in enumerate(rows):
        assert NAMES[seat] in texts and str(row["total"]) in texts
        if row["fulfilled"]:
            assert f"+{row['fulfilled']}" in texts
    img = png(render_score_sheet("geodeto", view, NAMES[:4]))
    assert img.width == 800 and img.height < 800
