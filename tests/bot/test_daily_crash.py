"""/daily and the day's reset under kill -9: the bot runs as a real child process and is killed while a member's
clicks are in flight and right after it posted the finished day's board; after each restart the member's
attempt is whole (its stored log replays to a state the engine accepts), the puzzle can be finished, and the
board was posted exactly once."""

import asyncio
import json
import random
import time

from bot.database import open_store
from bot.store.daily import DailySettings, day_of, shift
from games.globe_twister import daily
from playground.run_bot import BotProcess
from tests.bot import sight
from tests.bot.harness import solo_players_discord

CHANNEL, USER = 600, 300


async def wait_for(condition, timeout=120.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        if condition():
            return True
        await asyncio.sleep(0.05)
    return False


def puzzle_message(fake):
    found = [m for m in fake.ephemerals(USER) if any(c.startswith(("g1d:", "g1e:")) for c in sight.custom_ids(m))]
    return found[-1] if found else None


def holding(fake, custom_id):
    """The member's latest message with that button (an older screen the bot edited after a restart may be it)."""
    found = [m for m in fake.ephemerals(USER) if custom_id in sight.custom_ids(m)]
    return found[-1] if found else None


async def stored_attempt(database, guild_id, day):
    store = await open_store(database)
    try:
        return await store.daily_result(guild_id, day, USER)
    finally:
        await store.close()


def keys_for(solution):
    out = []
    for cell, card, direction in solution:
        out += [f"c{cell}", f"k{card}"] + ([f"d{direction}"] if direction else []) + ["lock"]
    return out


async def test_kill_nine_loses_no_step_and_posts_the_finished_days_board_once(database):
    rng = random.Random(28)
    async with solo_players_discord({CHANNEL: USER}) as fake:
        today = day_of(time.time(), 0)
        yesterday = shift(today, -1)
        store = await open_store(database)
        await store.save_daily_settings(DailySettings(fake.guild_id, 0, CHANNEL))
        done = await store.start_daily(fake.guild_id, yesterday, USER, 5)
        await store.finish_daily(done, ["lock"], solved=True, moves=5, grid="🟩")
        await store.close()
        bot = BotProcess(fake, database, lease_heartbeat=0.3, lease_stale=1.0)
        try:
            await bot.start()
            posted = lambda: [m for m in fake.messages_in(CHANNEL) if f"Daily puzzle {yesterday}: board"  # noqa: E731
                              in sight.content(m)]
            assert await wait_for(lambda: posted())
            await bot.kill()  # right after the post: the restart must not post it again
            await bot.start()
            await fake.slash(USER, CHANNEL, "daily", settle=False)
            assert await wait_for(lambda: puzzle_message(fake) is not None)
            wanted = keys_for(daily.puzzle_of(today)["solution"])
            compact = today.replace("-", "")
            for _kill in range(4):
                # a few clicks, the kill landing among them
                for _ in range(rng.randint(1, 3)):
                    stored = await stored_attempt(database, fake.guild_id, today)
                    if stored.finished:
                        break
                    custom_id = f"g1d:{compact}:{stored.version}:{wanted[stored.version]}"
                    message = holding(fake, custom_id)
                    if message is not None:
                        await fake.click(USER, message, custom_id=custom_id, settle=False)
                        await asyncio.sleep(rng.uniform(0.0, 0.3))
                await bot.kill()
                stored = await stored_attempt(database, fake.guild_id, today)
                assert stored.log == wanted[:len(stored.log)]  # every committed step, in order, none doubled
                assert stored.version == len(stored.log)
                daily.replay(today, stored.log)  # the engine accepts the stored log
                await bot.start()
                await fake.slash(USER, CHANNEL, "daily", settle=False)  # the attempt goes on where it stood
                assert await wait_for(lambda v=stored.version, over=stored.finished: over or holding(
                    fake, f"g1d:{compact}:{v}:{wanted[v]}") is not None)
            # finish it on the running bot, one click at a time
            while not (stored := await stored_attempt(database, fake.guild_id, today)).finished:
                custom_id = f"g1d:{compact}:{stored.version}:{wanted[stored.version]}"
                assert await wait_for(lambda c=custom_id: holding(fake, c) is not None), custom_id
                await fake.click(USER, holding(fake, custom_id), custom_id=custom_id, settle=False)
                for _ in range(2400):  # the click is committed (a busy machine only takes longer)
                    if (await stored_attempt(database, fake.guild_id, today)).version > stored.version:
                        break
                    await asyncio.sleep(0.05)
            assert stored.solved and stored.moves == daily.puzzle_of(today)["par"]
            assert json.loads(json.dumps(stored.log)) == wanted
            assert len(posted()) == 1
        finally:
            await bot.kill()
