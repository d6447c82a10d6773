"""Who sits where: lobby seats, kept seats of a rematch, the persons of a finished game. Pure functions of the
seating (a list of player dicts: persons ``{"id", "name"}``, computers with ``"computer"``, kept seats with
``"invited"``)."""

from __future__ import annotations

from bot.computers import is_computer, new_computer
from bot.store import FORMER_ID


def is_invited(player: dict) -> bool:
    """A seat a rematch's lobby keeps for a person of the previous game (``{"id", "name", "invited": true}``)
    until they press Join: it counts as taken, but not as seated (Start leaves it out, see ``free_seat``)."""
    return bool(player.get("invited"))


def sitting(players: list[dict]) -> list[dict]:
    """The lobby's seats taken by someone: persons who sat down and computers (kept seats left out)."""
    return [p for p in players if not is_invited(p)]


def free_seat(players: list[dict], most: int) -> int | None:
    """Where a newcomer (a person joining, or a computer the host adds) sits in a lobby seating ``players`` of
    at most ``most``: a free seat (``len(players)``: appended), else the last seat kept for someone who has
    not come back (a kept seat yields when no other is free), else None (full)."""
    if len(players) < most:
        return len(players)
    kept = [s for s, p in enumerate(players) if is_invited(p)]
    return kept[-1] if kept else None


def game_people(players: list[dict]) -> dict[int, str]:
    """id -> name of the persons who played a finished game: those in their seats at its end and those whose
    seat a computer took over (they may ask for its rematch and are offered their seats)."""
    people: dict[int, str] = {}
    for p in players:
        person = p.get("was") if is_computer(p) else p
        if person is not None:
            people[person["id"]] = person["name"]
    return people


def rematch_seats(players: list[dict], host: dict) -> list[dict]:
    """A rematch's seating, seat for seat as ``players`` of the finished game: ``host`` (who asked) sits in
    their own seat; each other person's seat is kept for them (``is_invited``), also one a computer took over
    after they left; each computer seat gets a new computer of the same strength. Same seats, so GEONEO's
    teams stay together. A seat anonymised by /privacy delete (``FORMER_ID``) is kept for nobody: it is left
    out, free for anyone to take."""
    seats: list[dict] = []
    for p in players:
        person = p.get("was") if is_computer(p) else p
        if person is not None and person["id"] == FORMER_ID:
            continue
        if person is None:
            seats.append(new_computer(p["computer"], seats))
        elif person["id"] == host["id"]:
            seats.append({"id": host["id"], "name": host["name"]})
        else:
            seats.append({"id": person["id"], "name": person["name"], "invited": True})
    return seats
