"""The tournaments' store on both backends (migration 018): Start is a compare-and-set (two starts, one
succeeds), a round is claimed once by its key (two stores on one database: two processes), a board gets its
table once, and sign-up respects the cap and refuses a second entry."""

import asyncio

import pytest

from bot.database import open_store
from bot.store import TournamentOpen
from bot.store.tournaments import OPEN, TournamentRow


async def tournament(store, **kw):
    return await store.create_tournament(guild_id=1, channel_id=2, game="geek_out", options={}, fmt="swiss",
                                         rounds=2, size=2, pace=None, signup_due=None, cap=kw.get("cap"),
                                         created_by=9)


async def test_start_round_and_board_happen_once_across_two_stores(database):
    a, b = await open_store(database), await open_store(database)
    try:
        t = await tournament(a, cap=3)
        assert [await a.join_tournament(t.id, u, f"P{u}") for u in (10, 11, 10, 12, 13)] == [
            True, True, False, True, False]  # 10 twice; 13 past the cap of 3
        starts = await asyncio.gather(a.start_tournament(t.id, t.version, 2, [(10, 1, None)]),
                                      b.start_tournament(t.id, t.version, 2, [(10, 1, None)]))
        assert sorted(starts) == [False, True]
        assert not await a.join_tournament(t.id, 14, "late")
        claims = await asyncio.gather(a.claim_round(t.id, 1, [[10, 11]], [12], None, 0.0),
                                      b.claim_round(t.id, 1, [[10, 11]], [12], None, 0.0))
        assert sorted(claims) == [False, True]
        assert not await a.claim_round(t.id, 3, [[10, 11]], [], None, 0.0)  # round 2 comes first
        assert (await b.tournament(t.id)).round == 1
        players = [{"id": 10, "name": "P10"}, {"id": 11, "name": "P11"}]
        seat = dict(guild_id=1, channel_id=77, parent_channel_id=2, game="geek_out", options={}, seed=5,
                    players=players, state="{}", last_move="", pace=None, turn_due=None, remind_due=None,
                    waiting=[])
        first = await a.seat_board(t.id, 1, 1, **seat)
        again = await b.seat_board(t.id, 1, 1, **(seat | {"channel_id": 78}))
        assert first is not None and again is None
        assert await b.board_of_table(first.id) == (t.id, 1)
        [board] = await a.boards(t.id)
        assert board.table_id == first.id and board.seats == [10, 11] and board.status == "playing"
        assert await a.open_table_in(78) is None  # the second attempt left no table behind
    finally:
        await a.close()
        await b.close()


async def test_two_creates_in_one_channel_at_once_make_one_tournament(database):
    """T-B6 kept by the database (migration 021): two stores (two processes) creating in one channel in the same
    instant give one tournament and one TournamentOpen; another channel, or the channel once it is closed, is
    free."""
    a, b = await open_store(database), await open_store(database)
    try:
        made = await asyncio.gather(tournament(a), tournament(b), return_exceptions=True)
        [won] = [x for x in made if isinstance(x, TournamentRow)]
        assert [type(x) for x in made if x is not won] == [TournamentOpen], made
        assert [t.id for t in await a.open_tournaments()] == [won.id]
        assert (await b.channel_tournament(2)).id == won.id
        with pytest.raises(TournamentOpen):  # one at a time, the same
            await tournament(b)
        other = await b.create_tournament(guild_id=1, channel_id=3, game="geek_out", options={}, fmt="swiss",
                                          rounds=2, size=2, pace=None, signup_due=None, cap=None, created_by=9)
        assert await a.close_tournament(won.id, "cancelled", "test")
        again = await tournament(b)
        assert [t.id for t in await a.open_tournaments()] == [won.id, other.id, again.id]  # (won: its post due)
        assert [t.channel_id for t in await a.open_tournaments() if t.status in OPEN] == [3, 2]
    finally:
        await a.close()
        await b.close()
