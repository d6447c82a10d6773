"""Event-loop lag, measured from inside the bot: a task asks to wake every few milliseconds and records how
late it woke. A late wake-up means something held the loop (or the GIL) that long, and every click waiting
for its acknowledgement waited as long. Each late wake-up is also split by the loop thread's own CPU time over
the same spell (``held``): a lag the thread spent running (a long callback, a garbage collection) is ours to
fix; one it spent off the CPU (the machine busy with other processes, the GIL held by another thread) is not
the loop's work. Enabled by ``GEOTABLE_LOOP_STATS=<file>`` (the load benchmarks read
the file); off by default."""

from __future__ import annotations

import asyncio
import json
import os
import time
from array import array
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
        self.keep = keep
        # plain doubles, not a deque of float objects: 16 bytes a wake-up rather than 64, so the samples of a
        # long phase do not show as the bot's memory growth they are measured beside (benchmarks/load.py)
        self.lags = array("d")
        self.held = array("d")
        """Per wake-up: the part of its lag the loop thread spent on the CPU (at most the lag; the heartbeat's
        own interval of other work makes it an upper bound, within ``interval``)."""
        self.workers = workers
        """A callable giving the pids of helper processes (the render pool), for their CPU time and memory."""

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        last_write = loop.time()
        ran = time.thread_time()  # read once a wake-up: a thread's CPU clock can be a slow system call
        while True:
            start = loop.time()
            await asyncio.sleep(self.interval)
            lag = max(0.0, loop.time() - start - self.interval)
            now = time.thread_time()
            if len(self.lags) >= self.keep:  # the newest ``keep`` wake-ups (the oldest tenth dropped at once)
                del self.lags[: self.keep // 10], self.held[: self.keep // 10]
            self.lags.append(lag)
            self.held.append(min(lag, now - ran))
            ran = now
            if loop.time() - last_write >= 0.5:
                last_write = loop.time()
                self.write()

    def reset(self) -> None:
        del self.lags[:], self.held[:]

    def write(self) -> None:
        lags = list(self.lags)
        workers = list(self.workers())
        data = {
            "at": time.time(), "samples": len(lags), "p50": _percentile(lags, 0.5), "p99": _percentile(lags, 0.99),
            "max": max(lags, default=0.0), "held_max": max(self.held, default=0.0),
            "held_over_20ms": sum(h > 0.020 for h in self.held), "over_20ms": sum(lag > 0.020 for lag in lags), "cpu": cpu_seconds(), "rss": rss_bytes(),
            "workers": [{"pid": pid, "cpu": cpu_seconds(pid), "rss": rss_bytes(pid)} for pid in workers],
        }
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data))
        tmp.replace(self.path)
