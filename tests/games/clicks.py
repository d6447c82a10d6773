"""What a player clicks to make a move, measured through the bot's own choice builder (``bot.table.choices.offer``,
which ``bot.ui.components.chooser`` draws for a table and a lesson), without Discord: random games of every
engine, each step a seat must take looked at as the table's board, the seat's panel and a lesson offer it.

*Near-identical* buttons: labels of one stem (``bot.table.choices.stem``; docs/architecture.md, "Long choices").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.table.choices import CHOICE_ROWS, MENU_SIZE, distinct, entry_stem, offer
from games.core import Action, Engine, State

NEAR_IDENTICAL_MAX = 10
"""The most buttons of one stem a step may show (issue 26: group, then pick)."""
LESSON_ROWS = CHOICE_ROWS - 1
"""A lesson's rows for the moves besides its suggested one (bot/cogs/learn.py ``ROWS``)."""


@dataclass
class Step:
    """One screen of a choice: what it shows and the worst crowd of alike buttons on it."""

    where: str
    entries: list
    back: bool
    buttons: bool

    def alike(self) -> tuple[int, str]:
        """The most buttons of one stem (0 when the step is menus: a menu is one control) and that stem."""
        if not self.buttons:
            return 0, ""
        counts: dict[str, int] = {}
        for e in self.entries:
            counts[entry_stem(e)] = counts.get(entry_stem(e), 0) + 1
        most = max(counts, key=counts.get)
        return counts[most], most


def steps(actions: list[Action], always: bool, rows: int, where: str) -> tuple[list[Step], dict[str, int]]:
    """Every screen a player can reach for ``actions`` (the first step and each pickable group's), and the clicks
    each action needs from the first (1: its own button or menu option; 2: its group, then it). Checks every
    legal action is reachable exactly once (or through its twin alike in every word) and nothing else is offered."""
    first, back, buttons = offer(actions, "", always, rows)
    assert not back, f"{where}: the first step has a Back"
    shown = [Step(where, first, back, buttons)]
    clicks: dict[str, int] = {}
    for e in first:
        if isinstance(e, tuple):
            picked, back, buttons = offer(actions, e[0], always, rows)
            assert back, f"{where}: a picked group without Back"
            assert [a.key for a in picked] == [a.key for a in e[1]], f"{where}: group {e[0]!r} shows other moves"
            shown.append(Step(f"{where} > {e[0]}", picked, back, buttons))
            for a in picked:
                assert a.key not in clicks, f"{where}: {a.key} offered twice"
                clicks[a.key] = 2
        else:
            assert e.key not in clicks, f"{where}: {e.key} offered twice"
            clicks[e.key] = 1
    # moves alike in every word are one button (bot.table.choices.distinct): each is offered through its twin
    twins = {a.key: d.key for a in actions for d in distinct(actions)
             if (str(a.label), a.group, a.style, a.emoji, a.secret) == (str(d.label), d.group, d.style, d.emoji, d.secret)}
    assert set(clicks) == {twins[a.key] for a in actions}, \
        f"{where}: offered {sorted(clicks)}, legal {[a.key for a in actions]}"
    for step in shown:
        if step.buttons:
            assert len(step.entries) <= 5 * rows, f"{step.where}: more buttons than the rows hold"
        else:
            assert len(step.entries) <= MENU_SIZE * rows, f"{step.where}: more than the menus hold"
    return shown, clicks


@dataclass
class Report:
    """One game's measure: clicks per move played, and the worst step (most alike buttons)."""

    slug: str
    clicks: list[int] = field(default_factory=list)
    worst: tuple[int, str, str] = (0, "", "")
    steps: int = 0
    menus: int = 0
    crowded: int = 0

    @property
    def mean(self) -> float:
        return sum(self.clicks) / len(self.clicks)

    def line(self) -> str:
        n, stem_, where = self.worst
        return (f"{self.slug}: {len(self.clicks)} moves, clicks per move mean {self.mean:.2f} max "
                f"{max(self.clicks)}; {self.menus} of {self.steps} screens as menus, {self.crowded} with more than "
                f"{NEAR_IDENTICAL_MAX} alike buttons; worst step {n} alike buttons "
                f"({stem_!r}, {where})")


def look(engine: Engine, state: State, seat: int, played: str | None, report: Report) -> None:
    """The screens ``seat`` may use now (the board's public moves when it alone acts, its panel, a lesson's
    others besides a suggested move); adds the clicks of ``played`` (from the board when it is public and the
    seat alone acts, else from the panel) to ``report`` and keeps its worst step."""
    actions = engine.legal_actions(state, seat)
    always = engine.grouped(state, seat)
    alone = len(engine.to_act(state)) == 1
    public = [a for a in actions if not a.secret]
    screens, clicks = steps(actions, always, CHOICE_ROWS, f"panel of seat {seat}")
    board_clicks: dict[str, int] = {}
    if alone and public:
        shown, board_clicks = steps(public, always, CHOICE_ROWS, "board")
        screens += shown
    if len(actions) > 1:
        suggested = played if played is not None else actions[0].key
        screens += steps([a for a in actions if a.key != suggested], always, LESSON_ROWS, "lesson")[0]
    for step in screens:
        n, s = step.alike()
        report.steps += 1
        report.menus += not step.buttons
        report.crowded += n > NEAR_IDENTICAL_MAX
        if n > report.worst[0]:
            labels = [str(e[0]) if isinstance(e, tuple) else str(e.label) for e in step.entries]
            report.worst = (n, s, f"{step.where}: {labels}")
    if played is not None:
        report.clicks.append(board_clicks.get(played) or clicks[played])


def measure(engine: Engine, games_: list[tuple[int, int]]) -> Report:
    """Plays ``games_`` (players, seed) at random (uniformly among the legal moves, the conformance suite's
    playout) and looks at every step a seat takes."""
    report = Report(engine.slug)
    for players, seed in games_:
        rng = random.Random(seed * 7 + players)
        state = engine.new(players, {}, seed)
        for _ in range(20_000):
            to_act = sorted(engine.to_act(state))
            if not to_act:
                break
            seat = rng.choice(to_act)
            key = rng.choice(engine.legal_actions(state, seat)).key
            look(engine, state, seat, key, report)
            state, _ = engine.apply(state, seat, key)
        else:
            raise AssertionError(f"{engine.slug}: a game did not end")
    return report
