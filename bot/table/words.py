"""What a table says and shows, in words and views: pure (no Discord, no database, no drawing).

A board's public view (``board_view``), seat placeholders named (``name_seats``; a move's events and a score
sheet with them: ``events_words``, ``result_words``), how a game ended
(``departure_words``, ``ending_focus``, ``end_words``), an engine's refusal (``rules_words``) and where games
may be started (``channels_sentence``). Used by the table service, the messages, the rule pages and the
replays (in a render worker) and the lessons, so it imports none of them.
"""

from __future__ import annotations

import re

from bot.ratings import outcome, outcome_sentence
from bot.store import FORMER_MEMBER, GuildSettings
from games import get_engine
from games.core import Engine, Event, RulesError, State, departure
from i18n import Text, _, join


def rules_words(exc: RulesError) -> str:
    """An engine's refusal as it said it (a ``Text``: ``str(exc)`` would make it plain English)."""
    return exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)


def board_view(engine: Engine, state: State) -> dict:
    """The public view a board is drawn from. A seat a moderator removed is marked ``"removed"`` in its
    ``left`` list (still truthy: gone), so the board reads "Dee (removed)" as the standings do, not "(left)"."""
    view = engine.view(state, None)
    removed = state.get("removed")
    if removed and isinstance(view.get("left"), list):
        view["left"] = ["removed" if s in removed and gone else gone for s, gone in enumerate(view["left"])]
    return view


def departure_words(state: State, names: list[str]) -> str | None:
    """"Dee was removed by a moderator" / "Dee left" when that departure ended the game, else None."""
    ended = departure(state)
    if ended is None:
        return None
    seat, removed = ended
    if removed:
        return _("{player} was removed by a moderator", player=names[seat])
    return _("{player} left", player=names[seat])


def ending_focus(state: State, names: list[str], players: list[dict] | None = None) -> dict | None:
    """The board's top bar for a finished game, when the renderer's winner banner would not say it right: a game
    a departure ended says so; a game whose own winner was a seat a computer took over (its person left) names
    who wins as the ratings count it and why, the standings' sentence ("Ana wins: Bo left (a computer played
    their seat).": ``bot.ratings.outcome``; ``players``: the seating at the end)."""
    words = departure_words(state, names)
    if words:
        return {"closed": _("Ended early: {why}", why=words), "right": _("Game over")}
    result = get_engine(state["game"]).result(state) if players is not None else None
    if result is None or result.no_winner:
        return None
    decided = outcome(state["game"], players, result.ranking)
    if not decided.overtaken or not decided.winners:
        return None
    people = [players[s]["was"]["name"] for s in decided.overtaken]
    return {"won": outcome_sentence([names[s] for s in decided.winners], people), "right": _("Game over"),
            "winners": list(decided.winners)}


def channels_sentence(settings: GuildSettings) -> str:
    """Where a server's games may be started, in words (/mod channels and a refused /play say it)."""
    def listed(ids: list[int]) -> str:
        return ", ".join(f"<#{c}>" for c in ids)

    forbidden = settings.forbidden_channels
    if settings.allowed_channels is None:
        if forbidden and settings.also_threads:
            return _("Games may be started in every channel except {channels}; also in {threads}.",
                     channels=listed(forbidden), threads=listed(settings.also_threads))
        if forbidden:
            return _("Games may be started in every channel except {channels}.", channels=listed(forbidden))
        return _("Games may be started in every channel.")
    if not settings.allowed_channels:
        return _("No channel allows games now; moderators can use /mod channels allow or /mod channels everywhere.")
    if forbidden:
        return _("Games may be started only in {channels} (and their threads), not in {forbidden}.",
                 channels=listed(settings.allowed_channels), forbidden=listed(forbidden))
    return _("Games may be started only in {channels} (and their threads).",
             channels=listed(settings.allowed_channels))


_SEAT = re.compile(r"\{p(\d+)\}")


_ENDED_BY = re.compile(r"(.*) \(by (.+)\)", re.S)


def end_words(reason: str | None) -> str | None:
    """A stored end reason in the reader's language: a moderator's is kept as "<reason> (by <name>)" (the
    store finds that name again to anonymise it), and only its "(by ...)" is said anew."""
    found = _ENDED_BY.fullmatch(reason or "")
    if not found:
        return reason
    who = found.group(2)
    return _("{reason} (by {moderator})", reason=found.group(1),
             moderator=_("a former member") if who == FORMER_MEMBER else who)


def name_seats(text: str, names: list[str]) -> str:
    """``text`` with its seat placeholders (``{p0}``) replaced by the players' names; a ``Text`` stays one
    (the names become its parameters, so it can still be said in another language)."""
    return _named(text, {f"p{i}": name for i, name in enumerate(names)})


def events_words(events: list[Event], names: list[str]) -> Text:
    """What ``events`` say (a move's, an opening's), the seats named: one ``Text`` ("" when they say nothing)."""
    return join([name_seats(e.text, names) for e in events])


def result_words(engine: Engine, state: State, names: list[str]) -> list[str]:
    """A finished game's score sheet (``Engine.result_lines``), the seats named."""
    return [name_seats(line, names) for line in engine.result_lines(state)]


def _named(text, seats: dict):
    if isinstance(text, Text):
        if text.parts is not None:
            return Text(None, parts=tuple(_named(p, seats) for p in text.parts), sep=text.sep)
        params = {k: _named(v, seats) for k, v in text.params.items()}
        return text.with_params(**{**seats, **params})
    if isinstance(text, str) and _SEAT.search(text):
        # an engine's parameter "{p0}" (or "{p0}'s"): the name itself, a computer's staying a Text (str() or
        # re.sub would make it English)
        pieces = [seats.get(f"p{piece}", "{p" + piece + "}") if i % 2 else piece
                  for i, piece in enumerate(_SEAT.split(text))]
        pieces = [piece for piece in pieces if piece != ""]
        return pieces[0] if len(pieces) == 1 else Text(None, parts=tuple(pieces), sep="")
    return text
