"""Every board, private image, card and score sheet of every game reads well in every language (issue 19).

For each game, sample views (a seeded 3-player game played at random: the start, two moments mid-game, the end;
each seat's private image where the game has one, a card where one is announced, the score sheet at the end)
are drawn in English, German, Spanish and the pseudo-language ``qps`` (``i18n.install_pseudo``: every vowel
accented) while ``render.common.record_layout`` records what is drawn. Seat 1 is a computer, seat 2 a computer
that took a person's seat. Checked, per game and language:

- (a) nothing is clipped by ``fit_text``/``wrap_text`` (an ellipsis) except a player's name and running text
  (``prose=True``: the footer's last move): a translated label that needs "…" is too long for its box (the
  longest language decides the layout);
- (b) no text is drawn outside its image;
- (c) every character drawn has a glyph in the font (``render.common.has_glyph``);
- (d) in ``qps``, no word of two or more plain ASCII letters that ``qps`` would have accented (player names
  aside): such a word was never marked for translation (the leak check).

Run one game: ``PYTHONPATH=$PWD python -m pytest -q -p no:cacheprovider tests/render/test_languages.py -k geodeto``.

Every game is translated: none is exempt from any check.
"""

from __future__ import annotations

import random
import re
from functools import cache

import pytest

import i18n
import render
from games import get_engine
from games.ai import computer_name, stand_in_name
from games.core import SYSTEM
from render.common import has_glyph, least_name, record_layout, short_name

GAMES = ("geek_out", "geoneo", "geodeto", "geomancy", "globe_twister")
LANGUAGES = ("en", "de", "es", i18n.PSEUDO)

NAMES = ["Ana", computer_name("strong", 2), stand_in_name("Dee Long"), "Bo", "Cy", "Eve"]
COMPUTERS = (1, 2)
PLAYERS = 3
SEED = 1


def _named(text, names: list) -> object:
    """An event's Text with its seats (``{p0}``) named, still a Text (said in each language when drawn)."""
    if not isinstance(text, i18n.Text):
        seat = re.fullmatch(r"\{p(\d+)\}", text)  # a seat given as a parameter: the name itself (a computer's is a Text)
        if seat:
            return names[int(seat.group(1))]
        return re.sub(r"\{p(\d+)\}", lambda m: str(names[int(m.group(1))]), text)
    seats = {f"p{k}": n for k, n in enumerate(names)}
    if text.parts is not None:
        return i18n.Text(None, parts=tuple(_named(p, names) for p in text.parts), sep=text.sep)
    params = {k: _named(v, names) if isinstance(v, str) else v for k, v in text.params.items()}
    return text.with_params(**{**seats, **params})


@cache
def samples(game: str) -> list[tuple[str, dict]]:
    """What is drawn for ``game``: (what, how) pairs, ``how`` the arguments of one render call."""
    engine = get_engine(game)
    state = engine.new(PLAYERS, {}, SEED)
    rng = random.Random(SEED)
    played: list[tuple[dict, list]] = [(state, [])]
    card = None
    while not engine.is_over(state) and len(played) < 3000:
        acting = engine.to_act(state)
        before = state
        if acting:
            seat = min(acting)
            state, events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).key)
        else:
            state, events = engine.apply(state, SYSTEM, f"timer:{engine.timer(state)}")
        if card is None:
            card = next((a for a in engine.announcements(before, state) if a.get("card")), None)
        played.append((state, events))
    names = NAMES[:PLAYERS]
    picks = {"start": 0, "early": len(played) // 3, "late": 2 * len(played) // 3, "end": len(played) - 1}
    out = []
    for what, k in picks.items():
        s, events = played[k]
        last = i18n.join([_named(e.text, names) for e in events]) if events else None
        view = engine.view(s, None)
        out.append((f"{what} board", dict(kind="board", view=view, names=names, last=last)))
        if render.has_private(game) and not engine.is_over(s):
            for seat in range(PLAYERS):
                out.append((f"{what} private {seat}", dict(kind="private", view=engine.view(s, seat),
                                                           name=names[seat])))
        if engine.is_over(s) and render.has_score_sheet(game):
            out.append(("score sheet", dict(kind="sheet", view=view, names=names)))
    if card is not None and render.has_card(game):
        out.append(("card", dict(kind="card", card=dict(card["card"], names=names),
                                 note=_named(card["note"], names) if card.get("note") else None)))
    return out


def draw(game: str, how: dict, locale: str) -> None:
    kind = how["kind"]
    if kind == "board":
        render.render_board(game, how["view"], how["names"], how["last"], None, COMPUTERS, locale=locale)
    elif kind == "private":
        render.render_private(game, how["view"], how["name"], locale=locale)
    elif kind == "sheet":
        render.render_score_sheet(game, how["view"], how["names"], COMPUTERS, locale=locale)
    else:
        render.render_card(game, how["card"], how["note"], locale=locale)


TITLES = sorted({get_engine(game).title for game in GAMES}, key=len, reverse=True)
"""The games' names, drawn as published in every language ("Geek Out! Masters", "GEONEO")."""


def name_forms(locale: str) -> list[str]:
    """Every way a player's name may be drawn in ``locale``: whole, a computer's short and least forms."""
    with i18n.using(locale):
        forms = {str(i18n.here(n)) for n in NAMES[:PLAYERS]}
        forms |= {short_name(n) for n in NAMES[:PLAYERS]}
        forms |= {f for f in (least_name(n) for n in NAMES[:PLAYERS]) if f}
    return sorted(forms, key=len, reverse=True)


def is_a_name(asked: str, forms: list[str]) -> bool:
    """Whether a clipped text is a player's name (alone, or with what marks a gone player: "Ana (left)")."""
    return any(asked == f or asked.startswith(f + " (") for f in forms)


_WORD = re.compile(r"[^\W\d_]+")
_PSEUDO_LETTERS = set("aeiouncyAEIOUNCY")


def leaks(texts: list[str], forms: list[str]) -> list[str]:
    """The words of plain ASCII letters (2+) that qps would have accented, names taken out first."""
    out = []
    for t in texts:
        for f in forms:
            t = t.replace(f, " ")
        out += [w for w in _WORD.findall(t) if len(w) >= 2 and w.isascii() and _PSEUDO_LETTERS & set(w)]
    return out


@pytest.fixture(scope="module", autouse=True)
def pseudo():
    i18n.install_pseudo()
    yield
    i18n.remove_language(i18n.PSEUDO)


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_text_fits_inside_its_image_with_its_glyphs(game, locale):
    forms = name_forms(locale)
    clipped, outside, missing = [], [], []
    for what, how in samples(game):
        with record_layout() as (fits, boxes):
            draw(game, how, locale)
        clipped += [f"{what}: {asked!r} -> {drawn!r}" for asked, drawn in fits
                    if drawn != asked and not is_a_name(asked, forms)]
        for s, (x0, y0, x1, y1), (w, h) in boxes:
            if x0 < -1 or y0 < -1 or x1 > w + 1 or y1 > h + 1:
                outside.append(f"{what}: {s!r} at {(x0, y0, x1, y1)} in {w}x{h}")
            missing += [f"{what}: {ch!r} in {s!r}" for ch in set(s) if not ch.isspace() and not has_glyph(ch)]
    assert not clipped, f"{game} in {locale}: clipped (too long for its box): {sorted(set(clipped))}"
    assert not outside, f"{game} in {locale}: drawn outside the image: {sorted(set(outside))}"
    assert not missing, f"{game} in {locale}: no glyph in the font: {sorted(set(missing))}"


@pytest.mark.parametrize("game", GAMES)
def test_every_word_on_a_pseudo_language_board_was_marked(game):
    forms = [*TITLES, *name_forms(i18n.PSEUDO)]
    found: list[str] = []
    for what, how in samples(game):
        with record_layout() as (_fits, boxes):
            draw(game, how, i18n.PSEUDO)
        found += [f"{what}: {w}" for w in leaks([s for s, _box, _size in boxes], forms)]
    assert not found, f"{game}: words never marked for translation: {sorted(set(found))[:40]}"


def test_the_checks_find_what_they_look_for():
    """The harness's own checks: a name is no clipped label, English in qps is a leak, names and numbers not."""
    forms = name_forms("de")
    assert is_a_name("Computer 2 (stark)", forms) and is_a_name("Ana (weg)", forms)
    assert not is_a_name("Punktzahl", forms)
    assert leaks(["Ana: Páss 12", "Stáñd"], name_forms(i18n.PSEUDO)) == []
    assert leaks(["Ana: Pass the card", "D6"], name_forms(i18n.PSEUDO)) == ["Pass", "the", "card"]


# --- the foundation: the font, computers' names, caches and the worker trip -----------------------------------
def test_accented_letters_are_drawn_as_they_are():
    from PIL import Image, ImageDraw

    from render.common import record_texts, text

    draw = ImageDraw.Draw(Image.new("RGB", (400, 40)))
    with record_texts() as texts:
        for word in ("Brasília", "Größe", "Año", "Curaçao", "Ærø — 2×3"):
            text(draw, (0, 0), word, 20)
    assert texts == ["Brasília", "Größe", "Año", "Curaçao", "Ærø — 2×3"]  # (Aileron had none: "Brasilia")
    assert all(has_glyph(ch) for ch in "äöüßÄÖÜáéíóúñÑ¿¡çÇ€…–—×’")


def test_computer_names_are_said_and_shortened_in_the_boards_language():
    from render.common import BODY, fit_name, font

    strong, stand_in = computer_name("strong", 2), stand_in_name("Wilhelmina Long")
    with i18n.using("de"):
        assert i18n.here(strong) == "Computer 2 (stark)" and short_name(strong) == "Stark 2"
        assert short_name(stand_in) == "Bot von Wilhelmina" and least_name(stand_in) == "Bot von Wil…"
        room = font(BODY).getlength("Bot von Wilhel…") + 1
        assert fit_name(stand_in, BODY, room).startswith("Bot von Wil") and fit_name(strong, BODY, 90) == "Stark 2"
    with i18n.using("es"):
        assert i18n.here(strong) == "Ordenador 2 (difícil)" and short_name(stand_in) == "Bot de Wilhelmina"
    assert short_name(strong) == "Strong 2" and short_name(stand_in) == "Wilhelmina's bot"
    assert short_name("Computer 2 (strong)") == "Computer 2 (strong)"  # a person may be called that: not parsed


def test_a_cached_drawing_is_never_served_in_another_language():
    from render.common import cached

    drawn = []

    @cached(maxsize=4)
    def label() -> str:
        drawn.append(i18n.current())
        return i18n.here(i18n._("Closed"))

    assert label() == "Closed"
    with i18n.using("de"):
        assert label() == "Geschlossen"
    with i18n.using("es"):
        assert label() == "Cerrada"
    assert label() == "Closed" and drawn == ["en", "de", "es"]


def test_a_board_says_its_words_in_the_language_asked():
    from render.common import record_texts

    how = dict(samples("geoneo")[0][1])
    texts = {}
    for locale in ("en", "de"):
        with record_texts() as drawn:
            render.render_board("geoneo", how["view"], how["names"], None, {"closed": "-"}, COMPUTERS,
                                locale=locale)
        texts[locale] = drawn
    assert "Closed" in texts["en"] and "Geschlossen" in texts["de"]
    assert "Computer 2 (stark)" in texts["de"] or "Stark 2" in texts["de"]
