"""Who is to act where (bot/store/waiting.py, migration 016): the rows written with each start, move and close
in their transaction, read per member and server for /turns, on both backends."""

import pytest

from bot.database import open_store
from bot.store import Shards, StaleVersion

ANA, BO, CY = {"id": 7, "name": "Ana"}, {"id": 8, "name": "Bo"}, {"id": 9, "name": "Cy"}


@pytest.fixture
async def store(database):
    s = await open_store(database)
    yield s
    await s.close()


async def lobby(store, channel, guild=1, game="geek_out"):
    return await store.create_table(guild_id=guild, channel_id=channel, game=game, options={}, seed=5, host=ANA,
                                    lobby_due=100.0, others=[BO, CY])


async def started(store, channel, waiting, guild=1, due=50.0, game="geek_out"):
    t = await lobby(store, channel, guild, game)
    await store.start_table(t.id, 0, [ANA, BO, CY], '{"s":0}', turn_due=due, waiting=waiting)
    return t


async def test_start_move_and_end_keep_the_rows_of_who_is_to_act(store):
    t = await started(store, 10, [ANA["id"]])
    assert await store.waiting_for(t.id) == [ANA["id"]]
    await store.record_move(table_id=t.id, version=1, state='{"s":1}', status="playing", ply=0, seat=0,
                            action="a", turn_due=80.0, standings=None, waiting=[BO["id"], CY["id"]])
    assert await store.waiting_for(t.id) == [BO["id"], CY["id"]]
    # a move that leaves who is to act as it was (None) keeps the rows
    await store.record_move(table_id=t.id, version=2, state='{"s":2}', status="playing", ply=1, seat=1,
                            action="b", turn_due=81.0, standings=None)
    assert await store.waiting_for(t.id) == [BO["id"], CY["id"]]
    # a refused (stale) move writes none of it
    with pytest.raises(StaleVersion):
        await store.record_move(table_id=t.id, version=2, state='{}', status="playing", ply=2, seat=1,
                                action="x", turn_due=90.0, standings=None, waiting=[ANA["id"]])
    assert await store.waiting_for(t.id) == [BO["id"], CY["id"]]
    # the end waits for nobody, even if a caller named someone
    await store.record_move(table_id=t.id, version=3, state='{"s":3}', status="finished", ply=2, seat=2,
                            action="c", turn_due=None, standings={"scores": [1, 2, 3]}, waiting=[ANA["id"]])
    assert await store.waiting_for(t.id) == []


async def test_a_stale_start_writes_no_rows_and_a_close_removes_them(store):
    t = await lobby(store, 10)
    with pytest.raises(StaleVersion):
        await store.start_table(t.id, 5, [ANA, BO, CY], '{"s":0}', turn_due=50.0, waiting=[ANA["id"]])
    assert await store.waiting_for(t.id) == [] and (await store.get_table(t.id)).status == "lobby"
    await store.start_table(t.id, 0, [ANA, BO, CY], '{"s":0}', turn_due=50.0, waiting=[ANA["id"], BO["id"]])
    await store.close_table(t.id, "ended", "by a moderator")
    assert await store.waiting_for(t.id) == [] and await store.deadlines() == []


async def test_turns_lists_a_members_tables_of_one_server_soonest_first(store):
    late = await started(store, 10, [ANA["id"]], due=900.0)
    soon = await started(store, 11, [ANA["id"], BO["id"]], due=300.0, game="geoneo")
    bos = await started(store, 12, [BO["id"]], due=100.0)  # Bo's turn, not Ana's
    await started(store, 13, [ANA["id"]], guild=2, due=50.0)  # another server
    done = await started(store, 14, [ANA["id"]], due=10.0)
    await store.close_table(done.id, "ended", "x")
    await store.set_message(soon.id, 555)
    turns = await store.turns(1, ANA["id"])
    assert [(t.table_id, t.game, t.channel_id, t.message_id, t.due_at) for t in turns] == [
        (soon.id, "geoneo", 11, 555, 300.0), (late.id, "geek_out", 10, None, 900.0)]
    assert [p["name"] for p in turns[0].players] == ["Ana", "Bo", "Cy"]
    assert [t.table_id for t in await store.turns(1, BO["id"])] == [bos.id, soon.id]
    assert await store.turns(1, 12345) == []


async def test_games_from_before_the_rows_are_found_and_filled_once_and_only_at_their_version(store):
    t = await started(store, 10, [])
    assert [r.id for r in await store.playing_without_waiting()] == [t.id]
    assert [r.id for r in await store.playing_without_waiting(Shards(2, (((1 >> 22) % 2) ^ 1,)))] == []
    assert not await store.fill_waiting(t.id, 0, 1, [ANA["id"]])  # it is at version 1 now
    assert await store.fill_waiting(t.id, 1, 1, [ANA["id"]])
    assert await store.waiting_for(t.id) == [ANA["id"]]
    assert await store.playing_without_waiting() == []
    assert [x.table_id for x in await store.turns(1, ANA["id"])] == [t.id]


async def test_deleting_a_members_data_removes_their_rows(store):
    t = await started(store, 10, [ANA["id"], BO["id"]])
    await store.record_move(table_id=t.id, version=1, state='{"s":1}', status="finished", ply=0, seat=0,
                            action="a", turn_due=None, standings={"scores": [1, 2, 3], "players": [ANA, BO, CY]})
    # a stale row (as if left behind) of a finished table: /turns never shows it, /privacy delete removes it
    await store.execute("INSERT INTO waiting (table_id, user_id, guild_id) VALUES (?, ?, ?)", t.id, ANA["id"], 1)
    assert await store.turns(1, ANA["id"]) == []
    await store.forget_person(1, ANA["id"])
    assert await store.waiting_for(t.id) == []
