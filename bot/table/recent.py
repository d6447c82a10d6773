"""The table's recent log lines (``Table.recent``) and the latest moves a table message shows from them.

A table keeps the words of its last ``KEEP`` logged moves in memory, each with the seat that made it: appended
as moves are committed (bot/table/moves.py), and after a restart (or a reload) rebuilt from the store's action
log, the one source of truth, by playing the game again (``rebuild``: the engine says each move's words as it
did live). Pure: no Discord, no database.

The table message shows the lines since the seat to act last had its turn (``latest``): everything the others
did meanwhile, every step of a computer's turn included, at most ``SHOWN`` lines, the older ones counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import i18n
from bot.computers import computer_seats, display_name
from bot.table.words import events_words
from games.core import SYSTEM, Engine, RulesError
from i18n import _

KEEP = 64
"""Log lines a table keeps in memory: more than one full round of a five-player Geek Out turn by turn."""
SHOWN = 6
"""At most this many latest moves on a table message (the rest are counted; /history has them all)."""


@dataclass(frozen=True)
class Entry:
    """One logged move that said something: its seat (``SYSTEM`` for the table's own) and its words (a ``Text``,
    the seats already named)."""

    seat: int
    words: str


@dataclass(frozen=True)
class Latest:
    """What a table message shows of its log: ``lines`` (oldest first), ``earlier``: how many more lines since the
    acting seat's previous turn were left out, and ``beyond``: whether that turn is older than what is kept."""

    lines: tuple[str, ...]
    earlier: int = 0
    beyond: bool = False


def kept(entries: list[Entry], entry: Entry | None = None) -> list[Entry]:
    """``entries`` with ``entry`` added (a move that says nothing adds nothing), the oldest dropped past ``KEEP``."""
    if entry is not None and entry.words:
        entries = [*entries, entry]
    return entries[-KEEP:]


def latest(entries: list[Entry], acting, limit: int = SHOWN) -> Latest:
    """The lines since the previous turn of the seats in ``acting`` (those to act now; when the game is over, the
    seat that made the last move): first the acting seats' own steps at the end (the turn they are in), then
    back over everyone else's until a line of an acting seat (their previous turn), which is not shown: what
    they did themselves they know. At most ``limit`` lines, the newest; the rest are counted in ``earlier`` (and
    when ``entries`` were cut at ``KEEP`` before that turn, it is ``beyond`` them)."""
    acting, start = set(acting), len(entries)
    if not acting:  # the game is over: the last mover's turn, what came after it, and the others' before it
        start = next((i + 1 for i in range(len(entries) - 1, -1, -1) if entries[i].seat != SYSTEM), 0)
        acting = {entries[start - 1].seat} if start else set()
    while start and entries[start - 1].seat in acting:  # the turn they are in
        start -= 1
    while start and entries[start - 1].seat not in acting:  # the others' since their previous turn
        start -= 1
    beyond = start == 0 and len(entries) >= KEEP and entries[0].seat not in acting
    chosen = [e.words for e in entries[start:]]
    earlier = max(len(chosen) - limit, 0)
    return Latest(tuple(chosen[earlier:]), earlier, beyond)


def seated_at_start(players: list[dict]) -> tuple[list, tuple[int, ...]]:
    """The names and computer seats before any hand-over: a seat a computer took over is still its person's
    (the stored entry's ``was``)."""
    names = [p["was"]["name"] if "was" in p else display_name(p) for p in players]
    return names, tuple(s for s in computer_seats(players) if "was" not in players[s])


def start_text(engine: Engine, state, names: list, without: Sequence[str] = ()) -> i18n.Text:
    """What the first board says (``Lobby._start``, and ``rebuild`` after a restart): the game begins (``without``
    the people a rematch kept seats for who did not come back), then the game's opening or who goes first."""
    first = sorted(engine.to_act(state))
    opening = events_words(engine.opening(state), names)
    begins = _("The game begins without {players}.", players=", ".join(without)) if without else _("The game begins.")
    then = opening or (_("{player} goes first.", player=names[first[0]]) if len(first) == 1 else "")
    return i18n.join([begins, then])


def rebuild(engine: Engine, players: list[dict], options: dict, seed: int,
            actions: list[tuple[int, str]], paced: bool = False) -> list[Entry]:
    """The last ``KEEP`` lines of a game, from its action log: the game played again from its start, each move's
    words as the engine says them, the seats named as they were then (a seat a computer took over is its
    person's until the hand-over). A log that no longer plays with today's rules keeps what it had. ``paced``:
    a turn-based table's game (``Engine.new``)."""
    names, _computers = seated_at_start(players)
    state = engine.new(len(players), options, seed, paced=paced)
    entries = [Entry(SYSTEM, start_text(engine, state, names))]
    for seat, key in actions:
        try:
            state, events = engine.apply(state, seat, key)
        except RulesError:
            break
        said = events_words(events, names)
        if said:
            entries.append(Entry(seat, said))
            if len(entries) > 2 * KEEP:
                entries = entries[-KEEP:]
        if seat == SYSTEM and key.startswith("handover:"):  # from here on the seat is the computer's
            taken = int(key.partition(":")[2])
            names = [*names[:taken], display_name(players[taken]), *names[taken + 1:]]
    return entries[-KEEP:]
