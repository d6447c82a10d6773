"""Who serves which shard: the lease table, and two bot processes told apart on one database.

A process holds a lease per shard (renewed by a heartbeat) before it connects to Discord. A second process
with the same shards says so and waits without serving until the first is gone (its heartbeat stale), then
takes over; one with another shard count is refused; one whose lease another took stops serving.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from pathlib import Path

import pytest

from bot.database import open_store
from bot.leases import ALL_SHARDS, ShardCountInUse, ShardLeases
from playground.run_bot import BotProcess
from tests.bot.test_crash import board, shown_version, wait_for
from tests.bot.test_shards import moves_on, open_solo_tables, player_of, two_shard_discord

GUILDS = {0: 500, 1: (1 << 22) | 501}  # a guild on shard 0 and one on shard 1, of 2
CHANNELS = {0: (600,), 1: (610,)}
HEARTBEAT, STALE = 0.3, 3.0
"""The test's lease timing (the defaults are 5 s and 20 s)."""


# --- the lease table ---------------------------------------------------------------------------------------
async def test_a_lease_is_taken_once_renewed_by_its_owner_and_free_once_stale_or_released(database):
    store = await open_store(database)
    try:
        assert await store.take_lease(0, 2, "a", now=100.0, stale_before=80.0)
        assert not await store.take_lease(0, 2, "b", now=101.0, stale_before=81.0)  # a is alive
        assert await store.take_lease(1, 2, "b", now=101.0, stale_before=81.0)  # another shard is free
        assert await store.renew_leases("a", 110.0) == 1
        assert not await store.take_lease(0, 2, "b", now=129.0, stale_before=109.0)  # renewed at 110
        assert await store.take_lease(0, 2, "b", now=131.0, stale_before=111.0)  # a went silent: b takes over
        assert await store.renew_leases("a", 132.0) == 0  # and a learns it at its next heartbeat
        assert [(x.shard_id, x.owner, x.heartbeat_at) for x in await store.leases()] == [(0, "b", 131.0),
                                                                                           (1, "b", 101.0)]
        await store.release_leases("b")
        assert await store.leases() == []
    finally:
        await store.close()


async def test_one_shard_count_per_database_and_a_process_without_shard_settings_holds_them_all(database):
    store = await open_store(database)
    now = [1000.0]
    try:
        def leases(count, ids, owner):
            return ShardLeases(store, count, ids, heartbeat=HEARTBEAT, stale=STALE, clock=lambda: now[0],
                               owner=owner)

        everything = leases(None, None, "all")
        await everything.acquire()
        assert [(x.shard_id, x.shard_count) for x in await store.leases()] == [(0, ALL_SHARDS)]
        with pytest.raises(ShardCountInUse, match="runs every shard .* has GEOTABLE_SHARD_COUNT 2"):
            await leases(2, (1,), "half").acquire()
        await everything.release()
        four = leases(4, None, "four")  # GEOTABLE_SHARD_COUNT=4 without ids: all four here
        await four.acquire()
        assert [(x.shard_id, x.shard_count, x.owner) for x in await store.leases()] == [
            (i, 4, "four") for i in range(4)]
        with pytest.raises(ShardCountInUse, match="GEOTABLE_SHARD_COUNT 4, and this one has GEOTABLE_SHARD_COUNT 2"):
            await leases(2, (0,), "two").acquire()
        now[0] += STALE + 1  # the four-shard process died without a word: its count no longer binds
        await leases(2, (0,), "two").acquire()
        assert ("two", 2) in {(x.owner, x.shard_count) for x in await store.leases()}
    finally:
        await store.close()


async def test_a_process_that_stops_serving_releases_the_leases_it_still_holds(database):
    """Its heartbeat finds a live process with another shard count (or one of its shards taken): it stops
    serving and gives its remaining leases up at once, instead of leaving them to go stale."""
    store = await open_store(database)
    now = [1000.0]
    try:
        def leases(count, ids, owner):
            return ShardLeases(store, count, ids, heartbeat=0.01, stale=STALE, clock=lambda: now[0], owner=owner)

        two = leases(2, (0,), "two")
        await two.acquire()
        assert await store.take_lease(1, 4, "four", now=now[0], stale_before=now[0] - STALE)  # another count
        assert "GEOTABLE_SHARD_COUNT 4, and this one has GEOTABLE_SHARD_COUNT 2" in await two.keep()
        assert not two.held
        assert [(x.shard_id, x.owner) for x in await store.leases()] == [(1, "four")]
        await store.release_leases("four")
        both = leases(2, (0, 1), "both")
        await both.acquire()
        await store.execute("UPDATE shard_leases SET owner = 'elsewhere' WHERE shard_id = 0")
        assert "(elsewhere) took over shards 0, 1 of 2" in await both.keep()
        assert [(x.shard_id, x.owner) for x in await store.leases()] == [(0, "elsewhere")]
    finally:
        await store.close()


# --- two bot processes on one database -----------------------------------------------------------------------
@pytest.fixture
async def fake():
    async with two_shard_discord(GUILDS, CHANNELS) as f:
        yield f


def bot_process(fake, url, log: Path, **shards) -> BotProcess:
    return BotProcess(fake, url, log_path=str(log), lease_heartbeat=HEARTBEAT, lease_stale=STALE,
                      env={"GEOTABLE_RENDER_WORKERS": "1"}, **shards)


async def says(log: Path, words: str, timeout: float = 30.0) -> bool:
    async def found():
        return log.exists() and words in log.read_text()
    return await wait_for(found, timeout)


async def move(fake, channel) -> None:
    """One move on the channel's table, answered with its new board."""
    custom_id, version, _key = moves_on(board(fake, channel))[0]
    await fake.click(player_of(channel), board(fake, channel), custom_id=custom_id, settle=False)
    assert await wait_for(lambda: asyncio.sleep(0, shown_version(board(fake, channel)) == version + 1))


async def test_a_second_process_with_the_same_shards_waits_without_serving_then_takes_over_when_the_first_dies(
        fake, postgres_server, tmp_path):
    async with postgres_server.scratch() as url:
        first = bot_process(fake, url, tmp_path / "first.log", shard_count=2, shard_ids=0)
        second = bot_process(fake, url, tmp_path / "second.log", shard_count=2, shard_ids=0)
        try:
            await first.start()
            await open_solo_tables(fake, CHANNELS[0])
            identified = list(fake.identified)
            starting = asyncio.create_task(second.start(timeout=60))
            assert await says(tmp_path / "second.log", "serves shard 0 of 2 on this database: this one waits")
            assert not starting.done() and fake.identified == identified  # no gateway session: it serves nothing
            await move(fake, CHANNELS[0][0])  # the first still serves, undisturbed
            assert fake.rejections == []
            await first.kill()  # gone without a word: the second takes over once its lease is stale
            await starting
            assert fake.identified == identified + [(0, 2)]
            assert await says(tmp_path / "second.log", "this one serves shard 0 of 2 now")
            await move(fake, CHANNELS[0][0])
            assert fake.rejections == []
            assert "Traceback" not in (tmp_path / "second.log").read_text()
        finally:
            await first.kill()
            await second.kill()


async def test_another_shard_count_is_refused_and_a_process_whose_lease_was_taken_stops_serving(
        fake, postgres_server, tmp_path):
    async with postgres_server.scratch() as url:
        first = bot_process(fake, url, tmp_path / "first.log", shard_count=2, shard_ids=0)
        other = bot_process(fake, url, tmp_path / "other.log", shard_count=4, shard_ids=1)
        everything = bot_process(fake, url, tmp_path / "all.log")
        store = await open_store(url)
        try:
            await first.start()
            for refused, log in ((other, "other.log"), (everything, "all.log")):
                with pytest.raises(RuntimeError, match="exited with 1"):
                    await refused.start()
                text = (tmp_path / log).read_text()
                assert "every process sharing a database needs the same GEOTABLE_SHARD_COUNT" in text
                assert "Traceback" not in text
            # a duplicate waiting for shard 0 stops at once on SIGTERM (docker stop), with 0
            twin = bot_process(fake, url, tmp_path / "twin.log", shard_count=2, shard_ids=0)
            waiting = asyncio.create_task(twin.start(timeout=60))
            assert await says(tmp_path / "twin.log", "this one waits")
            twin.proc.send_signal(signal.SIGTERM)
            with pytest.raises(RuntimeError, match="exited with 0"):
                await waiting
            assert "Traceback" not in (tmp_path / "twin.log").read_text()
            # another process takes shard 0 over (as if this one's heartbeat had lapsed): this one stops
            await store.execute("UPDATE shard_leases SET owner = 'elsewhere:77:beef' WHERE shard_id = 0")
            assert await says(tmp_path / "first.log", "(host elsewhere, pid 77) took over shard 0 of 2")
            assert await asyncio.wait_for(first.proc.wait(), 30) == 1
            assert "Traceback" not in (tmp_path / "first.log").read_text()
        finally:
            for process in (first, other, everything):
                with contextlib.suppress(ProcessLookupError):
                    if process.running:
                        process.proc.send_signal(signal.SIGKILL)
                await process.kill()
            await store.close()


# --- an owner known to be gone -------------------------------------------------------------------------------
async def test_a_lease_whose_process_exited_on_this_machine_is_taken_at_once(database):
    """A crash (kill -9) leaves a fresh heartbeat behind; a restart on the same machine sees the owner's pid is
    gone and serves straight away. A live owner, or one in another pid namespace (another container or host),
    is only known gone by its heartbeat."""
    import subprocess
    import sys

    from bot.leases import owner_is_gone, process_namespace

    here = process_namespace()
    assert here, "this test needs /proc"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        dead_owner, live_owner = f"h:{dead.pid}:aa:{here}", f"h:{alive.pid}:bb:{here}"
        elsewhere = f"h:{dead.pid}:cc:{here}x"
        assert owner_is_gone(dead_owner) and not owner_is_gone(live_owner) and not owner_is_gone(elsewhere)
        assert not owner_is_gone(f"h:{dead.pid}:dd")  # an owner name without a namespace: only the heartbeat
        store = await open_store(database)
        now = [1000.0]
        try:
            for shard, owner in enumerate((dead_owner, live_owner, elsewhere)):
                assert await store.take_lease(shard, 3, owner, now=now[0], stale_before=now[0] - STALE)
            await ShardLeases(store, 3, (0,), heartbeat=HEARTBEAT, stale=STALE, clock=lambda: now[0],
                              owner="new").acquire()
            assert {x.shard_id: x.owner for x in await store.leases()}[0] == "new"
            for shard in (1, 2):  # still held: waiting for them is cut short by a stop
                stop = asyncio.Event()
                waiting = asyncio.create_task(ShardLeases(store, 3, (shard,), heartbeat=HEARTBEAT, stale=STALE,
                                                          clock=lambda: now[0], owner="new2").acquire(stop))
                await asyncio.sleep(0)
                for _ in range(50):
                    if waiting.done():
                        break
                    await asyncio.sleep(0.01)
                assert not waiting.done(), f"shard {shard} was taken from a live or unknown owner"
                stop.set()
                with contextlib.suppress(Exception):
                    await waiting
        finally:
            await store.close()
    finally:
        alive.kill()
        alive.wait()
