"""A season's end under kill -9: the bot runs as a real child process and is killed at random moments of its
start (while it may be ending the season and posting its hall of fame) and right after the post; after every
restart the season is ended once, at its end time, with its hall of fame kept whole, and the post is made once."""

import asyncio
import random
import time

from bot.database import open_store
from playground.run_bot import BotProcess
from tests.bot import sight
from tests.bot.harness import solo_players_discord
from tests.bot.test_daily_crash import wait_for
from tests.bot.test_ratings_store import ANA, BO, CY, finish

CHANNEL, USER = 600, 300


async def test_kill_nine_ends_the_season_once_and_posts_its_hall_of_fame_once(database):
    rng = random.Random(28)
    async with solo_players_discord({CHANNEL: USER}) as fake:
        store = await open_store(database)
        now = time.time()
        season = await store.start_season(fake.guild_id, "Spring", CHANNEL, now - 3600, now + 3600)
        await finish(store, [ANA, BO], [[0], [1]], guild=fake.guild_id, channel=CHANNEL)
        await finish(store, [BO, CY], [[0], [1]], guild=fake.guild_id, channel=CHANNEL)
        # its end time passed while the bot was away
        await store.execute("UPDATE seasons SET ends_at = ? WHERE id = ?", now - 60, season.id)
        await store.close()
        bot = BotProcess(fake, database, lease_heartbeat=0.3, lease_stale=1.0)
        posted = lambda: [m for m in fake.messages_in(CHANNEL)  # noqa: E731
                          if (sight.title(m) or "") == "Season Spring is over: hall of fame"]
        try:
            for _kill in range(3):
                await bot.start()
                await asyncio.sleep(rng.uniform(0.0, 0.5))
                await bot.kill()
            await bot.start()
            assert await wait_for(lambda: posted())
            await bot.kill()  # right after the post: the restart must not post it again
            await bot.start()
            await asyncio.sleep(2.0)  # a pass of its season loop at start
            assert len(posted()) == 1
            text = sight.content(posted()[0])
            assert "; 2 rated games)" in text and "🥇 Ana " in text and "🥈 Bo " in text and "🥉 Cy " in text, text
        finally:
            await bot.kill()
        store = await open_store(database)
        try:
            ended = await store.season_named(fake.guild_id, "Spring")
            assert ended.ended_at == now - 60 and not ended.ended_early and ended.games == 2
            [podium] = await store.podiums(fake.guild_id)
            assert [row[:2] for row in podium.rows] == [(1, ANA["id"]), (2, BO["id"]), (3, CY["id"])]
            rows = await store._fetch("SELECT count(*) AS n FROM hall_of_fame", ())
            assert rows[0]["n"] == 3  # kept once, whatever the kills
        finally:
            await store.close()
