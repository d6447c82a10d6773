"""The worker processes' protocol (bot/renderpool.py, shared by bot/thinkpool.py): a call cut short never hands
its reply to the next call."""

import asyncio
import contextlib
import operator
import time

from bot.renderpool import _Worker


async def test_a_reply_left_behind_by_a_cancelled_call_is_not_taken_for_the_next_calls():
    worker = _Worker(preload="bot.thinkpool", name="geotable-test")
    try:
        slow = asyncio.create_task(worker.call(time.sleep, (0.3,)))
        while worker.calls < 1:  # the request is sent...
            await asyncio.sleep(0)
        slow.cancel()  # ...and its caller gives up before the reply (a bot closed mid-call)
        with contextlib.suppress(asyncio.CancelledError):
            await slow
        assert await worker.call(operator.add, (1, 2)) == 3  # not the sleep's None
        assert await worker.call(operator.mul, (3, 4)) == 12
    finally:
        worker.close()
