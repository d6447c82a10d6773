"""How a seat's legal moves are offered on a message: buttons, or a two-step choice (a group, then its moves)
when they do not fit or too many would read alike. Pure: the table's buttons (bot/ui/components.py) and the
lessons' use the same rules."""

from __future__ import annotations

import re
from typing import NamedTuple

from games.core import Action
from i18n import Text

CHOICE_ROWS = 4
"""Rows of a message that hold its moves, five buttons or one menu each (a table's: the fifth row holds the
utility buttons; a lesson gives one more to its suggested move)."""
MENU_SIZE = 25
"""Options in one select menu at most (Discord's limit)."""
ALIKE_MAX = 10
"""The most buttons of one stem (``stem``: near-identical labels) a step shows; a step that would show more is
grouped (``Action.group``) or, when groups do not help, comes as menus (a menu is one control)."""

_PLACEHOLDER = re.compile(r"\{[^}]*\}")
_ASIDE = re.compile(r"\([^)]*\)")
_TARGET = re.compile(r"[+\-]?\b[A-Za-z]?\d+(?:[.,]\d+)?\b")


def group_key(group: str) -> str:
    """A group's name as it travels in a custom_id ("Aim at rank 8" -> "Aim_at_rank_8")."""
    return re.sub(r"[^\w.\-]", "_", group)[:40]


def stem(label: str) -> str:
    """The wording ``label`` shares with its near-identical labels: the first word of its message template
    (``Text.msgid``, the same in every language) once the placeholders (the targets: ``{pyramid}``,
    ``{square}``) and parenthesised asides ("(carries 2)", "(SW)") are taken out ("Move {pyramid} (carries
    {n})" -> "Move"; "{place}: on {pyramid}" -> ":"); a template that is only a target and an aside ("{label}
    (no effect here)") has its target's stem; a joined text its first part's. A plain string's numbers and
    board coordinates count as targets ("D2 (2)" -> "#", "+3 = 6" -> "#"). docs/architecture.md, "Long
    choices", says what this makes alike in each game."""
    if isinstance(label, Text) and label.parts is not None:
        return stem(next((p for p in label.parts if p), ""))
    if isinstance(label, Text) and label.msgid is not None:
        bare = _ASIDE.sub(" ", _PLACEHOLDER.sub(" ", label.msgid)).split()
        if not bare:
            inner = [v for v in label.params.values() if isinstance(v, Text)]
            return stem(inner[0]) if len(inner) == 1 else label.msgid
        return bare[0]
    words = _TARGET.sub("#", _ASIDE.sub(" ", str(label))).split()
    return words[0] if words else ""


def entry_stem(entry: Action | tuple[str, list[Action]]) -> str:
    """An entry's stem (``offer``): a move's label's; a group's name's (its button says "{group} · {n}")."""
    return stem(entry[0]) if isinstance(entry, tuple) else stem(entry.label)


def alike(entries: list) -> int:
    """The most entries of one stem (``entry_stem``) among ``entries``."""
    counts: dict[str, int] = {}
    for e in entries:
        key = entry_stem(e)
        counts[key] = counts.get(key, 0) + 1
    return max(counts.values(), default=0)


def _entries_of(groups: dict[str, list[Action]]) -> list:
    return [(g, acts) if len(acts) > 1 else acts[0] for g, acts in groups.items()]


def choice_groups(actions: list[Action], always: bool = False, rows: int = CHOICE_ROWS
                  ) -> dict[str, list[Action]] | None:
    """How a list of actions is offered in ``rows`` rows: None when they fit as buttons with no more than
    ``ALIKE_MAX`` alike (unless the engine asks for groups: ``always``, see ``Engine.grouped``) or do not group
    usefully, else their groups (``Action.group``) in order: the first step of a two-step choice. A group of
    one action is offered as that action itself (no pick step), so only groups of two or more can be picked
    (``pickable``). More groups than fit as buttons are offered only when the actions would not fit in menus
    either (then the groups go in menus): every legal move stays reachable. Groups of which more than
    ``ALIKE_MAX`` are alike ("A1 · 5 shapes", "B1 · 3 shapes", ...) come as a menu (``offer``), unless one menu
    holds all the actions: then that menu."""
    buttons, menus = 5 * rows, MENU_SIZE * rows
    if len(actions) <= buttons and not always and alike(actions) <= ALIKE_MAX:
        return None
    groups: dict[str, list[Action]] = {}
    for a in actions:
        groups.setdefault(a.group, []).append(a)
    if len(groups) < 2 or all(len(g) == 1 for g in groups.values()):
        return None
    if len(groups) > buttons and (len(actions) <= menus or len(groups) > menus):
        return None
    if len(actions) <= MENU_SIZE and alike(_entries_of(groups)) > ALIKE_MAX:
        return None
    return groups


def pickable(groups: dict[str, list[Action]] | None) -> list[str]:
    """The groups a player picks as a first step: those of two or more actions."""
    return [g for g, acts in (groups or {}).items() if len(acts) > 1]


class Offer(NamedTuple):
    """One step of a choice as a player sees it (``offer``)."""

    entries: list
    """In order, each a move (an ``Action``: its own button or menu option) or a group to pick (its name and
    its actions, ``pickable``)."""
    back: bool
    """A picked group's moves: the step has a Back button."""
    buttons: bool
    """As buttons; else as menus of ``MENU_SIZE`` options (one control each)."""


def distinct(actions: list[Action]) -> list[Action]:
    """``actions`` with one of each set alike in every word (label, group, style, emoji): the first. A player
    cannot tell such moves apart, so they are one choice on a screen (Geomancy's three small stones on a
    square, two facing east, made two "Keep the small on b8 (→ E)"); the engine still accepts each key, so a
    stored log that chose another replays."""
    seen: dict[tuple, Action] = {}
    for a in actions:
        seen.setdefault((str(a.label), a.group, a.style, a.emoji, a.secret), a)
    return list(seen.values()) if len(seen) < len(actions) else actions


def offer(actions: list[Action], group: str = "", always: bool = False, rows: int = CHOICE_ROWS) -> Offer:
    """What one step of a choice shows in ``rows`` rows (``chooser`` in bot/ui/components.py draws it): the
    actions (``distinct``), their groups (``choice_groups``) or, ``group`` picked, that group's moves. As
    buttons when ``5 * rows`` hold them with no more than ``ALIKE_MAX`` alike, else as menus."""
    actions = distinct(actions)
    groups = choice_groups(actions, always, rows)
    if groups is None:
        entries, back = list(actions), False
    elif group in pickable(groups):
        entries, back = list(groups[group]), True
    else:
        entries, back = _entries_of(groups), False
    return Offer(entries, back, len(entries) <= 5 * rows and alike(entries) <= ALIKE_MAX)


def group_named(key: str, actions: list[Action], always: bool = False, rows: int = CHOICE_ROWS) -> str | None:
    """The group a ``pick.<key>`` click picks among ``actions`` offered in ``rows`` rows (``choice_groups``):
    its name, "" for "" (back to the groups), None when no group offered for picking has that key."""
    if not key:
        return ""
    return next((g for g in pickable(choice_groups(distinct(actions), always, rows)) if group_key(g) == key), None)
