"""Work on the event loop paced for the clicks: full garbage collections wait for a quiet moment (bot/gcpace.py,
at most LONGEST_WAIT), and a person's board gets the next free worker before background work (bot/workers/pool.py)."""

import asyncio
import gc
import sys

import pytest

from bot import gcpace

GROWN: list = []
"""Objects kept past the younger collections: the heap grows by what makes a full collection due."""


def younger_collections(n: int, grow: bool = True) -> None:
    if grow:
        GROWN.extend([i] for i in range(int(sys.getallocatedblocks() * gcpace.GROWTH) + 1000))
    for _ in range(n):
        gc.collect(1)  # each counts towards generation 2 as Python's own would


@pytest.fixture
def quick(monkeypatch):
    monkeypatch.setattr(gcpace, "POLL", 0.01)
    monkeypatch.setattr(gcpace, "LONGEST_WAIT", 0.3)
    gc.collect()  # no younger collections counted yet (Python may have left some uncollected)
    yield
    GROWN.clear()


async def test_a_due_full_collection_runs_when_no_click_is_under_way(quick):
    before = gc.get_threshold()
    pacer = gcpace.GcPacer(busy=lambda: False)
    task = asyncio.create_task(pacer.run())
    await asyncio.sleep(0.05)
    assert gc.get_threshold()[2] == gcpace.NEVER
    assert pacer.full == 0
    younger_collections(gcpace.FULL_AFTER)
    await asyncio.sleep(0.05)
    assert (pacer.full, pacer.forced) == (1, 0)
    assert gc.get_count()[2] == 0
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert gc.get_threshold() == before


async def test_a_busy_bot_gets_its_full_collection_after_the_longest_wait(quick):
    busy = [True]
    pacer = gcpace.GcPacer(busy=lambda: busy[0])
    task = asyncio.create_task(pacer.run())
    await asyncio.sleep(0.02)
    younger_collections(gcpace.FULL_AFTER)
    await asyncio.sleep(0.15)
    assert pacer.full == 0  # clicks under way: it waits
    await asyncio.sleep(0.3)
    assert (pacer.full, pacer.forced) == (1, 1)  # but no longer than LONGEST_WAIT
    younger_collections(gcpace.FULL_AFTER)
    busy[0] = False
    await asyncio.sleep(0.05)
    assert (pacer.full, pacer.forced) == (2, 1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def test_a_person_s_board_gets_the_next_free_worker_before_background_work():
    """bot/workers/pool.py: calls waiting for a worker are served people first, each kind in its order."""
    from bot.workers.pool import Idle

    idle, order = Idle(), []
    idle.put_nowait("worker")
    first = await idle.get()  # the only worker is busy from here on

    async def wait(name: str, later: bool) -> None:
        order.append((name, await idle.get(later=later)))
        idle.put_nowait("worker")

    waiting = [asyncio.create_task(wait("computer 1", True)), asyncio.create_task(wait("computer 2", True))]
    await asyncio.sleep(0)
    waiting += [asyncio.create_task(wait("person 1", False)), asyncio.create_task(wait("person 2", False))]
    await asyncio.sleep(0)
    assert idle.waiting() == (2, 2)
    idle.put_nowait(first)
    await asyncio.gather(*waiting)
    assert [name for name, _ in order] == ["person 1", "person 2", "computer 1", "computer 2"]


async def test_a_waiting_call_cancelled_as_it_was_handed_a_worker_passes_it_on():
    from bot.workers.pool import Idle

    idle = Idle()
    cut_short = asyncio.create_task(idle.get(later=True))
    other = asyncio.create_task(idle.get())
    await asyncio.sleep(0)
    idle.put_nowait("worker")  # to the person's call
    other.cancel()  # cancelled before it could run: the worker goes on to the next waiting call
    await asyncio.sleep(0)
    assert await asyncio.wait_for(cut_short, 1) == "worker"  # (without the hand-on: a timeout, not a hang)


async def test_python_s_thresholds_come_back_when_two_pacers_stop_in_either_order():
    """Two bots in one process (tests): the second pacer must not keep NEVER as Python's own threshold."""
    before = gc.get_threshold()
    for order in ((0, 1), (1, 0)):
        tasks = []
        for _ in range(2):
            tasks.append(asyncio.create_task(gcpace.GcPacer(busy=lambda: False).run()))
            await asyncio.sleep(0)
        assert gc.get_threshold()[2] == gcpace.NEVER
        for n in order:
            tasks[n].cancel()
            with pytest.raises(asyncio.CancelledError):
                await tasks[n]
        assert gc.get_threshold() == before, order


async def test_background_work_gets_a_worker_under_a_load_of_clicks_that_never_pauses(monkeypatch):
    """People first, but not for ever: a background call that has waited BACKGROUND_WAITS_AT_MOST goes next
    (else a steady load of clicks held every computer's board, and the deadline loop awaiting them, without end)."""
    from bot.workers import pool

    monkeypatch.setattr(pool, "BACKGROUND_WAITS_AT_MOST", 0.2)
    idle, clicks, stop = pool.Idle(), [0], asyncio.Event()
    idle.put_nowait("worker")

    async def person() -> None:  # two people take turns: one of them always waits for the worker
        while not stop.is_set():
            worker = await idle.get()
            await asyncio.sleep(0.01)
            clicks[0] += 1
            idle.put_nowait(worker)

    people = [asyncio.create_task(person()) for _ in range(2)]
    await asyncio.sleep(0.05)
    try:
        worker = await asyncio.wait_for(idle.get(later=True), 1.5)
        assert clicks[0] >= 10  # the people went first meanwhile
        idle.put_nowait(worker)
    finally:
        stop.set()
        await asyncio.gather(*people)


async def test_no_full_collection_while_the_heap_did_not_grow_as_python_s_own_would_not(quick):
    """Python skips a due full collection until its long-lived objects grew by a quarter (with thousands of tables
    in memory, its full collections are rare): the pacer must not walk the heap more often than Python would."""
    pacer = gcpace.GcPacer(busy=lambda: False)
    task = asyncio.create_task(pacer.run())
    try:
        await asyncio.sleep(0.02)
        younger_collections(3 * gcpace.FULL_AFTER, grow=False)  # what survives stays young: nothing grew
        await asyncio.sleep(0.1)
        assert pacer.full == 0
        younger_collections(gcpace.FULL_AFTER)
        await asyncio.sleep(0.1)
        assert pacer.full == 1
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def test_a_full_collection_made_elsewhere_starts_the_wait_afresh(quick):
    """A full collection due, then made by someone else (bot/loops.py's gc.collect before the freeze): the next
    one due waits LONGEST_WAIT for a quiet moment again, not forced at once on the old wait."""
    pacer = gcpace.GcPacer(busy=lambda: True)
    task = asyncio.create_task(pacer.run())
    try:
        await asyncio.sleep(0.02)
        younger_collections(gcpace.FULL_AFTER)
        await asyncio.sleep(0.1)
        gc.collect()  # not the pacer's
        await asyncio.sleep(0.4)  # longer than LONGEST_WAIT: nothing due meanwhile
        younger_collections(gcpace.FULL_AFTER, grow=False)
        assert not pacer.due()  # what grew before that collection counts no more
        younger_collections(0)
        await asyncio.sleep(0.1)
        assert pacer.full == 0  # clicks under way, and it has waited 0.1 s of 0.3
        await asyncio.sleep(0.3)
        assert (pacer.full, pacer.forced) == (1, 1)
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
