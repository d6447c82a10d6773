"""The tournament's plain records and the points a place earns (docs/rules/tournaments.md T3-T5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

FORMATS = ("swiss", "knockout")
SIZES = (2, 3, 4)


@dataclass(frozen=True)
class Entrant:
    id: int  # the member's user id
    seed: int  # 1 = best: by rating at the start, ties by sign-up order
    dropped_after: int | None = None  # the last round they took part in (0: before round 1); None: still in

    def active_in(self, number: int) -> bool:
        """Whether they are paired in round ``number``."""
        return self.dropped_after is None or self.dropped_after >= number


@dataclass(frozen=True)
class Played:
    """One finished table (or bye) of a past round."""

    round: int  # 1-based
    seats: tuple[int, ...]  # user ids at the table, in seat order
    places: tuple[int, ...]  # each seat's place (1 best; shared places equal), same order as seats
    bye: bool = False  # a bye: seats=(id,), places=(1,)


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[tuple[int, ...], ...]  # each table's user ids, in seat order (the first seat starts)
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Standing:
    id: int
    place: int  # shared when points and tiebreaks are equal (then listed by seed)
    points: float
    tiebreaks: tuple[float, ...]  # swiss duels: (Buchholz, Sonneborn-Berger); tables: (sum of places, opponents')
    played: int  # games at a table (byes not counted)
    wins: int  # sole first places
    dropped: bool
    eliminated_in: int | None = None  # knockout: the round they went out in
    byes: int = 0
    seed: int = 0


def check(fmt: str, size: int) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}")
    if size not in SIZES:
        raise ValueError(f"table size {size} is not one of {SIZES}")


def place_points(place: int, players: int, size: int) -> float:
    """Points for ``place`` at a table of ``players`` in a tournament of tables of ``size`` (T3): duels 1 for a
    win; tables of 3-4 give 4, 2, 1 by place and the last place 0. A bye (a table of one) is a win."""
    if players > 1 and place >= players:
        return 0.0
    if size == 2:
        return 1.0
    return 4.0 / 2 ** (place - 1)


def table_points(places: Sequence[int], size: int) -> list[float]:
    """Each seat's points; players sharing a place split the points of the places they cover (a drawn duel:
    0.5 each; two sharing first at a table of 3: (4 + 2) / 2 = 3 each)."""
    n = len(places)
    out = []
    for p in places:
        shared = sum(1 for q in places if q == p)
        out.append(sum(place_points(p + k, n, size) for k in range(shared)) / shared)
    return out


def win_points(size: int) -> float:
    return place_points(1, 1, size)
