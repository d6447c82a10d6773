"""Geodeto's images in English, German, Spanish and the pseudo-language "qps" beyond the languages harness's one
seeded game (tests/render/test_languages.py): boards of 2, 4 and 6 players through a whole game, hands of one to
nine of the goal cards with the longest words, a score sheet of six players. No label clipped (the longest
language decides the layout; only a player's name and a geo-tweet, running text, may be shortened), nothing
drawn outside the image, every hand at most 800 x 600, and no unmarked word on a "qps" image."""

import re

import pytest
from PIL import Image

import i18n
from games.geodeto.rules import Geodeto
from render.common import record_layout
from render.geodeto import draw_board, draw_card, draw_private, draw_score_sheet, sample_game

E = Geodeto()
LANGUAGES = ("en", "de", "es", i18n.PSEUDO)
NAMES = ["Ana", "Bartholomew", "Cy", "Dee", "Eve", "Fay"]
LONG_CARDS = ["halley-research-station", "princess-elisabeth-station", "mt-vinson", "lambert-glacier",
              "concordia-station", "great-barrier-reef", "easter-island-moai", "great-britain", "mexico"]
"""Goal cards with long names, locations or capitals in some language ("Lambertgletscher", "Antártida
(Antártida Oriental)", "Ciudad de México")."""
_ASCII_WORD = re.compile(r"(?<!\w)[A-Za-z]{2,}(?!\w)")
_ACCENTED = set("aeiouncyAEIOUNCY")


@pytest.fixture(scope="module", autouse=True)
def _pseudo():
    i18n.install_pseudo()
    yield
    i18n.remove_language(i18n.PSEUDO)


def _check(draw, locale: str) -> Image.Image:
    """Draws in ``locale`` and checks what was drawn: no label clipped, nothing outside, no unmarked word."""
    with i18n.using(locale), record_layout() as (fits, boxes):
        img = draw()
    clipped = [(asked, drawn) for asked, drawn in fits if drawn != asked and not any(
        asked.startswith(n) for n in NAMES)]
    assert not clipped, (locale, clipped[:5])
    for s, (x0, y0, x1, y1), (w, h) in boxes:
        assert x0 >= -1 and y0 >= -1 and x1 <= w + 1 and y1 <= h + 1, (locale, s)
    if locale == i18n.PSEUDO:
        words = [w for s, _box, _size in boxes for w in _ASCII_WORD.findall(s)
                 if not any(n.startswith(w) for n in NAMES) and _ACCENTED & set(w)]
        assert not words, words[:10]
    return img


def _hand(cards: list[str], seat: int = 0) -> dict:
    state = E.new(2, {}, 1)
    state["hands"][seat] = list(cards)
    view = E.view(state, seat)
    for k, card in enumerate(view["hand"]):  # half of them met, on their first continent
        card["met"], card["met_on"] = k % 2 == 0, card["continents"][0]
    return view


@pytest.mark.parametrize("locale", LANGUAGES)
def test_hands_of_long_cards_fit_in_every_language(locale):
    for n in range(1, len(LONG_CARDS) + 1):
        for cards in (LONG_CARDS[:n], LONG_CARDS[-n:]):
            img = _check(lambda cards=cards: draw_private(_hand(cards), NAMES[1]), locale)
            assert img.size[0] == 600 and img.size[1] <= 1250, (locale, n, img.size)


@pytest.mark.parametrize("locale", LANGUAGES)
def test_boards_cards_and_score_sheets_of_whole_games_fit_in_every_language(locale):
    sheets = 0
    for players, seed in ((2, 4), (4, 5), (6, 6)):
        states = list(sample_game(players, seed, {"extras": True}))
        for state in states[:: max(1, len(states) // 6)] + states[-1:]:
            view = E.view(state, None)
            _check(lambda view=view, who=NAMES[:players]: draw_board(view, who), locale)
        end = E.view(states[-1], None)
        if end["phase"] == "over":
            _check(lambda end=end, who=NAMES[:players]: draw_score_sheet(end, who), locale)
            sheets += 1
    assert sheets == 3
    for card in LONG_CARDS:
        _check(lambda card=card: draw_card(E._card(card, None)), locale)

