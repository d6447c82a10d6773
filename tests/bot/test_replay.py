"""Replays rebuilt from the action log (bot/replay.py, render/replay.py), without Discord."""

import io
import random

from PIL import Image, ImageChops

import render
from bot.replay import build, start_text
from bot.table.words import board_view, ending_focus
from games import get_engine
from games.core import SYSTEM
from render import replay as animation

PLAYERS = [{"id": 101, "name": "Ana"}, {"id": 102, "name": "Bo"}, {"id": 103, "name": "Cy"}]


def played(game: str, seats: int, seed: int, plies: int | None = None) -> list[tuple[int, str]]:
    """A game played by random legal moves (to its end, or ``plies`` moves)."""
    engine, rng = get_engine(game), random.Random(seed)
    state, log = engine.new(seats, None, seed), []
    while not engine.is_over(state) and (plies is None or len(log) < plies):
        seat = sorted(engine.to_act(state))[0]
        key = rng.choice(engine.legal_actions(state, seat)).key
        state, _ = engine.apply(state, seat, key)
        log.append((seat, key))
    return log


def final_state(game, seats, seed, log):
    engine = get_engine(game)
    state = engine.new(seats, None, seed)
    for seat, key in log:
        state, _ = engine.apply(state, seat, key)
    return engine, state


def frames_of(gif: bytes) -> list[Image.Image]:
    image = Image.open(io.BytesIO(gif))
    out = []
    for i in range(image.n_frames):
        image.seek(i)
        out.append(image.convert("RGB"))
    return out


def same_pixels(frame: Image.Image, board: Image.Image) -> bool:
    """The frame is ``board``, pixel for pixel (and so of its size: every board of a game is of one size)."""
    return frame.size == board.size and ImageChops.difference(frame, board).getbbox() is None


def test_frames_are_capped_spread_evenly_with_the_first_and_final_board():
    assert animation.pick(5, 120) == [0, 1, 2, 3, 4]
    chosen = animation.pick(301, 120)
    assert len(chosen) == 120 and chosen[0] == 0 and chosen[-1] == 300
    gaps = {b - a for a, b in zip(chosen, chosen[1:], strict=False)}
    assert gaps <= {2, 3}
    times = animation.durations(120)
    assert times[-1] == 3000 and set(times[1:-1]) == {animation.FRAME_MS} and 600 <= animation.FRAME_MS <= 1000


def test_the_last_frame_is_the_final_board_pixel_for_pixel():
    log = played("geoneo", 2, 3)
    engine, state = final_state("geoneo", 2, 3, log)
    names = ["Ana", "Bo"]
    made = build("geoneo", PLAYERS[:2], {}, 3, log, "The last words")
    frames = frames_of(made.gif)
    assert len(frames) == made.frames > 10
    final = render.render_board("geoneo", board_view(engine, state), names, "The last words", None)
    assert same_pixels(frames[-1], Image.open(io.BytesIO(final)).convert("RGB"))
    assert not same_pixels(frames[0], frames[-1])


def test_a_game_a_departure_ended_replays_to_the_board_that_said_so():
    """Stored states of old games ended by ``leave:`` lack ``ended_by``; the replay plays the log again, so
    its final board says "Ended early: Bo left" as the live one did."""
    log = played("geek_out", 2, 5, plies=12) + [(SYSTEM, "leave:1")]
    engine, state = final_state("geek_out", 2, 5, log)
    assert engine.is_over(state)
    focus = ending_focus(state, ["Ana", "Bo"])
    assert focus and "Bo left" in focus["closed"]
    made = build("geek_out", PLAYERS[:2], {}, 5, log, "Bo left.")
    final = render.render_board("geek_out", board_view(engine, state), ["Ana", "Bo"], "Bo left.", focus)
    assert same_pixels(frames_of(made.gif)[-1], Image.open(io.BytesIO(final)).convert("RGB"))
    lines = made.moves.splitlines()
    assert lines[0].startswith("  0. The game begins.")
    [left] = [line for line in lines if line.startswith(" 13. ")]
    assert left.startswith(" 13. Table: ") and "Bo" in left


def test_hidden_hands_stay_hidden_in_every_frame():
    """GEONEO's hands are secret: a frame is the spectators' board (``board_view``), as the live one is."""
    log = played("geoneo", 2, 4, plies=6)
    engine = get_engine("geoneo")
    made = build("geoneo", PLAYERS[:2], {}, 4, log)
    state = engine.new(2, None, 4)
    assert engine.view(state, 0) != engine.view(state, None)  # there is something to hide
    first = frames_of(made.gif)[0]
    drawn = Image.open(io.BytesIO(render.render_board(
        "geoneo", board_view(engine, state), ["Ana", "Bo"], start_text(engine, state, ["Ana", "Bo"]), None)))
    assert same_pixels(first, drawn.convert("RGB"))


def test_a_long_game_is_sampled_and_stays_well_under_the_upload_limit():
    log = played("geomancy", 2, 1)
    assert len(log) > 200
    made = build("geomancy", PLAYERS[:2], {}, 1, log)
    assert made.plies == len(log)
    assert 2 < len(frames_of(made.gif)) <= made.frames == animation.MAX_FRAMES  # (equal boards merge)
    assert len(made.gif) <= animation.MAX_BYTES < 10 * 1024 * 1024
    numbers = [int(line[:4].strip(" .")) for line in made.moves.splitlines() if line[:4].strip(" .").isdigit()]
    assert numbers == sorted(set(numbers)) and numbers[0] == 0 and len(numbers) > len(log) // 3
    assert "(a step of a longer choice)" not in made.moves  # a step that says nothing gets no line


def test_a_replay_over_the_size_budget_is_made_again_from_fewer_frames(monkeypatch):
    log = played("geoneo", 2, 3)
    full = build("geoneo", PLAYERS[:2], {}, 3, log, "The last words")
    monkeypatch.setattr(animation, "MAX_BYTES", len(full.gif) // 2)
    smaller = build("geoneo", PLAYERS[:2], {}, 3, log, "The last words")
    assert smaller.frames < full.frames and len(smaller.gif) <= len(full.gif) // 2
    before, after = frames_of(full.gif), frames_of(smaller.gif)
    assert same_pixels(after[0], before[0]) and same_pixels(after[-1], before[-1])


def test_a_seat_a_computer_took_over_is_its_person_until_the_hand_over():
    """The stored entry of a handed-over seat is the computer's ("was": the person); the replay names the seat
    as it was at each move: the person's before ``handover:<seat>``, the computer's from it on."""
    engine, rng = get_engine("geek_out"), random.Random(8)
    state, log = engine.new(3, None, 8), []
    sol = sorted(engine.to_act(state))[0]  # the seat that plays first: named before the hand-over too
    while len(log) < 16 and not engine.is_over(state):
        if len(log) == 6:
            key, seat = f"handover:{sol}", SYSTEM
        else:
            seat = sorted(engine.to_act(state))[0]
            key = rng.choice(engine.legal_actions(state, seat)).key
        state, _ = engine.apply(state, seat, key)
        log.append((seat, key))
    people = [{"id": 101, "name": "Ana"}, {"id": 102, "name": "Bo"}, {"id": 103, "name": "Sol"}]
    players = [*people[:sol], {"id": -1, "name": "Computer for Sol", "computer": "normal",
                               "was": {"id": 103, "name": "Sol"}}, *people[sol:2]]
    at_start = [p["name"] for p in people[:sol]] + ["Sol"] + [p["name"] for p in people[sol:2]]
    made = build("geek_out", players, {}, 8, log, "The last words")
    lines = made.moves.splitlines()
    [handover] = [line for line in lines if line.startswith("  7. ")]
    assert handover == "  7. Table: A computer takes over Sol's seat."
    before, after = "\n".join(lines[:lines.index(handover)]), "\n".join(lines[lines.index(handover) + 1:])
    assert "Computer for Sol" not in before and "Sol" in before
    assert "Computer for Sol" in after
    assert "(a step of a longer choice)" not in made.moves
    first_state = engine.new(3, None, 8)
    first = render.render_board("geek_out", board_view(engine, first_state), at_start,
                                start_text(engine, first_state, at_start), None)
    frames = frames_of(made.gif)
    assert same_pixels(frames[0], Image.open(io.BytesIO(first)).convert("RGB"))
    seated = [p["name"] for p in players]
    focus = ending_focus(state, seated) if engine.is_over(state) else None
    final = render.render_board("geek_out", board_view(engine, state), seated, "The last words", focus, (sol,))
    assert same_pixels(frames[-1], Image.open(io.BytesIO(final)).convert("RGB"))


def test_the_move_list_heading_names_the_person_whose_seat_a_computer_took_over():
    from bot.cogs.replay import heading
    from bot.store import FinishedGame

    players = [{"id": 101, "name": "Ana"}, {"id": 102, "name": "Bo"},
               {"id": -1, "name": "Computer for Sol", "computer": "normal", "was": {"id": 103, "name": "Sol"}}]
    game = FinishedGame(10, 1, 2, 3, "geoneo", 0.0, {"players": players, "ranking": [[0], [1], [2]]})
    assert heading(game, "GeoNeo").splitlines() == [
        "GeoNeo, game #10, finished 1970-01-01 00:00 UTC", "Players: Ana, Bo, Sol (a computer took over)"]


def test_every_frame_is_the_final_boards_size_and_the_last_one_is_the_final_board():
    """A game whose boards change size (Geek Out's final board dropped its dice: 800 x 302 after 800 x 582): the
    GIF is the final board's size and its last frame is the final board, pixel for pixel (it was the final board
    at the top of a taller canvas, blank below)."""
    log = played("geek_out", 4, 2)
    engine, state = final_state("geek_out", 4, 2, log)
    players = PLAYERS + [{"id": 104, "name": "Dee"}]
    names = [p["name"] for p in players]
    made = build("geek_out", players, {}, 2, log, "The last words")
    final = Image.open(io.BytesIO(render.render_board("geek_out", board_view(engine, state), names, "The last words",
                                                      ending_focus(state, names, players)))).convert("RGB")
    middle = render.draw_board("geek_out", board_view(engine, final_state("geek_out", 4, 2, log[:5])[1]), names)
    frames = frames_of(made.gif)
    assert Image.open(io.BytesIO(made.gif)).size == final.size == middle.size
    assert frames[-1].size == final.size and ImageChops.difference(frames[-1], final).getbbox() is None
