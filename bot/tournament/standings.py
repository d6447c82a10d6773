"""Swiss standings: points, tiebreaks and shared places (docs/rules/tournaments.md T3-T8)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.tournament.model import Entrant, Played, Standing, table_points, win_points


@dataclass
class Record:
    """One entrant's results so far."""

    points: float = 0.0
    played: int = 0
    wins: int = 0
    byes: int = 0
    places: int = 0  # sum of places (tables' tiebreak)
    rounds: set[int] = field(default_factory=set)
    opponents: list[int] = field(default_factory=list)  # one entry per opponent per game (repeats repeat)
    beaten: list[tuple[int, float]] = field(default_factory=list)  # (opponent, share of the win: 1 or 0.5)
    firsts: int = 0  # times in the first seat


def records(entrants: Sequence[Entrant], played: Sequence[Played], size: int,
            before: int | None = None) -> dict[int, Record]:
    """Every entrant's record from the finished tables (of rounds before ``before`` when given). A seat of
    someone no longer entered (their data deleted) gets a record too, so their opponents' tiebreaks keep their
    points; the caller lists only the entrants."""
    out = {e.id: Record() for e in entrants}
    for game in played:
        if before is not None and game.round >= before:
            continue
        for uid in game.seats:
            out.setdefault(uid, Record())
        if len(game.places) != len(game.seats):
            raise ValueError(f"round {game.round}: places and seats differ in length")
        if game.bye:
            r = out[game.seats[0]]
            r.points += win_points(size)
            r.byes += 1
            r.places += 1
            r.rounds.add(game.round)
            continue
        points = table_points(game.places, size)
        for i, (uid, place) in enumerate(zip(game.seats, game.places, strict=True)):
            r = out[uid]
            r.points += points[i]
            r.played += 1
            r.places += place
            r.rounds.add(game.round)
            r.firsts += i == 0
            if place == 1 and game.places.count(1) == 1:
                r.wins += 1
            for j, other in enumerate(game.seats):
                if j != i:
                    r.opponents.append(other)
                    if place < game.places[j]:
                        r.beaten.append((other, 1.0))
                    elif place == game.places[j]:
                        r.beaten.append((other, 0.5))
    return out


def swiss_standings(entrants: Sequence[Entrant], played: Sequence[Played], size: int) -> list[Standing]:
    """Sorted by points, then the tiebreaks (T6, T7); equal points and tiebreaks share the place and are listed
    by seed. A dropped entrant stays with the results they had; each round played without them counts as a loss
    (no points; at tables, the last place in the sum of places)."""
    recs = records(entrants, played, size)
    rounds = max((g.round for g in played), default=0)
    rows = []
    for e in entrants:
        r = recs[e.id]
        if size == 2:
            buchholz = sum(recs[o].points for o in r.opponents)
            berger = sum(recs[o].points * share for o, share in r.beaten)
            tiebreaks = (buchholz, berger)
            key = (-_r(r.points), -_r(buchholz), -_r(berger))
        else:
            missing = sum(1 for n in range(1, rounds + 1) if n not in r.rounds)
            places = r.places + missing * size
            opponents = sum(recs[o].points for o in r.opponents)
            tiebreaks = (float(places), opponents)
            key = (-_r(r.points), places, -_r(opponents))
        rows.append((key, e, r, tiebreaks))
    rows.sort(key=lambda row: (row[0], row[1].seed, row[1].id))
    out: list[Standing] = []
    for i, (key, e, r, tiebreaks) in enumerate(rows):
        place = out[-1].place if i and rows[i - 1][0] == key else i + 1
        out.append(Standing(id=e.id, place=place, points=r.points, tiebreaks=tiebreaks, played=r.played,
                            wins=r.wins, dropped=e.dropped_after is not None, byes=r.byes, seed=e.seed))
    return out


def _r(x: float) -> float:
    """Points compared after rounding: thirds (three sharing a place) must not differ in the last bit."""
    return round(x, 6)


def meetings(played: Sequence[Played], before: int) -> dict[tuple[int, int], int]:
    """How often each pair (smaller id first) has sat at one table in rounds before ``before``."""
    met: dict[tuple[int, int], int] = defaultdict(int)
    for game in played:
        if game.bye or game.round >= before:
            continue
        seats = game.seats
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                a, b = seats[i], seats[j]
                met[(a, b) if a < b else (b, a)] += 1
    return met
