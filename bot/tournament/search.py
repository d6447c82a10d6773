"""Seating a Swiss round with the fewest repeat meetings (docs/rules/tournaments.md T9-T11).

The best unseated player takes a table with the players the rules prefer (duels: the Dutch system's opponent,
half a score group below, then further down, up, then the groups below; tables of 3-4: the next ones in the
standings), and a depth-first search backs up when the rest cannot be seated:

1. with no repeat at all: the first seating found is the round (the usual case, found at once in a big field);
2. else a greedy pass (each table with the fewest repeats it can have, no backing up) gives an upper bound,
   and a branch and bound search looks for fewer repeats below it.

Each phase has a budget of steps, so a pathological field ends with the best seating found instead of
searching for ever; small fields are searched completely (the tests compare them with a brute force).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, islice

BUDGET = 30_000  # candidates weighed in each phase (tens of milliseconds)
GREEDY = 3_000  # candidates a greedy table weighs at most once it knows it must repeat
TAIL = 24  # a big field's last players to seat, from which the search seats the hardest to seat first
FALLBACK_OPTIONS = 12  # byes weighed once no seating without repeats was found (the lowest-ranked first)

Seating = list[tuple[int, ...]]


def seat(options: list[tuple[int | None, list[int]]], sizes: list[int], points: dict[int, float] | None,
         met: dict[tuple[int, int], int]) -> tuple[int | None, Seating]:
    """The seating of the first option (a bye and the players left, in rank order) with the fewest repeats.
    ``points`` for duels (the Dutch order); None for tables, seated in the order of the standings."""
    search = _Search(sorted(sizes, reverse=True), points, met)
    for bye, ids in options:
        found = search.first(ids, 0)
        if found is not None:
            return bye, found
        if search.exhausted:
            break
    options = options[:FALLBACK_OPTIONS]
    best_cost, best = None, None
    for bye, ids in options:
        tables = search.greedy(ids)
        cost = sum(search.cost(t) for t in tables)
        if best_cost is None or cost < best_cost:
            best_cost, best = cost, (bye, tables)
    search.steps, search.exhausted = 0, False
    for bye, ids in options:
        if best_cost == 0 or search.exhausted:
            break
        found = search.improve(ids, best_cost - 1)
        if found is not None:
            best_cost, best = sum(search.cost(t) for t in found), (bye, found)
    return best


class _OutOfBudget(Exception):
    pass


class _Search:
    def __init__(self, sizes: list[int], points: dict[int, float] | None, met: dict[tuple[int, int], int]) -> None:
        self.sizes, self.points, self.met = tuple(sizes), points, met
        self.steps, self.exhausted, self.tail, self.budgeted = 0, False, 0, False
        self.allowed, self.keep_going, self.best = 0, False, None

    def _tick(self) -> None:
        """One candidate weighed: the budget counts them all, also those turned down."""
        self.steps += 1
        if self.budgeted and self.steps > BUDGET:
            raise _OutOfBudget

    def pair(self, a: int, b: int) -> int:
        return self.met.get((a, b) if a < b else (b, a), 0)

    def cost(self, table: tuple[int, ...]) -> int:
        return sum(self.pair(table[i], table[j]) for i in range(len(table)) for j in range(i + 1, len(table)))

    def first(self, ids: list[int], allowed: int) -> Seating | None:
        """The first seating in the order of preference with at most ``allowed`` repeats."""
        self.allowed, self.keep_going, self.best = allowed, False, None
        return self._run(ids)

    def improve(self, ids: list[int], bound: int) -> Seating | None:
        """The seating with the fewest repeats up to ``bound`` (the first found of them), or None."""
        self.allowed, self.keep_going, self.best = bound, True, None
        self._run(ids)
        return self.best

    def _run(self, ids: list[int]) -> Seating | None:
        # tables of a big field: the search used to thrash over its last tables, seated in rank order
        self.tail = TAIL if self.points is None and len(ids) > TAIL else 0
        self.budgeted = True
        try:
            return self._seat(ids, self.sizes, 0, [])
        except _OutOfBudget:
            self.exhausted = True
            return None
        finally:
            self.budgeted = False

    def _seat(self, left: list[int], sizes: tuple[int, ...], spent: int, path: Seating) -> Seating | None:
        """``sizes``: the tables still to fill, biggest first; the best unseated player tries each size."""
        if not left:
            if self.keep_going:
                self.best, self.allowed = list(path), spent - 1
                return None
            return list(path)
        if len(left) <= self.tail:  # the hardest to seat first (the ranks there are close)
            free = {uid: sum(1 for other in left if not self.pair(uid, other)) for uid in left}
            hardest = min(left, key=lambda uid: free[uid])
            if free[hardest] < free[left[0]]:
                left = [hardest] + [uid for uid in left if uid != hardest]
        for k, size in enumerate(sizes):
            if k and size == sizes[k - 1]:
                continue
            others = sizes[:k] + sizes[k + 1:]
            for picks, cost in self._company(left, size, self.allowed - spent):
                if spent + cost > self.allowed:  # the bound dropped since the candidates were drawn
                    continue
                taken = set(picks)
                rest = [uid for i, uid in enumerate(left) if i and i not in taken]
                path.append((left[0],) + tuple(left[i] for i in picks))
                found = self._seat(rest, others, spent + cost, path)
                path.pop()
                if found is not None:
                    return found
        return None

    def greedy(self, left: list[int]) -> Seating:
        """Table by table, the preferred company among those with the fewest repeats; no backing up."""
        out = []
        for size in self.sizes:
            allowance = 0
            while (found := next(self._company(left, size, allowance), None)) is None:
                allowance = 2 * allowance + 1
            best, best_cost = found
            if best_cost:  # a cheaper table may exist below the doubled allowance (among the first few)
                best, best_cost = min(islice(self._company(left, size, best_cost), GREEDY), key=lambda pc: pc[1])
            out.append((left[0],) + tuple(left[i] for i in best))
            taken = set(best)
            left = [uid for i, uid in enumerate(left) if i and i not in taken]
        return out

    def _company(self, left: list[int], size: int, allowance: int) -> Iterator[tuple[tuple[int, ...], int]]:
        """(index tuple into ``left`` of the players to seat with ``left[0]``, the repeats it makes), the
        preferred first, only those within ``allowance`` repeats."""
        if size == 1:
            yield (), 0
            return
        first = left[0]
        if self.points is None:
            yield from self._members(left, (), (first,), size - 1, 1, allowance)
            return
        top = self.points[first]
        group = 1
        while group < len(left) and self.points[left[group]] == top:
            group += 1
        ideal = max(group // 2, 1)
        # Dutch: half the score group down, then further down the group, then up it, then the groups below
        for i in chain(range(ideal, group), range(ideal - 1, 0, -1), range(max(group, ideal), len(left))):
            self._tick()
            cost = self.pair(first, left[i])
            if cost <= allowance:
                yield (i,), cost

    def _members(self, left, picks, seated, wanted, start, allowance) -> Iterator[tuple[tuple[int, ...], int]]:
        """Tables' companions in the order of the standings (lexicographic), skipping at once every
        combination that starts with a pick already over the allowance."""
        for i in range(start, len(left) - wanted + 1):
            self._tick()
            uid = left[i]
            cost = sum(self.pair(uid, other) for other in seated)
            if cost > allowance:
                continue
            if wanted == 1:
                yield picks + (i,), cost
                continue
            for more, extra in self._members(left, picks + (i,), seated + (uid,), wanted - 1, i + 1,
                                             allowance - cost):
                yield more, cost + extra
