"""The /learn coaches: the suggested move is legal, and what the advice says is true of the position (checked
against the engine by playing the move, not against the coach's own arithmetic)."""

from __future__ import annotations

import random

import pytest

import i18n
from games.coach import advise
from games.core import copy_state, get_engine
from games.geek_out.ai import points_solver, rolls
from games.geek_out.rules import DICE
from games.geomancy.model import STEPS, square_probability
from games.geoneo.rules import shapes


def setup_module():
    i18n.install_pseudo()


def _games(slug: str, players: int, seeds, options=None, follow: float = 0.7, limit: int = 600):
    """Yields (engine, state, seat, advice) over seeded games that follow the advice most of the time."""
    engine = get_engine(slug)
    for seed in seeds:
        state, rng = engine.new(players, options or {}, seed), random.Random(seed)
        for _ in range(limit):
            if not engine.to_act(state):
                break
            seat = min(engine.to_act(state))
            advice = advise(engine, state, seat)
            yield engine, state, seat, advice
            keys = [a.key for a in engine.legal_actions(state, seat)]
            state, _ = engine.apply(state, seat, advice.key if rng.random() < follow else rng.choice(keys))


def _said(advice) -> str:
    """Both texts in the pseudo-language: they must format fully (no placeholder left)."""
    text = i18n.localize(advice.choice, "qps") + " " + i18n.localize(advice.why, "qps")
    assert "{" not in text, text
    return text


@pytest.mark.parametrize("slug,players,options", [
    ("geek_out", 2, {}), ("geoneo", 2, {}), ("geoneo", 4, {}), ("geodeto", 3, {}), ("geomancy", 2, {}),
    ("globe_twister", 1, {"puzzle": "backpacker"}), ("globe_twister", 2, {}),
])
def test_every_suggestion_is_legal_and_every_text_formats(slug, players, options):
    for engine, state, seat, advice in _games(slug, players, range(4), options):
        assert advice.key in [a.key for a in engine.legal_actions(state, seat)]
        _said(advice)


def test_geek_out_values_are_the_solver_s_and_the_suggestion_is_the_best():
    solver = points_solver()
    checked = 0
    for _engine, state, _seat, advice in _games("geek_out", 2, range(20)):
        if state["phase"] == "choose":
            facts = advice.facts
            scored = facts["bank"]
            n = next(k for k in range(DICE + 1) if k * (k + 1) // 2 == scored)
            inactive = DICE - n - facts["used"]
            # Continue's value is what the used dice's roll is worth, averaged over every outcome
            expected = sum(p * solver.value(roll, inactive, n) for roll, p in rolls(facts["used"]))
            assert facts["roll"] == pytest.approx(expected, abs=1e-6)
            assert advice.key == ("c" if facts["roll"] > facts["bank"] else "p")
            checked += 1
        else:
            values = advice.facts["values"]
            assert values[advice.key] == pytest.approx(max(values.values()))
    assert checked > 20


def _greedy(pieces, width, colour) -> int:
    board, total = list(pieces), 0
    while found := shapes(board, width, colour):
        _key, points, corners = found[0]
        total += points
        for f in corners:
            board[f] = None
    return total


def test_geoneo_points_stated_are_what_the_move_scores():
    placed = cleared = 0
    for engine, state, seat, advice in _games("geoneo", 2, range(6)):
        colour = state["pieces"] and engine.view(state, seat)["colours"][seat]
        if state["phase"] == "place":
            before = _greedy(state["pieces"], state["width"], colour)
            after_state, _ = engine.apply(state, seat, advice.key)
            after = _greedy(after_state["pieces"], state["width"], colour)
            assert advice.facts["gain"] == after - before
            placed += 1
        elif state["phase"] == "clear":
            after_state = copy_state(state)
            engine._do(after_state, seat, advice.key, [])  # the clearing alone (apply goes on with forced ones)
            assert after_state["scores"][colour] - state["scores"][colour] == advice.facts["points"]
            cleared += 1
    assert placed > 20 and cleared > 3


def test_geodeto_a_fulfilment_it_announces_happens():
    announced = 0
    for engine, state, seat, advice in _games("geodeto", 2, range(6), follow=1.0):
        claimed = advice.facts.get("claimed")
        if claimed and state["step"] is not None:
            after, _ = engine.apply(state, seat, advice.key)
            got = {f["card"] for f in after["fulfilled"][seat]}
            assert set(claimed) <= got
            announced += 1
    assert announced >= 3


def test_geomancy_captures_and_chances_are_the_engine_s():
    captures = casts = 0
    for engine, state, seat, advice in _games("geomancy", 2, range(6)):
        if state["phase"] == "turn" and state["step"] is not None and advice.key.startswith("d"):
            after, _ = engine.apply(state, seat, advice.key)
            taken = len(after["prisoners"][seat]) - len(state["prisoners"][seat])
            assert taken == advice.facts["captured"]
            assert engine.scores(after)[seat]["total"] == advice.facts["after"]
            captures += taken > 0
        if advice.key.startswith("c"):
            aim, height = int(advice.key[1:]), state["options"]["height"]
            around = [aim, *(q for d in range(8) if (q := STEPS[aim][d][1]) is not None)]
            assert advice.facts["exact"] == pytest.approx(square_probability(aim, aim, height))
            assert advice.facts["near"] == pytest.approx(sum(square_probability(aim, q, height) for q in around))
            casts += 1
    assert captures > 3 and casts > 3


def test_globe_twister_a_program_said_to_solve_does():
    engine = get_engine("globe_twister")
    for level in ("tourist", "backpacker", "globetrotter"):
        state = engine.new(1, {"puzzle": level}, 11)
        for _ in range(300):
            if not engine.to_act(state):
                break
            advice = advise(engine, state, 0)
            solves_now = advice.key == "lock" and advice.facts["after"] == 0
            state, _ = engine.apply(state, 0, advice.key)
            if solves_now:
                assert engine.view(state, 0)["solo"]["solved"]
        assert engine.is_over(state) and engine.view(state, 0)["solo"]["solved"]
