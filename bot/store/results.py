"""Finished games read back: results, leaderboards, a person's stats, history, one game by its short id (all
written by ``commit_move`` at a game's end: bot/store/moves.py; migration 008)."""

from __future__ import annotations

import json

from bot.store.records import FinishedGame, GameStats, Leaderboard, Standing, table_id_of


class Results:
    """Part of :class:`bot.store.base.Store` (statements through the primitives of bot/store/core.py)."""

    async def results(self, guild_id: int) -> list[dict]:
        rows = await self._fetch("SELECT * FROM results WHERE guild_id = ? ORDER BY finished_at", (guild_id,))
        return [dict(r) | {"standings": json.loads(r["standings"])} for r in rows]

    # --- ratings, leaderboards, stats, history (written by record_move: migrations 008) -----------------
    async def leaderboard(self, guild_id: int, game: str, limit: int = 10,
                          around_user: int | None = None) -> Leaderboard:
        """The server's best rated players of ``game`` (index ``ratings_board``), and ``around_user``'s own row
        with its rank (a count of the ratings above theirs on the same index)."""
        found = await self._fetch(
            "SELECT user_id, name, rating, games, wins FROM ratings WHERE guild_id = ? AND game = ?"
            " AND rating IS NOT NULL ORDER BY rating DESC, user_id DESC LIMIT ?", (guild_id, game, limit))
        rows: list[Standing] = []
        for i, r in enumerate(found):
            rank = rows[-1].rank if rows and found[i - 1]["rating"] == r["rating"] else i + 1
            rows.append(Standing(rank, r["user_id"], r["name"], round(r["rating"]), r["games"], r["wins"]))
        players = await self._fetchval(
            "SELECT count(*) FROM ratings WHERE guild_id = ? AND game = ? AND rating IS NOT NULL", (guild_id, game))
        own = next((row for row in rows if row.user_id == around_user), None)
        if own is None and around_user is not None:
            mine = await self._fetchrow(
                "SELECT user_id, name, rating, games, wins FROM ratings WHERE guild_id = ? AND user_id = ?"
                " AND game = ? AND rating IS NOT NULL", (guild_id, around_user, game))
            if mine is not None:
                above = await self._fetchval(
                    "SELECT count(*) FROM ratings WHERE guild_id = ? AND game = ? AND rating > ?",
                    (guild_id, game, mine["rating"]))
                own = Standing(above + 1, mine["user_id"], mine["name"], round(mine["rating"]), mine["games"],
                               mine["wins"])
        return Leaderboard(game, rows, own, players)

    async def stats(self, guild_id: int, user_id: int, trend: int = 20) -> list[GameStats]:
        """``user_id``'s figures per game in the server (primary key of ``ratings``) with the ratings after
        their latest ``trend`` rated games (index ``result_players_user``), games in name order."""
        found = await self._fetch(
            "SELECT game, rating, games, wins, unrated, best_score FROM ratings WHERE guild_id = ? AND user_id = ?"
            " ORDER BY game", (guild_id, user_id))
        out = []
        for r in found:
            points: list[tuple[float, int]] = []
            if r["games"]:
                latest = await self._fetch(
                    "SELECT finished_at, rating FROM result_players WHERE guild_id = ? AND user_id = ? AND game = ?"
                    " AND rated = 1 ORDER BY finished_at DESC LIMIT ?", (guild_id, user_id, r["game"], trend))
                points = [(p["finished_at"], round(p["rating"])) for p in reversed(latest)]
            out.append(GameStats(r["game"], r["games"], r["wins"], r["unrated"],
                                 round(r["rating"]) if r["rating"] is not None else None, r["best_score"], points))
        return out

    async def history(self, guild_id: int, channel_id: int | None = None, limit: int = 10) -> list[FinishedGame]:
        """The latest finished games of the server, or of one of its channels, newest first (indexes
        ``results_guild_finished``, ``results_channel_finished``)."""
        where, args = ("r.channel_id = ? AND r.guild_id = ?", (channel_id, guild_id)) if channel_id is not None \
            else ("r.guild_id = ?", (guild_id,))
        rows = await self._fetch(
            "SELECT r.table_id, r.guild_id, r.channel_id, t.message_id, r.game, r.finished_at, r.standings"
            f" FROM results r JOIN tables t ON t.id = r.table_id WHERE {where} ORDER BY r.finished_at DESC LIMIT ?",
            (*args, limit))
        return [FinishedGame.from_row(r) for r in rows]

    async def result_by_short_id(self, guild_id: int, short: str) -> FinishedGame | None:
        """The finished game of the server with that short id (``short_id``), or None (also for another
        server's game)."""
        table_id = table_id_of(short)
        if table_id is None:
            return None
        row = await self._fetchrow(
            "SELECT r.table_id, r.guild_id, r.channel_id, t.message_id, r.game, r.finished_at, r.standings"
            " FROM results r JOIN tables t ON t.id = r.table_id WHERE r.table_id = ? AND r.guild_id = ?",
            (table_id, guild_id))
        return FinishedGame.from_row(row) if row else None

    async def result_players(self, table_id: int) -> list[dict]:
        """The people's rows of a finished game, by seat."""
        rows = await self._fetch("SELECT * FROM result_players WHERE table_id = ? ORDER BY seat", (table_id,))
        return [dict(r) for r in rows]
