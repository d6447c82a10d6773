"""The leaderboard's column titles (/leaderboard, also a season's) stand apart in every language: Spanish
"Puesto", "Partidas" and "Victorias" ran into their neighbours."""

import pytest

import i18n
from render.common import record_layout
from render.records import COLUMNS, render_leaderboard

ROWS = [{"rank": 1, "user_id": 1, "name": "Ana", "rating": 1089, "games": 3, "wins": 3},
        {"rank": 2, "user_id": 2, "name": "Bo", "rating": 1063, "games": 2, "wins": 2}]


@pytest.mark.parametrize("locale", ["en", "de", "es"])
def test_the_column_titles_do_not_touch(locale):
    with i18n.using(locale):
        titles = [i18n.here(i18n._(name)) for name, _x, _anchor in COLUMNS]
    with record_layout() as (_fits, boxes):
        render_leaderboard("Geek Out! Masters · Spring", ROWS, ROWS[1], 2, 2, locale=locale)
    drawn = {}
    for text, box, _size in boxes:
        if text in titles and text not in drawn:
            drawn[text] = box
    assert list(drawn) == titles, (drawn, titles)
    for left, right in zip(titles, titles[1:], strict=False):
        assert drawn[left][2] + 8 <= drawn[right][0], (locale, left, drawn[left], right, drawn[right])
