"""Diagnosis: what computers playing cost the bot's event loop (the load benchmark's last phases, alone).

    python -m benchmarks.computers [--tables 100] [--seconds 15] [--profile FILE] [--keep DIR]

The real bot (benchmarks/bot_child.py) against the loopback Discord, ``--tables`` Geek Out! tables of one
person and two computers (normal and strong in turn; the person clicks the first button about a second after
their board comes, as in benchmarks/load.py), played for ``--seconds``. Printed: the computers' boards and
commits a second, the bot's CPU (main process, workers), its loop lag p99 / max and the spells over 20 ms,
the garbage collector's pauses, and per commit the bot's CPU. ``--profile FILE``: cProfile of the bot's
event-loop thread (slows it; read with ``python -m pstats FILE``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
from pathlib import Path

from benchmarks.load import Load, Scale, ms
from playground.run_bot import BotProcess


async def probe(args, folder: Path) -> None:
    scale = Scale(bare=0, sequential=0, small=0, big=0, steady_rate=0, steady_for=0, sustained_rate=0,
                  sustained_for=0, idle_for=0, step_for=0, steps=(), soak_first=0, soak_more=0, soak_to=0,
                  computer_tables=args.tables)
    load = Load(scale, folder, quiet=True, profile=str(Path(args.profile).resolve()) if args.profile else None)
    await load.fake.start()
    load.bot = BotProcess(load.fake, str(folder / "geotable.db"), log_path=str(folder / "bot.log"), env=load.env,
                          module="benchmarks.bot_child", loop_stats=str(load.stats_path), turn_timeout=3600)
    await load.bot.start(timeout=120)
    try:
        took = await load.open_computer_tables()
        print(f"opened {args.tables} tables of a person and two computers in {took:.1f} s", flush=True)

        async def play(phase):
            await load.with_computers(phase, lambda _p: asyncio.sleep(args.seconds))

        phase = await load.phase("computers", play)
        seconds = phase.ended - phase.started
        commits = len(phase.trace.get("    store.record_move", []))
        boards = len(phase.trace.get("    renderpool.board (render round trip)", []))
        lag = phase.lag
        print(f"computer boards/s {phase.extra['computer boards/s']:.1f}, people clicks/s "
              f"{phase.extra['people clicks/s']:.1f}, commits/s {commits / seconds:.1f}, boards drawn/s "
              f"{boards / seconds:.1f}")
        print(f"bot cpu {phase.bot_cpu / seconds:.2f} cores, workers {phase.workers_cpu / seconds:.2f} cores, "
              f"the rest of the machine {phase.others_cpu / seconds:.2f}; bot cpu per commit "
              f"{ms(phase.bot_cpu / max(commits, 1))} ms")
        print(f"bot loop lag p99 {ms(lag['p99'])} max {ms(lag['max'])} ms, {lag['over_20ms']} over 20 ms "
              f"(on its CPU max {ms(lag['held_max'])} ms, {lag['held_over_20ms']} over 20 ms)")
        for label, values in sorted(phase.trace.items()):
            if values and (label.startswith("gc") or "record_move" in label or "publish" in label):
                print(f"  {label.strip()}: {len(values)}x, p50 {ms(values[len(values) // 2])} max "
                      f"{ms(max(values))} ms")
    finally:
        if args.profile and load.bot.proc.returncode is None:  # SIGTERM writes the profile
            load.bot.proc.terminate()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(load.bot.proc.wait(), 30)
        await load.bot.stop()
        await load.fake.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.computers", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--profile", metavar="FILE", help="cProfile of the bot's event-loop thread")
    parser.add_argument("--keep", metavar="DIR")
    args = parser.parse_args(argv)
    with contextlib.ExitStack() as stack:
        if args.keep:
            folder = Path(args.keep)
            folder.mkdir(parents=True, exist_ok=True)
        else:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="geotable-computers-")))
        asyncio.run(probe(args, folder))


if __name__ == "__main__":
    main(sys.argv[1:])
