"""The daily puzzle's store (migration 017) on both backends: one attempt per member and day, compare-and-set
steps, streaks across missed days and reset hours, one share, one board post per day, /privacy delete."""

import asyncio
import datetime

import pytest

from bot.database import open_store
from bot.store import Shards
from bot.store.daily import DailySettings, day_end, day_of, shift


@pytest.fixture
async def store(database):
    s = await open_store(database)
    yield s
    await s.close()


def ts(text):
    return datetime.datetime.fromisoformat(text).replace(tzinfo=datetime.UTC).timestamp()


def test_the_servers_day_turns_at_its_reset_hour():
    assert day_of(ts("2026-11-29 00:00"), 0) == "2026-11-29"
    assert day_of(ts("2026-11-28 23:59"), 0) == "2026-11-28"
    assert day_of(ts("2026-11-29 05:59"), 6) == "2026-11-28"
    assert day_of(ts("2026-11-29 06:00"), 6) == "2026-11-29"
    assert day_end("2026-11-28", 6) == ts("2026-11-29 06:00")
    assert day_end("2026-12-31", 0) == ts("2027-01-01 00:00")
    assert shift("2026-03-01", -1) == "2026-02-28" and shift("2024-03-01", -1) == "2024-02-29"


async def play(store, day, user=7, solved=True, moves=5, guild=1):
    r = await store.start_daily(guild, day, user, 4)
    assert await store.advance_daily(r, ["c0"])
    r = await store.daily_result(guild, day, user)
    assert await store.finish_daily(r, ["c0", "kg1", "lock"], solved=solved, moves=moves, grid="🟩")
    return await store.daily_result(guild, day, user)


async def test_streaks_count_consecutive_solved_days_in_the_server(store):
    assert (await play(store, "2026-11-27")).streak == 1
    assert (await play(store, "2026-11-28")).streak == 2
    assert (await play(store, "2026-11-29")).streak == 3
    assert (await play(store, "2026-11-30", solved=False)).streak == 0  # unsolved breaks it
    assert (await play(store, "2026-12-01")).streak == 1
    assert (await play(store, "2026-12-03")).streak == 1  # a missed day breaks it
    assert (await play(store, "2026-12-04", guild=2)).streak == 1  # another server's days are its own
    assert (await play(store, "2026-12-04")).streak == 2


async def test_one_attempt_a_day_and_older_steps_change_nothing(store):
    r = await store.start_daily(1, "2026-11-29", 7, 4)
    assert r.version == 0 and not r.finished
    assert await store.advance_daily(r, ["c0"])
    assert not await store.advance_daily(r, ["c1"])  # the same step again: refused
    again = await store.start_daily(1, "2026-11-29", 7, 4)  # a second /daily: the same attempt
    assert again.log == ["c0"] and again.version == 1
    assert await store.finish_daily(again, ["c0", "lock"], solved=True, moves=0, grid="🟩")
    done = await store.daily_result(1, "2026-11-29", 7)
    assert not await store.finish_daily(done, ["c0", "lock", "x"], solved=True, moves=9, grid="")
    assert not await store.advance_daily(done, ["c0", "lock", "x"])
    assert (await store.daily_result(1, "2026-11-29", 7)).moves == 0


async def test_a_result_is_shared_once(store):
    await store.start_daily(1, "2026-11-29", 7, 4)
    assert not await store.mark_shared(1, "2026-11-29", 7)  # not finished yet
    await play(store, "2026-11-29")
    assert await store.mark_shared(1, "2026-11-29", 7)
    assert not await store.mark_shared(1, "2026-11-29", 7)
    await store.unmark_shared(1, "2026-11-29", 7)
    assert await store.mark_shared(1, "2026-11-29", 7)


async def test_the_board_lists_the_days_finished_attempts_best_first(store):
    await play(store, "2026-11-29", user=1, moves=7)
    await play(store, "2026-11-29", user=2, moves=4)
    await play(store, "2026-11-29", user=3, solved=False, moves=12)
    await store.start_daily(1, "2026-11-29", 4, 4)  # unfinished: not on the board
    await play(store, "2026-11-29", user=5, guild=2)
    board = await store.daily_board(1, "2026-11-29")
    assert [r.user_id for r in board] == [2, 1, 3]
    assert await store.daily_count(1, "2026-11-29") == (3, 2)


async def test_the_board_post_is_claimed_once_and_a_stale_claim_again(store):
    assert await store.claim_daily_post(1, "2026-11-28", 1000.0)
    assert not await store.claim_daily_post(1, "2026-11-28", 1001.0)
    assert await store.claim_daily_post(1, "2026-11-28", 1000.0 + 500)  # never posted (a crash): taken again
    await store.daily_posted(1, "2026-11-28", 555)
    assert not await store.claim_daily_post(1, "2026-11-28", 99999.0)
    assert await store.daily_post(1, "2026-11-28") == 555


async def test_settings_and_the_servers_that_post(store):
    assert await store.daily_settings(1) == DailySettings(1, 0, None)
    await store.save_daily_settings(DailySettings(1, 6, 99))
    await store.save_daily_settings(DailySettings(5 << 22, 0, 98))
    await store.save_daily_settings(DailySettings(3, 5, None))
    assert (await store.daily_settings(1)).reset_hour == 6
    assert {s.guild_id for s in await store.daily_channels()} == {1, 5 << 22}
    assert {s.guild_id for s in await store.daily_channels(Shards(2, (1,)))} == {5 << 22}


async def test_privacy_delete_removes_the_members_daily_results_in_the_server(store):
    await play(store, "2026-11-28")
    await play(store, "2026-11-29")
    await play(store, "2026-11-29", guild=2)
    assert await store.daily_result_count(1, 7) == 2
    done = await store.forget_person(1, 7)
    assert done.daily == 2
    assert await store.daily_result_count(1, 7) == 0 and await store.daily_result_count(2, 7) == 1


async def test_two_processes_claiming_the_same_days_post_at_once_one_wins(database):
    first, second = await open_store(database), await open_store(database)
    try:
        won = await asyncio.gather(*(s.claim_daily_post(1, "2026-11-28", 1000.0) for s in (first, second) * 3))
        assert sorted(won) == [False] * 5 + [True]
    finally:
        await first.close()
        await second.close()
