"""The table's recent log lines (``Table.recent``) and the latest moves a table message shows from them.

A table keeps its last ``KEEP`` logged moves in memory, each with the seat that made it, and the words of the
newest ``SHOWN`` of them (the only ones a message can show; the older ones only count): appended as moves are
committed (bot/table/moves.py), and after a restart (or a reload) rebuilt from the store's action log, the one
source of truth, by playing the game again (``rebuild``: the engine says each move's words as it did live).
Pure: no Discord, no database.

Why the older lines keep no words, and the newest keep theirs as one string: a line's words are a tree of
``Text`` objects (six or so, each with its parameters, 1-5 KB), which the garbage collector tracks. Kept for
64 lines of every open table they were the bot's main growth per move (1.3 KB a move until a table had 64
lines) and most of what a full collection walked with 2,000 tables open (its pauses stopped the event loop
86-130 ms). A seat-only line is one tuple per seat, shared by every table (``_bare``); a shown line's words
are their English and their JSON data form in one plain ``str`` (``compact``, 0.3-1.5 KB), said in another
language straight from the data (``said``, ``i18n.localize_data``: about 10 µs a line more than the ``Text``).

The table message shows the lines since the seat to act last had its turn (``latest``): everything the others
did meanwhile, every step of a computer's turn included, at most ``SHOWN`` lines, the older ones counted.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import i18n
from bot.computers import computer_seats, display_name
from bot.table.words import events_words
from games.core import SYSTEM, Engine, RulesError
from i18n import _

KEEP = 64
"""Log lines a table keeps in memory (their seats): more than one full round of a five-player Geek Out turn by
turn."""
SHOWN = 6
"""At most this many latest moves on a table message (the rest are counted; /history has them all): the kept
lines' words are the newest ``SHOWN``."""


class Entry(NamedTuple):
    """One logged move that said something: its seat (``SYSTEM`` for the table's own) and its words (a ``Text``,
    the seats already named). ``kept`` keeps it as a ``Line``."""

    seat: int
    words: str


Line = tuple[int, str]
"""A kept line: (seat, words), a plain tuple, its words ``compact`` ("" once older than the newest ``SHOWN``
lines). Plain, not an ``Entry``: the collector stops tracking a plain tuple of an int and a str at its first
pass (never a tuple subclass's), so a table's kept lines are one list to walk."""


_DATA = "\x1e"
"""What starts ``compact`` words, and parts their English from their data (a control character no sentence
holds)."""


def compact(words: str) -> str:
    """A ``Text`` as one plain string: its English, then its data form (``Text.to_data``) in JSON, each behind
    ``_DATA``; a plain string (or "") stays as it is. ``said`` says it in any language, as the ``Text`` would
    be (the English at once, the server's default language)."""
    if isinstance(words, i18n.Text):
        data = json.dumps(words.to_data(), ensure_ascii=False, separators=(",", ":"))
        return f"{_DATA}{str.__str__(words)}{_DATA}{data}"
    return words


def said(words: str, lang: str) -> str:
    """Kept words (``compact``, or a ``Text``, or a plain string) in ``lang``."""
    if words.startswith(_DATA):
        english, _sep, data = words[len(_DATA):].partition(_DATA)
        return english if lang == i18n.DEFAULT else i18n.localize_data(json.loads(data), lang)
    return i18n.localize(words, lang)


def text(words: str) -> str:
    """Kept words as a ``Text`` again (what ``compact`` kept; a plain string stays as it is): for a board drawn
    in a worker, which says it in its language there."""
    if words.startswith(_DATA):
        return i18n.from_data(json.loads(words[len(_DATA):].partition(_DATA)[2]))
    return words


_BARE: dict[int, Line] = {}


def _bare(seat: int) -> Line:
    """The line of ``seat`` without its words: one tuple per seat, shared by every table."""
    line = _BARE.get(seat)
    if line is None:
        line = _BARE[seat] = (seat, "")
    return line


@dataclass(frozen=True)
class Latest:
    """What a table message shows of its log: ``lines`` (oldest first, kept words: ``said`` says them),
    ``earlier``: how many more lines since the acting seat's previous turn were left out, and ``beyond``:
    whether that turn is older than what is kept."""

    lines: tuple[str, ...]
    earlier: int = 0
    beyond: bool = False


def kept(entries: list[Line], entry: Entry | None = None) -> list[Line]:
    """``entries`` with ``entry`` added (a move that says nothing adds nothing; its words ``compact``), the oldest
    dropped past ``KEEP``, the words of all but the newest ``SHOWN`` dropped (a new list: a table's list is
    never changed in place)."""
    if entry is not None and entry[1]:
        entries = [*entries, entry]
    entries = entries[-KEEP:]
    for i, (seat, words) in enumerate(entries):
        if i < len(entries) - SHOWN:
            if words or type(entries[i]) is not tuple:
                entries[i] = _bare(seat)
        elif type(entries[i]) is not tuple or isinstance(words, i18n.Text):
            entries[i] = (seat, compact(words))
    return entries


def latest(entries: list[Line], acting) -> Latest:
    """The lines since the previous turn of the seats in ``acting`` (those to act now; when the game is over, the
    seat that made the last move): first the acting seats' own steps at the end (the turn they are in), then
    back over everyone else's until a line of an acting seat (their previous turn), which is not shown: what
    they did themselves they know. At most ``SHOWN`` lines, the newest (the ones ``kept`` keeps words of); the
    rest are counted in ``earlier`` (and when ``entries`` were cut at ``KEEP`` before that turn, it is
    ``beyond`` them)."""
    acting, start = set(acting), len(entries)
    if not acting:  # the game is over: the last mover's turn, what came after it, and the others' before it
        start = next((i + 1 for i in range(len(entries) - 1, -1, -1) if entries[i][0] != SYSTEM), 0)
        acting = {entries[start - 1][0]} if start else set()
    while start and entries[start - 1][0] in acting:  # the turn they are in
        start -= 1
    while start and entries[start - 1][0] not in acting:  # the others' since their previous turn
        start -= 1
    beyond = start == 0 and len(entries) >= KEEP and entries[0][0] not in acting
    chosen = [words for _seat, words in entries[start:]]
    earlier = max(len(chosen) - SHOWN, 0)
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
            actions: list[tuple[int, str]], paced: bool = False) -> list[Line]:
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
                entries = kept(entries)
        if seat == SYSTEM and key.startswith("handover:"):  # from here on the seat is the computer's
            taken = int(key.partition(":")[2])
            names = [*names[:taken], display_name(players[taken]), *names[taken + 1:]]
    return kept(entries)
