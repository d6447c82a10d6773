"""Globe Twister through the real discord.py client and the fake Discord: everyone programs at once in their own
panel, the sand timer (on the bot's injectable clock) ends the stage, runs are shown, solo puzzles at par."""

import asyncio
import json
import re
from pathlib import Path

import games.globe_twister
from bot.ui import keys
from games.globe_twister.puzzle import from_pairs
from games.globe_twister.solver import plan
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY

NAMES = {ANA: "Ana", BO: "Bo"}


def board(fake):
    return sight.board(fake, CHANNEL)


def comps(message):
    return sight.components(message)


def panel(fake, user):
    return [m for m in fake.ephemerals(user) if m["attachments"]][-1]


def runs(fake):
    """The channel's animations of programs being run."""
    return [m for m in fake.messages_in(CHANNEL) if m["attachments"] and m["attachments"][0]["filename"].endswith(".gif")]


async def until(fake, condition, tries=300):
    """Waits for work of the bot's own long-lived tasks (the timer loop), which ``settle`` can't see."""
    for _ in range(tries):
        if condition():
            return
        await asyncio.sleep(0.02)
        await fake.settle()
    raise AssertionError("the condition never held")


def over(fake):
    return any("final standings" in sight.content(m) for m in fake.messages_in(CHANNEL))


async def click_key(fake, user, message, key):
    """Clicks the component of ``message`` whose action key is ``key`` (bot/ui/keys.py: a seat's own moves carry
    its token)."""
    message = fake.messages[int(message["id"])]
    [comp] = [c for c in comps(message) if action_key(c) == key]
    await fake.click(user, message, custom_id=comp["custom_id"])


def action_key(component) -> str:
    what = keys.decode(component.get("custom_id", ""))
    return what.key if isinstance(what, keys.Move) else what.text if isinstance(what, keys.Utility) else ""


async def program(fake, user, placements, *, lock=True):
    """Places (cell, card, direction) in the user's own panel, then locks in."""
    await fake.click(user, board(fake), "My program")
    for cell, card, direction in placements:
        await click_key(fake, user, panel(fake, user), f"c{cell}")
        await click_key(fake, user, panel(fake, user), f"k{card}")
        if direction:
            await click_key(fake, user, panel(fake, user), f"d{direction}")
    if lock:
        await click_key(fake, user, panel(fake, user), "lock")


async def start(fake, players, **options):
    await fake.slash(players[0], CHANNEL, "play", "globe-twister", **options)
    lobby = fake.messages_in(CHANNEL)[-1]
    for p in players[1:]:
        await fake.click(p, lobby, "Join")
    await fake.click(players[0], lobby, "Start")


async def test_a_solo_tourist_puzzle_solved_at_par(fake, runner):
    await start(fake, (ANA,), puzzle="tourist", number=1)
    table = await runner.bot.service.in_channel(CHANNEL)
    shipped = json.loads((Path(games.globe_twister.__file__).parent / "data" / "puzzles.json").read_text())
    puzzle = shipped["levels"]["tourist"][0]
    view = table.engine.view(table.state, 0)
    assert view["puzzles"][0] == puzzle["tiles"] and view["solo"]["par"] == puzzle["par"]
    solution = puzzle["solution"]  # its par is proven minimal by the engine's tests
    assert len(solution) == 1 and len(solution[0]) == puzzle["par"]["cards"]
    await program(fake, ANA, solution[0])
    assert over(fake)
    [result] = await runner.bot.store.results(fake.guild_id)
    assert result["standings"]["ranking"] == [[0]]
    assert not fake.rejections


async def test_two_players_against_the_sand_timer_to_a_winner(fake, runner):
    await start(fake, (ANA, BO))
    table = await runner.bot.service.in_channel(CHANNEL)
    seat = {p["id"]: i for i, p in enumerate(table.players)}
    view = table.engine.view(table.state, None)
    route = plan(from_pairs(view["puzzles"][seat[ANA]]), view["hands"][seat[ANA]], any_rotation=False)
    assert route, "the solver finds Ana a way home"
    for placements in route:
        await program(fake, BO, [], lock=False)  # Bo opens his panel and dithers
        await program(fake, ANA, placements)  # Ana locks in: the sand timer turns for Bo
        if over(fake):
            break
        assert re.search(r"<t:\d+:R>", sight.description(board(fake))), "a live countdown is shown"
        # nothing of Ana's program is public before the run
        public = json.dumps([sight.content(m) for m in fake.messages_in(CHANNEL)]
                            + [comps(m) for m in fake.messages_in(CHANNEL)])
        assert "Take back" not in public and "Cell 1 (" not in public
        shown = len(runs(fake))
        clock = runner.bot.service.clock
        runner.bot.service.clock = lambda clock=clock: clock() + 31  # the sand runs out
        await until(fake, lambda shown=shown: len(runs(fake)) > shown or over(fake))
    await until(fake, lambda: over(fake))
    [result] = await runner.bot.store.results(fake.guild_id)
    assert result["standings"]["ranking"][0] == [seat[ANA]]


async def test_a_board_superseded_once_the_sand_ran_out_keeps_no_countdown_running_into_the_past(fake, runner):
    await start(fake, (ANA, BO))
    await program(fake, BO, [], lock=False)  # Bo opens his panel and dithers
    await program(fake, ANA, [])  # Ana locks in: the sand timer turns
    counting = board(fake)
    assert re.search(r"<t:\d+:R>", sight.description(counting)), "a live countdown is shown"
    clock = runner.bot.service.clock
    runner.bot.service.clock = lambda: clock() + 31  # the sand runs out: the run, then a new board below it
    await until(fake, lambda: len(runs(fake)) == 1 and board(fake)["id"] != counting["id"])
    old = sight.description(fake.messages[int(counting["id"])])
    assert not re.search(r"<t:\d+:R>", old) and "Time runs out" not in old  # not "14 seconds ago"
    assert "Ana locks in and turns the sand timer" in old  # the rest of the old board stays as it was
    assert not sight.components(fake.messages[int(counting["id"])])  # and its buttons went, as before


async def test_a_restart_during_programming_keeps_both_partial_programs(fake, runner):
    await start(fake, (ANA, BO))
    await program(fake, ANA, [(0, "g1", None)], lock=False)
    await program(fake, BO, [(4, "g3", None), (8, "g2", None)], lock=False)
    table = await runner.bot.service.in_channel(CHANNEL)
    before = [list(p) for p in table.state["programs"]]
    await runner.restart()
    table = await runner.bot.service.in_channel(CHANNEL)
    assert [list(p) for p in table.state["programs"]] == before
    await fake.click(ANA, board(fake), "My program")  # a fresh panel shows the program so far
    assert "lock" in [action_key(c) for c in comps(panel(fake, ANA))]


async def test_a_sand_timer_that_ran_out_while_the_bot_was_down_ends_the_stage_when_it_is_back(fake, runner):
    await start(fake, (ANA, BO), timer=5)
    await program(fake, ANA, [(0, "g1", None)])  # Ana locks in: 5 seconds of sand for Bo
    await program(fake, BO, [(4, "g2", None)], lock=False)
    await runner.stop()
    await runner.start(later=6)  # back after the sand ran out while the bot was down
    await until(fake, lambda: len(runs(fake)) >= 1)  # the stage ends as soon as the bot is back
    table = await runner.bot.service.in_channel(CHANNEL)
    assert not any(table.state["locked"])  # a new stage B
    assert all(cell is None for program in table.state["programs"] for cell in program)
    [shown] = runs(fake)  # one animation of both programs, Bo's one card too
    assert "Ana's program: cell 1" in sight.content(shown) and "Bo's program: cell 5" in sight.content(shown)


async def test_a_run_is_one_animation_of_every_program_then_the_board_under_it(fake, runner):
    """Three players' programs run: one message with one animation of all three, then the board posted afresh
    under it (it was pushed ~1,000 px up by an animation per player); at the turn limit, nobody won."""
    await start(fake, (ANA, BO, CY), turn_limit=2)
    for turn in (1, 2):
        before = len(fake.messages_in(CHANNEL))
        await program(fake, ANA, [(4, "g1", None)])
        await program(fake, BO, [(0, "g3", None), (8, "g2", None)])
        await program(fake, CY, [])
        await until(fake, lambda turn=turn: len(runs(fake)) >= turn
                    and int(board(fake)["id"]) > int(runs(fake)[-1]["id"]))
        new = fake.messages_in(CHANNEL)[before:]
        animations = [m for m in new if m["attachments"] and m["attachments"][0]["filename"].endswith(".gif")]
        assert len(animations) == 1, [sight.content(m)[:40] for m in new]
        [gif] = animations
        content = sight.content(gif)
        assert f"Turn {turn}: the programs run" in content
        assert "Ana's program" in content and "Bo's program" in content and "Cy's program" in content
        # the board comes after it: the last picture in the channel, with its buttons while the game goes on
        images = [m for m in fake.messages_in(CHANNEL) if m["attachments"]]
        assert images[-1]["id"] == board(fake)["id"] and images[-2]["id"] == gif["id"]
        if turn == 1:
            assert comps(board(fake))
    await until(fake, lambda: over(fake))
    [standings] = [m for m in fake.messages_in(CHANNEL) if "final standings" in sight.content(m)]
    assert "Nobody won." in sight.content(standings) and "Shared victory" not in sight.content(standings)
    assert "1st" not in sight.content(standings)
    [result] = await runner.bot.store.results(fake.guild_id)
    assert result["standings"]["scores"] == [0, 0, 0]
