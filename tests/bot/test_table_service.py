import pytest

from bot.store import Store
from bot.tables import TableService, UserError

ANA, BO = {"id": 1, "name": "Ana"}, {"id": 2, "name": "Bo"}


async def test_a_writer_that_lost_a_race_reloads_instead_of_refusing_forever(tmp_path):
    first = TableService(await Store.open(tmp_path / "t.db"))
    second = TableService(await Store.open(tmp_path / "t.db"))
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
