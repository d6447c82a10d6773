"""The thinking workers (bot/workers/thinkpool.py): a call cut short never hands its reply to the next call."""

import asyncio
import contextlib
import operator
import time

from bot.workers.thinkpool import ThinkPool, think


async def test_a_call_cut_short_leaves_no_reply_for_the_next_call():
    pool = ThinkPool(1)
    try:
        await pool.ready()
        first = pool.pids()
        slow = asyncio.create_task(pool.run(time.sleep, 0.3))
        while not any(w.owed for w in pool._workers):  # the request is sent...
            await asyncio.sleep(0)
        slow.cancel()  # ...and its caller gives up before the reply (a bot stopped while its computer thought)
        with contextlib.suppress(asyncio.CancelledError):
            await slow
        assert await pool.run(operator.add, 1, 2) == 3  # not the sleep's None
        assert await pool.run(operator.mul, 3, 4) == 12
        assert pool.pids() != first  # the worker that owed a reply was replaced
    finally:
        for worker in pool._workers:
            worker.close()


async def test_a_computer_thinks_in_a_worker_from_the_state_it_is_sent():
    from games import get_engine

    engine = get_engine("geek_out")
    state = engine.new(2, {}, seed=5)
    seat = sorted(engine.to_act(state))[0]
    pool = ThinkPool(1)
    try:
        keys = await pool.run(think, "geek_out", state, seat, "normal", 7, False)
        assert keys == think("geek_out", state, seat, "normal", 7, False)  # the same decision: pure, seeded
        assert keys and keys[0] in {a.key for a in engine.legal_actions(state, seat)}
    finally:
        for worker in pool._workers:
            worker.close()


async def test_thinking_workers_run_below_the_bots_priority_and_render_workers_between():
    """A computer's search yields the CPU to the event loop and the board renders (people's clicks); the
    renders yield it to the event loop (every click's acknowledgement)."""
    import os

    from bot.workers import renderpool, thinkpool

    pools = [ThinkPool(1), renderpool.RenderPool(1)]
    try:
        for pool in pools:
            pool.start()
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        think, render = ([os.getpriority(os.PRIO_PROCESS, pid) for pid in pool.pids()] for pool in pools)
        assert think == [min(19, ours + thinkpool.NICENESS)] and render == [min(19, ours + renderpool.NICENESS)]
        assert (ours < render[0] or ours == 19) and render[0] <= think[0]
    finally:
        for pool in pools:
            for worker in pool._workers:
                worker.close()


def test_a_computer_holding_for_the_people_enters_its_program_but_not_its_lock_in():
    from games import get_engine

    engine = get_engine("globe_twister")
    for options in ({}, {"no_timer": True}):
        state = engine.new(2, options, seed=3)  # seat 0 a person, seat 1 the computer: both program
        whole = think("globe_twister", state, 1, "strong", 7, True)
        held = think("globe_twister", state, 1, "strong", 7, True, hold=True)
        assert whole[-1] == "lock" and held == whole[:-1]  # the same program, all but the lock-in
        for key in held:
            state, _events = engine.apply(state, 1, key)
        assert engine.to_act(state) == {0, 1}  # who is to act is unchanged: nobody's part ended
        assert think("globe_twister", state, 1, "strong", 7, True, hold=True) == []  # it only waits now


def test_a_computer_step_is_a_move_that_says_something_a_silent_pick_comes_with_what_completes_it():
    """One firing, one step the channel can see: a Geek Out die picked (its target to come: the move says
    nothing) is played together with its target; a move that says something is a step of its own."""
    from games import get_engine

    engine = get_engine("geek_out")
    seen = {"pick and target": 0, "one move": 0}
    for seed in range(40):
        state = engine.new(2, {}, seed=seed)
        seat = sorted(engine.to_act(state))[0]
        while seat in engine.to_act(state) and not engine.is_over(state):
            keys = think("geek_out", state, seat, "strong", 7, False)
            said = []
            for key in keys:
                state, events = engine.apply(state, seat, key)
                said.append(any(e.text for e in events))
            assert said[-1] or seat not in engine.to_act(state)  # the firing ends with a move that says something
            assert not any(said[:-1])  # ...and only silent picks came before it
            seen["pick and target" if len(keys) > 1 else "one move"] += 1
    assert seen["pick and target"] and seen["one move"]
