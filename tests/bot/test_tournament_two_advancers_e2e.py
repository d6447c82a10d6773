"""Two advancements of one tournament at once, without the process's lock between them (issue 28 item 4: "two
processes"): the bot's own ``Rounds`` and a second one on its own store connection to the same database (as a
second process would be, e.g. during a shard lease's handover) both see a round's last table end and move the
tournament on at the same moment, for every round and the end. What keeps it once is the store alone (the
round's claim, a board's thread and table set once, the announcement's and podium's claims) and the posts'
nonces: one next round, one thread with one table, one ping and one board per board, one announcement per round,
one podium (a thread the losing side made is deleted)."""

from __future__ import annotations

import asyncio

from bot.database import open_store
from bot.rounds import Rounds
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CY, MOD
from tests.bot.test_tournament_deadlines_e2e import FOUR, pings, posts
from tests.bot.test_tournament_e2e import (
    add_players,
    create,
    round_threads,
    sign_up,
    tournament_message,
    wait_round,
)


class Elsewhere(Rounds):
    """The advancement as another process runs it: its own locks, its own connection to the database."""

    def __init__(self, bot, store):
        super().__init__(bot)
        self._store = store

    @property
    def store(self):
        return self._store


async def end_quietly(runner, thread: int) -> None:
    """The table of ``thread`` ended in the store (a moderator's end) without its publication: nobody has moved
    the tournament on yet."""
    service = runner.bot.service
    table = next(t for t in [await service.get(b.table_id) for b in await runner.bot.store.boards(1) if b.table_id]
                 if t.row.channel_id == thread)
    await service.end(table, "a test")


async def test_two_advancers_at_once_open_each_round_once_and_post_each_thing_once(fake, runner, database):
    add_players(fake, FOUR)
    await create(fake, rounds=3, turns=1)
    await sign_up(fake, FOUR)
    await fake.click(MOD, tournament_message(fake), "Start")
    threads = await wait_round(fake, 1, 2)
    ours = runner.bot.get_cog("Tournament").rounds
    other_store = await open_store(database)
    other = Elsewhere(runner.bot, other_store)
    try:
        for number in (2, 3, 4):
            for thread in threads:
                await end_quietly(runner, thread)
            await asyncio.gather(ours.advance(1), other.advance(1), ours.advance(1), other.advance(1))
            await fake.settle()
            if number == 4:
                break
            threads = await wait_round(fake, number, 2)
            assert [r.number for r in await runner.bot.store.rounds(1)] == list(range(1, number + 1))
            assert all(len(pings(fake, t)) == 1 and len(sight.boards(fake, t)) == 1 for t in threads)
            stored = {b.thread_id for b in await runner.bot.store.boards(1) if b.round == number}
            assert stored == set(threads), (stored, threads)  # a thread made by the losing side was deleted
            assert len(posts(fake, f"round {number} of 3")) == 1
        t = await runner.bot.store.tournament(1)
        assert t.status == "finished" and t.final_message
        assert len(posts(fake, "tournament #1 is over")) == 1
        assert len(round_threads(fake, 4)) == 0
    finally:
        await other_store.close()
    assert {ANA, BO, CY} <= {e.user_id for e in await runner.bot.store.entries(1)}
