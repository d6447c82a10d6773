"""Tournaments through the loopback Discord with the real discord.py client (issue 28 item 1): an 8-player Swiss
of Geek Out duels played by people clicking, two rounds, to the podium; a knockout of GEONEO; Start pressed by
two moderators at once; a sign-up deadline with too few; joining twice or after the start; a drop; /privacy
delete while entered; a restart in the middle of a round; on both backends (the ``database`` fixture)."""

from __future__ import annotations

import asyncio
import time

from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY, MOD

PLAYERS = [ANA, BO, CY, *range(111, 116)]
NAMES = {ANA: "Ana", BO: "Bo", CY: "Cy", **{u: f"P{u}" for u in range(111, 116)}}
PREFER = ("Pass", "Continue", "Heart", "Meeple", "Superhero", "Spaceship", "Reroll", "Flip", "Send")


def add_players(fake, players=PLAYERS) -> None:
    for u in players:
        if u not in (ANA, BO, CY):
            fake.add_user(u, NAMES[u])


def tournament_message(fake, channel=CHANNEL) -> dict:
    return [m for m in fake.messages_in(channel) if any(c.startswith("g1t:") for c in sight.custom_ids(m))
            or "tournament #" in sight.content(m).split("\n")[0]][0]


def last_ephemeral(fake, user) -> str:
    return sight.content(fake.ephemerals(user)[-1])


async def create(fake, game="geek-out", **options) -> dict:
    await fake.slash(MOD, CHANNEL, "tournament", "create", game, **options)
    return tournament_message(fake)


async def sign_up(fake, players) -> None:
    for u in players:
        await fake.click(u, tournament_message(fake), "Join")
        assert last_ephemeral(fake, u) == "You are in. Good luck!", last_ephemeral(fake, u)


async def play_out(fake, thread: int, limit: int = 600) -> None:
    """Plays the table in ``thread`` to its end, each move by the person to act clicking their board."""
    for _ in range(limit):
        boards = sight.boards(fake, thread)
        if not boards:
            await fake.settle()
            continue
        board = boards[-1]
        who = sight.to_act_id(board)
        if who is None:
            return
        names = [n for n in sight.labels(board) if n and n != "Rules"]
        pick = next((n for p in PREFER for n in names if n.startswith(p)), names[0])
        await fake.click(who, board, pick)
    raise AssertionError(f"the table in {thread} did not end")


def round_threads(fake, number: int) -> list[int]:
    return [int(t["id"]) for t in fake.threads_of(CHANNEL) if f"round {number} ·" in t["name"]]


async def wait_round(fake, number: int, tables: int) -> list[int]:
    await fake.wait_until(lambda: len(round_threads(fake, number)) == tables
                          and all(sight.boards(fake, t) for t in round_threads(fake, number)),
                          what=f"round {number}'s {tables} tables")
    await fake.settle()
    return round_threads(fake, number)


def seated(fake, thread: int) -> set[int]:
    ping = fake.messages_in(thread)[0]
    return {u for u in PLAYERS if f"<@{u}>" in sight.content(ping)}


async def test_an_eight_player_swiss_of_geek_out_duels_is_played_to_the_podium(fake, runner):
    add_players(fake)
    message = await create(fake, rounds=2, turns=1)
    assert "Geek Out! Masters tournament #1" in sight.content(message) and "Swiss, 2 rounds · duels · live" in sight.content(
        message), sight.content(message)
    await sign_up(fake, PLAYERS)
    assert "8 players signed up" in sight.content(tournament_message(fake))
    await fake.click(ANA, tournament_message(fake), "Start")  # not a moderator: nothing changes
    assert "Only a moderator" in last_ephemeral(fake, ANA)
    await fake.click(MOD, tournament_message(fake), "Start")
    for number in (1, 2):
        threads = await wait_round(fake, number, 4)
        seats = [seated(fake, t) for t in threads]
        assert all(len(s) == 2 for s in seats) and len(set().union(*seats)) == 8  # nobody seated twice
        for thread in threads:
            await play_out(fake, thread)
    await fake.wait_until(lambda: any("tournament #1 is over" in sight.content(m) for m in fake.messages_in(CHANNEL)),
                          what="the podium")
    final = next(m for m in fake.messages_in(CHANNEL) if "tournament #1 is over" in sight.content(m))
    text = sight.content(final)
    assert "🥇" in text and "wins!" in text.split("\n")[0], text
    t = await runner.bot.store.channel_tournament(CHANNEL)
    assert t is None  # finished: no open tournament left in the channel
    rounds = await runner.bot.store.rounds(1)
    assert [r.number for r in rounds] == [1, 2] and all(r.posted for r in rounds)
    # round 2 paired no duel of round 1 again
    first = {frozenset(t) for t in rounds[0].tables}
    assert not first & {frozenset(t) for t in rounds[1].tables}
    assert not fake.rejections
