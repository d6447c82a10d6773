"""Runs the real Geotable bot in its own process against a loopback Discord listening on 127.0.0.1:PORT.

    python -m playground.run_bot --port 8123 --database data/playground.db [--turn-timeout 600]
        [--shard-count 2 --shard-ids 0]

The only difference from ``python -m bot`` is where discord.py connects: the REST base and the gateway URL
point at the fake (:mod:`playground.fake_discord`), and the token is a dummy. :class:`BotProcess` starts,
restarts and kills it from asyncio code: the playground (so the page outlives a restart of the bot), kill -9
tests, several processes sharing the shards, and the load benchmarks (so the fake's own work does not share the bot's event loop).
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import logging
import os
import signal
import sys

import discord.gateway
import discord.http
import yarl

PARENT_ENV = "GEOTABLE_PARENT"
"""Set by :class:`BotProcess` to its own pid: the child dies with that process (:func:`die_with_parent`)."""
PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """SIGKILL this process when the process named by GEOTABLE_PARENT dies, so an interrupted playground,
    test or benchmark leaves no bot behind (Linux prctl; a no-op elsewhere or when the variable is unset)."""
    parent = os.environ.get(PARENT_ENV)
    if not parent:
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != int(parent):  # the parent died before prctl
        os._exit(1)


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
    parser.add_argument("--lease-heartbeat", type=float, default=5.0, help="GEOTABLE_LEASE_HEARTBEAT")
    parser.add_argument("--lease-stale", type=float, default=20.0, help="GEOTABLE_LEASE_STALE")
    parser.add_argument("--computer-pause", type=float, default=None, help="GEOTABLE_COMPUTER_PAUSE")
    parser.add_argument("--computer-step-pause", type=float, default=None, help="GEOTABLE_COMPUTER_STEP_PAUSE")
    parser.add_argument("--computer-board-every", type=float, default=None, help="GEOTABLE_COMPUTER_BOARD_EVERY")
    args = parser.parse_args(argv)
    die_with_parent()
    # A Ctrl-C in a terminal reaches the whole process group: the parent (the playground, a test) stops this
    # process with SIGTERM once it is ready to; the render workers inherit the ignored SIGINT (no tracebacks).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    discord.http.Route.BASE = f"http://127.0.0.1:{args.port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{args.port}/gateway")

    from bot.__main__ import run_until_stopped
    from bot.settings import Settings, parse_shards

    shard_count, shard_ids = parse_shards(args.shard_count, args.shard_ids)
    settings = Settings(token="fake-token", database=args.database, turn_timeout=args.turn_timeout,
                        lobby_timeout=args.lobby_timeout, log_level=args.log_level, loop_stats=args.loop_stats,
                        shard_count=shard_count, shard_ids=shard_ids, lease_heartbeat=args.lease_heartbeat,
                        lease_stale=args.lease_stale,
                        # the computers' pace: the bot's own defaults unless given
                        **{name: value for name, value in (("computer_pause", args.computer_pause),
                                                           ("computer_step_pause", args.computer_step_pause),
                                                           ("computer_board_every", args.computer_board_every))
                           if value is not None})
    # the same start and stop as `python -m bot`: SIGTERM stops it cleanly, a database mistake is one sentence
    sys.exit(run_until_stopped(settings, "--database", tick=args.tick, guild_ready_timeout=0.01))


class BotProcess:
    """The bot as a child process talking to ``fake`` (a started FakeDiscord).

    ``options`` become command-line options (``turn_timeout=5`` -> ``--turn-timeout 5``); ``log_path``
    takes the child's output (else it shares ours); ``module`` is the entry point (benchmarks use their own,
    which wraps :func:`main`)."""

    def __init__(self, fake, database: str, *, log_path: str | None = None, env: dict | None = None,
                 module: str = "playground.run_bot", **options):
        self.fake = fake
        self.database = database
        self.log_path = log_path
        self.env = env or {}
        self.module = module
        self.options = options
        self.proc: asyncio.subprocess.Process | None = None

    @property
    def shards(self) -> int:
        """How many shards (gateway sessions) the process runs."""
        from bot.settings import parse_shards

        count, ids = parse_shards(str(self.options.get("shard_count", "")), str(self.options.get("shard_ids", "")))
        return len(ids) if ids else count or self.fake.shard_count

    async def start(self, timeout: float = 120.0) -> None:
        """Starts the bot and returns once it is connected, has synced its commands and done its ready work."""
        connected = self.fake.connections
        args = [sys.executable, "-m", self.module, "--port", str(self.fake.port), "--database", self.database]
        for name, value in self.options.items():
            args += [f"--{name.replace('_', '-')}", str(value)]
        env = dict(os.environ, **self.env, **{PARENT_ENV: str(os.getpid())})
        if self.log_path:
            with open(self.log_path, "ab") as log:
                self.proc = await asyncio.create_subprocess_exec(
                    *args, cwd=os.getcwd(), env=env, stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log)
        else:
            self.proc = await asyncio.create_subprocess_exec(*args, cwd=os.getcwd(), env=env)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.fake.connections < connected + self.shards or not self.fake.commands:
            if self.proc.returncode is not None:
                where = f"; see {self.log_path}" if self.log_path else ""
                raise RuntimeError(f"the bot process exited with {self.proc.returncode}{where}")
            if loop.time() > deadline:
                raise TimeoutError("the bot process never connected")
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # let it finish its ready work (the heal pass, the timer loop)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def kill(self) -> None:
        """SIGKILL: no goodbye, no flush, exactly like a crash."""
        if self.running:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()
        self.proc = None

    async def stop(self) -> None:
        if self.running:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                await self.kill()
        self.proc = None

    async def restart(self) -> None:
        await self.stop()
        await self.start()


if __name__ == "__main__":
    main()
