import random

import pytest

from bot.database import open_store
from bot.store import Shards
from bot.table.model import Defaults
from bot.table.refusals import Refusal, Refused
from bot.table.service import TableService
from games import get_engine

ANA, BO, CY = {"id": 1, "name": "Ana"}, {"id": 2, "name": "Bo"}, {"id": 3, "name": "Cy"}


async def two_processes(database, **options) -> tuple[TableService, TableService]:
    """Two table services on one database, as two bot processes would have."""
    return (TableService(await open_store(database), **options), TableService(await open_store(database), **options))


async def started(service, players=(ANA, BO), channel=10, guild=1):
    table = await service.open_lobby(guild, channel, "geek_out", {}, players[0])
    for player in players[1:]:
        await service.lobby(table.id, "join", player)
    await service.lobby(table.id, "start", players[0])
    return await service.get(table.id)


def first_move(table) -> tuple[int, str]:
    """(user id, action key) of a legal move by the seat to act."""
    seat = table.to_act()[0]
    return table.players[seat]["id"], table.actions_for(seat)[0].key


async def test_a_click_on_an_old_board_that_another_writer_moved_on_is_refused_and_our_copy_reloaded(database):
    first, second = await two_processes(database)
    try:
        mine = await started(first)
        version = mine.version
        user, key = first_move(mine)
        await second.act(mine.id, version, key, user)  # the other writer moves first
        with pytest.raises(Refused) as refused:
            await first.act(mine.id, version, key, user)  # our cached copy still says `version`: the store refuses
        assert refused.value.kind is Refusal.STALE
        theirs = await second.get(mine.id)
        assert (mine.version, mine.state) == (theirs.version, theirs.state) == (version + 1, theirs.state)
        user, key = first_move(mine)
        await first.act(mine.id, mine.version, key, user)  # the current board works at once
        assert (await first.store.get_table(mine.id)).version == version + 2
    finally:
        await first.store.close()
        await second.store.close()


async def test_a_click_on_a_newer_board_than_our_copy_reloads_and_goes_through(database):
    first, second = await two_processes(database)
    try:
        mine = await started(first)
        user, key = first_move(mine)
        await second.act(mine.id, mine.version, key, user)  # e.g. the process that ran this shard before us
        theirs = await second.get(mine.id)
        user, key = first_move(theirs)
        change = await first.act(mine.id, theirs.version, key, user)  # the board the player sees is newer
        assert change.table is mine and mine.version == theirs.version + 1
        assert (await first.store.actions(mine.id))[-1] == (theirs.to_act()[0], key)
    finally:
        await first.store.close()
        await second.store.close()


async def test_a_lobby_click_that_lost_a_race_is_applied_to_the_stored_lobby(database):
    first, second = await two_processes(database)
    try:
        mine = await first.open_lobby(1, 10, "geek_out", {}, ANA)
        await second.lobby(mine.id, "join", BO)  # our copy does not know Bo sat down
        await first.lobby(mine.id, "join", CY)  # the store refuses our version; reloaded, the join applies
        assert [p["name"] for p in (await second.store.get_table(mine.id)).players] == ["Ana", "Bo", "Cy"]
    finally:
        await first.store.close()
        await second.store.close()


async def test_a_deadline_fired_late_by_a_second_process_is_refused_and_not_shown(database):
    clock = Clock()
    first, second = await two_processes(database, defaults=Defaults(turn_timeout=60), clock=clock)
    try:
        mine = await started(first)
        await second.get(mine.id)  # both have it cached
        version, idle = mine.version, mine.to_act()[0]
        clock.now += 61
        write = first.store.record_move
        seconds_firing = []

        async def slow_write(**move):  # the first process stalls between its checks and its write...
            if not seconds_firing:
                seconds_firing.append(await second.fire_due())  # ...while the second fires the same deadline
            await write(**move)

        first.store.record_move = slow_write
        assert await first.fire_due() == []  # its write was refused: the table reloaded, nothing due any more
        assert [len(c) for c in seconds_firing] == [1]
        assert [a for _s, a in await first.store.actions(mine.id)] == [f"timeout:{idle}"]
        assert mine.version == (await first.store.get_table(mine.id)).version == version + 1
    finally:
        await first.store.close()
        await second.store.close()


async def test_each_process_fires_only_its_own_shards_deadlines(database):
    clock = Clock()
    shard_of = Shards(2, (0,)).of
    guilds = {shard_of(g): g for g in (1 << 22, 2 << 22)}
    services = [TableService(await open_store(database), Defaults(turn_timeout=60), clock, Shards(2, (shard,)))
                for shard in (0, 1)]
    try:
        tables = [await started(services[shard], channel=10 + shard, guild=guilds[shard]) for shard in (0, 1)]
        clock.now += 61
        for shard in (0, 1):
            [change] = await services[shard].fire_due()
            assert change.table.id == tables[shard].id and change.timed_out
            assert await services[shard].fire_due() == []
    finally:
        for service in services:
            await service.store.close()


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



async def test_a_finished_game_rates_its_players_in_the_statement_that_ends_it(database):
    """The table service hands the end's standings to bot/ratings.py: the winner gains, the loser drops; a
    game ended by a player leaving (no computer taking over) is rated with the leaver last."""
    store = await open_store(database)
    service = TableService(store)
    try:
        table = await service.open_lobby(1, 10, "geek_out", {"turns": 1}, ANA)
        await service.lobby(table.id, "join", BO)
        await service.lobby(table.id, "start", ANA)
        await play_out(service, table.id, random.Random(4))
        [result] = await store.results(1)
        winners = result["standings"]["ranking"][0]
        board = await store.leaderboard(1, "geek_out")
        assert board.players == 2 and all(s.games == 1 for s in board.rows)
        if len(winners) == 1:  # (a shared victory moves nobody apart)
            assert board.rows[0].user_id == [ANA, BO][winners[0]]["id"] and board.rows[0].wins == 1
            assert board.rows[0].rating > 1000 > board.rows[1].rating
        table = await service.open_lobby(1, 11, "geek_out", {}, ANA)
        await service.lobby(table.id, "join", BO)
        await service.lobby(table.id, "takeover.off", ANA)
        await service.lobby(table.id, "start", ANA)
        await service.leave(await service.get(table.id), BO["id"])  # the game ends: Ana wins by default
        rows = await store.result_players(table.id)
        assert [(r["user_id"], r["place"], r["won"], r["rated"]) for r in rows] == [
            (ANA["id"], 1, 1, 1), (BO["id"], 2, 0, 1)]
        [history, _] = await store.history(1)
        assert history.standings["ended_by"] == "leave:1" and history.channel_id == 11
        assert [s.games for s in (await store.leaderboard(1, "geek_out")).rows] == [2, 2]
    finally:
        await store.close()
