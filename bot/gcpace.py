"""Full garbage collections at quiet moments, not in the middle of a burst of clicks.

A full (generation 2) collection walks every object the garbage collector tracks. Python starts one by itself
whenever enough survivors piled up, and in a burst of clicks that is exactly when a thousand interactions are
under way, each a tree of dicts (the message, the member, the components): the walk then held the event loop
40-60 ms (every click waiting for its acknowledgement waited as long). What start-up made is frozen out of the
walks (bot/loops.py); this module takes the rest: Python no longer starts full collections itself; the pacer
starts one when Python would have (``FULL_AFTER`` younger collections since the last) at a moment with no click
under way, when the walk is short, or anyway after ``LONGEST_WAIT`` seconds of a load that never pauses (the
cyclic garbage it frees waits no longer than that). The younger generations are collected as before.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

FULL_AFTER = 10
"""Generation-1 collections after which a full one is due (Python's own threshold for generation 2)."""

LONGEST_WAIT = 20.0
"""Seconds a due full collection waits for a quiet moment before it runs anyway."""

POLL = 0.1
"""Seconds between two looks at whether a full collection is due and the bot quiet."""

NEVER = 1 << 30
"""A generation-2 threshold Python never reaches: it starts no full collection itself."""


class GcPacer:
    """Runs the full collections (see the module). ``busy()``: whether a click is under way now."""

    def __init__(self, busy: Callable[[], bool]):
        self.busy = busy
        self.full = 0
        """Full collections the pacer ran (``forced`` of them during a load that did not pause)."""
        self.forced = 0
        self._thresholds: tuple[int, int, int] | None = None

    async def run(self) -> None:
        young, middle, _ = self._thresholds = gc.get_threshold()
        gc.set_threshold(young, middle, NEVER)
        due_since: float | None = None
        try:
            while True:
                await asyncio.sleep(POLL)
                if gc.get_count()[2] < FULL_AFTER:
                    continue
                now = time.monotonic()
                due_since = due_since or now
                waited = now - due_since
                if self.busy() and waited < LONGEST_WAIT:
                    continue
                self.forced += waited >= LONGEST_WAIT
                self.full += 1
                gc.collect(2)
                due_since = None
        finally:
            self.stop()

    def stop(self) -> None:
        """Python's own full collections again (the bot closed: tests go on in the same process)."""
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None
