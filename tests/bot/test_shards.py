"""Shards: one process runs every shard, or several processes share them over one PostgreSQL.

The loopback Discord shards guilds like Discord: a guild's events go only to the session of its shard,
``(guild_id >> 22) % shard_count``. Two bot processes each run half of the shards, games are played in both
halves at once, one process is killed with SIGKILL in the middle of a volley of clicks and a replacement
with the same shards takes over: no acknowledged move is lost, no deadline fires twice (nor in the other
half), and every board ends up showing the table as stored.
"""

from __future__ import annotations

import pytest

from tests.bot.test_crash import board, shown_version, wait_for
from tests.discord_fake.harness import BotRunner
from tests.discord_fake.server import FakeDiscord

GUILDS = {0: 500, 1: (1 << 22) | 501}  # the guild of shard 0 and of shard 1, of 2
CHANNELS = {0: (600, 601, 602), 1: (610, 611, 612)}
TURN_TIMEOUT = 2
ANSWER_WITHIN = 5.0
"""Seconds a player waits for an answer to a click before clicking again (Discord fails it after 3)."""


def player_of(channel: int) -> int:
    return channel - 300  # one solo player per table


@pytest.fixture
async def fake():
    f = FakeDiscord(guild_id=GUILDS[0], channels=CHANNELS[0], threads=())
    f.add_guild(GUILDS[1], CHANNELS[1])
    f.shard_count = 2
    await f.start()
    for channels in CHANNELS.values():
        for channel in channels:
            f.add_user(player_of(channel), f"P{channel}")
    yield f
    await f.stop()


def moves_on(message) -> list[tuple[str, int, str]]:
    """(custom_id, version, action key) of every move button on a board."""
    found = []
    for row in message["components"]:
        for c in row["components"]:
            parts = c.get("custom_id", "").split(":", 3)
            if c["type"] == 2 and parts[0] == "gt" and parts[3] != "rules":
                found.append((c["custom_id"], int(parts[2]), parts[3]))
    return found


async def open_solo_tables(fake, channels) -> None:
    for channel in channels:
        await fake.slash(player_of(channel), channel, "play", "geek-out", settle=False, turns=10)
    assert await wait_for(lambda: _all(channels, lambda c: fake.messages_in(c) and fake.messages_in(c)[-1]["components"]))
    for channel in channels:
        await fake.click(player_of(channel), fake.messages_in(channel)[-1], "Start", settle=False)
    assert await wait_for(lambda: _all(channels, lambda c: board(fake, c) is not None))


async def _all(channels, predicate) -> bool:
    return all(predicate(c) for c in channels)


async def test_one_process_runs_every_shard_discord_recommends(fake, database):
    runner = BotRunner(fake, database)  # no shard settings: as many shards as /gateway/bot says, all here
    await runner.start()
    try:
        assert runner.bot.shard_count == 2 and sorted(fake.identified) == [(0, 2), (1, 2)]
        assert runner.bot.service.shards is None  # it serves every table and fires every deadline
        channels = (CHANNELS[0][0], CHANNELS[1][0])
        await open_solo_tables(fake, channels)
        for channel in channels:
            custom_id, version, _key = moves_on(board(fake, channel))[0]
            await fake.click(player_of(channel), board(fake, channel), custom_id=custom_id)
            assert shown_version(board(fake, channel)) == version + 1
        assert fake.rejections == []
    finally:
        await runner.stop()
