"""Lobbies: opening one (/play), rematches, the lobby's buttons (join, leave, computers, partners, the
takeover option) and the start of the game."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence

import i18n
from bot import computers
from bot.computers import is_computer, new_computer
from bot.store import ChannelBusy
from bot.table import recent
from bot.table.model import Change, Table, people_to_act
from bot.table.pace import refused_pace as pace_refused
from bot.table.refusals import Refusal, Refused
from bot.table.seating import free_seat, game_people, is_invited, rematch_seats, sitting
from bot.table.words import channels_sentence, rules_words
from bot.ui.keys import split_utility
from games import get_engine
from games.ai import STRENGTHS, strength_name
from games.core import SYSTEM, Engine, RulesError
from i18n import _, join

log = logging.getLogger(__name__)


POSTED_WITHIN = 2.0
"""Seconds a refused rematch waits for the channel's new lobby to be posted, to link it (Discord wants an
answer within 3)."""


class Lobby:
    """Part of :class:`bot.table.service.TableService` (its other parts through ``self``)."""

    async def open_lobby(self, guild_id: int, channel_id: int, game: str, options: dict, host: dict,
                         parent_id: int | None = None, computers: Sequence[str] = (), pace: int | None = None,
                         place=None) -> Table:
        """A new lobby in ``channel_id`` (``parent_id``: a thread's channel or forum, for the channel rules),
        seating the host and then a computer of each strength in ``computers``; ``pace``: seconds per move
        (None: live; ``default_pace`` turns /play's choice into it). ``place``: the lobby goes to a new thread
        of ``channel_id`` instead, which ``await place(table)`` makes once the checks passed and the table has
        its number (the thread is named after it), returning the thread's id."""
        engine = get_engine(game)
        try:
            options = engine.normalise_options(options)
        except RulesError as exc:
            raise Refused(Refusal.BAD_OPTIONS, rules_words(exc)) from None
        seated = [host]
        for strength in computers:
            if strength not in STRENGTHS:
                raise Refused(Refusal.BAD_OPTIONS, _("A computer plays {strengths} or {last}, not {given}.",
                                                 strengths=join([strength_name(s) for s in STRENGTHS[:-1]], ", "),
                                  last=strength_name(STRENGTHS[-1]), given=repr(strength)))
            seated.append(new_computer(strength, seated))
        if len(seated) > engine.max_players:
            raise Refused(Refusal.BAD_OPTIONS, _(
                "{game} seats at most {n} players, so at most {computers} computers beside you.",
                game=engine.title, n=engine.max_players, computers=engine.max_players - 1))
        await self._check_channel(guild_id, channel_id, parent_id)
        refused = pace_refused(pace, await self.settings(guild_id))
        if refused:
            raise Refused(Refusal.BAD_OPTIONS, refused)
        if place is not None:
            return await self._lobby_in_thread(guild_id, channel_id, engine, options, seated, place, pace)
        async with self.lock(channel_id):
            return await self._create_lobby(guild_id, channel_id, engine, options, seated, pace=pace)

    async def _lobby_in_thread(self, guild_id: int, channel_id: int, engine: Engine, options: dict,
                               seated: list[dict], place, pace: int | None = None) -> Table:
        """A lobby in a thread of its own: created in a reserved place (a channel id no channel has, so no
        channel's one open table is in the way), then its thread made and the table moved into it. A thread
        that could not be made closes the table, and the error goes on."""
        reserved = -secrets.randbits(62)
        async with self.lock(reserved):
            table = await self._create_lobby(guild_id, reserved, engine, options, seated, pace=pace)
            self._forget(table)
            try:
                thread_id = await place(table)
            except BaseException:
                await self.store.close_table(table.id, "ended", "its thread could not be made")
                raise
            await self.store.place_table(table.id, thread_id, channel_id)
            table.row.channel_id, table.row.parent_channel_id = thread_id, channel_id
            self._remember(table)
            return table

    async def _check_channel(self, guild_id: int, channel_id: int, parent_id: int | None) -> None:
        settings = await self.settings(guild_id)
        if not settings.allows(channel_id, parent_id):
            raise Refused(Refusal.CHANNEL_NOT_ALLOWED, rules=channels_sentence(settings))

    async def _create_lobby(self, guild_id: int, channel_id: int, engine: Engine, options: dict,
                            seated: list[dict], host_seat: int = 0, takeover: bool = True,
                            pace: int | None = None, on_timeout: str = "play",
                            parent_channel_id: int | None = None) -> Table:
        """A new lobby with a new seed (under the channel's lock): refused while the channel has an open table."""
        existing = await self.in_channel(channel_id)
        if existing is not None:
            raise Refused(Refusal.CHANNEL_BUSY, self._busy_sentence(existing))
        try:
            row = await self.store.create_table(
                guild_id=guild_id, channel_id=channel_id, game=engine.slug, options=options,
                seed=secrets.randbits(62), host=seated[host_seat],
                lobby_due=self.clock() + self.defaults.lobby_timeout,
                others=seated[:host_seat] + seated[host_seat + 1:], host_seat=host_seat, takeover=takeover,
                pace=pace, on_timeout=on_timeout, parent_channel_id=parent_channel_id,
            )
        except ChannelBusy:
            raise Refused(Refusal.CHANNEL_BUSY) from None
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
            raise Refused(Refusal.NO_GAME)
        if old.status in ("lobby", "playing"):
            raise Refused(Refusal.NO_REMATCH, _("This game is not over yet: a rematch comes after its end."))
        if old.status != "finished":
            raise Refused(Refusal.NO_REMATCH)
        if user["id"] not in game_people(old.players):
            raise Refused(Refusal.NOT_A_PLAYER,
                          _("Only the players of this game can ask for its rematch. /play opens a new table."))
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
            await asyncio.wait_for(existing.wait_posted(), POSTED_WITHIN)
        raise Refused(Refusal.CHANNEL_BUSY, self._busy_sentence(existing))

    async def _rematch_lobby(self, old: Table, seats: list[dict], host_seat: int) -> Table:
        """``rematch`` under the channel's lock, the channel having no open table."""
        guild_id, channel_id = old.row.guild_id, old.row.channel_id
        latest = await self.store.history(guild_id, channel_id, limit=1)
        if latest and latest[0].table_id != old.id:
            newer = latest[0]
            if newer.message_id:
                raise Refused(Refusal.NO_REMATCH, _("A newer game has been played in this channel since this one; its "
                                                  "final board has its own Rematch button: {link}",
                                  link=f"https://discord.com/channels/{guild_id}/{channel_id}/{newer.message_id}"))
            raise Refused(Refusal.NO_REMATCH, _("A newer game has been played in this channel since this one; its final "
                                              "board has its own Rematch button."))
        return await self._create_lobby(guild_id, channel_id, old.engine, old.row.options, seats, host_seat,
                                        old.row.takeover, old.row.pace, old.row.on_timeout,
                                        old.row.parent_channel_id)  # a thread's: in the thread

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
        """``key``: a lobby's button (``bot.ui.keys.LOBBY``, as ``Utility.text``: join, leave, start,
        ``partner.<user id>``, and the host's ``computer.<strength>``, ``drop.<seat>``, ``takeover.on``/``.off``)."""
        if table.status != "lobby":
            raise Refused(Refusal.LOBBY_CLOSED, _("This game has already started.") if table.status == "playing"
                          else None)
        players = list(table.players)
        mine = next((s for s, p in enumerate(players) if p["id"] == user["id"]), None)
        kept = mine is not None and is_invited(players[mine])  # a rematch keeps this seat for them
        seated = mine is not None and not kept
        host_id = table.row.host_id
        name, arg = split_utility(key)
        if name in ("computer", "drop", "takeover", "pace", "ontimeout") and arg is not None:
            if not seated:
                raise Refused(Refusal.NOT_A_PLAYER, _("Only a seated player can change the seats and options of this lobby."))
            if user["id"] != host_id and any(p["id"] == host_id for p in players):  # as Start: the host decides
                raise Refused(Refusal.NOT_HOST, _("Only the host can switch whether a computer takes over a seat.")
                              if name == "takeover" else _("Only the host can change the pace.")
                              if name in ("pace", "ontimeout") else _("Only the host can add or remove computers."))
            if name == "takeover":
                return await self._set_takeover(table, user, arg == "on")
            if name in ("pace", "ontimeout"):
                return await self._set_pace(table, user, name, arg)
            text = self._seat_computer(table, players, user, name, arg)
        elif key == "join":
            if seated:
                raise Refused(Refusal.ALREADY_SEATED)
            if kept:
                players[mine] = {"id": user["id"], "name": user["name"]}
                text = _("{player} took their seat again.", player=user["name"])
            else:
                seat = free_seat(players, table.engine.max_players)
                if seat is None:
                    raise Refused(Refusal.LOBBY_FULL, n=table.engine.max_players)
                text = (_("{player} joined in the seat kept for {other}.", player=user["name"],
                          other=players[seat]["name"]) if seat < len(players)
                        else _("{player} joined.", player=user["name"]))
                players[seat:seat + 1] = [{"id": user["id"], "name": user["name"]}]
        elif key == "leave":
            if not seated and not kept:
                raise Refused(Refusal.NOT_A_PLAYER, _("You are not seated at this table."))
            return await self._lobby_remove(table, {"id": user["id"], "name": user["name"]})
        elif key == "start":
            return await self._start(table, user, sitting(players), [p for p in players if is_invited(p)])
        elif name == "partner" and arg is not None:
            text = self._pick_partner(table, players, user, arg)
        else:
            raise Refused(Refusal.ILLEGAL_MOVE, _("That button is not part of this lobby."))
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
                raise Refused(Refusal.ILLEGAL_MOVE, _("That button is not part of this lobby."))
            seat = free_seat(players, table.engine.max_players)
            if seat is None:
                raise Refused(Refusal.LOBBY_FULL, n=table.engine.max_players)
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
            raise Refused(Refusal.ILLEGAL_MOVE, _("That seat is a person's, not a computer's."))
        if not 0 <= seat < len(players):
            raise Refused(Refusal.ILLEGAL_MOVE, _("There is no computer in that seat any more."))
        gone = players.pop(seat)
        return _("{player} removed {computer}.", player=user["name"], computer=computers.display_name(gone))

    @staticmethod
    def _pick_partner(table: Table, players: list[dict], user: dict, partner: str) -> str:
        """A seated player picks their partner (a team game): the partner moves to the seat that partners
        theirs, trading places with whoever sat there. ``players`` is changed in place."""
        teams = table.engine.teams(len(players))
        if teams is None:
            raise Refused(Refusal.ILLEGAL_MOVE, _("{game} has no teams with {n} players.", game=table.engine.title,
                                                     n=len(players)))
        seat_of = {p["id"]: s for s, p in enumerate(players)}
        if user["id"] not in seat_of or is_invited(players[seat_of[user["id"]]]):
            raise Refused(Refusal.NOT_A_PLAYER, _("Only a seated player can pick a partner."))
        chosen = seat_of.get(int(partner)) if partner.removeprefix("-").isdigit() else None
        if chosen is None:
            raise Refused(Refusal.ILLEGAL_MOVE, _("That player is not seated at this table any more."))
        mine = seat_of[user["id"]]
        if chosen == mine:
            raise Refused(Refusal.ILLEGAL_MOVE, _("Pick another player as your partner."))
        team = next(t for t in teams if mine in t)
        if chosen in team:
            raise Refused(Refusal.ILLEGAL_MOVE, _("{player} is already your partner.", player=players[chosen]["name"]))
        # the partner takes a seat of my team (the first free of me), its player takes the partner's old seat
        target = next(s for s in team if s != mine)
        players[target], players[chosen] = players[chosen], players[target]
        return _("{player} teamed up with {partner}.", player=user["name"], partner=players[target]["name"])

    async def _start(self, table: Table, user: dict, players: list[dict], kept: Sequence[dict] = ()) -> Change:
        """``kept``: seats a rematch kept for people who did not come back; the game starts without them."""
        if not any(p["id"] == user["id"] for p in players):
            raise Refused(Refusal.NOT_A_PLAYER, _("Only a seated player can start the game."))
        if user["id"] != table.row.host_id and any(p["id"] == table.row.host_id for p in players):
            raise Refused(Refusal.NOT_HOST)
        engine = table.engine
        if len(players) < engine.min_players:
            if kept:
                raise Refused(Refusal.TOO_FEW_PLAYERS, _(
                    "{game} needs at least {n} players; a kept seat counts once its player joins.",
                    game=engine.title, n=engine.min_players))
            raise Refused(Refusal.TOO_FEW_PLAYERS, game=engine.title, n=engine.min_players)
        state = engine.new(len(players), table.row.options, table.row.seed, paced=table.row.pace is not None)
        first = sorted(engine.to_act(state))
        names = [computers.display_name(p) for p in players]
        text = recent.start_text(engine, state, names, [p["name"] for p in kept])
        lang = await self.language(table.row.guild_id)
        due = await self._turn_due(table, state, players)
        remind = self._remind_due(table, due, bool(first) and not table.computers_due(state, players))
        encoded = engine.encode(state)
        await self._write(table, self.store.start_table(table.id, table.version, players, encoded,
                                                 due if first else None, last_move=i18n.localize(text, lang),
                                                 remind_due=remind or None,
                                                 waiting=people_to_act(engine, state, players)))
        table.row = await self.store.get_table(table.id)
        table.last_words = recent.compact(text)
        table.recent = recent.kept([], recent.Entry(SYSTEM, text))
        table.set_state(state, encoded)
        table.turn_due = due if first else None
        await self._remember_away(table)
        return Change(table, text, before=frozenset())
