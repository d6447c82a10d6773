"""render/records.py: the leaderboard and the rating trend images (issue 18) stay legible 400 px wide, show the
asker's own row below the top when they are not in it, and draw what they are given."""

from __future__ import annotations

import io

from PIL import Image

from render.common import MIN_CAP_HEIGHT, PHONE_CANVAS, cap_height, record_fonts, record_texts
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
    assert size(below)[1] > size(inside)[1] and size(below)[0] == size(inside)[0] == PHONE_CANVAS
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
    assert min(cap_height(s, PHONE_CANVAS) for s in sizes) >= MIN_CAP_HEIGHT


def test_a_trends_labels_never_touch_its_lines(monkeypatch):
    """The first and last rating are written beside their dots, clear of the dashed 1000 line, the rating's line
    and its dots, wherever the ratings go (the dashed line crossed a label in 2 of 5 trends of real games; 168
    labels of these 300 trends touched a line). Each finds a bare spot: none needs the patch that would cut a
    line under it."""
    import random

    from render import common as c
    from render import records
    from render.common import record_layout

    patched = []
    monkeypatch.setattr(records, "_patch", lambda draw, box: patched.append(box))
    rng = random.Random(24)
    crossed = []
    for run in range(300):
        n = rng.choice((1, 2, 3, 5, 8, 13, 20))
        points, rating = [], 1000
        for _ in range(n):
            rating += rng.randint(-45, 45)
            points.append(rating)
        with record_layout() as (_fits, boxes):
            image = Image.open(io.BytesIO(render_trends("Ana", [{"title": "Geodeto", "points": points,
                                                                 "note": "last 20 rated"}]))).convert("RGB")
        drawn = [s for s, _, _ in boxes]
        assert drawn[:5] == ["Rating trend", "Ana", "Geodeto", "last 20 rated", "1000"], drawn  # then the labels
        labels = [box for _, box, _ in boxes[5:]]
        assert drawn[5:] == [str(points[0]), str(points[-1])][:1 if n == 1 else 2], (points, drawn)
        for x0, y0, x1, y1 in labels:
            around = image.crop((x0 - 2, y0 - 2, x1 + 2, y1 + 2))
            lines = sum(count for count, colour in around.getcolors(1 << 16) if colour in (c.SKY, c.MUTED))
            if lines:
                crossed.append((run, points, (x0, y0, x1, y1), lines))
    assert not crossed, (len(crossed), crossed[:3])
    assert not patched
