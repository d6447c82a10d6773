"""Seasons (migration 019): a server's season, its ladder per game (OpenSkill from a fresh start, written by the
move that ends a rated game: bot/store/moves.py), its end (once: the one statement that sets ``ended_at`` writes
the hall of fame in the same transaction) and its hall of fame's post (claimed once, as /daily's board is)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.store.core import Steps
from bot.store.privacy import FORMER_ID, FORMER_PLAYER
from bot.store.records import Leaderboard, Shards, Standing

POST_STALE = 45.0
"""Seconds after which a hall of fame post claimed and never posted (the process died mid-post) is claimed again:
under Discord's nonce window, so a post Discord made before the process died is answered again, not doubled
(bot/nonces.py)."""
PODIUM = 3
"""The places the hall of fame keeps per game."""


@dataclass(frozen=True)
class Season:
    id: int
    guild_id: int
    name: str
    channel_id: int
    started_at: float
    ends_at: float
    ended_at: float | None
    ended_early: bool
    games: int
    message_id: int | None

    @classmethod
    def from_row(cls, r: Mapping) -> Season:
        return cls(r["id"], r["guild_id"], r["name"], r["channel_id"], r["started_at"], r["ends_at"], r["ended_at"],
                   bool(r["ended_early"]), r["games"], r["message_id"])

    @property
    def running(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True)
class Podium:
    """One game's hall of fame of a season: its rows (place, user id, name, rating, rated games), best first."""

    season: Season
    game: str
    rows: tuple[tuple[int, int, str, int, int], ...]


SEASON_COLUMNS = ", ".join(("id", "guild_id", "name", "channel_id", "started_at", "ends_at", "ended_at", "ended_early",
                            "games", "message_id"))


class Seasons:
    """Part of :class:`bot.store.base.Store` (statements through the primitives of bot/store/core.py)."""

    async def current_season(self, guild_id: int) -> Season | None:
        """The server's season not ended yet (index ``seasons_running``), or None. It may be past its end time
        while the bot has not ended it yet (``seasons_to_close``)."""
        row = await self._fetchrow(f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = ? AND ended_at IS NULL",
                                   (guild_id,))
        return Season.from_row(row) if row else None

    async def start_season(self, guild_id: int, name: str, channel_id: int, started_at: float,
                           ends_at: float) -> Season | None:
        """The new season, or None when the server has one not ended, or one of that name (one statement: of two
        moderators starting at once exactly one does)."""
        row = await self._fetchrow(
            "INSERT INTO seasons (guild_id, name, channel_id, started_at, ends_at) VALUES (?, ?, ?, ?, ?)"
            f" ON CONFLICT DO NOTHING RETURNING {SEASON_COLUMNS}", (guild_id, name, channel_id, started_at, ends_at))
        return Season.from_row(row) if row else None

    async def season_named(self, guild_id: int, name: str) -> Season | None:
        """The server's season of that name, letter case aside (Python's ``casefold``: SQLite's ``lower`` knows
        ASCII only), the exact spelling first. A server's seasons are few (index ``seasons_name``)."""
        rows = await self._fetch(f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY id DESC",
                                 (guild_id,))
        found = [r for r in rows if r["name"].casefold() == name.casefold()]
        found.sort(key=lambda r: r["name"] != name)
        return Season.from_row(found[0]) if found else None

    async def seasons(self, guild_id: int, limit: int = 25) -> list[Season]:
        """The server's seasons: the running one first, then the ended ones, newest first."""
        rows = await self._fetch(
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY ended_at IS NOT NULL, ended_at DESC,"
            " id DESC LIMIT ?", (guild_id, limit))
        return [Season.from_row(r) for r in rows]

    async def end_season(self, season_id: int, at: float, early: bool) -> bool:
        """Ends the season at ``at`` and keeps its hall of fame, in one transaction; False (nothing written) when it
        had ended already (another process, a moderator's click, a second pass). A game that ends while this runs
        waits for it or it for the game (the game's transaction updates the season's row), so the hall of fame is
        computed from every game the season counted."""
        return await self._run(_end(season_id, at, early))

    async def seasons_to_close(self, shards: Shards | None = None) -> list[Season]:
        """Seasons (of ``shards``' servers) not ended or whose hall of fame is not posted yet (index
        ``seasons_unposted``), soonest end first."""
        where, args = shards.sql("guild_id") if shards else ("TRUE", ())
        rows = await self._fetch(f"SELECT {SEASON_COLUMNS} FROM seasons WHERE message_id IS NULL AND {where}"
                                 " ORDER BY ends_at", args)
        return [Season.from_row(r) for r in rows]

    async def claim_season_post(self, season_id: int, now: float) -> bool:
        """Claims an ended season's hall of fame post: True for exactly one caller (any process); a claim older
        than ``POST_STALE`` never posted is claimed again (compare-and-set on its time)."""
        return await self._execute(
            "UPDATE seasons SET post_claimed_at = ? WHERE id = ? AND ended_at IS NOT NULL AND message_id IS NULL"
            " AND (post_claimed_at IS NULL OR post_claimed_at < ?)", (now, season_id, now - POST_STALE)) == 1

    async def season_posted(self, season_id: int, message_id: int) -> None:
        await self._execute("UPDATE seasons SET message_id = ? WHERE id = ?", (message_id, season_id))

    async def season_board(self, season_id: int, game: str, limit: int = 10,
                           around_user: int | None = None) -> Leaderboard:
        """A season's ladder of ``game`` (index ``season_ratings_board``), as ``leaderboard`` reads the all-time
        one: ranks shared by equal ratings, the asker's own row and rank."""
        found = await self._fetch(
            "SELECT user_id, name, rating, games, wins FROM season_ratings WHERE season_id = ? AND game = ?"
            " ORDER BY rating DESC, user_id DESC LIMIT ?", (season_id, game, limit))
        rows: list[Standing] = []
        for i, r in enumerate(found):
            rank = rows[-1].rank if rows and found[i - 1]["rating"] == r["rating"] else i + 1
            rows.append(Standing(rank, r["user_id"], r["name"], round(r["rating"]), r["games"], r["wins"]))
        players = await self._fetchval("SELECT count(*) FROM season_ratings WHERE season_id = ? AND game = ?",
                                       (season_id, game))
        own = next((row for row in rows if row.user_id == around_user), None)
        if own is None and around_user is not None:
            mine = await self._fetchrow("SELECT user_id, name, rating, games, wins FROM season_ratings"
                                        " WHERE season_id = ? AND game = ? AND user_id = ?",
                                        (season_id, game, around_user))
            if mine is not None:
                above = await self._fetchval("SELECT count(*) FROM season_ratings WHERE season_id = ? AND game = ?"
                                             " AND rating > ?", (season_id, game, mine["rating"]))
                own = Standing(above + 1, mine["user_id"], mine["name"], round(mine["rating"]), mine["games"],
                               mine["wins"])
        return Leaderboard(game, rows, own, players)

    async def podiums(self, guild_id: int, game: str | None = None, seasons: int = 10,
                      season_id: int | None = None) -> list[Podium]:
        """The hall of fame: the latest ``seasons`` ended seasons' podiums per game (of ``game`` only, if given;
        of the season ``season_id`` only, if given), newest season first, games in name order."""
        ended = await self._fetch(
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = ? AND ended_at IS NOT NULL"
            " AND (CAST(? AS BIGINT) IS NULL OR id = ?) AND (CAST(? AS TEXT) IS NULL OR id IN"
            " (SELECT season_id FROM hall_of_fame WHERE guild_id = ? AND game = ?))"
            " ORDER BY ended_at DESC, id DESC LIMIT ?", (guild_id, season_id, season_id, game, guild_id, game, seasons))
        if not ended:
            return []
        by_id = {r["id"]: Season.from_row(r) for r in ended}
        marks = ", ".join("?" * len(by_id))
        rows = await self._fetch(
            "SELECT season_id, game, place, user_id, name, rating, games FROM hall_of_fame"
            f" WHERE season_id IN ({marks}) AND (CAST(? AS TEXT) IS NULL OR game = ?)"
            " ORDER BY season_id, game, position", (*by_id, game, game))
        out: dict[tuple[int, str], list] = {}
        for r in rows:
            out.setdefault((r["season_id"], r["game"]), []).append(
                (r["place"], r["user_id"], r["name"], round(r["rating"]), r["games"]))
        order = list(by_id)
        return [Podium(by_id[s], g, tuple(found)) for (s, g), found in
                sorted(out.items(), key=lambda item: (order.index(item[0][0]), item[0][1]))]

    async def season_games(self, season_id: int) -> list[dict]:
        """The results the season counted (``results.season_id``), oldest first: what its ladder is computed from."""
        rows = await self._fetch("SELECT table_id, game, standings, finished_at FROM results WHERE season_id = ?"
                                 " ORDER BY finished_at, table_id", (season_id,))
        return [dict(r) for r in rows]

    # --- a person's data (/privacy) ---------------------------------------------------------------------
    async def person_seasons(self, guild_id: int, user_id: int) -> tuple[list[tuple], list[tuple]]:
        """``user_id``'s season ratings in the server (season name, game, rating, rated games) and hall of fame
        places (season name, game, place), newest season first."""
        ratings = await self._fetch(
            "SELECT s.name, r.game, r.rating, r.games FROM season_ratings r JOIN seasons s ON s.id = r.season_id"
            " WHERE r.user_id = ? AND s.guild_id = ? ORDER BY s.id DESC, r.game", (user_id, guild_id))
        places = await self._fetch(
            "SELECT s.name, h.game, h.place FROM hall_of_fame h JOIN seasons s ON s.id = h.season_id"
            " WHERE h.guild_id = ? AND h.user_id = ? ORDER BY s.id DESC, h.game", (guild_id, user_id))
        return ([(r["name"], r["game"], round(r["rating"]), r["games"]) for r in ratings],
                [(r["name"], r["game"], r["place"]) for r in places])

    async def forget_seasons(self, guild_id: int, user_id: int) -> int:
        """/privacy delete: the member's season ratings in the server are deleted, their hall of fame places
        become "Former player" (the podium stays whole for the others). Returns the ratings deleted."""
        deleted = await self._execute(
            "DELETE FROM season_ratings WHERE user_id = ? AND season_id IN (SELECT id FROM seasons WHERE guild_id = ?)",
            (user_id, guild_id))
        await self._execute("UPDATE hall_of_fame SET user_id = ?, name = ? WHERE guild_id = ? AND user_id = ?",
                            (FORMER_ID, FORMER_PLAYER, guild_id, user_id))
        return deleted


def _end(season_id: int, at: float, early: bool) -> Steps:
    """The statements of ``Seasons.end_season``."""
    ended = yield ("fetch", "UPDATE seasons SET ended_at = ?, ended_early = ? WHERE id = ? AND ended_at IS NULL"
                            " RETURNING guild_id", (at, int(early), season_id))
    if not ended:
        return False
    yield ("execute",
           "INSERT INTO hall_of_fame (season_id, game, position, guild_id, user_id, name, place, rating, games)"
           " SELECT season_id, game, position, ?, user_id, name, place, rating, games FROM (SELECT season_id, game,"
           " user_id, name, rating, games, RANK() OVER (PARTITION BY game ORDER BY rating DESC) AS place,"
           " ROW_NUMBER() OVER (PARTITION BY game ORDER BY rating DESC, user_id) AS position FROM season_ratings"
           " WHERE season_id = ?) ranked WHERE place <= ?", (ended[0]["guild_id"], season_id, PODIUM))
    return True
