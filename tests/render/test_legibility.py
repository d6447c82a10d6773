"""Every text on every board stays readable where Discord shows it (docs/rendering.md).

For a set of states of each game (every phase, every player count, long names, players who left, game over) the
board, the private image, the card and the score sheet are drawn while ``render.common.record_fonts`` records every
font size asked for: every image is drawn for the phone (``render.common.PHONE_CANVAS`` wide, for a Components V2
media gallery), a PNG of at most 300 KB, every text through ``render.common.font``. How small its text may be is
judged by tests/render/test_phone.py, where a phone shows it, from the states built here. (The embed era's rule, a
7 px cap height at the 400 x 300 px Discord showed an 800 px image at, applied to no image any more.)
"""

from __future__ import annotations

import copy
import io
import random
from functools import cache

import pytest
from PIL import Image, ImageDraw

from games.ai import computer_name, stand_in_name
from games.geek_out.rules import GeekOut
from games.geodeto.rules import PLACE_NAMES, Geodeto
from games.geomancy.rules import Geomancy
from games.geoneo.rules import Geoneo, shapes
from games.globe_twister.rules import GlobeTwister
from render import geomancy as render_geomancy
from render import globe_twister as render_globe_twister
from render import has_private, render_board, render_card, render_private, render_score_sheet
from render.common import PHONE_CANVAS, record_fonts
from render.geodeto import sample_game
from render.geomancy.samples import sample_stage

LONG = ["Bartholomew Featherstonehaugh", "Wilhelmina Cholmondeley-Smythe", "Cy", "Dee the Magnificent of Everywhere",
        "Eve", "Fitzgerald Montgomery", "Gus", "Hildegard von Bingen-Hohenzollern"]
SHORT = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
LAST = ("Wilhelmina Cholmondeley-Smythe's Superhero flipped a Dragon into a Superhero, and then the table "
        "finished her turn because she ran out of time.")


@pytest.fixture(autouse=True)
def every_text_has_a_font(monkeypatch):
    """A text drawn without ``font=`` would use Pillow's default size, unseen by the recorder."""
    original = ImageDraw.ImageDraw.text

    def checked(self, xy, text, fill=None, font=None, *args, **kwargs):
        assert font is not None, f"text {text!r} drawn without render.common.font()"
        return original(self, xy, text, fill, font, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", checked)


def check(draw, what: str) -> None:
    with record_fonts() as sizes:
        data = draw()
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and img.width <= 800, what
    assert len(data) <= 300 * 1024, what
    assert sizes, f"{what}: no text recorded"
    assert img.width == PHONE_CANVAS, f"{what}: {img.width} px wide (legibility: tests/render/test_phone.py)"


# --- Geek Out ------------------------------------------------------------------------------------------
GO = GeekOut()


def geek_out_states() -> list[tuple[str, dict]]:
    """One state per phase for 1, 2, 3 and 8 players, plus game over with and without ``winners``."""
    out = []
    for players in (1, 2, 3, 8):
        seen: set[str] = set()
        for seed in range(40):
            s = GO.new(players, {}, seed)
            r = random.Random(seed)
            while GO.to_act(s):
                if s["phase"] not in seen:
                    seen.add(s["phase"])
                    out.append((f"geek_out {players}p {s['phase']}", s))
                cur = s["current"]
                s, _ = GO.apply(s, cur, r.choice(GO.legal_actions(s, cur)).key)
            if "over" not in seen:
                seen.add("over")
                out.append((f"geek_out {players}p over", s))
            if seen >= {"act", "target", "choose", "over"}:
                break
        assert seen >= {"act", "choose", "over"}, (players, seen)  # "target" too, while the engine has it
    s = GO.new(3, {}, 5)
    s, _ = GO.apply(s, -1, "leave:1")
    out.append(("geek_out 3p one left", s))
    s = GO.new(2, {"turns": 10}, 7)
    out.append(("geek_out 2p ten turns", s))
    return out


@pytest.mark.parametrize("names", [SHORT, LONG], ids=["short", "long"])
def test_geek_out_boards_read_at_400_px(names):
    for what, s in geek_out_states():
        view = GO.view(s, None)
        n = s["players"]
        who = names[:n]
        check(lambda v=view, who=who: render_board("geek_out", v, who, LAST), what)
        if view["phase"] == "over":
            totals = view["totals"]
            view = dict(view, winners=[max(range(n), key=totals.__getitem__)])
            check(lambda v=view, who=who: render_board("geek_out", v, who, None), what + " with winners")


def test_geek_out_has_no_private_image():
    assert not has_private("geek_out")


# --- GEONEO --------------------------------------------------------------------------------------------
GN = Geoneo()


def geoneo_states() -> list[tuple[str, dict]]:
    """Every phase for 2, 3 and 4 players (4 = two teams), from seeded random games."""
    out = []
    for players in (2, 3, 4):
        seen: set[str] = set()
        for seed in range(20):
            s = GN.new(players, {}, seed)
            r = random.Random(seed)
            steps = 0
            while GN.to_act(s):
                phase = s["phase"]
                if phase not in seen or (phase == "clear" and steps % 7 == 0):
                    seen.add(phase)
                    out.append((f"geoneo {players}p {phase} #{steps}", s))
                seat = min(GN.to_act(s))
                s, _ = GN.apply(s, seat, r.choice(GN.legal_actions(s, seat)).key)
                steps += 1
            seen.add("over")
            out.append((f"geoneo {players}p over", s))
            if seen >= {"play", "place", "clear", "over"}:
                break
        assert seen >= {"play", "place", "clear", "over"}, (players, seen)
    return out


def focus_for(s: dict) -> dict | None:
    """What the bot passes while a player picks a shape: the chosen corner and the other corners on offer."""
    seat = min(GN.to_act(s))
    colour = GN.view(s, None)["colours"][seat]
    found = shapes(s["pieces"], s["width"], colour)
    if not found:
        return None
    anchor = found[0][2][0]
    fields = sorted({f for _, _, corners in found if anchor in corners for f in corners if f != anchor})
    return {"anchor": anchor, "fields": fields}


@pytest.mark.parametrize("names", [SHORT, LONG], ids=["short", "long"])
def test_geoneo_boards_and_hands_read_at_400_px(names):
    for what, s in geoneo_states():
        n = s["players"]
        view = GN.view(s, None)
        who = names[:n]
        check(lambda v=view, who=who: render_board("geoneo", v, who, LAST), what)
        if s["phase"] == "clear":
            focus = focus_for(s)
            check(lambda v=view, f=focus, who=who: render_board("geoneo", v, who, None, f), what + " focus")
        if s["phase"] == "over":
            won = dict(view, winners=[0, 2] if n == 4 else [0])
            check(lambda v=won, who=who: render_board("geoneo", v, who, LAST), what + " won")
        for seat in range(n):
            private = GN.view(s, seat)
            check(lambda v=private, seat=seat: render_private("geoneo", v, names[seat]), f"{what} hand {seat}")


def test_geoneo_has_a_private_image():
    assert has_private("geoneo")


# --- Geodeto -------------------------------------------------------------------------------------------
GD = Geodeto()
GEODETO_STAGES = {"start", "move", "draw", "action", "bonus", "closed", "pirates", "over"}


def geodeto_stage(s: dict, i: int) -> str | None:
    step = s["step"] or {}
    if i == 0:
        return "start"
    if s["phase"] in ("over", "bonus"):
        return s["phase"]
    if step.get("kind") in ("move", "draw", "action"):
        return step["kind"]
    if s["epidemic"]["continent"] is not None:
        return "closed"
    if len(s["pirates"]["pyramids"]) >= 2:
        return "pirates"
    return None


@cache
def geodeto_states() -> list[tuple[str, dict]]:
    """Every stage (the start, a picked pyramid, a draw or an action card being chosen, bonus draws, a closed
    continent, Pirates holding pyramids, the end) for 2 to 6 players, from seeded games in which goals are
    fulfilled (``render.geodeto.sample_game``); a player who left; a tall tower; a locked pyramid and the
    warning that the journey ends soon."""
    out = []
    for players in (2, 3, 4, 5, 6):
        seen: set[str] = set()
        for seed in range(20, 40):
            for i, s in enumerate(sample_game(players, seed, {"extras": players % 2 == 0})):
                tag = geodeto_stage(s, i)
                if tag and tag not in seen:
                    seen.add(tag)
                    out.append((f"geodeto {players}p {tag} #{i}", s))
            if seen >= GEODETO_STAGES:
                break
        assert seen >= GEODETO_STAGES - {"bonus"}, (players, seen)
    s = GD.new(4, {}, 3)
    s, _ = GD.apply(s, -1, "leave:2")
    out.append(("geodeto 4p one left", s))
    s = GD.new(3, {}, 4)
    s["towers"][:6] = [[[2, 14, 11, 8, 5, 1, 0]], [[4, 3]], [[6], [7]], [[10, 9]], [[13, 12]],  # seven on a spot
                       [[15], [16], [17]]]
    out.append(("geodeto 3p tall tower", s))
    s = next(s for s in sample_game(2, 21) if s["step"] is None and s["phase"] == "turn"
             and GD.view(s, None)["forbidden"] is not None)
    s = dict(s, dry_turns=s["dry_turns"] + GD.view(s, None)["stall_turns_left"] - 4)
    out.append(("geodeto 2p locked pyramid, the journey ends soon", s))
    return out


def geodeto_focus(s: dict) -> dict | None:
    """What the bot passes while a picked pyramid's destinations are offered place by place."""
    step = GD.view(s, None)["step"]
    if not step or step["kind"] != "move":
        return None
    place = step["destinations"][0]["place"]
    return GD.focus(s, s["current"], "Ocean" if place == 6 else PLACE_NAMES[place])


@pytest.mark.parametrize("names", [SHORT, LONG], ids=["short", "long"])
def test_geodeto_boards_hands_cards_and_sheets_read_at_400_px(names):
    for what, s in geodeto_states():
        n = s["players"]
        view = GD.view(s, None)
        who = names[:n]
        check(lambda v=view, who=who: render_board("geodeto", v, who, LAST), what)
        focus = geodeto_focus(s)
        if focus:
            check(lambda v=view, f=focus, who=who: render_board("geodeto", v, who, None, f), what + " focus")
        if s["phase"] == "over":
            check(lambda v=view, who=who: render_score_sheet("geodeto", v, who), what + " score sheet")
            for cards in view["fulfilled"]:
                for card in cards[:1]:
                    check(lambda c=card: render_card("geodeto", c), f"{what} card {card['name']}")
                    check(lambda c=card, who=who: render_card("geodeto", c, f"{who[0]} fulfilled it on Europe"),
                          f"{what} card {card['name']} with a note")
        for seat in sorted({0, s["current"]}):
            mine = GD.view(s, seat)
            check(lambda v=mine, seat=seat: render_private("geodeto", v, names[seat]), f"{what} goals {seat}")


def test_geodeto_has_a_private_image():
    assert has_private("geodeto")


# --- Geomancy ------------------------------------------------------------------------------------------
GM = Geomancy()
GEOMANCY_STAGES = {"start", "cast", "upright", "off", "knocks", "captures", "choose", "step", "reorient", "over"}


def geomancy_stage(view: dict, i: int) -> str | None:
    """Which kind of board a state (the ``i``-th of its game) is, if one the tests want: a palette sample's
    kind (``render.geomancy.samples.sample_stage``), or a recast."""
    cast = view["last_cast"]
    return sample_stage(view, i) or ("cast" if cast and cast["recasts"] else None)


@cache
def geomancy_states() -> list[tuple[str, dict]]:
    """Every stage (the start, a fresh cast with recasts, stones upright, off the board and knocked aside,
    captures, a same-colour choice, a stone being turned, a turned stone, the end) for 2 to 6 players, from
    seeded random games; a player who left, and a game that ended with one."""
    out = []
    for players in (2, 3, 4, 5, 6):
        seen: set[str] = set()
        for seed in range(10):
            for i, s in enumerate(render_geomancy.sample_states(players, seed)):
                tag = geomancy_stage(GM.view(s, None), i)
                if tag and tag not in seen:
                    seen.add(tag)
                    out.append((f"geomancy {players}p {tag} #{i}", s))
            if seen >= GEOMANCY_STAGES:
                break
        assert seen >= GEOMANCY_STAGES, (players, GEOMANCY_STAGES - seen)
    s = next(s for i, s in enumerate(render_geomancy.sample_states(4, 1)) if i == 30)
    s, _ = GM.apply(s, -1, "leave:2")
    out.append(("geomancy 4p one left", s))
    s, _ = GM.apply(GM.new(2, {}, 5), -1, "leave:0")
    out.append(("geomancy 2p over, one left", s))
    return out


def geomancy_focuses(s: dict) -> list[dict]:
    """What the bot passes while the player to act picks an aim rank or a stone to turn, and the overlay."""
    out: list[dict] = [{"overlay": "auras"}]
    if s["phase"] == "turn" and GM.to_act(s) and s["step"] is None:
        seat = min(GM.to_act(s))
        if GM.castable(s, seat):
            out.append(GM.focus(s, seat, "Aim at rank 1"))
        out.append(GM.focus(s, seat, "Reorient or pass"))
    return out


@pytest.mark.parametrize("names", [SHORT, LONG], ids=["short", "long"])
def test_geomancy_boards_and_overlays_read_at_400_px(names):
    for what, s in geomancy_states():
        view = GM.view(s, None)
        who = names[: s["players"]]
        check(lambda v=view, who=who: render_board("geomancy", v, who, LAST), what)
        for focus in geomancy_focuses(s):
            check(lambda v=view, f=focus, who=who: render_board("geomancy", v, who, None, f), f"{what} {focus}")
        if s["phase"] == "over":
            won = dict(view, winners=[0, 1])
            check(lambda v=won, who=who: render_board("geomancy", v, who, LAST), what + " tie")


def test_geomancy_has_no_private_image():
    assert not has_private("geomancy")


# --- Globe Twister -------------------------------------------------------------------------------------
GT = GlobeTwister()
GLOBE_TWISTER_GAMES = (
    (1, 1, {}, (0,)), (1, 2, {"puzzle": "tourist", "number": 1}, (0,)),
    (1, 3, {"puzzle": "backpacker", "number": 2}, (0,)), (1, 4, {"puzzle": "wild", "number": 3, "no_red": True}, (0,)),
    (1, 5, {"turn_limit": 2}, ()), (2, 5, {"photo": "choose", "travel_log": True}, (0,)), (2, 6, {"photo": "asia"}, (1,)),
    (3, 6, {}, (0,)), (3, 7, {"no_timer": True, "photo": "back"}, (2,)), (4, 8, {"photo": "back"}, (0,)),
    (5, 9, {"photo": "back"}, (0,)), (5, 10, {"photo": "back", "travel_log": True}, (0, 1)),
)
"""(players, seed, options, seats that play a known solution) of the seeded games the tests draw."""


@cache
def globe_twister_states() -> list[tuple[str, dict]]:
    """Every stage (the start, a side being chosen, a cell or a card's arrow being chosen, locked in with the sand
    timer running, right after a run, a second run, a new round, the end, solved or not) for 1 to 5 players and
    the solo levels; a player who left; a tie-break round with a player watching."""
    out = []
    for players, seed, options, solvers in GLOBE_TWISTER_GAMES:
        for tag, s in render_globe_twister.sample_states(players, seed, options, solvers):
            out.append((f"globe_twister {players}p {options} {tag}", s))
    s = next(s for t, s in render_globe_twister.sample_states(3, 6, {}) if t == "step")
    s, _ = GT.apply(s, -1, "leave:1")
    out.append(("globe_twister 3p one left", s))
    decider = copy.deepcopy(s)
    decider["active"], decider["decider"], decider["left"] = [0, 2], 1, [False] * 3
    out.append(("globe_twister 3p tie-break, one watching", decider))
    arrow = copy.deepcopy(decider)
    arrow["steps"][0] = {"cell": 4, "card": "b2"}
    out.append(("globe_twister 3p choosing an arrow", arrow))
    return out


def globe_twister_runs() -> list[tuple[str, dict]]:
    """The run cards (announcements) of the sample states right after a stage C."""
    out = []
    for what, s in globe_twister_states():
        if what.endswith(" run") or what.endswith(" over"):
            for run in (GT.view(s, None)["last_run"] or {"runs": []})["runs"]:
                out.append((f"{what} seat {run['seat']}", {"kind": "run", "turn": s["turn"], **run}))
    return out


def check_gif(data: bytes, what: str) -> None:
    """An animation for the channel: a looping GIF, at most 600 px wide and 1 MB."""
    img = Image.open(io.BytesIO(data))
    assert data[:6] == b"GIF89a" and img.format == "GIF", what
    assert img.width <= 600 and len(data) <= 1024 * 1024, (what, img.size, len(data))
    assert img.info.get("loop") == 0 and getattr(img, "n_frames", 1) >= 2, what


@pytest.mark.parametrize("names", [SHORT, LONG], ids=["short", "long"])
def test_globe_twister_boards_and_panels_read_at_400_px(names):
    for what, s in globe_twister_states():
        view = GT.view(s, None)
        who = names[: s["players"]]
        check(lambda v=view, who=who: render_board("globe_twister", v, who, LAST), what)
        for seat in range(s["players"]):
            mine = GT.view(s, seat)
            check(lambda v=mine, seat=seat: render_private("globe_twister", v, names[seat]), f"{what} panel {seat}")


def test_globe_twister_run_animations_read_where_discord_shows_them():
    runs = globe_twister_runs()
    assert len(runs) >= 10
    for what, card in runs:
        with record_fonts():  # (the caches emptied: every text drawn again, through font=)
            data = render_card("globe_twister", card)
        check_gif(data, what)
        assert Image.open(io.BytesIO(data)).width == PHONE_CANVAS, what  # legibility: tests/render/test_phone.py


# --- every game ----------------------------------------------------------------------------------------
MEASURED = {"geek_out", "geoneo", "geodeto", "geomancy", "globe_twister"}
"""The games whose boards (and private images, cards and score sheets) the tests above draw."""


def test_every_registered_game_is_measured():
    from render import _RENDERERS

    assert set(_RENDERERS) == MEASURED, "a new game's images need states in this test"


# --- computer seats ------------------------------------------------------------------------------------
COMPUTERS = ["Wilhelmina Cholmondeley-Smythe", computer_name("strong"), computer_name("strong", 2),
             stand_in_name("Dee the Magnificent of Everywhere"), computer_name("easy"), computer_name("easy", 2),
             computer_name("normal"), stand_in_name("Bo")]
"""A person, then computers (bot/computers.py's names: strengths, numbered, one handed over): their rows carry
the robot's head beside the name, which takes room from it."""


def every_other(states: list[tuple[str, dict]]) -> list[tuple[str, dict]]:
    return states[::2]


@pytest.mark.parametrize("game", sorted(MEASURED))
def test_boards_with_computer_seats_read_at_400_px(game):
    states = {"geek_out": geek_out_states, "geoneo": geoneo_states, "geodeto": geodeto_states,
              "geomancy": geomancy_states, "globe_twister": globe_twister_states}[game]()
    engine = {"geek_out": GO, "geoneo": GN, "geodeto": GD, "geomancy": GM,
              "globe_twister": GT}[game]
    for what, s in every_other(states):
        n = s["players"]
        view = engine.view(s, None)
        seats, who = tuple(range(1, n)) or (0,), COMPUTERS[:n]
        check(lambda v=view, c=seats, who=who: render_board(game, v, who, LAST, None, c), what + " computers")
        if game == "geodeto" and s["phase"] == "over":
            check(lambda v=view, c=seats, who=who: render_score_sheet(game, v, who, c), what + " sheet computers")
