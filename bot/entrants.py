"""A tournament as stored (its entries, rounds and boards), as the pure logic (bot/tournament/) sees it: entrants,
finished tables with their places, standings. The places of a finished board follow the ratings' outcome; an
ended board's are decided here (docs/rules/tournaments.md T-B1)."""

from __future__ import annotations

from dataclasses import dataclass

from bot import ratings
from bot.store.tournaments import Board, Entry, RoundRow, TournamentRow
from bot.tournament.pairing import Entrant, Played, standings
from bot.ui import tournament as words


@dataclass
class Snapshot:
    """A tournament as stored: its entries, rounds, boards, and the pure logic's view of them."""
    t: TournamentRow
    entries: list[Entry]
    rounds: list[RoundRow]
    boards: list[Board]

    @property
    def who(self) -> dict[int, str]:
        return words.names(self.entries)

    def entrants(self) -> list[Entrant]:
        return [Entrant(e.user_id, e.seed or i + 1, e.dropped_after) for i, e in enumerate(self.entries)]

    def played(self) -> list[Played]:
        out = [Played(r.number, (b,), (1,), bye=True) for r in self.rounds for b in r.byes]
        out += [Played(b.round, tuple(b.seats), places(self.t.game, b)) for b in self.boards if done(b)]
        return out

    def standings(self):
        if not self.entries:
            return []
        return standings(self.t.format, self.entrants(), self.played(), self.t.size)


def done(b: Board) -> bool:
    return b.status in ("finished", "ended")


def departed(b: Board) -> list[int]:
    """The seats whose person left or was removed (or whose seat a computer took over)."""
    return [s for s, p in enumerate(b.players or []) if "was" in p or (b.left and b.left[s])]


def places(game: str, b: Board) -> tuple[int, ...]:
    """Each seat's place at a finished board (1 best, shared places equal): the stored result as the ratings
    count it (a seat a computer took over after the people's); a table ended without a result (a moderator,
    the round's deadline): the seats still in share the first place, those who left share the last (T-B1)."""
    if b.standings is not None:
        ranking = ratings.outcome(game, b.players, b.standings["ranking"], b.standings.get("no_winner", False)).ranking
    else:
        gone = departed(b)
        ranking = [g for g in ([s for s in range(len(b.seats)) if s not in gone], gone) if g]
    place, seen = {}, 0
    for group in ranking:
        for s in group:
            place[s] = seen + 1
        seen += len(group)
    return tuple(place.get(s, len(b.seats)) for s in range(len(b.seats)))
