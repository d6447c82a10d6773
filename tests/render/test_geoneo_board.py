import io
import random

from PIL import Image

from games.geoneo.rules import Geoneo
from render import render_board, render_private

E = Geoneo()


def played(players, seed, steps):
    s = E.new(players, {}, seed)
    r = random.Random(seed)
    for _ in range(steps):
        if not E.to_act(s):
            break
        seat = min(E.to_act(s))
        s, _ = E.apply(s, seat, r.choice(E.legal_actions(s, seat)).key)
    return s


def test_boards_for_every_player_count_and_phase_decode_and_stay_small():
    for players in (2, 3, 4):
        for steps in (0, 5, 60, 400):
            s = played(players, steps, steps)
            names = ["Ana", "Bo", "Cy", "Dee"][:players]
            data = render_board("geoneo", E.view(s, None), names, "Ana places on D6.")
            img = Image.open(io.BytesIO(data))
            assert img.width == 600 and img.height < 800 and len(data) < 300 * 1024  # drawn for the phone


def test_the_public_board_is_drawn_from_a_view_without_hands():
    s = played(3, 1, 10)
    view = E.view(s, None)
    assert "hand" not in view
    before = render_board("geoneo", view, ["A", "B", "C"])
    a, b = s["hands"][0], s["hands"][1]
    i = next(i for i in range(len(a)) if a[i] != b[0])
    a[i], b[0] = b[0], a[i]  # one card changes hands: sizes stay, nothing public changes
    assert render_board("geoneo", E.view(s, None), ["A", "B", "C"]) == before


def test_a_hand_image():
    img = Image.open(io.BytesIO(render_private("geoneo", {"hand": [1, 2, 2, 6]}, "Ana")))
    assert img.width >= 300


def test_a_tie_of_both_teams_names_the_teams_whole_in_the_banner():
    """Both teams tied: the banner names the teams whole (and the partners where two lines hold them), never
    "(…, ……"."""
    from render.common import record_texts

    s = played(4, 3, 2000)
    view = dict(E.view(s, None), scores=[29, 29], winners=[0, 1, 2, 3])
    with record_texts() as texts:
        render_board("geoneo", view, ["Ana", "Bo", "Cy", "Dee"], "Nobody has a shape left: the game is over.")
    banner = " ".join(t for t in texts[texts.index("GEONEO") + 1:] if t)  # (two lines where one is too short)
    assert banner.startswith("Team White & Team Black") and "tie with 29 points!" in banner and "…" not in banner
    one = dict(E.view(s, None), winners=[0, 2])
    with record_texts() as texts:  # one team: its players still named
        render_board("geoneo", one, ["Ana", "Bo", "Cy", "Dee"], None)
    assert " ".join(t for t in texts[texts.index("GEONEO") + 1:] if t).startswith("Team White (Ana & Cy) wins with 48 points!")
