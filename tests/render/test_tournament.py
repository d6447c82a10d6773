"""render/tournament.py: the standings and the bracket images (issue 28), drawn from real tournaments
(bot/tournament) with their words given, 600 px wide; the phone's legibility is tests/render/test_phone.py's."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.tournament.pairing import Entrant, Played, bracket, champion, knockout_round, standings, swiss_round
from render.common import PHONE_CANVAS, record_texts
from render.tournament import render_bracket, render_standings, window


def _name(names: list[str], uid: int) -> str:
    return names[(uid - 1) % len(names)] + ("" if uid <= len(names) else f" {uid}")


def standings_data(kind: str, n: int, names: list[str], asker: int = 3) -> dict:
    """The standings of a seeded tournament of ``n`` (duels, tables of 3, or a knockout of duels), one player
    gone after round 2, as the bot would hand them over."""
    rnd = random.Random(n)
    es = [Entrant(i, i) for i in range(1, n + 1)]
    played: list[Played] = []
    size = 3 if kind == "tables" else 2
    fmt = "knockout" if kind == "knockout" else "swiss"
    for number in range(1, 5):
        if number == 3:
            es[3] = Entrant(4, 4, 2)
        got = (knockout_round if fmt == "knockout" else swiss_round)(es, played, size, number)
        if got is None:
            break
        for t in got.tables:
            order = sorted(t, key=lambda u: u * rnd.random())
            played.append(Played(number, t, tuple(order.index(u) + 1 for u in t)))
        played += [Played(number, (b,), (1,), True) for b in got.byes]
    rows = [{"place": s.place, "name": _name(names, s.id), "points": s.points, "tiebreaks": list(s.tiebreaks),
             "games": s.played, "wins": s.wins, "dropped": s.dropped, "you": s.id == asker, "out": s.eliminated_in}
            for s in standings(fmt, es, played, size)]
    return {"title": "Spring Cup · Geek Out! Masters", "note": "After round 4 of 4", "kind": kind, "rows": rows}


def bracket_data(size: int, n: int, rounds: int, names: list[str], asker: int = 5) -> dict:
    """A knockout of ``n`` in tables of ``size`` after ``rounds`` rounds (the better seed wins)."""
    es = [Entrant(i, i) for i in range(1, n + 1)]
    played: list[Played] = []
    for number in range(1, rounds + 1):
        got = knockout_round(es, played, size, number)
        if got is None:
            break
        played += [Played(number, t, tuple(sorted(t).index(u) + 1 for u in t)) for t in got.tables]
    plan = bracket(es, played, size)
    out = [{"name": "Final" if k == len(plan) - 1 else f"Round {k + 1}",
            "matches": [{"players": [None if u is None else {"name": _name(names, u), "you": u == asker}
                                     for u in m.seats],
                         "winner": m.seats.index(m.winner) if m.winner is not None else None, "bye": m.bye}
                        for m in r]} for k, r in enumerate(plan)]
    won = champion(es, played, size)
    return {"title": "Winter Knockout · GEONEO", "note": f"Round {min(rounds + 1, len(plan))} of {len(plan)}",
            "rounds": out, "banner": None if won is None else f"{_name(names, won)} wins the Winter Knockout"}


NAMES = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def test_standings_mark_the_podium_the_asker_and_who_left():
    data = standings_data("duels", 8, NAMES)
    with record_texts() as texts:
        png = render_standings(data)
    assert size(png)[0] == PHONE_CANVAS
    assert {"1", "2", "3", "#4", "(you)", "(left)", "Pts", "Bh", "SB", "G/W"} <= set(texts)
    assert [r["name"] for r in data["rows"]][:1][0] in texts
    assert "Dee" in texts and data["rows"][[r["name"] for r in data["rows"]].index("Dee")]["dropped"]


def test_sixty_four_players_show_the_top_twenty_and_the_asker():
    data = standings_data("duels", 64, NAMES, asker=40)
    own = next(r for r in data["rows"] if r["you"])
    assert data["rows"].index(own) >= 20
    with record_texts() as texts:
        png = render_standings(data)
    assert f"#{own['place']}" in texts and "(you)" in texts and "and 43 more players" in texts
    assert data["rows"][19]["name"] in texts and data["rows"][20]["name"] not in texts
    small = render_standings(standings_data("duels", 8, NAMES))
    assert size(small)[1] < size(png)[1] < 1500


def test_tables_and_knockout_columns_and_the_german_words():
    with record_texts() as texts:
        render_standings(standings_data("tables", 10, NAMES))
    assert {"ΣPl", "Opp"} <= set(texts)
    with record_texts() as texts:
        render_standings(standings_data("knockout", 8, NAMES))
    assert {"Won", "Out", "R1"} <= set(texts)
    with record_texts() as texts:
        render_standings(standings_data("duels", 8, NAMES), "de")
    assert "Pkt" in texts and "(du)" in texts and "(gegangen)" in texts


def test_the_bracket_shows_winners_byes_and_the_banner():
    data = bracket_data(2, 5, 9, NAMES)
    with record_texts() as texts:
        png = render_bracket(data)
    assert size(png)[0] == PHONE_CANVAS
    assert "Ana wins the Winter Knockout" in texts and texts.count("bye") == 3 and "Final" in texts
    with record_texts() as texts:
        render_bracket(bracket_data(2, 8, 1, NAMES), "es")
    assert "…" in texts  # the final's seats are not known yet


def test_a_bye_and_the_round_names_are_drawn_whole_in_every_language():
    """Five players in duels: three columns, the top seeds' byes in round 1 ("descanso" and "Freilos" beside the
    name left it no room: the word has a line of its own); the rounds' names fit their column."""
    data = bracket_data(2, 5, 1, NAMES)
    byes = [p["name"] for m in data["rounds"][0]["matches"] if m["bye"] for p in m["players"] if p]
    assert len(data["rounds"]) == 3 and len(byes) == 3
    for locale, bye, names in (("en", "bye", ("Quarter-finals", "Semi-finals", "Final")),
                               ("de", "Freilos", ("Viertelfinale", "Halbfinale", "Finale")),
                               ("es", "descanso", ("Cuartos", "Semifinales", "Final"))):
        rounds = [dict(r, name=n) for r, n in zip(data["rounds"], names, strict=True)]
        with record_texts() as texts:
            render_bracket(dict(data, rounds=rounds), locale)
        assert all(texts.count(name) == 2 for name in byes), (locale, texts)  # round 1's bye, then round 2
        assert texts.count(bye) == 3 and set(names) <= set(texts), (locale, texts)


def test_the_bracket_window_keeps_the_last_three_rounds():
    rounds = bracket_data(2, 64, 3, NAMES)["rounds"]
    assert len(rounds) == 6 and window(rounds) == 3  # the quarter-finals on
    assert window(bracket_data(2, 8, 0, NAMES)["rounds"]) == 0
    assert window(bracket_data(4, 20, 1, NAMES)["rounds"]) == 1  # 16 in tables of 4, then the final
    with record_texts() as texts:
        png = render_bracket(bracket_data(2, 64, 3, NAMES))
    assert "Rounds 1 to 3 are in the standings." in texts and size(png)[1] < 1000


def _given(data: dict) -> list[str]:
    """The words the caller hands over (already in the reader's language): left out of the leak check."""
    words = [data["title"], data["note"], data.get("banner") or ""]
    words += [r["name"] for r in data.get("rows", ())]
    for rnd in data.get("rounds", ()):
        words.append(rnd["name"])
        words += [p["name"] for m in rnd["matches"] for p in m["players"] if p]
    return sorted((w for w in words if w), key=len, reverse=True)


def test_every_own_word_is_marked_and_drawn_inside_with_its_glyphs():
    import i18n
    from render.common import has_glyph, record_layout
    from tests.render.test_languages import leaks

    i18n.install_pseudo()
    try:
        for data, draw in [(standings_data(kind, n, NAMES), render_standings)
                           for kind, n in (("duels", 8), ("tables", 10), ("knockout", 8), ("duels", 64))] + \
                          [(bracket_data(size, n, k, NAMES), render_bracket)
                           for size, n, k in ((2, 5, 9), (2, 64, 3), (3, 10, 1))]:
            for locale in ("de", "es", i18n.PSEUDO):
                with record_layout() as (_fits, boxes):
                    draw(data, locale)
                for s, (x0, y0, x1, y1), (w, h) in boxes:
                    assert -1 <= x0 and -1 <= y0 and x1 <= w + 1 and y1 <= h + 1, (locale, s)
                    assert all(ch.isspace() or has_glyph(ch) for ch in s), (locale, s)
                if locale == i18n.PSEUDO:
                    said = [s for s, _box, _size in boxes]
                    assert not leaks(said, _given(data) + ["Bh", "SB"]), leaks(said, _given(data))
    finally:
        i18n.remove_language(i18n.PSEUDO)
