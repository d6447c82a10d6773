"""Event-loop lag, measured from inside the bot: a task asks to wake every few milliseconds and records how
late it woke. A late wake-up means something held the loop (or the GIL) that long, and every click waiting
for its acknowledgement waited as long. Enabled by ``GEOTABLE_LOOP_STATS=<file>`` (the load benchmarks read
the file); off by default."""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections import deque
from pathlib import Path


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rss_bytes(pid: int | str = "self") -> int:
    """Resident memory of a process (Linux /proc; 0 elsewhere)."""
    try:
        pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def cpu_seconds(pid: int | str = "self") -> float:
    """User + system CPU time of a process (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class LoopWatch:
    def __init__(self, path: str, interval: float = 0.005, keep: int = 200_000, workers=lambda: []):
        self.path = Path(path)
        self.interval = interval
        self.lags: deque[float] = deque(maxlen=keep)
        self.workers = workers
        """A callable giving the pids of helper processes (the render pool), for their CPU time and memory."""

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        last_write = loop.time()
        while True:
            start = loop.time()
            await asyncio.sleep(self.interval)
            self.lags.append(max(0.0, loop.time() - start - self.interval))
            if loop.time() - last_write >= 0.5:
                last_write = loop.time()
                self.write()

    def reset(self) -> None:
        self.lags.clear()

    def write(self) -> None:
        lags = list(self.lags)
        workers = list(self.workers())
        data = {
            "at": time.time(), "samples": len(lags), "p50": _percentile(lags, 0.5), "p99": _percentile(lags, 0.99),
            "max": max(lags, default=0.0), "cpu": cpu_seconds(), "rss": rss_bytes(),
            "workers": [{"pid": pid, "cpu": cpu_seconds(pid), "rss": rss_bytes(pid)} for pid in workers],
        }
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data))
        tmp.replace(self.path)
