"""Runs the real Geotable bot in its own process against a fake Discord listening on 127.0.0.1:PORT.

    python -m tests.discord_fake.run_bot --port 8123 --database /tmp/g.db [--turn-timeout 600]
        [--shard-count 2 --shard-ids 0]

Used where the bot must be a separate process: kill -9 tests, several processes sharing the shards, and the
load benchmarks (so the fake's own work does not share the bot's event loop). :class:`BotProcess` starts and
kills it from asyncio code.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys

import discord.gateway
import discord.http
import yarl


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--turn-timeout", type=int, default=600)
    parser.add_argument("--lobby-timeout", type=int, default=1800)
    parser.add_argument("--tick", type=float, default=1.0)
    parser.add_argument("--log-level", default="WARNING")
    parser.add_argument("--loop-stats", default=None, help="file for the bot's loop lag, CPU and memory")
    parser.add_argument("--shard-count", default="", help="GEOTABLE_SHARD_COUNT")
    parser.add_argument("--shard-ids", default="", help="GEOTABLE_SHARD_IDS")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    discord.http.Route.BASE = f"http://127.0.0.1:{args.port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{args.port}/gateway")

    from bot.client import Geotable
    from bot.settings import Settings, parse_shards

    shard_count, shard_ids = parse_shards(args.shard_count, args.shard_ids)
    settings = Settings(token="fake-token", database=args.database, turn_timeout=args.turn_timeout,
                        lobby_timeout=args.lobby_timeout, log_level=args.log_level, loop_stats=args.loop_stats,
                        shard_count=shard_count, shard_ids=shard_ids)

    async def run() -> None:
        bot = Geotable(settings, tick=args.tick, guild_ready_timeout=0.01)
        async with bot:
            await bot.start(settings.token)

    asyncio.run(run())


class BotProcess:
    """The bot as a child process of the test or benchmark, talking to ``fake`` (a started FakeDiscord).
    ``output``: a file for the child's output (else it shares the parent's)."""

    def __init__(self, fake, database: str, output: str | None = None, **options):
        self.fake = fake
        self.database = database
        self.output = output
        self.options = options
        self.proc: asyncio.subprocess.Process | None = None

    @property
    def shards(self) -> int:
        """How many shards (gateway sessions) the process runs."""
        from bot.settings import parse_shards

        count, ids = parse_shards(str(self.options.get("shard_count", "")), str(self.options.get("shard_ids", "")))
        return len(ids) if ids else count or self.fake.shard_count

    async def start(self, timeout: float = 30.0) -> None:
        connected = self.fake.connections
        args = [sys.executable, "-m", "tests.discord_fake.run_bot", "--port", str(self.fake.port),
                "--database", self.database]
        for name, value in self.options.items():
            args += [f"--{name.replace('_', '-')}", str(value)]
        output = open(self.output, "ab") if self.output else None  # None: the parent's
        try:
            self.proc = await asyncio.create_subprocess_exec(*args, cwd=os.getcwd(), stdout=output, stderr=output)
        finally:
            if output is not None:
                output.close()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.fake.connections < connected + self.shards or not self.fake.commands:
            if self.proc.returncode is not None:
                raise RuntimeError(f"the bot process exited with {self.proc.returncode}")
            if loop.time() > deadline:
                raise TimeoutError("the bot process never connected")
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # let it finish its ready work (the heal pass, the timer loop)

    async def kill(self) -> None:
        """SIGKILL: no goodbye, no flush, exactly like a crash."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()
        self.proc = None

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                await self.kill()
        self.proc = None


if __name__ == "__main__":
    main()
