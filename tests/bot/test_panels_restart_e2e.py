"""Private panels across a bot restart, through the real discord.py client and the fake Discord: what a live
panel needs is in the store (migration 006), so after a restart the next publication still updates every
panel in place and clicks on panels drawn before the restart are played."""

import random
import re

from playground.fake_discord import snapshot
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, MOD
from tests.bot.test_geodeto_e2e import NAMES, board, move, to_act
from tests.bot.test_simultaneous_e2e import custom_id, refusals


def panel_of(fake, user):
    return [m for m in fake.ephemerals(user) if m["attachments"]][-1]


def shown_version(message) -> int:
    return int(re.search(r"-(\d+)\.png$", message["attachments"][0]["filename"]).group(1))


async def start(fake, game, players):
    await fake.slash(players[0], CHANNEL, "play", game)
    lobby = fake.messages_in(CHANNEL)[-1]
    for p in players[1:]:
        await fake.click(p, lobby, "Join")
    await fake.click(players[0], lobby, "Start")


async def test_a_geodeto_panel_opened_before_a_restart_is_updated_in_place_after_it(fake, runner):
    await start(fake, "geodeto", (ANA, BO))
    for user in (ANA, BO):
        await fake.click(user, board(fake), "My goals")
    panels = {user: panel_of(fake, user)["id"] for user in (ANA, BO)}
    count = len(fake.ephemerals(ANA)) + len(fake.ephemerals(BO))
    await runner.restart()
    rng = random.Random(5)
    first = to_act(board(fake))
    while to_act(board(fake)) == first:  # the first player's turn, played on the board after the restart
        await move(fake, rng)
    table = await runner.bot.service.in_channel(CHANNEL)
    for user in (ANA, BO):
        message = fake.messages[int(panels[user])]  # the same message, edited
        assert shown_version(message) == table.version
        waiting = "Your move" if user == to_act(board(fake)) else f"waiting for {NAMES[to_act(board(fake))]}"
        assert waiting in sight.content(message)
    assert len(fake.ephemerals(ANA)) + len(fake.ephemerals(BO)) == count  # no panel posted anew
    await fake.slash(MOD, CHANNEL, "mod", "end", reason="time is up")
    for user in (ANA, BO):
        assert sight.content(fake.messages[int(panels[user])]) == "This game is over."
    assert not fake.rejections


async def test_globe_twister_lock_ins_on_panels_drawn_before_a_restart_are_played(fake, runner):
    await start(fake, "globe-twister", (ANA, BO))
    for user in (ANA, BO):
        await fake.click(user, board(fake), "My program")
    screens = {user: snapshot(panel_of(fake, user)) for user in (ANA, BO)}
    turn = (await runner.bot.service.in_channel(CHANNEL)).state["turn"]
    await runner.restart()
    await fake.interact(ANA, screens[ANA], custom_id(screens[ANA], "lock"))  # the sand timer turns for Bo
    table = await runner.bot.service.in_channel(CHANNEL)
    seat = {p["id"]: i for i, p in enumerate(table.players)}
    assert table.state["locked"][seat[ANA]]
    updated = fake.messages[int(screens[BO]["id"])]
    assert shown_version(updated) == table.version and "Lock in" in str(sight.labels(updated))
    # Bo's screen had not refreshed yet: his lock-in from the panel drawn before the restart still counts
    await fake.interact(BO, screens[BO], custom_id(screens[BO], "lock"))
    table = await runner.bot.service.in_channel(CHANNEL)
    assert table.state["turn"] == turn + 1 and not any(table.state["locked"])  # both locked in: the stage ran
    assert not refusals(fake, ANA) and not refusals(fake, BO)
    assert not fake.rejections
