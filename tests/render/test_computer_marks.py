"""A computer's seat is marked the same way on every board: the robot's head beside its name
(``render.common.computer_mark``), drawn for exactly the seats ``render_board(..., computers=...)`` names."""

from __future__ import annotations

import pytest
from PIL import Image

import render
from games import get_engine
from games.ai import computer_name, stand_in_name
from render import common, render_board, render_score_sheet
from render.common import BODY, SMALL, canvas, fit_name, player_row
from render.geodeto import sample_game, sheet

NAMES = ["Ana", computer_name("strong"), computer_name("easy", 2), stand_in_name("Dee")]
GAMES = [("geek_out", 3), ("geoneo", 3), ("geodeto", 4), ("geomancy", 4), ("globe_twister", 4)]


@pytest.fixture
def marks(monkeypatch) -> list[tuple[float, float]]:
    """The centres of the robot's heads drawn."""
    drawn: list[tuple[float, float]] = []
    original = common.computer_mark

    def spy(draw, centre, *args, **kwargs):
        drawn.append(centre)
        return original(draw, centre, *args, **kwargs)

    monkeypatch.setattr(common, "computer_mark", spy)
    monkeypatch.setattr(sheet, "computer_mark", spy)  # the score sheet draws one by its column's name
    return drawn


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_each_computer_seat_gets_the_robot_beside_its_name(game, players, marks):
    engine = get_engine(game)
    view = engine.view(engine.new(players, None, 3), None)
    plain = render_board(game, view, NAMES[:players])
    assert marks == []
    marked = render_board(game, view, NAMES[:players], None, None, computers=(1, 2))
    assert len(marks) == 2, "one robot's head per computer seat"
    assert marked != plain
    upper, lower = sorted(marks, key=lambda c: (c[1], c[0]))  # each beside its own row
    assert upper != lower


def test_the_geodeto_score_sheet_marks_computer_columns(marks):
    *_, over = sample_game(3, 11)
    view = get_engine("geodeto").view(over, None)
    assert view["phase"] == "over"
    plain = render_score_sheet("geodeto", view, NAMES[:3])
    assert marks == []
    assert render_score_sheet("geodeto", view, NAMES[:3], computers=(1,)) != plain
    assert len(marks) == 1


def _row(name: str, computer: bool, gone=False) -> Image.Image:
    img, d = canvas(40, 400)
    player_row(d, (0, 0, 400, 40), 1, name, name_width=400, computer=computer, gone=gone)
    return img


def test_a_computer_row_draws_the_head_between_the_seat_mark_and_the_name():
    person, computer = _row(computer_name("strong"), False), _row(computer_name("strong"), True)
    head = (50, 5, 75, 35)  # where the name starts in a person's row
    assert person.crop(head).tobytes() != computer.crop(head).tobytes()
    seat_mark = (26, 5, 48, 35)
    assert person.crop(seat_mark).tobytes() == computer.crop(seat_mark).tobytes()


def test_a_computer_name_short_of_room_keeps_what_tells_it_apart():
    room = common.font(BODY).getlength("Dee's bot") + 2
    assert fit_name(computer_name("strong", 2), BODY, room) == "Strong 2"
    assert fit_name(computer_name("easy"), BODY, room) == "Easy"
    assert fit_name(stand_in_name("Dee"), BODY, room) == "Dee's bot"
    assert fit_name(computer_name("easy"), SMALL, 400) == computer_name("easy")  # whole when it fits
    assert fit_name("Ana Bee", BODY, 60) == "Ana…"  # a person's name is clipped as ever, never rewritten


def test_the_seats_travel_in_the_view():
    view = {"players": 2}
    assert render.with_computers(view, ()) is view  # no computers: the view as the engine made it
    assert render.with_computers(view, (2, 1)) == {"players": 2, "computers": [1, 2]}
    assert common.played_by_computer({"computers": [1]}, 1) and not common.played_by_computer(view, 1)


def test_a_globe_twister_run_marks_the_computers_programs(marks, monkeypatch):
    from render.globe_twister import animation
    from tests.render.test_legibility import GT, globe_twister_states

    monkeypatch.setattr(animation, "computer_mark", common.computer_mark)  # the spy
    state = next(s for what, s in globe_twister_states() if what.endswith("3p {} run"))
    last = GT.view(state, None)["last_run"]
    card = {"kind": "runs", "turn": state["turn"], "runs": last["runs"]}  # the stage's announcement
    seats = sorted(r["seat"] for r in card["runs"])
    assert len(seats) == 3
    frames = animation.runs_frames({**card, "computers": seats[1:]}, NAMES)
    assert len(marks) == len(frames) * (len(seats) - 1)  # in every frame, beside each computer's name
    marks.clear()
    animation.runs_frames(card, NAMES)
    assert marks == []
