import random

import pytest

from bot.store import open_store
from bot.tables import Defaults, TableService, UserError
from games import get_engine

ANA, BO = {"id": 1, "name": "Ana"}, {"id": 2, "name": "Bo"}


async def test_a_writer_that_lost_a_race_reloads_instead_of_refusing_forever(database):
    first = TableService(await open_store(database))
    second = TableService(await open_store(database))
    table = await first.open_lobby(1, 10, "geek_out", {}, ANA)
    await first.lobby(table.id, "join", BO)
    await first.lobby(table.id, "start", ANA)
    mine = await first.get(table.id)
    theirs = await second.get(table.id)
    seat = mine.to_act()[0]
    user = (ANA, BO)[seat]["id"]
    key = mine.actions_for(seat)[0].key
    version = mine.version
    await second.act(table.id, version, key, user)  # the other writer moves first
    with pytest.raises(UserError) as refused:
        await first.act(table.id, version, key, user)  # our cached copy still says `version`
    assert refused.value.stale
    fresh = await first.get(table.id)  # reloaded from the store, not the stale cache
    assert fresh.version == theirs.version == version + 1
    assert fresh.state == theirs.state
    await first.store.close()
    await second.store.close()


class Clock:
    def __init__(self, now: float = 1_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


async def play_out(service, table_id, rng, limit=400):
    """Random legal moves by whoever is to act until the game ends; returns the number of moves."""
    for n in range(limit):
        table = await service.get(table_id)
        if table.status != "playing":
            return n
        seat = rng.choice(table.to_act())
        action = rng.choice(table.actions_for(seat))
        await service.act(table_id, table.version, action.key, table.players[seat]["id"])
    raise AssertionError("the game did not end")


async def test_a_whole_game_is_stored_move_by_move_and_its_log_replays_to_the_stored_state(database):
    store = await open_store(database)
    service = TableService(store)
    try:
        table = await service.open_lobby(1, 10, "geek_out", {"turns": 1}, ANA)
        await service.lobby(table.id, "join", BO)
        await service.lobby(table.id, "start", ANA)
        moves = await play_out(service, table.id, random.Random(4))
        row = await store.get_table(table.id)
        log = await store.actions(table.id)
        assert row.status == "finished" and len(log) == moves and row.version == 2 + moves  # the join, the start
        engine = get_engine(row.game)
        assert engine.encode(engine.replay(2, row.options, row.seed, log)) == row.state
        [result] = await store.results(1)
        assert result["table_id"] == table.id and result["standings"]["players"] == [ANA, BO]
        assert await store.deadlines() == [] and await store.open_table_in(10) is None
    finally:
        await store.close()


async def test_a_restarted_service_carries_on_from_the_store(database):
    store = await open_store(database)
    service = TableService(store)
    table = await service.open_lobby(1, 10, "geek_out", {"turns": 1}, ANA)
    await service.lobby(table.id, "join", BO)
    await service.lobby(table.id, "start", ANA)
    rng = random.Random(7)
    for _ in range(3):
        table = await service.get(table.id)
        seat = table.to_act()[0]
        await service.act(table.id, table.version, table.actions_for(seat)[0].key, table.players[seat]["id"])
    before = await service.get(table.id)
    version, state = before.version, before.state
    await store.close()

    store = await open_store(database)  # a new process: nothing in memory
    try:
        service = TableService(store)
        again = await service.in_channel(10)
        assert (again.id, again.version, again.state) == (table.id, version, state)
        await play_out(service, table.id, rng)
        assert (await store.get_table(table.id)).status == "finished"
    finally:
        await store.close()


async def test_deadlines_fire_once_when_due_across_a_restart(database):
    clock = Clock()
    store = await open_store(database)
    service = TableService(store, Defaults(turn_timeout=60, lobby_timeout=300), clock=clock)
    forgotten = await service.open_lobby(1, 11, "geek_out", {}, ANA)
    table = await service.open_lobby(1, 10, "geek_out", {"turns": 1}, ANA)
    await service.lobby(table.id, "join", BO)
    await service.lobby(table.id, "start", ANA)
    idle = (await service.get(table.id)).to_act()
    assert await service.fire_due() == []  # nothing is due yet
    assert await store.next_deadline() == clock.now + 60
    await store.close()

    store = await open_store(database)
    try:
        service = TableService(store, Defaults(turn_timeout=60, lobby_timeout=300), clock=clock)
        clock.now += 61
        [change] = await service.fire_due()
        assert change.timed_out == tuple(idle) and change.table.id == table.id
        assert await service.fire_due() == []  # fired once; the next turn's deadline is a minute away
        clock.now += 300
        changes = await service.fire_due()
        assert any(c.closed and c.table.id == forgotten.id for c in changes)
        assert (await store.get_table(forgotten.id)).status == "ended"
        assert [s for s, a in await store.actions(table.id) if a.startswith("timeout:")] != []
    finally:
        await store.close()
