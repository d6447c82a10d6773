"""The first board after a (re)start against an ordinary board of the same run.

    python -m benchmarks.first_click [--starts 3] [--game geomancy]

The real bot runs in its own process (playground/run_bot.py) against the loopback Discord. Each start: the
time from launching the process until it is online (connected: what the playground page shows), then at once
a first table (/play, then Start: the click that draws the game's first board), then more tables the same way.
Printed per start: first Start-to-board / the median of the later ones (target: about 1; it was 3-11 s against
~0.1 s when the render workers were still warming up while the bot was already online), and the workers'
warm-up from the bot's log. The first start has no palettes kept on disk (a fresh clone: the workers learn
them); the later ones are restarts (they read them, see ``render.palette``).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playground.fake_discord import FakeDiscord
from playground.run_bot import BotProcess

CHANNELS = tuple(range(700, 708))
USER = 301


async def start_to_board(fake: FakeDiscord, channel: int, game: str) -> float:
    """/play then Start in ``channel``: seconds from the Start click until the table's board is posted."""
    await fake.slash(USER, channel, "play", game, settle=False)
    await until(lambda: fake.messages_in(channel) and fake.messages_in(channel)[-1]["components"])
    lobby = fake.messages_in(channel)[-1]
    begun = time.perf_counter()
    await fake.click(USER, lobby, "Start", settle=False)
    await until(lambda: any(m["attachments"] for m in fake.messages_in(channel)))
    took = time.perf_counter() - begun
    await asyncio.sleep(0.3)  # the table's other work (panels, pings) done before the next table
    return took


async def until(condition, timeout: float = 60.0) -> None:
    end = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > end:
            raise TimeoutError("the bot never answered")
        await asyncio.sleep(0.002)


async def run(starts: int, game: str) -> list[dict]:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {"GEOTABLE_CACHE_DIR": str(Path(tmp) / "cache")}  # empty at the first start
        for n in range(starts):
            fake = FakeDiscord(channels=CHANNELS, threads=())
            await fake.start()
            fake.add_user(USER, "Ana")
            bot = BotProcess(fake, str(Path(tmp) / f"db{n}.sqlite"), log_path=str(Path(tmp) / "bot.log"), env=env,
                             log_level="INFO")
            try:
                launched = time.perf_counter()
                await bot.start(timeout=120)
                online = time.perf_counter() - launched
                times = [await start_to_board(fake, channel, game) for channel in CHANNELS]
            finally:
                await bot.kill()
                await fake.stop()
            warm = [line for line in (Path(tmp) / "bot.log").read_text().splitlines() if "render workers warm" in line]
            print("   ", warm[-1].split(": ", 1)[-1] if warm else "(no warm-up line in the log)")
            first, rest = times[0], statistics.median(times[1:])
            out.append({"online": online, "first": first, "ordinary": rest, "ratio": first / rest, "all": times})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--game", default="geek-out")
    args = parser.parse_args(argv)
    print(f"first board after a cold start ({args.game}, {args.starts} starts): first Start-to-board / the median"
          " of the next 7 tables' (target about 1)")
    for n, r in enumerate(asyncio.run(run(args.starts, args.game))):
        print(f"  {'fresh clone' if n == 0 else 'restart':11} online after {r['online']:.2f} s; first board {r['first'] * 1e3:.0f} ms / ordinary"
              f" {r['ordinary'] * 1e3:.0f} ms = {r['ratio']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
