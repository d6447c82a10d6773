"""A table started with its players seated, no lobby (a tournament's board, issue 28): the game begins at once in
the thread made for it, with the tournament's pace; its row is written in the same transaction as the board that
names it (``Store.seat_board``), so a board gets its table once, whatever restarts."""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence

import i18n
from bot.store import TableRow
from bot.table import recent
from bot.table.model import Change, Table, people_to_act
from games import get_engine
from games.core import SYSTEM


class Seated:
    """Part of :class:`bot.table.service.TableService` (its other parts through ``self``)."""

    async def open_seated(self, board: tuple[int, int, int], *, guild_id: int, thread_id: int, parent_id: int,
                          game: str, options: dict, players: Sequence[dict], pace: int | None) -> Change | None:
        """Starts the game of ``board`` (tournament, round, board number) in ``thread_id`` with ``players`` in
        seat order and ``pace`` (seconds per move; None: live). None when the board has its table already (a
        repeat after a restart, or another process)."""
        engine = get_engine(game)
        players = [dict(p) for p in players]
        options = engine.normalise_options(options)
        seed = secrets.randbits(62)
        state = engine.new(len(players), options, seed, paced=pace is not None)
        now = time.time()
        draft = Table(TableRow(0, guild_id, thread_id, game, options, seed, "playing", players, players[0]["id"],
                               None, 0, None, None, None, now, now, pace=pace, takeover=False,
                               parent_channel_id=parent_id), engine)
        due = await self._turn_due(draft, state, players)
        remind = self._remind_due(draft, due, bool(engine.to_act(state)))
        text = recent.start_text(engine, state, [p["name"] for p in players])
        lang = await self.language(guild_id)
        tournament, number, index = board
        async with self.lock(thread_id):
            row = await self.store.seat_board(
                tournament, number, index, guild_id=guild_id, channel_id=thread_id, parent_channel_id=parent_id,
                game=game, options=options, seed=seed, players=players, state=engine.encode(state),
                last_move=i18n.localize(text, lang), pace=pace, turn_due=due if engine.to_act(state) else None,
                remind_due=remind or None, waiting=people_to_act(engine, state, players))
            if row is None:
                return None
            table = Table(row, engine, state)
            table.turn_due = due if engine.to_act(state) else None
            table.last_words = recent.compact(text)
            table.recent = recent.kept([], recent.Entry(SYSTEM, text))
            self._remember(table)
            await self._remember_away(table)
        self.wake_timers()
        return Change(table, text, before=frozenset())
