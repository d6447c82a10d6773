"""``python -m benchmarks``: speed figures as ratios against baselines measured in the same run."""

import contextlib
import statistics
import tempfile
import time
from pathlib import Path


async def percentiles(call, repeats: int = 300) -> tuple[float, float]:
    """p50 and p99 in ms of ``await call()`` over ``repeats`` calls, after a warm-up of 20 (database queries:
    benchmarks.history, .turnbased, .daily)."""
    for _ in range(20):
        await call()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[max(int(len(samples) * 0.99) - 1, 0)]


def work_folder(stack: contextlib.ExitStack, keep: str | None, name: str) -> Path:
    """Where a run keeps its database and logs: ``keep`` (``--keep DIR``, made if missing), else a temporary
    folder removed when ``stack`` closes."""
    if keep:
        folder = Path(keep)
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    return Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"geotable-{name}-")))
