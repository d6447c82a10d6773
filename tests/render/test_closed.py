"""A table closed before its end (a moderator, too few players) keeps its board, with the top bar saying so."""

import io

import pytest
from PIL import Image, ImageChops

from games import get_engine
from render import render_board
from render.common import header_height


@pytest.mark.parametrize("game", ["geek_out", "geoneo", "geodeto", "geomancy", "globe_twister"])
def test_a_closed_board_says_so_on_top_and_shows_the_table_as_it_was_left(game):
    engine = get_engine(game)
    state = engine.new(engine.min_players, {}, 7)
    view = engine.view(state, None)
    names = [f"P{i}" for i in range(engine.min_players)]
    playing = Image.open(io.BytesIO(render_board(game, view, names, "a move"))).convert("RGB")
    closed = Image.open(io.BytesIO(render_board(game, view, names, "a move", {"closed": "Closed: by Mo"})))
    closed = closed.convert("RGB")
    assert closed.size == playing.size
    w, h = playing.size
    top = (0, 0, w, header_height(w))
    assert ImageChops.difference(playing.crop(top), closed.crop(top)).getbbox() is not None
    below = (0, header_height(w), w, h)
    assert ImageChops.difference(playing.crop(below), closed.crop(below)).getbbox() is None


@pytest.mark.parametrize("game", ["geek_out", "geoneo", "geodeto", "geomancy", "globe_twister"])
def test_a_game_a_departure_ended_marks_nobody_as_its_winner(game):
    """"Dee was removed by a moderator": the one left seated finishes first by default, but the board does not
    crown them (no stars or "wins" beside their name), as it does after an ordinary end."""
    from games.core import SYSTEM

    engine = get_engine(game)
    state, _ = engine.apply(engine.new(2, {}, 7), SYSTEM, "remove:1")
    assert engine.is_over(state)
    view = engine.view(state, None)
    names = ["Ana", "Dee"]
    ended = {"closed": "Ended early: Dee was removed by a moderator", "right": "Game over"}

    def below_header(png: bytes) -> Image.Image:
        image = Image.open(io.BytesIO(png)).convert("RGB")
        return image.crop((0, header_height(image.width), image.width, image.height))

    shown = below_header(render_board(game, view, names, None, ended))
    crowned = below_header(render_board(game, view, names, None))
    uncrowned = below_header(render_board(game, dict(view, winners=[]), names, None))
    assert ImageChops.difference(shown, crowned).getbbox() is not None, "the remaining player is crowned"
    assert ImageChops.difference(shown, uncrowned).getbbox() is None


@pytest.mark.parametrize("game", ["geek_out", "geoneo", "geodeto", "geomancy", "globe_twister"])
def test_a_removed_player_reads_removed_on_the_board_and_one_who_left_reads_left(game):
    """The standings say "Bo (removed by a moderator)": the board said "Bo (left)". It follows the standings."""
    from bot.table.words import board_view
    from games.core import SYSTEM
    from render.common import record_texts

    engine = get_engine(game)
    players = min(engine.max_players, 4)
    state, _ = engine.apply(engine.new(players, {}, 7), SYSTEM, "remove:1")
    state, _ = engine.apply(state, SYSTEM, "leave:2")
    names = ["Ana", "Bo", "Cy", "Dee"][:players]
    with record_texts() as texts:
        render_board(game, board_view(engine, state), names, None)
    assert any(t.startswith("Bo (") and t.endswith(("(removed)", "(out)")) for t in texts), texts
    assert any(t.startswith("Cy") and t.endswith("(left)") for t in texts), texts
    assert not any(t.startswith("Bo") and t.endswith("(left)") for t in texts)
