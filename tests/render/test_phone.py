"""Every image reads on a 360 px wide phone (issue 26, part 3; docs/rendering.md, "Legible on a phone").

The table is a Components V2 message: the board is a media gallery item inside a container, which a 360 px phone
shows about ``PHONE_WIDTH`` (240) px wide, whatever the image's own width. For a set of real positions of every
game (the states ``tests/render/test_legibility.py`` builds from seeded play: every phase, 1-8 players, game over, a
player who left, long names) every image a player is shown (boards, private panels, cards, score sheets, run
animations, the leaderboard and the rating charts) is drawn while ``render.common.record_labels`` records every
text (text, font size, ink box) and every meaningful mark (a stone, a pyramid, a die, a piece, a tile) placed. The
image is then scaled to ``PHONE_WIDTH``: every label's cap height must stay at or above ``PHONE_MIN_CAP`` and every
mark at or above its ``PHONE_MIN_MARK`` across.

``python -m tests.render.test_phone`` prints the smallest label and mark per game and kind of image (the
figures in docs/rendering.md).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from functools import cache

import pytest
from PIL import Image

from render import render_board, render_card, render_points_sheet, render_private, render_score_sheet
from render.common import PHONE_MIN_CAP, PHONE_MIN_MARK, PHONE_WIDTH, Label, Mark, cap_em, record_labels
from render.records import render_leaderboard, render_trends
from render.tournament import render_bracket, render_standings
from tests.render import test_legibility as states

GAMES = ("geek_out", "geoneo", "geodeto", "geomancy", "globe_twister", "records", "tournament")


def games(with_records: bool = True) -> list[str]:
    return [g for g in GAMES if with_records or g not in ("records", "tournament")]
NAMES = states.SHORT
LONG = states.LONG


class Drawn:
    """One image drawn while recording: its size, its labels and marks, and the scale a phone shows it at."""

    def __init__(self, what: str, draw: Callable[[], bytes]):
        with record_labels() as (labels, marks):
            data = draw()
        img = Image.open(io.BytesIO(data))
        self.what, self.size = what, img.size
        self.scale = PHONE_WIDTH / img.width
        self.labels: list[Label] = labels
        self.marks: list[Mark] = marks

    def cap(self, label: Label) -> float:
        """The label's cap height on the phone, in px."""
        return label.size * cap_em() * self.scale

    def smallest_label(self) -> Label | None:
        return min(self.labels, key=self.cap, default=None)

    def small_labels(self) -> list[Label]:
        return [lb for lb in self.labels if self.cap(lb) < PHONE_MIN_CAP - 1e-9]

    def small_marks(self) -> list[Mark]:
        return [m for m in self.marks if min(m.width, m.height) * self.scale < PHONE_MIN_MARK[m.kind] - 1e-9]


# --- the images --------------------------------------------------------------------------------------------
def _geek_out() -> Iterator[tuple[str, Callable[[], bytes]]]:
    for what, s in states.geek_out_states():
        view = states.GO.view(s, None)
        for who in (NAMES, LONG):
            yield what, lambda v=view, w=who[: s["players"]]: render_board("geek_out", v, w, states.LAST)
        if view["phase"] == "over":
            yield what + " score sheet", lambda v=view, n=s["players"]: render_points_sheet(v, LONG[:n])


def _geoneo() -> Iterator[tuple[str, Callable[[], bytes]]]:
    for what, s in states.geoneo_states():
        n, view = s["players"], states.GN.view(s, None)
        yield what, lambda v=view, n=n: render_board("geoneo", v, LONG[:n], states.LAST)
        if s["phase"] == "clear" and (focus := states.focus_for(s)):
            yield what + " focus", lambda v=view, f=focus, n=n: render_board("geoneo", v, NAMES[:n], None, f)
        for seat in range(n):
            yield f"{what} hand {seat}", lambda s=s, seat=seat: render_private("geoneo", states.GN.view(s, seat), LONG[0])


def _geodeto() -> Iterator[tuple[str, Callable[[], bytes]]]:
    for what, s in states.geodeto_states():
        n, view = s["players"], states.GD.view(s, None)
        for who in (NAMES, LONG):
            yield what, lambda v=view, w=who[:n]: render_board("geodeto", v, w, states.LAST)
        if focus := states.geodeto_focus(s):
            yield what + " focus", lambda v=view, f=focus, n=n: render_board("geodeto", v, NAMES[:n], None, f)
        if s["phase"] == "over":
            yield what + " score sheet", lambda v=view, n=n: render_score_sheet("geodeto", v, LONG[:n])
            for cards in view["fulfilled"]:
                for card in cards[:1]:
                    yield f"{what} card {card['name']}", lambda c=card: render_card("geodeto", c, "Ana fulfilled it")
        for seat in sorted({0, s["current"]}):
            yield f"{what} goals {seat}", lambda s=s, seat=seat: render_private("geodeto", states.GD.view(s, seat), LONG[0])


def _geomancy() -> Iterator[tuple[str, Callable[[], bytes]]]:
    for what, s in states.geomancy_states():
        view, n = states.GM.view(s, None), s["players"]
        for who in (NAMES, LONG):
            yield what, lambda v=view, w=who[:n]: render_board("geomancy", v, w, states.LAST)
        for focus in states.geomancy_focuses(s):
            yield f"{what} {focus}", lambda v=view, f=focus, n=n: render_board("geomancy", v, NAMES[:n], None, f)


def _globe_twister() -> Iterator[tuple[str, Callable[[], bytes]]]:
    for what, s in states.globe_twister_states():
        view, n = states.GT.view(s, None), s["players"]
        for who in (NAMES, LONG):
            yield what, lambda v=view, w=who[:n]: render_board("globe_twister", v, w, states.LAST)
        for seat in range(n):
            yield f"{what} panel {seat}", lambda s=s, seat=seat: render_private("globe_twister", states.GT.view(s, seat), LONG[0])
        last = view.get("last_run")
        if last and (what.endswith(" run") or what.endswith(" over")):
            card = {"kind": "runs", "turn": last["turn"], "runs": last["runs"], "names": NAMES[:n]}
            yield what + " runs", lambda c=card: render_card("globe_twister", c)


def _records() -> Iterator[tuple[str, Callable[[], bytes]]]:
    rows = [{"rank": k + 1, "user_id": 100 + k, "name": LONG[k % len(LONG)], "rating": 1200 - 7 * k,
             "games": 30 - k, "wins": 12 - k // 2} for k in range(10)]
    yield "leaderboard", lambda: render_leaderboard("Geodeto", rows, {**rows[0], "rank": 40, "user_id": 1}, 99, 1)
    yield "leaderboard, asker on top", lambda: render_leaderboard("Geek Out! Masters", rows, rows[0], 10, 100)
    charts = [{"title": "Geodeto", "points": [985, 1010, 1042, 990, 1003], "note": "last 5 rated"},
              {"title": "GEONEO", "points": [960], "note": "1 rated game"},
              {"title": "Globe Twister", "points": list(range(900, 1200, 15)), "note": "last 20 rated"}]
    yield "rating charts", lambda: render_trends(LONG[1], charts)


def _tournament() -> Iterator[tuple[str, Callable[[], bytes]]]:
    from tests.render.test_tournament import bracket_data, standings_data

    for kind, n in (("duels", 8), ("tables", 10), ("duels", 64), ("knockout", 8)):
        for locale in ("en", "de", "es"):
            data = standings_data(kind, n, LONG)
            yield f"standings {kind} {n} {locale}", lambda d=data, lc=locale: render_standings(d, lc)
    for size, n, played in ((2, 8, 1), (2, 5, 9), (2, 64, 3), (3, 10, 1), (4, 20, 1)):
        data = bracket_data(size, n, played, LONG)
        yield f"bracket {size} {n} {played}", lambda d=data: render_bracket(d, "de")


IMAGES = {"geek_out": _geek_out, "geoneo": _geoneo, "geodeto": _geodeto, "geomancy": _geomancy,
          "globe_twister": _globe_twister, "records": _records, "tournament": _tournament}


@cache
def drawn(game: str) -> tuple[Drawn, ...]:
    return tuple(Drawn(f"{game}: {what}", draw) for what, draw in IMAGES[game]())


def kind(d: Drawn) -> str:
    """The kind of image, for the report: board, hand/goals/panel, card, score sheet, runs."""
    for word in ("score sheet", "hand", "goals", "panel", "card", "runs", "leaderboard", "charts", "standings",
                 "bracket"):
        if word in d.what:
            return word
    return "board"


# --- the tests ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", games())
def test_every_label_reads_on_a_phone(game):
    images = drawn(game)
    assert images and all(d.labels for d in images), game
    failures = [(d.what, d.size, lb.text, lb.size, round(d.cap(lb), 2)) for d in images for lb in d.small_labels()]
    assert not failures, (f"{len(failures)} labels under a {PHONE_MIN_CAP} px cap height at {PHONE_WIDTH} px wide, "
                          f"e.g. {sorted(failures, key=lambda f: f[-1])[:8]}")


@pytest.mark.parametrize("game", games(with_records=False))
def test_every_mark_stays_distinguishable_on_a_phone(game):
    images = drawn(game)
    boards = [d for d in images if kind(d) == "board"]
    assert any(d.marks for d in boards), f"{game}: no mark recorded on its boards"
    failures = [(d.what, m.kind, round(min(m.width, m.height) * d.scale, 1)) for d in images for m in d.small_marks()]
    assert not failures, f"{len(failures)} marks too small at {PHONE_WIDTH} px wide, e.g. {failures[:8]}"


def test_the_floor_is_what_the_note_says():
    """240 px wide, a 7.2 px cap: a 36 px font on an 800 px board fails, 37 px passes; a 40 px tile on 800 fails."""
    assert PHONE_WIDTH == 240
    scale = PHONE_WIDTH / 800
    assert 36 * cap_em() * scale < PHONE_MIN_CAP <= 37 * cap_em() * scale
    assert 40 * scale < PHONE_MIN_MARK["tile"] <= 67 * scale


def report() -> None:
    """The smallest label and mark per game and kind of image, on the phone (docs/rendering.md)."""
    for game in GAMES:
        by_kind: dict[str, list[Drawn]] = {}
        for d in drawn(game):
            by_kind.setdefault(kind(d), []).append(d)
        for k, images in by_kind.items():
            low = min(images, key=lambda d: d.cap(d.smallest_label()))
            lb = low.smallest_label()
            bad = sum(len(d.small_labels()) for d in images)
            total = sum(len(d.labels) for d in images)
            line = (f"{game:14s} {k:12s} {len(images):4d} images; smallest label {low.cap(lb):4.1f} px cap "
                    f"({lb.size:g} px font, {lb.text[:24]!r}, {low.size[0]}x{low.size[1]}); "
                    f"{bad}/{total} labels under {PHONE_MIN_CAP}")
            marks = [(min(m.width, m.height) * d.scale, m.kind) for d in images for m in d.marks]
            if marks:
                size, what = min(marks)
                line += f"; smallest mark {what} {size:.1f} px"
            print(line, flush=True)


if __name__ == "__main__":
    report()
