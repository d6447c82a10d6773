"""A lesson offers every legal move through the table's own chooser (issue 24 item 4): buttons, or first a group
and then its moves, with the suggested move alone on the first row and Leave lesson on the last."""

from __future__ import annotations

import discord

from bot.cogs.learn import ROWS, Learn, LessonButton, LessonSelect
from bot.store import Lesson
from bot.table.choices import group_named
from games import get_engine
from games.coach import LEARNER, lesson_step


def _lesson(game: str, seed: int, log: list, players: int = 2, options: dict | None = None) -> Lesson:
    return Lesson(7, 101, 500, game, options or {}, seed, players, log, len(log))


def _view(lesson: Lesson, step, group: str = "") -> discord.ui.View:
    engine = get_engine(lesson.game)
    actions = engine.legal_actions(step.state, LEARNER)
    suggested = next(a for a in actions if a.key == step.advice.key)
    view = discord.ui.View(timeout=None)  # add_item refuses a sixth row, a full row or a 26th item
    Learn._moves(view, lesson, engine, step.state, actions, suggested, group, "en")
    return view


def _keys(view: discord.ui.View) -> list[str]:
    """The keys the view's buttons send and its menus' option values."""
    keys = []
    for child in view.children:
        if isinstance(child, LessonButton):
            keys.append(child.item.custom_id.split(":", 3)[3])
        elif isinstance(child, LessonSelect):
            keys.extend(option.value for option in child.item.options)
    return keys


def reachable(lesson: Lesson, step) -> set[str]:
    """Every move a learner reaches by clicking: the first screen's moves, and each group's after its pick."""
    engine = get_engine(lesson.game)
    actions = engine.legal_actions(step.state, LEARNER)
    others = [a for a in actions if a.key != step.advice.key]
    always = engine.grouped(step.state, LEARNER)
    found = set()
    for key in _keys(_view(lesson, step)):
        if key.startswith("pick."):
            group = group_named(key[5:], others, always, ROWS)
            assert group, key
            inside = _keys(_view(lesson, step, group))
            assert "pick." in inside  # Back to the groups
            found.update(k for k in inside if not k.startswith(("pick.", "~")))
        elif not key.startswith("~"):
            found.add(key)
    return found


async def test_every_clearing_of_a_long_geoneo_step_is_reachable():
    """Seed 3 (the learner following the coach) reaches a clearing of 175 shapes; the lesson listed 101."""
    game, seed = "geoneo", 3
    step = lesson_step(game, 2, {}, seed, [], None, "normal")
    while len(get_engine(game).legal_actions(step.state, LEARNER)) <= 100:
        assert step.advice is not None, "the lesson ended before a long step"
        step = lesson_step(game, 2, {}, seed, step.log, step.advice.key, "normal")
    lesson = _lesson(game, seed, step.log)
    legal = {a.key for a in get_engine(game).legal_actions(step.state, LEARNER)}
    assert len(legal) > 100
    assert reachable(lesson, step) | {step.advice.key} == legal


async def test_the_suggested_move_is_alone_on_the_first_row_and_leave_on_the_last():
    for game, players, options in (("geek_out", 2, {"turns": 2}), ("geodeto", 2, {}), ("geomancy", 2, {})):
        step = lesson_step(game, players, options, 5, [], None, "normal")
        view = _view(_lesson(game, 5, step.log, players, options), step)
        rows = {}
        for child in view.children:
            rows.setdefault(child._rendered_row if child._rendered_row is not None else child.row, []).append(child)
        first = rows[min(rows)]
        assert len(first) == 1 and first[0].item.label.startswith("✓ "), game
        leave = next(c for c in view.children if isinstance(c, LessonButton) and c.item.label == "Leave lesson")
        assert leave.row == ROWS + 1 and all(c.row != leave.row for c in first)


async def test_geodeto_s_lesson_offers_the_table_s_steps_place_then_pyramid():
    """Not 18 "Move small blue…" buttons: places first (as at a table, ``Engine.grouped``), then a place's
    pyramids with Back."""
    step = lesson_step("geodeto", 2, {}, 1, [], None, "normal")
    lesson = _lesson("geodeto", 1, step.log)
    view = _view(lesson, step)
    labels = [c.item.label for c in view.children if isinstance(c, LessonButton)]
    groups = [label for label in labels if " · " in label and label.endswith(("move", "moves"))]
    assert groups and len(labels) < 12, labels
    assert not any(label.startswith("Move ") for label in labels[1:] if " · " not in label), labels
    key = next(_keys(view)[i] for i, label in enumerate(labels) if label in groups)
    engine = get_engine("geodeto")
    group = group_named(key[5:], [a for a in engine.legal_actions(step.state, LEARNER)
                                  if a.key != step.advice.key], True, ROWS)
    inside = _view(lesson, step, group)
    assert [c.item.label for c in inside.children if isinstance(c, LessonButton)][-2:] == ["Back", "Leave lesson"]
    assert reachable(lesson, step) | {step.advice.key} == {a.key for a in engine.legal_actions(step.state, LEARNER)}
