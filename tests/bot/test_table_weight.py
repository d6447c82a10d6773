"""What an open table weighs on the garbage collector (counts, never timings): a full collection walks every
tracked object, and the bot caches every open table (bot/table/core.py); benchmarks/table_weight.py measures
the collection itself."""

import asyncio
import gc

import pytest

from bot.store import TableRow
from bot.table import recent
from bot.table.model import Table
from bot.table.words import events_words
from games import get_engine
from games.core import SYSTEM


def cached_table(moves: int, seed: int) -> Table:
    """A one-player Geek Out table after ``moves`` clicks, kept as moves.py keeps it."""
    engine = get_engine("geek_out")
    state = engine.new(1, {"turns": 10}, seed)
    names = ["Ana"]
    lines = recent.kept([], recent.Entry(SYSTEM, recent.start_text(engine, state, names)))
    said = None
    for _ in range(moves):
        state, events = engine.apply(state, 0, engine.legal_actions(state, 0)[0].key)
        said = events_words(events, names)
        lines = recent.kept(lines, recent.Entry(0, said))
    row = TableRow(id=seed, guild_id=1, channel_id=10, game="geek_out", options={"turns": 10}, seed=seed,
                   status="playing", players=[{"id": 5, "name": "Ana"}], host_id=5, state=engine.encode(state),
                   version=moves, message_id=20, last_move=None, end_reason=None, created_at=0.0, updated_at=0.0)
    table = Table(row, engine, recent=lines, last_words=recent.compact(said))
    table.set_state(None, row.state)  # as the cache loads it (``TableCore.get``): decoded when first read
    table.seat_token(0)
    table.screens.moved(moves, 0)
    return table


def tracked(table: Table) -> int:
    """The tracked objects only this table holds (what the process held before it is not counted)."""
    seen, todo = set(), [table]
    while todo:
        item = todo.pop()
        if id(item) in seen or id(item) in BEFORE or not gc.is_tracked(item) or isinstance(item, type):
            continue
        seen.add(id(item))
        todo.extend(gc.get_referents(item))
    return len(seen)


BEFORE: set[int] = set()


def test_a_cached_table_weighs_the_same_after_a_few_moves_as_after_a_whole_game():
    """Its log lines, last words and state stay a few dozen objects however long the game (they were ~115
    after a dozen moves and ~520 after 80: each line's Text tree, 64 lines kept)."""
    cached_table(12, 0)  # the process's own caches first
    gc.collect()
    BEFORE.update(id(o) for o in gc.get_objects())
    early, late = cached_table(12, 1), cached_table(150, 1)
    gc.collect()  # as the tables are when a full collection walks them: they are older than a pass
    assert tracked(early) == tracked(late)
    assert tracked(late) <= 30


def test_a_resting_table_keeps_its_state_as_one_string():
    """``Table.rest`` (an idle cached table): its state (~19 lists and dicts of Geek Out's) is one string until
    read again, and read again it is the same state."""
    cached_table(12, 0)
    gc.collect()
    BEFORE.update(id(o) for o in gc.get_objects())
    table = cached_table(40, 3)
    state, words = table.state, table.last_words
    table.last_words = recent.text(words)  # a computer's step without a board keeps its Text (moves.py)
    gc.collect()
    in_use = tracked(table)
    table.rest()
    assert table.resting() and tracked(table) <= 8 < in_use - 10
    assert type(table.last_words) is str and recent.said(table.last_words, "de") == recent.said(words, "de")
    assert table.state == state and not table.resting()
    table.state = None  # a lobby's: nothing to keep
    table.rest()
    assert table.state is None


@pytest.mark.parametrize("first", ["wait", "mark"])
async def test_a_rematch_waits_for_the_tables_message_either_way_round(first):
    table = cached_table(0, 2)
    assert not isinstance(table._posted, asyncio.Event)  # no Event a table until someone waits
    if first == "mark":
        table.mark_posted()
        await asyncio.wait_for(table.wait_posted(), 1)
        return
    waiting = asyncio.ensure_future(table.wait_posted())
    await asyncio.sleep(0)
    assert not waiting.done()
    table.mark_posted()
    await asyncio.wait_for(waiting, 1)
    await asyncio.wait_for(table.wait_posted(), 1)  # and anyone later at once
