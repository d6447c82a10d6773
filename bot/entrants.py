"""A tournament as stored (its entries, rounds and boards), as the pure logic (bot/tournament/) sees it: entrants,
finished tables with their places, standings. The places of a finished board follow the ratings' outcome; an
ended board's are decided here (docs/rules/tournaments.md T-B1)."""

from __future__ import annotations

from dataclasses import dataclass

from bot import ratings
from bot.store.tournaments import Board, Entry, RoundRow, TournamentRow
from bot.tournament.pairing import Entrant, Played, bracket, standings
from bot.ui import tournament as words
from i18n import _, localize


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


def note(s: Snapshot, lang: str) -> str:
    t = s.t
    if t.status == "finished":
        return localize(_("Final standings after {n} rounds", n=t.round), lang)
    return localize(_("After round {n} of {rounds}", n=max(t.round - 1, 0), rounds=t.rounds), lang)


def standings_data(s: Snapshot, lang: str) -> dict:
    """``renderpool.standings``' data: the rows in the reader's language."""
    who = s.who
    kind = "knockout" if s.t.format == "knockout" else "duels" if s.t.size == 2 else "tables"
    rows = [{"place": x.place, "name": who.get(x.id, "?"), "points": x.points, "tiebreaks": list(x.tiebreaks),
             "games": x.played, "wins": x.wins, "dropped": x.dropped, "you": False, "out": x.eliminated_in}
            for x in s.standings()]
    return {"title": localize(words.title(s.t), lang), "note": note(s, lang), "kind": kind, "rows": rows}


def round_name(number: int, rounds: int, lang: str) -> str:
    left = rounds - number
    name = (_("Final") if left == 0 else _("Semi-finals") if left == 1 else _("Quarter-finals") if left == 2
            else _("Round {n}", n=number))
    return localize(name, lang)


def bracket_data(s: Snapshot, lang: str) -> dict:
    """``renderpool.bracket``' data: every round of the knockout, the final last."""
    who = s.who
    rounds = bracket(s.entrants(), s.played(), s.t.size)
    out = []
    for number, matches in enumerate(rounds, 1):
        out.append({"name": round_name(number, len(rounds), lang), "matches": [
            {"players": [{"name": who.get(u, "?"), "you": False} if u is not None else None for u in m.seats],
             "winner": m.seats.index(m.winner) if m.winner is not None and m.winner in m.seats else None,
             "bye": m.bye} for m in matches]})
    won = words.winners(s.standings(), who) if s.t.status == "finished" else ""
    banner = localize(_("{winner} wins {title}", winner=won, title=words.title(s.t)), lang) if won else None
    return {"title": localize(words.title(s.t), lang), "note": note(s, lang), "rounds": out, "banner": banner}
