"""/daily show:board with 1,000 members' results of the day in one server (issue 28: p99 under 50 ms of database
time), on SQLite and PostgreSQL.

    python -m benchmarks.daily                 # both backends
    python -m benchmarks.daily --sqlite-only

The server has 1,000 members who played every one of the last 90 days (90,000 results, today's among them),
beside 200 other servers of 100 members and 30 days each (600,000 more rows), loaded in bulk in the shape the
store writes (migration 017). Then the board's two statements (``daily_board``: the day's best 25;
``daily_count``: how many played and solved) are timed through the store's own methods, p50 and p99 over the
repeats, against a primary-key lookup of one result (``daily_result``) measured in the same run; and a member's
finishing step (``finish_daily``: the streak read from the day before in the same statement) for information.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import tempfile
import time
from pathlib import Path

from benchmarks import percentiles
from bot.database import open_store
from bot.store.daily import shift

GUILD = 424242424242424242
TODAY = "2026-11-29"
MEMBERS, DAYS = 1000, 90
OTHER_GUILDS, OTHER_MEMBERS, OTHER_DAYS = 200, 100, 30
TARGET_MS = 50.0
REPEATS = 300
COLUMNS = ("guild_id", "day", "user_id", "log", "version", "finished", "solved", "moves", "par", "squares", "streak",
           "shared", "started_at", "finished_at")


def generate(seed: int = 28) -> list[tuple]:
    rnd = random.Random(seed)
    rows = []

    def add(guild: int, members: int, days: int) -> None:
        streaks: dict[int, int] = {}
        for back in range(days - 1, -1, -1):
            day = shift(TODAY, -back)
            for m in range(members):
                user = 10**17 + m
                solved = rnd.random() < 0.85
                streaks[user] = streaks.get(user, 0) + 1 if solved else 0
                par = rnd.randint(4, 6)
                moves = par + rnd.choice((0, 0, 1, 2, 3)) if solved else rnd.randint(6, 20)
                log = '["c0","kg1","lock"]'
                rows.append((guild, day, user, log, 3, 1, int(solved), moves, par, "🟨🟨🟩", streaks[user],
                             int(rnd.random() < 0.3), 1.7e9, 1.7e9 + rnd.random() * 86400))

    add(GUILD, MEMBERS, DAYS)
    for g in range(OTHER_GUILDS):
        add(GUILD + 1 + g, OTHER_MEMBERS, OTHER_DAYS)
    return rows


def load_sqlite(path: Path, rows) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    db.execute("BEGIN")
    db.executemany(f"INSERT INTO daily_results ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
                   rows)
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.close()


async def load_postgres(store, rows) -> None:
    async with store.pool.acquire() as con:
        await con.copy_records_to_table("daily_results", records=rows, columns=list(COLUMNS))
        await con.execute("VACUUM ANALYZE")


async def measure(store) -> list[tuple[str, float, float]]:
    rnd = random.Random(7)

    def timed(call):
        return percentiles(call, REPEATS)

    def member() -> int:
        return 10**17 + rnd.randrange(MEMBERS)

    figures = [("baseline: one result by primary key", *await timed(
        lambda: store.daily_result(GUILD, TODAY, member())))]
    board = await store.daily_board(GUILD, TODAY)
    assert len(board) == 25 and board[0].solved, "the board reads the day's results"
    figures.append(("/daily board: the day's best 25", *await timed(lambda: store.daily_board(GUILD, TODAY))))
    figures.append(("/daily board: played and solved", *await timed(lambda: store.daily_count(GUILD, TODAY))))

    async def board_whole():
        await store.daily_board(GUILD, TODAY)
        await store.daily_count(GUILD, TODAY)
    figures.append(("/daily board: both statements", *await timed(board_whole)))
    tomorrow, users = shift(TODAY, 1), iter(range(10**17, 10**17 + MEMBERS))

    async def finish():
        user = next(users, None)
        if user is None:
            return
        result = await store.start_daily(GUILD, tomorrow, user, 5)
        await store.finish_daily(result, ["lock"], solved=True, moves=5, grid="🟩")
    figures.append(("(info) start + finish with its streak", *await timed(finish)))
    return figures


def report(backend: str, figures, rows: int, load_s: float) -> bool:
    print(f"{backend}: {rows:,} daily results ({MEMBERS:,} members today in the server), loaded in {load_s:.0f} s")
    print(f"  {'query':45} {'p50 ms':>8} {'p99 ms':>8} {'p50/base':>9}   target: p99 < {TARGET_MS:g} ms")
    base, ok = figures[0][1], True
    for name, p50, p99 in figures:
        verdict = "" if name.startswith(("baseline", "(info)")) else ("ok" if p99 < TARGET_MS else "OVER")
        ok &= verdict != "OVER"
        print(f"  {name:45} {p50:8.2f} {p99:8.2f} {p50 / base:9.1f}   {verdict}")
    return ok


async def run_sqlite(folder: Path, rows) -> bool:
    path = folder / "daily.db"
    store = await open_store(path)
    await store.close()
    start = time.perf_counter()
    load_sqlite(path, rows)
    load_s = time.perf_counter() - start
    store = await open_store(path)
    try:
        return report("SQLite", await measure(store), len(rows), load_s)
    finally:
        await store.close()


async def run_postgres(rows) -> bool:
    from tests.postgres import PostgresServer

    server = PostgresServer.from_env_or_start()
    try:
        async with server.scratch() as url:
            store = await open_store(url)
            try:
                start = time.perf_counter()
                await load_postgres(store, rows)
                load_s = time.perf_counter() - start
                return report("PostgreSQL", await measure(store), len(rows), load_s)
            finally:
                await store.close()
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.daily", description=__doc__.splitlines()[0])
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args(argv)
    rows = generate()
    with tempfile.TemporaryDirectory() as tmp:
        ok = asyncio.run(run_sqlite(Path(tmp), rows))
    if not args.sqlite_only:
        ok &= asyncio.run(run_postgres(rows))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
