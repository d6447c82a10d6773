"""Swiss and knockout pairing (docs/rules/tournaments.md T9-T18); the entry points the bot calls.

Swiss: players are ranked by points, then seed, and seated by bot/tournament/search.py (the preferred company
first, no repeat meeting where some seating avoids it). A 256-player round takes a few milliseconds
(benchmarks/pairing.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournament.knockout import (
    Match,
    bracket,
    champion,
    knockout_round,
    knockout_rounds,
    knockout_standings,
)
from bot.tournament.model import FORMATS, Entrant, Played, Round, Standing, check
from bot.tournament.search import seat
from bot.tournament.standings import meetings, records, swiss_standings

__all__ = ["FORMATS", "Entrant", "Match", "Played", "Round", "Standing", "bracket", "champion", "fewest",
           "knockout_round", "knockout_rounds", "standings", "swiss_round", "table_sizes"]


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
    if len(ids) <= 1:
        return Round(number, (), tuple(ids))
    if size == 2 and len(ids) % 2:
        # the bye: the lowest-ranked among those with the fewest byes whose bye lets the rest pair best (T11)
        fewest_byes = min(recs[uid].byes for uid in ids)
        options = [(uid, [other for other in ids if other != uid]) for uid in reversed(ids)
                   if recs[uid].byes == fewest_byes]
    else:
        options = [(None, ids)]
    bye, tables = seat(options, table_sizes(len(ids) - (options[0][0] is not None), size),
                       points if size == 2 else None, met)
    byes = () if bye is None else (bye,)
    firsts = {uid: recs[uid].firsts for uid in ids}
    seated = (tuple(sorted(t, key=lambda uid: (firsts[uid], rank[uid]))) for t in tables)
    return Round(number, tuple(sorted(seated, key=lambda t: min(rank[uid] for uid in t))), byes)  # top table first
