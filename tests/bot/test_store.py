import json

import pytest

from bot.store import ChannelBusy, GuildSettings, StaleVersion, Store, migrations


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(tmp_path / "t.db")
    yield s
    await s.close()


async def make(store, channel=10):
    return await store.create_table(
        guild_id=1, channel_id=channel, game="geek_out", options={}, seed=5, host={"id": 7, "name": "Ana"},
        lobby_due=100.0,
    )


async def test_migrations_are_applied_once_and_wal_is_on(tmp_path):
    s = await Store.open(tmp_path / "a.db")
    assert await s.migrate() == len(migrations())
    async with s.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    await s.close()
    s = await Store.open(tmp_path / "a.db")  # again: nothing re-applied, no error
    await s.close()


async def test_one_open_table_per_channel(store):
    t = await make(store)
    with pytest.raises(ChannelBusy):
        await make(store)
    await store.close_table(t.id, "ended", "test")
    await make(store)  # the channel is free again


async def test_a_move_writes_state_log_deadline_and_result_or_nothing(store):
    t = await make(store)
    await store.start_table(t.id, 0, [{"id": 7, "name": "Ana"}], '{"s":0}', turn_due=50.0)
    assert await store.deadlines() == [(t.id, "turn", 50.0)]
    await store.record_move(table_id=t.id, version=1, state='{"s":1}', status="playing", ply=0, seat=0,
                            action="u1", turn_due=80.0, standings=None)
    with pytest.raises(StaleVersion):
        await store.record_move(table_id=t.id, version=1, state='{"s":9}', status="playing", ply=1, seat=0,
                                action="p", turn_due=90.0, standings=None)
    row = await store.get_table(t.id)
    assert (row.state, row.version) == ('{"s":1}', 2)
    assert await store.actions(t.id) == [(0, "u1")]
    assert await store.deadlines() == [(t.id, "turn", 80.0)]
    await store.record_move(table_id=t.id, version=2, state='{"s":2}', status="finished", ply=1, seat=0,
                            action="p", turn_due=None, standings={"scores": [3]})
    assert await store.deadlines() == []
    [res] = await store.results(1)
    assert res["standings"] == {"scores": [3]} and res["game"] == "geek_out"
    assert (await store.get_table(t.id)).status == "finished"


async def test_a_move_starts_keeps_and_stops_a_game_timer_in_the_same_statement(store):
    t = await make(store)
    await store.start_table(t.id, 0, [{"id": 7, "name": "Ana"}], '{"s":0}', turn_due=50.0)
    await store.record_move(table_id=t.id, version=1, state='{"s":1}', status="playing", ply=0, seat=0,
                            action="lock", turn_due=80.0, standings=None, timer_due=31.5)
    assert sorted(await store.deadlines()) == [(t.id, "timer", 31.5), (t.id, "turn", 80.0)]
    await store.record_move(table_id=t.id, version=2, state='{"s":2}', status="playing", ply=1, seat=1,
                            action="x", turn_due=90.0, standings=None)  # None: the timer runs on
    assert (t.id, "timer", 31.5) in await store.deadlines()
    assert await store.due_deadlines(40.0) == [(t.id, "timer", 31.5)] and await store.next_deadline() == 31.5
    await store.record_move(table_id=t.id, version=3, state='{"s":3}', status="playing", ply=2, seat=0,
                            action="lock", turn_due=95.0, standings=None, timer_due=0)  # 0: stopped
    assert await store.deadlines() == [(t.id, "turn", 95.0)]


async def test_lobby_updates_are_version_checked(store):
    t = await make(store)
    await store.update_lobby(t.id, 0, [{"id": 7, "name": "Ana"}, {"id": 8, "name": "Bo"}], 7)
    with pytest.raises(StaleVersion):
        await store.update_lobby(t.id, 0, [], 7)
    row = await store.get_table(t.id)
    assert [p["name"] for p in row.players] == ["Ana", "Bo"] and row.version == 1


async def test_guild_settings_round_trip(store):
    assert await store.guild_settings(3) == GuildSettings(3)
    await store.save_guild_settings(GuildSettings(3, 120, [5, 6]))
    assert await store.guild_settings(3) == GuildSettings(3, 120, [5, 6])
    await store.save_guild_settings(GuildSettings(3, None, None))
    assert await store.guild_settings(3) == GuildSettings(3)
    assert json.dumps(1)
