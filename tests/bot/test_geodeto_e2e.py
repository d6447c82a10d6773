"""Geodeto through the real discord.py client and the fake Discord: whole games to the stored score sheet,
goal cards claimed in the channel, Epidemic and Pirates, and no secret goal in any public message."""

import logging
import random
import re

from games.geodeto.rules import deck
from playground.fake_discord import snapshot
from render.geodeto import rig_goal
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY

DEE = 104
NAMES = {ANA: "Ana", BO: "Bo", CY: "Cy", DEE: "Dee"}
UTILITY = ("My goals", "Rules")


def board(fake):
    return sight.board(fake, CHANNEL)


def to_act(message):
    m = re.search(r"To act: \*\*(\w+)\*\*", sight.description(message))
    return {v: k for k, v in NAMES.items()}[m.group(1)] if m else None


def comps(message):
    return sight.components(message)


def over(fake):
    return any("final standings" in sight.content(m) for m in fake.messages_in(CHANNEL))


async def start(fake, players):
    await fake.slash(players[0], CHANNEL, "play", "geodeto")
    lobby = fake.messages_in(CHANNEL)[-1]
    for p in players[1:]:
        await fake.click(p, lobby, "Join")
    await fake.click(players[0], lobby, "Start")


async def move(fake, rng, prefer=()):
    """The player to act clicks a move on the board: a preferred one if offered, else a random one."""
    b = board(fake)
    who = to_act(b)
    buttons = [c for c in comps(b) if c["type"] == 2 and c["label"] not in UTILITY]
    selects = [c for c in comps(b) if c["type"] == 3]
    options = [o for s in selects for o in s["options"]]
    for word in prefer:
        hit = [c for c in buttons if word in c["label"]]
        if hit:
            await fake.click(who, b, rng.choice(hit)["label"])
            return
        hit = [o for o in options if word in o["label"]]
        if hit:
            await fake.select(who, b, rng.choice(hit)["value"])
            return
    useful = [c for c in buttons if c["label"] not in ("Back",) and not c["label"].startswith("Choose another")]
    if options and (not useful or rng.random() < 0.5):
        await fake.select(who, b, rng.choice(options)["value"])
    else:
        await fake.click(who, b, rng.choice(useful or buttons)["label"])


async def play_to_the_end(fake, rng, prefer=(), limit=3000):
    for _ in range(limit):
        if over(fake):
            return
        await move(fake, rng, prefer)
    raise AssertionError("the game did not end")


def assert_no_goal_in_public(fake, hands_seen):
    """No card that sat in a hand while hidden shows in a public message before it was claimed."""
    public = " ".join(sight.words(m)
                      + " ".join(c.get("label") or "" for c in comps(m)) for m in fake.messages_in(CHANNEL))
    claimed = {name for name in hands_seen if f"fulfils **{name}**" in public}
    for name in hands_seen - claimed:
        assert name not in public, name


async def test_a_whole_two_player_game_to_the_score_sheet(fake, runner, caplog):
    caplog.set_level(logging.DEBUG, logger="bot")
    await start(fake, (ANA, BO))
    rng = random.Random(5)
    await play_to_the_end(fake, rng, prefer=("Bonus", "Draw"))
    assert not fake.rejections
    [result] = await runner.bot.store.results(fake.guild_id)
    assert len(result["standings"]["scores"]) == 2
    standings = [m for m in fake.messages_in(CHANNEL) if "final standings" in sight.content(m)][-1]
    assert "Score sheet" in sight.content(standings) and standings["attachments"]  # in words and as an image


async def test_my_goals_are_only_for_their_owner_and_claims_show_the_card(fake, runner):
    await start(fake, (ANA, BO))
    names = {card["name"] for card in deck().values()}
    table = await runner.bot.service.in_channel(CHANNEL)
    # the cards dealt at the start were never face up: until claimed, no public message may name them
    hands_seen = {deck()[c]["name"] for hand in table.state["hands"] for c in hand}
    rng = random.Random(8)
    for turn in range(60):
        if over(fake):
            break
        b = board(fake)
        who = to_act(b)
        await fake.click(who, b, "My goals")
        panel = [m for m in fake.ephemerals(who) if m["attachments"]][-1]
        assert sight.content(panel).startswith("Your goals")
        if turn % 6 == 5:  # build one of the player's goals on the board: their next action claims it
            table = await runner.bot.service.in_channel(CHANNEL)
            assert rig_goal(table.state, table.seat_of(who))
            await runner.bot.store.execute("UPDATE tables SET state = ? WHERE id = ?",
                                              table.engine.encode(table.state), table.id)
        await move(fake, rng, prefer=("Bonus", "Draw"))
    assert hands_seen and hands_seen <= names
    assert_no_goal_in_public(fake, hands_seen)
    claims = [m for m in fake.messages_in(CHANNEL) if "fulfils **" in sight.content(m)]
    assert claims and all(m["attachments"] for m in claims)  # the card, drawn, with its geo-tweet


async def test_a_four_player_game_with_epidemic_and_pirates(fake, runner):
    fake.add_user(DEE, "Dee")
    await start(fake, (ANA, BO, CY, DEE))
    rng = random.Random(11)
    await play_to_the_end(fake, rng, prefer=("Epidemic", "Pirates", "Take the Epidemic", "Return", "Bonus",
                                             "Use an action card"))
    keys = await _actions(runner)
    assert any(k.startswith("e") for k in keys), "Epidemic was never played"
    assert any(k.startswith("p") and k != "pass" for k in keys), "Pirates never took a tower"
    [result] = await runner.bot.store.results(fake.guild_id)
    assert len(result["standings"]["scores"]) == 4
    assert not fake.rejections


async def _actions(runner):
    table_id = max(r["table_id"] for r in await runner.bot.store.results(500))
    return [key for _seat, key in await runner.bot.store.actions(table_id)]


async def test_a_half_made_move_survives_a_restart_and_the_score_sheet_is_stored(fake, runner):
    await start(fake, (ANA, BO))
    b = board(fake)
    who = to_act(b)
    await fake.click(who, b, "Europe · 3 moves")  # the first step: a place, then one of its pyramids
    b = board(fake)
    pick = next(c["label"] for c in comps(b) if c["type"] == 2 and c.get("custom_id", "").split(":")[-1][:1] == "m")
    await fake.click(who, b, pick)  # a pyramid picked, its destinations offered
    before = snapshot(board(fake))
    assert "Choose another move" in [c.get("label") for c in comps(before)] or any(
        c["type"] == 3 for c in comps(before)) or any(" · " in (c.get("label") or "") for c in comps(before))
    await runner.restart()
    buttons = [c for c in comps(before) if c["type"] == 2 and c["label"] not in UTILITY + ("Back",)]
    await fake.click(who, before, buttons[0]["label"])  # a button sent before the restart still works
    assert board(fake)["attachments"] != before["attachments"] and not fake.rejections
    await play_to_the_end(fake, random.Random(2), prefer=("Bonus", "Draw"))
    [result] = await runner.bot.store.results(fake.guild_id)
    sheet = result["standings"]["detail"]["score_sheet"]
    assert len(sheet["players"]) == 2 and all("total" in row for row in sheet["players"])


async def test_the_first_step_shows_a_handful_of_places_then_their_pyramids(fake, runner):
    await start(fake, (ANA, BO, CY))
    b = board(fake)
    who = to_act(b)
    table = await runner.bot.service.in_channel(CHANNEL)
    assert len(table.engine.legal_actions(table.state, table.seat_of(who))) >= 15  # the flat list: a wall
    first = [c["label"] for c in comps(b) if c["type"] == 2 and c["label"] not in UTILITY]
    # six continents of three pyramids each, then the draw and the action cards as buttons of their own
    assert first == [f"{place} · 3 moves" for place in ("Europe", "Asia", "America", "Oceania", "Antarctica",
                                                        "Africa")] + ["Draw a goal card...", "Use an action card..."]
    assert not any(" · 1 " in label for label in first)  # a group of one is offered as its action
    await fake.click(who, b, "Europe · 3 moves")
    b = board(fake)
    assert "Choosing a move from **Europe**" in sight.description(b)
    step = [c["label"] for c in comps(b) if c["type"] == 2 and c["label"] not in UTILITY]
    assert step == ["Move small blue", "Move medium blue", "Move large blue", "Back"]
    await fake.click(who, b, "Back")
    assert [c["label"] for c in comps(board(fake)) if c["type"] == 2 and c["label"] not in UTILITY] == first
    await fake.click(who, board(fake), "Europe · 3 moves")
    await fake.click(who, board(fake), "Move small blue")
    b = board(fake)
    assert "The Ocean: on the water" in [c["label"] for c in comps(b) if c["type"] == 2]
    await fake.click(who, b, "The Ocean: on the water")
    b = board(fake)
    assert "moves small blue from Europe to the Ocean, on the water." in sight.description(b)
    assert to_act(b) != who
    # the next player's first step has the Ocean as a place too (one pyramid there: a move of its own)
    labels = [c["label"] for c in comps(b) if c["type"] == 2 and c["label"] not in UTILITY]
    assert "Europe · 2 moves" in labels and "Move small blue" in labels
    second = to_act(b)  # a second pyramid sails: the Ocean becomes a group, named mid-sentence in lower case
    await fake.click(second, b, "Asia · 3 moves")
    await fake.click(second, board(fake), "Move small yellow")
    await fake.click(second, board(fake), "The Ocean: on the water")
    b = board(fake)
    ocean = next(c["label"] for c in comps(b) if (c.get("label") or "").startswith("The Ocean · "))
    await fake.click(to_act(b), b, ocean)
    assert "Choosing a move from **the Ocean**" in sight.description(board(fake))
    await fake.click(to_act(b), board(fake), "My goals")  # the player's own panel says it the same way
    assert "choose a move from **the Ocean**" in sight.content(fake.ephemerals(to_act(b))[-1])
    assert not fake.rejections
