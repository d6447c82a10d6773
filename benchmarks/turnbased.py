"""Turn-based play at scale (issue 27): 10,000 open turn-based tables in one server over 1,000 members, on SQLite
and on PostgreSQL.

    python -m benchmarks.turnbased            # 10,000 tables, 1,000 members
    python -m benchmarks.turnbased --quick    # 2,000 tables, 200 members (what `python -m benchmarks` runs)
    python -m benchmarks.turnbased --tables N --members M --sqlite-only

Each table is a real game of one of the five games (2-4 members, a few moves played: the state, the action log,
the turn deadline 1-7 days off and the rows of who is to act are what the bot writes; the games come from a
few hundred played templates, seated with different members), loaded in bulk (SQLite: executemany in one
transaction; PostgreSQL: COPY, then VACUUM ANALYZE). Figures, each against a baseline of the same run:

- ``/turns`` (``Store.turns``) for a random member: p50 and p99 through the store (one statement's round trip
  plus decoding: an upper bound on its database time), against a table by primary key. Target: p99 < 50 ms.
- the deadline loop's pass (``TableService.fire_due`` + ``next_deadline``, nothing due) with every table's
  far-off deadline, against the same pass with only 10 open tables, taken in turns. Target: under 2 (work in
  proportion to what is due, not to what is open: a scan would make it about a thousand); the query plans of
  its statements and of /turns are printed.
- the memory of a bot process's table service after it touched every idle table once (``TableService.get``,
  which loads, decodes and replays a table's recent moves), in a child process: RSS growth with the service's
  bound (``Defaults.cache_max``, ``cache_idle``) against the same without a bound. Target: growth < 50 MB.

PostgreSQL: ``GEOTABLE_TEST_POSTGRES`` (a URL where schemas may be created) or a throwaway server started as the
tests do (tests/postgres.py).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import percentiles
from bot.database import open_store
from bot.table.model import Defaults, people_to_act
from bot.table.service import TableService
from games import get_engine

GUILD = 424242424242424242
GAMES = ("geek_out", "geodeto", "geomancy", "geoneo", "globe_twister")
TEMPLATES = 60
"""Played games per game: the tables are these, seated with different members."""
TARGET_MS = 50.0
TARGET_MB = 50.0
PASS_RATIO = 2.0
"""The pass with every table's deadline against the pass with 10: an index's depth grows with the log of what is
open (one more level of its B-tree), a scan would grow with what is open (a thousand times as much)."""
REPEATS = 300
NOW = time.time()

COLUMNS = {
    "tables": ("id", "guild_id", "channel_id", "game", "options", "seed", "status", "players", "host_id", "state",
               "version", "message_id", "last_move", "end_reason", "created_at", "updated_at", "ping_message_id",
               "shown_version", "takeover"),
    "actions": ("table_id", "ply", "seat", "action", "at"),
    "deadlines": ("table_id", "kind", "due_at"),
    "waiting": ("table_id", "user_id", "guild_id"),
}


def templates(seed: int = 27) -> list[tuple[str, int, int, str, list[tuple[int, str]], list[int]]]:
    """(game, seats, seed, state, actions, seats to act) of games played a few random moves in."""
    rnd = random.Random(seed)
    out = []
    for game in GAMES:
        engine = get_engine(game)
        for n in range(TEMPLATES):
            seats = rnd.choice((2, 2, 3, 4))
            state = engine.new(seats, {}, n)
            actions = []
            for _ in range(rnd.randrange(0, 10)):
                to_act = sorted(engine.to_act(state))
                if not to_act:
                    break
                seat = rnd.choice(to_act)
                key = rnd.choice(engine.legal_actions(state, seat)).key
                after, _ = engine.apply(state, seat, key)
                if engine.is_over(after) or not engine.to_act(after):
                    break
                actions.append((seat, key))
                state = after
            if engine.to_act(state):
                out.append((game, seats, n, engine.encode(state), actions, sorted(engine.to_act(state))))
    return out


def generate(tables: int, members: int, seed: int = 27):
    """The rows of ``tables`` open tables over ``members`` members, by table: (tables, actions, deadlines,
    waiting)."""
    rnd = random.Random(seed)
    games = templates()
    people = [10**17 + n for n in range(members)]
    rows = {name: [] for name in COLUMNS}
    for table_id in range(1, tables + 1):
        game, seats, game_seed, state, actions, _ = rnd.choice(games)
        seated = rnd.sample(people, seats)
        players = [{"id": u, "name": f"member{u % 10**5}"} for u in seated]
        at = NOW - rnd.uniform(3600, 7 * 86400)
        version = 1 + len(actions)
        rows["tables"].append((table_id, GUILD, 10**18 + table_id, game, "{}", game_seed, "playing",
                               json.dumps(players), seated[0], state, version, 9 * 10**17 + table_id, "", None,
                               at, at, None, version, 1))
        rows["actions"] += [(table_id, ply, seat, key, at) for ply, (seat, key) in enumerate(actions)]
        rows["deadlines"].append((table_id, "turn", NOW + rnd.uniform(86400, 7 * 86400)))
        engine = get_engine(game)
        rows["waiting"] += [(table_id, user, GUILD) for user in people_to_act(engine, engine.decode(state), players)]
    return rows, people


def load_sqlite(path: Path, rows) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    db.execute("BEGIN")
    for name, columns in COLUMNS.items():
        db.executemany(f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                       rows[name])
    db.execute("COMMIT")
    db.execute("ANALYZE")
    db.close()


async def load_postgres(store, rows) -> None:
    async with store.pool.acquire() as con:
        for name, columns in COLUMNS.items():
            await con.copy_records_to_table(name, records=rows[name], columns=list(columns))
        await con.execute("VACUUM ANALYZE")


class Recorder:
    """The statements a store runs (``_fetch``), to ask the database for their plans."""

    def __init__(self, store):
        self.store, self.seen = store, []
        fetch = store._fetch

        async def recorded(sql, args):
            self.seen.append((sql, tuple(args)))
            return await fetch(sql, args)

        store._fetch = recorded

    async def plans(self) -> list[tuple[str, list[str]]]:
        out, done = [], set()
        for sql, args in self.seen:
            if sql in done:
                continue
            done.add(sql)
            if self.store.dialect == "sqlite":
                rows = await self.store.db.execute_fetchall(f"EXPLAIN QUERY PLAN {sql}", args)
                out.append((sql, [r[3] for r in rows]))
            else:
                from bot.store.postgres import numbered

                async with self.store.pool.acquire() as con:
                    rows = await con.fetch(f"EXPLAIN {numbered(sql)}", *args)
                out.append((sql, [r[0] for r in rows]))
        return out


async def deadline_passes(small_store, store, repeats: int = REPEATS) -> list[tuple[float, float]]:
    """p50 and p99 in ms of one pass of the deadline loop with nothing due (as bot/loops.py runs it), on each
    store, the two taken in turns (so a busy moment of the machine weighs on both alike)."""
    services = [TableService(small_store), TableService(store)]

    async def one_pass(service):
        assert await service.fire_due() == []
        await service.next_deadline()

    samples = [[], []]
    for n in range(repeats + 20):
        for which in (0, 1) if n % 2 else (1, 0):
            start = time.perf_counter()
            await one_pass(services[which])
            if n >= 20:
                samples[which].append((time.perf_counter() - start) * 1000)
    out = []
    for found in samples:
        found.sort()
        out.append((statistics.median(found), found[max(int(len(found) * 0.99) - 1, 0)]))
    return out


async def measure(store, small_store, people, tables: int) -> tuple[list, tuple[int, float], list]:
    """The figures (name, p50, p99), how many tables a member is to act at (most, mean), the query plans."""
    rnd = random.Random(7)
    figures = [("baseline: a table by primary key", *await percentiles(
        lambda: store.get_table(rnd.randrange(1, tables + 1))))]
    figures.append(("/turns of a random member", *await percentiles(lambda: store.turns(GUILD, rnd.choice(people)))))
    counts = [len(await store.turns(GUILD, u)) for u in people[:200]]
    small, big = await deadline_passes(small_store, store, REPEATS * 2)
    figures.append(("deadline pass, 10 open far-off deadlines", *small))
    figures.append(("deadline pass, every table's far-off deadline", *big))
    recorder = Recorder(store)  # the statements of one /turns and one pass, for their plans
    await store.turns(GUILD, people[0])
    service = TableService(store)
    await service.fire_due()
    await service.next_deadline()
    return figures, (max(counts), statistics.mean(counts)), await recorder.plans()


def report(backend: str, tables: int, members: int, load_s: float, figures, counts, plans) -> bool:
    most, mean = counts
    print(f"{backend}: {tables:,} open turn-based tables over {members:,} members in one server, loaded in"
          f" {load_s:.0f} s (a member is to act at {mean:.1f} tables on average, at most {most})")
    print(f"  {'figure':48} {'p50 ms':>8} {'p99 ms':>8} {'ratio':>7}   target")
    base, ok = figures[0][1], True
    for name, p50, p99 in figures[:2]:
        verdict = "" if name.startswith("baseline") else ("ok" if p99 < TARGET_MS else "OVER")
        ok &= verdict != "OVER"
        print(f"  {name:48} {p50:8.2f} {p99:8.2f} {p50 / base:7.1f}   "
              + ("" if name.startswith("baseline") else f"p99 < {TARGET_MS:g} ms: {verdict}"))
    (small_name, small50, small99), (big_name, big50, big99) = figures[2:]
    ratio = big50 / small50
    verdict = "ok" if ratio < PASS_RATIO else "OVER"
    ok &= verdict == "ok"
    print(f"  {small_name:48} {small50:8.2f} {small99:8.2f} {1.0:7.2f}   (baseline)")
    print(f"  {big_name:48} {big50:8.2f} {big99:8.2f} {ratio:7.2f}   < {PASS_RATIO:g} (a scan: ~{tables // 10}):"
          f" {verdict}")
    print("  query plans:")
    for sql, plan in plans:
        print(f"    {sql[:110]}{'…' if len(sql) > 110 else ''}")
        for line in plan:
            print(f"      {line}")
    return ok


async def build_sqlite(path: Path, rows) -> float:
    store = await open_store(path)
    await store.close()
    start = time.perf_counter()
    load_sqlite(path, rows)
    return time.perf_counter() - start


async def run_sqlite(folder: Path, rows, small_rows, people, tables: int, members: int) -> bool:
    load_s = await build_sqlite(folder / "big.db", rows)
    await build_sqlite(folder / "small.db", small_rows)
    store, small = await open_store(folder / "big.db"), await open_store(folder / "small.db")
    try:
        figures, counts, plans = await measure(store, small, people, tables)
    finally:
        await store.close()
        await small.close()
    return report("SQLite", tables, members, load_s, figures, counts, plans)


async def run_postgres(rows, small_rows, people, tables: int, members: int) -> bool:
    from tests.postgres import PostgresServer

    server = PostgresServer.from_env_or_start()
    try:
        async with server.scratch() as url, server.scratch() as small_url:
            store, small = await open_store(url), await open_store(small_url)
            try:
                start = time.perf_counter()
                await load_postgres(store, rows)
                load_s = time.perf_counter() - start
                await load_postgres(small, small_rows)
                figures, counts, plans = await measure(store, small, people, tables)
            finally:
                await store.close()
                await small.close()
        return report("PostgreSQL", tables, members, load_s, figures, counts, plans)
    finally:
        server.stop()


# --- memory: a child process per case, so each starts from the same RSS --------------------------------------
def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


async def touch_all(path: str, tables: int, bounded: bool) -> dict:
    """Touches every table once through a table service (bounded as the bot's, or not at all); RSS before
    and after (a few tables touched first, so what every first load allocates is in the before)."""
    defaults = Defaults() if bounded else Defaults(cache_max=10**9, cache_idle=float("inf"))
    store = await open_store(path)
    service = TableService(store, defaults)
    for table_id in range(1, 21):
        await service.get(table_id)
    gc.collect()
    before = rss_mb()
    start = time.perf_counter()
    for table_id in range(21, tables + 1):
        await service.get(table_id)
    seconds = time.perf_counter() - start
    gc.collect()
    after = rss_mb()
    await store.close()
    return {"before": before, "after": after, "cached": service.cached(), "seconds": seconds}


def memory(path: Path, tables: int) -> bool:
    found = {}
    for case in ("unbounded", "bounded"):
        out = subprocess.run([sys.executable, "-m", "benchmarks.turnbased", "--rss-child", str(path), "--tables",
                              str(tables), "--case", case], capture_output=True, text=True, check=True)
        found[case] = json.loads(out.stdout.strip().splitlines()[-1])
    grown = {case: f["after"] - f["before"] for case, f in found.items()}
    verdict = "ok" if grown["bounded"] < TARGET_MB else "OVER"
    print(f"Memory of the table service after touching {tables:,} idle tables once (SQLite, child processes):")
    for case in ("unbounded", "bounded"):
        f = found[case]
        print(f"  {case:10} RSS {f['before']:7.1f} -> {f['after']:7.1f} MB: grew {grown[case]:6.1f} MB,"
              f" {f['cached']:,} tables held, {f['seconds'] / (tables - 20) * 1000:.2f} ms a table")
    print(f"  bounded / unbounded growth: {grown['bounded'] / max(grown['unbounded'], 0.1):.2f};"
          f" target: bounded growth < {TARGET_MB:g} MB: {verdict}")
    return verdict == "ok"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.turnbased", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,000 tables over 200 members")
    parser.add_argument("--tables", type=int)
    parser.add_argument("--members", type=int)
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument("--rss-child", help=argparse.SUPPRESS)
    parser.add_argument("--case", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    tables = args.tables or (2_000 if args.quick else 10_000)
    members = args.members or (200 if args.quick else 1_000)
    if args.rss_child:
        print(json.dumps(asyncio.run(touch_all(args.rss_child, tables, args.case == "bounded"))))
        return 0
    start = time.perf_counter()
    rows, people = generate(tables, members)
    small_rows, _ = generate(10, members)
    print(f"generated {tables:,} tables, {len(rows['actions']):,} logged moves, {len(rows['waiting']):,} rows of"
          f" who is to act in {time.perf_counter() - start:.0f} s")
    with tempfile.TemporaryDirectory() as tmp:
        ok = asyncio.run(run_sqlite(Path(tmp), rows, small_rows, people, tables, members))
        ok &= memory(Path(tmp) / "big.db", tables)
    if not args.sqlite_only:
        ok &= asyncio.run(run_postgres(rows, small_rows, people, tables, members))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
