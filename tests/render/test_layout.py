"""What the boards say (through ``record_texts``) and the render API the bot relies on."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

import render
from games.geek_out.rules import GeekOut
from games.geoneo.rules import Geoneo, field_name
from render import NoPrivateImage, has_private, render_board, render_private
from render.common import record_texts

GO = GeekOut()
GN = Geoneo()
NAMES = ["Ana", "Bo", "Cy", "Dee"]


def drawn(game: str, view: dict, names=NAMES, last=None, focus=None) -> str:
    with record_texts() as texts:
        render_board(game, view, names[: view["players"]], last, focus)
    return "\n".join(texts)


def finished(engine, players: int, seed: int) -> dict:
    s = engine.new(players, {}, seed)
    r = random.Random(seed)
    while engine.to_act(s):
        seat = min(engine.to_act(s))
        s, _ = engine.apply(s, seat, r.choice(engine.legal_actions(s, seat)).key)
    return s


# --- the registry --------------------------------------------------------------------------------------
def test_every_renderer_declares_its_game_and_draws_a_board():
    for game, module in render._RENDERERS.items():
        assert module.GAME == game and callable(module.draw_board)


def test_private_images():
    assert has_private("geoneo") and not has_private("geek_out")
    with pytest.raises(NoPrivateImage):
        render_private("geek_out", GO.view(GO.new(2, {}, 1), 0), "Ana")
    with pytest.raises(KeyError):  # NoPrivateImage is a KeyError
        render_private("geek_out", {"hand": []}, "Ana")
    s = GN.new(3, {}, 2)
    img = Image.open(io.BytesIO(render_private("geoneo", GN.view(s, 1), "Bo")))
    assert img.width == 600  # drawn for the phone
    assert Image.open(io.BytesIO(render_private("geoneo", {"hand": [1, 2, 2, 6]}, "Ana"))).width == 600


def test_the_hand_shows_every_card_and_what_the_round_needs():
    s = GN.new(2, {}, 4)
    seat = min(GN.to_act(s))
    view = GN.view(s, seat)
    with record_texts() as texts:
        render_private("geoneo", view, "Ana")
    assert sorted(t for t in texts if t.isdigit()) == sorted(str(v) for v in view["hand"])
    assert "Your turn: open the round" in texts


# --- Geek Out ------------------------------------------------------------------------------------------
def test_geek_out_names_dice_by_face_without_numbers():
    s = GO.arrange(GO.new(2, {}, 1), active={1: "dragon", 2: "hero", 3: "42", 4: "42"},
                   used={5: "meeple"}, inactive={6: "42", 7: "42", 8: "42", 9: "42", 10: "42"})
    texts = drawn("geek_out", GO.view(s, None))
    for face in ("Dragon", "Superhero", "42"):
        assert face in texts.splitlines()
    assert "die 1" not in texts.lower()


def test_geek_out_game_over_names_the_winners_and_risks_nothing():
    s = finished(GO, 3, 4)
    view = GO.view(s, None)
    assert view["phase"] == "over"
    texts = drawn("geek_out", view)
    best = max(range(3), key=lambda seat: view["totals"][seat])
    assert f"{NAMES[best]} wins" in texts
    # the dice as the last turn left them (the board keeps its size: a replay's frames are the final board's),
    # without a turn's hints
    assert "SCORED" in texts and not {"at risk", "a Heart brings one in", "Continue rolls them"} & set(texts)
    assert not any("at risk" in t for t in texts)
    texts = drawn("geek_out", dict(view, winners=[0, 2]))  # the view's own word wins
    assert "Ana & Cy win" in texts


def test_geek_out_points_at_risk_while_playing():
    s = GO.arrange(GO.new(2, {}, 1), active={1: "hero", 2: "42"}, scored={3: "42", 4: "42"},
                   inactive={5: "42", 6: "42", 7: "42", 8: "42", 9: "42", 10: "42"})
    assert "3 pts at risk" in drawn("geek_out", GO.view(s, None))


# --- GEONEO --------------------------------------------------------------------------------------------
def reach(players: int, phase: str, seed: int = 0) -> dict:
    for sd in range(seed, seed + 50):
        s = GN.new(players, {}, sd)
        r = random.Random(sd)
        while GN.to_act(s):
            if s["phase"] == phase:
                return s
            seat = min(GN.to_act(s))
            s, _ = GN.apply(s, seat, r.choice(GN.legal_actions(s, seat)).key)
    raise AssertionError(f"no {phase} state")


def test_geoneo_shows_who_played_which_card_and_names_the_winning_team():
    s = reach(4, "place")
    view = GN.view(s, None)
    texts = drawn("geoneo", view)
    lines = texts.splitlines()
    for play in view["round"]["plays"]:  # each card played this round in its player's row
        sign = {"first": "", "+": "+", "-": "-", "away": ""}[play["op"]]
        name = lines.index(NAMES[play["seat"]])
        assert f"{sign}{play['card']}" in lines[name:name + 4]
    # drawn for the phone there is no side panel naming the colours: a row's piece (ring, square, triangle) is its
    # colour's mark, as on the board; the banner names the winning colour or team in words
    over = dict(GN.view(reach(4, "place"), None), phase="over", winners=[0, 2])
    assert "Team White" in drawn("geoneo", over)


def test_geoneo_shows_where_the_piece_may_go():
    s = reach(2, "place")
    view = GN.view(s, None)
    number = view["place"]["number"]
    free = {field_name(i, view["width"]) for i, n in enumerate(view["numbers"])
            if n == number and view["pieces"][i] is None}
    named = {t for t in drawn("geoneo", view).splitlines() if len(t) == 2 and t[0].isalpha() and t[1].isdigit()}
    assert named == free and free


def test_geoneo_focus_marks_the_chosen_corner_and_the_offered_ones():
    s = reach(2, "clear")
    view = GN.view(s, None)
    mine = [i for i, p in enumerate(view["pieces"]) if p == view["colours"][min(GN.to_act(s))]]
    plain = render_board("geoneo", view, NAMES[:2])
    anchor = render_board("geoneo", view, NAMES[:2], None, {"anchor": mine[0], "fields": []})
    both = render_board("geoneo", view, NAMES[:2], None, {"anchor": mine[0], "fields": mine[1:3]})
    assert len({plain, anchor, both}) == 3
    assert render_board("geoneo", view, NAMES[:2], None, None) == plain


def test_geoneo_game_over_names_the_winning_colour():
    s = finished(GN, 4, 3)
    view = GN.view(s, None)
    texts = drawn("geoneo", dict(view, winners=[1, 3]))
    assert "Team Black (Bo & Dee) wins" in texts
    s = finished(GN, 2, 5)
    view = GN.view(s, None)
    best = max((0, 1), key=lambda c: view["scores"][c])
    assert view["scores"][0] != view["scores"][1]  # (the seeded game has a winner: the check below runs)
    assert f"{NAMES[best]} ({['White', 'Black'][best]}) wins" in drawn("geoneo", view)
