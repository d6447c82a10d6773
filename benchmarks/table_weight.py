"""What an open table weighs on the garbage collector: the objects a full collection walks per cached table
(``bot.table.model.Table`` as the load benchmark leaves it: a one-player Geek Out table, 10 turns, some moves
in), and a full ``gc.collect()`` with 500 and 2,000 such tables against the same process with none.

    python -m benchmarks.table_weight [--moves 12]

Why: a generation-2 collection walks every tracked object; the bot's stopped its event loop 86-130 ms with
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
from bot.table.model import Table
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
    table = Table(row, engine, engine.decode(encoded), recent=lines)
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


def full_collection(runs: int = 7) -> float:
    """The median of ``runs`` full collections, seconds."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        gc.collect()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.table_weight", description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=12, help="moves played at each table (the load's soak: ~7)")
    args = parser.parse_args(argv)
    open_table(0, args.moves, 0)  # imports, catalogs, caches: the process's own before the baseline
    gc.collect()
    shared = {id(o) for o in gc.get_objects()}
    one = open_table(1, args.moves, 1)
    gc.collect()  # as a full collection finds it: older than a pass (plain tuples of atoms are untracked then)
    kinds = walked(one, shared)
    print(f"tracked objects per table ({args.moves} moves): {sum(kinds.values())}: "
          + ", ".join(f"{k} {n}" for k, n in kinds.most_common(12)))
    del one
    baseline_objects, baseline = len(gc.get_objects()), full_collection()
    print(f"no table: {baseline_objects} tracked objects, a full collection {baseline * 1e3:.2f} ms")
    cache = {}
    for size in (500, 2000):
        for i in range(len(cache), size):
            cache[i] = open_table(i, args.moves, i)
        gc.collect()
        objects, took = len(gc.get_objects()), full_collection()
        print(f"{size} tables: {objects} tracked objects ({(objects - baseline_objects) / size:.0f} a table), "
              f"a full collection {took * 1e3:.2f} ms = {took / baseline:.1f}x the empty process's")


if __name__ == "__main__":
    main()
