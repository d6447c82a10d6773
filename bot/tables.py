"""The table service: everything that happens to one channel's game, with no Discord types.

Every change goes the same way: take the channel's lock, load the table (cache, else the store), check who
asks and whether the board they clicked is current, let the engine apply the action, commit state,
version, action log and deadline in one statement, and only then hand back what changed so the caller
can draw and show it. A failed check raises :class:`UserError` and changes nothing.

The cache and the locks are this process's: they are right because a channel is served by one process at a
time (the one running its guild's shard, see :class:`bot.store.Shards`). When that changes hands (a process
dies and another takes its shards over), the store's version check catches the other writer, and the table
is reloaded instead of refusing clicks on the current board (:meth:`TableService._racing`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from bot import computers, renderpool
from bot.computers import is_computer, new_computer
from bot.store import ChannelBusy, GuildSettings, Shards, StaleVersion, Store, TableRow
from games import get_engine
from games.ai import STRENGTHS
from games.core import SYSTEM, Action, Engine, Event, Result, RulesError, State, departure

log = logging.getLogger(__name__)

LOBBY_KEYS = ("join", "leave", "start", "takeover.on", "takeover.off")
LOBBY_PREFIXES = ("partner.", "computer.", "drop.")


def is_lobby_key(key: str) -> bool:
    """A lobby button: join, leave, start, ``partner.<user id>`` (pick a partner in a team game),
    ``computer.<strength>`` (add a computer seat), ``drop.<seat>`` (remove that computer), ``takeover.on`` /
    ``takeover.off`` (whether a computer takes over the seat of a player who leaves during play)."""
    return key in LOBBY_KEYS or key.startswith(LOBBY_PREFIXES)

MAX_BUTTONS = 20
"""Actions shown as buttons at most (four rows of five; the fifth row holds the utility buttons)."""


def group_key(group: str) -> str:
    """A group's name as it travels in a custom_id ("Aim at rank 8" -> "Aim_at_rank_8")."""
    return re.sub(r"[^\w.\-]", "_", group)[:40]


def choice_groups(actions: list[Action], always: bool = False) -> dict[str, list[Action]] | None:
    """How a list of actions is offered: None when they fit as buttons (unless the engine asks for groups:
    ``always``, see ``Engine.grouped``) or do not group usefully, else their groups (``Action.group``) in
    order: the first step of a two-step choice. A group of one action is offered as that action itself (no
    pick step), so only groups of two or more can be picked (``pickable``)."""
    if len(actions) <= MAX_BUTTONS and not always:
        return None
    groups: dict[str, list[Action]] = {}
    for a in actions:
        groups.setdefault(a.group, []).append(a)
    if not 1 < len(groups) <= MAX_BUTTONS or all(len(g) == 1 for g in groups.values()):
        return None
    return groups


def pickable(groups: dict[str, list[Action]] | None) -> list[str]:
    """The groups a player picks as a first step: those of two or more actions."""
    return [g for g, acts in (groups or {}).items() if len(acts) > 1]


class UserError(Exception):
    """A refusal to show the user (ephemeral): the sentence says why. ``stale`` means their board is old."""

    def __init__(self, message: str, *, stale: bool = False):
        super().__init__(message)
        self.stale = stale


@dataclass
class Table:
    """A table in memory: its stored row plus the decoded engine state."""

    row: TableRow
    engine: Engine
    state: State | None = None
    messages_since_board: int = 0
    picks: dict[int, tuple[int, str]] = field(default_factory=dict)
    """seat -> (version, group): the first step of a two-step choice (e.g. a shape's first corner), kept in
    memory for the table version it was made on; a new version starts again from the first step."""
    ping_text: str = ""
    """The words of the table's ping message (without its link to the board), to re-point it at a new board."""
    timer_due: float | None = None
    """When the game's running timer (``Engine.timer``) runs out, for the live countdown in the channel."""
    early_board: tuple | None = None
    """(looks, future of the PNG) of the board drawn while the last move was being committed."""
    drawn: tuple = ()
    """What the channel message and the panels show (``looks()`` when they were last drawn): publications
    queued behind each other draw the newest table once, and the rest find nothing left to draw."""
    base: int = -1
    """The version since which this process has seen every move of the table (when it was loaded, or the
    last table event: a timeout, a timer, a leave, a move with announcements such as a Globe Twister run)."""
    since: dict[int, int] = field(default_factory=dict)
    """seat -> the version of the latest move after ``base`` that changed what the seat may do: its own, or
    another seat's that changed its ``seat_token``. A seat's click on an older version counts from then on."""
    _tokens: tuple[int, dict[int, str]] = field(default_factory=lambda: (-1, {}))
    """(version, seat -> token): ``seat_token`` computed once per version."""

    def __post_init__(self):
        if self.base < 0:
            self.base = self.row.version

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
        return [p["name"] for p in self.row.players]

    def seat_of(self, user_id: int) -> int | None:
        for seat, p in enumerate(self.row.players):
            if p["id"] == user_id:
                if self.state is not None and self.state["left"][seat]:
                    return None
                return seat
        return None

    def to_act(self) -> list[int]:
        return sorted(self.engine.to_act(self.state)) if self.state is not None else []

    def actions_for(self, seat: int) -> list[Action]:
        return self.engine.legal_actions(self.state, seat) if self.state is not None else []

    def result(self) -> Result | None:
        return self.engine.result(self.state) if self.state is not None else None

    def seat_token(self, seat: int) -> str:
        """A short digest of what ``seat`` may do now (its legal action keys; "" when it is not to act). A
        button a seat is shown carries it, so a click made on an older version of the table is still played
        when the seat's own choices are the same and the seat has not acted since (others moved meanwhile:
        simultaneous play). Labels are left out: another seat's move may reword a choice ("Lock in and turn
        the sand timer" becomes "Lock in") without changing what it does for this seat."""
        version, tokens = self._tokens
        if version != self.version:
            tokens = {}
            self._tokens = (self.version, tokens)
        if seat not in tokens:
            keys = [a.key for a in self.actions_for(seat)] if seat in self.to_act() else []
            digest = hashlib.blake2b(f"{seat}|{' '.join(keys)}".encode(), digest_size=3).hexdigest()
            tokens[seat] = digest if keys else ""
        return tokens[seat]

    def pick_of(self, seat: int) -> str:
        """The group ``seat`` picked as the first step of a choice on the current version, or ""."""
        version, group = self.picks.get(seat, (-1, ""))
        return group if version == self.version else ""

    def focus(self) -> dict | None:
        """What the board marks for the choice in progress of the one seat to act (for a table closed before
        its end, the closing note its board shows instead of whose turn it was)."""
        if self.status == "ended":
            return {"closed": f"Closed: {self.row.end_reason}" if self.row.end_reason else "Closed"}
        if self.status == "finished":
            return ending_focus(self.state, self.names)
        to_act = self.to_act()
        if len(to_act) != 1 or not self.pick_of(to_act[0]):
            return None
        return self.engine.focus(self.state, to_act[0], self.pick_of(to_act[0]))

    def describe(self, events: list[Event]) -> str:
        """Event texts with seat placeholders replaced by player names."""
        return " ".join(name_seats(e.text, self.names) for e in events)


def board_view(engine: Engine, state: State) -> dict:
    """The public view a board is drawn from. A seat a moderator removed is marked ``"removed"`` in its
    ``left`` list (still truthy: gone), so the board reads "Dee (removed)" as the standings do, not "(left)"."""
    view = engine.view(state, None)
    removed = state.get("removed")
    if removed and isinstance(view.get("left"), list):
        view["left"] = ["removed" if s in removed and gone else gone for s, gone in enumerate(view["left"])]
    return view


def _quiet(future: asyncio.Future) -> None:
    """Marks a background future's exception as seen (a board drawn early and never used)."""
    if not future.cancelled():
        future.exception()


def departure_words(state: State, names: list[str]) -> str | None:
    """"Dee was removed by a moderator" / "Dee left" when that departure ended the game, else None."""
    ended = departure(state)
    if ended is None:
        return None
    seat, removed = ended
    return f"{names[seat]} {'was removed by a moderator' if removed else 'left'}"


def ending_focus(state: State, names: list[str]) -> dict | None:
    """The board's top bar for a game a departure ended: that, not the renderer's winner banner."""
    words = departure_words(state, names)
    return {"closed": f"Ended early: {words}", "right": "Game over"} if words else None


def channels_sentence(settings: GuildSettings) -> str:
    """Where a server's games may be started, in words (/mod channels and a refused /play say it)."""
    def listed(ids: list[int]) -> str:
        return ", ".join(f"<#{c}>" for c in ids)

    forbidden = settings.forbidden_channels
    if settings.allowed_channels is None:
        also = f"; also in {listed(settings.also_threads)}" if settings.also_threads else ""
        if forbidden:
            return f"Games may be started in every channel except {listed(forbidden)}{also}."
        return "Games may be started in every channel."
    if not settings.allowed_channels:
        return "No channel allows games now; moderators can use /mod channels allow or /mod channels everywhere."
    return (f"Games may be started only in {listed(settings.allowed_channels)} (and their threads)"
            + (f", not in {listed(forbidden)}." if forbidden else "."))


def name_seats(text: str, names: list[str]) -> str:
    return re.sub(r"\{p(\d+)\}", lambda m: names[int(m.group(1))], text)


@dataclass
class Change:
    """What a call changed, for the caller to show: the table after it and the move in words."""

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


@dataclass
class Defaults:
    turn_timeout: int = 600
    lobby_timeout: int = 1800


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


class TableService:
    def __init__(self, store: Store, defaults: Defaults | None = None, clock=time.time,
                 shards: Shards | None = None):
        self.store = store
        self.defaults = defaults or Defaults()
        self.clock = clock
        self.shards = shards
        """The shards whose deadlines this process fires (None: every table's, one process runs them all)."""
        self._cache: dict[int, Table] = {}
        """Open tables (lobby or playing) by id; a table leaves when it ends."""
        self._open_in: dict[int, int] = {}
        """channel -> the id of its open table in the cache (one open table per channel)."""
        self.lock = KeyedLocks()
        """``async with service.lock(channel_id)``: one change at a time per channel."""
        self._settings: dict[int, GuildSettings] = {}
        self._timers_wake: asyncio.Future | None = None

    # --- loading -------------------------------------------------------------------------------------
    async def get(self, table_id: int) -> Table | None:
        table = self._cache.get(table_id)
        if table is not None:
            return table
        row = await self.store.get_table(table_id)
        if row is None:
            return None
        engine = get_engine(row.game)
        table = Table(row, engine, engine.decode(row.state) if row.state else None)
        if row.status in ("lobby", "playing"):
            if table.state is not None and engine.timer(table.state):
                table.timer_due = await self.store.deadline(table_id, "timer")
            self._remember(table)
        return table

    async def _reload(self, table: Table) -> None:
        """Reads the table again from the store into the same object (another writer changed it)."""
        row = await self.store.get_table(table.id)
        if row is None:
            self._forget(table)
            return
        table.row = row
        table.state = table.engine.decode(row.state) if row.state else None
        table.timer_due = None
        table.base, table.since = row.version, {}
        if row.status not in ("lobby", "playing"):
            self._forget(table)
        elif table.state is not None and table.engine.timer(table.state):
            table.timer_due = await self.store.deadline(table.id, "timer")

    async def _racing(self, table: Table, attempt):
        """``await attempt()``: checks, then versioned writes. When another writer changed the table since it
        was loaded (a process that served this channel before us), the store refuses the write; the table is
        reloaded and ``attempt`` runs once more, so its checks decide on the table as stored (a click on the
        version stored now goes through, one on an older board is refused as stale)."""
        try:
            return await attempt()
        except StaleVersion:
            await self._reload(table)
        try:
            return await attempt()
        except StaleVersion:
            await self._reload(table)
            raise UserError("This board is out of date; here is the current one.", stale=True) from None

    def _remember(self, table: Table) -> None:
        self._cache[table.id] = table
        self._open_in[table.row.channel_id] = table.id

    def _forget(self, table: Table) -> None:
        self._cache.pop(table.id, None)
        if self._open_in.get(table.row.channel_id) == table.id:
            del self._open_in[table.row.channel_id]

    def is_open(self, table_id: int) -> bool:
        """Whether the table is open and in memory (no database trip)."""
        return table_id in self._cache

    async def in_channel(self, channel_id: int) -> Table | None:
        cached = self.cached_in(channel_id)
        if cached:
            return cached[0]
        row = await self.store.open_table_in(channel_id)
        return await self.get(row.id) if row else None

    def cached_in(self, channel_id: int) -> list[Table]:
        """The channel's open table if it is in memory (no database trip: called for every chat message)."""
        table = self._cache.get(self._open_in.get(channel_id, 0))
        return [table] if table is not None and table.status in ("lobby", "playing") else []

    async def settings(self, guild_id: int) -> GuildSettings:
        """A copy of the guild's settings (cached: every move reads the turn timeout)."""
        if guild_id not in self._settings:
            self._settings[guild_id] = await self.store.guild_settings(guild_id)
        return replace(self._settings[guild_id])

    async def save_settings(self, settings: GuildSettings) -> None:
        await self.store.save_guild_settings(settings)
        self._settings[settings.guild_id] = replace(settings)

    async def turn_timeout(self, guild_id: int) -> int:
        return (await self.settings(guild_id)).turn_timeout or self.defaults.turn_timeout

    # --- lobby ---------------------------------------------------------------------------------------
    async def open_lobby(self, guild_id: int, channel_id: int, game: str, options: dict, host: dict,
                         parent_id: int | None = None, computers: Sequence[str] = ()) -> Table:
        """A new lobby in ``channel_id`` (``parent_id``: a thread's channel or forum, for the channel rules),
        seating the host and then a computer of each strength in ``computers``."""
        engine = get_engine(game)
        try:
            options = engine.normalise_options(options)
        except RulesError as exc:
            raise UserError(str(exc)) from None
        seated = [host]
        for strength in computers:
            if strength not in STRENGTHS:
                raise UserError(f"A computer plays {', '.join(STRENGTHS[:-1])} or {STRENGTHS[-1]}, "
                                f"not {strength!r}.")
            seated.append(new_computer(strength, seated))
        if len(seated) > engine.max_players:
            raise UserError(f"{engine.title} seats at most {engine.max_players} players, so at most "
                            f"{engine.max_players - 1} computers beside you.")
        settings = await self.settings(guild_id)
        if not settings.allows(channel_id, parent_id):
            raise UserError(f"Games can't be started in this channel. {channels_sentence(settings)}")
        async with self.lock(channel_id):
            existing = await self.in_channel(channel_id)
            if existing is not None:
                raise UserError(self._busy_sentence(existing))
            try:
                row = await self.store.create_table(
                    guild_id=guild_id, channel_id=channel_id, game=game, options=options,
                    seed=secrets.randbits(62), host=host, lobby_due=self.clock() + self.defaults.lobby_timeout,
                    others=seated[1:],
                )
            except ChannelBusy:
                raise UserError("A game is already open in this channel.") from None
            table = Table(row, engine)
            self._remember(table)
            return table

    def _busy_sentence(self, table: Table) -> str:
        where = ""
        if table.row.message_id:
            where = (f": https://discord.com/channels/{table.row.guild_id}/{table.row.channel_id}/"
                     f"{table.row.message_id}")
        state = "waiting in its lobby" if table.status == "lobby" else "being played"
        return f"A game of {table.engine.title} is already {state} in this channel{where}"

    async def lobby(self, table_id: int, key: str, user: dict) -> Change:
        """Join, leave or start a lobby. Lobby buttons are not version-checked: each is safe to repeat."""
        table = await self._open(table_id)
        async with self.lock(table.row.channel_id):
            return await self._racing(table, lambda: self._lobby(table, key, user))

    async def _lobby(self, table: Table, key: str, user: dict) -> Change:
        if table.status != "lobby":
            raise UserError("This game has already started." if table.status == "playing"
                            else "This lobby is closed.")
        players = list(table.players)
        seated = any(p["id"] == user["id"] for p in players)
        host_id = table.row.host_id
        if key.startswith(("computer.", "drop.", "takeover.")):
            if not seated:
                raise UserError("Only a seated player can change the seats and options of this lobby.")
            if key.startswith("takeover."):
                return await self._set_takeover(table, user, key == "takeover.on")
            text = self._seat_computer(table, players, user, key)
        elif key == "join":
            if seated:
                raise UserError("You are already seated at this table.")
            if len(players) >= table.engine.max_players:
                raise UserError(f"The table is full ({table.engine.max_players} players).")
            players.append({"id": user["id"], "name": user["name"]})
            text = f"{user['name']} joined."
        elif key == "leave":
            if not seated:
                raise UserError("You are not seated at this table.")
            return await self._lobby_remove(table, {"id": user["id"], "name": user["name"]})
        elif key == "start":
            return await self._start(table, user, players)
        elif key.startswith("partner."):
            text = self._pick_partner(table, players, user, key[8:])
        else:
            raise UserError("That button is not part of this lobby.")
        await self._write(table, self.store.update_lobby(table.id, table.version, players, host_id))
        table.row = await self.store.get_table(table.id)
        return Change(table, text)

    async def _set_takeover(self, table: Table, user: dict, on: bool) -> Change:
        if table.row.takeover == on:
            return Change(table, "")
        await self._write(table, self.store.set_takeover(table.id, table.version, on))
        table.row = await self.store.get_table(table.id)
        return Change(table, f"{user['name']}: " + ("a computer takes over the seat of a player who leaves."
                                                    if on else "a player who leaves leaves their seat empty."))

    @staticmethod
    def _seat_computer(table: Table, players: list[dict], user: dict, key: str) -> str:
        """``computer.<strength>`` seats a computer, ``drop.<seat>`` removes the computer in that seat:
        ``players`` is changed in place; the sentence says what happened."""
        kind, _, what = key.partition(".")
        if kind == "computer":
            if what not in STRENGTHS:
                raise UserError("That button is not part of this lobby.")
            if len(players) >= table.engine.max_players:
                raise UserError(f"The table is full ({table.engine.max_players} players).")
            computer = new_computer(what, players)
            players.append(computer)
            return f"{user['name']} added {computer['name']}."
        seat = int(what) if what.isdigit() else -1
        if not 0 <= seat < len(players) or not is_computer(players[seat]):
            raise UserError("There is no computer in that seat any more.")
        gone = players.pop(seat)
        return f"{user['name']} removed {gone['name']}."

    @staticmethod
    def _pick_partner(table: Table, players: list[dict], user: dict, partner: str) -> str:
        """A seated player picks their partner (a team game): the partner moves to the seat that partners
        theirs, trading places with whoever sat there. ``players`` is changed in place."""
        teams = table.engine.teams(len(players))
        if teams is None:
            raise UserError(f"{table.engine.title} has no teams with {len(players)} players.")
        seat_of = {p["id"]: s for s, p in enumerate(players)}
        if user["id"] not in seat_of:
            raise UserError("Only a seated player can pick a partner.")
        chosen = seat_of.get(int(partner)) if partner.removeprefix("-").isdigit() else None
        if chosen is None:
            raise UserError("That player is not seated at this table any more.")
        mine = seat_of[user["id"]]
        if chosen == mine:
            raise UserError("Pick another player as your partner.")
        team = next(t for t in teams if mine in t)
        if chosen in team:
            raise UserError(f"{players[chosen]['name']} is already your partner.")
        # the partner takes a seat of my team (the first free of me), its player takes the partner's old seat
        target = next(s for s in team if s != mine)
        players[target], players[chosen] = players[chosen], players[target]
        return f"{user['name']} teamed up with {players[target]['name']}."

    async def _start(self, table: Table, user: dict, players: list[dict]) -> Change:
        if not any(p["id"] == user["id"] for p in players):
            raise UserError("Only a seated player can start the game.")
        if user["id"] != table.row.host_id and any(p["id"] == table.row.host_id for p in players):
            raise UserError("Only the host can start the game.")
        engine = table.engine
        if len(players) < engine.min_players:
            raise UserError(f"{engine.title} needs at least {engine.min_players} players.")
        state = engine.new(len(players), table.row.options, table.row.seed)
        first = sorted(engine.to_act(state))
        names = [p["name"] for p in players]
        opening = name_seats(" ".join(e.text for e in engine.opening(state)), names)
        text = "The game begins." + (f" {opening}" if opening else
                                     f" {names[first[0]]} goes first." if len(first) == 1 else "")
        due = self.clock() + await self.turn_timeout(table.row.guild_id)
        await self._write(table, self.store.start_table(table.id, table.version, players, engine.encode(state),
                                                 due if first else None, last_move=text))
        table.row = await self.store.get_table(table.id)
        table.state = state
        return Change(table, text, before=frozenset())

    # --- moves ---------------------------------------------------------------------------------------
    async def act(self, table_id: int, version: int, key: str, user_id: int, token: str | None = None) -> Change:
        """A player's click on a screen showing ``version`` (and, for the seat's own buttons, its
        ``seat_token`` then). Raises UserError (nothing changed) unless the move was committed."""
        table = await self._open(table_id)
        async with self.lock(table.row.channel_id):
            await self._catch_up(table, version)
            return await self._racing(table, lambda: self._act(table, version, key, user_id, token))

    async def _act(self, table: Table, version: int, key: str, user_id: int, token: str | None) -> Change:
        if table.status == "lobby":
            raise UserError("The game has not started yet.")
        if table.status != "playing":
            raise UserError("This game is over.")
        seat = self._check_turn(table, user_id, version, token)
        return await self._apply(table, seat, key)

    async def _catch_up(self, table: Table, version: int) -> None:
        """A click on a newer version than ours: another process wrote the table since we loaded it."""
        if version > table.version:
            await self._reload(table)

    def _check_turn(self, table: Table, user_id: int, version: int, token: str | None = None) -> int:
        """The seat of ``user_id`` if they may act now on a screen of ``version``; else a UserError. A screen
        of an older version still counts when it was the seat's own (``token``) and the seat's choices are
        the same now (see ``_seat_unchanged``)."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise UserError("You are not playing at this table.")
        if version != table.version and not self._seat_unchanged(table, seat, version, token):
            raise UserError("This board is out of date; here is the current one.", stale=True)
        if seat not in table.engine.to_act(table.state):
            waiting = ", ".join(table.names[s] for s in table.to_act())
            raise UserError(f"It is not your turn: waiting for {waiting}.")
        return seat

    @staticmethod
    def _seat_unchanged(table: Table, seat: int, version: int, token: str | None) -> bool:
        """Whether a screen of an older ``version`` still shows ``seat`` what it may do now: its legal actions
        are the same (``token``) and no move since changed them (its own, a table event, or another seat's
        that changed its token on the way: see ``_track``). Other seats' moves do not count otherwise, so in
        a simultaneous stage clicks made at the same moment all play."""
        if not token or version > table.version or token != table.seat_token(seat):
            return False
        return version >= max(table.base, table.since.get(seat, table.base))

    @staticmethod
    def _track(table: Table, seat: int, tokens: dict[int, str], table_event: bool) -> None:
        """After a move by ``seat`` (just written): whose older screens stop counting (``Table.since``).
        ``tokens``: the tokens, before the move, of the other seats that were to act."""
        if seat == SYSTEM or table_event:
            table.base, table.since = table.version, {}
            return
        table.since[seat] = table.version
        for other, token in tokens.items():
            if table.seat_token(other) != token:
                table.since[other] = table.version

    async def _apply(self, table: Table, seat: int, key: str) -> Change:
        engine = table.engine
        try:
            state, events = engine.apply(table.state, seat, key)
        except RulesError as exc:
            raise UserError(str(exc)) from None
        before = engine.to_act(table.state)
        tokens = {s: table.seat_token(s) for s in before if s != seat}
        # a step that says nothing (a die picked, its target to come) keeps the last move on show
        text = table.describe(events) or table.row.last_move or ""
        over = engine.is_over(state)
        result = engine.result(state) if over else None
        due = None if over else self.clock() + await self.turn_timeout(table.row.guild_id)
        standings = None
        if result is not None:
            standings = {"scores": list(result.scores), "ranking": [list(g) for g in result.ranking],
                         "players": table.players, "detail": result.detail}
        previous = table.state
        # a game timer that starts (or stops) with this move is written with it
        timer, timer_before = engine.timer(state), engine.timer(previous)
        timer_due = None
        if timer != timer_before:
            timer_due = self.clock() + timer[1] if timer else 0
        # draw the new board while the move is committed (nothing is shown before the commit)
        board = asyncio.ensure_future(renderpool.board(table.row.game, board_view(engine, state), table.names,
                                                       text, ending_focus(state, table.names) if over else None,
                                                       tuple(computers.computer_seats(table.players))))
        board.add_done_callback(_quiet)
        looks = (table.version + 1, "finished" if over else "playing", ())
        await self._write(table, self.store.record_move(
            table_id=table.id, version=table.version, state=engine.encode(state),
            status="finished" if over else "playing", ply=table.state["ply"], seat=seat, action=key,
            turn_due=due, standings=standings, last_move=text, timer_due=timer_due,
        ))
        table.state = state
        table.row.version += 1
        table.row.last_move = text
        announcements = engine.announcements(previous, state)
        self._track(table, seat, tokens, bool(announcements))
        table.early_board = (looks, board)
        if timer_due is not None:
            table.timer_due = timer_due or None
        if over:
            table.row.status = "finished"
            self._forget(table)
        announced = [dict(a, text=name_seats(a["text"], table.names),
                          note=name_seats(a["note"], table.names) if a.get("note") else None)
                     for a in announcements]
        return Change(table, text, finished=over, before=before, announcements=announced)

    async def _open(self, table_id: int) -> Table:
        table = await self.get(table_id)
        if table is None:
            raise UserError("This board is gone: there is no such game.")
        if table.status in ("finished", "ended"):
            raise UserError("This game is over.")
        return table

    async def _write(self, table: Table, coro) -> None:
        """A versioned write (StaleVersion when another writer moved first: see ``_racing``)."""
        await coro
        self.wake_timers()

    # --- leaving, removal, ending --------------------------------------------------------------------
    async def leave(self, table: Table, user_id: int, by: str | None = None) -> Change:
        """A player leaves (or a moderator removes them): the game goes on without them."""
        async with self.lock(table.row.channel_id):
            return await self._racing(table, lambda: self._leave(table, user_id, by))

    async def _leave(self, table: Table, user_id: int, by: str | None) -> Change:
        if table.status == "lobby":
            user = next((p for p in table.players if p["id"] == user_id), None)
            if user is None:
                raise UserError("That user is not seated at this table." if by else "You are not seated at this table.")
            return await self._lobby_remove(table, user, by)
        if table.status != "playing":
            raise UserError("This game is over.")
        seat = table.seat_of(user_id)
        if seat is None:
            raise UserError("That user is not playing at this table." if by else "You are not playing at this table.")
        return await self._apply(table, SYSTEM, f"remove:{seat}" if by else f"leave:{seat}")

    async def _lobby_remove(self, table: Table, user: dict, by: str | None = None) -> Change:
        players = [p for p in table.players if p["id"] != user["id"]]
        went = f"was removed by a moderator ({by})" if by else "left"
        if not computers.people(players):  # computers alone never keep a lobby open
            await self.store.close_table(table.id, "ended", "everyone left the lobby")
            table.row = await self.store.get_table(table.id)
            self._forget(table)
            return Change(table, f"{user['name']} {went}; the lobby is closed.", closed=True)
        host = table.row.host_id if table.row.host_id != user["id"] else computers.people(players)[0]["id"]
        await self._write(table, self.store.update_lobby(table.id, table.version, players, host))
        table.row = await self.store.get_table(table.id)
        return Change(table, f"{user['name']} {went}.")

    async def end(self, table: Table, reason: str) -> Change:
        async with self.lock(table.row.channel_id):
            if table.status not in ("lobby", "playing"):
                raise UserError("This game is already over.")
            await self.store.close_table(table.id, "ended", reason)
            table.row = await self.store.get_table(table.id)
            self._forget(table)
            return Change(table, f"The game was ended: {reason}", closed=True)

    async def set_ping_message(self, table: Table, message_id: int | None) -> None:
        table.row.ping_message_id = message_id
        await self.store.set_ping_message(table.id, message_id)

    async def set_message(self, table: Table, message_id: int | None) -> None:
        table.row.message_id = message_id
        table.messages_since_board = 0
        await self.store.set_message(table.id, message_id)

    # --- timers --------------------------------------------------------------------------------------
    async def fire_due(self) -> list[Change]:
        """Applies every deadline of this process's shards that has passed: idle players time out, forgotten
        lobbies close. Only due deadlines are read (indexed); one that fails is logged and does not stop the
        others. A firing is a versioned move: a process that fired late (it lost the channel) is refused."""
        changes = []
        for table_id, kind, _due in await self.store.due_deadlines(self.clock(), shards=self.shards):
            try:
                change = await self._fire(table_id, kind)
            except UserError as exc:  # e.g. another writer moved first: the next tick sees the new deadline
                log.info("deadline %s of table %s not fired: %s", kind, table_id, exc)
            except Exception:
                log.exception("deadline %s of table %s failed", kind, table_id)
            else:
                if change is not None:
                    changes.append(change)
        return changes

    async def next_deadline(self) -> float | None:
        return await self.store.next_deadline(self.shards)

    def wake_timers(self) -> None:
        """A deadline may have moved earlier: the timer loop looks again at once."""
        if self._timers_wake is not None and not self._timers_wake.done():
            self._timers_wake.set_result(None)

    async def sleep_until_woken(self, delay: float) -> None:
        """Sleeps ``delay`` seconds, or less when ``wake_timers`` is called (a plain future, no extra task)."""
        self._timers_wake = asyncio.get_running_loop().create_future()
        try:
            await asyncio.wait_for(self._timers_wake, delay)
        except TimeoutError:
            pass
        finally:
            self._timers_wake = None

    async def _fire(self, table_id: int, kind: str) -> Change | None:
        table = await self.get(table_id)
        if table is None:
            await self.store.clear_deadline(table_id, kind)
            return None
        async with self.lock(table.row.channel_id):
            # fired on the table as stored (rare enough to read it): a deadline that no longer fits our copy
            # may be another writer's, and is never cleared on the word of a stale copy
            await self._reload(table)
            return await self._racing(table, lambda: self._fire_once(table, kind))

    async def _fire_once(self, table: Table, kind: str) -> Change | None:
        table_id = table.id
        # the deadline may have moved while we waited for the lock
        current = await self.store.deadline(table_id, kind)
        if current is None or current > self.clock():
            return None
        if kind == "lobby" and table.status == "lobby":
            await self.store.close_table(table.id, "ended", "nobody started the lobby")
            table.row = await self.store.get_table(table.id)
            self._forget(table)
            return Change(table, "Nobody started this lobby in time, so it closed.", closed=True)
        if kind == "timer" and table.status == "playing" and table.engine.timer(table.state):
            name = table.engine.timer(table.state)[0]
            return await self._apply(table, SYSTEM, f"timer:{name}")
        if kind == "turn" and table.status == "playing":
            texts, timed_out, announced = [], [], []
            before = frozenset(table.to_act())
            change = None
            for seat in table.to_act():
                try:
                    change = await self._apply(table, SYSTEM, f"timeout:{seat}")
                except StaleVersion:
                    if change is None:
                        raise
                    await self._reload(table)  # another writer came in between: show what was done
                    break
                texts.append(change.text)
                timed_out.append(seat)
                announced += change.announcements
                if table.status != "playing":
                    break
            if change is not None:
                change.text = " ".join(texts)
                change.before = before
                change.timed_out = tuple(timed_out)
                change.announcements = announced
            return change
        await self.store.clear_deadline(table_id, kind)
        return None

    async def pick(self, table_id: int, version: int, group: str, user_id: int, token: str | None = None) -> Table:
        """The first step of a two-step choice (``group``; "" goes back). Only the seat to act may take it."""
        table = await self._open(table_id)
        async with self.lock(table.row.channel_id):
            await self._catch_up(table, version)
            if table.status != "playing":
                raise UserError("The game has not started yet." if table.status == "lobby" else "This game is over.")
            seat = self._check_turn(table, user_id, version, token)
            actions = table.actions_for(seat)
            always = table.engine.grouped(table.state, seat)
            offered = {group_key(g): g for acts in (actions, [a for a in actions if not a.secret])
                       for g in pickable(choice_groups(acts, always))}
            if group and group not in offered:
                raise UserError("That choice is not available now.")
            group = offered.get(group, "")
            table.picks[seat] = (table.version, group)
            return table

    # --- drawing -------------------------------------------------------------------------------------
    async def render_private(self, table: Table, seat: int) -> bytes:
        """The seat's own secret part (a hand) as PNG, drawn in a worker process. Only for that seat's eyes."""
        view = table.engine.view(table.state, seat)
        return await renderpool.private(table.row.game, view, table.names[seat])

    async def render(self, table: Table) -> bytes:
        """The public board as PNG, drawn in a worker process (see bot/renderpool.py). A move's board was
        started while its commit was under way (``_apply``): it is used when it still shows the table."""
        early = table.early_board
        table.early_board = None
        if early is not None and early[0] == table.looks():
            return await early[1]
        view = board_view(table.engine, table.state)
        return await renderpool.board(table.row.game, view, table.names, table.row.last_move, table.focus(),
                                      tuple(computers.computer_seats(table.players)))
