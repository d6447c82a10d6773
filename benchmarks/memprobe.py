"""Diagnosis: what grows in the bot process per move (the load benchmark's soak, small and instrumented).

    python -m benchmarks.memprobe [--tables 300] [--moves 1500] [--rounds 3] [--frames 12] [--keep DIR]

The real bot (benchmarks/bot_child.py) against the loopback Discord, ``--tables`` Geek Out tables, then rounds
of ``--moves`` moves at a modest rate; after each round, the bot dumps (SIGUSR2) the objects a full garbage
collection has to walk, by type, and (with ``--frames``) where the memory allocated since the previous
round is held (tracemalloc). Printed: per round RSS, tracked objects, and the types and allocation sites that
grew. Not a benchmark: tracemalloc slows the bot several times.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
from pathlib import Path

from benchmarks import work_folder
from benchmarks.load import Load, Scale
from playground.run_bot import BotProcess


async def probe(args, folder: Path) -> None:
    scale = Scale(bare=0, sequential=0, small=args.tables, big=args.tables, steady_rate=0, steady_for=0,
                  sustained_rate=0, sustained_for=0, idle_for=0, step_for=0, steps=(), soak_first=0, soak_more=0,
                  soak_to=0, computer_tables=0)
    load = Load(scale, folder, quiet=True)
    load.env["GEOTABLE_BENCH_GC_TYPES"] = "1"
    if args.frames:
        load.env["GEOTABLE_BENCH_TRACEMALLOC"] = str(args.frames)
    await load.fake.start()
    load.bot = BotProcess(load.fake, str(folder / "geotable.db"), log_path=str(folder / "bot.log"), env=load.env,
                          module="benchmarks.bot_child", loop_stats=str(load.stats_path), turn_timeout=3600)
    await load.bot.start(timeout=120)
    try:
        desks = list(load.desks.values())
        await load.open_many(desks)
        previous = None
        for r in range(args.rounds + 1):
            moves = args.warmup if r == 0 else args.moves
            await load.rate(_Phase(), desks, args.rate, moves / args.rate)
            await load._quiet(0.5)
            await asyncio.sleep(1.0)
            bot_rss, _ = load.rss()
            load.bot.proc.send_signal(signal.SIGUSR2)
            load.trace_generation += 1
            data = None
            for _ in range(600):
                await asyncio.sleep(0.1)
                with contextlib.suppress(OSError, ValueError):
                    got = json.loads(load.trace_path.read_text())
                    if got["generation"] >= load.trace_generation:
                        data = got
                        break
            objects = data["gc objects"]
            counts = dict(objects["top"])
            first = objects.get("first collection") or {}
            if first:
                print(f"\nthe first full collection (with what was garbage): {first['s'] * 1e3:.1f} ms, "
                      f"{first['tracked before']} tracked objects before, {first['unreachable found']} unreachable")
            print(f"round {r}: moves {load.moves}, bot rss {bot_rss / 2**20:.1f} MB, tracked objects "
                  f"{objects['total']} (frozen {objects['frozen']}), a full gc.collect() "
                  f"{', '.join(f'{s * 1e3:.1f}' for s in objects['full collection s'])} ms, traced {data.get('traced')}",
                  flush=True)
            pauses = (data.get("samples") or {}).get("gc pause, generation 2") or []
            print(f"  the round's own full collections (while it played): {len(pauses)}, "
                  f"{', '.join(f'{p * 1e3:.1f}' for p in pauses)} ms")
            if previous is not None:
                grown = sorted(((counts.get(k, 0) - previous.get(k, 0), k) for k in set(counts) | set(previous)),
                               reverse=True)
                print("  types grown:", [(k, d) for d, k in grown[:15] if d])
            else:
                print("  types:", objects["top"][:30])
            previous = counts
            for g in (data.get("memory growth") or [])[:args.show]:
                print(f"  {g['size_diff']:+9d} B {g['count_diff']:+6d} blocks")
                for line in g["where"]:
                    print("      " + line)
    finally:
        await load.bot.stop()
        await load.fake.stop()


class _Phase:
    def __init__(self):
        self.clicks, self.extra, self.starved = [], {}, 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.memprobe", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=1500)
    parser.add_argument("--moves", type=int, default=1500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rate", type=float, default=40.0)
    parser.add_argument("--frames", type=int, default=0, help="tracemalloc frames (0: off)")
    parser.add_argument("--show", type=int, default=12, help="allocation sites shown per round")
    parser.add_argument("--keep", metavar="DIR")
    args = parser.parse_args(argv)
    with contextlib.ExitStack() as stack:
        folder = work_folder(stack, args.keep, "memprobe")
        asyncio.run(probe(args, folder))


if __name__ == "__main__":
    main(sys.argv[1:])
