"""Starts the real Geotable bot (discord.py client) against the fake Discord, and restarts it."""

from __future__ import annotations

import asyncio
import contextlib

import discord.gateway
import discord.http
import yarl

from bot.client import Geotable
from bot.settings import Settings
from playground.fake_discord import FakeDiscord


class BotRunner:
    def __init__(self, fake: FakeDiscord, database: str, **settings):
        self.fake = fake
        self.settings = Settings(token="fake-token", database=database, **settings)
        self.bot: Geotable | None = None
        self._task: asyncio.Task | None = None

    async def start(self, tick: float = 0.05) -> Geotable:
        discord.http.Route.BASE = self.fake.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.fake.gateway_url)
        self.bot = Geotable(self.settings, tick=tick, guild_ready_timeout=0.01)
        self._task = asyncio.create_task(self.bot.start(self.settings.token))
        waiter = asyncio.create_task(self.bot.wait_until_ready())
        done, _ = await asyncio.wait({waiter, self._task}, timeout=15, return_when=asyncio.FIRST_COMPLETED)
        if self._task in done:
            self._task.result()  # raises what stopped the bot
        if waiter not in done:
            raise AssertionError("the bot never became ready")
        await asyncio.sleep(0.05)  # let the deadline loop start
        self.fake.mark_baseline()
        return self.bot

    async def stop(self) -> None:
        """Stops the bot the hard way a crash would: no goodbye beyond closing its connections."""
        if self.bot is not None:
            await self.bot.close()
        if self._task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._task, 5)
        self.bot = None

    async def restart(self) -> Geotable:
        await self.stop()
        return await self.start()
