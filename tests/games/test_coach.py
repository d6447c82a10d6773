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
from games.globe_twister.puzzle import CELL_NAMES


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


def test_geek_out_with_no_42_scored_nothing_is_said_to_be_at_risk():
    """A turn's first choice to continue often comes with no 42 scored yet: no "0 42s at risk", no "bank 0"."""
    seen = 0
    for _engine, state, _seat, advice in _games("geek_out", 2, range(10)):
        if state["phase"] == "choose" and advice.facts["bank"] == 0:
            said = str(advice.choice) + " " + str(advice.why)
            assert "0 42s" not in said and "at risk" not in said and "banks 0" not in said, said
            assert "No 42 is scored yet" in said
            seen += 1
    assert seen > 3


def test_geek_out_never_compares_with_going_back_a_step():
    """Choose another die (``back``) only undoes the first click: the next best choice named is a real move."""
    targets = 0
    for engine, state, seat, advice in _games("geek_out", 2, range(10)):
        if state["phase"] == "target":
            back = next((a.label for a in engine.legal_actions(state, seat) if a.key == "back"), None)
            assert back is None or str(back) not in str(advice.why), advice.why
            targets += 1
    assert targets > 10


def test_geodeto_a_bonus_draw_says_where_it_comes_from_and_what_cards_are_worth():
    bonuses = 0
    for _engine, state, _seat, advice in _games("geodeto", 2, range(6), follow=1.0):
        if state["phase"] == "bonus":
            said = _said(advice)
            assert "fulfilled" in str(advice.choice) and "2 points" in str(advice.choice), said
            assert "costs 1" in str(advice.choice)
            if state["bonus"] > 1:
                assert f"{state['bonus']} more goal cards" in str(advice.choice)
            bonuses += 1
    assert bonuses >= 3


def test_geomancy_a_choice_between_stones_of_one_size_names_the_direction_kept():
    """Two mediums of yours on one square differ only in where they point: the advice says which way to keep
    (the button shows the same arrow and direction)."""
    from games.geomancy.model import DIR_ARROWS, DIR_NAMES
    from games.geomancy.rules import size_of

    same = 0
    for engine, state, seat, advice in _games("geomancy", 2, range(8)):
        if state["phase"] == "choose":
            stones = state["choices"][0]["stones"]
            if len({size_of(state["per"], s) for s in stones}) == 1:
                way = state["dirs"][int(advice.key[1:])]
                marker = f"{DIR_ARROWS[way]} {DIR_NAMES[way]}"
                assert f"pointing {marker}" in str(advice.why), advice.why
                label = next(a.label for a in engine.legal_actions(state, seat) if a.key == advice.key)
                assert marker in str(label)
                same += 1
    assert same >= 2


def test_globe_twister_each_click_of_a_placement_explains_its_own_buttons():
    """Cell, then card, then arrow: three different decisions, each explained for what its buttons are."""
    engine = get_engine("globe_twister")
    state = engine.new(1, {"puzzle": "tourist"}, 5)
    said = {}
    for _ in range(40):
        if not engine.to_act(state):
            break
        advice = advise(engine, state, 0)
        step = engine.view(state, 0)["step"]
        kind = "cell" if step is None else ("card" if step.get("card") is None else "arrow")
        said.setdefault(kind, str(advice.choice))
        if kind != "cell":
            assert f"cell {step['cell'] + 1}" in str(advice.choice)
        if kind == "card":  # the cell's name in the reader's language ("Feld 1 (oben links)", not "(top left)")
            where = i18n.localize(CELL_NAMES[step["cell"]], "de")
            assert f"({where})" in i18n.localize(advice.choice, "de") and where != str(CELL_NAMES[step["cell"]])
        state, _ = engine.apply(state, 0, advice.key)
    assert set(said) == {"cell", "card", "arrow"} and len(set(said.values())) == 3, said


def test_geoneo_a_shape_tied_for_the_most_points_is_not_called_the_biggest():
    """Two 4-point lines: the suggested one is not "your biggest shape", only none scores more."""
    best = 0
    for _engine, state, _seat, advice in _games("geoneo", 2, range(6)):
        if state["phase"] == "clear" and advice.facts["points"] == advice.facts["biggest"]:
            assert "biggest" not in str(advice.why) and "No shape of yours scores more." in str(advice.why)
            best += 1
    assert best > 3


def test_geodeto_choosing_an_action_card_says_what_each_card_offered_does():
    """Epidemic, taking it back, Pirates: a newcomer learns what the buttons do before picking one."""
    engine = get_engine("geodeto")
    said = 0
    for seed in range(6):
        state = engine.new(2, {}, seed)
        for _ in range(200):
            if not engine.to_act(state):
                break
            seat = min(engine.to_act(state))
            keys = [a.key for a in engine.legal_actions(state, seat)]
            if state["step"] is not None and state["step"]["kind"] == "action":
                advice = advise(engine, state, seat)
                _said(advice)
                if any(k.startswith("e") for k in keys):
                    assert "closed until someone takes the card back" in str(advice.choice), advice.choice
                if "h" in keys:
                    assert "opens its continent again" in str(advice.choice), advice.choice
                if any(k.startswith("p") for k in keys):
                    assert "count for no goal" in str(advice.choice), advice.choice
                said += 1
            key = "a" if "a" in keys and state["step"] is None and seed % 2 == 0 else advise(engine, state, seat).key
            state, _ = engine.apply(state, seat, key)
    assert said >= 5


def test_geomancy_turning_a_stone_says_which_way_it_points_now_and_after():
    """The button names the stone's present direction ("Reorient medium on e3 (NW)"); the advice names both,
    so the learner does not take the present one for the suggested one."""
    from games.geomancy.model import DIR_NAMES

    turns = 0
    for _engine, state, _seat, advice in _games("geomancy", 2, range(6)):
        if state["phase"] == "turn" and advice.key[0] in "rd" and "direction" in advice.facts:
            square = state["step"]["square"] if state["step"] is not None else int(advice.key[1:])
            was = DIR_NAMES[state["dirs"][state["board"][square][0]]]
            assert f"from {was} to {DIR_NAMES[advice.facts['direction']]}" in str(advice.why), advice.why
            turns += 1
    assert turns > 5


def test_geek_out_a_move_that_gives_up_a_42_says_why():
    """Sending away, rerolling or flipping one of your own 42s surprises a newcomer: the advice says why."""
    seen = 0
    for _engine, state, _seat, advice in _games("geek_out", 2, range(10)):
        target = int(advice.key[1:]) - 1 if state["phase"] == "target" and advice.key.startswith("t") else None
        if target is not None and state["dice"][target]["face"] == "42":
            assert "Giving up a 42 hurts" in str(advice.why), advice.why
            seen += 1
    assert seen > 3


def test_a_lesson_step_replays_plays_answers_and_refuses_a_move_it_does_not_offer():
    from games.coach import LEARNER, lesson_step

    start = lesson_step("geoneo", 2, {}, 5, [], None, "normal")
    assert start.advice is not None
    assert LEARNER in get_engine("geoneo").to_act(start.state)
    refused = lesson_step("geoneo", 2, {}, 5, start.log, "f999", "normal")
    assert refused.refused and refused.log == start.log
    step = lesson_step("geoneo", 2, {}, 5, start.log, start.advice.key, "normal")
    assert not step.refused and step.log[:len(start.log) + 1] == [*start.log, (LEARNER, start.advice.key)]
    again = get_engine("geoneo").replay(2, {}, 5, step.log)
    assert again == step.state  # the stored log rebuilds what was shown


def test_a_weaker_move_than_suggested_is_said_with_what_it_was_worth():
    """Geek Out (seed 12345): picking the Spaceship's die costs nothing yet (it can be put back), sending a
    Dragon away with it does; GEONEO: a field that adds less than the suggested one, by the engine's count."""
    from games.coach import get_coach, lesson_step

    start = lesson_step("geek_out", 2, {"turns": 2}, 12345, [], None, "normal")
    picked = lesson_step("geek_out", 2, {"turns": 2}, 12345, start.log, "u3", "normal")
    assert picked.weaker is None
    sent = lesson_step("geek_out", 2, {"turns": 2}, 12345, picked.log, "t1", "normal")
    assert str(sent.weaker) == ("Your move (Spaceship: send a Dragon away) was worth 18.7 points on average this "
                                "turn; the suggestion (Heart: bring in a die) would have given 20.7.")
    followed = lesson_step("geek_out", 2, {"turns": 2}, 12345, start.log, start.advice.key, "normal")
    assert followed.weaker is None
    coach = get_coach("geoneo")
    said = 0
    for engine, state, seat, advice in _games("geoneo", 2, range(3)):
        if state["phase"] != "place":
            continue
        colour, width = engine.view(state, seat)["colours"][seat], state["width"]
        before = _greedy(state["pieces"], width, colour)
        for key in [a.key for a in engine.legal_actions(state, seat) if a.key != advice.key]:
            gain = _greedy(engine.apply(state, seat, key)[0]["pieces"], width, colour) - before
            line = coach.weaker(engine, state, seat, key)
            assert (line is not None) == (gain < advice.facts["gain"]), (key, gain, advice.facts)
            if line is not None:
                assert f"added {_points_text(gain)} to what" in str(line), line
                said += 1
    assert said > 10


def _points_text(halves: int) -> str:
    value = halves / 2
    return f"{value:g} point" + ("" if value == 1 else "s")
