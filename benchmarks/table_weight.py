"""What an open table weighs on the garbage collector: the objects a full collection walks per cached table
(``bot.table.model.Table`` as the load benchmark leaves it: a one-player Geek Out table, 10 turns, some moves
in), and a full collection (``gc.collect(2)``, p50 and max of several) with 500 and 2,000 such tables in a
table service's cache (``bot.table.core.TableCore``), in use (their states decoded) and at rest (idle past
``Defaults.state_rest``: their states kept as JSON text, ``Table.rest``), against the same process with none.

    python -m benchmarks.table_weight [--moves 12] [--runs 9]

Why: a generation-2 collection walks every tracked object; the bot's stopped its event loop 57-130 ms with
2,000 tables open (benchmarks/load.py). Counts travel between machines; the milliseconds are printed as a
ratio to the empty process's collection measured in the same run.
"""

from __future__ import annotations

import argparse
import collections
import gc
import statistics
import time

from bot.store import TableRow
from bot.table import recent
from bot.table.core import TableCore
from bot.table.model import Defaults, Table
from bot.table.words import events_words
from games import get_engine
from games.core import SYSTEM


def open_table(table_id: int, moves: int, seed: int) -> Table:
    """A cached table as a person's clicks leave it: state decoded from the store, its recent lines kept as
    moves.py keeps them, its screens and tokens as a click reads them."""
    engine = get_engine("geek_out")
    players = [{"id": 3_000_000 + table_id, "name": f"P{table_id}"}]
    state = engine.new(1, {"turns": 10}, seed)
    names = [p["name"] for p in players]
    lines = recent.kept([], recent.Entry(SYSTEM, recent.start_text(engine, state, names)))
    played, said = 0, None
    while played < moves and not engine.is_over(state):
        seat = sorted(engine.to_act(state))[0]
        state, events = engine.apply(state, seat, engine.legal_actions(state, seat)[0].key)
        said = events_words(events, names)
        lines = recent.kept(lines, recent.Entry(seat, said))
        played += 1
    encoded = engine.encode(state)
    row = TableRow(id=table_id, guild_id=1, channel_id=10_000 + table_id, game="geek_out", options={"turns": 10},
                   seed=seed, status="playing", players=players, host_id=players[0]["id"], state=encoded,
                   version=played, message_id=20_000 + table_id, last_move=None, end_reason=None, created_at=0.0,
                   updated_at=0.0)
    table = Table(row, engine, recent=lines)
    table.set_state(None, encoded)  # as the cache loads it (``TableCore.get``), decoded when first read
    table.last_words = recent.compact(said)  # the last move as said, kept as moves.py keeps it
    table.seat_token(0)
    table.screens.moved(played, 0)
    return table


def walked(root, shared: set[int]) -> collections.Counter:
    """The tracked objects ``root`` holds, by type, that nothing outside the table holds (``shared``)."""
    seen, todo, kinds = set(), [root], collections.Counter()
    while todo:
        item = todo.pop()
        if id(item) in seen or id(item) in shared or not gc.is_tracked(item) or isinstance(item, type):
            continue
        seen.add(id(item))
        kinds[type(item).__qualname__] += 1
        todo.extend(gc.get_referents(item))
    return kinds


def full_collection(runs: int) -> tuple[float, float]:
    """p50 and max of ``runs`` full collections, seconds."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        gc.collect(2)
        times.append(time.perf_counter() - started)
    return statistics.median(times), max(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.table_weight", description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=12, help="moves played at each table (the load's soak: ~7)")
    parser.add_argument("--runs", type=int, default=9, help="full collections timed per figure")
    args = parser.parse_args(argv)
    open_table(0, args.moves, 0)  # imports, catalogs, caches: the process's own before the baseline
    gc.collect()
    shared = {id(o) for o in gc.get_objects()}
    one = open_table(1, args.moves, 1)
    gc.collect()  # as a full collection finds it: older than a pass (plain tuples of atoms are untracked then)
    in_use = walked(one, shared)
    one.rest()
    at_rest = walked(one, shared)
    for label, kinds in (("in use", in_use), ("at rest", at_rest)):
        print(f"tracked objects per table ({args.moves} moves), {label}: {sum(kinds.values())}: "
              + ", ".join(f"{k} {n}" for k, n in kinds.most_common(12)))
    decodes = []
    for _ in range(200):
        one.rest()
        started = time.perf_counter()
        one.state  # noqa: B018 (the decode a click at a resting table pays)
        decodes.append(time.perf_counter() - started)
    print(f"a resting table's state decoded again: p50 {statistics.median(decodes) * 1e6:.1f} µs")
    del one
    baseline_objects, (baseline, baseline_max) = len(gc.get_objects()), full_collection(args.runs)
    print(f"no table: {baseline_objects} tracked objects, a full collection p50 {baseline * 1e3:.2f} ms, "
          f"max {baseline_max * 1e3:.2f} ms")
    rest = 0.2
    core = TableCore(store=None, defaults=Defaults(state_rest=float("inf")))
    for size in (500, 2000):
        core.defaults.state_rest = float("inf")  # none rests while they are loaded
        for i in range(core.cached(), size):
            core._remember(open_table(i, args.moves, i))
        core.defaults.state_rest = rest
        for label in ("in use", "at rest"):
            if label == "at rest":
                took_rest = 0.0
                while not all(t.resting() for t in core._cache.values()):  # ``REST_AT_ONCE`` a pass
                    time.sleep(rest)
                    started = time.perf_counter()
                    core._evict()  # the cache's own pass rests the tables idle past ``state_rest``
                    took_rest = max(took_rest, time.perf_counter() - started)
                time.sleep(rest)
                started = time.perf_counter()
                core._evict()
                took_pass = time.perf_counter() - started
                assert all(t.resting() for t in core._cache.values())
            gc.collect()
            objects, (took, most) = len(gc.get_objects()), full_collection(args.runs)
            print(f"{size} tables {label}: {objects} tracked objects ({(objects - baseline_objects) / size:.0f} a "
                  f"table), a full collection p50 {took * 1e3:.2f} ms = {took / baseline:.1f}x the empty "
                  f"process's, max {most * 1e3:.2f} ms")
        print(f"  the cache's longest pass that rested them {took_rest * 1e3:.2f} ms, a pass with all at rest "
              f"{took_pass * 1e3:.2f} ms")
        for table in core._cache.values():  # in use again for the next size
            table.state  # noqa: B018


if __name__ == "__main__":
    main()
