"""The real bot for the load benchmark: ``playground/run_bot.py`` under a command line of its own.

    python -m benchmarks.bot_child --port 8123 --database /tmp/g.db --loop-stats /tmp/loop.json

Same arguments and code as ``python -m playground.run_bot`` (it dies with its parent too); its command line is
its own, so ``pkill -f playground.run_bot`` run by a session elsewhere on the machine does not kill the bot in
the middle of a measurement. With GEOTABLE_BENCH_PROFILE=<file> the
event loop's thread runs under cProfile and SIGTERM writes the profile (``python -m benchmarks.load --profile``;
GEOTABLE_BENCH_SAMPLE=<file>: sampled instead, ``sample_main_thread``; GEOTABLE_BENCH_STALLS=<file>: the
stacks of the loop's stalls, ``catch_stalls``);
with GEOTABLE_BENCH_TRACE=<file> the steps of each click are timed (:func:`install_trace`).
"""

from __future__ import annotations

import collections
import contextlib
import os
import signal
import sys


def profile_main_thread(path: str) -> None:
    """cProfile of the main thread (the event loop) until SIGTERM, which writes ``path`` and exits."""
    import cProfile

    profiler = cProfile.Profile()

    def stop(*_):
        profiler.disable()
        profiler.dump_stats(path)
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    profiler.enable()


STAGES = (
    # (module, class or None, function, label): where a click's time goes, from the outside of each step
    ("bot.cogs.tables", "Tables", "on_click", "click handler (whole)"),
    ("discord", "InteractionResponse", "defer", "  defer (ack round trip)"),
    ("bot.table.moves", "Moves", "act", "  service.act (lock, apply, persist)"),
    ("bot.store", "Store", "record_move", "    store.record_move"),
    ("bot.boards", "Boards", "publish", "  publish (whole)"),
    ("bot.workers.renderpool", None, "board", "    renderpool.board (render round trip)"),
    ("discord", "InteractionResponse", "edit_message", "    the board answers the click (callback round trip)"),
    ("discord.message", "PartialMessage", "edit", "    PATCH the board (edit round trip)"),
    ("bot.store", "Store", "set_shown_version", "    store.set_shown_version"),
)


def install_trace(path: str) -> None:
    """Times the steps of a click in this process (wall time, from outside each coroutine), the delay from
    the interaction's creation (its snowflake) to the handler, and the garbage collector's pauses. SIGUSR2 writes the samples since the last
    SIGUSR2 to ``path`` (JSON: label -> sorted seconds) and starts afresh. Steps that no longer exist are
    skipped, so a refactor of the bot only thins the breakdown."""
    import functools
    import importlib
    import json
    import time
    from collections import defaultdict

    samples: dict[str, list[float]] = defaultdict(list)
    generation = [0]

    def wrap(module: str, owner: str | None, name: str, label: str) -> None:
        try:
            target = importlib.import_module(module)
            if owner is not None:
                target = getattr(target, owner)
            fn = getattr(target, name)
        except (ImportError, AttributeError):
            return

        @functools.wraps(fn)
        async def timed(*args, **kwargs):
            if label.startswith("click handler") and len(args) > 1:
                with contextlib.suppress(Exception):
                    samples["gateway -> handler (from the snowflake, ms resolution)"].append(
                        time.time() - args[1].created_at.timestamp())
            start = time.perf_counter()
            try:
                return await fn(*args, **kwargs)
            finally:
                samples[label].append(time.perf_counter() - start)

        setattr(target, name, timed)

    for stage in STAGES:
        wrap(*stage)

    import gc

    gc_started = [0.0]

    def gc_pause(phase: str, info: dict) -> None:  # the collector stops the loop (and every thread) meanwhile
        if phase == "start":
            gc_started[0] = time.perf_counter()
        else:
            samples[f"gc pause, generation {info.get('generation')}"].append(time.perf_counter() - gc_started[0])

    gc.callbacks.append(gc_pause)
    tracing_memory = int(os.environ.get("GEOTABLE_BENCH_TRACEMALLOC") or 0)  # frames kept per allocation
    last_snapshot: list = []
    if tracing_memory:
        import tracemalloc

        tracemalloc.start(tracing_memory)

    def dump(*_):
        generation[0] += 1
        data = {"generation": generation[0], "samples": {k: sorted(v) for k, v in samples.items()}}
        if os.environ.get("GEOTABLE_BENCH_GC_TYPES"):  # diagnosis: what the collector has to walk
            collections_s, before = [], len(gc.get_objects())
            for _ in range(3):  # a full collection of this heap (the first also frees what is garbage now)
                started = time.perf_counter()
                found = gc.collect()
                collections_s.append(time.perf_counter() - started)
                if len(collections_s) == 1:
                    first = {"s": collections_s[0], "tracked before": before, "unreachable found": found}
            counts = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
            data["gc objects"] = {"total": sum(counts.values()), "frozen": gc.get_freeze_count(),
                                  "top": counts.most_common(60), "full collection s": sorted(collections_s[1:]),
                                  "first collection": first}
        if tracing_memory:  # diagnosis: where the memory allocated since the last dump is held
            import tracemalloc

            snapshot = tracemalloc.take_snapshot().filter_traces(
                (tracemalloc.Filter(False, tracemalloc.__file__),))
            if last_snapshot:
                diff = snapshot.compare_to(last_snapshot[0], "traceback")
                data["memory growth"] = [{"size_diff": d.size_diff, "count_diff": d.count_diff,
                                          "where": d.traceback.format()[-12:]} for d in diff[:40]]
            data["traced"] = tracemalloc.get_traced_memory()
            last_snapshot[:] = [snapshot]
        samples.clear()
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(data, f)
        os.replace(tmp, path)

    signal.signal(signal.SIGUSR2, dump)


def sample_main_thread(path: str, interval: float = 0.002) -> None:
    """A sampling profile of the main thread (the event loop): a thread looks at its stack every ``interval``
    seconds and counts, per function, the samples it was on the stack (inclusive) and on top (its own);
    SIGTERM writes ``path`` (JSON) and exits. Unlike cProfile it does not slow every call, so the split of the
    loop's time is the real one (py-spy's, without py-spy)."""
    import collections
    import json
    import threading
    import time

    main_id = threading.main_thread().ident
    inclusive: collections.Counter = collections.Counter()
    own: collections.Counter = collections.Counter()
    count = [0]

    def where(frame) -> str:
        code = frame.f_code
        return f"{code.co_filename.rsplit('site-packages/', 1)[-1]}:{code.co_firstlineno}({code.co_name})"

    def run() -> None:
        while True:
            time.sleep(interval)
            frame = sys._current_frames().get(main_id)
            if frame is None:
                continue
            count[0] += 1
            own[where(frame)] += 1
            seen = set()
            while frame is not None:
                name = where(frame)
                if name not in seen:
                    seen.add(name)
                    inclusive[name] += 1
                frame = frame.f_back

    def stop(*_):
        with open(path, "w") as f:
            json.dump({"samples": count[0], "inclusive": inclusive.most_common(150), "own": own.most_common(80)}, f)
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    threading.Thread(target=run, name="geotable-sampler", daemon=True).start()


def catch_stalls(path: str, longer_than: float = 0.015, interval: float = 0.001) -> None:
    """Diagnosis of the loop's stalls: a thread looks at the main thread's stack every ``interval`` seconds; a
    spell of ``longer_than`` or more without the loop waiting in its selector is a stall (what the loop lag
    measures), and each is appended to ``path`` (a JSON line: its length and, per function, the samples it was
    on the stack). The garbage collector holds the GIL: its pauses show as gaps, not samples."""
    import collections
    import json
    import threading
    import time

    main_id = threading.main_thread().ident

    def where(frame) -> str:
        code = frame.f_code
        return f"{code.co_filename.rsplit('site-packages/', 1)[-1]}:{code.co_firstlineno}({code.co_name})"

    def run() -> None:
        began, seen = None, collections.Counter()
        while True:
            time.sleep(interval)
            frame = sys._current_frames().get(main_id)
            now = time.perf_counter()
            if frame is None:
                continue
            waiting = frame.f_code.co_name in ("select", "poll") and "selectors" in frame.f_code.co_filename
            if not waiting:
                if began is None:
                    began, seen = now, collections.Counter()
                names, f = set(), frame
                while f is not None:
                    names.add(where(f))
                    f = f.f_back
                seen.update(names)
                continue
            if began is not None and now - began >= longer_than:
                with open(path, "a") as out:
                    out.write(json.dumps({"ms": round((now - began) * 1e3, 1), "at": round(time.time(), 3),
                                          "stack": seen.most_common(40)}) + "\n")
            began = None

    threading.Thread(target=run, name="geotable-stalls", daemon=True).start()


def main(argv: list[str] | None = None) -> None:
    from playground.run_bot import die_with_parent
    from playground.run_bot import main as run_bot

    die_with_parent()  # before any profiling or tracing starts
    if os.environ.get("GEOTABLE_BENCH_PROFILE"):
        profile_main_thread(os.environ["GEOTABLE_BENCH_PROFILE"])
    elif os.environ.get("GEOTABLE_BENCH_SAMPLE"):
        sample_main_thread(os.environ["GEOTABLE_BENCH_SAMPLE"])
    if os.environ.get("GEOTABLE_BENCH_STALLS"):
        catch_stalls(os.environ["GEOTABLE_BENCH_STALLS"])
    if os.environ.get("GEOTABLE_BENCH_TRACE"):
        install_trace(os.environ["GEOTABLE_BENCH_TRACE"])
    run_bot(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
