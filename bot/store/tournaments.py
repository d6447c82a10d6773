"""Tournaments' store (migration 018): a tournament's row (compare-and-set on its version: Start pressed twice
starts it once), its entries, each round's pairing claimed once (the round's primary key: one process, once),
each board's table opened in the same transaction as its board row names it, the results read back from the
tables, and the role that may run tournaments."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.store.core import Steps
from bot.store.errors import ChannelBusy
from bot.store.records import Shards, TableRow
from bot.store.waiting import waiting_steps

POST_STALE = 45.0
"""Seconds after which a round's announcement or a tournament's closing post that was claimed and never recorded
(the process died mid-post) is claimed again: within Discord's nonce window, so a post Discord made before the
process died is answered again, not doubled (bot/nonces.py)."""
OPEN = ("signup", "running")


@dataclass
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    game: str
    options: dict
    format: str
    rounds: int
    size: int
    pace: int | None
    signup_due: float | None
    cap: int | None
    status: str
    round: int
    version: int
    created_by: int
    created_at: float
    updated_at: float
    end_reason: str | None
    final_claimed: float | None = None
    final_message: int | None = None
    """The closing post's message (None: due once closed, or still open; 0: nothing to post or it failed)."""

    @classmethod
    def from_row(cls, row: Mapping) -> TournamentRow:
        data = dict(row)
        data["options"] = json.loads(data["options"])
        return cls(**data)


@dataclass(frozen=True)
class Entry:
    user_id: int
    name: str
    joined_at: float
    seed: int | None
    rating: float | None
    dropped_after: int | None


@dataclass(frozen=True)
class RoundRow:
    number: int
    tables: list[list[int]]
    byes: list[int]
    claimed_at: float
    due_at: float | None
    posted: bool
    """Its tables all opened and its announcement made."""
    post_claimed: float | None = None


@dataclass(frozen=True)
class Board:
    """A table of a round: its seats (user ids, the pairing's order), and once opened its table as stored."""
    round: int
    board: int
    seats: list[int]
    thread_id: int | None
    table_id: int | None
    status: str | None
    """The table's status (None: not opened yet)."""
    players: list[dict] | None
    standings: dict | None
    """The stored result (None: no result: still playing, or ended without one)."""
    left: list[bool] | None = None
    """Per seat: whether its player left or was removed (the game's ``left``)."""


class Tournaments:
    """Part of :class:`bot.store.base.Store` (statements through the primitives of bot/store/core.py)."""

    # --- the tournament ----------------------------------------------------------------------------------
    async def create_tournament(self, *, guild_id: int, channel_id: int, game: str, options: dict, fmt: str,
                                rounds: int, size: int, pace: int | None, signup_due: float | None,
                                cap: int | None, created_by: int) -> TournamentRow:
        """A tournament in sign-up. Raises :class:`TournamentOpen` (nothing written) when the channel has one in
        sign-up or running already: the database's index (migration 021) decides between simultaneous creates."""
        now = time.time()
        row = await self._fetchrow(
            "INSERT INTO tournaments (guild_id, channel_id, game, options, format, rounds, size, pace, signup_due,"
            " cap, status, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?, ?, ?)"
            " RETURNING *",
            (guild_id, channel_id, game, json.dumps(options), fmt, rounds, size, pace, signup_due, cap, created_by,
             now, now))
        return TournamentRow.from_row(row)

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        row = await self._fetchrow("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return TournamentRow.from_row(row) if row else None

    async def channel_tournament(self, channel_id: int) -> TournamentRow | None:
        """The channel's latest tournament in sign-up or running."""
        row = await self._fetchrow("SELECT * FROM tournaments WHERE channel_id = ? AND status IN ('signup', 'running')"
                                   " ORDER BY id DESC LIMIT 1", (channel_id,))
        return TournamentRow.from_row(row) if row else None

    async def set_tournament_message(self, tournament_id: int, message_id: int | None) -> None:
        await self._execute("UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id))

    async def open_tournaments(self, shards: Shards | None = None) -> list[TournamentRow]:
        """Tournaments in sign-up or running, or closed with their closing post still due (of ``shards``'
        servers): the advancement loop's work."""
        where, args = shards.sql("guild_id") if shards else ("TRUE", ())
        rows = await self._fetch("SELECT * FROM tournaments WHERE (status IN ('signup', 'running') OR final_message"
                                 f" IS NULL) AND {where} ORDER BY id", args)
        return [TournamentRow.from_row(r) for r in rows]

    async def start_tournament(self, tournament_id: int, version: int, rounds: int,
                               seeds: Sequence[tuple[int, int, float | None]]) -> bool:
        """Sign-up -> running, once (False: another start, a cancel or the deadline came first), with each
        entry's seed and rating (``seeds``: (user id, seed, rating)) and the number of rounds."""
        return await self._run(_start(tournament_id, version, rounds, seeds))

    async def close_tournament(self, tournament_id: int, status: str, reason: str | None = None, *,
                               post: bool = True) -> bool:
        """Cancelled (sign-up), ended by a moderator, or finished: once (False: closed already). ``post``: its
        closing post is due (``claim_final``), else there is none."""
        return await self._execute(
            "UPDATE tournaments SET status = ?, end_reason = ?, version = version + 1, updated_at = ?,"
            " final_message = ? WHERE id = ? AND status IN ('signup', 'running')",
            (status, reason, time.time(), None if post else 0, tournament_id)) == 1

    async def claim_final(self, tournament_id: int, now: float) -> bool:
        """Claims the closing post of a closed tournament: True for one caller (any process); a claim older than
        ``POST_STALE`` never recorded is claimed again (compare-and-set on its time)."""
        return await self._execute(
            "UPDATE tournaments SET final_claimed = ? WHERE id = ? AND status NOT IN ('signup', 'running') AND"
            " final_message IS NULL AND (final_claimed IS NULL OR final_claimed < ?)",
            (now, tournament_id, now - POST_STALE)) == 1

    async def final_posted(self, tournament_id: int, message_id: int) -> None:
        await self._execute("UPDATE tournaments SET final_message = ? WHERE id = ?", (message_id, tournament_id))

    # --- entries -----------------------------------------------------------------------------------------
    async def entries(self, tournament_id: int) -> list[Entry]:
        rows = await self._fetch("SELECT * FROM tournament_entries WHERE tournament_id = ? ORDER BY joined_at,"
                                 " user_id", (tournament_id,))
        return [Entry(r["user_id"], r["name"], r["joined_at"], r["seeding"], r["rating"], r["dropped_after"])
                for r in rows]

    async def join_tournament(self, tournament_id: int, user_id: int, name: str) -> bool:
        """An entry, while sign-up is open and the cap not reached (False: nothing written)."""
        return await self._execute(
            "INSERT INTO tournament_entries (tournament_id, user_id, guild_id, name, joined_at)"
            " SELECT id, ?, guild_id, ?, ? FROM tournaments WHERE id = ? AND status = 'signup' AND (cap IS NULL"
            " OR (SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = ?) < cap)"
            " ON CONFLICT (tournament_id, user_id) DO NOTHING",
            (user_id, name[:100], time.time(), tournament_id, tournament_id)) == 1

    async def leave_tournament(self, tournament_id: int, user_id: int) -> bool:
        """Takes an entry back during sign-up (False: none, or sign-up is over)."""
        return await self._execute(
            "DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ? AND EXISTS (SELECT 1 FROM"
            " tournaments WHERE id = ? AND status = 'signup')", (tournament_id, user_id, tournament_id)) == 1

    async def drop_entry(self, tournament_id: int, user_id: int, after: int) -> bool:
        """The entrant takes no part after round ``after`` (left, removed, dropped): once."""
        return await self._execute(
            "UPDATE tournament_entries SET dropped_after = ? WHERE tournament_id = ? AND user_id = ?"
            " AND dropped_after IS NULL", (after, tournament_id, user_id)) == 1

    # --- rounds and their tables ---------------------------------------------------------------------------
    async def claim_round(self, tournament_id: int, number: int, tables: list[list[int]], byes: list[int],
                          due_at: float | None, now: float) -> bool:
        """Round ``number``'s pairing, written once with its boards and the tournament's round moved on, in one
        transaction (False: claimed already, by this process or another, or the tournament is no longer at the
        round before)."""
        try:
            return await self._run(_claim(tournament_id, number, tables, byes, due_at, now))
        except _Taken:
            return False

    async def claim_round_post(self, tournament_id: int, number: int, now: float) -> bool:
        """Claims round ``number``'s announcement: True for one caller (any process); a claim older than
        ``POST_STALE`` never recorded is claimed again (compare-and-set on its time)."""
        return await self._execute(
            "UPDATE tournament_rounds SET post_claimed = ? WHERE tournament_id = ? AND number = ? AND posted = 0"
            " AND (post_claimed IS NULL OR post_claimed < ?)", (now, tournament_id, number, now - POST_STALE)) == 1

    async def round_posted(self, tournament_id: int, number: int) -> None:
        await self._execute("UPDATE tournament_rounds SET posted = 1 WHERE tournament_id = ? AND number = ?",
                            (tournament_id, number))

    async def rounds(self, tournament_id: int) -> list[RoundRow]:
        rows = await self._fetch("SELECT * FROM tournament_rounds WHERE tournament_id = ? ORDER BY number",
                                 (tournament_id,))
        out = []
        for r in rows:
            pairing = json.loads(r["pairing"])
            out.append(RoundRow(r["number"], pairing["tables"], pairing["byes"], r["claimed_at"], r["due_at"],
                                bool(r["posted"]), r["post_claimed"]))
        return out

    async def boards(self, tournament_id: int) -> list[Board]:
        """Every board of every round with its table's status and result (one statement)."""
        rows = await self._fetch(
            "SELECT b.round, b.board, b.thread_id, b.table_id, t.status, t.players, t.state, r.standings, p.pairing"
            " FROM tournament_tables b JOIN tournament_rounds p ON p.tournament_id = b.tournament_id"
            " AND p.number = b.round LEFT JOIN tables t ON t.id = b.table_id LEFT JOIN results r"
            " ON r.table_id = b.table_id WHERE b.tournament_id = ? ORDER BY b.round, b.board", (tournament_id,))
        return [Board(r["round"], r["board"], json.loads(r["pairing"])["tables"][r["board"] - 1], r["thread_id"],
                      r["table_id"], r["status"], json.loads(r["players"]) if r["players"] else None,
                      json.loads(r["standings"]) if r["standings"] else None,
                      json.loads(r["state"]).get("left") if r["state"] else None) for r in rows]

    async def set_board_thread(self, tournament_id: int, number: int, board: int, thread_id: int) -> int:
        """The board's thread, set once: ``thread_id``, or the thread another call (or process) set first."""
        await self._execute("UPDATE tournament_tables SET thread_id = ? WHERE tournament_id = ? AND round = ?"
                            " AND board = ? AND thread_id IS NULL", (thread_id, tournament_id, number, board))
        return await self._fetchval("SELECT thread_id FROM tournament_tables WHERE tournament_id = ? AND round = ?"
                                    " AND board = ?", (tournament_id, number, board))

    async def seat_board(self, tournament_id: int, number: int, board: int, *, guild_id: int, channel_id: int,
                         parent_channel_id: int, game: str, options: dict, seed: int, players: list[dict],
                         state: str, last_move: str, pace: int | None, turn_due: float | None,
                         remind_due: float | None, waiting: Sequence[int]) -> TableRow | None:
        """A board's table, started with its players seated (no lobby), written with the board's link to it in
        one transaction (None: the board has its table already)."""
        try:
            return await self._run(_seat(tournament_id, number, board, guild_id, channel_id, parent_channel_id,
                                         game, options, seed, players, state, last_move, pace, turn_due, remind_due,
                                         waiting))
        except _Taken:
            return None
        except ChannelBusy:  # another process wrote the board's table in the same moment (its thread's table)
            if await self._fetchval("SELECT table_id FROM tournament_tables WHERE tournament_id = ? AND round = ?"
                                    " AND board = ?", (tournament_id, number, board)) is not None:
                return None
            raise

    async def board_of_table(self, table_id: int) -> tuple[int, int] | None:
        """(tournament, round) of a tournament's table; None for any other table."""
        row = await self._fetchrow("SELECT tournament_id, round FROM tournament_tables WHERE table_id = ?",
                                   (table_id,))
        return (row["tournament_id"], row["round"]) if row else None

    async def entry_ratings(self, guild_id: int, game: str, users: Sequence[int]) -> dict[int, float]:
        """The shown ratings of ``users`` in ``game`` (the rated ones only): the seeds at the start."""
        if not users:
            return {}
        rows = await self._fetch(
            f"SELECT user_id, rating FROM ratings WHERE guild_id = ? AND game = ? AND rating IS NOT NULL"
            f" AND user_id IN ({', '.join('?' * len(users))})", (guild_id, game, *users))
        return {r["user_id"]: r["rating"] for r in rows}

    # --- who may run tournaments ---------------------------------------------------------------------------
    async def tournament_role(self, guild_id: int) -> int | None:
        return await self._fetchval("SELECT role_id FROM tournament_settings WHERE guild_id = ?", (guild_id,))

    async def set_tournament_role(self, guild_id: int, role_id: int | None) -> None:
        await self._execute("INSERT INTO tournament_settings (guild_id, role_id) VALUES (?, ?) ON CONFLICT"
                            " (guild_id) DO UPDATE SET role_id = excluded.role_id", (guild_id, role_id))

    # --- a person's entries (/privacy) --------------------------------------------------------------------
    async def member_entries(self, guild_id: int, user_id: int) -> list[tuple[int, str, str]]:
        """(tournament, game, status) of every entry of the member in the server."""
        rows = await self._fetch(
            "SELECT t.id, t.game, t.status FROM tournament_entries e JOIN tournaments t ON t.id = e.tournament_id"
            " WHERE e.guild_id = ? AND e.user_id = ? ORDER BY t.id", (guild_id, user_id))
        return [(r[0], r[1], r[2]) for r in rows]

    async def forget_entries(self, guild_id: int, user_id: int, name: str) -> int:
        """/privacy delete: the member leaves every tournament of the server. A sign-up entry goes; an entry of a
        tournament that started stays as a stand-in (a new negative id) named ``name``, dropped after the round in
        play, and the pairings name the stand-in: the games played stay whole."""
        return await self._run(_forget(guild_id, user_id, -secrets.randbits(52) - 1, name))


def _start(tournament_id: int, version: int, rounds: int, seeds) -> Steps:
    changed = yield ("execute",
                     "UPDATE tournaments SET status = 'running', rounds = ?, version = version + 1, updated_at = ?"
                     " WHERE id = ? AND version = ? AND status = 'signup'",
                     (rounds, time.time(), tournament_id, version))
    if changed != 1:
        return False
    for user_id, seed, rating in seeds:
        yield ("execute", "UPDATE tournament_entries SET seeding = ?, rating = ? WHERE tournament_id = ?"
               " AND user_id = ?", (seed, rating, tournament_id, user_id))
    return True


class _Taken(Exception):
    """Rolls a claim back: the round (or the board's table) was written by another."""


def _claim(tournament_id: int, number: int, tables, byes, due_at, now) -> Steps:
    inserted = yield ("execute",
                      "INSERT INTO tournament_rounds (tournament_id, number, pairing, claimed_at, due_at)"
                      " VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id, number) DO NOTHING",
                      (tournament_id, number, json.dumps({"tables": tables, "byes": byes}), now, due_at))
    if inserted != 1:
        return False
    moved = yield ("execute", "UPDATE tournaments SET round = ?, version = version + 1, updated_at = ? WHERE id = ?"
                   " AND round = ? AND status = 'running'", (number, now, tournament_id, number - 1))
    if moved != 1:
        raise _Taken()
    for board in range(1, len(tables) + 1):
        yield ("execute", "INSERT INTO tournament_tables (tournament_id, round, board) VALUES (?, ?, ?)",
               (tournament_id, number, board))
    return True


def _seat(tournament_id, number, board, guild_id, channel_id, parent_channel_id, game, options, seed, players,
          state, last_move, pace, turn_due, remind_due, waiting) -> Steps:
    now = time.time()
    taken = yield ("fetch", "SELECT table_id FROM tournament_tables WHERE tournament_id = ? AND round = ? AND board = ?",
                   (tournament_id, number, board))
    if taken and taken[0]["table_id"] is not None:
        raise _Taken()  # (checked first: the table's row would be refused as the thread's second table)
    rows = yield ("fetch",
                  "INSERT INTO tables (guild_id, channel_id, game, options, seed, status, players, host_id, state,"
                  " version, last_move, created_at, updated_at, takeover, pace, timeout_computer, parent_channel_id)"
                  " VALUES (?, ?, ?, ?, ?, 'playing', ?, ?, ?, 1, ?, ?, ?, 0, ?, 0, ?) RETURNING *",
                  (guild_id, channel_id, game, json.dumps(options), seed, json.dumps(players), players[0]["id"],
                   state, last_move, now, now, pace, parent_channel_id))
    table_id = rows[0]["id"]
    linked = yield ("execute", "UPDATE tournament_tables SET table_id = ? WHERE tournament_id = ? AND round = ?"
                    " AND board = ? AND table_id IS NULL", (table_id, tournament_id, number, board))
    if linked != 1:
        raise _Taken()
    if turn_due is not None:
        yield ("execute", "INSERT INTO deadlines (table_id, kind, due_at) VALUES (?, 'turn', ?)", (table_id, turn_due))
    if remind_due:
        yield ("execute", "INSERT INTO deadlines (table_id, kind, due_at) VALUES (?, 'remind', ?)",
               (table_id, remind_due))
    yield from waiting_steps(table_id, guild_id, waiting)
    return TableRow.from_row(rows[0])


def _forget(guild_id: int, user_id: int, stand_in: int, name: str) -> Steps:
    entries = yield ("fetch", "SELECT e.tournament_id, t.status, t.round FROM tournament_entries e JOIN tournaments t"
                     " ON t.id = e.tournament_id WHERE e.guild_id = ? AND e.user_id = ?", (guild_id, user_id))
    for e in entries:
        tid = e["tournament_id"]
        if e["status"] == "signup":
            yield ("execute", "DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ?", (tid, user_id))
            continue
        yield ("execute", "UPDATE tournament_entries SET user_id = ?, name = ?, dropped_after = COALESCE("
               "dropped_after, ?) WHERE tournament_id = ? AND user_id = ?", (stand_in, name, e["round"], tid, user_id))
        for r in (yield ("fetch", "SELECT number, pairing FROM tournament_rounds WHERE tournament_id = ?", (tid,))):
            pairing = json.loads(r["pairing"])
            pairing["tables"] = [[stand_in if u == user_id else u for u in t] for t in pairing["tables"]]
            pairing["byes"] = [stand_in if u == user_id else u for u in pairing["byes"]]
            yield ("execute", "UPDATE tournament_rounds SET pairing = ? WHERE tournament_id = ? AND number = ?",
                   (json.dumps(pairing), tid, r["number"]))
    return len(entries)
