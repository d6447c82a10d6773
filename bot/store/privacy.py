"""A person's data (/privacy): finding the tables that name them, anonymising their seats and names, deleting
the rest (``forget_person``); and how long a server keeps finished games (retention; migration 009)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.errors import StillPlaying
from bot.store.records import Shards

FORMER_PLAYER = "Former player"
"""The name a person's seats get in stored games once they had their data deleted (``/privacy delete``)."""
FORMER_ID = 0
"""The id their seats get instead of theirs: no Discord user has it, and computers have negative ones."""
FORMER_MEMBER = "a former member"
"""Who ended a game, in its stored reason ("... (by a former member)"), once that moderator had their data deleted."""

OPEN = ("lobby", "playing")


@dataclass(frozen=True)
class PersonTable:
    """A table of a server that names a person: they sit at it (or sat, and a computer plays their seat),
    host it, or ended it as a moderator (its reason says "(by <name>)")."""

    id: int
    channel_id: int
    status: str
    game: str
    players: list[dict]
    host_id: int
    last_move: str | None
    end_reason: str | None
    standings: dict | None
    """The stored result (finished games)."""
    names: frozenset[str]
    """The names they have at it (their seats' names; none when they only ended it)."""
    seated: bool
    """They sit (or sat) at it, or host it."""

    @property
    def open(self) -> bool:
        return self.status in OPEN


def anonymised_players(players: list[dict], user_id: int) -> tuple[list[dict], set[str]]:
    """``players`` (a table's seats or a result's) with ``user_id``'s seats, and those computers took over from
    them, no longer naming them (``FORMER_PLAYER``, id ``FORMER_ID``); and the names those seats had. The other
    seats are returned as they are, so the game stays whole for the others."""
    out, names = [], set()
    for player in players:
        was = player.get("was")
        if player.get("id") == user_id:
            names.add(player["name"])
            out.append({**player, "id": FORMER_ID, "name": FORMER_PLAYER})
        elif isinstance(was, dict) and was.get("id") == user_id:
            names.add(was["name"])
            out.append({**player, "name": f"Computer for {FORMER_PLAYER}",
                        "was": {"id": FORMER_ID, "name": FORMER_PLAYER}})
        else:
            out.append(player)
    return out, names


def without_names(text: str | None, names: Sequence[str] | set[str], moderator_names: Sequence[str] = ()) -> str | None:
    """``text`` (a stored last move or end reason) with each of ``names`` as a whole word replaced by
    ``FORMER_PLAYER``, and "(by <name>)" of ``moderator_names`` by "(by a former member)"."""
    if not text:
        return text
    for name in sorted(moderator_names, key=len, reverse=True):
        text = text.replace(f"(by {name})", f"(by {FORMER_MEMBER})")
    words = [re.escape(n) for n in sorted(names, key=len, reverse=True) if n]
    if words:
        text = re.sub(rf"(?<!\w)(?:{'|'.join(words)})(?!\w)", FORMER_PLAYER, text)
    return text


@dataclass(frozen=True)
class Forgotten:
    """What ``Store.forget_person`` did."""

    tables: int
    """Stored tables (games, lobbies) whose seats, results and texts no longer name them."""
    ratings: int
    """Games whose rating rows were deleted."""
    settings: bool
    """Their settings (every server) were deleted."""
    panels: int
    daily: int = 0
    """Their daily puzzle results in the server (deleted)."""
    seasons: int = 0
    """Their season ratings in the server (deleted; their hall of fame places became "Former player")."""
    tournaments: int = 0
    """Their tournament entries in the server (they left those tournaments)."""


class Privacy:
    """Part of :class:`bot.store.base.Store` (statements through the primitives of bot/store/core.py)."""

    PAGE = 1000
    """Tables read per statement while looking for a person's (so no statement holds the database long)."""

    async def person_tables(self, guild_id: int, user_id: int, names: Sequence[str] = ()) -> list[PersonTable]:
        """The server's tables that name ``user_id``: seated (or the person a computer took over from), host,
        or the moderator who ended it ("(by <name>)" in its reason, for their seats' names and ``names``).
        Read in pages of ``PAGE`` tables on the index ``tables_guild_created``, oldest first; each page's
        candidates (seating text holding the id, host, or a moderator's end) come back with their result."""
        found: list[PersonTable] = []
        ended_by_moderator: list[PersonTable] = []
        cursor: tuple[float, int] = (-1.0, 0)
        while True:
            rows = await self._fetch(
                "SELECT p.id, p.created_at, t.channel_id, t.status, t.game, t.players, t.host_id, t.last_move, t.end_reason,"
                " r.standings FROM (SELECT id, created_at FROM tables WHERE guild_id = ? AND (created_at, id) > (?, ?)"
                " ORDER BY created_at, id LIMIT ?) p"
                " LEFT JOIN tables t ON t.id = p.id AND (t.players LIKE ? OR t.host_id = ? OR t.end_reason LIKE '%(by %')"
                " LEFT JOIN results r ON r.table_id = t.id ORDER BY p.created_at, p.id",
                (guild_id, *cursor, self.PAGE, f"%{user_id}%", user_id))
            for r in rows:
                if r["status"] is None:
                    continue
                players = json.loads(r["players"])
                _, seat_names = anonymised_players(players, user_id)
                seated = bool(seat_names) or r["host_id"] == user_id
                table = PersonTable(r["id"], r["channel_id"], r["status"], r["game"], players, r["host_id"], r["last_move"],
                                    r["end_reason"], json.loads(r["standings"]) if r["standings"] else None,
                                    frozenset(seat_names), seated)
                (found if seated else ended_by_moderator).append(table)
            if len(rows) < self.PAGE:
                break
            cursor = (rows[-1]["created_at"], rows[-1]["id"])
        known = set(names).union(*(t.names for t in found))
        found += [t for t in ended_by_moderator if any(f"(by {n})" in (t.end_reason or "") for n in known)]
        return sorted(found, key=lambda t: t.id)

    async def panel_count(self, guild_id: int, user_id: int) -> int:
        """How many private panels of ``user_id`` the store keeps for the server's tables."""
        return await self._fetchval(
            "SELECT count(*) FROM panels p JOIN tables t ON t.id = p.table_id WHERE p.user_id = ? AND t.guild_id = ?",
            (user_id, guild_id))

    async def claim_confirmation(self, message_id: int, now: float) -> bool:
        """Marks /privacy's confirmation ``message_id`` as clicked; False when it already was (in any process,
        before a restart too): one statement, so of two clicks at once exactly one claims it."""
        return await self._execute("INSERT INTO privacy_confirmations (message_id, confirmed_at) VALUES (?, ?)"
                                   " ON CONFLICT (message_id) DO NOTHING", (message_id, now)) == 1

    async def release_confirmation(self, message_id: int) -> None:
        """The confirmation may be clicked again (its deletion failed before doing anything)."""
        await self._execute("DELETE FROM privacy_confirmations WHERE message_id = ?", (message_id,))

    async def forget_person(self, guild_id: int, user_id: int, names: Sequence[str] = ()) -> Forgotten:
        """Deletes ``user_id``'s data in the server and their settings (every server): their ratings rows and
        panels are deleted; their seats in the server's stored tables and results, the rows of result_players
        and the names in stored texts (last moves, end reasons; ``names``: more names of theirs, e.g. their
        display name now) become ``FORMER_PLAYER`` / ``FORMER_ID``, so the games stay whole for the others.
        Raises :class:`StillPlaying` (nothing deleted) while an open table of the server names them.

        Several statements, each safe to repeat, in an order that a second call after a crash finishes the
        work: a result is rewritten before its table (the table's seating is what finds it again)."""
        tables = await self.person_tables(guild_id, user_id, names)
        still = [t for t in tables if t.open]
        if still:
            raise StillPlaying(still)
        known = sorted(set(names).union(*(t.names for t in tables)))
        for t in tables:
            players, _ = anonymised_players(t.players, user_id)
            if t.standings is not None and t.seated:
                result_players, _ = anonymised_players(t.standings.get("players", []), user_id)
                await self._execute("UPDATE results SET standings = ? WHERE table_id = ?",
                                    (json.dumps(dict(t.standings, players=result_players)), t.id))
            await self._execute(
                "UPDATE tables SET players = ?, host_id = ?, last_move = ?, end_reason = ? WHERE id = ?",
                (json.dumps(players), FORMER_ID if t.host_id == user_id else t.host_id,
                 without_names(t.last_move, t.names), without_names(t.end_reason, t.names, known), t.id))
        await self._execute("UPDATE result_players SET user_id = ? WHERE guild_id = ? AND user_id = ?",
                            (FORMER_ID, guild_id, user_id))
        rated = await self._execute("DELETE FROM ratings WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        panels = await self._execute(
            "DELETE FROM panels WHERE user_id = ? AND table_id IN (SELECT id FROM tables WHERE guild_id = ?)",
            (user_id, guild_id))
        settings = await self._execute("DELETE FROM user_settings WHERE user_id = ?", (user_id,))
        await self._execute("DELETE FROM lessons WHERE user_id = ?", (user_id,))  # /learn: private, not kept
        await self._execute("DELETE FROM away WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        await self._execute("DELETE FROM waiting WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        daily = await self.forget_daily(guild_id, user_id)
        seasons = await self.forget_seasons(guild_id, user_id)  # bot/store/seasons.py
        entries = await self.forget_entries(guild_id, user_id, FORMER_PLAYER)
        return Forgotten(len(tables), rated, bool(settings), panels, daily, seasons, entries)

    async def retention_guilds(self, shards: Shards | None = None) -> list[tuple[int, int]]:
        """(guild id, days) of the servers (of ``shards``) that keep finished games for a number of days."""
        where, args = shards.sql("guild_id") if shards else ("TRUE", ())
        rows = await self._fetch("SELECT guild_id, retention_days FROM guild_settings WHERE retention_days > 0"
                                 f" AND {where} ORDER BY guild_id", args)
        return [(r[0], r[1]) for r in rows]

    async def prune_tables(self, guild_id: int, before: float, limit: int = 100) -> int:
        """Deletes up to ``limit`` of the server's finished or ended tables (games, closed lobbies) that were
        created and ended before ``before`` (epoch seconds), oldest first, each with its action log, result,
        result_players rows, deadlines and panels (the trigger ``tables_delete``): one statement, so a batch
        goes whole or not at all. Open tables are never touched. Returns how many tables went."""
        return await self._execute(
            "DELETE FROM tables WHERE id IN (SELECT id FROM tables WHERE guild_id = ? AND created_at < ?"
            " AND status IN ('finished', 'ended') AND updated_at < ? ORDER BY created_at, id LIMIT ?)",
            (guild_id, before, before, limit))
