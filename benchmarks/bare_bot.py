"""The baseline of a click: a bare discord.py bot, in its own process, against the same fake Discord.

    python -m benchmarks.bare_bot --port 8123 --png board.png

On a click of a button whose custom_id starts with ``bare:`` it does what any discord.py bot must do for a
move and nothing else: defer (type 6), then edit the clicked message through the channel endpoint with an
embed, its buttons, and a pre-encoded PNG (give it a real board, so the upload is the same size). No
database, no game, no rendering. :class:`BareBotProcess` starts and stops it from asyncio code (the load
benchmark, ``benchmarks/load.py``), and :func:`bare_message` is a message it can be clicked on.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import signal
import sys

import discord
import discord.gateway
import discord.http
import yarl

from playground.run_bot import PARENT_ENV, die_with_parent

CUSTOM_ID = "bare:go"


def _view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Go", custom_id=CUSTOM_ID, style=discord.ButtonStyle.primary))
    for i in range(3):
        view.add_item(discord.ui.Button(label=f"Other {i}", custom_id=f"bare:other{i}"))
    view.add_item(discord.ui.Button(label="Rules", custom_id="bare:rules", row=4))
    return view


class BareBot(discord.Client):
    def __init__(self, png: bytes, loop_stats: str | None = None):
        super().__init__(intents=discord.Intents.none() | discord.Intents(guilds=True))
        self.png = png
        self.count = 0
        self.loop_stats = loop_stats
        self._watch: asyncio.Task | None = None

    async def setup_hook(self) -> None:
        if self.loop_stats:  # the same loop-lag watch as the real bot's (SIGUSR1 resets it)
            from bot.loopwatch import LoopWatch

            watch = LoopWatch(self.loop_stats)
            self._watch = asyncio.create_task(watch.run())
            asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, watch.reset)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        if not str((interaction.data or {}).get("custom_id", "")).startswith("bare:"):
            return
        await interaction.response.defer()
        self.count += 1
        name = f"board{self.count}.png"
        embed = discord.Embed(title="Bare", description=f"Click {self.count}")
        embed.set_image(url=f"attachment://{name}")
        await interaction.message.edit(embed=embed, attachments=[discord.File(io.BytesIO(self.png), filename=name)],
                                       view=_view())


def bare_message(fake, channel_id: int) -> dict:
    """A message of the bot in ``channel_id`` on the fake, with the bare bot's buttons, to be clicked."""
    return fake._create(channel_id, {"content": "", "embeds": [{"title": "Bare"}], "components": _view().to_components()},
                        {}, author=fake.bot_user)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--png", required=True, help="a PNG file sent with every edit")
    parser.add_argument("--loop-stats", default=None, help="file for its loop lag, CPU and memory (bot/loopwatch.py)")
    args = parser.parse_args(argv)
    die_with_parent()
    discord.http.Route.BASE = f"http://127.0.0.1:{args.port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{args.port}/gateway")
    with open(args.png, "rb") as f:
        png = f.read()

    async def run() -> None:
        bot = BareBot(png, args.loop_stats)
        async with bot:
            await bot.start("fake-token")

    asyncio.run(run())


class BareBotProcess:
    """The bare bot as a child process talking to ``fake`` (a started FakeDiscord)."""

    def __init__(self, fake, png_path: str, log_path: str | None = None, loop_stats: str | None = None):
        self.fake = fake
        self.png_path = png_path
        self.loop_stats = loop_stats
        self.log_path = log_path
        self.proc: asyncio.subprocess.Process | None = None
        self._log = None

    async def start(self, timeout: float = 30.0) -> None:
        connected = self.fake.connections
        self._log = open(self.log_path or os.devnull, "ab")
        extra = ["--loop-stats", self.loop_stats] if self.loop_stats else []
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "benchmarks.bare_bot", "--port", str(self.fake.port), "--png", self.png_path, *extra,
            cwd=os.getcwd(), stdin=asyncio.subprocess.DEVNULL, stdout=self._log, stderr=self._log,
            env=dict(os.environ, **{PARENT_ENV: str(os.getpid())}))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.fake.connections == connected:
            if self.proc.returncode is not None:
                raise RuntimeError(f"the bare bot exited with {self.proc.returncode}")
            if loop.time() > deadline:
                raise TimeoutError("the bare bot never connected")
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGKILL)
            await self.proc.wait()
        self.proc = None
        if self._log:
            self._log.close()
            self._log = None


if __name__ == "__main__":
    main()
