"""Diagnosis: what computers playing cost the bot's event loop (the load benchmark's last phases, alone).

    python -m benchmarks.computers [--tables 100] [--seconds 15] [--people 0 --rate 50] [--profile FILE]

The real bot (benchmarks/bot_child.py) against the loopback Discord, ``--tables`` Geek Out! tables of one
person and two computers (normal and strong in turn; the person clicks the first button about a second after
their board comes, as in benchmarks/load.py), played for ``--seconds``; with ``--people N``, first N one-person
tables opened (a cache the size of the load benchmark's: 2000), the first 500 of them clicked at ``--rate``
meanwhile (its "50/s over 500 + computers"), and before, for ``--warm`` seconds (opened long before, as
there: the garbage of their opening collected). Printed: the people's click-to-edit, the computers' boards and
commits a second, the bot's CPU (main process, workers), its loop lag p99 / max and the spells over 20 ms,
the garbage collector's pauses, and per commit the bot's CPU. ``--profile FILE``: cProfile of the bot's
event-loop thread (slows it; read with ``python -m pstats FILE``); ``--sample FILE``: a sampling profile of it
(benchmarks/bot_child.py ``sample_main_thread``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from pathlib import Path

from benchmarks import work_folder
from benchmarks.load import Load, Scale, ms, pct
from playground.run_bot import BotProcess


async def probe(args, folder: Path) -> None:
    scale = Scale(bare=0, sequential=0, small=min(500, args.people), big=args.people, steady_rate=0, steady_for=0, sustained_rate=0,
                  sustained_for=0, idle_for=0, step_for=0, steps=(), soak_first=0, soak_more=0, soak_to=0,
                  computer_tables=args.tables)
    load = Load(scale, folder, quiet=True, profile=str(Path(args.profile).resolve()) if args.profile else None)
    if args.sample:
        load.env["GEOTABLE_BENCH_SAMPLE"] = str(Path(args.sample).resolve())
    await load.fake.start()
    load.bot = BotProcess(load.fake, str(folder / "geotable.db"), log_path=str(folder / "bot.log"), env=load.env,
                          module="benchmarks.bot_child", loop_stats=str(load.stats_path), turn_timeout=3600)
    await load.bot.start(timeout=120)
    try:
        desks = list(load.desks.values())
        if desks:
            took = await load.open_many(desks)
            print(f"opened {len(desks)} tables of one person in {took:.1f} s", flush=True)
            if args.warm:
                await load.phase("warm", lambda phase: load.rate(phase, desks[:500], args.rate, args.warm))
        took = await load.open_computer_tables()
        print(f"opened {args.tables} tables of a person and two computers in {took:.1f} s", flush=True)

        async def people(phase):
            if desks and args.rate:
                await load.rate(phase, desks[:500], args.rate, args.seconds)
            else:
                await asyncio.sleep(args.seconds)

        async def play(phase):
            await load.with_computers(phase, people)

        threads = _thread_cpu(load.bot.proc.pid)
        phase = await load.phase("computers", play)
        threads = {tid: cpu - threads.get(tid, 0.0) for tid, cpu in _thread_cpu(load.bot.proc.pid).items()}
        seconds = phase.ended - phase.started
        commits = len(phase.trace.get("    store.record_move", []))
        boards = len(phase.trace.get("    renderpool.board (render round trip)", []))
        lag = phase.lag
        main = threads.pop(load.bot.proc.pid, 0.0)
        print(f"bot cpu by thread: the event loop's {main / (phase.ended - phase.started):.2f} cores, the others' "
              f"(SQLite's, the worker pools' feeders...) {sum(threads.values()) / (phase.ended - phase.started):.2f}")
        if phase.moves():
            edit = [c.to_edit for c in phase.moves()]
            print(f"people's clicks {len(edit)}, click-to-edit p50 {ms(pct(edit, .5))} p99 {ms(pct(edit, .99))} ms, "
                  f"lost {phase.lost()}")
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
        if (args.profile or args.sample) and load.bot.proc.returncode is None:  # SIGTERM writes the profile
            load.bot.proc.terminate()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(load.bot.proc.wait(), 30)
        await load.bot.stop()
        await load.fake.stop()


def _thread_cpu(pid: int) -> dict[int, float]:
    """thread id -> CPU seconds (Linux /proc), of a process's threads (the main thread's id is the pid)."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            found[int(task.name)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.computers", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--people", type=int, default=0, help="one-person tables opened first")
    parser.add_argument("--rate", type=float, default=50.0, help="clicks/s on the first 500 of them meanwhile")
    parser.add_argument("--warm", type=float, default=20.0, help="seconds of those clicks before the computers")
    parser.add_argument("--profile", metavar="FILE", help="cProfile of the bot's event-loop thread")
    parser.add_argument("--sample", metavar="FILE", help="a sampling profile of the bot's event-loop thread (JSON: "
                        "functions by samples on the stack and on top; slows nothing)")
    parser.add_argument("--keep", metavar="DIR")
    args = parser.parse_args(argv)
    with contextlib.ExitStack() as stack:
        folder = work_folder(stack, args.keep, "computers")
        asyncio.run(probe(args, folder))


if __name__ == "__main__":
    main(sys.argv[1:])
