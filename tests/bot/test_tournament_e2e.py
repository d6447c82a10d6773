"""Tournaments through the loopback Discord with the real discord.py client (issue 28 item 1; the 8-player Swiss
of Geek Out duels to the podium: test_tournament_swiss_e2e.py): a knockout of GEONEO; Start pressed by
two moderators at once; a sign-up deadline with too few; joining twice or after the start; a drop; /privacy
delete while entered; a restart in the middle of a round; on both backends (the ``database`` fixture)."""

from __future__ import annotations

import time

from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY, MOD

PLAYERS = [ANA, BO, CY, *range(111, 116)]
NAMES = {ANA: "Ana", BO: "Bo", CY: "Cy", **{u: f"P{u}" for u in range(111, 116)}}
PREFER = ("Heart", "Meeple", "Superhero", "Spaceship", "Reroll", "Flip", "Send", "Continue", "Pass")


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


async def play_out(fake, thread: int, limit: int = 800) -> None:
    """Plays the table in ``thread`` to its end, each move by the person to act clicking their board (a menu's
    first choice; a secret hand's first move from their private panel)."""
    for _ in range(limit):
        boards = sight.boards(fake, thread)
        if not boards:
            await fake.settle()
            continue
        board = boards[-1]
        who = sight.to_act_id(board)
        if who is None:
            return
        comps = sight.components(board)
        selects = [c for c in comps if c["type"] == 3]
        names = [c["label"] for c in comps if c["type"] == 2 and c.get("label") not in (None, "Rules", "My hand")
                 and not c["label"].startswith("More")]
        if selects:
            await fake.select(who, board, selects[0]["options"][0]["value"], custom_id=selects[0]["custom_id"])
        elif names:
            await fake.click(who, board, next((n for p in PREFER for n in names if n.startswith(p)), names[0]))
        else:
            await fake.click(who, board, "My hand")
            private = fake.ephemerals(who)[-1]
            await fake.click(who, private, sight.components(private)[0]["label"])
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


async def test_a_knockout_of_geoneo_seeds_plays_its_semi_finals_and_final(fake, runner):
    add_players(fake, [ANA, BO, CY, 111])
    await create(fake, "geoneo", format="knockout")
    assert "single elimination · duels · live" in sight.content(tournament_message(fake))
    await sign_up(fake, [ANA, BO, CY, 111])
    await fake.click(MOD, tournament_message(fake), "Start")
    semis = await wait_round(fake, 1, 2)
    # nobody is rated: seeded by sign-up order, 1 meets 4 and 2 meets 3
    assert sorted(sorted(seated(fake, t)) for t in semis) == [[ANA, 111], [BO, CY]]
    await play_out(fake, semis[0])
    # in the other semi-final a player leaves: a loss, and they are not paired again
    other = semis[1]
    leaver = sorted(seated(fake, other))[0]
    await fake.slash(leaver, other, "game", "leave")
    [final] = await wait_round(fake, 2, 1)
    assert leaver not in seated(fake, final)
    await play_out(fake, final)
    await fake.wait_until(lambda: any("tournament #1 is over" in sight.content(m) for m in fake.messages_in(CHANNEL)),
                          what="the final's podium")
    t = await runner.bot.store.tournament(1)
    assert t.status == "finished" and t.rounds == 2
    final_post = next(m for m in fake.messages_in(CHANNEL) if "tournament #1 is over" in sight.content(m))
    assert sight.has_image(final_post)  # the bracket
    import os
    if os.environ.get("TOURNAMENT_IMAGES"):
        open(f"{os.environ['TOURNAMENT_IMAGES']}/bracket.png", "wb").write(sight.image(fake, final_post))
    entries = {e.user_id: e for e in await runner.bot.store.entries(1)}
    assert entries[leaver].dropped_after == 1


async def test_start_pressed_by_two_moderators_at_once_starts_once(fake, runner):
    add_players(fake, [ANA, BO, CY, 111])
    fake.add_user(198, "Moe", moderator=True)
    await create(fake)
    await sign_up(fake, [ANA, BO, CY, 111])
    message = tournament_message(fake)
    start = fake.find_component(message, label="Start")["custom_id"]
    await fake.interact_together([(MOD, message, start), (198, message, start)])
    await wait_round(fake, 1, 2)
    assert len(await runner.bot.store.rounds(1)) == 1
    assert len(round_threads(fake, 1)) == 2
    said = [sight.content(m) for u in (MOD, 198) for m in fake.ephemerals(u)]
    assert said.count("This tournament has already started.") == 1, said
    assert sum("round 1 of" in sight.content(m) for m in fake.messages_in(CHANNEL)) == 1


async def test_a_sign_up_deadline_with_too_few_players_cancels_it(fake, runner):
    await create(fake, signup_hours=2)
    await sign_up(fake, [ANA, BO])
    runner.bot.service.clock = lambda: time.time() + 3 * 3600
    runner.bot.get_cog("Tournament").rounds.wake()
    await fake.wait_until(lambda: any("is cancelled" in sight.content(m) for m in fake.messages_in(CHANNEL)),
                          what="the cancellation")
    [said] = [sight.content(m) for m in fake.messages_in(CHANNEL) if "is cancelled" in sight.content(m)]
    assert "too few players signed up (2 of at least 4)" in said, said
    assert (await runner.bot.store.tournament(1)).status == "cancelled"
    assert round_threads(fake, 1) == []
    await fake.wait_until(lambda: "Cancelled:" in sight.content(tournament_message(fake)), what="the message")
    assert sight.custom_ids(tournament_message(fake)) == []


async def test_joining_twice_past_the_cap_or_after_the_start_changes_nothing(fake, runner):
    add_players(fake, [ANA, BO, CY, 111, 112])
    await create(fake, cap=4)
    await sign_up(fake, [ANA, BO, CY, 111])
    await fake.click(ANA, tournament_message(fake), "Join")
    assert last_ephemeral(fake, ANA) == "You are already signed up for this tournament."
    await fake.click(112, tournament_message(fake), "Join")
    assert last_ephemeral(fake, 112) == "This tournament is full: 4 players signed up."
    await fake.click(112, tournament_message(fake), "Leave")
    assert last_ephemeral(fake, 112) == "You are not signed up for this tournament."
    old = tournament_message(fake)
    join = fake.find_component(old, label="Join")["custom_id"]
    await fake.click(MOD, old, "Start")
    await wait_round(fake, 1, 2)
    await fake.click_forged(112, old, join)
    assert last_ephemeral(fake, 112) == "This tournament has already started: sign-up is closed."
    assert len(await runner.bot.store.entries(1)) == 4


async def test_a_dropped_player_loses_their_table_and_is_not_paired_again(fake, runner):
    add_players(fake, [ANA, BO, CY, 111])
    await create(fake, rounds=2, turns=1)
    await sign_up(fake, [ANA, BO, CY, 111])
    await fake.click(MOD, tournament_message(fake), "Start")
    threads = await wait_round(fake, 1, 2)
    await fake.slash(ANA, CHANNEL, "tournament", "drop", member=BO)
    assert "Only a moderator" in last_ephemeral(fake, ANA)
    await fake.slash(MOD, CHANNEL, "tournament", "drop", member=ANA)
    assert last_ephemeral(fake, MOD) == "Ana is out of the tournament."
    for thread in threads:
        if ANA not in seated(fake, thread):
            await play_out(fake, thread)
    [table] = await wait_round(fake, 2, 1)
    assert ANA not in seated(fake, table)
    [r2] = [r for r in await runner.bot.store.rounds(1) if r.number == 2]
    assert len(r2.byes) == 1 and ANA not in r2.byes


async def test_privacy_delete_while_signed_up_leaves_the_tournament(fake, runner):
    add_players(fake, [ANA, BO])
    await create(fake)
    await sign_up(fake, [ANA, BO])
    await fake.slash(ANA, CHANNEL, "privacy", "show")
    assert "**Tournament entries here:** 1 (#1 Geek Out! Masters)." in last_ephemeral(fake, ANA)
    await fake.slash(ANA, CHANNEL, "privacy", "delete")
    await fake.click(ANA, fake.ephemerals(ANA)[-1], "Yes, delete my data")
    assert "You left 1 tournament" in sight.content(fake.ephemerals(ANA)[-1])
    assert [e.user_id for e in await runner.bot.store.entries(1)] == [BO]
    assert "Ana" not in sight.content(tournament_message(fake))


async def test_a_restart_in_the_middle_of_a_round_keeps_the_tournament_and_advances_it_once(fake, runner):
    add_players(fake, [ANA, BO, CY, 111])
    await create(fake, rounds=2, turns=1)
    await sign_up(fake, [ANA, BO, CY, 111])
    await fake.click(MOD, tournament_message(fake), "Start")
    first, second = await wait_round(fake, 1, 2)
    await play_out(fake, first)
    await runner.restart()
    await play_out(fake, second)
    await wait_round(fake, 2, 2)
    await runner.restart()  # and once more: nothing is opened twice
    await runner.bot.get_cog("Tournament").rounds.passes.wait()
    await fake.settle()
    assert len(round_threads(fake, 2)) == 2
    assert [r.number for r in await runner.bot.store.rounds(1)] == [1, 2]
    assert sum("round 2 of" in sight.content(m) for m in fake.messages_in(CHANNEL)) == 1
