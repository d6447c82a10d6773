"""The table service's memory (bot/table/core.py ``_evict``): idle tables and the least recently touched past a
cap are let go and loaded again as after a restart, busy ones stay; and the waiting rows (bot/store/waiting.py)
the service writes with each start, move, seat handed over and close."""

import pytest

from bot.database import open_store
from bot.table import core
from bot.table.model import Defaults
from bot.table.service import TableService
from tests.bot.test_table_service import first_move, started

ANA, BO, CY = {"id": 1, "name": "Ana"}, {"id": 2, "name": "Bo"}, {"id": 3, "name": "Cy"}


@pytest.fixture
async def service(database):
    s = TableService(await open_store(database), Defaults(cache_max=3, cache_idle=60.0))
    yield s
    await s.store.close()


@pytest.fixture
def clock(monkeypatch):
    """The monotonic clock the cache reads, moved by hand."""
    now = [1000.0]
    monkeypatch.setattr(core.time, "monotonic", lambda: now[0])
    return now


async def test_past_the_cap_the_least_recently_touched_go_and_come_back_as_after_a_restart(service, clock):
    tables = [await started(service, channel=channel) for channel in range(10, 15)]
    assert service.cached() == 3
    assert [service.is_open(t.id) for t in tables] == [False, False, True, True, True]
    again = await service.get(tables[0].id)  # loaded again from the store: a new object, the same table
    assert again is not tables[0] and (again.version, again.state) == (tables[0].version, tables[0].state)
    assert service.cached() == 3 and not service.is_open(tables[2].id)  # the least recently touched went
    user, key = first_move(again)
    change = await service.act(again.id, again.version, key, user)
    assert change.table is again and (await service.store.get_table(again.id)).version == tables[0].version + 1


async def test_idle_tables_leave_memory_and_busy_ones_stay(service, clock):
    first, second = await started(service, channel=10), await started(service, channel=11)
    clock[0] += 61
    async with service.lock(second.row.channel_id):  # a change under way at the second table
        await service.fire_due()  # the deadline loop's pass lets the idle ones go
        assert not service.is_open(first.id) and service.is_open(second.id)
    clock[0] += 30
    await service.fire_due()
    assert service.is_open(second.id)  # it counted as touched when it was found busy
    clock[0] += 31
    await service.fire_due()
    assert service.cached() == 0
    assert (await service.in_channel(10)).id == first.id and service.cached() == 1  # found again by its channel


async def test_idle_tables_keep_their_state_as_text_and_play_on_as_before(service, clock):
    """``Table.rest``: a table idle past ``Defaults.state_rest`` keeps its state as JSON text only (nothing for
    the garbage collector to walk); read again, it is the same state, and the game plays on as before."""
    idle, busy = await started(service, channel=10), await started(service, channel=11)
    state, busy_state = idle.state, busy.state
    clock[0] += service.defaults.state_rest + 1
    async with service.lock(busy.row.channel_id):  # a change under way at the second table
        await service.fire_due()  # the deadline loop's pass rests the idle ones
        assert idle.resting() and not busy.resting() and busy.state is busy_state
    assert idle.state == state and not idle.resting()  # decoded again when read
    for _ in range(3):
        idle.rest()
        user, key = first_move(idle)
        await service.act(idle.id, idle.version, key, user)
        stored = await service.store.get_table(idle.id)
        assert (stored.version, stored.state) == (idle.version, idle.engine.encode(idle.state))
    clock[0] += service.defaults.state_rest + 1
    await service.fire_due()
    assert idle.resting() and idle.state == idle.engine.decode(stored.state)


async def test_a_pass_rests_a_bounded_number_of_tables_the_oldest_first(service, clock, monkeypatch):
    monkeypatch.setattr(core, "REST_AT_ONCE", 2)  # a pass's work stays short however many tables went idle
    tables = [await started(service, channel=channel) for channel in (10, 11, 12)]
    for _ in range(3):
        clock[0] += service.defaults.state_rest + 1
        await service.fire_due()
        if all(t.resting() for t in tables):
            break
        assert [t.resting() for t in tables] == [True, True, False]
    assert all(t.resting() for t in tables)


async def test_the_waiting_rows_follow_start_moves_handovers_and_the_end(service):
    table = await started(service, (ANA, BO, CY), channel=10)
    store = service.store

    def people():
        return sorted(table.players[s]["id"] for s in table.to_act() if not table.players[s].get("computer"))

    assert await store.waiting_for(table.id) == people() != []
    for _ in range(6):
        user, key = first_move(table)
        await service.act(table.id, table.version, key, user)
        assert await store.waiting_for(table.id) == people()
    seat = table.to_act()[0]
    idle = table.players[seat]["id"]
    await service.hand_over(table, idle, by="Mo")  # a computer plays it (still its turn): never listed
    assert seat in table.to_act() and table.players[seat].get("computer")
    assert idle not in await store.waiting_for(table.id) and await store.waiting_for(table.id) == people()
    await service.end(table, "by Mo")
    assert await store.waiting_for(table.id) == [] and await store.turns(1, ANA["id"]) == []


async def test_games_in_play_without_rows_get_them_at_start_without_being_loaded(service, database):
    table = await started(service, channel=10)
    want = await service.store.waiting_for(table.id)
    await service.store.execute("DELETE FROM waiting")
    fresh = TableService(await open_store(database))
    try:
        await fresh.restore_waiting()
        assert await fresh.store.waiting_for(table.id) == want != [] and fresh.cached() == 0
    finally:
        await fresh.store.close()
