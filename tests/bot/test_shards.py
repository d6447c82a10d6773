"""Shards: one process runs every shard, or several processes share them over one PostgreSQL.

The loopback Discord shards guilds like Discord: a guild's events go only to the session of its shard,
``(guild_id >> 22) % shard_count``. Two bot processes each run half of the shards, games are played in both
halves at once, one process is killed with SIGKILL in the middle of a volley of clicks and a replacement
with the same shards takes over: no acknowledged move is lost, no deadline fires twice (nor in the other
half), and every board ends up showing the table as stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass

import pytest

from bot.database import open_store
from bot.store import Shards
from bot.ui import keys
from games import get_engine
from playground.fake_discord import FakeDiscord, Interaction
from playground.run_bot import BotProcess
from tests.bot import sight
from tests.bot.harness import BotRunner
from tests.bot.test_crash import board, shown_version, wait_for

GUILDS = {0: 500, 1: (1 << 22) | 501}  # the guild of shard 0 and of shard 1, of 2
CHANNELS = {0: (600, 601, 602), 1: (610, 611, 612)}
TURN_TIMEOUT = 2
LEASE_STALE = 2.0
"""Seconds after its last heartbeat a killed process's shards may be taken over (the default is 20)."""
LIMIT = 120.0
"""Seconds anything the test waits for may take: generous, so a busy machine only makes it slower (a hang fails)."""


def player_of(channel: int) -> int:
    return channel - 300  # one solo player per table


@contextlib.asynccontextmanager
async def two_shard_discord(guilds: dict[int, int], channels: dict[int, tuple[int, ...]]):
    """The loopback Discord with two shards: a guild on each (``guilds``, ``channels`` by shard), one solo
    player per channel."""
    f = FakeDiscord(guild_id=guilds[0], channels=channels[0], threads=())
    f.add_guild(guilds[1], channels[1])
    f.shard_count = 2
    await f.start()
    try:
        for shard_channels in channels.values():
            for channel in shard_channels:
                f.add_user(player_of(channel), f"P{channel}")
        yield f
    finally:
        await f.stop()
    f.assert_spec_kept()


@pytest.fixture
async def fake():
    async with two_shard_discord(GUILDS, CHANNELS) as f:
        yield f


def moves_on(message) -> list[tuple[str, int, str]]:
    """(custom_id, version, action key) of every move button on a board (a seat's own end in /<token>)."""
    found = []
    for c in sight.components(message):
        what = keys.decode(c.get("custom_id", ""))
        if isinstance(what, keys.Move):
            found.append((c["custom_id"], what.version, what.key))
    return found


async def open_solo_tables(fake, channels) -> None:
    for channel in channels:
        await fake.slash(player_of(channel), channel, "play", "geek-out", settle=False, turns=10)
    assert await wait_for(lambda: _all(channels, lambda c: fake.messages_in(c) and sight.components(fake.messages_in(c)[-1])))
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


@dataclass
class Click:
    channel: int
    version: int
    key: str
    it: Interaction
    at: float

    def answered(self, fake) -> bool:
        """Whether the player saw what became of it: a newer board, or a sentence."""
        return bool(self.it.followups) or (shown_version(board(fake, self.channel)) or 0) > self.version


async def test_two_processes_share_the_shards_and_a_replacement_takes_over_a_killed_one(
        fake, postgres_server, tmp_path, monkeypatch):
    monkeypatch.setenv("GEOTABLE_RENDER_WORKERS", "1")  # three bot processes on a shared machine
    rng = random.Random(12)
    clicks: list[Click] = []
    volley, lined_up, volley_sent = asyncio.Event(), [], asyncio.Event()
    killed, replaced = asyncio.Event(), asyncio.Event()  # shard 1's process, and its replacement (ready)
    replaced_at = [float("inf")]

    async def play(channel: int, moves: int) -> None:
        """A player: clicks a move and waits for its answer (a click lost with shard 1's process is clicked
        again once the replacement is there), and now and then sits idle until the table's deadline fires. Shard 1's players
        make their fourth click together, when the test says: the volley its process dies in."""
        for n in range(moves):
            if n % 5 == 4 and moves_on(board(fake, channel)):  # idle until the table plays for the player
                idle = shown_version(board(fake, channel))
                assert await eventually(lambda v=idle: shown_version(board(fake, channel)) != v, LIMIT), channel
            if n == 3 and channel in CHANNELS[1]:
                lined_up.append(channel)
                await volley.wait()
            message = board(fake, channel)
            if not moves_on(message):
                return  # the game is over
            custom_id, version, key = rng.choice(moves_on(message))
            sent = time.time()
            it = await fake.click(player_of(channel), message, custom_id=custom_id, settle=False)
            click = Click(channel, version, key, it, sent)
            clicks.append(click)
            if n == 3 and channel in CHANNELS[1]:
                lined_up.remove(channel)
                if not lined_up:
                    volley_sent.set()
            # the answer comes, unless the click went to shard 1's process as it died or while it was down:
            # then the player clicks again once the replacement is there
            assert await eventually(lambda c=click: c.answered(fake) or lost(c), LIMIT), click
            if not click.answered(fake):
                await replaced.wait()

    def lost(click: Click) -> bool:
        return click.channel in CHANNELS[1] and killed.is_set() and click.at < replaced_at[0]

    def shard_process(shard: int, log: str) -> BotProcess:
        # a short shard lease: the replacement waits until the killed process's lease is stale (LEASE_STALE
        # after its last heartbeat), which is over before it starts here
        return BotProcess(fake, url, log_path=str(tmp_path / log), shard_count=2, shard_ids=shard,
                          turn_timeout=TURN_TIMEOUT, tick=0.2, lease_heartbeat=0.5, lease_stale=LEASE_STALE)

    async with postgres_server.scratch() as url:
        processes = {shard: shard_process(shard, f"shard{shard}.log") for shard in (0, 1)}
        store = await open_store(url)
        try:
            for process in processes.values():
                await process.start()
            assert sorted(fake.identified) == [(0, 2), (1, 2)]
            every = CHANNELS[0] + CHANNELS[1]
            await open_solo_tables(fake, every)
            players = [asyncio.create_task(play(channel, 14)) for channel in every]

            # mid-volley: shard 1's players click at once, and their process dies without a word
            assert await eventually(lambda: len(lined_up) == len(CHANNELS[1]), LIMIT)
            volley.set()
            await asyncio.wait_for(volley_sent.wait(), LIMIT)
            await asyncio.sleep(rng.uniform(0.0, 0.01))
            # the clicks the dying process was handling: each may or may not have been committed
            in_flight = [c for c in clicks if c.channel in CHANNELS[1] and not c.answered(fake)]
            assert in_flight, "the kill came after the volley: the test would prove less"
            killed.set()
            await processes[1].kill()
            killed_at = time.time()

            async def dead_shard_due() -> set[int]:  # its tables' deadlines come due meanwhile
                return {t for t, _kind, _at in await store.due_deadlines(time.time(), shards=Shards(2, (1,)))}
            assert await wait_for(dead_shard_due, LIMIT), \
                "no deadline of the dead shard is due and unfired (none came due, or another fired it)"
            due = await dead_shard_due()
            started_at = time.time()
            processes[1] = shard_process(1, "shard1-again.log")  # the same shards: it takes them over
            await processes[1].start()
            ready_at = replaced_at[0] = time.time()
            replaced.set()
            await asyncio.gather(*players)

            rows = [await _last_table(store, c) for c in every]

            async def boards_current():
                rows[:] = [await store.get_table(r.id) for r in rows]
                return all(shown_version(board(fake, r.channel_id)) == r.version for r in rows)
            assert await wait_for(boards_current, LIMIT), [(r.id, r.version, shown_version(board(fake, r.channel_id)))
                                                         for r in rows]
            # a click Discord could not deliver went to the dead shard (the player clicked again)
            assert all(c.channel in CHANNELS[1] and killed_at - 1 < c.at < ready_at
                       for c in clicks if c.it.acked is None)
            taken_over = set()
            for n, row in enumerate(rows):
                for _read in range(10):  # the row and its log in step (a timeout may fire between two reads)
                    log = await store._fetch("SELECT seat, action, at FROM actions WHERE table_id = ? ORDER BY ply",
                                             (row.id,))
                    row = rows[n] = await store.get_table(row.id)
                    if row.version == 1 + len(log):
                        break
                engine = get_engine(row.game)
                # the log alone rebuilds the stored state: no move missing, doubled or overwritten
                replayed = engine.replay(1, row.options, row.seed, [(r[0], r[1]) for r in log])
                assert engine.encode(replayed) == row.state
                assert row.version == 1 + len(log)  # the Start, then one version per move
                mine = [c for c in clicks if c.channel == row.channel_id]
                for i, (seat, action, at) in enumerate(log):
                    version = i + 1
                    if action.startswith("timeout:"):
                        # a deadline fires once: a turn's timeout comes a whole timeout after the move before
                        assert i == 0 or at - log[i - 1][2] >= TURN_TIMEOUT - 0.1, (row.id, version)
                        if row.channel_id in CHANNELS[1]:  # and only its own shard's process fires it
                            assert not killed_at < at < started_at, (row.id, version)
                            if row.id in due and at >= started_at:
                                taken_over.add(row.id)
                    else:  # every move in the log was a player's click on that version
                        assert seat == 0 and any(c.version == version and c.key == action for c in mine)
                # every click acknowledged without a refusal is in the log, unless its process died under it
                for c in mine:
                    if c.it.acked is not None and not c.it.followups and c not in in_flight:
                        assert [tuple(r[:2]) for r in log[c.version - 1:c.version]] == [(0, c.key)], c
            assert taken_over  # the replacement fired what came due while its shards were down
            assert fake.rejections == []
        finally:
            for process in processes.values():
                await process.kill()
            await store.close()


async def eventually(check, timeout: float) -> bool:
    return await wait_for(lambda: asyncio.sleep(0, check()), timeout)


async def _last_table(store, channel):
    rows = await store._fetch("SELECT id FROM tables WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel,))
    return await store.get_table(rows[0][0])
