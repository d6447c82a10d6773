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
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

import i18n
from bot import computers, language, ratings
from bot.computers import HANDOVER_STRENGTH, computer_seats, handed_over, is_computer, new_computer
from bot.store import (
    ChannelBusy,
    GuildSettings,
    Shards,
    StaleVersion,
    Store,
)
from bot.table.choices import group_named
from bot.table.model import Change, Defaults, Drawing, KeyedLocks, Table, UserError, computer_seed
from bot.table.seating import free_seat, game_people, is_invited, rematch_seats, sitting
from bot.table.words import board_view, channels_sentence, end_words, ending_focus, name_seats, rules_words
from bot.ui.keys import split_utility
from bot.workers import renderpool, thinkpool
from games import get_engine
from games.ai import STRENGTHS, strength_name
from games.core import SYSTEM, Engine, RulesError, State
from i18n import _, join

log = logging.getLogger(__name__)

POSTED_WITHIN = 2.0
"""Seconds a refused rematch waits for the channel's new lobby to be posted, to link it (Discord wants an
answer within 3)."""


def _quiet(future: asyncio.Future) -> None:
    """Marks a background future's exception as seen (a board drawn early and never used)."""
    if not future.cancelled():
        future.exception()


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
        self._wake_pending = False
        self._thinking: dict[int, asyncio.Task] = {}
        """table -> the task of its computers' move under way (thinking in a worker, then committing)."""
        self._computer_changes: list[Change] = []
        """Computer moves committed since the deadline loop last asked (``fire_due`` hands them over)."""
        self.show: Callable[[Change], Awaitable[None]] | None = None
        """How a computer's committed move is shown at once (the Tables cog's ``publish``); None: handed to the
        caller of ``fire_due`` instead (a service without a channel: tests)."""
        self.discord_locale = lambda guild_id: None
        """guild -> its Discord language (preferred locale): the client's guild cache (bot/client.py)."""

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
            if row.status == "playing":
                table.turn_due = await self.store.deadline(table_id, "turn")
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
        table.screens.reset(row.version)
        table.held = set()
        table.last_words = None
        table.turn_due = await self.store.deadline(table.id, "turn") if row.status == "playing" else None
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
            raise UserError(_("This board is out of date; here is the current one."), stale=True) from None

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

    async def language(self, guild_id: int) -> str:
        """The language of what the guild's channels see (bot/language.py decides)."""
        return language.choose((await self.settings(guild_id)).language, self.discord_locale(guild_id))

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
            raise UserError(rules_words(exc)) from None
        seated = [host]
        for strength in computers:
            if strength not in STRENGTHS:
                raise UserError(_("A computer plays {strengths} or {last}, not {given}.",
                                  strengths=join([strength_name(s) for s in STRENGTHS[:-1]], ", "),
                                  last=strength_name(STRENGTHS[-1]), given=repr(strength)))
            seated.append(new_computer(strength, seated))
        if len(seated) > engine.max_players:
            raise UserError(_("{game} seats at most {n} players, so at most {computers} computers beside you.",
                              game=engine.title, n=engine.max_players, computers=engine.max_players - 1))
        await self._check_channel(guild_id, channel_id, parent_id)
        async with self.lock(channel_id):
            return await self._create_lobby(guild_id, channel_id, engine, options, seated)

    async def _check_channel(self, guild_id: int, channel_id: int, parent_id: int | None) -> None:
        settings = await self.settings(guild_id)
        if not settings.allows(channel_id, parent_id):
            raise UserError(_("Games can't be started in this channel. {rules}", rules=channels_sentence(settings)))

    async def _create_lobby(self, guild_id: int, channel_id: int, engine: Engine, options: dict,
                            seated: list[dict], host_seat: int = 0, takeover: bool = True) -> Table:
        """A new lobby with a new seed (under the channel's lock): refused while the channel has an open table."""
        existing = await self.in_channel(channel_id)
        if existing is not None:
            raise UserError(self._busy_sentence(existing))
        try:
            row = await self.store.create_table(
                guild_id=guild_id, channel_id=channel_id, game=engine.slug, options=options,
                seed=secrets.randbits(62), host=seated[host_seat],
                lobby_due=self.clock() + self.defaults.lobby_timeout,
                others=seated[:host_seat] + seated[host_seat + 1:], host_seat=host_seat, takeover=takeover,
            )
        except ChannelBusy:
            raise UserError(_("A game is already open in this channel.")) from None
        table = Table(row, engine)
        self._remember(table)
        return table

    async def rematch(self, table_id: int, user: dict, parent_id: int | None = None) -> Table:
        """A new lobby for a finished game's rematch in its channel: its seats (``rematch_seats``: the asker
        seated as host, the other persons' seats kept for them, computers of the same strengths), its options
        and takeover switch, a new seed. Only a person who played it may ask, and only while it is the
        channel's latest game: not while a table is open there, nor once a newer game finished there (its own
        board offers the rematch then), nor where the channel rules no longer allow games."""
        old = await self.get(table_id)
        if old is None:
            raise UserError(_("This board is gone: there is no such game."))
        if old.status in ("lobby", "playing"):
            raise UserError(_("This game is not over yet: a rematch comes after its end."))
        if old.status != "finished":
            raise UserError(_("This game was closed before its end, so it has no rematch. /play opens a new table."))
        if user["id"] not in game_people(old.players):
            raise UserError(_("Only the players of this game can ask for its rematch. /play opens a new table."))
        guild_id, channel_id = old.row.guild_id, old.row.channel_id
        await self._check_channel(guild_id, channel_id, parent_id)
        seats = rematch_seats(old.players, user)
        host_seat = next(s for s, p in enumerate(seats) if p["id"] == user["id"])
        async with self.lock(channel_id):
            existing = await self.in_channel(channel_id)
            if existing is None:
                return await self._rematch_lobby(old, seats, host_seat)
        # the channel's table may be a rematch asked for a moment ago, whose lobby is still being posted: its
        # link is known once it is (outside the lock, which the posting does not need)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(existing.posted.wait(), POSTED_WITHIN)
        raise UserError(self._busy_sentence(existing))

    async def _rematch_lobby(self, old: Table, seats: list[dict], host_seat: int) -> Table:
        """``rematch`` under the channel's lock, the channel having no open table."""
        guild_id, channel_id = old.row.guild_id, old.row.channel_id
        latest = await self.store.history(guild_id, channel_id, limit=1)
        if latest and latest[0].table_id != old.id:
            newer = latest[0]
            if newer.message_id:
                raise UserError(_("A newer game has been played in this channel since this one; its final board "
                                  "has its own Rematch button: {link}",
                                  link=f"https://discord.com/channels/{guild_id}/{channel_id}/{newer.message_id}"))
            raise UserError(_("A newer game has been played in this channel since this one; its final board "
                              "has its own Rematch button."))
        return await self._create_lobby(guild_id, channel_id, old.engine, old.row.options, seats, host_seat,
                                        old.row.takeover)

    def _busy_sentence(self, table: Table) -> str:
        game = table.engine.title
        if table.row.message_id:
            link = (f"https://discord.com/channels/{table.row.guild_id}/{table.row.channel_id}/"
                    f"{table.row.message_id}")
            if table.status == "lobby":
                return _("A game of {game} is already waiting in its lobby in this channel: {link}", game=game,
                         link=link)
            return _("A game of {game} is already being played in this channel: {link}", game=game, link=link)
        if table.status == "lobby":
            return _("A game of {game} is already waiting in its lobby in this channel.", game=game)
        return _("A game of {game} is already being played in this channel.", game=game)

    async def lobby(self, table_id: int, key: str, user: dict) -> Change:
        """Join, leave or start a lobby. Lobby buttons are not version-checked: each is safe to repeat."""
        table = await self._open(table_id)
        async with self.lock(table.row.channel_id):
            return await self._racing(table, lambda: self._lobby(table, key, user))

    async def _lobby(self, table: Table, key: str, user: dict) -> Change:
        """``key``: a lobby's button (``bot.ui.keys.LOBBY``, as ``Utility.text``: ``join``, ``computer.easy``...)."""
        if table.status != "lobby":
            raise UserError(_("This game has already started.") if table.status == "playing"
                            else _("This lobby is closed."))
        players = list(table.players)
        mine = next((s for s, p in enumerate(players) if p["id"] == user["id"]), None)
        kept = mine is not None and is_invited(players[mine])  # a rematch keeps this seat for them
        seated = mine is not None and not kept
        host_id = table.row.host_id
        name, arg = split_utility(key)
        if name in ("computer", "drop", "takeover") and arg is not None:
            if not seated:
                raise UserError(_("Only a seated player can change the seats and options of this lobby."))
            if user["id"] != host_id and any(p["id"] == host_id for p in players):  # as Start: the host decides
                raise UserError(_("Only the host can switch whether a computer takes over a seat.")
                                if name == "takeover" else _("Only the host can add or remove computers."))
            if name == "takeover":
                return await self._set_takeover(table, user, arg == "on")
            text = self._seat_computer(table, players, user, name, arg)
        elif key == "join":
            if seated:
                raise UserError(_("You are already seated at this table."))
            if kept:
                players[mine] = {"id": user["id"], "name": user["name"]}
                text = _("{player} took their seat again.", player=user["name"])
            else:
                seat = free_seat(players, table.engine.max_players)
                if seat is None:
                    raise UserError(_("The table is full ({n} players).", n=table.engine.max_players))
                text = (_("{player} joined in the seat kept for {other}.", player=user["name"],
                          other=players[seat]["name"]) if seat < len(players)
                        else _("{player} joined.", player=user["name"]))
                players[seat:seat + 1] = [{"id": user["id"], "name": user["name"]}]
        elif key == "leave":
            if not seated and not kept:
                raise UserError(_("You are not seated at this table."))
            return await self._lobby_remove(table, {"id": user["id"], "name": user["name"]})
        elif key == "start":
            return await self._start(table, user, sitting(players), [p for p in players if is_invited(p)])
        elif name == "partner" and arg is not None:
            text = self._pick_partner(table, players, user, arg)
        else:
            raise UserError(_("That button is not part of this lobby."))
        await self._write(table, self.store.update_lobby(table.id, table.version, players, host_id))
        table.row = await self.store.get_table(table.id)
        return Change(table, text)

    async def _set_takeover(self, table: Table, user: dict, on: bool) -> Change:
        if table.row.takeover == on:
            return Change(table, "")
        await self._write(table, self.store.set_takeover(table.id, table.version, on))
        table.row = await self.store.get_table(table.id)
        return Change(table, _("{player}: a computer takes over the seat of a player who leaves.", player=user["name"])
                      if on else _("{player}: nobody takes over the seat of a player who leaves.", player=user["name"]))

    @staticmethod
    def _seat_computer(table: Table, players: list[dict], user: dict, kind: str, what: str) -> str:
        """``computer.<strength>`` seats a computer, ``drop.<seat>`` removes the computer in that seat:
        ``players`` is changed in place; the sentence says what happened."""
        if kind == "computer":
            if what not in STRENGTHS:
                raise UserError(_("That button is not part of this lobby."))
            seat = free_seat(players, table.engine.max_players)
            if seat is None:
                raise UserError(_("The table is full ({n} players).", n=table.engine.max_players))
            computer = new_computer(what, players)
            name = computers.display_name(computer)
            if seat < len(players):
                text = _("{player} added {computer} in the seat kept for {other}.", player=user["name"],
                         computer=name, other=players[seat]["name"])
            else:
                text = _("{player} added {computer}.", player=user["name"], computer=name)
            players[seat:seat + 1] = [computer]
            return text
        seat = int(what) if what.isdigit() else -1
        if 0 <= seat < len(players) and not is_computer(players[seat]):
            raise UserError(_("That seat is a person's, not a computer's."))
        if not 0 <= seat < len(players):
            raise UserError(_("There is no computer in that seat any more."))
        gone = players.pop(seat)
        return _("{player} removed {computer}.", player=user["name"], computer=computers.display_name(gone))

    @staticmethod
    def _pick_partner(table: Table, players: list[dict], user: dict, partner: str) -> str:
        """A seated player picks their partner (a team game): the partner moves to the seat that partners
        theirs, trading places with whoever sat there. ``players`` is changed in place."""
        teams = table.engine.teams(len(players))
        if teams is None:
            raise UserError(_("{game} has no teams with {n} players.", game=table.engine.title, n=len(players)))
        seat_of = {p["id"]: s for s, p in enumerate(players)}
        if user["id"] not in seat_of or is_invited(players[seat_of[user["id"]]]):
            raise UserError(_("Only a seated player can pick a partner."))
        chosen = seat_of.get(int(partner)) if partner.removeprefix("-").isdigit() else None
        if chosen is None:
            raise UserError(_("That player is not seated at this table any more."))
        mine = seat_of[user["id"]]
        if chosen == mine:
            raise UserError(_("Pick another player as your partner."))
        team = next(t for t in teams if mine in t)
        if chosen in team:
            raise UserError(_("{player} is already your partner.", player=players[chosen]["name"]))
        # the partner takes a seat of my team (the first free of me), its player takes the partner's old seat
        target = next(s for s in team if s != mine)
        players[target], players[chosen] = players[chosen], players[target]
        return _("{player} teamed up with {partner}.", player=user["name"], partner=players[target]["name"])

    async def _start(self, table: Table, user: dict, players: list[dict], kept: Sequence[dict] = ()) -> Change:
        """``kept``: seats a rematch kept for people who did not come back; the game starts without them."""
        if not any(p["id"] == user["id"] for p in players):
            raise UserError(_("Only a seated player can start the game."))
        if user["id"] != table.row.host_id and any(p["id"] == table.row.host_id for p in players):
            raise UserError(_("Only the host can start the game."))
        engine = table.engine
        if len(players) < engine.min_players:
            if kept:
                raise UserError(_("{game} needs at least {n} players; a kept seat counts once its player joins.",
                                  game=engine.title, n=engine.min_players))
            raise UserError(_("{game} needs at least {n} players.", game=engine.title, n=engine.min_players))
        state = engine.new(len(players), table.row.options, table.row.seed)
        first = sorted(engine.to_act(state))
        names = [computers.display_name(p) for p in players]
        opening = i18n.join([name_seats(e.text, names) for e in engine.opening(state)])
        begins = (_("The game begins without {players}.", players=", ".join(p["name"] for p in kept)) if kept
                  else _("The game begins."))
        then = opening or (_("{player} goes first.", player=names[first[0]]) if len(first) == 1 else "")
        text = i18n.join([begins, then])
        lang = await self.language(table.row.guild_id)
        due = await self._turn_due(table, state, players)
        await self._write(table, self.store.start_table(table.id, table.version, players, engine.encode(state),
                                                 due if first else None, last_move=i18n.localize(text, lang)))
        table.row = await self.store.get_table(table.id)
        table.last_words = text
        table.state = state
        table.turn_due = due if first else None
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
            raise UserError(_("The game has not started yet."))
        if table.status != "playing":
            raise UserError(_("This game is over."))
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
            raise UserError(_("You are not playing at this table."))
        if version != table.version and not self._seat_unchanged(table, seat, version, token):
            raise UserError(_("This board is out of date; here is the current one."), stale=True)
        if seat not in table.engine.to_act(table.state):
            waiting = i18n.join([table.names[s] for s in table.to_act()], ", ")
            raise UserError(_("It is not your turn: waiting for {players}.", players=waiting))
        return seat

    @staticmethod
    def _seat_unchanged(table: Table, seat: int, version: int, token: str | None) -> bool:
        """Whether a screen of an older ``version`` still shows ``seat`` what it may do now (see
        bot/table/staleness.py): in a simultaneous stage, clicks made at the same moment all play."""
        return table.screen_counts(seat, version, token)

    @staticmethod
    def _track(table: Table, seat: int, tokens: dict[int, str], table_event: bool) -> None:
        """After a move by ``seat`` (just written): whose older screens stop counting. ``tokens``: the tokens,
        before the move, of the other seats that were to act."""
        if seat == SYSTEM or table_event:
            table.screens.moved(table.version, None)
        else:
            table.screens.moved(table.version, seat, [o for o, t in tokens.items() if table.seat_token(o) != t])

    async def _turn_due(self, table: Table, state: State, players: list[dict], seat: int = SYSTEM,
                        held: set[int] | None = None) -> float:
        """The turn deadline after a move by ``seat`` that led to ``state`` with ``players`` seated (``held``:
        the computers waiting for the people then, by default as now): a computer that moves now
        (``Table.computers_due``) moves after the pause, else people time out after the turn timeout (also
        while computers only wait for them: no computer's deadline fires in vain meanwhile). A person's move
        while computers are due keeps their deadline (in a simultaneous stage, people clicking away must not
        keep putting the computers off)."""
        now = self.clock()
        if not table.computers_due(state, players, table.waiting_for_people() if held is None else held):
            return now + await self.turn_timeout(table.row.guild_id)
        pause = now + self.defaults.pause(self._goes_on(table, state, players, seat))
        waited = table.state is not None and table.computers_due(held=table.waiting_for_people())
        if seat != SYSTEM and not is_computer(players[seat]) and waited and table.turn_due is not None:
            return min(table.turn_due, pause)
        return pause

    @staticmethod
    def _goes_on(table: Table, state: State, players: list[dict], seat: int) -> bool:
        """Whether the move of ``seat`` that led to ``state`` is a step inside a computer's turn: the computer
        was alone to act and still is (its next die, its pick's destination), so its next step follows after
        the short pause. Anything else (another seat's turn, a stage of several, a table event) is a new turn."""
        alone = frozenset({seat})
        return (seat != SYSTEM and is_computer(players[seat]) and table.state is not None
                and table.engine.to_act(table.state) == alone and table.engine.to_act(state) == alone)

    async def _apply(self, table: Table, seat: int, key: str, players: list[dict] | None = None,
                     text: str | None = None, then_waits: bool = False, draw: bool = True) -> Change:
        """Plays ``key`` for ``seat`` and commits it (one statement). ``players``: the new seating written
        with it (a seat handed to a computer); ``text``: the move in words instead of the engine's events;
        ``then_waits``: the computer in ``seat`` then waits for the people (``Table.held``); ``draw``: start
        drawing the new board meanwhile (not for a computer's key that more keys follow in the same firing)."""
        engine = table.engine
        try:
            state, events = engine.apply(table.state, seat, key)
        except RulesError as exc:
            raise UserError(rules_words(exc)) from None
        before = engine.to_act(table.state)
        tokens = {s: table.seat_token(s) for s in before if s != seat}
        # a step that says nothing (a die picked, its target to come) keeps the last move on show
        text = text or table.describe(events) or table.last_words or table.row.last_move or ""
        lang = await self.language(table.row.guild_id)
        seated = table.players if players is None else players
        over = engine.is_over(state)
        result = engine.result(state) if over else None
        announcements = engine.announcements(table.state, state)
        event = seat == SYSTEM or bool(announcements)
        held = set() if event else (table.held - {seat}) | ({seat} if then_waits else set())
        due = None if over else await self._turn_due(table, state, seated, seat, held)
        standings = None
        if result is not None:
            standings = {"scores": list(result.scores), "ranking": [list(g) for g in result.ranking],
                         "players": seated, "detail": result.detail}
            # keys only present when so (bot/ratings.py: nobody wins; history: an early end)
            standings |= ({"no_winner": True} if result.no_winner else {}) | (
                {"ended_by": state["ended_by"]} if "ended_by" in state else {})
        previous = table.state
        # a game timer that starts (or stops) with this move is written with it
        timer, timer_before = engine.timer(state), engine.timer(previous)
        timer_due = None
        if timer != timer_before:
            timer_due = self.clock() + timer[1] if timer else 0
        # draw the new board while the move is committed (nothing is shown before the commit)
        names = [computers.display_name(p) for p in seated]
        board = None
        if draw:
            board = asyncio.ensure_future(renderpool.board(table.row.game, board_view(engine, state), names,
                                                           text, ending_focus(state, names, seated) if over else None,
                                                           tuple(computer_seats(seated)), locale=lang))
            board.add_done_callback(_quiet)
        looks = (table.version + 1, "finished" if over else "playing", ())
        await self._write(table, self.store.record_move(
            table_id=table.id, version=table.version, state=engine.encode(state),
            status="finished" if over else "playing", ply=table.state["ply"], seat=seat, action=key,
            turn_due=due, standings=standings, last_move=i18n.localize(text, lang), timer_due=timer_due,
            players=players,
            ratings=ratings.plan(table.row.game, standings) if standings is not None else None,
        ))
        table.state = state
        table.row.version += 1
        table.row.last_move = i18n.localize(text, lang)
        table.last_words = text
        table.row.players = seated
        table.turn_due = due
        self._track(table, seat, tokens, event)
        table.held = held
        if timer_due is not None:
            table.timer_due = timer_due or None
        if over:
            table.row.status = "finished"
            self._forget(table)
        announced = [dict(a, text=name_seats(a["text"], table.names),
                          note=name_seats(a["note"], table.names) if a.get("note") else None)
                     for a in announcements]
        change = Change(table, text, finished=over, before=before, announcements=announced,
                        board=Drawing(looks, lang, board) if board is not None else None)
        if not over and not self._people_in_play(table):
            await self._close_among_computers(change)
        return change

    async def _close_among_computers(self, change: Change) -> None:
        """A game in play with no person left in it (the last one left, was removed, or had their seat handed
        to a computer) ends there: nobody is left to watch the computers play it out."""
        table = change.table
        lang = await self.language(table.row.guild_id)
        await self.store.close_table(table.id, "ended", i18n.localize(_("only computers were left at the table"),
                                                                      lang))
        table.row = await self.store.get_table(table.id)
        self._forget(table)
        change.closed = True
        change.text = i18n.join([change.text, _("Only computers were left at the table, so the game ended.")])

    async def _open(self, table_id: int) -> Table:
        table = await self.get(table_id)
        if table is None:
            raise UserError(_("This board is gone: there is no such game."))
        if table.status in ("finished", "ended"):
            raise UserError(_("This game is over."))
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
                raise UserError(_("That user is not seated at this table.") if by
                                else _("You are not seated at this table."))
            return await self._lobby_remove(table, user, by)
        if table.status != "playing":
            raise UserError(_("This game is over."))
        seat = table.seat_of(user_id)
        if seat is None:
            raise UserError(_("That user is not playing at this table.") if by
                            else _("You are not playing at this table."))
        if not self._people_in_play(table, but=seat):
            return await self._last_person_leaves(table, seat, by)
        if table.row.takeover:
            name = table.names[seat]
            went = (_("{player} was removed by a moderator. A computer plays their seat from now on.", player=name)
                    if by else _("{player} left. A computer plays their seat from now on.", player=name))
            return await self._hand_over(table, seat, went)
        return await self._apply(table, SYSTEM, f"remove:{seat}" if by else f"leave:{seat}")

    @staticmethod
    def _people_in_play(table: Table, but: int | None = None) -> list[int]:
        """The seats of persons still in the game (``but`` one of them)."""
        return [s for s in table.engine.remaining(table.state) if s != but and not is_computer(table.players[s])]

    async def _last_person_leaves(self, table: Table, seat: int, by: str | None) -> Change:
        """The last person at a table of computers leaves: their departure is played (and logged, not handed
        to a computer), and a game that would go on among computers alone ends there (``_apply``)."""
        return await self._apply(table, SYSTEM, f"remove:{seat}" if by else f"leave:{seat}")

    async def hand_over(self, table: Table, user_id: int, by: str) -> Change:
        """A moderator hands an (idle) player's seat to a computer: the game goes on without waiting for them."""
        async with self.lock(table.row.channel_id):
            return await self._racing(table, lambda: self._hand_over_user(table, user_id, by))

    async def _hand_over_user(self, table: Table, user_id: int, by: str) -> Change:
        if table.status != "playing":
            raise UserError(_("The game has not started yet.") if table.status == "lobby"
                            else _("This game is over."))
        seat = table.seat_of(user_id)
        if seat is None:
            raise UserError(_("That user is not playing at this table."))
        return await self._hand_over(table, seat, _("A moderator ({moderator}) handed {player}'s seat to a computer.",
                                                    moderator=by, player=table.names[seat]))

    async def _hand_over(self, table: Table, seat: int, text: str) -> Change:
        """The logged table event ``handover:<seat>``, written with the new seating (one statement)."""
        players = list(table.players)
        scores = table.engine.scores_now(table.state)
        players[seat] = handed_over(players[seat], HANDOVER_STRENGTH, players,
                                    scores[seat] if scores is not None else None)
        return await self._apply(table, SYSTEM, f"handover:{seat}", players=players, text=text)

    async def _lobby_remove(self, table: Table, user: dict, by: str | None = None) -> Change:
        players = [p for p in table.players if p["id"] != user["id"]]
        gone = next((p for p in table.players if p["id"] == user["id"]), {})
        name = user["name"]
        if not computers.people(sitting(players)):  # computers (and kept seats) alone never keep a lobby open
            lang = await self.language(table.row.guild_id)
            await self.store.close_table(table.id, "ended", i18n.localize(_("everyone left the lobby"), lang))
            table.row = await self.store.get_table(table.id)
            self._forget(table)
            if by:
                text = _("{player} was removed by a moderator ({moderator}); the lobby is closed.", player=name,
                         moderator=by)
            elif is_invited(gone):
                text = _("{player} gave up their kept seat; the lobby is closed.", player=name)
            else:
                text = _("{player} left; the lobby is closed.", player=name)
            return Change(table, text, closed=True)
        host = table.row.host_id if table.row.host_id != user["id"] else computers.people(sitting(players))[0]["id"]
        await self._write(table, self.store.update_lobby(table.id, table.version, players, host))
        table.row = await self.store.get_table(table.id)
        if by:
            return Change(table, _("{player} was removed by a moderator ({moderator}).", player=name, moderator=by))
        if is_invited(gone):
            return Change(table, _("{player} gave up their kept seat.", player=name))
        return Change(table, _("{player} left.", player=name))

    async def end(self, table: Table, reason: str) -> Change:
        async with self.lock(table.row.channel_id):
            if table.status not in ("lobby", "playing"):
                raise UserError(_("This game is already over."))
            await self.store.close_table(table.id, "ended", reason)
            table.row = await self.store.get_table(table.id)
            self._forget(table)
            return Change(table, _("The game was ended: {reason}", reason=end_words(reason)), closed=True)

    async def set_ping_message(self, table: Table, message_id: int | None) -> None:
        table.row.ping_message_id = message_id
        await self.store.set_ping_message(table.id, message_id)

    async def set_message(self, table: Table, message_id: int | None) -> None:
        table.row.message_id = message_id
        table.messages_since_board = 0
        if message_id:
            table.posted.set()
        await self.store.set_message(table.id, message_id)

    # --- timers --------------------------------------------------------------------------------------
    async def fire_due(self) -> list[Change]:
        """Applies every deadline of this process's shards that has passed: idle players time out, forgotten
        lobbies close, computers move. Only due deadlines are read (indexed); one that fails is logged and does
        not stop the others. A firing is a versioned move: a process that fired late (it lost the channel) is
        refused. A computer's move is started here and thinks in a worker process while the loop goes on; it
        shows its own change as soon as it is committed (``_computer_turn``, ``show``), and the table's next
        step cannot start before (its task is in ``_thinking`` until then). Without ``show`` (a service with no
        channel: tests), the computers' changes committed since the last call are returned with the others."""
        changes, self._computer_changes = self._computer_changes, []
        for table_id, kind, _due in await self.store.due_deadlines(self.clock(), shards=self.shards):
            if kind == "turn" and table_id in self._thinking:
                continue  # its computers are thinking or showing their move: never two of their moves at once
            try:
                if kind == "turn" and await self._computers_wait(table_id):
                    self._thinking[table_id] = asyncio.create_task(self._computer_turn(table_id),
                                                                   name=f"geotable-computer-{table_id}")
                    continue
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

    async def restore_turn_deadlines(self) -> None:
        """At start: a game in play whose turn deadline is missing (the start writes the table, then its
        deadline: a crash between the two) gets one, so its computers move and its people time out."""
        for table_id in await self.store.without_turn_deadline(self.shards):
            table = await self.get(table_id)
            if table is None or table.status != "playing" or not table.to_act():
                continue
            async with self.lock(table.row.channel_id):
                if await self.store.deadline(table_id, "turn") is None:
                    table.turn_due = await self._turn_due(table, table.state, table.players)
                    await self.store.set_deadline(table_id, "turn", table.turn_due)

    # --- computers -----------------------------------------------------------------------------------
    async def _computers_wait(self, table_id: int) -> bool:
        """Whether the table's due turn deadline is its computers' (else its people's timeout)."""
        table = await self.get(table_id)
        return (table is not None and table.status == "playing"
                and bool(table.computers_due(held=table.waiting_for_people())))

    async def _computer_turn(self, table_id: int) -> None:
        """A computer's pending move (its turn deadline is due): think on a snapshot outside the channel's
        lock, in a worker process, then commit under the lock only if the computer's choices are still what it
        thought about (the same version, or in a simultaneous stage the seat's unchanged token); else think
        again. Only the computers to act move, one step each, except in secret simultaneous play (Globe
        Twister's programming), where each enters its whole program at once. The pending move is the stored
        deadline and the commit a versioned write, so it happens once, also across a restart or kill -9. The
        committed move is shown at once (``show``), before the table's next step can start."""
        try:
            for _attempt in range(5):
                done, change = await self._computer_attempt(table_id)
                if change is not None:
                    await self._show(change)
                if done:
                    return
            log.warning("the computers of table %s found the table changed five times in a row", table_id)
        except Exception:
            log.exception("a computer's move at table %s failed", table_id)
        finally:
            self._thinking.pop(table_id, None)
            self.wake_timers()  # its next step may be due already: the deadline loop looks at once

    async def _computer_attempt(self, table_id: int) -> tuple[bool, Change | None]:
        """One think-then-commit of ``_computer_turn``: (done, the change to show); done is False when the
        table changed meanwhile (think again)."""
        table = await self.get(table_id)
        if table is None:
            return True, None
        async with self.lock(table.row.channel_id):
            await self._refresh(table)
            due = await self.store.deadline(table_id, "turn")
            if table.status != "playing" or due is None or due > self.clock():
                return True, None
            waiting = table.computers_due(held=table.waiting_for_people())
            if not waiting:  # people's turn after all (the table moved on): their timeout
                return True, await self._racing(table, lambda: self._fire_once(table, "turn"))
            version, state = table.version, table.state
            tokens = {seat: table.seat_token(seat) for seat in waiting}
            whole = len(table.to_act()) > 1 or table.engine.timer(state) is not None
            # a person still to act beside them: the computers do all but end their part (lock in)
            hold = any(not is_computer(table.players[s]) for s in table.to_act())
            seed = computer_seed(table.row)
        thoughts = await asyncio.gather(*(self._think(table, state, seat, strength, seed, whole, hold)
                                          for seat, strength in waiting.items()))
        plans = dict(zip(waiting, thoughts, strict=True))
        async with self.lock(table.row.channel_id):
            return await self._racing(table, lambda: self._play_computers(table, version, tokens, plans, hold))

    async def _refresh(self, table: Table) -> None:
        """Reloads the table when the store holds a newer version (another writer), else keeps our copy (and
        the seats' screens that still count, ``Table.since``)."""
        row = await self.store.get_table(table.id)
        if row is None or row.version != table.version:
            await self._reload(table)

    async def _think(self, table: Table, state: State, seat: int, strength: str, seed: int,
                     whole: bool, hold: bool) -> list[str]:
        """The computer's keys, thought in a worker process (``hold``: see ``thinkpool.think``). A computer
        that fails (a bug in a game's computer) plays the first legal move instead, logged, so the table never
        stalls on it."""
        try:
            return await thinkpool.decide(table.row.game, state, seat, strength, seed, whole, hold)
        except Exception:
            log.exception("the %s computer failed to decide at table %s; it plays the first legal move",
                          table.row.game, table.id)
            return [table.engine.legal_actions(state, seat)[0].key]

    async def _play_computers(self, table: Table, version: int, tokens: dict[int, str],
                              plans: dict[int, list[str]], hold: bool) -> tuple[bool, Change | None]:
        """Commits the computers' planned keys (each a logged move), for the seats whose choices did not change
        since ``version``. ``hold``: planned while a person was still to act beside them, so each such
        computer then waits for the people (``Table.held``). Returns (done, the change to show): done is
        False when none could move (think again); with nothing to commit because every computer due now
        waits for the people, the deadline becomes the people's timeout."""
        due = await self.store.deadline(table.id, "turn")
        if table.status != "playing" or due is None or due > self.clock():
            return True, None
        before = frozenset(table.to_act())
        texts, announced, change = [], [], None
        plans = {seat: keys for seat, keys in plans.items()
                 if self._seat_unchanged(table, seat, version, tokens[seat])}
        idle = {seat for seat, keys in plans.items() if hold and not keys}
        table.held |= idle  # nothing to enter: they wait (first, so the deadline the others' moves write knows)
        for seat, keys in plans.items():
            if table.status != "playing" or not self._seat_unchanged(table, seat, version, tokens[seat]):
                continue
            for n, key in enumerate(keys, 1):
                try:
                    change = await self._apply(table, seat, key, then_waits=hold and n == len(keys),
                                               draw=n == len(keys))
                except StaleVersion:
                    if change is None:
                        raise
                    await self._reload(table)  # another writer came in between: show what was done
                    break
                if change.text and change.text not in texts[-1:]:
                    texts.append(change.text)
                announced += change.announcements
                if table.status != "playing" or change.announcements:
                    break
        if change is None:
            if not idle:
                return False, None
            table.turn_due = await self._turn_due(table, table.state, table.players)
            await self.store.set_deadline(table.id, "turn", table.turn_due)
            return True, None
        change.text = i18n.join(texts)
        change.before = before
        change.announcements = announced
        return True, change

    async def _show(self, change: Change) -> None:
        """Shows a computer's committed change now (``show``), or hands it to the next ``fire_due``."""
        if self.show is None:
            self._computer_changes.append(change)
            return
        try:
            await self.show(change)
        except Exception:  # committed all the same: the next start shows it again (heal)
            log.exception("showing the computers' move at table %s failed", change.table.id)

    async def computers_done(self) -> None:
        """Waits until the computers' moves under way are committed (or given up)."""
        while self._thinking:
            await asyncio.gather(*self._thinking.values(), return_exceptions=True)

    async def stop_computers(self) -> None:
        """Cancels the computers' moves under way (the bot stops): nothing half-written, the deadlines stay."""
        tasks = list(self._thinking.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def wake_timers(self) -> None:
        """A deadline may have moved earlier (or a computer's step is shown and its next may be due): the
        timer loop looks again at once; a wake while the loop is busy is kept for its next sleep."""
        self._wake_pending = True
        if self._timers_wake is not None and not self._timers_wake.done():
            self._timers_wake.set_result(None)

    async def sleep_until_woken(self, delay: float) -> None:
        """Sleeps ``delay`` seconds, or less when ``wake_timers`` is called (also before: then it returns at
        once; a plain future, no extra task)."""
        if self._wake_pending or self._computer_changes:
            self._wake_pending = False
            await asyncio.sleep(0)
            return
        self._timers_wake = asyncio.get_running_loop().create_future()
        try:
            await asyncio.wait_for(self._timers_wake, delay)
        except TimeoutError:
            pass
        finally:
            self._timers_wake = None
            self._wake_pending = False

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
            lang = await self.language(table.row.guild_id)
            await self.store.close_table(table.id, "ended", i18n.localize(_("nobody started the lobby"), lang))
            table.row = await self.store.get_table(table.id)
            self._forget(table)
            return Change(table, _("Nobody started this lobby in time, so it closed."), closed=True)
        if kind == "timer" and table.status == "playing" and table.engine.timer(table.state):
            name = table.engine.timer(table.state)[0]
            return await self._apply(table, SYSTEM, f"timer:{name}")
        if kind == "turn" and table.status == "playing":
            texts, timed_out, announced = [], [], []
            before = frozenset(table.to_act())
            change = None
            for seat in [s for s in table.to_act() if not is_computer(table.players[s])]:
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
                change.text = i18n.join(texts)
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
                raise UserError(_("The game has not started yet.") if table.status == "lobby"
                                else _("This game is over."))
            seat = self._check_turn(table, user_id, version, token)
            actions = table.actions_for(seat)
            always = table.engine.grouped(table.state, seat)
            named = group_named(group, actions, always)
            if named is None:  # the public board's groups (without the seat's secret moves)
                named = group_named(group, [a for a in actions if not a.secret], always)
            if named is None:
                raise UserError(_("That choice is not available now."))
            table.picks[seat] = (table.version, named)
            return table

    # --- drawing -------------------------------------------------------------------------------------
    async def render_private(self, table: Table, seat: int, lang: str = i18n.DEFAULT) -> bytes:
        """The seat's own secret part (a hand) as PNG in ``lang`` (its player's), drawn in a worker process.
        Only for that seat's eyes."""
        view = table.engine.view(table.state, seat)
        return await renderpool.private(table.row.game, view, table.names[seat], locale=lang)

    async def render(self, table: Table, lang: str | None = None, drawing: Drawing | None = None) -> bytes:
        """The public board as PNG in ``lang`` (default: the server's), drawn in a worker process (see
        bot/workers/renderpool.py). ``drawing``: the move's board, started while its commit was under way
        (``Change.board``): used when the table still looks so, in that language."""
        lang = lang or await self.language(table.row.guild_id)
        if drawing is not None and drawing.looks == table.looks() and drawing.lang == lang:
            return await drawing.png
        view = board_view(table.engine, table.state)
        return await renderpool.board(table.row.game, view, table.names, table.last_move(lang), table.focus(),
                                      tuple(computer_seats(table.players)), locale=lang)
