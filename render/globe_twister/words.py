"""Globe Twister's view in words: the header's status and right note, the winner banner, the solo level and par,
and whether the board shows the last run (shared by the board, the panel and the tests)."""

from __future__ import annotations

from i18n import _, here, ngettext
from render.common import MARGIN, P_SMALL, PHONE_CANVAS, font, join_fit, join_names, wrap_text

WIDTH = PHONE_CANVAS
"""Drawn for the phone (docs/rendering.md, "Legible on a phone"): 600 px wide, every label at least ``P_SMALL``."""
HEADER_ROOM = 2 * (WIDTH - 2 * MARGIN - 4) * 0.85
"""About what the header's status holds on two lines at ``P_SMALL`` (``common.phone_header``)."""


def fits_the_header(status: str) -> bool:
    """Whether ``status`` (in the drawing's language) reads whole in the header, on two lines at most."""
    return len(wrap_text(status, P_SMALL, (WIDTH - 2 * MARGIN - 4) * 0.96, lines=3)) <= 2


def _turns(n: int) -> str:
    return ngettext("{n} turn", "{n} turns", n)


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n)


# --- the view, in words -------------------------------------------------------------------------------------
def _level(view: dict) -> tuple[str, int]:
    """The solo level's name (in the drawing's language) without its stars, and how many stars (drawn, the font
    has none)."""
    solo = view.get("solo") or {}
    name = here(solo.get("level_name") or _("Practice"))
    return name.replace("★", "").strip(), name.count("★")


def _par(par: dict | None) -> str:
    if not par:
        return ""
    return _("par {turns}, {cards}", turns=_turns(par["turns"]), cards=_cards(par["cards"]))


def winners_of(view: dict) -> list[int]:
    if view.get("winners") is not None:
        return list(view["winners"])
    wins = view.get("wins") or []
    if not wins or max(wins) == 0:
        return []
    best = max(w for s, w in enumerate(wins) if not view["left"][s])
    return [s for s, w in enumerate(wins) if w == best and not view["left"][s]]


def _winning_seats(view: dict) -> list[int]:
    """Who won: the engine's winners (nobody when no photo was rebuilt, solo: the puzzle stays unsolved)."""
    if view.get("solo") is not None and view.get("winners") is None:
        return [0] if view["solo"].get("solved") else []
    return winners_of(view)


def _winner_text(view: dict, names: list[str]) -> str:
    solo = view.get("solo")
    if solo is not None:
        if not solo.get("solved"):
            return _("Not rebuilt: nobody won")
        return _("Rebuilt in {turns} with {cards}!", turns=_turns(solo["turns"]), cards=_cards(solo["cards"]))
    seats = _winning_seats(view)
    if not seats:
        return _("Nobody rebuilt a photo: nobody won")

    def said(who: str) -> str:
        if view["rounds"] > 1:
            wins = view["wins"][seats[0]]
            if len(seats) == 1:
                return ngettext("{names} wins with {n} round!", "{names} wins with {n} rounds!", wins, names=who)
            return ngettext("{names} tie with {n} round!", "{names} tie with {n} rounds!", wins, names=who)
        return _("{names} wins!", names=who) if len(seats) == 1 else _("{names} tie!", names=who)

    # the banner's inside, on two lines if need be (common.phone_header)
    room = 2 * (WIDTH - 2 * MARGIN - 100) * 0.85 - font(P_SMALL, bold=True).getlength(here(said("")))
    return said(join_fit([names[s] for s in seats], P_SMALL, room))


def _status(view: dict, names: list[str]) -> str:
    phase = view["phase"]
    if phase == "program" and shown_run(view) is not None:
        played = view["last_run"]["turn"]
        if view["players"] > 1:
            return _("Turn {played} played, nobody rebuilt: program turn {turn}", played=played, turn=view["turn"])
        return _("Turn {played} played: program turn {turn}, then lock in", played=played, turn=view["turn"])
    to_act = view["to_act"]
    n = view["players"]
    if phase == "side":
        if len(to_act) <= 2:
            who = _("{names}: choose the polar front or your region's back",
                    names=join_names([here(names[s]) for s in to_act]))
            if fits_the_header(who):
                return who
            return _("Choose the polar front or your region's back")
        return _("Choose a side: the polar front or your region's back")
    solo = view.get("solo") is not None
    locked = [s for s in view["active"] if view["locked"][s] and not view["left"][s]]
    if view.get("timer"):
        still = len(to_act)
        if view.get("paced"):  # a turn-based table's sand: the board's countdown says how long
            return _("Sand timer running: {n} still programming", n=still)
        secs = round(view["timer"]["seconds"])
        return _("Sand timer running ({seconds} s): {n} still programming", seconds=secs, n=still)
    if solo:
        return _("Program your cards, then lock in")
    if view.get("decider"):
        room = HEADER_ROOM - font(P_SMALL, bold=True).getlength(
            here(_("{names} play again: program, then lock in", names="")))
        return _("{names} play again: program, then lock in",
                 names=join_fit([names[s] for s in view["active"]], P_SMALL, room))
    if not locked:
        return _("Everyone: program, then lock in") if not view.get("no_timer") else \
            _("Everyone: program; the first lock-in stops all")
    return _("{locked} of {n} locked in", locked=len(locked), n=n)


def _right_note(view: dict) -> str:
    solo = view.get("solo")
    turn = view.get("turn") or 1
    if solo is not None:
        name = _level(view)[0]
        if solo.get("number"):
            return _("{level} #{number} - turn {turn}", level=name, number=solo["number"], turn=turn)
        return _("{level} - turn {turn}", level=name, turn=turn)
    if view["rounds"] > 1:
        if view["phase"] == "side":
            return _("Round {round} of {rounds}", round=view["round"], rounds=view["rounds"])
        return _("Round {round} of {rounds}, turn {turn}", round=view["round"], rounds=view["rounds"], turn=turn)
    return _("Turn {turn}", turn=turn) if view["phase"] != "side" else ""


def shown_run(view: dict) -> dict | None:
    """The last stage C, {seat: run}, when the board should show it: the game is over, or nobody has locked in
    since it ran and the puzzles are still as it left them (not a new round's scramble)."""
    last = view.get("last_run")
    if not last:
        return None
    runs = {r["seat"]: r for r in last["runs"]}
    if view["phase"] == "over":
        return runs
    if view["phase"] != "program" or any(view["locked"]):
        return None
    puzzles = view["puzzles"]
    if all(puzzles[s] is not None and [list(p) for p in puzzles[s]] == [list(p) for p in r["after"]]
           for s, r in runs.items()):
        return runs
    return None
