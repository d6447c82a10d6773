"""Computer seats at a table: who is a computer, at which strength, and what it is called.

A seat's player entry (``Table.players``, stored as JSON in ``tables.players``):

- a person: ``{"id": <discord user id>, "name": "Dee"}``;
- a computer: ``{"id": <negative int, unique in the table>, "name": "Computer (strong)", "computer": "strong"}``
  (a second one of the same strength: "Computer 2 (strong)", ``"number": 2``);
- a seat handed to a computer when its person left or was removed (or a moderator handed it over):
  ``{"id": <new negative int>, "name": "Computer for Dee", "computer": "normal", "was": {"id": ..., "name":
  "Dee", "score": <the seat's score then, when the game keeps one>}}``.

``name`` is the English (logs, ratings, old rows); what players read is ``display_name(player)``: the name as a
``Text`` (games/ai.py builds it from these fields), said in each reader's language.

A negative id never matches a Discord user, so no person's click plays a computer's seat, and a computer is
never pinged or sent a panel. Pure: no Discord, no database.
"""

from __future__ import annotations

import re

from games.ai import STRENGTHS, Computer, computer_name, get_computer, stand_in_name, strength_name
from i18n import DEFAULT, Text, localize

HANDOVER_STRENGTH = "normal"
"""The strength of a computer that takes over a person's seat."""


def is_computer(player: dict) -> bool:
    return bool(player.get("computer"))


def strength_of(player: dict) -> str | None:
    """The computer's strength ("easy", "normal", "strong"), or None for a person."""
    return player.get("computer") or None


def people(players: list[dict]) -> list[dict]:
    """The seated persons (not computers)."""
    return [p for p in players if not is_computer(p)]


def computer_seats(players: list[dict]) -> dict[int, str]:
    """seat -> strength of every computer seat."""
    return {seat: p["computer"] for seat, p in enumerate(players) if is_computer(p)}


def _new_id(players: list[dict]) -> int:
    return min([-1] + [p["id"] - 1 for p in players if p["id"] < 0])


def new_computer(strength: str, players: list[dict]) -> dict:
    """A computer of ``strength`` for a seat at a table seating ``players``: a fresh negative id and a name
    unique at the table ("Computer (strong)", then "Computer 2 (strong)", ...)."""
    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}")
    names = {p["name"] for p in players}
    n = 1
    while str(computer_name(strength, n)) in names:
        n += 1
    player = {"id": _new_id(players), "name": str(computer_name(strength, n)), "computer": strength}
    if n > 1:
        player["number"] = n
    return player


def handed_over(player: dict, strength: str, players: list[dict], score: float | None = None) -> dict:
    """The computer that takes over ``player``'s seat ("Computer for Dee"), remembering who sat there and what
    they had scored (``score``: the seat's score at the hand-over; what the computer adds is not theirs)."""
    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}")
    was = player.get("was", player)
    person = {"id": was["id"], "name": was["name"]} | ({"score": score} if score is not None else {})
    return {"id": _new_id(players), "name": str(stand_in_name(was["name"])), "computer": strength, "was": person}


_NUMBER = re.compile(r"Computer (\d+) \(")
"""The number in a stored name of a computer seated before ``"number"`` was kept (our own stored format)."""


def display_name(player: dict) -> str | Text:
    """What players read for a seat: a person's name as it is, a computer's as a ``Text`` ("Computer 2
    (strong)", "Computer for Dee") that boards and messages say in their language and shorten by its data."""
    if not is_computer(player):
        return player["name"]
    if player.get("was"):
        return stand_in_name(player["was"]["name"])
    number = player.get("number")
    if number is None:
        m = _NUMBER.match(player.get("name", ""))
        number = int(m.group(1)) if m else 1
    return computer_name(player["computer"], number)


def strength_lines(game: str) -> dict[str, str]:
    """strength -> what it does in ``game``, in one line (the lobby and /rules show them)."""
    try:
        computer = get_computer(game)
    except ModuleNotFoundError:
        return dict(Computer.strengths)
    return {s: computer.strengths.get(s, Computer.strengths[s]) for s in STRENGTHS}


STRENGTH_LINES: dict[str, str] = dict(Computer.strengths)
"""What each strength does, in one line, for any game (``strength_lines(game)``: a game's own words)."""


ROBOT = "🤖"
"""Marks a computer's seat in words, as the robot's head does on the boards."""


def strength_word(strength: str, lang: str = DEFAULT) -> str:
    """A computer's strength in ``lang`` ("strong")."""
    return localize(strength_name(strength), lang)
