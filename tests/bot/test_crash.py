"""kill -9 at any moment: every committed move stays, and every table's board shows its latest version again.

The bot runs as a real child process (playground/run_bot.py) and is killed with SIGKILL while clicks
are in flight, between the commit of a move and the edit of its board among other moments. After a restart
the bot shows every board that was left behind, with working buttons.
"""

import asyncio
import random
import re

import pytest

from bot.database import open_store
from bot.ui import keys
from games import get_engine
from playground.run_bot import BotProcess
from tests.bot import sight
from tests.bot.harness import solo_players_discord

CHANNELS = tuple(range(600, 608))
PLAYERS = {600 + i: 300 + i for i in range(len(CHANNELS))}  # one solo player per channel


def board(fake, channel):
    boards = [m for m in fake.messages_in(channel) if sight.is_board(m)]
    return boards[-1] if boards else None


def shown_version(message) -> int | None:
    versions = {what.version for c in sight.components(message)
                if isinstance(what := keys.decode(c.get("custom_id", "")), keys.Move | keys.Utility)}
    if versions:
        return max(versions)
    m = re.search(r"-(\d+)\.png$", message["attachments"][0]["filename"])
    return int(m.group(1)) if m else None


def move_labels(message):
    return [c["label"] for c in sight.components(message)
            if c["type"] == 2 and c.get("label") not in ("Rules", None)]


async def wait_for(condition, timeout=120.0):
    """Polls an async ``condition``; the limit is generous: a busy machine only takes longer."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        if await condition():
            return True
        await asyncio.sleep(0.05)
    return False


@pytest.fixture
async def fake():
    async with solo_players_discord(PLAYERS) as f:
        yield f


async def test_kill_nine_mid_move_loses_nothing_and_every_board_heals(fake, database):
    rng = random.Random(9)
    db = database
    bot = BotProcess(fake, db, lease_heartbeat=0.3, lease_stale=1.0)  # a restart waits for the lease to go stale
    try:
        await bot.start()
        for channel, user in PLAYERS.items():
            await fake.slash(user, channel, "play", "geek-out", settle=False, turns=10)
        assert await wait_for(lambda: _all(fake, lambda c: fake.messages_in(c) and sight.components(fake.messages_in(c)[-1])))
        for channel, user in PLAYERS.items():
            await fake.click(user, fake.messages_in(channel)[-1], "Start", settle=False)
        assert await wait_for(lambda: _all(fake, lambda c: board(fake, c) is not None))
        kills = left_behind = 0
        # seconds from a volley of clicks to its first board, the window a kill must land in: measured on the
        # machine as it is now (a busy machine answers late, and kills right after a volley land before any commit)
        lag = 0.06
        # at least six kills, and on until one has landed between a commit and its board (where it lands is
        # chance: on a quick machine the window is a few milliseconds), at most 30
        while kills < 6 or (left_behind == 0 and kills < 30):
            if kills % 3 == 2:  # now and then a volley without a kill: how long its boards take now
                lag = await volley_lag(fake, rng) or lag
            # a volley of clicks on every table, and the kill lands somewhere inside its handling
            for channel, user in PLAYERS.items():
                b = board(fake, channel)
                if b and move_labels(b):
                    await fake.click(user, b, rng.choice(move_labels(b)), settle=False)
            await asyncio.sleep(rng.choice((0.0, rng.uniform(0.0, lag), rng.uniform(0.0, 1.5 * lag))))
            await bot.kill()
            kills += 1
            store = await open_store(db)
            left_behind += len(await store.behind())  # committed, but the board never showed it
            await store.close()
            await bot.start()
        assert left_behind > 0, f"none of {kills} kills landed between a commit and its board"
        store = await open_store(db)
        try:
            rows = [await store.get_table(t) for t in range(1, len(CHANNELS) + 1)]

            async def healed():
                return all(board(fake, r.channel_id) and shown_version(board(fake, r.channel_id)) == r.version
                           for r in rows if r.status == "playing")
            assert await wait_for(healed), [(r.id, r.version, shown_version(board(fake, r.channel_id))) for r in rows]
            for row in rows:
                log = await store.actions(row.id)
                engine = get_engine(row.game)
                # the action log alone rebuilds the stored state: no committed move is missing or doubled
                replayed = engine.replay(len(row.players), row.options, row.seed, log)
                assert engine.encode(replayed) == row.state
                assert row.version == 1 + len(log)  # the Start, then one version per move
        finally:
            await store.close()
        # and the healed boards' buttons work: one more move on every table
        refused = len(fake.rejections)
        moved = {}
        for channel, user in PLAYERS.items():
            b = board(fake, channel)
            if move_labels(b):
                moved[channel] = shown_version(b)
                await fake.click(user, b, move_labels(b)[0], settle=False)

        async def all_moved():
            return all(shown_version(board(fake, c)) > v for c, v in moved.items())
        assert moved and await wait_for(all_moved)
        assert fake.rejections[refused:] == []
    finally:
        await bot.kill()


async def volley_lag(fake, rng) -> float | None:
    """A volley of clicks on every table (the bot left running): seconds until the first of its boards."""
    loop = asyncio.get_running_loop()
    shown = {c: shown_version(board(fake, c)) for c in CHANNELS if board(fake, c)}
    begun = loop.time()
    for channel, user in PLAYERS.items():
        b = board(fake, channel)
        if b and move_labels(b):
            await fake.click(user, b, rng.choice(move_labels(b)), settle=False)
    while loop.time() < begun + 10:
        if any(board(fake, c) and shown_version(board(fake, c)) != v for c, v in shown.items()):
            return loop.time() - begun
        await asyncio.sleep(0.005)
    return None


async def _all(fake, predicate):
    return all(predicate(c) for c in CHANNELS)
