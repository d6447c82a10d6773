"""Geek Out! Masters played through the real discord.py client against the fake Discord."""

import asyncio
import io
import re

import pytest
from PIL import Image

from playground.fake_discord import MANAGE_MESSAGES, DiscordError, snapshot
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY, MOD
from tests.bot.harness import BotRunner

NAMES = {ANA: "Ana", BO: "Bo", CY: "Cy"}
DICE_MOVES = ("Heart", "Meeple", "Superhero", "Spaceship", "Reroll", "Flip", "Send")


def board(fake, channel=CHANNEL):
    """The newest table message (the one with a board image: not the standings' score sheet)."""
    return sight.board(fake, channel)


def lobby(fake, channel=CHANNEL):
    return sight.lobby(fake, channel)


def to_act(message):
    m = re.search(r"To act: \*\*(\w+)\*\*", sight.description(message))
    return {v: k for k, v in NAMES.items()}[m.group(1)] if m else None


def labels(message):
    return sight.labels(message)


def last_ephemeral(fake, user):
    eph = fake.ephemerals(user)
    assert eph, "no ephemeral answer"
    return sight.content(eph[-1])


def version_of(message):
    ids = sight.custom_ids(message)
    return {int(i.split(":")[2]) for i in ids}


async def start_game(fake, players=(ANA, BO), channel=CHANNEL, takeover=True, **options):
    """``takeover=False``: the lobby's option "a computer takes over the seat of a player who leaves" is
    switched off first (its key, as the lobby's button sends it)."""
    await fake.slash(players[0], channel, "play", "geek-out", **options)
    lob = lobby(fake, channel)
    for p in players[1:]:
        await fake.click(p, lob, "Join")
    if not takeover:
        table, version = sight.components(lob)[0]["custom_id"].split(":")[1:3]
        await fake.click_forged(players[0], lob, f"gt:{table}:{version}:takeover.off")
    await fake.click(players[0], lob, "Start")
    return board(fake, channel)


async def play_one(fake, channel=CHANNEL, prefer=("Pass",)):
    b = board(fake, channel)
    who = to_act(b)
    names = labels(b)
    pick = next((n for p in prefer for n in names if n.startswith(p)), names[0])
    await fake.click(who, b, pick)
    return who, pick


async def test_a_whole_two_player_game_from_play_to_standings(fake, runner):
    b = await start_game(fake)
    assert sight.image_refs(b) == [f"attachment://{sight.image_name(b)}"]
    moves = 0
    while not any("final standings" in sight.content(m) for m in fake.messages_in(CHANNEL)):
        before = board(fake)
        # no click without a choice: a step the player acts on always offers two options or more
        assert len([x for x in labels(before) if x != "Rules"]) >= 2, labels(before)
        await play_one(fake, prefer=("Pass", "Continue") + DICE_MOVES)
        after = board(fake)
        assert after["id"] == before["id"]  # the same message is edited...
        assert len(after["attachments"]) == 1  # ...and its old image replaced, not piled up
        moves += 1
        assert moves < 400
    assert not fake.rejections
    final = board(fake)
    assert sight.components(final) == [] or labels(final) == ["Rules"] or not to_act(final)
    standings = sight.content([m for m in fake.messages_in(CHANNEL) if "final standings" in sight.content(m)][0])
    assert "Ana" in standings and "Bo" in standings
    results = await runner.bot.store.results(fake.guild_id)
    assert len(results) == 1 and len(results[0]["standings"]["scores"]) == 2
    # the channel is free again
    await fake.slash(ANA, CHANNEL, "play", "geek-out")
    assert "lobby" in sight.title(lobby(fake))


async def test_board_image_is_a_reasonable_png(fake, runner):
    b = await start_game(fake)
    [att] = b["attachments"]
    data = fake.files[int(att["id"])]
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and img.width == 600  # drawn for the phone (docs/rendering.md)
    assert len(data) < 300 * 1024


async def test_only_the_player_to_act_may_move(fake, runner):
    b = await start_game(fake)
    who = to_act(b)
    other = BO if who == ANA else ANA
    first = labels(b)[0]
    await fake.click(other, b, first)
    assert last_ephemeral(fake, other).startswith("It is not your turn")
    await fake.click(CY, b, first)
    assert last_ephemeral(fake, CY) == "You are not playing at this table."
    assert sight.words(board(fake)) == sight.words(b) and version_of(board(fake)) == version_of(b)


async def test_an_outdated_board_is_refused_and_changes_nothing(fake, runner):
    b = await start_game(fake)
    old = snapshot(b)
    who, pick = await play_one(fake, prefer=DICE_MOVES)
    current = snapshot(board(fake))
    await fake.click(who, old, labels(old)[0])
    assert "out of date" in last_ephemeral(fake, who)
    assert board(fake) == current


async def test_a_double_click_race_applies_exactly_once(fake, runner):
    b = await start_game(fake)
    who = to_act(b)
    label = labels(b)[0]
    v = version_of(b)
    await asyncio.gather(fake.click(who, b, label, settle=False), fake.click(who, b, label, settle=False))
    await fake.settle()
    assert version_of(board(fake)) == {next(iter(v)) + 1} or not to_act(board(fake))
    assert sum("out of date" in sight.content(m) for m in fake.ephemerals(who)) == 1
    assert len(await runner.bot.store.actions(1)) == 1


async def test_forged_and_malformed_custom_ids_get_a_sentence(fake, runner):
    b = await start_game(fake)
    for cid in ("gt:99999:1:p", "gt:nonsense", "gs:1:x", "totally-else", "gt:1:1:" + "z" * 60):
        await fake.click_forged(ANA, b, cid)
        text = last_ephemeral(fake, ANA)
        assert ("gone" in text or "doesn't belong" in text or "out of date" in text
                or "not your turn" in text or "not allowed" in text), (cid, text)
    # an illegal key on the current version from the player to act
    who = to_act(board(fake))
    v = next(iter(version_of(board(fake))))
    await fake.click_forged(who, board(fake), f"gt:1:{v}:u99")
    assert last_ephemeral(fake, who) == "That move is not allowed right now."
    assert version_of(board(fake)) == version_of(b)
    assert len(await runner.bot.store.actions(1)) == 0


async def test_restart_mid_game_keeps_the_same_buttons_working(fake, runner):
    await start_game(fake)
    await play_one(fake, prefer=DICE_MOVES)
    before = snapshot(board(fake))
    await runner.restart()
    who = to_act(before)
    await fake.click(who, before, labels(before)[0])
    after = board(fake)
    assert after["id"] == before["id"] and after != before
    assert not fake.rejections
    assert len(await runner.bot.store.actions(1)) == 2


async def test_second_play_in_the_channel_says_where_the_game_is(fake, runner):
    await start_game(fake)
    await fake.slash(BO, CHANNEL, "play", "geek-out")
    text = last_ephemeral(fake, BO)
    assert "already being played" in text and f"/{board(fake)['id']}" in text


async def test_lobby_rules(fake, runner):
    await fake.slash(ANA, CHANNEL, "play", "geek-out")
    lob = lobby(fake)
    await fake.click(BO, lob, "Start")
    assert last_ephemeral(fake, BO) == "Only a seated player can start the game."
    await fake.click(ANA, lob, "Join")
    assert last_ephemeral(fake, ANA) == "You are already seated at this table."
    await fake.click(BO, lob, "Join")
    await fake.click(BO, lob, "Start")
    assert last_ephemeral(fake, BO) == "Only the host can start the game."
    await fake.click(ANA, lob, "Leave")  # the host leaves: Bo becomes host and may start
    await fake.click(BO, lob, "Start")
    assert to_act(board(fake)) == BO


async def test_game_status_reposts_and_retires_the_old_board(fake, runner):
    b = await start_game(fake)
    await fake.slash(BO, CHANNEL, "game", "status")
    new = board(fake)
    assert new["id"] != b["id"]
    assert sight.components(fake.messages[int(b["id"])]) == []


async def test_a_buried_board_is_posted_again_at_the_next_move(fake, runner):
    b = await start_game(fake)
    for i in range(6):
        await fake.say(CY, CHANNEL, f"chat {i}")
    await play_one(fake, prefer=DICE_MOVES)
    new = board(fake)
    assert new["id"] != b["id"] and sight.components(fake.messages[int(b["id"])]) == []


async def test_an_hour_old_board_is_posted_again(fake, runner):
    await start_game(fake)
    fake.clock_offset = -3700  # the board posted now carries an id from an hour ago
    await fake.slash(ANA, CHANNEL, "game", "status")
    fake.clock_offset = 0
    b = board(fake)
    await play_one(fake, prefer=DICE_MOVES)
    assert board(fake)["id"] != b["id"]


async def test_game_leave_ends_a_two_player_game(fake, runner):
    await start_game(fake, takeover=False)  # else a computer plays Bo's seat on
    await fake.slash(BO, CHANNEL, "game", "leave")
    assert last_ephemeral(fake, BO) == "You left the game."
    standings = [m for m in fake.messages_in(CHANNEL) if "final standings" in sight.content(m)]
    assert standings and "Bo** (left)" in sight.content(standings[0])


async def test_game_leave_in_three_player_game_goes_on(fake, runner):
    await start_game(fake, players=(ANA, BO, CY), takeover=False)  # the seat leaves (no computer takes it)
    await fake.slash(CY, CHANNEL, "game", "leave")
    assert to_act(board(fake)) in (ANA, BO)
    assert not [m for m in fake.messages_in(CHANNEL) if "final standings" in sight.content(m)]


async def test_rules_are_ephemeral(fake, runner):
    await fake.slash(CY, CHANNEL, "rules", game="geek_out")
    assert sight.title(fake.ephemerals(CY)[-1]) == "Geek Out! Masters: A turn"
    assert not fake.messages_in(CHANNEL)


async def test_moderator_commands_are_hidden_and_checked(fake, runner):
    assert str(fake.commands["mod"]["default_member_permissions"]) == str(MANAGE_MESSAGES)
    await start_game(fake, takeover=False)
    await fake.slash(ANA, CHANNEL, "mod", "end", reason="bored")
    assert "Manage Messages permission" in last_ephemeral(fake, ANA)
    await fake.slash(ANA, CHANNEL, "mod", "timeout", seconds=60)
    assert "Manage Server permission" in last_ephemeral(fake, ANA)
    assert to_act(board(fake)) is not None
    await fake.slash(MOD, CHANNEL, "mod", "remove", player=BO)
    assert any("final standings" in sight.content(m) for m in fake.messages_in(CHANNEL))


async def test_moderator_ends_a_game_with_a_reason(fake, runner):
    before = snapshot(await start_game(fake))
    await fake.slash(MOD, CHANNEL, "mod", "end", reason="stuck for a day")
    assert "stuck for a day" in sight.content(fake.messages_in(CHANNEL)[-1])
    assert sight.components(board(fake)) == []
    await fake.click(to_act(before), before, labels(before)[0])  # a screen that had not refreshed yet
    assert last_ephemeral(fake, to_act(before)) == "This game is over."


async def test_moderator_limits_channels_and_sets_the_timeout(fake, runner):
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="allow", channel=601)
    assert "<#601>" in last_ephemeral(fake, MOD)
    await fake.slash(ANA, CHANNEL, "play", "geek-out")
    assert "can't be started in this channel" in last_ephemeral(fake, ANA)
    await fake.slash(ANA, 601, "play", "geek-out")
    assert lobby(fake, 601)
    await fake.slash(MOD, CHANNEL, "mod", "timeout", seconds=45)
    assert "45 seconds" in last_ephemeral(fake, MOD)
    assert (await runner.bot.store.guild_settings(fake.guild_id)).turn_timeout == 45


async def test_idle_turns_time_out_even_across_a_restart(fake, database):
    r = BotRunner(fake, database, turn_timeout=60)
    await r.start()
    try:
        b = await start_game(fake)
        first = to_act(b)
        await r.stop()
        await r.start(later=61)  # back after the deadline passed while the bot was down
        await fake.wait_until(lambda: to_act(board(fake)) != first, what="the idle turn to time out")
        assert "ran out of time" in sight.description(board(fake))
    finally:
        await r.stop()


async def test_a_lobby_nobody_starts_closes_itself(fake, database):
    r = BotRunner(fake, database, lobby_timeout=0)
    await r.start()
    try:
        await fake.slash(ANA, CHANNEL, "play", "geek-out")
        await fake.wait_until(lambda: any("Nobody started" in sight.content(m) for m in fake.messages_in(CHANNEL)),
                              what="the lobby to close itself")
        await fake.wait_until(lambda: sight.components(lobby(fake)) == [], what="the lobby's buttons to go")
    finally:
        await r.stop()


async def test_options_are_validated(fake, runner):
    spec = fake.commands["play"]
    [geek_out] = [o for o in spec["options"] if o["name"] == "geek-out"]
    assert geek_out["type"] == 1  # a subcommand per game...
    turns, computers, strength, *table = geek_out["options"]  # the game's own, /play's computers, the table's
    assert [o["name"] for o in table] == ["pace", "thread"]
    thread = table[1]
    assert (computers["name"], computers["min_value"], computers["max_value"]) == ("computers", 0, 7)
    assert [c["value"] for c in strength["choices"]] == ["easy", "normal", "strong"]
    assert (thread["name"], [c["value"] for c in thread["choices"]]) == ("thread", ["yes", "no"])
    assert (turns["name"], turns["type"], turns["min_value"], turns["max_value"]) == ("turns", 4, 1, 10)
    assert not turns["required"]  # ...with typed options Discord offers and checks
    with pytest.raises(DiscordError):
        await fake.slash(ANA, CHANNEL, "play", "geek-out", turns=99)
    with pytest.raises(AssertionError):
        await fake.slash(ANA, CHANNEL, "play", "geek-out", colour="red")
    assert not fake.messages_in(CHANNEL)
    b = await start_game(fake, turns=1)
    assert (await runner.bot.store.get_table(1)).options == {"turns": 1}
    assert b


async def test_a_game_in_a_thread(fake, runner):
    thread = 700
    b = await start_game(fake, channel=thread)
    assert b["channel_id"] == str(thread)
    await play_one(fake, channel=thread, prefer=DICE_MOVES)
    assert board(fake, thread)["id"] == b["id"] and not fake.rejections
    assert fake.messages_in(CHANNEL) == []
