import io

from PIL import Image

from games.geek_out.rules import GeekOut
from render import render_board
from render.common import PHONE_CANVAS

E = GeekOut()


def states():
    """A handful of states covering every phase, from seeded games."""
    out = []
    for seed in range(6):
        s = E.new(3, {}, seed)
        out.append(s)
        for _ in range(12):
            if not E.to_act(s):
                break
            cur = s["current"]
            s, _ = E.apply(s, cur, E.legal_actions(s, cur)[0].key)
            out.append(s)
    s = E.new(2, {}, 1)
    s, _ = E.apply(s, -1, "leave:0")
    out.append(s)
    return out


def test_boards_decode_fit_discord_and_stay_small():
    for s in states():
        data = render_board("geek_out", E.view(s, None), ["Ana", "Bo", "Cy"][: s["players"]], "Ana did a thing → 42")
        img = Image.open(io.BytesIO(data))
        # drawn for the phone: 600 wide (shown 240 wide there), at most 736 tall (8 players)
        assert img.format == "PNG" and img.width == PHONE_CANVAS and 150 <= img.height <= 736
        assert len(data) <= 300 * 1024


def test_the_board_changes_when_the_state_changes():
    s = E.new(2, {}, 3)
    a = render_board("geek_out", E.view(s, None), ["Ana", "Bo"])
    s2, _ = E.apply(s, s["current"], E.legal_actions(s, s["current"])[0].key)
    b = render_board("geek_out", E.view(s2, None), ["Ana", "Bo"])
    assert a != b
    assert render_board("geek_out", E.view(s, None), ["Ana", "Bo"]) == a  # deterministic


def test_eight_players_with_long_names_fit():
    s = E.new(8, {}, 2)
    names = [f"Player with a very long display name number {i}" for i in range(8)]
    img = Image.open(io.BytesIO(render_board("geek_out", E.view(s, None), names)))
    assert img.size == (600, 736)  # was 800 x 598: every label at least 28 px of 600 (7.35 px cap on a phone)
