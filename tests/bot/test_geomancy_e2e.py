"""Geomancy through the real discord.py client and the fake Discord: a whole 3-player game to the standings,
same-colour choices made by a player and by the timeout, the aura overlay for anyone who asks."""

import random
import re

from games.geomancy.rules import forced, parse_square, size_of
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY

NAMES = {ANA: "Ana", BO: "Bo", CY: "Cy"}
UTILITY = ("Rules", "Auras")
SQUARES = [f"{c}{r}" for r in range(1, 9) for c in "abcdefgh"]


def board(fake):
    return sight.board(fake, CHANNEL)


def to_act(message):
    m = re.search(r"To act: \*\*(\w+)\*\*", sight.description(message))
    return {v: k for k, v in NAMES.items()}[m.group(1)] if m else None


def comps(message):
    return sight.components(message)


def over(fake):
    return any("final standings" in sight.content(m) for m in fake.messages_in(CHANNEL))


async def start(fake, players=(ANA, BO, CY)):
    await fake.slash(players[0], CHANNEL, "play", "geomancy")
    lobby = fake.messages_in(CHANNEL)[-1]
    for p in players[1:]:
        await fake.click(p, lobby, "Join")
    await fake.click(players[0], lobby, "Start")


async def move(fake, rng, choices_made):
    b = board(fake)
    who = to_act(b)
    buttons = [c for c in comps(b) if c["type"] == 2 and c["label"] not in UTILITY]
    keep = [c for c in buttons if c["label"].startswith("Keep")]
    if keep:
        choices_made.append(who)
        await fake.click(who, b, rng.choice(keep)["label"])
        return
    aims = [c for c in buttons if c["label"].startswith(("Aim", "Cast"))]
    turns = [c for c in buttons if c["label"].startswith(("Reorient", "Point"))]
    if aims:  # cast while there are stones to cast; now and then turn a stone; else pass
        await fake.click(who, b, rng.choice(aims)["label"])
    elif turns and rng.random() < 0.3:
        await fake.click(who, b, rng.choice(turns)["label"])
    elif any(c["label"] == "Pass" for c in buttons):
        await fake.click(who, b, "Pass")
    else:
        back = [c for c in buttons if c["label"] in ("Back", "Choose another move")]
        await fake.click(who, b, (back or buttons)[0]["label"])


async def test_a_whole_three_player_game_to_the_standings(fake, runner):
    await start(fake)
    rng = random.Random(4)
    choices_made = []
    for _ in range(1500):
        if over(fake):
            break
        await move(fake, rng, choices_made)
    assert over(fake) and not fake.rejections
    [result] = await runner.bot.store.results(fake.guild_id)
    assert len(result["standings"]["scores"]) == 3
    standings = sight.content([m for m in fake.messages_in(CHANNEL) if "final standings" in sight.content(m)][-1])
    assert all(name in standings for name in NAMES.values())


async def test_the_aura_overlay_is_for_the_asker_only(fake, runner):
    await start(fake)
    b = board(fake)
    await fake.click(CY, b, "Auras")  # anyone may look, also a spectator or a player not to act
    [reply] = [m for m in fake.ephemerals(CY) if m["attachments"]]
    assert sight.content(reply).startswith("Auras") and board(fake)["attachments"] == b["attachments"]


def choice_state(engine, state):
    """Round 2, seat 0 casts: its first medium and first small land together on e4 (a same-colour choice for
    seat 0), every other stone on a square of its own."""
    s = dict(state, round=2, start=0, current=0)
    stones = engine.castable(s, 0)
    free = [q for q in SQUARES if q != "e4"]
    throws = [forced("e4", "E") if k in (0, sum(size_of(s["per"], x) == 2 for x in stones)) else forced(free.pop(0))
              for k in range(len(stones))]
    s, _ = engine.cast(s, 0, parse_square("e4"), throws)
    assert s["phase"] == "choose" and engine.to_act(s) == {0}
    return s


async def put_state(runner, fake, state):
    table = await runner.bot.service.in_channel(CHANNEL)
    table.state = state
    await runner.bot.store.execute("UPDATE tables SET state = ? WHERE id = ?",
                                      table.engine.encode(state), table.id)
    await fake.slash(ANA, CHANNEL, "game", "status")
    return table


async def test_a_same_colour_choice_is_made_by_its_owner(fake, runner):
    await start(fake)
    table = await runner.bot.service.in_channel(CHANNEL)
    table = await put_state(runner, fake, choice_state(table.engine, table.state))
    owner = table.players[0]["id"]
    b = board(fake)
    keeps = [c["label"] for c in comps(b) if c["type"] == 2 and c["label"].startswith("Keep")]
    assert to_act(b) == owner and len(keeps) == 2
    small = next(label for label in keeps if "small" in label)
    await fake.click(owner, b, small)  # the owner may keep the smaller one
    assert "keeps their small on e4" in sight.description(board(fake))
    e4 = parse_square("e4")
    assert [size_of(table.state["per"], x) for x in table.state["board"][e4]] == [1]


async def test_a_same_colour_choice_left_to_the_timeout_keeps_the_larger_stone(fake, runner):
    await start(fake)
    table = await runner.bot.service.in_channel(CHANNEL)
    table = await put_state(runner, fake, choice_state(table.engine, table.state))
    clock = runner.bot.service.clock
    runner.bot.service.clock = lambda: clock() + 601  # the owner sits idle past the turn timeout
    await fake.wait_until(lambda: "ran out of time" in sight.description(board(fake)),
                          what="the choice to time out")
    e4 = parse_square("e4")
    assert [size_of(table.state["per"], x) for x in table.state["board"][e4]] == [2]  # the larger stayed


async def test_restart_mid_game_keeps_the_board_working_and_a_moderator_can_end_it(fake, runner):
    from playground.fake_discord import snapshot
    from tests.bot.conftest import MOD

    await start(fake)
    rng = random.Random(1)
    for _ in range(6):
        await move(fake, rng, [])
    before = snapshot(board(fake))
    await runner.restart()
    who = to_act(before)
    label = next(c["label"] for c in comps(before) if c["type"] == 2 and c["label"] not in UTILITY)
    await fake.click(who, before, label)  # a button sent before the restart
    assert board(fake)["attachments"] != before["attachments"] and not fake.rejections
    await fake.slash(MOD, CHANNEL, "mod", "end", reason="closing time")
    assert "closing time" in sight.content(fake.messages_in(CHANNEL)[-1])
    assert sight.components(board(fake)) == []


async def test_a_picked_aim_rank_is_named_without_choosing_a_choice(fake, runner):
    await start(fake)
    b = board(fake)
    await fake.click(to_act(b), b, "Aim at rank 3 · 8 choices")
    text = sight.description(board(fake))
    assert "Picked **Aim at rank 3**: choose below (Back to pick another)." in text
    assert "a choice from" not in text and not fake.rejections
