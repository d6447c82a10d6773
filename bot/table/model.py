"""The table in memory (``Table``: its stored row, the decoded state, what this process remembers of its
screens), what a change hands to the caller to show (``Change``), the service's
defaults and the channel locks. No Discord types, no database calls."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from dataclasses import dataclass, field

from bot import computers
from bot.computers import computer_seats
from bot.store import TableRow
from bot.table import recent
from bot.table.staleness import Screens, token
from bot.table.words import end_words, ending_focus, events_words
from games.core import Action, Engine, Event, Result, State
from i18n import _


@dataclass
class Table:
    """A table in memory: its stored row plus the engine state (``state``: decoded on demand, see ``rest``)."""

    row: TableRow
    engine: Engine
    state: State | None = None
    """The engine state (None in the lobby): a property (below the class), kept as its canonical JSON while
    the table rests."""
    _text: str | None = field(default=None, init=False, repr=False, compare=False)
    """The state's canonical JSON (``Engine.encode``) when known, else None: what a resting table keeps."""
    messages_since_board: int = 0
    picks: dict[int, tuple[int, str]] = field(default_factory=dict)
    """seat -> (version, group): the first step of a two-step choice (e.g. a shape's first corner), kept in
    memory for the table version it was made on; a new version starts again from the first step."""
    ping_text: str = ""
    """The words of the table's ping message (without its link to the board), to re-point it at a new board."""
    timer_due: float | None = None
    """When the game's running timer (``Engine.timer``) runs out, for the live countdown in the channel."""
    turn_due: float | None = None
    """The turn deadline as this process last wrote or read it (a computer's pending move, or a person's
    timeout): a person's move while computers wait keeps their deadline (see ``TableService._turn_due``)."""
    drawn: tuple = ()
    """What the channel message and the panels show (``looks()`` when they were last drawn): publications
    queued behind each other draw the newest table once, and the rest find nothing left to draw."""
    screens: Screens | None = None
    """Which older screens of the table still count (bot/table/staleness.py); from the version loaded."""
    _tokens: tuple[int, dict[int, str]] = field(default_factory=lambda: (-1, {}))
    """(version, seat -> token): ``seat_token`` computed once per version."""
    held: set[int] = field(default_factory=set)
    """The computer seats that did all they want in a simultaneous stage but end their part only once no
    person is still to act in it (Globe Twister: its program is in, it locks in when the people are done).
    A seat leaves it with its next move, and all do at a table event (a stage that ends, a timeout, a leave)
    or a reload. This process's memory: after a restart a computer thinks once more and finds it has nothing
    to do but wait."""

    shown_at: float = float("-inf")
    """When (the service's clock) this process last started drawing the table's board for a move."""
    unshown: tuple = ()
    """A computer's steps inside its turn committed without a board of their own (``Defaults.board_every``),
    in words (``Text``): said with the next board, so every step is still read."""

    recent: list = field(default_factory=list)
    """The words of the table's last logged moves (``bot.table.recent.Entry``, at most ``recent.KEEP``): appended
    as moves are committed, rebuilt from the store's action log when the table is loaded (``recent.rebuild``).
    The table message shows the latest of them (``recent.latest``)."""

    last_words: str | None = None
    """The last move as it was said (a ``Text`` kept as one string, ``recent.compact``: nothing for the garbage
    collector to walk; still the ``Text`` after a step without a board, until the next step or ``rest``): a
    player's panel says it in the player's language. None after a reload: then only the stored words
    (``row.last_move``, in the server's language) are known."""

    away: dict[int, float] = field(default_factory=dict)
    """user -> until: the people to act at a turn-based table who are away (``/game away``), for its header."""

    _posted: asyncio.Event | bool = False
    """True once the table has its channel message (``TableService.set_message``): a rematch asked at the same
    moment as another waits for it to link the new lobby (``wait_posted``; an Event only while one waits, not
    two more objects a table for the garbage collector to walk)."""

    def __post_init__(self):
        if self.screens is None:
            self.screens = Screens(self.row.version)

    def set_state(self, state: State | None, text: str | None = None) -> None:
        """The table's state, with its canonical JSON (``Engine.encode``) when known; with ``text`` alone the
        state is decoded from it when first read."""
        self._state, self._text = state, text

    def rest(self) -> None:
        """Keeps the state only as its canonical JSON until it is next read (``state`` decodes it again, about
        10 µs for a Geek Out state). Why: a decoded state is a few dozen lists and dicts the garbage collector
        walks at every full collection; with 2,000 tables cached they were most of its 45-80 ms pauses of the
        event loop, while their text is one string it never looks into. The cache rests the tables idle for a
        moment (``TableCore._rest``). Engines never change a state in place (``Engine.apply`` copies), and
        a decoded state equals the one encoded (the conformance suite), so nothing can tell."""
        if self._state is not None:
            if self._text is None:
                self._text = self.engine.encode(self._state)
            self._state = None
        if self.last_words is not None:
            self.last_words = recent.compact(self.last_words)  # a step's without a board (``Moves._apply``)

    def resting(self) -> bool:
        """Whether the state is kept as its text only (``rest``)."""
        return self._state is None

    def mark_posted(self) -> None:
        """The table has its channel message: whoever waits for it goes on."""
        if isinstance(self._posted, asyncio.Event):
            self._posted.set()
        self._posted = True

    async def wait_posted(self) -> None:
        """Until the table has its channel message (``mark_posted``)."""
        if self._posted is True:
            return
        if self._posted is False:
            self._posted = asyncio.Event()
        await self._posted.wait()

    def looks(self) -> tuple:
        picks = tuple(sorted((s, g) for s, (v, g) in self.picks.items() if v == self.version and g))
        return self.version, self.status, picks

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def players(self) -> list[dict]:
        return self.row.players

    @property
    def names(self) -> list[str]:
        return [computers.display_name(p) for p in self.row.players]

    def last_move(self, lang: str) -> str:
        """The last move in words, in ``lang`` when it is known as said, else as stored."""
        if self.last_words is not None:
            return recent.said(self.last_words, lang)
        return self.row.last_move or ""

    def seat_of(self, user_id: int) -> int | None:
        for seat, p in enumerate(self.row.players):
            if p["id"] == user_id:
                if self.state is not None and self.state["left"][seat]:
                    return None
                return seat
        return None

    def to_act(self) -> list[int]:
        return sorted(self.engine.to_act(self.state)) if self.state is not None else []

    def computers_to_act(self, state: State | None = None, players: list[dict] | None = None) -> dict[int, str]:
        """seat -> strength of the computers to act now (or in ``state`` with ``players`` seated)."""
        state = self.state if state is None else state
        if state is None:
            return {}
        seats = computer_seats(self.players if players is None else players)
        return {s: seats[s] for s in sorted(self.engine.to_act(state)) if s in seats}

    def waiting_for_people(self) -> set[int]:
        """The computer seats waiting for the people in the current stage (``held``)."""
        return set(self.held)

    def computers_due(self, state: State | None = None, players: list[dict] | None = None,
                      held: set[int] = frozenset()) -> dict[int, str]:
        """seat -> strength of the computers that move now: those to act, except, while a person is still to
        act beside them (a simultaneous stage), the ones in ``held`` (waiting for the people)."""
        due = self.computers_to_act(state, players)
        if held and len(due) < len(self.engine.to_act(self.state if state is None else state)):
            due = {seat: strength for seat, strength in due.items() if seat not in held}
        return due

    def actions_for(self, seat: int) -> list[Action]:
        return self.engine.legal_actions(self.state, seat) if self.state is not None else []

    def result(self) -> Result | None:
        return self.engine.result(self.state) if self.state is not None else None

    def seat_token(self, seat: int) -> str:
        """What ``seat`` may do now, as a short digest (``staleness.token``; "" when it is not to act). A button
        a seat is shown carries it, so a click made on an older version of the table is still played when the
        seat's own choices are the same and nothing since changed them (``Screens.counts``)."""
        version, tokens = self._tokens
        if version != self.version:
            tokens = {}
            self._tokens = (self.version, tokens)
        if seat not in tokens:
            tokens[seat] = token(seat, [a.key for a in self.actions_for(seat)] if seat in self.to_act() else [])
        return tokens[seat]

    def screen_counts(self, seat: int, version: int, shown: str | None) -> bool:
        """Whether ``seat``'s click on a screen of ``version`` showing it the token ``shown`` still counts."""
        return self.screens.counts(seat, version, shown, self.version, self.seat_token(seat))

    def pick_of(self, seat: int) -> str:
        """The group ``seat`` picked as the first step of a choice on the current version, or ""."""
        version, group = self.picks.get(seat, (-1, ""))
        return group if version == self.version else ""

    def focus(self) -> dict | None:
        """What the board marks for the choice in progress of the one seat to act (for a table closed before
        its end, the closing note its board shows instead of whose turn it was)."""
        if self.status == "ended":
            return {"closed": _("Closed: {reason}", reason=end_words(self.row.end_reason)) if self.row.end_reason
                    else _("Closed"), "right": _("Closed")}
        if self.status == "finished":
            return ending_focus(self.state, self.names, self.players)
        to_act = self.to_act()
        if len(to_act) != 1 or not self.pick_of(to_act[0]):
            return None
        return self.engine.focus(self.state, to_act[0], self.pick_of(to_act[0]))

    def describe(self, events: list[Event]) -> str:
        """Event texts with seat placeholders replaced by player names (a ``Text``)."""
        return events_words(events, self.names)


def _get_state(table: Table) -> State | None:
    if table._state is None and table._text is not None:
        table._state = table.engine.decode(table._text)
    return table._state


def _set_state(table: Table, state: State | None) -> None:
    table.set_state(state)


Table.state = property(_get_state, _set_state)
"""The engine state (None in the lobby), decoded when read. Set after the class: the dataclass's ``state`` field
(its ``__init__`` argument) goes through it."""


@dataclass
class Drawing:
    """A board started while its move was being committed: its PNG (a future, drawn in a render worker) shows
    the table as ``looks`` (``Table.looks``) in ``lang``; used when the table still looks so when shown."""

    looks: tuple
    lang: str
    png: asyncio.Future


@dataclass
class Change:
    """What a call changed, for the caller to show: the table after it, the move in words and, for a move, its
    board already being drawn (``board``)."""

    table: Table
    text: str = ""
    finished: bool = False
    closed: bool = False
    before: frozenset[int] | None = None
    """The seats that were to act before the change; None when whose turn it is did not change (a redraw)."""
    timed_out: tuple[int, ...] = ()
    """Seats whose turn the table finished because they sat idle past the turn timeout."""
    announcements: list[dict] = field(default_factory=list)
    """What the channel sees beyond the board (``Engine.announcements``), names already filled in."""
    board: Drawing | None = None
    quiet: bool = False
    """A computer's step inside its turn that waits for the next board (``Defaults.board_every``): not shown."""
    reminded: bool = False
    """A turn-based turn's reminder (a fifth of its time left): the people to act are pinged once more."""


@dataclass
class Defaults:
    turn_timeout: int = 600
    lobby_timeout: int = 1800
    computer_pause: float = 0.8
    """Seconds a computer waits before its turn (GEOTABLE_COMPUTER_PAUSE), so people can follow."""
    computer_step_pause: float = 0.05
    """Seconds between two steps of one computer's turn (GEOTABLE_COMPUTER_STEP_PAUSE; at most
    ``computer_pause``): a Geek Out turn of thirty dice is over in seconds."""
    computer_board_every: float | None = None
    """A computer's steps inside its turn get a board of their own at most this often (seconds; None: every
    ``computer_pause``); the steps in between are committed as ever and said with the next board, and the
    turn's last step always has its board. Discord allows a channel about five message edits in five
    seconds: a Geek Out turn of 28 steps drawn one by one would wait on that limit for half a minute."""

    cache_idle: float = 900.0
    """Seconds a table may sit untouched in the table service's memory; then it is let go and loaded again from
    the store when next needed, as after a restart (``TableCore._evict``)."""
    cache_max: int = 2500
    """At most this many open tables in memory: past it, the least recently touched (not busy) is let go. Above
    what a busy process plays at once: at 1,000 the load benchmark's 2,100 tables in play were let go and loaded
    again all the time (a load replays the recent moves): 100 clicks/s over 2,000 tables went from 8 ms to 1.7 s
    a click. 13-17 KB a table held (benchmarks.load, benchmarks.turnbased): at most ~45 MB."""

    state_rest: float = 2.0
    """Seconds a cached table's decoded state outlives its last use; then only its JSON text is kept
    (``Table.rest``) until the table is used again (decoded anew: ~10 µs a click)."""

    @property
    def board_every(self) -> float:
        return self.computer_pause if self.computer_board_every is None else self.computer_board_every

    def pause(self, step: bool) -> float:
        """The pause before a computer's move: a step inside its turn gets the shorter one."""
        return min(self.computer_step_pause, self.computer_pause) if step else self.computer_pause


def people_to_act(engine: Engine, state: State | None, players: list[dict]) -> list[int]:
    """The ids of the people ``state`` waits for (their turn, or their part of a simultaneous stage): never a
    computer, nor a seat whose player left. The store's waiting rows (bot/store/waiting.py, /turns)."""
    if state is None:
        return []
    return [players[s]["id"] for s in sorted(engine.to_act(state))
            if not computers.is_computer(players[s]) and not state["left"][s]]


def computer_seed(row: TableRow) -> int:
    """The seed of a table's computers' decisions: a hash of the table (its id, guild and channel), never of
    the game's seed (which fixes the deck order and the dice to come), so nothing a computer draws depends
    on it. ``games.ai.choose`` adds the ply and seat."""
    digest = hashlib.blake2b(f"geotable-computer:{row.id}:{row.guild_id}:{row.channel_id}".encode(),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2


class KeyedLocks:
    """One asyncio lock per key (a channel), kept only while someone holds or waits for it, so the map
    never grows with the number of channels ever played in."""

    def __init__(self):
        self._locks: dict[int, list] = {}  # key -> [lock, holders and waiters]

    @contextlib.asynccontextmanager
    async def __call__(self, key: int):
        entry = self._locks.setdefault(key, [asyncio.Lock(), 0])
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if not entry[1]:
                del self._locks[key]

    def __len__(self) -> int:
        return len(self._locks)

    def busy(self, key: int) -> bool:
        """Whether someone holds or waits for ``key``'s lock."""
        return key in self._locks
