"""Globe Twister's pictures in English, German, Spanish and the pseudo-language (issue 19).

tests/render/test_languages.py draws one random 3-player game; this draws every sample state of
test_legibility (1-5 players, the solo levels, the travel log, sides being chosen, a tie-break, an arrow being
chosen): the board, each seat's panel, the stage's run animation and a program's run. No label is clipped,
nothing is drawn outside the image or outside its player's block, every glyph is in the font, and no word is
left unmarked (qps)."""

from __future__ import annotations

import pytest

import i18n
from games.globe_twister.rules import GlobeTwister
from render import render_board, render_card, render_private
from render.common import MARGIN, P_HEADER_H, has_glyph, record_layout
from render.globe_twister import BLOCK_H, WIDTH
from render.globe_twister.board import GAP
from tests.render.test_languages import leaks
from tests.render.test_legibility import globe_twister_runs, globe_twister_states

E = GlobeTwister()
NAMES = ["Ana", "Bo", "Cy", "Dee", "Eve"]
LANGUAGES = ("en", "de", "es", i18n.PSEUDO)


@pytest.fixture(scope="module", autouse=True)
def pseudo():
    i18n.install_pseudo()
    yield
    i18n.remove_language(i18n.PSEUDO)


def pictures(locale: str):
    """(what, draw) for every picture of every sample state."""
    for what, s in globe_twister_states():
        n = s["players"]
        view = E.view(s, None)
        yield f"{what} board", lambda view=view, n=n: render_board("globe_twister", view, NAMES[:n], locale=locale)
        for seat in range(n):
            yield f"{what} panel {seat}", lambda s=s, seat=seat: render_private(
                "globe_twister", E.view(s, seat), NAMES[seat], locale=locale)
        last = view["last_run"]
        if last and (what.endswith(" run") or what.endswith(" over")):
            card = {"kind": "runs", "turn": last["turn"], "runs": last["runs"], "names": NAMES[:n]}
            yield f"{what} runs", lambda card=card: render_card("globe_twister", card, locale=locale)
    for what, card in globe_twister_runs()[::3]:
        yield f"{what} run", lambda card=card: render_card("globe_twister", card, locale=locale)


@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_picture_fits_in_every_language(locale):
    clipped, outside, missing, unmarked = set(), set(), set(), set()
    for what, draw in pictures(locale):
        with record_layout() as (fits, boxes):
            draw()
        clipped |= {f"{what}: {asked!r} -> {drawn!r}" for asked, drawn in fits if drawn != asked and asked not in NAMES}
        for s, (x0, y0, x1, y1), (w, h) in boxes:
            if x0 < -1 or y0 < -1 or x1 > w + 1 or y1 > h + 1:
                outside.add(f"{what}: {s!r} at {(x0, y0, x1, y1)} in {w}x{h}")
            missing |= {f"{what}: {ch!r} in {s!r}" for ch in set(s) if not ch.isspace() and not has_glyph(ch)}
        if locale == i18n.PSEUDO:
            unmarked |= {f"{what}: {w}" for w in leaks([s for s, _box, _size in boxes], NAMES)}
    assert not clipped, sorted(clipped)
    assert not outside, sorted(outside)
    assert not missing, sorted(missing)
    assert not unmarked, sorted(unmarked)


def blocks(view: dict) -> list[tuple[float, float, float, float]]:
    """Where the board puts each player's block (a row each), as board.draw_board does."""
    top = P_HEADER_H + GAP
    return [(MARGIN, top + k * (BLOCK_H + GAP), WIDTH - MARGIN, top + k * (BLOCK_H + GAP) + BLOCK_H)
            for k in range(view["players"])]


@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_word_of_a_players_block_stays_in_the_block(locale):
    """A photo's name on two lines ("Latin / America", "Latein- / amerika") still leaves room for the red cards
    and the round wins inside the player's row; after a run, the program's words stay in it too."""
    strays = set()
    for what, s in globe_twister_states():
        if s["players"] < 2 or s["phase"] == "side":
            continue
        view = E.view(s, None)
        places = blocks(view)
        with record_layout() as (_fits, boxes):
            render_board("globe_twister", view, NAMES[: s["players"]], locale=locale)
        for text, (x0, y0, x1, y1), _size in boxes:
            if y0 < P_HEADER_H:
                continue  # the header
            home = [b for b in places if b[0] <= x0 < b[2] and b[1] <= y0 < b[3]]
            if not home or x1 > home[0][2] + 1 or y1 > home[0][3] + 1:
                strays.add(f"{what}: {text!r} at {(x0, y0, x1, y1)}, block {home[:1]}")
    assert not strays, sorted(strays)


def test_three_players_choosing_sides_are_asked_in_one_sentence():
    view = E.view(E.new(3, {"photo": "choose"}, 1), None)
    said = {}
    for locale in ("en", "de", "es"):
        with record_layout() as (_fits, boxes):
            render_board("globe_twister", view, NAMES[:3], locale=locale)
        said[locale] = " ".join(t for t, box, _size in boxes if 38 <= box[1] and box[3] <= P_HEADER_H)  # 1-2 lines
    assert said == {"en": "Choose a side: the polar front or your region's back",
                    "de": "Seite wählen: polare Vorderseite oder Rückseite",
                    "es": "Elegir cara: anverso polar o reverso de la región"}
