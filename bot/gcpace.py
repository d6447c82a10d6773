"""Full garbage collections at quiet moments, not in the middle of a burst of clicks.

A full (generation 2) collection walks every object the garbage collector tracks. Python starts one by itself
whenever enough survivors piled up, and in a burst of clicks that is exactly when a thousand interactions are
under way, each a tree of dicts (the message, the member, the components): the walk then held the event loop
40-60 ms (every click waiting for its acknowledgement waited as long). What start-up made is frozen out of the
walks (bot/loops.py); this module takes the rest: Python no longer starts full collections itself; the pacer
starts one when Python would have (``FULL_AFTER`` younger collections since the last, and the heap grew by
``GROWTH`` since: Python's own skips a full collection until its long-lived objects grew by a quarter, which
with thousands of tables in memory makes full collections rare) at a moment with no click under way, when the
walk is short, or anyway after ``LONGEST_WAIT`` seconds of a load that never pauses (the cyclic garbage it
frees waits no longer than that). The younger generations are collected as before.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

FULL_AFTER = 10
"""Generation-1 collections after which a full one is due (Python's own threshold for generation 2)."""

GROWTH = 0.25
"""Growth of the heap since the last full collection without which none is due (Python's own rule: long-lived
objects a quarter more; here the allocated blocks, ``sys.getallocatedblocks``, which the pacer can read cheaply)."""

LONGEST_WAIT = 20.0
"""Seconds a due full collection waits for a quiet moment before it runs anyway."""

POLL = 0.1
"""Seconds between two looks at whether a full collection is due and the bot quiet."""

NEVER = 1 << 30
"""A generation-2 threshold Python never reaches: it starts no full collection itself."""

_own_thresholds: tuple[int, int, int] | None = None
"""Python's thresholds from before the first pacer of this process started (restored when the last stops)."""

_pacers = 0
"""Pacers running in this process (two bots in one process: the second must not take NEVER for Python's)."""


class GcPacer:
    """Runs the full collections (see the module). ``busy()``: whether a click is under way now."""

    def __init__(self, busy: Callable[[], bool]):
        self.busy = busy
        self.full = 0
        """Full collections the pacer ran (``forced`` of them during a load that did not pause)."""
        self.forced = 0
        self._holding = False
        self._blocks = sys.getallocatedblocks()
        """The heap's allocated blocks after the last full collection (``GROWTH``)."""
        self._younger = gc.get_count()[2]
        """Younger collections since the last full one, at the last look."""

    def due(self) -> bool:
        """Whether Python would start a full collection now."""
        younger = gc.get_count()[2]
        if younger < self._younger:  # a full collection made elsewhere (bot/loops.py's before the freeze)
            self._blocks = sys.getallocatedblocks()
        self._younger = younger
        return younger >= FULL_AFTER and sys.getallocatedblocks() - self._blocks >= self._blocks * GROWTH

    async def run(self) -> None:
        self._hold()
        due_since: float | None = None
        try:
            while True:
                await asyncio.sleep(POLL)
                if not self.due():
                    due_since = None  # (also collected elsewhere meanwhile: the next one waits afresh)
                    continue
                now = time.monotonic()
                due_since = due_since or now
                waited = now - due_since
                if self.busy() and waited < LONGEST_WAIT:
                    continue
                self.forced += waited >= LONGEST_WAIT
                self.full += 1
                gc.collect(2)
                self._blocks, self._younger = sys.getallocatedblocks(), 0
                due_since = None
        finally:
            self.stop()

    def _hold(self) -> None:
        global _own_thresholds, _pacers
        if not self._holding:
            if _pacers == 0:
                _own_thresholds = gc.get_threshold()
            _pacers += 1
            self._holding = True
        young, middle, _ = _own_thresholds
        gc.set_threshold(young, middle, NEVER)

    def stop(self) -> None:
        """Python's own full collections again once no pacer runs (the bot closed: tests go on in the same
        process)."""
        global _pacers
        if self._holding:
            self._holding = False
            _pacers -= 1
            if _pacers == 0:
                gc.set_threshold(*_own_thresholds)
