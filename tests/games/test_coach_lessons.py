"""A game's lessons are its coach's (games/coach.py ``Coach.lesson``): every level's set-up is one its engine
accepts and plays from, Globe Twister's levels are its solo levels in order, and a level counts as completed only
when the learner completed it (Globe Twister: the photo rebuilt)."""

from __future__ import annotations

import pytest

from games.coach import LEARNER, advise, get_coach, lesson_step
from games.core import all_engines, get_engine
from games.globe_twister.solver import LEVELS

SLUGS = sorted(e.slug for e in all_engines())


@pytest.mark.parametrize("slug", SLUGS)
def test_every_level_of_every_game_s_lesson_is_legal_for_its_engine(slug):
    engine, coach = get_engine(slug), get_coach(slug)
    assert coach.levels >= 1
    for level in range(coach.levels):
        players, options = coach.lesson(level)
        engine.check_players(players, engine.normalise_options(options))  # a RulesError when not
        assert coach.level_of(options) == level
        step = lesson_step(slug, players, options, 1, [], None, "normal")
        assert not step.refused and not engine.is_over(step.state) and step.advice is not None
        assert LEARNER in engine.to_act(step.state)
        assert step.advice.key in {a.key for a in engine.legal_actions(step.state, LEARNER)}


@pytest.mark.parametrize("slug", SLUGS)
def test_a_level_past_the_last_is_the_last(slug):
    coach = get_coach(slug)
    assert coach.lesson(coach.levels + 3) == coach.lesson(coach.levels - 1)


def test_globe_twister_s_lessons_are_its_solo_levels_in_order():
    coach = get_coach("globe_twister")
    assert coach.levels == len(LEVELS) == 4
    assert [coach.lesson(level) for level in range(coach.levels)] == [(1, {"puzzle": name}) for name in LEVELS]
    assert [LEVELS[coach.level_of(coach.lesson(n)[1])] for n in range(4)] == ["tourist", "backpacker",
                                                                             "globetrotter", "wild"]


def test_the_other_games_have_one_lesson_against_one_computer():
    for slug in SLUGS:
        if slug != "globe_twister":
            assert get_coach(slug).levels == 1 and get_coach(slug).lesson(0)[0] == 2, slug
    assert get_coach("geek_out").lesson(0) == (2, {"turns": 2})


def test_globe_twister_completed_only_once_the_photo_is_rebuilt():
    engine, coach = get_engine("globe_twister"), get_coach("globe_twister")
    state = engine.new(1, {"puzzle": "tourist"}, 3)
    assert not coach.completed(engine, state, LEARNER)
    for _ in range(300):
        if engine.is_over(state):
            break
        was = coach.completed(engine, state, LEARNER)
        assert not was
        state, _events = engine.apply(state, LEARNER, advise(engine, state, LEARNER).key)
    assert engine.is_over(state) and coach.completed(engine, state, LEARNER)


def test_globe_twister_a_level_over_but_unsolved_is_not_completed():
    engine, coach = get_engine("globe_twister"), get_coach("globe_twister")
    state = engine.new(1, {"puzzle": "wild", "turn_limit": 1}, 3)
    state, _events = engine.apply(state, LEARNER, "lock")  # an empty program: the one turn is spent
    assert engine.is_over(state) and not engine.view(state, LEARNER)["solo"]["solved"]
    assert not coach.completed(engine, state, LEARNER)
