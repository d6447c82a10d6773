"""Tournaments' stored deadlines and a crash in the middle of a round's start, through the loopback Discord with
the real discord.py client and a moved clock (issue 28 items 1 and 4): the sign-up deadline with enough players
starts the tournament; a round's deadline ends the tables still open (T-B2: "the round's time ran out", a draw
as T-B1 says) once and starts the next round once; a table opened just before the process died, never shown,
is shown (pinged once, its board once) at the restart, and the round announced once."""

from __future__ import annotations

import asyncio
import time

from bot.rounds import ROUND_LIVE, Rounds
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY, MOD
from tests.bot.test_tournament_e2e import (
    add_players,
    create,
    play_out,
    round_threads,
    sign_up,
    tournament_message,
    wait_round,
)

FOUR = [ANA, BO, CY, 111]


def posts(fake, words: str) -> list[dict]:
    return [m for m in fake.messages_in(CHANNEL) if words in sight.content(m)]


def pings(fake, thread: int) -> list[dict]:
    return [m for m in fake.messages_in(thread) if "Good luck!" in sight.content(m)]


def move_clock(runner, seconds: float) -> None:
    runner.bot.service.clock = lambda: time.time() + seconds
    runner.bot.get_cog("Tournament").rounds.wake()


async def test_the_sign_up_deadline_with_enough_players_starts_the_tournament(fake, runner):
    add_players(fake, FOUR)
    await create(fake, signup_hours=2, rounds=2, turns=1)
    await sign_up(fake, FOUR)
    await runner.bot.get_cog("Tournament").rounds.passes.wait()
    assert (await runner.bot.store.tournament(1)).status == "signup"  # not before its time
    move_clock(runner, 2 * 3600 + 5)
    threads = await wait_round(fake, 1, 2)
    assert (await runner.bot.store.tournament(1)).status == "running"
    assert len(posts(fake, "round 1 of 2")) == 1
    assert all(len(pings(fake, t)) == 1 and len(sight.boards(fake, t)) == 1 for t in threads)


async def test_a_rounds_deadline_ends_the_tables_still_open_once_and_starts_the_next_round(fake, runner):
    add_players(fake, FOUR)
    await create(fake, rounds=2, turns=1)
    await sign_up(fake, FOUR)
    await fake.click(MOD, tournament_message(fake), "Start")
    first, second = await wait_round(fake, 1, 2)
    await play_out(fake, first)
    [r1] = await runner.bot.store.rounds(1)
    assert r1.due_at is not None and abs(r1.due_at - r1.claimed_at - ROUND_LIVE) < 1
    await runner.bot.get_cog("Tournament").rounds.passes.wait()
    assert [r.number for r in await runner.bot.store.rounds(1)] == [1]  # the second table still plays
    move_clock(runner, ROUND_LIVE + 60)
    await wait_round(fake, 2, 2)
    ended = [b for b in await runner.bot.store.boards(1) if b.round == 1 and b.thread_id == second]
    assert [b.status for b in ended] == ["ended"]
    said = " ".join(sight.words(m) for m in fake.messages_in(second))
    assert "the round's time ran out" in said, said
    # T-B1: the table ended without a result is a draw, half a point each
    stand = {s.id: s.points for s in (await runner.bot.get_cog("Tournament").rounds.snapshot(1)).standings()}
    assert sorted(stand[u] for u in ended[0].seats) == [0.5, 0.5], stand
    for _ in range(2):  # more passes of the loop, later still: nothing happens twice
        await runner.restart(later=ROUND_LIVE + 120)
        await runner.bot.get_cog("Tournament").rounds.passes.wait()
        await fake.settle()
    assert [r.number for r in await runner.bot.store.rounds(1)] == [1, 2]
    assert len(posts(fake, "round 2 of 2")) == 1
    assert len(round_threads(fake, 2)) == 2
    assert len(sight.boards(fake, second)) == 1


async def test_a_table_opened_but_never_shown_before_a_crash_is_shown_once_at_the_restart(fake, runner, monkeypatch):
    add_players(fake, FOUR)
    await create(fake, rounds=2, turns=1)
    await sign_up(fake, FOUR)

    async def dies(self, *args, **kwargs):  # the process died after the tables were written, before any showed
        raise RuntimeError("killed")

    monkeypatch.setattr(Rounds, "_show", dies)
    await fake.click(MOD, tournament_message(fake), "Start")
    await fake.wait_until(lambda: len(round_threads(fake, 1)) == 2, what="round 1's threads")
    store = runner.bot.store
    for _ in range(600):
        if all(b.table_id for b in await store.boards(1)) and len(await store.boards(1)) == 2:
            break
        await asyncio.sleep(0.05)
    await fake.settle()
    threads = round_threads(fake, 1)
    assert all(fake.messages_in(t) == [] for t in threads)  # nothing shown, nothing announced
    assert posts(fake, "round 1 of 2") == [] and not (await store.rounds(1))[0].posted
    await runner.stop()
    monkeypatch.undo()
    await runner.start()
    await wait_round(fake, 1, 2)
    assert round_threads(fake, 1) == threads  # no second thread
    assert all(len(pings(fake, t)) == 1 and len(sight.boards(fake, t)) == 1 for t in threads)
    assert len(posts(fake, "round 1 of 2")) == 1
    await runner.restart()  # again: nothing shown twice
    await runner.bot.get_cog("Tournament").rounds.passes.wait()
    await fake.settle()
    assert all(len(pings(fake, t)) == 1 and len(sight.boards(fake, t)) == 1 for t in threads)
    assert len(posts(fake, "round 1 of 2")) == 1
    assert (await runner.bot.store.rounds(1))[0].posted


async def test_posts_sent_but_not_recorded_before_a_crash_are_made_once(fake, runner, monkeypatch):
    """The process dies after Discord made the round's announcement (then the podium) and before the store
    recorded it: the claim goes stale, the next process sends it again with the same nonce and Discord answers
    the first message: one announcement, one podium."""
    from bot.store.tournaments import POST_STALE, Tournaments

    add_players(fake, FOUR)
    await create(fake, rounds=1, turns=1)
    await sign_up(fake, FOUR)

    async def dies(self, *args, **kwargs):
        raise RuntimeError("killed")

    monkeypatch.setattr(Tournaments, "round_posted", dies)
    await fake.click(MOD, tournament_message(fake), "Start")
    threads = await wait_round(fake, 1, 2)
    await fake.wait_until(lambda: len(posts(fake, "round 1 of 1")) == 1, what="the announcement")
    assert not (await runner.bot.store.rounds(1))[0].posted
    await runner.stop()
    monkeypatch.undo()
    await runner.start()  # the claim is fresh: not sent again yet
    await runner.bot.get_cog("Tournament").rounds.passes.wait()
    assert not (await runner.bot.store.rounds(1))[0].posted
    await runner.restart(later=POST_STALE + 1)  # stale: sent again, answered by its nonce, recorded
    for _ in range(400):
        if (await runner.bot.store.rounds(1))[0].posted:
            break
        await asyncio.sleep(0.05)
    assert (await runner.bot.store.rounds(1))[0].posted and len(posts(fake, "round 1 of 1")) == 1
    monkeypatch.setattr(Tournaments, "final_posted", dies)
    for thread in threads:
        await play_out(fake, thread)
    await fake.wait_until(lambda: len(posts(fake, "tournament #1 is over")) == 1, what="the podium")
    assert (await runner.bot.store.tournament(1)).final_message is None
    await runner.stop()
    monkeypatch.undo()
    await runner.start(later=2 * POST_STALE + 2)
    for _ in range(400):
        if (await runner.bot.store.tournament(1)).final_message:
            break
        await asyncio.sleep(0.05)
    assert (await runner.bot.store.tournament(1)).final_message
    assert len(posts(fake, "tournament #1 is over")) == 1 and len(posts(fake, "round 1 of 1")) == 1
