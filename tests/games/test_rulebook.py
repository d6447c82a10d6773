"""The rule pages (games/<game>/rulebook.py, issue 19 item 2): short pages whose example positions the engines
reached and that show what the page says, drawn in every language without a clipped text."""

import pytest

import i18n
import render
from bot.table.words import board_view, name_seats
from games import all_engines, get_engine
from games.ai import choose
from games.geek_out.rules import points_for
from games.geodeto.rulebook import AFRICA, AMERICA, LARGE_BLACK
from games.geodeto.rules import OCEAN, met_on, neighbours, triples
from games.geomancy.rulebook import ANA, BEN, CAPTURED
from games.geomancy.rules import DIR_NAMES, owner_of, parse_square, size_of
from games.geoneo.rules import shapes
from games.globe_twister.puzzle import from_pairs, is_solved
from games.rulebook import NAMES, example, pages
from i18n import Text
from render.common import has_glyph, record_layout

GAMES = [e.slug for e in all_engines()]
PAGES = [(game, page) for game in GAMES for page in range(len(pages(game)))]


def shown(game, page):
    return example(game, page).state


def titled(game, title) -> int:
    return next(i for i, p in enumerate(pages(game)) if str(p.title) == title)


# --- every page ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_four_to_six_short_translatable_pages(game):
    book = pages(game)
    assert 4 <= len(book) <= 6
    assert [str(p.title) for p in book][-1] == "The end" or game == "globe_twister"
    for page in book:
        assert isinstance(page.title, Text) and isinstance(page.text, Text)  # marked: in the catalogs
        assert len(page.title) <= 20, page.title
        assert len(page.text) <= 260 and page.text.count(". ") + page.text.count("; ") <= 4, page.text
        for lang in ("de", "es"):
            assert i18n.localize(page.text, lang) != str(page.text), (lang, page.text)


@pytest.mark.parametrize(("game", "page"), PAGES)
def test_every_example_is_a_state_of_the_game_the_engine_can_show(game, page):
    engine = get_engine(game)
    state = shown(game, page)
    assert state["game"] == game
    assert engine.decode(engine.encode(state)) == state  # plain JSON, as a table stores it
    engine.view(state, None)
    for seat in engine.to_act(state):
        assert engine.legal_actions(state, seat), "a position in play offers its player a move"


@pytest.mark.parametrize(("game", "page"), PAGES)
@pytest.mark.parametrize("lang", ["en", "de", "es"])
def test_every_example_is_drawn_in_every_language_with_nothing_clipped(game, page, lang):
    """The checks of tests/render/test_languages.py (``record_layout``) on every page's picture: no label
    clipped (a player's name may be; the footer's last move is running text), nothing outside the image, every
    glyph in the font."""
    render.palette(game)  # (learned from sample boards, if not yet: their texts are not the page's)
    ex = example(game, page)
    names = list(NAMES[:ex.state["players"]])
    last = " ".join(name_seats(i18n.localize(e.text, lang), names) for e in ex.events) or None
    with record_layout() as (fits, boxes):
        png = render.render_board(game, board_view(get_engine(game), ex.state), names, last, ex.focus,
                                  locale=lang)
    assert png.startswith(b"\x89PNG")
    clipped = [(asked, drawn) for asked, drawn in fits
               if drawn != asked and not any(asked == n or asked.startswith(n + " (") for n in names)]
    assert not clipped, f"{game} page {page + 1} in {lang}: clipped {clipped}"
    outside = [(s, box) for s, box, (w, h) in boxes
               if box[0] < -1 or box[1] < -1 or box[2] > w + 1 or box[3] > h + 1]
    assert not outside, f"{game} page {page + 1} in {lang}: drawn outside the image {outside}"
    assert all(has_glyph(ch) for s, _box, _size in boxes for ch in s if not ch.isspace())


def test_the_board_is_drawn_in_the_language_asked_for():
    ex = example("geoneo", 0)
    view = board_view(get_engine("geoneo"), ex.state)
    footer = pages("geoneo")[1].title  # a Text the renderer localizes
    drawn = {lang: render.render_board("geoneo", view, ["Ana", "Ben"], footer, None, locale=lang)
             for lang in ("en", "de", "es")}
    assert len(set(drawn.values())) == 3
    with i18n.using("de"):
        assert render.render_board("geoneo", view, ["Ana", "Ben"], footer, None) == drawn["en"], \
            "no locale given: English, whatever the caller's language"


# --- Geek Out! Masters -----------------------------------------------------------------------------------------
def test_geek_out_pages():
    e = get_engine("geek_out")
    roll = shown("geek_out", titled("geek_out", "A turn"))
    zones = e.zones(roll)
    assert len(zones["active"]) == 7 and len(zones["inactive"]) == 3
    assert {a.key[0] for a in e.legal_actions(roll, 1)} == {"u"}, "an action face must be used"

    flips = shown("geek_out", titled("geek_out", "Action faces"))
    assert flips["dice"][flips["selected"]]["face"] == "hero"
    assert all(a.label.startswith("Flip") for a in e.legal_actions(flips, 1) if a.key != "back")

    scoring = shown("geek_out", titled("geek_out", "42s and passing"))
    assert {a.key for a in e.legal_actions(scoring, 1)} == {"c", "p"}
    assert len(e.zones(scoring)["scored"]) == 3
    banked, _ = e.apply(scoring, 1, "p")
    assert banked["scores"][1] == [points_for(3)] == [6]

    dragon = shown("geek_out", titled("geek_out", "Dragons"))
    active = [dragon["dice"][i - 1]["face"] for i in e.zones(dragon)["active"]]
    assert "dragon" in active and dragon["dice"][dragon["selected"]]["face"] == "hero"
    targets = {a.label: a.key for a in e.legal_actions(dragon, 1)}
    saved, _ = e.apply(dragon, 1, targets["Flip a Dragon (to Superhero)"])
    eaten = e.arrange(e.decode(e.encode(dragon)), used={dragon["selected"] + 1: "hero"})  # no action left
    assert eaten["scores"][1] == [0], "the Dragon eats the turn"
    assert "dragon" not in [saved["dice"][i - 1]["face"] for i in e.zones(saved)["active"]]

    end = shown("geek_out", titled("geek_out", "The end"))
    assert e.is_over(end) and end["turns"] == [5, 5]


# --- Geodeto ---------------------------------------------------------------------------------------------------
def test_geodeto_board_and_turn():
    e = get_engine("geodeto")
    board = shown("geodeto", titled("geodeto", "The board"))
    assert [sorted(p for t in c for p in t) for c in board["towers"][:6]] == [
        [3 * c, 3 * c + 1, 3 * c + 2] for c in range(6)]
    assert [len(h) for h in board["hands"]] == [2, 2] and sum(1 for p in board["piles"] if p) == 6
    turn = example("geodeto", titled("geodeto", "Your turn"))
    assert turn.state["step"] == {"kind": "move", "pyramid": LARGE_BLACK} and turn.focus["place"] == AFRICA
    assert "back" in {a.key for a in e.legal_actions(turn.state, min(e.to_act(turn.state)))}


def test_geodeto_route_from_africa_to_america_through_the_ocean():
    e = get_engine("geodeto")
    route = example("geodeto", titled("geodeto", "Routes"))
    state, seat = route.state, min(e.to_act(route.state))
    assert AMERICA not in neighbours(AFRICA) and set(neighbours(AFRICA)) == {0, 4}  # Europe, Antarctica
    assert [e.text for e in route.events] == ["{p1} moves large black from Africa to the Ocean, on the water."]
    assert any(LARGE_BLACK in tower for tower in state["towers"][OCEAN])
    assert state["step"]["pyramid"] == LARGE_BLACK and route.focus == {"place": OCEAN, "pyramid": LARGE_BLACK}
    landings = [a for a in e.legal_actions(state, seat) if a.label.startswith("America")]
    assert landings, "from the Ocean the pyramid may land on America"
    arrived, _ = e.apply(state, seat, landings[0].key)
    assert any(LARGE_BLACK in tower for tower in arrived["towers"][AMERICA])


def test_geodeto_goal_is_claimed_and_the_end():
    e = get_engine("geodeto")
    goal = shown("geodeto", titled("geodeto", "Goals"))
    [(claimer, [claim])] = [(s, f) for s, f in enumerate(goal["fulfilled"]) if f]
    assert met_on(claim["card"], triples(goal["towers"])) == claim["continent"], "its trio stands on its continent"
    assert "skip" in {a.key for a in e.legal_actions(goal, claimer)}, "per goal a card may be drawn"
    end = shown("geodeto", titled("geodeto", "The end"))
    assert e.is_over(end) and e.result(end).winners


# --- GEONEO ----------------------------------------------------------------------------------------------------
def steps(engine, state):
    """The moves games.rulebook.play_until makes from ``state``: (before, after) pairs."""
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        after, _ = engine.apply(state, seat, choose(engine, state, seat, "normal", "rulebook"))
        yield state, after
        state = after


def test_geoneo_cards_and_placing():
    cards = shown("geoneo", titled("geoneo", "Cards"))
    plays = cards["round"]["plays"]
    assert [p["op"] for p in plays] == ["first", "+"] and plays[-1]["result"] in range(1, 7)
    assert cards["phase"] == "place", "the round's cards are down: the start player places"
    placed = shown("geoneo", titled("geoneo", "Placing"))
    field = placed["highlight"][0]
    assert placed["pieces"][field] is not None and placed["numbers"][field] in range(1, 7)


def test_geoneo_clearing_scores_the_shape_and_removes_its_corners():
    e = get_engine("geoneo")
    cleared = shown("geoneo", titled("geoneo", "Clearing away"))
    before, after = next((b, a) for b, a in steps(e, e.new(2, {}, 1)) if any(a["scores"]))
    assert after == cleared
    seat = next(s for s in range(2) if cleared["scores"][s])
    colour = before["pieces"][cleared["highlight"][0]]
    found = {corners: points for _, points, corners in shapes(before["pieces"], before["width"], colour)}
    corners = tuple(sorted(cleared["highlight"]))
    assert corners in found and cleared["scores"][seat] == found[corners] > 0
    assert all(cleared["pieces"][f] is None for f in corners)


def test_geoneo_end():
    e = get_engine("geoneo")
    end = shown("geoneo", titled("geoneo", "The end"))
    assert e.is_over(end) and e.result(end).winners


# --- Geomancy --------------------------------------------------------------------------------------------------
def test_geomancy_rounds_casting_auras():
    e = get_engine("geomancy")
    first = shown("geomancy", titled("geomancy", "Rounds"))
    per = first["per"]
    on_board = [s for stones in first["board"] for s in stones]
    assert first["round"] == 1 and on_board and {owner_of(per, s) for s in on_board} == {BEN}
    assert all(size_of(per, s) == 1 for s in on_board)
    auras = example("geomancy", titled("geomancy", "Auras"))
    assert auras.focus == {"overlay": "auras"} and auras.state["round"] == 2
    assert any(size_of(per, s) == 2 for stones in auras.state["board"] for s in stones)
    assert e.view(auras.state, None)


def test_geomancy_capture_page_shows_the_aura_capture():
    e = get_engine("geomancy")
    ex = example("geomancy", titled("geomancy", "Capture"))
    state, per = ex.state, ex.state["per"]
    d5 = parse_square(CAPTURED)
    assert state["board"][d5] == [], "the captured stone is gone"
    [captured] = state["prisoners"][ANA]
    assert owner_of(per, captured) == BEN and size_of(per, captured) == 1
    [capture] = state["last_captures"]
    assert capture["square"] == d5 and capture["by"] == ANA and capture["strength"] == 2 > 1
    [capturer_d4] = state["board"][parse_square("d4")]
    [capturer_c5] = state["board"][parse_square("c5")]
    assert DIR_NAMES[state["dirs"][capturer_d4]] == "N" and DIR_NAMES[state["dirs"][capturer_c5]] == "E"
    scores = e.scores(state)
    assert scores[ANA]["prisoners"] == 1 and scores[ANA]["total"] == scores[ANA]["board"] + 1
    assert [ev.text for ev in ex.events] == ["{p0}'s aura of 2 captures {p1}'s small on d5."]


def test_geomancy_end():
    e = get_engine("geomancy")
    end = shown("geomancy", titled("geomancy", "The end"))
    assert e.is_over(end) and end["round"] == 3


# --- Globe Twister ---------------------------------------------------------------------------------------------
def test_globe_twister_pages():
    e = get_engine("globe_twister")
    photo = shown("globe_twister", titled("globe_twister", "The photo"))
    assert not any(is_solved(from_pairs(p), False) for p in photo["puzzles"]) and photo["phase"] == "program"

    timer = shown("globe_twister", titled("globe_twister", "Programming"))
    starter = timer["starter"]
    assert timer["locked"][starter] and not all(timer["locked"])
    assert e.timer(timer) == ("sand1", 30.0)

    ran = shown("globe_twister", titled("globe_twister", "The run"))
    assert ran["last_run"] is not None and ran["turn"] == 2 and ran["phase"] == "program"

    won = shown("globe_twister", titled("globe_twister", "Winning"))
    [winner] = e.result(won).winners
    assert e.is_over(won) and is_solved(from_pairs(won["puzzles"][winner]), False)

    solo = shown("globe_twister", titled("globe_twister", "Solo levels"))
    assert solo["players"] == 1 and solo["solo"]["level"] == "tourist"
    assert solo["solo"]["solved"] and solo["solo"]["turns"] == solo["solo"]["par"]["turns"] == 1
