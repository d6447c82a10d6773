"""A tournament's words and its one message in the layout kit (bot/ui/layout.py): the game, format, pace and
options, the sign-ups (Join, Leave, Start, Cancel: ``keys.TournamentButton``), then the round in play and the
standings, and at the end the podium. Everything here is said in the server's language (``lang``)."""

from __future__ import annotations

from collections.abc import Sequence

from discord import ui

from bot.store.tournaments import Entry, TournamentRow
from bot.table.pace import pace_words
from bot.ui import items, keys
from bot.ui.layout import Layout
from games import get_engine
from i18n import Text, _, join, localize, ngettext

STANDING_LINES = 16
"""Standings lines the message and a round's post show (the image shows them all)."""
MEDALS = ("🥇", "🥈", "🥉")


def title(t: TournamentRow) -> Text:
    return _("{game} tournament #{number}", game=get_engine(t.game).title, number=t.id)


def format_words(t: TournamentRow) -> Text:
    """"Swiss, 3 rounds · tables of 2 · live"."""
    if t.format == "swiss":
        fmt = ngettext("Swiss, {n} round", "Swiss, {n} rounds", t.rounds)
    else:
        fmt = _("single elimination")
    size = _("duels") if t.size == 2 else _("tables of {n}", n=t.size)
    return _("{format} · {size} · {pace}", format=fmt, size=size, pace=pace_words(t.pace))


def names(entries: Sequence[Entry]) -> dict[int, str]:
    return {e.user_id: e.name for e in entries}


def entry_lines(t: TournamentRow, entries: Sequence[Entry]) -> list:
    head = (ngettext("**{n} player signed up** (at most {cap})", "**{n} players signed up** (at most {cap})",
                     len(entries), cap=t.cap) if t.cap else
            ngettext("**{n} player signed up**", "**{n} players signed up**", len(entries)))
    lines = [head]
    for i, e in enumerate(entries[:40]):
        rating = f" ({round(e.rating)})" if e.rating is not None else ""
        lines.append(f"{i + 1}. {e.name}{rating}")
    if len(entries) > 40:
        lines.append(ngettext("… and {n} more.", "… and {n} more.", len(entries) - 40))
    return lines


def points(x: float) -> str:
    return f"{x:g}"


def standing_lines(rows, who: dict[int, str], limit: int = STANDING_LINES, t: TournamentRow | None = None) -> list:
    """One line a player: place, name, points, in a Swiss the first tiebreak (what tells equal points apart:
    Buchholz in duels, the sum of places at tables), games and wins (a dropped player marked)."""
    lines = []
    for s in rows[:limit]:
        name = who.get(s.id, "?")
        if s.dropped:
            name = _("{player} (out)", player=name)
        elif s.eliminated_in:
            name = _("{player} (out in round {n})", player=name, n=s.eliminated_in)
        said = dict(place=s.place, player=name, points=points(s.points), wins=s.wins, games=s.played)
        one = 1 if s.points == 1 else 2  # "1 pt", "0.5 pts": the plural form picked by the points
        if t is not None and t.format == "swiss" and s.tiebreaks and t.size == 2:
            line = ngettext("{place}. {player} · {points} pt · Buchholz {buchholz} · {wins} of {games} won",
                            "{place}. {player} · {points} pts · Buchholz {buchholz} · {wins} of {games} won", one,
                            buchholz=points(s.tiebreaks[0]), **said)
        elif t is not None and t.format == "swiss" and s.tiebreaks:
            line = ngettext("{place}. {player} · {points} pt · sum of places {places} · {wins} of {games} won",
                            "{place}. {player} · {points} pts · sum of places {places} · {wins} of {games} won",
                            one, places=points(s.tiebreaks[0]), **said)
        else:
            line = ngettext("{place}. {player} · {points} pt · {wins} of {games} won",
                            "{place}. {player} · {points} pts · {wins} of {games} won", one, **said)
        lines.append(line)
    if len(rows) > limit:
        lines.append(ngettext("… and {n} more.", "… and {n} more.", len(rows) - limit))
    return lines


def podium(rows, who: dict[int, str]) -> list:
    """The first three places (shared places share a medal)."""
    out = []
    for s in rows:
        if s.place > 3:
            break
        out.append(f"{MEDALS[s.place - 1]} {who.get(s.id, '?')}")
    return out


def winners(rows, who: dict[int, str]) -> str:
    return ", ".join(who.get(s.id, "?") for s in rows if s.place == 1)


def status_line(t: TournamentRow, entries: Sequence[Entry], fewest: int) -> Text:
    if t.status == "signup":
        due = (_("Press **Join** to take part. Sign-up closes and round 1 begins <t:{at}:R>.", at=int(t.signup_due))
               if t.signup_due else _("Press **Join** to take part. Round 1 begins when a moderator presses Start."))
        need = ngettext("At least {n} player is needed.", "At least {n} players are needed.", fewest)
        return join([due, need])
    if t.status == "running":
        if t.round == 0:
            return _("Starting…")
        return _("Round {n} of {rounds} is being played.", n=t.round, rounds=t.rounds)
    if t.status == "finished":
        return _("The tournament is over.")
    if t.status == "cancelled":
        return _("Cancelled: {reason}", reason=t.end_reason or "")
    return _("Ended by a moderator: {reason}", reason=t.end_reason or "")


def message(t: TournamentRow, entries: Sequence[Entry], standings, fewest: int, lang: str,
            image: str | None = None) -> ui.LayoutView:
    """The tournament's one message: while sign-up is open its entries and buttons; later the standings (with
    their image, ``image``: the attachment's filename)."""
    engine = get_engine(t.game)
    kit = Layout(engine.accent)
    about = [localize(format_words(t), lang)]
    options = engine.option_words(t.options, t.size)
    if options:
        about.append(localize(join(options, " · "), lang))
    about.append(localize(status_line(t, entries, fewest), lang))
    kit.heading(localize(title(t), lang), *about)
    who = names(entries)
    if t.status == "signup" or not any(s.played or s.byes for s in standings):  # no result yet: who plays
        kit.text("\n".join(localize(line, lang) for line in entry_lines(t, entries)))
    else:
        if t.status == "finished":
            kit.text("\n".join(podium(standings, who)))
        kit.text("\n".join([localize(_("**Standings**"), lang),
                            *(localize(line, lang) for line in standing_lines(standings, who, t=t))]))
        if image:
            kit.image(image, localize(_("The standings of {title}.", title=title(t)), lang))
    if t.status == "signup":
        kit.separator()
        kit.controls([
            items.button(keys.TournamentButton(t.id, "join"), localize(_("Join"), lang), "success"),
            items.button(keys.TournamentButton(t.id, "leave"), localize(_("Leave"), lang)),
            items.button(keys.TournamentButton(t.id, "start"), localize(_("Start"), lang), "primary"),
            items.button(keys.TournamentButton(t.id, "cancel"), localize(_("Cancel"), lang), "danger"),
        ])
    return kit.view
