"""How a seat's legal moves are offered on a message: buttons, or a two-step choice (a group, then its moves)
when they do not fit. Pure: the table's buttons (bot/ui/components.py) and the lessons' use the same rules."""

from __future__ import annotations

import re

from games.core import Action

CHOICE_ROWS = 4
"""Rows of a message that hold its moves, five buttons or one menu each (a table's: the fifth row holds the
utility buttons; a lesson gives one more to its suggested move)."""
MENU_SIZE = 25
"""Options in one select menu at most (Discord's limit)."""
def group_key(group: str) -> str:
    """A group's name as it travels in a custom_id ("Aim at rank 8" -> "Aim_at_rank_8")."""
    return re.sub(r"[^\w.\-]", "_", group)[:40]


def choice_groups(actions: list[Action], always: bool = False, rows: int = CHOICE_ROWS
                  ) -> dict[str, list[Action]] | None:
    """How a list of actions is offered in ``rows`` rows: None when they fit as buttons (unless the engine asks
    for groups: ``always``, see ``Engine.grouped``) or do not group usefully, else their groups
    (``Action.group``) in order: the first step of a two-step choice. A group of one action is offered as that
    action itself (no pick step), so only groups of two or more can be picked (``pickable``). More groups than
    fit as buttons are offered only when the actions would not fit in menus either (then the groups go in
    menus): every legal move stays reachable."""
    buttons, menus = 5 * rows, MENU_SIZE * rows
    if len(actions) <= buttons and not always:
        return None
    groups: dict[str, list[Action]] = {}
    for a in actions:
        groups.setdefault(a.group, []).append(a)
    if len(groups) < 2 or all(len(g) == 1 for g in groups.values()):
        return None
    if len(groups) > buttons and (len(actions) <= menus or len(groups) > menus):
        return None
    return groups


def pickable(groups: dict[str, list[Action]] | None) -> list[str]:
    """The groups a player picks as a first step: those of two or more actions."""
    return [g for g, acts in (groups or {}).items() if len(acts) > 1]


def group_named(key: str, actions: list[Action], always: bool = False, rows: int = CHOICE_ROWS) -> str | None:
    """The group a ``pick.<key>`` click picks among ``actions`` offered in ``rows`` rows (``choice_groups``):
    its name, "" for "" (back to the groups), None when no group offered for picking has that key."""
    if not key:
        return ""
    return next((g for g in pickable(choice_groups(actions, always, rows)) if group_key(g) == key), None)
