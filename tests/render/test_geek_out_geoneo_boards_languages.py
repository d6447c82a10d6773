"""The Geek Out! Masters and GEONEO boards (and GEONEO's hand) in German, Spanish and the pseudo-language: no
label clipped ("Punktz…"; only player names may be shortened), every placeholder filled, no English word left."""

import random
import re

import pytest

import i18n
from games.geek_out.rules import GeekOut
from games.geoneo.rules import Geoneo
from render import geek_out as geek_out_board
from render import geoneo as geoneo_board
from render.common import record_texts

NAMES = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
KEPT = {"Geek", "Out", "Masters", "GEONEO", *NAMES}
"""Words no language translates: the games' published names and the players' names."""
WORD = re.compile(r"[^\W\d_]{2,}")
SHOWN_IN_QPS = set("aeioucnyAEIOUCNY")


@pytest.fixture(scope="module", autouse=True)
def pseudo():
    i18n.install_pseudo()
    yield
    i18n.remove_language(i18n.PSEUDO)


def geek_out_views():
    engine = GeekOut()
    for players in (1, 3, 8):
        seen: set[str] = set()
        for seed in range(30):
            state = engine.new(players, {}, seed)
            pick = random.Random(seed)
            while engine.to_act(state):
                if state["phase"] not in seen:
                    seen.add(state["phase"])
                    yield players, engine.view(state, None)
                seat = state["current"]
                state, _ = engine.apply(state, seat, pick.choice(engine.legal_actions(state, seat)).key)
            if "over" not in seen:
                seen.add("over")
                yield players, engine.view(state, None)


def geoneo_views():
    """(players, view, private) for every phase, the round's first card and later ones, and the end."""
    engine = Geoneo()
    for players in (2, 3, 4):
        seen: set[str] = set()
        for seed in range(10):
            state = engine.new(players, {}, seed)
            pick = random.Random(seed)
            while engine.to_act(state):
                seat = min(engine.to_act(state))
                step = state["phase"] + str(bool(state["round"]["plays"]))
                if step not in seen:
                    seen.add(step)
                    yield players, engine.view(state, None), False
                    yield players, engine.view(state, seat), True
                state, _ = engine.apply(state, seat, pick.choice(engine.legal_actions(state, seat)).key)
            if "over" not in seen:
                seen.add("over")
                yield players, engine.view(state, None), False


def drawn(lang: str) -> list[tuple[str, list[str]]]:
    boards = []
    last = i18n._("{player} places on {field}.", player="Ana", field="D6")
    with i18n.using(lang):
        for players, view in geek_out_views():
            with record_texts() as texts:
                geek_out_board.draw_board(view, NAMES[:players])
            boards.append((f"geek_out {players} {view['phase']}", texts))
        for players, view, private in geoneo_views():
            with record_texts() as texts:
                if private:
                    geoneo_board.draw_private(view, NAMES[view["seat"]])
                else:
                    geoneo_board.draw_board(view, NAMES[:players], last)
            boards.append((f"geoneo {players} {view['phase']}{' hand' if private else ''}", texts))
    return boards


@pytest.mark.parametrize("lang", ["de", "es", i18n.PSEUDO])
def test_no_label_is_clipped_and_every_word_is_translated(lang):
    problems = []
    for board, texts in drawn(lang):
        for t in texts:
            words = [w for w in WORD.findall(t) if w not in KEPT]
            english = [w for w in words if w.isascii() and SHOWN_IN_QPS.intersection(w)] if lang == i18n.PSEUDO \
                else []
            if "…" in t or "{" in t or english:
                problems.append((board, t))
    assert not problems, problems[:12]


def test_four_players_rows_show_each_team_mate_with_the_teams_points():
    """Drawn for the phone, the board has no side panel: a row per player, team mates next to each other with
    their team's piece (the colour's mark: ring, square) and its points; the TEAMS title outside a round."""
    engine = Geoneo()
    state = engine.new(4, {}, 1)
    view = engine.view(state, None)
    view = dict(view, phase="clear", scores=[12, 7, 0])
    for lang in ("en", "de"):
        with i18n.using(lang), record_texts() as texts:
            geoneo_board.draw_board(view, NAMES[:4])
        assert "TEAMS" in texts
        points = [t for t in texts if t.endswith(("pts", "Pkt."))]
        assert sorted(points) == ["12 " + points[0].split()[1]] * 2 + ["7 " + points[0].split()[1]] * 2, points
        assert all(n in texts for n in NAMES[:4])
