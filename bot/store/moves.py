"""A move committed: state, version, action log, deadlines and, at a game's end, its result and ratings, in one
transaction (``commit_move``), written once for both databases so no migration re-creates it; ``record_move``
computes the ratings from the stored ones and tries again when another game of its players was rated first."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from bot.ratings import Plan, Skill
from bot.store.core import Steps
from bot.store.errors import StaleRatings, StaleVersion
from bot.store.waiting import waiting_steps

RATING_ATTEMPTS = 20
"""How often ``record_move`` recomputes a game's ratings when other games of its players keep ending first."""


class Moves:
    """Part of :class:`bot.store.base.Store` (statements through the primitives of bot/store/core.py)."""

    async def record_move(
        self, *, table_id: int, version: int, state: str, status: str, ply: int, seat: int, action: str,
        turn_due: float | None, standings: dict | None, last_move: str = "", timer_due: float | None = None,
        players: list[dict] | None = None, ratings: Plan | None = None, remind_due: float | None = None,
        waiting: Sequence[int] | None = None,
    ) -> None:
        """``commit_move`` with the ratings of a game's end (``ratings``: bot/ratings.py's plan) computed from
        its people's stored ratings; when another game of one of them was rated between the read and the
        write, nothing is written and the ratings are read and computed again."""
        for _attempt in range(RATING_ATTEMPTS):
            rows, season = None, None
            if standings is not None and ratings is not None:
                skills, running = await self.ladders(table_id, ratings.users) if ratings.rated else ({}, None)
                rows = ratings.rows(skills)
                if running is not None:  # the season's ladder: the same model from the season's own ratings
                    season = (running[0], [r for r in ratings.rows(running[1]) if r["rated"]])
            try:
                await self.commit_move(table_id=table_id, version=version, state=state, status=status, ply=ply,
                                       seat=seat, action=action, turn_due=turn_due, standings=standings,
                                       last_move=last_move, timer_due=timer_due, players=players, rows=rows,
                                       remind_due=remind_due, waiting=waiting, season=season)
                return
            except StaleRatings:
                continue
        raise StaleRatings()

    async def commit_move(
        self, *, table_id: int, version: int, state: str, status: str, ply: int, seat: int, action: str,
        turn_due: float | None, standings: dict | None, last_move: str = "", timer_due: float | None = None,
        players: list[dict] | None = None, rows: list[dict] | None = None, remind_due: float | None = None,
        waiting: Sequence[int] | None = None, season: tuple[int, list[dict]] | None = None,
    ) -> None:
        """Commits one accepted move in one transaction, before its board is shown: the table's state, version
        and last move (and the seating when it changed: ``players``, a seat handed to a computer), the action
        log, the turn deadline (None: none), the game timer (None: unchanged, 0: none), the turn-based
        reminder (``remind_due``: None unchanged, 0 none), the people the table waits for after it
        (``waiting``: their ids; None: unchanged; bot/store/waiting.py) and, at the end
        (``standings``), the result with its people's rows and ratings (``rows``: ``Plan.rows``) and, when a
        season of the server runs (``season``: its id and its rated rows, ``Plan.rows`` of the season's ratings),
        the season's: the result carries the season's id, the season counts the game, its ladder is upserted.

        Raises :class:`StaleVersion` unless the table is at ``version``: the first statement is a
        compare-and-set on it (on PostgreSQL a concurrent writer's update makes it wait for the row, then
        match nothing). Raises :class:`StaleRatings` when a rated row's stored count of rated games is not one
        less than the row's (another game of theirs was rated since they were read; on PostgreSQL also judged
        on the row as committed while the upsert waited for it), the same for the season's rows, and when the
        season running now is not ``season`` (one started or ended since the read). Either way nothing is
        written. On SQLite the whole transaction is one trip to the database's thread (bot/store/core.py,
        ``Steps``)."""
        await self._run(_commit(table_id, version, state, status, ply, seat, action, turn_due, standings,
                                last_move, timer_due, players, rows, remind_due, waiting, season))

    async def skills(self, table_id: int, users: Sequence[int]) -> dict[int, Skill]:
        """The stored ratings of ``users`` for the game of ``table_id`` in its server (those who have one)."""
        if not users:
            return {}
        marks = ", ".join("?" * len(users))
        rows = await self._fetch(
            "SELECT r.user_id, r.mu, r.sigma, r.games FROM tables t JOIN ratings r ON r.guild_id = t.guild_id"
            f" AND r.game = t.game WHERE t.id = ? AND r.user_id IN ({marks})", (table_id, *users))
        return {r["user_id"]: Skill(r["mu"], r["sigma"], r["games"]) for r in rows}

    async def ladders(self, table_id: int, users: Sequence[int],
                      ) -> tuple[dict[int, Skill], tuple[int, dict[int, Skill]] | None]:
        """``skills`` and, when a season of the table's server runs now, its id and ``users``' ratings in it: one
        statement (a server without a season costs no extra query; bot/store/seasons.py)."""
        marks = ", ".join("?" * len(users))
        rows = await self._fetch(
            "SELECT r.user_id, r.mu, r.sigma, r.games, 0 AS season FROM tables t JOIN ratings r"
            f" ON r.guild_id = t.guild_id AND r.game = t.game WHERE t.id = ? AND r.user_id IN ({marks}) UNION ALL"
            " SELECT sr.user_id, sr.mu, sr.sigma, sr.games, s.id AS season FROM tables t JOIN seasons s"
            " ON s.guild_id = t.guild_id AND s.ended_at IS NULL AND s.ends_at > ? LEFT JOIN season_ratings sr"
            f" ON sr.season_id = s.id AND sr.game = t.game AND sr.user_id IN ({marks}) WHERE t.id = ?",
            (table_id, *users, time.time(), *users, table_id))
        skills = {r["user_id"]: Skill(r["mu"], r["sigma"], r["games"]) for r in rows if not r["season"]}
        running = {r["season"] for r in rows if r["season"]}
        if not running:
            return skills, None
        return skills, (running.pop(), {r["user_id"]: Skill(r["mu"], r["sigma"], r["games"]) for r in rows
                                         if r["season"] and r["user_id"] is not None})


def _commit(table_id: int, version: int, state: str, status: str, ply: int, seat: int, action: str,
            turn_due: float | None, standings: dict | None, last_move: str, timer_due: float | None,
            players: list[dict] | None, rows: list[dict] | None, remind_due: float | None = None,
            waiting: Sequence[int] | None = None, season: tuple[int, list[dict]] | None = None) -> Steps:
    """The statements of ``Moves.commit_move``."""
    now = time.time()
    changed = yield ("fetch",
                     "UPDATE tables SET state = ?, version = version + 1, status = ?, updated_at = ?, last_move = ?,"
                     " players = COALESCE(?, players) WHERE id = ? AND version = ? RETURNING guild_id, channel_id,"
                     " game", (state, status, now, last_move, json.dumps(players) if players is not None else None,
                               table_id, version))
    if not changed:
        raise StaleVersion()
    table = changed[0]
    yield ("execute", "INSERT INTO actions (table_id, ply, seat, action, at) VALUES (?, ?, ?, ?, ?)",
           (table_id, ply, seat, action, now))
    due, gone = [], []
    (due if turn_due is not None else gone).append(("turn", turn_due))
    if timer_due is not None:
        (due if timer_due > 0 else gone).append(("timer", timer_due))
    if remind_due is not None:  # a turn-based table's reminder: written with the turn it belongs to
        (due if remind_due > 0 else gone).append(("remind", remind_due))
    if gone:
        yield ("execute", f"DELETE FROM deadlines WHERE table_id = ? AND kind IN ({', '.join('?' * len(gone))})",
               (table_id, *(kind for kind, _ in gone)))
    if due:
        yield ("execute",
               f"INSERT INTO deadlines (table_id, kind, due_at) VALUES {', '.join(['(?, ?, ?)'] * len(due))}"
               " ON CONFLICT (table_id, kind) DO UPDATE SET due_at = excluded.due_at",
               tuple(value for kind, at in due for value in (table_id, kind, at)))
    if waiting is not None or standings is not None:  # a game's end waits for nobody
        yield from waiting_steps(table_id, table["guild_id"], () if standings is not None else waiting)
    if standings is None:
        return
    yield ("execute", "INSERT INTO results (table_id, guild_id, game, standings, finished_at, channel_id, season_id)"
           " VALUES (?, ?, ?, ?, ?, ?, ?)",
           (table_id, table["guild_id"], table["game"], json.dumps(standings), now, table["channel_id"],
            season[0] if season else None))
    if rows:
        yield from _rate(table_id, table["guild_id"], table["game"], rows, now, season)


def _rate(table_id: int, guild_id: int, game: str, rows: list[dict], now: float,
          season: tuple[int, list[dict]] | None = None) -> Steps:
    """The people's rows of a finished game and their ratings (``_commit``), and the season's."""
    rated = [r for r in rows if r["rated"]]
    if rated:
        # the stored counts, and the server's season running now with its counts (in the same statement: a
        # server without a season costs nothing more)
        marks = ", ".join("?" * len(rated))
        found = yield (
            "fetch", f"SELECT user_id, games, 0 AS season FROM ratings WHERE guild_id = ? AND game = ? AND user_id IN"
            f" ({marks}) UNION ALL SELECT sr.user_id, sr.games, s.id AS season FROM seasons s LEFT JOIN"
            f" season_ratings sr ON sr.season_id = s.id AND sr.game = ? AND sr.user_id IN ({marks})"
            " WHERE s.guild_id = ? AND s.ended_at IS NULL AND s.ends_at > ?",
            (guild_id, game, *(r["user_id"] for r in rated), game, *(r["user_id"] for r in rated), guild_id, now))
        stored = {r["user_id"]: r["games"] for r in found if not r["season"]}
        if any(stored.get(r["user_id"], 0) != r["games"] - 1 for r in rated):
            raise StaleRatings()
        running = {r["season"] for r in found if r["season"]}
        if running != ({season[0]} if season else set()):
            raise StaleRatings()  # a season started or ended since the ratings were read
        if season:
            yield from _rate_season(season, game, {r["user_id"]: r["games"] for r in found
                                                   if r["season"] and r["user_id"] is not None}, now)
    yield ("execute",
           "INSERT INTO result_players (table_id, seat, guild_id, user_id, game, place, score, won, rated, rating,"
           f" finished_at) VALUES {', '.join(['(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'] * len(rows))}",
           tuple(v for r in rows for v in (table_id, r["seat"], guild_id, r["user_id"], game, r["place"], r["score"],
                                           r["won"], r["rated"], r["rating"], now)))
    # a rated row is written only if the stored count is still one less, judged on the row as committed
    # (PostgreSQL's INSERT ... ON CONFLICT re-reads a row another transaction changed while this one waited)
    written = yield (
        "execute",
        "INSERT INTO ratings (guild_id, user_id, game, name, mu, sigma, rating, games, wins, unrated, best_score,"
        f" updated_at) VALUES {', '.join(['(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'] * len(rows))}"
        " ON CONFLICT (guild_id, user_id, game) DO UPDATE SET name = excluded.name,"
        " mu = CASE WHEN excluded.rating IS NULL THEN ratings.mu ELSE excluded.mu END,"
        " sigma = CASE WHEN excluded.rating IS NULL THEN ratings.sigma ELSE excluded.sigma END,"
        " rating = CASE WHEN excluded.rating IS NULL THEN ratings.rating ELSE excluded.rating END,"
        " games = CASE WHEN excluded.rating IS NULL THEN ratings.games ELSE excluded.games END,"
        " wins = ratings.wins + excluded.wins, unrated = ratings.unrated + excluded.unrated,"
        " best_score = CASE WHEN ratings.best_score IS NULL OR excluded.best_score > ratings.best_score"
        " THEN excluded.best_score ELSE ratings.best_score END, updated_at = excluded.updated_at"
        " WHERE excluded.rating IS NULL OR ratings.games = excluded.games - 1",
        tuple(v for r in rows for v in (guild_id, r["user_id"], game, r["name"], r["mu"], r["sigma"], r["rating"],
                                        r["games"], r["won"] * r["rated"], 1 - r["rated"], r["score"], now)))
    if written != len(rows):
        raise StaleRatings()


def _rate_season(season: tuple[int, list[dict]], game: str, stored: dict[int, int], now: float) -> Steps:
    """The season's part of a rated game's end (``_rate``): the season counts it, on its row (so on PostgreSQL
    the season's end, which updates that row too, waits for this game or this game for it, and then finds it
    ended: ``StaleRatings``, read again), and its ladder's rows, with the same stale-count protection."""
    season_id, rows = season
    if any(stored.get(r["user_id"], 0) != r["games"] - 1 for r in rows):
        raise StaleRatings()
    if (yield ("execute", "UPDATE seasons SET games = games + 1 WHERE id = ? AND ended_at IS NULL AND ends_at > ?",
               (season_id, now))) != 1:
        raise StaleRatings()
    written = yield (
        "execute",
        "INSERT INTO season_ratings (season_id, game, user_id, name, mu, sigma, rating, games, wins, updated_at)"
        f" VALUES {', '.join(['(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'] * len(rows))}"
        " ON CONFLICT (season_id, game, user_id) DO UPDATE SET name = excluded.name, mu = excluded.mu,"
        " sigma = excluded.sigma, rating = excluded.rating, games = excluded.games,"
        " wins = season_ratings.wins + excluded.wins, updated_at = excluded.updated_at"
        " WHERE season_ratings.games = excluded.games - 1",
        tuple(v for r in rows for v in (season_id, game, r["user_id"], r["name"], r["mu"], r["sigma"], r["rating"],
                                        r["games"], r["won"], now)))
    if written != len(rows):
        raise StaleRatings()
