"""A table's row: a lobby created, seated and started, closed without a result; the board's message, the
version it shows, and the action log read back for replays."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from bot.store.core import Steps
from bot.store.errors import StaleVersion
from bot.store.records import Shards, TableRow
from bot.store.waiting import waiting_steps


class Tables:
    """Part of :class:`bot.store.base.Store` (statements through the primitives of bot/store/core.py)."""

    async def create_table(
        self, *, guild_id: int, channel_id: int, game: str, options: dict, seed: int, host: dict,
        lobby_due: float | None, others: Sequence[dict] = (), takeover: bool = True, host_seat: int = 0,
        pace: int | None = None, on_timeout: str = "play", parent_channel_id: int | None = None,
    ) -> TableRow:
        """A new lobby seating ``host`` (in seat ``host_seat``) and ``others`` (computer seats asked for with
        /play; a rematch's seats, kept ones included); ``takeover``: the lobby's takeover switch; ``pace``
        (seconds per move, None: live) and ``on_timeout``: the lobby's pace options."""
        now = time.time()
        seating = list(others)
        seating.insert(host_seat, host)
        row = await self._fetchrow(
            "INSERT INTO tables (guild_id, channel_id, game, options, seed, status, players, host_id,"
            " created_at, updated_at, takeover, pace, timeout_computer, parent_channel_id)"
            " VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
            (guild_id, channel_id, game, json.dumps(options), seed, json.dumps(seating), host["id"], now, now,
             int(takeover), pace, int(on_timeout == "computer"), parent_channel_id),
        )
        if lobby_due is not None:
            await self.set_deadline(row["id"], "lobby", lobby_due)
        return TableRow.from_row(row)

    async def place_table(self, table_id: int, channel_id: int, parent_channel_id: int) -> None:
        """Moves a lobby just created in a reserved place (``create_table`` with a channel id no channel has)
        into the thread made for it, in ``parent_channel_id`` (tables in threads: bot/threads.py)."""
        await self._execute("UPDATE tables SET channel_id = ?, parent_channel_id = ? WHERE id = ?",
                            (channel_id, parent_channel_id, table_id))

    async def open_tables_under(self, channel_id: int) -> list[int]:
        """The open tables in ``channel_id`` itself or in one of its threads (a deleted channel's)."""
        rows = await self._fetch(
            "SELECT id FROM tables WHERE status IN ('lobby', 'playing') AND (channel_id = ? OR parent_channel_id = ?)",
            (channel_id, channel_id))
        return [row[0] for row in rows]

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self._fetchrow("SELECT * FROM tables WHERE id = ?", (table_id,))
        return TableRow.from_row(row) if row else None

    async def open_table_in(self, channel_id: int) -> TableRow | None:
        row = await self._fetchrow(
            "SELECT * FROM tables WHERE channel_id = ? AND status IN ('lobby', 'playing')", (channel_id,)
        )
        return TableRow.from_row(row) if row else None

    async def update_lobby(self, table_id: int, version: int, players: list[dict], host_id: int) -> None:
        """Changes the lobby's seating; raises StaleVersion if someone else changed it first."""
        await self._update_checked(
            "UPDATE tables SET players = ?, host_id = ?, version = version + 1, updated_at = ?"
            " WHERE id = ? AND version = ? AND status = 'lobby'",
            (json.dumps(players), host_id, time.time(), table_id, version),
        )

    async def set_takeover(self, table_id: int, version: int, on: bool) -> None:
        """The lobby's option: a computer takes over a departing player's seat; StaleVersion as
        ``update_lobby``."""
        await self._update_checked(
            "UPDATE tables SET takeover = ?, version = version + 1, updated_at = ?"
            " WHERE id = ? AND version = ? AND status = 'lobby'",
            (int(on), time.time(), table_id, version),
        )

    async def set_pace(self, table_id: int, version: int, pace: int | None, on_timeout: str) -> None:
        """The lobby's pace (seconds per move, None: live) and what a turn-based table does when a move runs
        out; StaleVersion as ``update_lobby``."""
        await self._update_checked(
            "UPDATE tables SET pace = ?, timeout_computer = ?, version = version + 1, updated_at = ?"
            " WHERE id = ? AND version = ? AND status = 'lobby'",
            (pace, int(on_timeout == "computer"), time.time(), table_id, version),
        )

    async def start_table(self, table_id: int, version: int, players: list[dict], state: str,
                          turn_due: float | None, last_move: str = "", waiting: Sequence[int] = (),
                          remind_due: float | None = None) -> None:
        """Starts a lobby's game (one transaction): its seating, state, turn deadline (and a turn-based table's
        reminder, ``remind_due``) and the people it waits for first (``waiting``, bot/store/waiting.py).
        StaleVersion as ``update_lobby``."""
        await self._run(_start(table_id, version, players, state, turn_due, last_move, waiting, remind_due))

    async def close_table(self, table_id: int, status: str, reason: str | None) -> None:
        """Ends a lobby or game without a result (abandoned, ended by a moderator): one transaction, its
        deadlines and the rows of who it waited for go with it."""
        await self._run(_close(table_id, status, reason))

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        await self._execute("UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id))

    async def set_shown_version(self, table_id: int, version: int) -> None:
        """The version the table's channel message shows now (written after the message was edited; never
        goes back)."""
        await self._execute("UPDATE tables SET shown_version = ? WHERE id = ? AND shown_version < ?",
                            (version, table_id, version))

    async def behind(self, shards: Shards | None = None) -> list[int]:
        """Tables whose channel message shows an older version than the table: open ones, and finished ones
        whose end was never shown (a crash between the commit and the edit). ``shards``: only theirs."""
        where, args = shards.sql("guild_id") if shards else ("TRUE", ())
        rows = await self._fetch(
            "SELECT id FROM tables WHERE message_id IS NOT NULL AND shown_version < version"
            f" AND status IN ('lobby', 'playing', 'finished', 'ended') AND {where} ORDER BY id", args
        )
        return [r[0] for r in rows]

    async def set_ping_message(self, table_id: int, message_id: int | None) -> None:
        await self._execute("UPDATE tables SET ping_message_id = ? WHERE id = ?", (message_id, table_id))

    async def actions(self, table_id: int) -> list[tuple[int, str]]:
        rows = await self._fetch("SELECT seat, action FROM actions WHERE table_id = ? ORDER BY ply", (table_id,))
        return [(r["seat"], r["action"]) for r in rows]


def _start(table_id: int, version: int, players: list[dict], state: str, turn_due: float | None, last_move: str,
           waiting: Sequence[int], remind_due: float | None = None) -> Steps:
    """The statements of ``Tables.start_table``."""
    started = yield ("fetch",
                     "UPDATE tables SET status = 'playing', players = ?, state = ?, last_move = ?, version = version + 1,"
                     " updated_at = ? WHERE id = ? AND version = ? AND status = 'lobby' RETURNING guild_id",
                     (json.dumps(players), state, last_move, time.time(), table_id, version))
    if not started:
        raise StaleVersion()
    yield ("execute", "DELETE FROM deadlines WHERE table_id = ?", (table_id,))
    if turn_due is not None:
        yield ("execute", "INSERT INTO deadlines (table_id, kind, due_at) VALUES (?, 'turn', ?)", (table_id, turn_due))
    if remind_due is not None:
        yield ("execute", "INSERT INTO deadlines (table_id, kind, due_at) VALUES (?, 'remind', ?)",
               (table_id, remind_due))
    yield from waiting_steps(table_id, started[0]["guild_id"], waiting)


def _close(table_id: int, status: str, reason: str | None) -> Steps:
    """The statements of ``Tables.close_table``."""
    yield ("execute",
           "UPDATE tables SET status = ?, end_reason = ?, version = version + 1, updated_at = ? WHERE id = ?",
           (status, reason, time.time(), table_id))
    yield ("execute", "DELETE FROM deadlines WHERE table_id = ?", (table_id,))
    yield ("execute", "DELETE FROM waiting WHERE table_id = ?", (table_id,))
