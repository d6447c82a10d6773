"""Computers at the table through the real discord.py client and the loopback Discord: a solo Geodeto game against
two computers to the score sheet, a Globe Twister stage of one person and two computers (the computers lock in
only after the person), a player leaving and a
computer playing their seat to the end, and a computer's pending move across a restart.

Computer seats are added with the lobby's keys (``computer.<strength>``), clicked as the lobby's buttons send them."""

import asyncio
import random
import re
import time

import pytest

from bot.database import open_store
from bot.ui import keys
from games import get_engine
from games.globe_twister.puzzle import from_pairs
from games.globe_twister.solver import plan
from playground.fake_discord import snapshot
from playground.run_bot import BotProcess
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY
from tests.bot.harness import BotRunner, solo_players_discord
from tests.bot.test_computers import one_step
from tests.bot.test_crash import wait_for
from tests.bot.test_geodeto_e2e import board, comps, over
from tests.bot.test_globe_twister_e2e import program, runs

PAUSE = 0.1
"""A short pause between computer moves: whole games within the tests' time (the pause itself still holds)."""
UTILITY = ("My goals", "My program", "Rules")


@pytest.fixture
async def quick(fake, database):
    """The bot with a short computer pause."""
    r = BotRunner(fake, database, computer_pause=PAUSE)
    await r.start()
    yield r
    await r.stop()


async def add_computers(fake, user, *strengths):
    """Clicks the lobby's "add a computer" key for each strength (the id of before the grammar of bot/ui/keys.py,
    gt:<table>:<version>:computer.<s>: still read)."""
    for strength in strengths:
        lobby = fake.messages_in(CHANNEL)[-1] if not lobby_message(fake) else lobby_message(fake)
        table, version = lobby_ids(lobby)
        await fake.click_forged(user, lobby, f"gt:{table}:{version}:computer.{strength}")


def lobby_message(fake):
    found = [m for m in fake.messages_in(CHANNEL) if any(c.get("label") == "Start" for c in comps(m))]
    return found[-1] if found else None


def lobby_ids(message) -> tuple[int, int]:
    what = next(w for c in comps(message) if isinstance(w := keys.decode(c.get("custom_id", "")), keys.Utility))
    return what.table, what.version


def to_act_names(message) -> list[str]:
    line = re.search(r"To act: (.*)", sight.description(message) or "")
    return re.findall(r"\*\*([^*]+)\*\*", line.group(1)) if line else []


async def ana_moves_when_her_turn_comes(fake, rng, name="Ana", user=ANA):
    """Waits until the game is over or it is the person's turn, then clicks one of her moves."""
    await fake.wait_until(lambda: over(fake) or to_act_names(board(fake)) == [name], what=f"{name}'s turn")
    if over(fake):
        return
    b = board(fake)
    buttons = [c for c in comps(b) if c["type"] == 2 and c["label"] not in UTILITY and c["label"] != "Back"]
    options = [o for c in comps(b) if c["type"] == 3 for o in c["options"]]
    if options and (not buttons or rng.random() < 0.5):
        await fake.select(user, b, rng.choice(options)["value"])
    else:
        await fake.click(user, b, rng.choice(buttons)["label"])


async def test_a_solo_geodeto_game_against_two_computers_to_the_score_sheet(fake, quick):
    rng = random.Random(11)
    await fake.slash(ANA, CHANNEL, "play", "geodeto", goals=2)
    await add_computers(fake, ANA, "normal", "strong")
    lobby = lobby_message(fake)
    assert "Computer (strong)" in sight.words(lobby)
    await fake.click(ANA, lobby, "Start")
    for _ in range(1000):
        if over(fake):
            break
        await ana_moves_when_her_turn_comes(fake, rng)
    assert over(fake)
    [standings] = [m for m in fake.messages_in(CHANNEL) if "final standings" in sight.content(m)]
    assert "Computer (normal)" in sight.content(standings) and "Computer (strong)" in sight.content(standings)
    assert standings["attachments"], "the score sheet's image"
    [result] = await quick.bot.store.results(fake.guild_id)
    assert [p.get("computer") for p in result["standings"]["players"]] == [None, "normal", "strong"]
    # a computer is never pinged: every mention went to Ana
    mentioned = {int(u) for m in fake.messages_in(CHANNEL) for u in re.findall(r"<@(-?\d+)>", sight.content(m))}
    assert mentioned <= {ANA}
    assert not fake.rejections


async def test_a_computers_geek_out_turn_shows_every_step_and_never_waits_for_the_loops_tick(fake, database):
    """Two computers' turns of many steps (dice, rolls), the step pause 0 so each next step is due by the time
    its previous one is shown, and a deadline loop that would sleep an hour between ticks: each step still
    follows at once (a deadline that came due while the boards were shown fires right away), and every step
    (a move that says something) had its board shown, in order."""
    runner = BotRunner(fake, database, computer_pause=0.05, computer_step_pause=0, computer_board_every=0)
    await runner.start(tick=3600)
    try:
        shown = []
        fake.observers.append(lambda event, m: event == "message" and int(m["channel_id"]) == CHANNEL and (
            m["attachments"] and (found := re.match(r"table\d+-(\d+)\.png", m["attachments"][0]["filename"]))
            and shown.append(int(found.group(1)))))
        await fake.slash(ANA, CHANNEL, "play", "geek-out", turns=2)
        await add_computers(fake, ANA, "strong", "normal")
        await fake.click(ANA, lobby_message(fake), "Start")
        rng = random.Random(4)
        for _ in range(400):
            if over(fake):
                break
            await ana_moves_when_her_turn_comes(fake, rng)
        assert over(fake)
        table = await runner.bot.service.get((await runner.bot.store.history(fake.guild_id, CHANNEL))[0].table_id)
        log = await runner.bot.store.actions(table.id)
        engine = table.engine
        state, first = engine.new(3, table.row.options, table.row.seed), table.version - len(log)
        steps = []
        for n, (seat, key) in enumerate(log, 1):
            state, events = engine.apply(state, seat, key)
            if seat in (1, 2) and any(e.text for e in events):
                steps.append(first + n)
        assert len(steps) >= 2 and set(steps) <= set(shown)  # every computer step's board was shown...
        assert shown == sorted(shown)  # ...in order
    finally:
        await runner.stop()


async def start_a_globe_twister_race(fake, quick):
    """Ana and two computers (normal, strong) start a race; returns the table (the bot's own object)."""
    await fake.slash(ANA, CHANNEL, "play", "globe-twister")
    await add_computers(fake, ANA, "normal", "strong")
    await fake.click(ANA, lobby_message(fake), "Start")
    return await quick.bot.service.in_channel(CHANNEL)


def locks(log) -> list[int]:
    """The seats that locked in, in order."""
    return [seat for seat, key in log if key == "lock"]


async def test_globe_twister_computers_program_at_once_and_lock_in_right_after_the_last_person(fake, quick):
    table = await start_a_globe_twister_race(fake, quick)
    store = quick.bot.store

    async def computers_wait() -> bool:  # programs in, and their deadline is Ana's timeout, not a pause
        due = await store.deadline(table.id, "turn")
        return due is not None and due > time.time() + 60

    assert await wait_for(computers_wait)
    log = await store.actions(table.id)
    assert {seat for seat, _key in log} == {1, 2} and "lock" not in [key for _seat, key in log]
    assert await store.deadline(table.id, "timer") is None  # no computer turned the sand timer
    await fake.wait_until(lambda: len(to_act_names(board(fake))) == 3, what="everyone still to act")
    view = table.engine.view(table.state, 0)
    [first, *_] = plan(from_pairs(view["puzzles"][0]), view["hands"][0], any_rotation=False)
    await program(fake, ANA, first)  # Ana locks in last (and turns the sand timer): the stage ends at once
    await fake.wait_until(lambda: len(runs(fake)) == 1, what="the run")
    log = await store.actions(table.id)
    assert locks(log)[0] == 0 and sorted(locks(log)) == [0, 1, 2]
    assert not [key for _seat, key in log if key.startswith(("timer:", "timeout:"))]
    assert not fake.rejections


async def test_globe_twister_a_computer_waits_for_every_person_then_locks_in_right_after(fake, quick):
    await fake.slash(ANA, CHANNEL, "play", "globe-twister")
    await fake.click(BO, lobby_message(fake), "Join")
    await add_computers(fake, ANA, "normal")
    await fake.click(ANA, lobby_message(fake), "Start")
    table = await quick.bot.service.in_channel(CHANNEL)
    store = quick.bot.store
    await program(fake, ANA, [])  # Ana locks in first and turns the sand timer; Bo is still programming

    async def computer_waits() -> bool:  # its program in, no lock-in, its deadline the people's timeout
        due = await store.deadline(table.id, "turn")
        return any(seat == 2 for seat, _key in await store.actions(table.id)) and due > time.time() + 60

    assert await wait_for(computer_waits)
    assert locks(await store.actions(table.id)) == [0]
    await program(fake, BO, [])  # the last person locks in: the computer follows at once, the stage runs
    await fake.wait_until(lambda: len(runs(fake)) == 1, what="the run")
    log = await store.actions(table.id)
    assert locks(log) == [0, 1, 2]
    assert not [key for _seat, key in log if key.startswith(("timer:", "timeout:"))]
    assert not fake.rejections


async def test_a_player_leaves_and_a_computer_plays_their_seat_to_the_end(fake, quick):
    rng = random.Random(5)
    await fake.slash(ANA, CHANNEL, "play", "geodeto", goals=2)
    await fake.click(BO, lobby_message(fake), "Join")
    await fake.click(ANA, lobby_message(fake), "Start")
    table = await quick.bot.service.in_channel(CHANNEL)
    bos_seat = next(s for s, p in enumerate(table.players) if p["id"] == BO)
    await fake.slash(BO, CHANNEL, "game", "leave")
    assert "A computer plays their seat" in sight.description(board(fake))
    for _ in range(1000):
        if over(fake):
            break
        await ana_moves_when_her_turn_comes(fake, rng)
    [standings] = [m for m in fake.messages_in(CHANNEL) if "final standings" in sight.content(m)]
    assert "Computer for Bo" in sight.content(standings)
    log = await quick.bot.store.actions(table.id)
    assert (-1, f"handover:{bos_seat}") in log and any(seat == bos_seat for seat, _key in log[log.index(
        (-1, f"handover:{bos_seat}")):])  # the computer moved in Bo's seat
    assert not fake.rejections


async def test_a_computers_pending_move_is_made_once_after_a_restart(fake, database):
    runner = BotRunner(fake, database, computer_pause=30)  # the computer waits 30 s: the bot stops first
    await runner.start()
    try:
        await fake.slash(ANA, CHANNEL, "play", "geodeto")
        await add_computers(fake, ANA, "easy")
        await fake.click(ANA, lobby_message(fake), "Start")
        rng = random.Random(2)
        while to_act_names(board(fake)) == ["Ana"]:
            await ana_moves_when_her_turn_comes(fake, rng)
        assert to_act_names(board(fake)) == ["Computer (easy)"]
        store = runner.bot.store
        table = await runner.bot.service.in_channel(CHANNEL)
        before = await store.actions(table.id)
        await runner.restart(later=31)  # back after the pause ran out
        await fake.wait_until(lambda: to_act_names(board(fake)) != ["Computer (easy)"] or
                              f"-{table.version + 1}.png" in board(fake)["attachments"][0]["filename"],
                              what="the computer's move")
        after = await runner.bot.store.actions(table.id)
        assert after[:len(before)] == before and {s for s, _k in after[len(before):]} == {1}
        assert one_step(await runner.bot.service.get(table.id), after, len(before))  # its one step, once
    finally:
        await runner.stop()


async def test_kill_nine_with_a_computers_move_pending_and_it_is_made_once_after_the_start(database):
    """The bot (a child process) is killed with SIGKILL while a computer's move waits for its pause (6 s); started
    again, the stored deadline fires and the computer moves exactly once."""
    async with solo_players_discord({600: 300}) as fake:
        bot = BotProcess(fake, database, env={"GEOTABLE_RENDER_WORKERS": "1", "GEOTABLE_AI_WORKERS": "1"},
                         lease_heartbeat=0.3, lease_stale=1.0, computer_pause=6)
        store = await open_store(database)
        try:
            await bot.start()
            await fake.slash(300, 600, "play", "geodeto", settle=False)
            await fake.wait_until(lambda: lobby_in(fake, 600) is not None, what="the lobby")
            table_id, version = lobby_ids(lobby_in(fake, 600))
            # the lobby's "add a computer" key (a bot in another process: nothing to settle here)
            await fake.interact(300, lobby_in(fake, 600), f"gt:{table_id}:{version}:computer.normal", settle=False)
            await fake.wait_until(lambda: "Computer (normal)" in sight.words(lobby_in(fake, 600)),
                                  what="the computer seated")
            await fake.click(300, lobby_in(fake, 600), "Start", settle=False)
            engine = get_engine("geodeto")

            async def computer_to_act() -> bool:
                row = await store.get_table(table_id)
                return row.state is not None and sorted(engine.to_act(engine.decode(row.state))) == [1]

            assert await wait_for(lambda: asyncio.sleep(0, fake_board(fake, 600) is not None))  # the game began
            rng = random.Random(1)
            for _ in range(50):  # Ana plays (her moves, or a first step of one) until the computer is to act
                if await computer_to_act():
                    break
                version = (await store.get_table(table_id)).version
                assert await wait_for(lambda v=version: asyncio.sleep(0, shows(fake_board(fake, 600), v)))
                b = snapshot(fake_board(fake, 600))  # as the screen shows it now (the fake edits in place)
                moves = [c for c in comps(b) if c["type"] == 2 and c["label"] not in UTILITY and c["label"] != "Back"]
                await fake.click(300, b, rng.choice(moves)["label"], settle=False)
                assert await wait_for(lambda b=b: asyncio.sleep(0, fake_board(fake, 600) != b))
            assert await computer_to_act()

            async def pending() -> bool:
                return await store.deadline(table_id, "turn") is not None
            assert await wait_for(pending)  # the computer's move: its stored deadline
            before = await store.actions(table_id)
            await bot.kill()
            # killed within the computer's pause: nothing of its move was written
            assert await store.actions(table_id) == before and await store.deadline(table_id, "turn") > time.time()
            await bot.start()

            async def moved() -> bool:
                return len(await store.actions(table_id)) > len(before)
            assert await wait_for(moved)
            after = await store.actions(table_id)
            assert after[:len(before)] == before and after[len(before)][0] == 1  # the computer's move, once
            row = await store.get_table(table_id)
            assert engine.encode(engine.replay(2, row.options, row.seed, after)) == row.state
            assert row.version == 2 + len(after)  # the computer seated, the start, then one version per move
        finally:
            await bot.kill()
            await store.close()


def shows(message, version) -> bool:
    return message is not None and f"-{version}.png" in message["attachments"][0]["filename"]


def lobby_in(fake, channel):
    found = [m for m in fake.messages_in(channel) if any(c.get("label") == "Start" for c in comps(m))]
    return found[-1] if found else None


def fake_board(fake, channel):
    boards = sight.boards(fake, channel)
    return boards[-1] if boards else None


async def test_a_moderator_hands_an_idle_players_seat_to_a_computer(fake, quick):
    from tests.bot.conftest import MOD
    from tests.bot.test_geek_out_e2e import last_ephemeral, start_game

    await start_game(fake, players=(ANA, BO, CY), turns=1)
    await fake.slash(BO, CHANNEL, "mod", "computer", player=ANA)  # members lack the permission
    assert "permission" in last_ephemeral(fake, BO)
    await fake.slash(MOD, CHANNEL, "mod", "computer", player=BO)
    assert last_ephemeral(fake, MOD) == "A computer plays Bo's seat now."
    assert "A moderator (Mo) handed Bo's seat to a computer." in sight.description(board(fake))
    await fake.slash(BO, CHANNEL, "game", "leave")
    assert last_ephemeral(fake, BO) == "You are not playing at this table."
    await fake.slash(MOD, CHANNEL, "mod", "remove", player=CY)  # takeover is on: Cy's seat goes on too
    assert "Cy was removed by a moderator. A computer plays their seat" in sight.description(board(fake))
    table = await quick.bot.service.in_channel(CHANNEL)
    assert [p["name"] for p in table.players] == ["Ana", "Computer for Bo", "Computer for Cy"]


async def test_a_moderator_handing_the_last_persons_seat_to_a_computer_ends_the_game(fake, quick):
    """The playtester's table: Ana, Bo and a computer; Bo leaves (a computer takes his seat), then a moderator
    hands Ana's seat over: computers alone never play on to standings nobody asked for."""
    from tests.bot.conftest import MOD
    from tests.bot.test_geek_out_e2e import last_ephemeral

    await fake.slash(ANA, CHANNEL, "play", "geoneo")
    await fake.click(BO, lobby_message(fake), "Join")
    await add_computers(fake, ANA, "easy")
    await fake.click(ANA, lobby_message(fake), "Start")
    await fake.slash(BO, CHANNEL, "game", "leave")
    await fake.slash(MOD, CHANNEL, "mod", "computer", player=ANA)
    assert last_ephemeral(fake, MOD) == "Ana was the last person at the table, so the game ended."
    said = str([sight.content(m) for m in fake.messages_in(CHANNEL)] + [sight.words(board(fake))])
    assert "Only computers were left at the table, so the game ended." in said
    assert await quick.bot.service.in_channel(CHANNEL) is None  # the channel is free again
    assert await quick.bot.store.results(fake.guild_id) == [] and not over(fake)  # no standings posted
    assert not fake.rejections
