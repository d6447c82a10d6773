"""Starts the real Geotable bot (discord.py client) against the fake Discord, and restarts it."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator

import discord.gateway
import discord.http
import yarl

from bot.client import Geotable
from bot.settings import Settings
from playground.fake_discord import FakeDiscord

LIMIT = 120.0
"""Seconds a start or a stop may take: generous, so that a busy machine only makes them slower (a hang fails)."""


class BotRunner:
    def __init__(self, fake: FakeDiscord, database: str, **settings):
        self.fake = fake
        self.settings = Settings(token="fake-token", database=database, **settings)
        self.bot: Geotable | None = None
        self._task: asyncio.Task | None = None

    async def start(self, tick: float = 0.05, *, later: float = 0.0) -> Geotable:
        """Starts the bot; returns once it is ready and its deadline loop has started. ``later``: seconds its
        clock runs ahead of the wall clock from its first moment, as if it came back that long after a stop
        (the deadlines that came due meanwhile fire at once), with no real waiting."""
        discord.http.Route.BASE = self.fake.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.fake.gateway_url)
        bot = self.bot = Geotable(self.settings, tick=tick, guild_ready_timeout=0.01)
        if later:
            setup_hook = bot.setup_hook

            async def setup_with_a_later_clock() -> None:
                await setup_hook()  # the service exists from here, its deadline loop waits for ready
                bot.service.clock = lambda: time.time() + later

            bot.setup_hook = setup_with_a_later_clock
        self._task = asyncio.create_task(bot.start(self.settings.token))
        try:
            waiter = asyncio.create_task(bot.wait_until_ready())
            done, _ = await asyncio.wait({waiter, self._task}, timeout=LIMIT, return_when=asyncio.FIRST_COMPLETED)
            if self._task in done:
                self._task.result()  # raises what stopped the bot
            if waiter not in done:
                raise AssertionError("the bot never became ready")
            await self.fake.wait_until(lambda: bot.timers_started.is_set() or self._task.done(), LIMIT,
                                       what="the bot's deadline loop to start")
            if self._task.done():
                self._task.result()
        except BaseException:  # a bot that did not start is closed, or its tasks outlive the test's loop
            await self.stop()
            raise
        self.fake.mark_baseline()
        return bot

    async def stop(self) -> None:
        """Stops the bot the hard way a crash would: no goodbye beyond closing its connections."""
        if self.bot is not None:
            await self.bot.close()
        if self._task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._task, LIMIT)
        self.bot = None

    async def restart(self, *, later: float = 0.0) -> Geotable:
        await self.stop()
        return await self.start(later=later)


@contextlib.asynccontextmanager
async def solo_players_discord(players: dict[int, int]) -> AsyncIterator[FakeDiscord]:
    """A loopback Discord with one channel per solo player (``players``: channel -> user id, named P<id>), for
    the tests that run the bot as a child process and kill or stop it."""
    f = FakeDiscord(channels=tuple(players), threads=())
    await f.start()
    for user in players.values():
        f.add_user(user, f"P{user}")
    try:
        yield f
    finally:
        await f.stop()
    f.assert_spec_kept()
