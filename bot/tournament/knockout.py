"""Single elimination (docs/rules/tournaments.md T13-T17): seeded by rating, byes to the top seeds in round 1
so that the field after it is a power of the table size, then the winner of every table goes on."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.tournament.model import Entrant, Played, Round, Standing, check


def knockout_rounds(players: int, size: int) -> int:
    """How many rounds a knockout of ``players`` takes with tables of ``size``."""
    if size < 2:
        raise ValueError("tables of at least 2")
    if players <= 1:
        return 0
    rounds, field = 1, _after_first(players, size)
    while field > 1:
        field //= size
        rounds += 1
    return rounds


def _after_first(players: int, size: int) -> int:
    """The field after round 1: the largest power of ``size`` below ``players``."""
    field = 1
    while field * size < players:
        field *= size
    return field


def bracket_order(slots: int, size: int) -> list[int]:
    """Seeds in bracket order for ``slots`` (a power of ``size``): consecutive groups of ``size`` meet first, and
    the best seeds meet as late as possible (duels: 1 4 2 3; tables of 3: 1 6 7 2 5 8 3 4 9)."""
    order, m = [1], 1
    while m < slots:
        order = [j * m + x if j % 2 == 0 else (j + 1) * m + 1 - x for x in order for j in range(size)]
        m *= size
    return order


@dataclass
class _Stage:
    """One round as replayed: its seating and, once every table has finished, who goes on (bracket order)."""

    round: Round
    walkovers: tuple[int, ...]  # advanced without playing: a bye, or everyone else at the table dropped
    goes_on: list[int | None] | None  # None while a table of the round is unfinished
    out: dict[int, int]  # user id -> their rank at the table they lost (a shared place: by seed; size + 1: absent)
    matches: list[Match]  # every slot's table, bye or walkover, in bracket order
    winners: list[int | None]  # who went on from each match so far (None: not finished)


@dataclass(frozen=True)
class Match:
    """One slot of the bracket: a table, or a bye (one player, no game: a bye or a walkover)."""

    seats: tuple[int | None, ...]  # None: not known yet (a later round's seat)
    winner: int | None = None  # who went on; None: not played yet
    bye: bool = False


def _first(entrants: Sequence[Entrant], size: int) -> list[list[int | None]]:
    """Round 1's tables in bracket order; a table of one is a bye."""
    field = [e.id for e in sorted(entrants, key=lambda e: (e.seed, e.id)) if e.active_in(1)]
    n = len(field)
    if n <= size:
        return [list(field)] if field else []
    target = _after_first(n, size)
    full, rest = divmod(n - target, size - 1)
    sizes = ([rest + 1] if rest else []) + [size] * full  # the smaller table to the best slot
    byes = target - len(sizes)
    tables: list[list[int | None]] = [[] for _ in sizes]
    players = iter(field[byes:])
    column = 0
    while any(len(t) < s for t, s in zip(tables, sizes, strict=True)):
        indices = range(len(tables)) if column % 2 == 0 else range(len(tables) - 1, -1, -1)
        for i in indices:
            if len(tables[i]) < sizes[i]:
                tables[i].append(next(players))
        column += 1
    return [[field[q - 1]] if q <= byes else tables[q - byes - 1] for q in bracket_order(target, size)]


def _replay(entrants: Sequence[Entrant], played: Sequence[Played], size: int) -> list[_Stage]:
    """Every round so far, from round 1 to the first unfinished one (or the end)."""
    seeds = {e.id: e.seed for e in entrants}
    active = {e.id: e for e in entrants}
    results: dict[tuple[int, frozenset[int]], Played] = {(g.round, frozenset(g.seats)): g
                                                        for g in played if not g.bye}
    stages: list[_Stage] = []
    groups = _first(entrants, size)
    number = 1
    while True:
        tables, walkovers, goes_on, out, matches = [], [], [], {}, []
        finished = True
        for group in groups:
            here = [uid for uid in group if uid is not None and active[uid].active_in(number)]
            out.update({uid: size + 1 for uid in group if uid is not None and uid not in here})
            if len(here) <= 1:
                walkovers.extend(here)
                goes_on.append(here[0] if here else None)
                matches.append(Match(tuple(here), here[0] if here else None, bye=True))
                continue
            tables.append(tuple(here))
            game = results.get((number, frozenset(here)))
            if game is None:
                finished = False
                goes_on.append(None)
                matches.append(Match(tuple(here)))
                continue
            place = dict(zip(game.seats, game.places, strict=True))
            ranked = sorted(here, key=lambda uid: (place[uid], seeds[uid]))  # a shared place: the better seed
            goes_on.append(ranked[0])
            matches.append(Match(tuple(here), ranked[0]))
            out.update({uid: i + 1 for i, uid in enumerate(ranked) if i})
        if len(tables) + len(walkovers) == 0:
            return stages
        walkovers.sort(key=lambda uid: seeds[uid])
        stages.append(_Stage(Round(number, tuple(tables), tuple(walkovers)), tuple(walkovers),
                             goes_on if finished else None, out, matches, goes_on))
        if not finished or sum(1 for uid in goes_on if uid is not None) <= 1:
            return stages
        groups = [goes_on[i:i + size] for i in range(0, len(goes_on), size)]
        number += 1


def bracket(entrants: Sequence[Entrant], played: Sequence[Played], size: int) -> list[list[Match]]:
    """Every round of the knockout, the final last, each a list of matches in bracket order: the winners of
    matches ``size * k`` to ``size * k + size - 1`` meet in match ``k`` of the next round. Rounds not played yet
    hold the players known so far (None for the others). For the image (render/tournament.py ``bracket``)."""
    check("knockout", size)
    stages = _replay(entrants, played, size)
    rounds = [list(stage.matches) for stage in stages]
    if not stages:
        return rounds
    carried: list[int | None] = list(stages[-1].winners)
    if stages[-1].goes_on is not None and sum(uid is not None for uid in carried) <= 1:
        return rounds  # decided (walkovers may decide it before the final)
    while len(carried) > 1:  # round 1 has a power of the size of matches: this ends in one match, the final
        groups = [carried[i:i + size] for i in range(0, len(carried), size)]
        rounds.append([Match(tuple(group)) for group in groups])
        carried = [None] * len(groups)
    return rounds


def knockout_round(entrants: Sequence[Entrant], played: Sequence[Played], size: int, number: int) -> Round | None:
    """Round ``number`` of a knockout, or None when the knockout is decided (its final is played)."""
    check("knockout", size)
    if number < 1:
        raise ValueError("rounds count from 1")
    stages = _replay(entrants, played, size)
    if number <= len(stages):
        return stages[number - 1].round
    if stages and stages[-1].goes_on is None:
        raise ValueError(f"round {len(stages)} is not finished")
    if number > len(stages) + 1:
        raise ValueError(f"round {len(stages) + 1} comes first")
    return None


def champion(entrants: Sequence[Entrant], played: Sequence[Played], size: int) -> int | None:
    """The knockout's winner once decided, else None."""
    stages = _replay(entrants, played, size)
    if not stages or stages[-1].goes_on is None:
        return None
    left = [uid for uid in stages[-1].goes_on if uid is not None]
    return left[0] if len(left) == 1 else None


def knockout_standings(entrants: Sequence[Entrant], played: Sequence[Played], size: int) -> list[Standing]:
    """Who is still in first (the winner alone once decided), then by the round they went out in, latest first,
    and their place at that table; equal ones share the place (two semi-final losers share third)."""
    check("knockout", size)
    stages = _replay(entrants, played, size)
    seeds = {e.id: e.seed for e in entrants}
    went_out: dict[int, tuple[int, int]] = {}
    wins = {e.id: 0 for e in entrants}
    games = dict(wins)
    advanced = dict(wins)
    walked = dict(wins)
    results = {(g.round, frozenset(g.seats)): g for g in played if not g.bye}
    for stage in stages:
        for uid, place in stage.out.items():
            went_out.setdefault(uid, (stage.round.number, place))
        for uid in stage.walkovers:
            walked[uid] += 1
        for table in stage.round.tables:
            game = results.get((stage.round.number, frozenset(table)))
            if game is None:
                continue
            for uid, place in zip(game.seats, game.places, strict=True):
                games[uid] += 1
                wins[uid] += place == 1 and game.places.count(1) == 1
                advanced[uid] += uid not in stage.out
    for e in entrants:
        if not e.active_in(1):
            went_out[e.id] = (1, size + 1)  # dropped before round 1
    rows = []
    for e in entrants:
        out = went_out.get(e.id)
        key = (0, 0, 0) if out is None else (1, -out[0], out[1])
        rows.append((key, e))
    rows.sort(key=lambda row: (row[0], row[1].seed, row[1].id))
    standings: list[Standing] = []
    for i, (key, e) in enumerate(rows):
        place = standings[-1].place if i and rows[i - 1][0] == key else i + 1
        out = went_out.get(e.id)
        standings.append(Standing(id=e.id, place=place, points=float(advanced[e.id]), tiebreaks=(),
                                  played=games[e.id], wins=wins[e.id], dropped=e.dropped_after is not None,
                                  eliminated_in=None if out is None else out[0], byes=walked[e.id],
                                  seed=seeds[e.id]))
    return standings
