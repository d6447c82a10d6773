"""The words of a finished game: the final standings (places, points, who a computer played, the score sheet's
lines) and who won, as the ratings count it. Each builder takes ``lang``, as in bot/ui/messages.py."""

from __future__ import annotations

import i18n
from bot.computers import ROBOT, computer_seats, is_computer, strength_word
from bot.ratings import outcome, outcome_sentence
from bot.table.model import Table
from bot.table.words import departure_words, result_words
from bot.ui.layout import clip
from games.core import Result, was_removed
from i18n import DEFAULT, _, localize, ngettext, say


def ordinal(place: int, lang: str = DEFAULT) -> str:
    """1st, 2nd, ... for a place counted from 0 (at most "20th")."""
    n = min(place, 19) + 1
    if n <= 3:
        return (say(lang, "1st"), say(lang, "2nd"), say(lang, "3rd"))[n - 1]
    return say(lang, "{n}th", n=n)


def _entries(table: Table, result: Result, group: tuple[int, ...], lang: str = DEFAULT) -> list[str]:
    """The names in one ranking group: a team as one entry ("Team White (Ana & Cy)"), else each player."""
    names, left = table.names, table.state["left"]

    def who(s: int) -> str:
        gone = say(lang, "(removed by a moderator)") if was_removed(table.state, s) else say(lang, "(left)")
        return played_by(table.players[s], names[s], lang) + (f" {gone}" if left[s] else "")

    teams = result.detail.get("teams") if result.detail else None
    if not teams:
        return [who(s) for s in group]
    team_names = result.detail.get("team_names") or [_("Team {n}", n=i + 1) for i in range(len(teams))]
    out = []
    for i, team in enumerate(teams):
        if set(team) & set(group):
            out.append(f"**{localize(i18n.from_data(team_names[i]), lang)}** (" + " & ".join(who(s) for s in team)
                       + ")")
    return out


def played_by(player: dict, name: str, lang: str = DEFAULT) -> str:
    """A name in the standings: a computer's marked, one that took a person's seat says whose."""
    name = localize(name, lang)
    if not is_computer(player):
        return f"**{name}**"
    was = player.get("was")
    return f"{ROBOT} **{name}**" + (" " + say(lang, "(took over {player}'s seat)", player=was["name"]) if was else "")


def winners_sentence(table: Table, result: Result, lang: str = DEFAULT) -> str:
    """Who won, as the ratings count it (``bot.ratings.outcome``): a seat a computer took over after its person
    left ranks after the people still playing, so when the game's own winner was such a seat the sentence
    says who wins and why ("**Ana** wins: Bo left (a computer played their seat)."), as the board does."""
    if result.no_winner:
        return say(lang, "Nobody won.")
    decided = outcome(table.row.game, table.players, result.ranking)
    entries = _entries(table, result, decided.winners, lang)
    if decided.overtaken and entries:
        people = [table.players[s]["was"]["name"] for s in decided.overtaken]
        return localize(outcome_sentence(entries, people), lang)
    gone = departure_words(table.state, table.names)
    if gone:  # not an ordinary win: the others' departures ended the game
        text = say(lang, "The game ended early: {why}.", why=gone)
        if entries:
            text += " " + localize(ngettext("{players} finishes first by default.",
                                            "{players} finish first by default.", len(entries),
                                            players=", ".join(entries)), lang)
        return text
    if len(entries) > 1:
        return say(lang, "Shared victory: {players}!", players=", ".join(entries))
    return say(lang, "{player} wins!", player=entries[0]) if entries else ""


def standings(table: Table, result: Result, lang: str = DEFAULT) -> str:
    lines = ["🏆 " + say(lang, "**{game}: final standings**", game=table.engine.title)]
    place = 0
    ranking = outcome(table.row.game, table.players, result.ranking).ranking  # a taken-over seat after the people
    for group in () if result.no_winner else ranking:  # no places when nobody won
        entries = _entries(table, result, group, lang)
        score = result.scores[group[0]]
        points = localize(ngettext("{n} point", "{n} points", 1 if score == 1 else 2, n=i18n.number(score)), lang)
        lines.append(say(lang, "{place}: {players}, {points}", place=ordinal(place, lang), players=" = ".join(entries),
                         points=points))
        place += len(entries)
    lines.append(winners_sentence(table, result, lang))
    computers = []
    for s, strength in computer_seats(table.players).items():
        name, word = localize(table.names[s], lang), strength_word(strength, lang)
        computers.append(name + ("" if f"({word})" in name else f" ({word})"))
    if computers:
        lines.append(f"{ROBOT} " + say(lang, "Played by a computer: {players}.", players=", ".join(computers)))
    details = [localize(line, lang) for line in result_words(table.engine, table.state, table.names)]
    if details:
        lines += ["", say(lang, "**Score sheet**"), *details]
    return clip("\n".join(lines), 2000)


