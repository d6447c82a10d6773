"""The latest moves on the table message, through the real discord.py client and the loopback Discord: a computer
plays a Geek Out turn of several steps (some of them committed without a board of their own), and when Ana's turn
comes her board lists every step it made since her previous turn; after a restart of the bot the board drawn
anew (/game status) still lists them (rebuilt from the action log), and her next step is added under them."""

import random
from dataclasses import replace

import pytest

from bot.table.words import events_words
from games import get_engine
from tests.bot import sight
from tests.bot.conftest import ANA, CHANNEL
from tests.bot.harness import BotRunner
from tests.bot.test_computers_e2e import (
    add_computers,
    ana_moves_when_her_turn_comes,
    lobby_message,
    to_act_names,
)
from tests.bot.test_geodeto_e2e import board, over

SHOWN = 6
KEEP = 64  # bot/table/recent.py: the lines a table keeps


def latest_lines(message) -> tuple[list[str], int]:
    found = sight.latest_moves(message)
    assert found[0], sight.text_displays(message)
    return found


async def logged(runner) -> tuple[list[tuple[int, str]], int]:
    """Each logged move that says something as (seat, its words in English, the seats named), from the store's
    action log played again; and Ana's seat."""
    table = await runner.bot.service.in_channel(CHANNEL)
    engine = get_engine("geek_out")
    names = [str(n) for n in table.names]
    state = engine.new(len(table.players), table.row.options, table.row.seed)
    out = []
    for seat, key in await runner.bot.store.actions(table.id):
        state, events = engine.apply(state, seat, key)
        out.append((seat, str(events_words(events, names))))
    return out, next(s for s, p in enumerate(table.players) if p["id"] == ANA)


async def since_anas_last_move(runner) -> list[str]:
    """The lines of the others' moves since Ana's last logged move."""
    moves, ana = await logged(runner)
    others: list[str] = []
    for seat, words in moves:
        if seat == ana:
            others = []
        elif words:
            others.append(words)
    return others


@pytest.fixture
async def quick(fake, database):
    r = BotRunner(fake, database, computer_pause=0.2, computer_step_pause=0.01)
    await r.start()
    yield r
    await r.stop()


async def test_a_computers_whole_turn_is_on_the_next_board_and_still_after_a_restart(fake, quick):
    await fake.slash(ANA, CHANNEL, "play", "geek-out", turns=5)
    await add_computers(fake, ANA, "strong")
    await fake.click(ANA, lobby_message(fake), "Start")
    rng = random.Random(8)
    expected: list[str] = []
    moved = False
    for _move in range(300):
        await fake.wait_until(lambda: over(fake) or to_act_names(board(fake)) == ["Ana"], what="Ana's turn")
        assert not over(fake), "no computer turn of several steps came"
        expected = await since_anas_last_move(quick)
        if moved and len(expected) >= 3:
            break  # the computer's turn since her last move: several steps (its forced ones included)
        await ana_moves_when_her_turn_comes(fake, rng)
        moved = True
    assert len(expected) >= 3
    shown, earlier = latest_lines(board(fake))
    # a turn longer than the table keeps (KEEP lines) says "more earlier moves", without a count (-1 here)
    counted = -1 if len(expected) >= KEEP else max(len(expected) - SHOWN, 0)
    assert shown == expected[-SHOWN:] and earlier == counted, (shown, expected)
    assert any("Computer" in line for line in shown)

    quick.settings = replace(quick.settings, computer_pause=60)  # then the board stays as Ana's step leaves it
    await quick.restart()
    await fake.slash(ANA, CHANNEL, "game", "status")  # the board drawn anew by the restarted bot
    again = board(fake)
    assert latest_lines(again) == (shown, earlier)
    assert to_act_names(again) == ["Ana"]

    version, plies = max(sight.version_of(again)), len((await logged(quick))[0])
    await ana_moves_when_her_turn_comes(fake, rng)
    await fake.wait_until(lambda: max(sight.version_of(board(fake)), default=0) > version,
                          what="the board after Ana's step")
    after, _earlier = latest_lines(board(fake))
    mine = [words for _seat, words in (await logged(quick))[0][plies:] if words]
    if to_act_names(board(fake)) == ["Ana"]:  # her turn goes on: its step under the computer's
        assert after == [*expected, *mine][-SHOWN:], (after, expected, mine)
    else:  # her step ended her turn: the computer's turn shows what she did since its own turn
        assert after == mine[-SHOWN:], (after, mine)
    assert not fake.rejections
