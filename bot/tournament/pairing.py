"""Swiss and knockout pairing (docs/rules/tournaments.md T9-T16); the entry points the bot calls.

Swiss: players are ranked by points, then seed. The best unseated player takes a table with the players the
rules prefer (duels: the Dutch system's opponent, half a score group below; tables of 3-4: the next ones in the
standings), and a depth-first search backs up when the rest cannot be seated. It first allows no repeat
meeting at all, then one, two... (iterative deepening), so repeats are avoided whenever some seating avoids
them; each level has a budget of steps (a pathological field falls through to the next level instead of
searching for ever). A 256-player round takes a few milliseconds (benchmarks/pairing.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from bot.tournament.knockout import champion, knockout_round, knockout_rounds, knockout_standings
from bot.tournament.model import FORMATS, Entrant, Played, Round, Standing, check
from bot.tournament.standings import meetings, records, swiss_standings

__all__ = ["FORMATS", "Entrant", "Played", "Round", "Standing", "champion", "fewest", "knockout_round", "knockout_rounds",
           "standings", "swiss_round", "table_sizes"]

BUDGET = 20_000  # steps of the search per level of allowed repeats


def fewest(fmt: str, size: int) -> int:
    """The fewest entrants a tournament starts with (T2): a Swiss needs two full tables, a knockout two rounds."""
    check(fmt, size)
    return 2 * size if fmt == "swiss" else size + 1


def standings(fmt: str, entrants: Sequence[Entrant], played: Sequence[Played], size: int) -> list[Standing]:
    check(fmt, size)
    if fmt == "swiss":
        return swiss_standings(entrants, played, size)
    return knockout_standings(entrants, played, size)


def table_sizes(players: int, size: int) -> list[int]:
    """As few tables as the size allows, as even as possible, the bigger ones first (T10): 10 players in tables
    of 4 sit 4+3+3, in tables of 3 sit 3+3+2+2; duels leave one table of one (the bye) when odd."""
    if players <= 0:
        return []
    count = -(-players // size)
    base, extra = divmod(players, count)
    return [base + 1] * extra + [base] * (count - extra)


def swiss_round(entrants: Sequence[Entrant], played: Sequence[Played], size: int, number: int) -> Round:
    """Round ``number`` of a Swiss from the finished tables of the rounds before it."""
    check("swiss", size)
    if number < 1:
        raise ValueError("rounds count from 1")
    if len({e.id for e in entrants}) != len(entrants):
        raise ValueError("an entrant is listed twice")
    recs = records(entrants, played, size, before=number)
    active = sorted((e for e in entrants if e.active_in(number)),
                    key=lambda e: (-round(recs[e.id].points, 6), e.seed, e.id))
    ids = [e.id for e in active]
    points = {e.id: round(recs[e.id].points, 6) for e in active}
    rank = {uid: i for i, uid in enumerate(ids)}
    met = meetings(played, number)
    byes: tuple[int, ...] = ()
    if len(ids) <= 1:
        return Round(number, (), tuple(ids))
    if size == 2 and len(ids) % 2:
        bye, tables = _duels_with_bye(ids, points, met, {uid: recs[uid].byes for uid in ids})
        byes = (bye,)
    else:
        tables = _deepening(ids, table_sizes(len(ids), size), points if size == 2 else None, met)
    firsts = {uid: recs[uid].firsts for uid in ids}
    seated = tuple(tuple(sorted(t, key=lambda uid: (firsts[uid], rank[uid]))) for t in tables)
    return Round(number, seated, byes)


def _duels_with_bye(ids, points, met, byes_had) -> tuple[int, list[tuple[int, ...]]]:
    """The bye goes to the lowest-ranked player among those with the fewest byes (T11) whose bye lets the rest
    pair with the fewest repeats."""
    fewest_byes = min(byes_had.values())
    candidates = [uid for uid in reversed(ids) if byes_had[uid] == fewest_byes]
    sizes = [2] * ((len(ids) - 1) // 2)
    for allowed in _levels(len(ids)):
        search = _Search(sizes, points, met, allowed)  # one budget for every candidate of the level
        for bye in candidates:
            found = search.run([uid for uid in ids if uid != bye])
            if found is not None:
                return bye, found
    raise AssertionError("unreachable: the last level allows any repeat")


def _deepening(ids, sizes, points, met) -> list[tuple[int, ...]]:
    for allowed in _levels(len(ids)):
        found = _Search(sizes, points, met, allowed).run(ids)
        if found is not None:
            return found
    raise AssertionError("unreachable: the last level allows any repeat")


def _levels(players: int) -> Iterator[int | None]:
    """Repeats allowed: 0, 1, 2... then any (None, which always succeeds at once)."""
    yield from range(min(players, 12))
    yield None


class _Search:
    """Depth-first: the best unseated player's table first, the preferred company first."""

    def __init__(self, sizes: list[int], points: dict[int, float] | None, met: dict[tuple[int, int], int],
                 allowed: int | None) -> None:
        """``points`` for duels (the Dutch order); None for tables, seated in the order of the standings."""
        self.sizes, self.points, self.met, self.allowed = sizes, points, met, allowed
        self.steps = 0

    def run(self, ids: list[int]) -> list[tuple[int, ...]] | None:
        try:
            return self._seat(ids, 0, 0)
        except _OutOfBudget:
            return None

    def _cost(self, table: tuple[int, ...]) -> int:
        met, cost = self.met, 0
        for i in range(len(table)):
            for j in range(i + 1, len(table)):
                a, b = table[i], table[j]
                cost += met.get((a, b) if a < b else (b, a), 0)
        return cost

    def _seat(self, left: list[int], table: int, spent: int) -> list[tuple[int, ...]] | None:
        if not left:
            return []
        size = self.sizes[table]
        for picks in self._company(left, size):
            self.steps += 1
            if self.allowed is not None and self.steps > BUDGET:
                raise _OutOfBudget
            chosen = (left[0],) + tuple(left[i] for i in picks)
            cost = spent + self._cost(chosen) if self.allowed is not None else 0
            if self.allowed is not None and cost > self.allowed:
                continue
            taken = set(picks)
            rest = [uid for i, uid in enumerate(left) if i and i not in taken]
            found = self._seat(rest, table + 1, cost)
            if found is not None:
                return [chosen] + found
        return None

    def _company(self, left: list[int], size: int) -> Iterator[tuple[int, ...]]:
        """Index tuples into ``left`` of the players to seat with ``left[0]``, the preferred first."""
        if size == 1:
            yield ()
            return
        if self.points is None:
            yield from combinations(range(1, len(left)), size - 1)
            return
        top = self.points[left[0]]
        group = 1
        while group < len(left) and self.points[left[group]] == top:
            group += 1
        ideal = max(group // 2, 1)
        # Dutch: half the score group down, then further down the group, then up it, then the groups below
        yield from ((i,) for i in range(ideal, group))
        yield from ((i,) for i in range(ideal - 1, 0, -1))
        yield from ((i,) for i in range(max(group, ideal), len(left)))


class _OutOfBudget(Exception):
    pass
