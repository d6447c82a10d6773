"""render/records.py: the leaderboard and the rating trend images (issue 18) stay legible 400 px wide, show the
asker's own row below the top when they are not in it, and draw what they are given."""

from __future__ import annotations

import io

from PIL import Image

from render.common import MIN_CAP_HEIGHT, cap_height, record_fonts, record_texts
from render.records import render_leaderboard, render_trends


def rows(n: int) -> list[dict]:
    return [{"rank": k + 1, "user_id": 100 + k, "name": f"Player {k} with a rather long name indeed",
             "rating": 1200 - 7 * k,
             "games": 30 - k, "wins": 12 - k // 2} for k in range(n)]


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def test_the_asker_below_the_top_gets_their_own_row_after_a_gap():
    own = {"rank": 23, "user_id": 999, "name": "Zed", "rating": 871, "games": 4, "wins": 0}
    with record_texts() as texts:
        below = render_leaderboard("Geodeto", rows(10), own, 40, 999)
    assert "#23" in texts and "Zed" in texts and "(you)" in texts and "Top 10 of 40 rated players" in texts
    inside = render_leaderboard("Geodeto", rows(10), rows(10)[3], 40, 103)
    assert size(below)[1] > size(inside)[1] and size(below)[0] == size(inside)[0] == 800
    with record_texts() as texts:
        render_leaderboard("Geodeto", rows(10), None, 40, 999)
    assert "(you)" not in texts


def test_trends_name_each_game_and_write_the_first_and_last_rating():
    with record_texts() as texts:
        render_trends("Ana", [{"title": "Geodeto", "points": [985, 1010, 1042], "note": "last 3 rated"},
                              {"title": "GEONEO", "points": [960], "note": "1 rated game"}])
    assert {"Geodeto", "GEONEO", "985", "1042", "960", "1000"} <= set(texts)
    assert "1010" not in texts  # the points between are dots only


def test_every_text_is_legible_400_px_wide():
    with record_fonts() as sizes:
        render_leaderboard("Geek Out! Masters", rows(10), {**rows(1)[0], "rank": 40, "user_id": 1}, 99, 1)
        render_trends("Wilhelmina Cholmondeley-Smythe", [{"title": "Geodeto", "points": [990, 1003], "note": "x"}])
    assert min(cap_height(s) for s in sizes) >= MIN_CAP_HEIGHT
