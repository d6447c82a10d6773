"""A tournament under kill -9 (issue 28 items 1 and 4): the bot runs as a real child process on one database and
the loopback Discord, and is killed at random moments while it starts the tournament at its sign-up deadline,
ends a round's tables at the round's deadline (T-B2), opens the next round's threads and tables, announces
rounds and posts the podium, and right after a round's announcement or the podium. After every kill and at the
end: each round claimed once and in order, each board with one table in one thread (at most one stray empty
thread), every table of an announced round pinged once with one board shown in its thread, each announcement
and the podium posted once, and the tournament reaches its podium."""

from __future__ import annotations

import asyncio
import itertools
import random
import time

from bot.database import open_store
from playground.fake_discord import FakeDiscord
from playground.run_bot import BotProcess
from tests.bot import sight

CHANNEL, MOD = 600, 399
PLAYERS = (301, 302, 303, 304)
ROUNDS = 3


def round_posts(fake, number: int) -> list[dict]:
    return [m for m in fake.messages_in(CHANNEL) if f"round {number} of {ROUNDS}" in sight.content(m)]


def podiums(fake) -> list[dict]:
    return [m for m in fake.messages_in(CHANNEL) if "tournament #1 is over" in sight.content(m)]


def pings(fake, thread: int) -> list[dict]:
    return [m for m in fake.messages_in(thread) if "Good luck!" in sight.content(m)]


async def stored(database):
    store = await open_store(database)
    try:
        t = await store.tournament(1)
        rounds, boards = await store.rounds(1), await store.boards(1)
        tables = {r["id"]: (r["channel_id"], r["message_id"]) for r in await store._fetch(
            "SELECT id, channel_id, message_id FROM tables", ())}
        return t, rounds, boards, tables
    finally:
        await store.close()


async def check(fake, database):
    """What a kill may leave (the bot is down): nothing doubled, nothing shown in the wrong place; what was
    recorded as done is there."""
    t, rounds, boards, tables = await stored(database)
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1)) and t.round == len(rounds)
    threads = fake.threads_of(CHANNEL)
    for r in rounds:
        mine = [b for b in boards if b.round == r.number]
        assert [b.board for b in mine] == list(range(1, len(r.tables) + 1))
        for b in mine:
            named = [int(x["id"]) for x in threads if x["name"].endswith(f"round {r.number} · table {b.board}")]
            strays = [x for x in named if x != b.thread_id]
            assert len(strays) <= 1 and all(fake.messages_in(x) == [] for x in strays), (r.number, b.board, named)
            if b.table_id is None:
                continue
            assert b.thread_id in named
            channel, message = tables[b.table_id]
            assert channel == b.thread_id  # the table plays in the board's own thread
            assert len(sight.boards(fake, b.thread_id)) <= 1 and len(pings(fake, b.thread_id)) <= 1
            if r.posted:
                assert message in {int(m["id"]) for m in sight.boards(fake, b.thread_id)}
                assert len(pings(fake, b.thread_id)) == 1
        assert len(round_posts(fake, r.number)) == (1 if r.posted else len(round_posts(fake, r.number))) <= 1
    assert len(podiums(fake)) == (1 if t.final_message else len(podiums(fake))) <= 1
    pairs = [frozenset(seats) for r in rounds for seats in r.tables]
    assert len(pairs) == len(set(pairs))  # Swiss: no pairing twice (4 players, 3 rounds: all six pairs once)
    return t, rounds


async def round_is_due(database, number: int) -> None:
    """The round's deadline passes while the bot is away: at its next start it ends the round's open tables."""
    store = await open_store(database)
    try:
        await store.execute("UPDATE tournament_rounds SET due_at = ? WHERE tournament_id = 1 AND number = ?",
                            time.time() - 1, number)
    finally:
        await store.close()


def progress(fake) -> int:
    return sum(len(round_posts(fake, n)) for n in range(1, ROUNDS + 1)) + len(podiums(fake))


async def recorded(database) -> int:
    t, rounds, _boards, _tables = await stored(database)
    return sum(r.posted for r in rounds) + (t.final_message is not None)


async def next_post(fake, database, seen: int, done: int, timeout: float = 180.0) -> bool:
    """Waits for a post after ``seen`` to show, or one after ``done`` to be recorded: a post sent before the last
    kill and not recorded is sent again with its nonce (Discord answers the first message), so nothing new
    shows, but its record comes."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        for _ in range(10):
            if progress(fake) > seen:
                return True
            await asyncio.sleep(0.05)
        if await recorded(database) > done:
            return True
    return False


async def test_kill_nine_advances_every_round_once_and_posts_each_announcement_and_the_podium_once(database):
    rng = random.Random(28)
    fake = FakeDiscord(channels=(CHANNEL,), threads=())
    await fake.start()
    try:
        for u in PLAYERS:
            fake.add_user(u, f"P{u}")
        fake.add_user(MOD, "Mo", moderator=True)
        store = await open_store(database)
        t = await store.create_tournament(guild_id=fake.guild_id, channel_id=CHANNEL, game="geek_out", options={},
                                          fmt="swiss", rounds=ROUNDS, size=2, pace=None,
                                          signup_due=time.time() - 1, cap=None, created_by=MOD)
        for u in PLAYERS:
            assert await store.join_tournament(t.id, u, f"P{u}")
        await store.close()
        bot = BotProcess(fake, database, lease_heartbeat=0.3, lease_stale=1.0)
        kills = {"random": 0, "after a post": 0}
        try:
            for cycle in itertools.count():
                assert cycle < 30, "the tournament never reached its podium"
                t, rounds = await check(fake, database)
                if t.final_message is not None:
                    break
                if rounds and rounds[-1].posted:
                    await round_is_due(database, rounds[-1].number)
                seen, done = progress(fake), await recorded(database)
                await bot.start()
                if rng.random() < 0.5:  # a random moment of the start: the deadline, the next round, its posts
                    await asyncio.sleep(rng.uniform(0.0, 1.5))
                    kills["random"] += 1
                else:  # right after the next announcement (or the podium): the restart must not post it again
                    assert await next_post(fake, database, seen, done), "no progress"
                    kills["after a post"] += 1
                await bot.kill()
            # one more start after the podium: nothing posted again, nothing opened
            await bot.start()
            await asyncio.sleep(2.0)
            await bot.kill()
            t, rounds = await check(fake, database)
        finally:
            await bot.kill()
        assert t.status == "finished" and t.final_message
        assert [r.number for r in rounds] == [1, 2, 3] and all(r.posted for r in rounds)
        assert all(len(round_posts(fake, n)) == 1 for n in (1, 2, 3)) and len(podiums(fake)) == 1
        assert kills["random"] and kills["after a post"], kills
    finally:
        await fake.stop()
    fake.assert_spec_kept()
