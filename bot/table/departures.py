"""Departures and endings: a player who leaves (or is removed by a moderator), a seat handed over to a
computer, a table ended by a moderator."""

from __future__ import annotations

import logging

import i18n
from bot import computers
from bot.computers import HANDOVER_STRENGTH, handed_over, is_computer
from bot.table.model import Change, Table
from bot.table.refusals import Refusal, Refused
from bot.table.seating import is_invited, sitting
from bot.table.words import end_words
from games.core import SYSTEM
from i18n import _

log = logging.getLogger(__name__)


class Departures:
    """Part of :class:`bot.table.service.TableService` (its other parts through ``self``)."""

    async def leave(self, table: Table, user_id: int, by: str | None = None) -> Change:
        """A player leaves (or a moderator removes them): the game goes on without them."""
        async with self.lock(table.row.channel_id):
            return await self._racing(table, lambda: self._leave(table, user_id, by))

    async def _leave(self, table: Table, user_id: int, by: str | None) -> Change:
        if table.status == "lobby":
            user = next((p for p in table.players if p["id"] == user_id), None)
            if user is None:
                raise Refused(Refusal.NOT_A_PLAYER, _("That user is not seated at this table.") if by
                              else _("You are not seated at this table."))
            return await self._lobby_remove(table, user, by)
        if table.status != "playing":
            raise Refused(Refusal.GAME_OVER)
        seat = table.seat_of(user_id)
        if seat is None:
            raise Refused(Refusal.NOT_A_PLAYER, _("That user is not playing at this table.") if by
                          else None)
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
            raise Refused(Refusal.NOT_STARTED if table.status == "lobby" else Refusal.GAME_OVER)
        seat = table.seat_of(user_id)
        if seat is None:
            raise Refused(Refusal.NOT_A_PLAYER, _("That user is not playing at this table."))
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
                raise Refused(Refusal.GAME_OVER, _("This game is already over."))
            await self.store.close_table(table.id, "ended", reason)
            table.row = await self.store.get_table(table.id)
            self._forget(table)
            return Change(table, _("The game was ended: {reason}", reason=end_words(reason)), closed=True)
