"""Ratings: what a finished game changes in its players' ratings for that game in that server.

OpenSkill's Plackett-Luce model (``openskill``): it rates games of more than two players, teams (GEONEO with
four: two partners share a place) and shared places (ties) from the final ranking. Each person has one rating
per game and server: ``mu`` (the estimated skill) and ``sigma`` (how unsure it is). The number people see is
:func:`displayed`, ``1000 + 40 * (mu - 3 * sigma)``: 1000 for a newcomer, rising as the bot grows sure they
are good (mu - 3 sigma is OpenSkill's "ordinal", a skill the player is 99.7% likely to have at least).

Which games count (docs/rules/ratings.md): only games that ended with a result and started between at least two
people without any computer seat. Players who left or were removed are ranked last by the engine's result, so
leaving is a loss; a seat a computer took over mid-game is its person's departure (ranked last the same way,
:func:`departures_last`), and the computer itself is not rated.

Pure: no Discord, no database. :func:`plan` turns a finished game's stored standings into a :class:`Plan`; the
store reads the players' current ratings and calls :meth:`Plan.rows`, which computes the rows written by the
same transaction as the game's last move (bot/store/moves.py ``commit_move``).
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

import games  # noqa: F401 (registers every engine: Engine.teams)
from bot.computers import is_computer
from games.core import get_engine
from i18n import Text, _, join, ngettext

MODEL = PlackettLuce()
"""The library's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""
MU = MODEL.mu
SIGMA = MODEL.sigma


def displayed(mu: float, sigma: float) -> float:
    """The rating people see (rounded when shown): 1000 for a newcomer (mu - 3 sigma = 0), 40 points per unit
    of OpenSkill's ordinal."""
    return 1000 + 40 * (mu - 3 * sigma)


@dataclass(frozen=True)
class Skill:
    """A person's stored rating for one game in one server (``games``: rated games so far)."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0


@dataclass(frozen=True)
class Seat:
    """A seat of a finished game held by a person (or by a computer that took a person's seat over)."""

    seat: int
    user: int
    name: str
    place: int
    """1 + the number of seats (teams count once) ranked above: shared places share the number."""
    score: float | None
    won: bool


@dataclass(frozen=True)
class Plan:
    """What a finished game writes besides its result: a row per person (``seats``), rated or not."""

    game: str
    seats: tuple[Seat, ...]
    units: tuple[tuple[int, ...], ...]
    """The seats that are rated as one (a team; else one seat each), in seat order of their first seat."""
    ranks: tuple[int, ...]
    """Per unit: its place (lower is better; equal: a tie)."""
    rated: bool
    why_not: str = ""
    """Why the game is not rated, in words (a ``Text``; empty when it is)."""

    @property
    def users(self) -> list[int]:
        return [s.user for s in self.seats]

    def rows(self, current: dict[int, Skill]) -> list[dict]:
        """The rows the move that ends the game writes, from the players' ratings before it (``current``;
        a person without one starts at the model's defaults): per person ``seat, user_id, name, place, score,
        won, rated`` and, when rated, the new ``mu, sigma, rating`` (displayed) and ``games`` (rated games
        after this one: the store writes it only if the stored count is still ``games - 1``). Unrated: the
        model's starting ``mu, sigma`` (kept only by a person's first row), ``rating`` None, ``games`` 0."""
        new: dict[int, Skill] = {}
        if self.rated:
            by_seat = {s.seat: s for s in self.seats}
            teams = [[MODEL.rating(mu=current.get(by_seat[seat].user, Skill()).mu,
                                   sigma=current.get(by_seat[seat].user, Skill()).sigma) for seat in unit]
                     for unit in self.units]
            rated = MODEL.rate(teams, ranks=[float(r) for r in self.ranks])
            for unit, team in zip(self.units, rated, strict=True):
                for seat, after in zip(unit, team, strict=True):
                    user = by_seat[seat].user
                    new[user] = Skill(after.mu, after.sigma, current.get(user, Skill()).games + 1)
        rows = []
        for s in self.seats:
            row = {"seat": s.seat, "user_id": s.user, "name": s.name, "place": s.place, "score": s.score,
                   "won": int(s.won), "rated": int(self.rated), "mu": MU, "sigma": SIGMA, "rating": None,
                   "games": 0}
            if self.rated:
                skill = new[s.user]
                row |= {"mu": skill.mu, "sigma": skill.sigma, "rating": displayed(skill.mu, skill.sigma),
                        "games": skill.games}
            rows.append(row)
        return rows


def person_of(player: dict) -> dict | None:
    """The person a seat's entry stands for: the player, the person a computer took over from (``was``),
    or None for a computer added as one."""
    if "was" in player:
        return player["was"]
    return None if is_computer(player) else player


def departures_last(ranking: list[list[int]], players: list[dict],
                    team_of: dict[int, tuple[int, ...]]) -> list[list[int]]:
    """The ranking with every seat handed to a computer mid-game (its person left or was removed with the
    takeover option on, or a moderator handed it over) moved after the seats still played by people, as the
    engines rank a leaver: the departures keep their order among themselves. A team counts as departed only
    when all its partners did (the engines keep a team in play while any partner is)."""
    def departed(seat: int) -> bool:
        return all("was" in players[s] for s in team_of.get(seat, (seat,)) if s < len(players))

    staying = [[s for s in group if not departed(s)] for group in ranking]
    leaving = [[s for s in group if departed(s)] for group in ranking]
    return [g for g in staying if g] + [g for g in leaving if g]


@dataclass(frozen=True)
class Outcome:
    """Who won a finished game, as the ratings count it and as everything the bot shows says it (the board's
    banner, the standings, /history, /replay): the game's own ranking with each seat a computer took over after
    the seats people still play (``departures_last``)."""

    ranking: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]
    """The first place (none when nobody won)."""
    overtaken: tuple[int, ...]
    """Seats the game's own ranking put first but a computer took over (their persons left): the reason the
    winners are not the game's."""


def outcome(game: str, players: list[dict], ranking, no_winner: bool = False) -> Outcome:
    """The :class:`Outcome` of a game of ``game`` with ``players`` (as seated at its end) and its own
    ``ranking`` (groups of seats, best first)."""
    try:
        teams = get_engine(game).teams(len(players)) or []
    except KeyError:  # a game no longer offered (an old result): no teams
        teams = []
    team_of = {seat: tuple(team) for team in teams for seat in team}
    ordered = departures_last([list(g) for g in ranking], players, team_of)
    winners = () if no_winner or not ordered else tuple(ordered[0])
    first = () if no_winner or not ranking else tuple(ranking[0])
    return Outcome(tuple(tuple(g) for g in ordered), winners, tuple(s for s in first if s not in winners))


def won_words(winners: list) -> Text:
    """"Ana wins" (the names as given: a computer's a ``Text``)."""
    return ngettext("{players} wins", "{players} win", len(winners), players=join(winners, ", "))


def departed_words(people: list[str]) -> Text:
    """Why the winners are not the game's own: "Bo left (a computer played their seat)"."""
    return ngettext("{players} left (a computer played their seat)", "{players} left (computers played their seats)",
                    len(people), players=", ".join(people))


def outcome_sentence(winners: list, people: list[str]) -> Text:
    """"Ana wins: Bo left (a computer played their seat).": the one sentence for a game whose own winner was a
    seat a computer took over (``Outcome.overtaken``; ``people``: the names of their persons)."""
    return _("{winners}: {why}.", winners=won_words(winners), why=departed_words(people))


def plan(game: str, standings: dict) -> Plan:
    """What a finished game's ``standings`` (as ``TableService._apply`` stores them: ``scores``, ``ranking``
    groups best first, ``players`` as seated, ``no_winner`` when nobody won) write for its people, and
    whether it is rated."""
    players: list[dict] = standings["players"]
    scores = standings.get("scores") or []
    teams = get_engine(game).teams(len(players)) or []
    team_of = {seat: tuple(team) for team in teams for seat in team}
    decided = outcome(game, players, standings["ranking"], bool(standings.get("no_winner")))
    ranking = decided.ranking
    places: dict[int, int] = {}
    above = 0
    for group in ranking:
        for seat in group:
            places[seat] = above + 1
        above += len({team_of.get(seat, (seat,)) for seat in group})
    winners = set(decided.winners)
    seats, seen_users = [], set()
    for seat, player in enumerate(players):
        person = person_of(player)
        if person is None or person["id"] in seen_users:  # (one row per person, should one hold two seats)
            continue
        seen_users.add(person["id"])
        # a seat a computer took over: what its person had scored when they left, not the computer's points
        score = person.get("score") if "was" in player else scores[seat] if seat < len(scores) else None
        seats.append(Seat(seat, int(person["id"]), person["name"], places.get(seat, above + 1), score,
                          seat in winners))
    units, seen = [], set()
    for seat in range(len(players)):
        unit = team_of.get(seat, (seat,))
        if unit not in seen:
            seen.add(unit)
            units.append(unit)
    ranks = tuple(min(places.get(s, above + 1) for s in unit) for unit in units)
    why_not = ""
    if any(is_computer(p) and "was" not in p for p in players):
        why_not = _("a computer played in it")
    elif len(seats) != len(players):
        why_not = _("a person held two seats")
    elif len(seats) < 2:
        why_not = _("fewer than two people played it")
    return Plan(game, tuple(seats), tuple(units), ranks, not why_not, why_not)
