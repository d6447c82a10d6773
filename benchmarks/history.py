"""Leaderboard and stats queries with 1,000,000 stored results in one server (issue 18: under 50 ms of database
time on SQLite and on PostgreSQL).

    python -m benchmarks.history            # 1,000,000 results (a few minutes: most of it is the bulk load)
    python -m benchmarks.history --quick    # 100,000 results (what `python -m benchmarks` runs)
    python -m benchmarks.history --results N --sqlite-only

One server, 20,000 people (a few play a lot: the busiest holds about 4% of all seats), five games, 50
channels, 2-4 people per game; each result has its table, its standings and a row per person
(result_players), and each person a rating per game they played (ratings). The rows are loaded in bulk
(SQLite: executemany in one transaction; PostgreSQL: COPY, then VACUUM ANALYZE as autovacuum would): their
figures are made up, but they have the shape the bot writes. Then each query is timed through the store's own
methods (one statement's round trip to aiosqlite's thread or to the server, plus decoding: an upper bound on
its database time), p50 and p99 over the repeats, against a primary-key lookup of a table (``get_table``)
measured in the same run.

PostgreSQL: ``GEOTABLE_TEST_POSTGRES`` (a URL where schemas may be created) or a throwaway server started as the
tests do (tests/postgres.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import tempfile
import time
from pathlib import Path

from benchmarks import percentiles
from bot.database import open_store
from bot.ratings import displayed
from bot.store import short_id

GUILD = 424242424242424242
GAMES = ("geek_out", "geodeto", "geomancy", "geoneo", "globe_twister")
PEOPLE = 20_000
CHANNELS = 50
TARGET_MS = 50.0
REPEATS = 300


def person(rnd: random.Random) -> int:
    """A user id; skewed, so some people play a great deal (r**3: the first ~4% of draws hit the busiest)."""
    return 10**17 + int(PEOPLE * rnd.random() ** 3)


def generate(results: int, seed: int = 18):
    """(tables, results, result_players, ratings) rows, tables as in migrations 001-008 (columns in order)."""
    rnd = random.Random(seed)
    tables, finished, seats = [], [], []
    best: dict[tuple[int, str], list] = {}
    t0 = 1.7e9
    for table_id in range(1, results + 1):
        game = GAMES[table_id % len(GAMES)]
        channel = 9 * 10**17 + table_id % CHANNELS
        people = []
        while len(people) < rnd.choice((2, 2, 3, 4)):
            user = person(rnd)
            if user not in people:
                people.append(user)
        players = [{"id": u, "name": f"user{u % 100000}"} for u in people]
        at = t0 + table_id * 30.0
        order = list(range(len(people)))
        rnd.shuffle(order)
        scores = [rnd.randrange(0, 60) for _ in people]
        standings = {"scores": scores, "ranking": [[s] for s in order], "players": players, "detail": {}}
        tables.append((table_id, GUILD, channel, game, "{}", table_id, "finished", json.dumps(players), people[0],
                       None, 10, 8 * 10**17 + table_id, "", None, at - 600, at, None, 10, 1))
        finished.append((table_id, GUILD, game, json.dumps(standings), at, channel))
        for place, seat in enumerate(order, 1):
            user = people[seat]
            mu, sigma = rnd.uniform(15, 35), rnd.uniform(1, 8)
            seats.append((table_id, seat, GUILD, user, game, place, float(scores[seat]), int(place == 1), 1,
                          displayed(mu, sigma), at))
            entry = best.setdefault((user, game), [0, 0, 0.0])
            entry[0] += 1
            entry[1] += place == 1
            entry[2] = max(entry[2], scores[seat])
    ratings = []
    for (user, game), (games, wins, top) in best.items():
        mu, sigma = rnd.uniform(15, 35), rnd.uniform(1, 8)
        ratings.append((GUILD, user, game, f"user{user % 100000}", mu, sigma, displayed(mu, sigma), games, wins, 0,
                        top, t0))
    return tables, finished, seats, ratings


COLUMNS = {
    "tables": ("id", "guild_id", "channel_id", "game", "options", "seed", "status", "players", "host_id", "state",
               "version", "message_id", "last_move", "end_reason", "created_at", "updated_at", "ping_message_id",
               "shown_version", "takeover"),
    "results": ("table_id", "guild_id", "game", "standings", "finished_at", "channel_id"),
    "result_players": ("table_id", "seat", "guild_id", "user_id", "game", "place", "score", "won", "rated",
                       "rating", "finished_at"),
    "ratings": ("guild_id", "user_id", "game", "name", "mu", "sigma", "rating", "games", "wins", "unrated",
                "best_score", "updated_at"),
}


def load_sqlite(path: Path, data) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    db.execute("BEGIN")
    for name, rows in zip(COLUMNS, data, strict=True):
        columns = COLUMNS[name]
        db.executemany(f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                       rows)
    db.execute("COMMIT")
    db.close()


async def load_postgres(store, data) -> None:
    async with store.pool.acquire() as con:
        for name, rows in zip(COLUMNS, data, strict=True):
            await con.copy_records_to_table(name, records=rows, columns=list(COLUMNS[name]))
        await con.execute("VACUUM ANALYZE")  # what autovacuum does after bulk inserts (PostgreSQL 13+)


async def measure(store, data) -> list[tuple[str, float, float]]:
    """(query, p50 ms, p99 ms) for each query, the baseline first."""
    tables, _, seats, ratings = data
    rnd = random.Random(7)
    counts: dict[int, int] = {}
    for row in seats:
        counts[row[3]] = counts.get(row[3], 0) + 1
    heaviest = max(counts, key=counts.get)
    users = [r[1] for r in ratings]
    ids = [t[0] for t in tables]

    def timed(call):
        return percentiles(call, REPEATS)

    figures = [("baseline: a table by primary key", *await timed(lambda: store.get_table(rnd.choice(ids))))]
    figures.append(("/leaderboard: top 10 + the asker's row", *await timed(
        lambda: store.leaderboard(GUILD, rnd.choice(GAMES), 10, around_user=rnd.choice(users)))))
    figures.append(("/leaderboard of the busiest player", *await timed(
        lambda: store.leaderboard(GUILD, rnd.choice(GAMES), 10, around_user=heaviest))))
    figures.append(("/stats: a random player, 5 games + trends", *await timed(
        lambda: store.stats(GUILD, rnd.choice(users)))))
    figures.append((f"/stats: the busiest ({counts[heaviest]:,} games)", *await timed(
        lambda: store.stats(GUILD, heaviest))))
    figures.append(("/history of the server (10)", *await timed(lambda: store.history(GUILD))))
    figures.append(("/history of a channel (10)", *await timed(
        lambda: store.history(GUILD, 9 * 10**17 + rnd.randrange(CHANNELS)))))
    figures.append(("a game by its short id", *await timed(
        lambda: store.result_by_short_id(GUILD, short_id(rnd.choice(ids))))))
    return figures


def report(backend: str, figures, rows: int, load_s: float) -> bool:
    print(f"{backend}: {rows:,} results in one server, loaded in {load_s:.0f} s")
    print(f"  {'query':45} {'p50 ms':>8} {'p99 ms':>8} {'p50/base':>9}   target: p99 < {TARGET_MS:g} ms")
    base = figures[0][1]
    ok = True
    for name, p50, p99 in figures:
        verdict = "" if name.startswith("baseline") else ("ok" if p99 < TARGET_MS else "OVER")
        ok &= verdict != "OVER"
        print(f"  {name:45} {p50:8.2f} {p99:8.2f} {p50 / base:9.1f}   {verdict}")
    return ok


async def run_sqlite(folder: Path, data, results: int) -> bool:
    path = folder / "history.db"
    store = await open_store(path)
    await store.close()
    start = time.perf_counter()
    load_sqlite(path, data)
    load_s = time.perf_counter() - start
    store = await open_store(path)
    try:
        return report("SQLite", await measure(store, data), results, load_s)
    finally:
        await store.close()


async def run_postgres(data, results: int) -> bool:
    from tests.postgres import PostgresServer

    server = PostgresServer.from_env_or_start()
    try:
        async with server.scratch() as url:
            store = await open_store(url)
            try:
                start = time.perf_counter()
                await load_postgres(store, data)
                load_s = time.perf_counter() - start
                return report("PostgreSQL", await measure(store, data), results, load_s)
            finally:
                await store.close()
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.history", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100,000 results instead of 1,000,000")
    parser.add_argument("--results", type=int, help="how many results to store")
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args(argv)
    results = args.results or (100_000 if args.quick else 1_000_000)
    start = time.perf_counter()
    data = generate(results)
    print(f"generated {results:,} results, {len(data[2]):,} player rows, {len(data[3]):,} ratings "
          f"in {time.perf_counter() - start:.0f} s")
    with tempfile.TemporaryDirectory() as tmp:
        ok = asyncio.run(run_sqlite(Path(tmp), data, results))
    if not args.sqlite_only:
        ok &= asyncio.run(run_postgres(data, results))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
