"""A render call cut short (cancelled while its worker draws: a bot stopped mid-board, a test's event loop ending)
leaves its reply in the worker's socket; the next call must get its own result, not that one (it used to: a
board's PNG bytes came back as a palette, and the next bot's workers "did not warm up")."""

import asyncio
import operator

from bot.workers.renderpool import RenderPool


async def test_a_call_cut_short_never_hands_its_reply_to_the_next_call():
    pool = RenderPool(1)
    try:
        assert await pool.run(operator.add, 1, 2) == 3  # the worker's connection is open: a call writes at once
        cut = asyncio.ensure_future(pool.run(operator.mul, 6, 7))
        await asyncio.sleep(0)  # it has sent its call and waits for the reply
        cut.cancel()
        await asyncio.gather(cut, return_exceptions=True)
        assert await pool.run(operator.add, 2, 2) == 4
        assert await pool.run(operator.sub, 9, 1) == 8
    finally:
        for worker in pool._workers:
            worker.close()


def test_a_call_cut_short_when_its_event_loop_ends_is_no_trouble_in_the_next_loop():
    """As between two tests (or two bots in one process): the first loop ends while a call waits for its reply."""
    pool = RenderPool(1)

    async def first() -> None:
        assert await pool.run(operator.add, 1, 2) == 3
        asyncio.ensure_future(pool.run(operator.mul, 6, 7))
        await asyncio.sleep(0)  # sent; the loop ends before the reply is read

    async def second() -> list:
        return [await pool.run(operator.add, 2, 2), await pool.run(operator.sub, 9, 1)]

    try:
        asyncio.run(first())
        assert asyncio.run(second()) == [4, 8]
    finally:
        for worker in pool._workers:
            worker.close()
