"""Prints each figure as a ratio against a baseline measured in the same run (machines here are noisy, so
absolute times mean little; ratios travel). Targets come from the issues.

    render / encode-only of the same canvas            target <= 2
    a move's persist / a raw sqlite3 upsert of the row  target <= 3
        (the upsert is given the same single hop to a worker thread that keeps the event loop free; the
        same figure against an upsert run on the loop itself is printed for information: the ~0.1 ms
        cross-thread round trip of this machine dominates it)
    a whole move (load, apply, persist, render) / render alone   target <= 1.5
    the first board after a start / an ordinary one               target about 1 (benchmarks/first_click.py)
    a board in German or Spanish / the same board in English       target <= 1.15 (benchmarks/languages.py,
        with /learn's advice against the computer's choice, a whole lesson step under 1 s, and the
        slash-command translator's payload against the plain one)
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot.database import open_store
from bot.table.service import TableService
from games.geek_out.rules import GeekOut
from render import geek_out as geek_out_render
from render import palette, render_board
from render.common import encode_png

NAMES = ["Ana", "Bo", "Cy", "Dee"]


def timed(fn, repeat: int) -> float:
    """Median seconds of ``fn()`` over ``repeat`` runs, after a warm-up."""
    fn()
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


async def atimed(fn, repeat: int) -> float:
    await fn()
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        await fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def sample_states(n: int = 40) -> list[dict]:
    engine = GeekOut()
    out, seed = [], 0
    while len(out) < n:
        s = engine.new(4, {}, seed)
        for _ in range(15):
            if not engine.to_act(s):
                break
            out.append(s)
            s, _ = engine.apply(s, s["current"], engine.legal_actions(s, s["current"])[0].key)
        seed += 1
    return out[:n]


def bench_render() -> tuple[float, float]:
    engine = GeekOut()
    views = [engine.view(s, None) for s in sample_states()]
    images = [geek_out_render.draw(v, NAMES, "Ana's Meeple rerolled die 4: Dragon -> 42") for v in views]
    i = iter(range(10**9))
    drawn = timed(lambda: render_board("geek_out", views[next(i) % len(views)], NAMES, "Ana's Meeple rerolled"), 60)
    j = iter(range(10**9))
    colours = palette("geek_out")
    encode = timed(lambda: encode_png(images[next(j) % len(images)], colours), 60)
    return drawn, encode


async def bench_persist(folder: Path) -> tuple[float, float]:
    engine = GeekOut()
    state = engine.encode(sample_states(1)[0])
    store = await open_store(folder / "persist.db")
    row = await store.create_table(guild_id=1, channel_id=1, game="geek_out", options={}, seed=1,
                                   host={"id": 1, "name": "Ana"}, lobby_due=None)
    await store.start_table(row.id, 0, [{"id": 1, "name": "Ana"}], state, turn_due=None)
    version = 1

    async def persist():
        nonlocal version
        await store.record_move(table_id=row.id, version=version, state=state, status="playing", ply=version,
                                seat=0, action="u1", turn_due=time.time() + 600, standings=None,
                                last_move="Ana's Meeple rerolled die 4: Dragon -> 42")
        version += 1

    ours = await atimed(persist, 300)
    await store.close()

    raw = sqlite3.connect(folder / "raw.db", isolation_level=None, check_same_thread=False)
    raw.execute("PRAGMA journal_mode = WAL")
    raw.execute("PRAGMA synchronous = NORMAL")
    raw.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, state TEXT, version INTEGER)")
    counter = iter(range(10**9))

    def upsert():
        raw.execute("INSERT INTO t (id, state, version) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET"
                    " state = excluded.state, version = excluded.version", (state, next(counter)))

    on_loop = timed(upsert, 300)
    # the same upsert with the one trip to a database thread that keeps the event loop free, as ours has
    hop = await atimed(lambda: asyncio.to_thread(upsert), 300)
    raw.close()
    return ours, hop, on_loop


async def bench_move(folder: Path) -> tuple[float, float]:
    """A whole move through the table service (lock, load from cache, check, apply, persist, render)."""
    store = await open_store(folder / "move.db")
    service = TableService(store)
    players = [{"id": 100 + i, "name": n} for i, n in enumerate(NAMES[:2])]
    channel = iter(range(1, 10**6))

    async def new_table():
        table = await service.open_lobby(1, next(channel), "geek_out", {}, players[0])
        await service.lobby(table.id, "join", players[1])
        await service.lobby(table.id, "start", players[0])
        return table

    table = await new_table()

    async def move():
        nonlocal table
        if table.status != "playing":
            table = await new_table()
        seat = table.to_act()[0]
        key = table.actions_for(seat)[0].key
        await service.act(table.id, table.version, key, players[seat]["id"])
        if table.status == "playing":
            await service.render(table)

    async def render_only():
        await service.render(table)

    whole = await atimed(move, 150)
    alone = await atimed(render_only, 150)
    await store.close()
    return whole, alone


def bench_shapes() -> float:
    """GEONEO: list every shape of one colour on a full board (18 pieces of each of two colours)."""
    from games.core import Rng
    from games.geoneo.rules import shapes

    boards = []
    for seed in range(20):
        fields = list(range(48))
        Rng({"seed": seed, "rng": 0}).shuffle(fields)
        pieces = [None] * 48
        for k, field in enumerate(fields[:36]):
            pieces[field] = k % 2
        boards.append(pieces)
    i = iter(range(10**9))
    return timed(lambda: shapes(boards[next(i) % len(boards)], 8, 0), 200)


def main(argv: list[str] | None = None) -> int:
    """Everything in one run: the micro figures below, then the render pipeline against encode-only, the old
    RGB encode and cairosvg (benchmarks/render_bench.py), then the real bot in its own process under load
    against the loopback Discord (benchmarks/load.py; ``--quick`` for a one-minute smoke run of it), then the
    computer players' tournaments and think times (benchmarks/ai.py, quick with ``--quick``), the easy ones
    against random play (benchmarks/easy.py) and the seconds a computer's turn takes to watch
    (benchmarks/pace.py), then boards in
    German and Spanish against English, /learn's coach against the computer and the slash-command translator
    (benchmarks/languages.py, quick with ``--quick``), then the
    leaderboard and stats queries with 100,000 stored results (benchmarks/history.py ``--quick``; the issue's
    1,000,000 with ``python -m benchmarks.history``), then a 300-move game's replay (benchmarks/replay.py), then
    a 256-player Swiss pairing and its standings (benchmarks/pairing.py), a 64-player Swiss of 6 rounds through
    the table service (benchmarks/tournament.py; 16 players, 4 rounds with ``--quick``), /daily's board with 1,000
    members' results (benchmarks/daily.py; SQLite only with ``--quick``), then
    turn-based play at scale: /turns, the deadline loop's pass and the table service's memory with 2,000 open
    tables (benchmarks/turnbased.py ``--quick``; the issue's 10,000 with ``python -m benchmarks.turnbased``)."""
    argv = sys.argv[1:] if argv is None else argv
    micro()
    print()
    from benchmarks import ai, first_click, load, render_bench

    render_bench.main()
    print()
    first_click.main([])
    print()
    status = load.main(argv)
    print()
    ai.main(["--quick"] if "--quick" in argv else [])
    print()
    from benchmarks import easy, pace

    easy.main(["--quick"] if "--quick" in argv else [])
    print()
    pace.main(["--seconds", "20" if "--quick" in argv else "90"])
    print()
    from benchmarks import languages

    said = languages.main(["--quick"] if "--quick" in argv else [])  # run even when an earlier part failed
    status = said or status
    print()
    from benchmarks import history, replay

    status = history.main(["--quick"]) or status  # every part runs, whichever failed before
    print()
    status = replay.main([]) or status
    print()
    from benchmarks import pairing

    status = pairing.main(["--quick"] if "--quick" in argv else []) or status
    print()
    from benchmarks import daily, tournament

    status = tournament.main(["--players", "16", "--rounds", "4"] if "--quick" in argv else []) or status
    print()
    status = daily.main(["--sqlite-only"] if "--quick" in argv else []) or status
    print()
    from benchmarks import turnbased

    return turnbased.main(["--quick"]) or status


def micro() -> int:
    figures = []
    drawn, encode = bench_render()
    figures.append(("render / encode-only of the same canvas", drawn, encode, 2.0))
    with tempfile.TemporaryDirectory() as tmp:
        persist, upsert_hop, upsert_on_loop = asyncio.run(bench_persist(Path(tmp)))
        figures.append(("move persist / raw upsert, one thread hop", persist, upsert_hop, 3.0))
        figures.append(("(info) move persist / raw upsert on the loop", persist, upsert_on_loop, None))
        whole, alone = asyncio.run(bench_move(Path(tmp)))
        figures.append(("whole move / its render alone", whole, alone, 1.5))
    print(f"{'figure':45} {'ratio':>7} {'target':>7}   (measured ms / baseline ms)")
    for name, value, base, target in figures:
        ratio = value / base
        ok = target is None or ratio <= target
        shown = "-" if target is None else f"<={target}"
        print(f"{name:45} {ratio:7.2f} {shown:>7}   ({value * 1e3:.3f} / {base * 1e3:.3f})"
              + ("" if ok else "   ABOVE TARGET"))
    print(json.dumps({n: round(v / b, 3) for n, v, b, _ in figures}))
    print(f"GEONEO: every shape of a colour on a full 8x6 board: {bench_shapes() * 1e3:.3f} ms (target well under 50)")
    for level, seconds in bench_puzzles().items():
        print(f"Globe Twister: a fresh {level} puzzle (made while the player waits): median {seconds * 1e3:.0f} ms"
              f" = {seconds:.3f} of the 1 s budget (target well under 1)")
    return 0


def bench_puzzles(n: int = 15) -> dict[str, float]:
    """Median time to generate (and prove the par of) a fresh solo puzzle of each level, over seeded draws."""
    from games.core import Rng
    from games.globe_twister.solver import generate

    out = {}
    for level in ("tourist", "backpacker", "globetrotter", "wild"):
        samples = []
        for seed in range(n):
            rng = Rng({"seed": seed, "rng": 0})
            t = time.perf_counter()
            generate(level, rng)
            samples.append(time.perf_counter() - t)
        out[level] = statistics.median(samples)
    return out


if __name__ == "__main__":
    sys.exit(main())
