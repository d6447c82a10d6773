"""How play feels in a busy server (issue 6): turn pings, live private panels, two-step choices that only the
player to act moves, exact words. Everything through the real discord.py client and the fake Discord."""

import re

from games.geoneo.rules import Geoneo
from playground.fake_discord import snapshot
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY

NAMES = {ANA: "Ana", BO: "Bo", CY: "Cy"}
LATER = 120  # seconds the bot clock jumps: past "just clicked" (60 s), within the turn timeout (600 s)


def board(fake, channel=CHANNEL):
    return [m for m in fake.messages_in(channel) if sight.is_board(m)][-1]


def to_act(message):
    m = re.search(r"To act: \*\*(\w+)\*\*", sight.description(message))
    return {v: k for k, v in NAMES.items()}[m.group(1)] if m else None


def comps(message):
    return sight.components(message)


def labels(message):
    return [c.get("label") for c in comps(message)]


def moves(message):
    return [c["label"] for c in comps(message) if c["type"] == 2 and c["label"] not in ("Rules", "My hand")]


def pings(fake, channel=CHANNEL):
    return [m for m in fake.messages_in(channel) if "your turn" in sight.content(m) or "ran out of time" in sight.content(m)]


def panels(fake, user):
    """The user's private panels (ephemerals with their image)."""
    return [m for m in fake.ephemerals(user) if m["attachments"]]


def last_ephemeral(fake, user):
    return sight.content(fake.ephemerals(user)[-1])


async def until(fake, condition):
    """Waits for work of the bot's own long-lived tasks (the deadline loop), which ``settle`` can't see."""
    await fake.wait_until(condition)
    await fake.settle()


def away(runner, seconds=LATER):
    """Moves the bot's clock on, as if everyone had left the table a while ago."""
    clock = runner.bot.service.clock
    runner.bot.service.clock = lambda: clock() + seconds


async def start(fake, game="geek-out", players=(ANA, BO), **options):
    await fake.slash(players[0], CHANNEL, "play", game, **options)
    lobby = fake.messages_in(CHANNEL)[-1]
    for p in players[1:]:
        await fake.click(p, lobby, "Join")
    await fake.click(players[0], lobby, "Start")
    return board(fake)


# --- 1. pings ---------------------------------------------------------------------------------------------
async def test_a_player_whose_turn_comes_is_notified_once_and_pings_never_pile_up(fake, runner):
    b = await start(fake)
    away(runner)
    notified = len(fake.notifications)
    seen_turns = 0
    for _ in range(200):
        b = board(fake)
        who = to_act(b)
        if who is None:
            break
        before = who
        pick = next((x for x in moves(b) if x.startswith("Pass")), moves(b)[0])
        await fake.click(who, b, pick)
        after = to_act(board(fake))
        assert len(pings(fake)) <= 1  # at most one ping message per table in the channel
        if after is not None and after != before:
            seen_turns += 1
            [ping] = pings(fake)
            # a real mention in the content, allowed for that user only, and it notified them
            assert f"<@{after}>" in sight.content(ping) and fake.notifications[-1] == (after, int(ping["id"]))
            assert [u["id"] for u in ping["mentions"]] == [str(after)]
        away(runner)  # the next player stepped away meanwhile
    assert seen_turns >= 4
    assert len(fake.notifications) - notified == seen_turns
    assert not pings(fake)  # the game is over: the last ping is gone too
    assert not fake.rejections


async def test_no_ping_for_a_player_who_just_clicked_at_the_table(fake, runner):
    b = await start(fake)
    who = to_act(b)
    other = BO if who == ANA else ANA
    await fake.click(other, b, "Rules")  # the other player is looking at the table right now
    while to_act(board(fake)) == who:
        b = board(fake)
        await fake.click(who, b, next((x for x in moves(b) if x.startswith("Pass")), moves(b)[0]))
    assert to_act(board(fake)) == other
    assert fake.notifications == [] and not pings(fake)


async def test_pings_can_be_switched_off_and_on_by_each_user(fake, runner):
    await fake.slash(BO, CHANNEL, "game", "pings", enabled="off")
    assert "won't mention you" in last_ephemeral(fake, BO)
    assert await runner.bot.store.pings_enabled(BO) is False
    b = await start(fake)
    away(runner)
    for _ in range(100):
        b = board(fake)
        who = to_act(b)
        if who is None:
            break
        await fake.click(who, b, next((x for x in moves(b) if x.startswith("Pass")), moves(b)[0]))
        away(runner)
    assert fake.notifications and all(user == ANA for user, _ in fake.notifications)
    await fake.slash(BO, CHANNEL, "game", "pings", enabled="on")
    assert await runner.bot.store.pings_enabled(BO) is True


async def test_the_ping_message_has_a_button_to_stop_pings(fake, runner):
    b = await start(fake)
    away(runner)
    who = to_act(b)
    while to_act(board(fake)) == who:
        b = board(fake)
        await fake.click(who, b, next((x for x in moves(b) if x.startswith("Pass")), moves(b)[0]))
    [ping] = pings(fake)
    other = to_act(board(fake))
    await fake.click(other, ping, "Stop pinging me")
    assert "won't mention you" in last_ephemeral(fake, other)
    assert await runner.bot.store.pings_enabled(other) is False
    assert await runner.bot.store.pings_enabled(who) is True


async def test_a_timeout_names_the_idle_player_and_pings_the_next(fake, runner):
    b = await start(fake)
    idle = to_act(b)
    other = BO if idle == ANA else ANA
    away(runner, 601)  # past the 600 s turn timeout: the deadline loop plays for the idle player
    # the deadline loop posts the ping and edits the board; the edit may land a moment after the ping
    await until(fake, lambda: pings(fake) and to_act(board(fake)) == other)
    [ping] = pings(fake)
    assert f"**{NAMES[idle]}** ran out of time" in sight.content(ping) and f"<@{other}>" in sight.content(ping)
    assert f"<@{idle}>" not in sight.content(ping)


# --- 2. private panels ------------------------------------------------------------------------------------
async def play_from_panel(fake, user):
    """The user plays their first move from their open panel (opening one if they have none)."""
    mine = panels(fake, user)
    panel = mine[-1] if mine and sight.components(mine[-1]) else None
    if panel is None:
        await fake.click(user, board(fake), "My hand")
        panel = panels(fake, user)[-1]
    buttons = [c for c in comps(panel) if c["type"] == 2]
    await fake.click(user, panel, buttons[0]["label"])
    return panel


async def test_a_panel_is_edited_in_place_turn_after_turn(fake, runner):
    await start(fake, "geoneo")
    await fake.click(ANA, board(fake), "My hand")
    await fake.click(BO, board(fake), "My hand")
    [ana_panel], [bo_panel] = panels(fake, ANA), panels(fake, BO)
    versions = set()
    for _ in range(12):  # a dozen moves, all from the two panels
        who = to_act(board(fake))
        panel = fake.messages[int((ana_panel if who == ANA else bo_panel)["id"])]
        buttons = [c for c in comps(panel) if c["type"] == 2]
        assert buttons, sight.content(panel)  # it is their turn: the panel offers their moves
        await fake.click(who, panel, buttons[0]["label"])
        versions.add(fake.messages[int(ana_panel["id"])]["attachments"][0]["filename"])
    # still one ephemeral each: the same messages, kept current
    assert [m["id"] for m in panels(fake, ANA)] == [ana_panel["id"]]
    assert [m["id"] for m in panels(fake, BO)] == [bo_panel["id"]]
    assert len(versions) >= 6  # Ana's panel changed with the table, also on Bo's turns
    assert not fake.rejections


async def test_opening_a_panel_removes_the_previous_one(fake, runner):
    await start(fake, "geoneo")
    await fake.click(ANA, board(fake), "My hand")
    first = panels(fake, ANA)[-1]
    await fake.click(ANA, board(fake), "My hand")
    [second] = panels(fake, ANA)
    assert second["id"] != first["id"] and int(first["id"]) not in fake.messages


async def test_after_fifteen_minutes_one_click_opens_a_fresh_panel(fake, runner):
    runner.bot.service.defaults.turn_timeout = 10**6
    await start(fake, "geoneo")
    await fake.click(ANA, board(fake), "My hand")
    await fake.click(BO, board(fake), "My hand")
    old = snapshot(panels(fake, ANA)[-1])
    fake.clock_offset = 16 * 60  # Discord's 15 minutes for the panels' tokens are over
    away(runner, 16 * 60)
    who = to_act(board(fake))
    mover = BO if who == BO else ANA
    await play_from_panel(fake, mover)
    if mover == ANA:  # Ana's own click renewed her panel: play one more from Bo's side
        await play_from_panel(fake, BO)
    assert not [r for r in fake.rejections if r.code == 50027]  # the bot knew better than to try
    await fake.click(ANA, board(fake), "My hand")
    fresh = panels(fake, ANA)[-1]
    assert fresh["id"] != old["id"] and fresh["attachments"]


async def test_a_click_on_an_outdated_panel_brings_it_up_to_date(fake, runner):
    await start(fake, "geoneo")
    who = to_act(board(fake))
    await fake.click(who, board(fake), "My hand")
    [panel] = panels(fake, who)
    screen = snapshot(panel)  # what the player's screen shows (it does not refresh in time)
    await runner.restart()  # the panel is kept in the store: the bot still edits it after the restart
    away(runner, 601)  # and the table plays for the idle player: the panel's buttons are now out of date
    await until(fake, lambda: to_act(board(fake)) != who and pings(fake))
    table = await runner.bot.service.in_channel(CHANNEL)
    played = len(await runner.bot.store.actions(table.id))
    assert fake.messages[int(panel["id"])]["attachments"][0]["filename"] != screen["attachments"][0]["filename"]
    await fake.click(who, screen, [c for c in comps(screen) if c["type"] == 2][0]["label"])
    now = fake.messages[int(panel["id"])]
    assert "out of date" in sight.content(now) and now["attachments"][0]["filename"].endswith(f"-{table.version}.png")
    assert [m["id"] for m in panels(fake, who)] == [panel["id"]]  # the same panel, brought up to date
    assert "out of date" in sight.content(fake.ephemerals(who)[-1])  # and said in a message of its own
    assert len(await runner.bot.store.actions(table.id)) == played  # and nothing was played by the click


# --- 3 and 6. two-step choices that only the player to act moves -------------------------------------------
def clearing_state(players=2, seed=3, area=(5, 6)):
    """A GEONEO game in its clearing phase with many shapes for the player to act: pieces in the first
    ``area`` rows and columns (None: the whole board). (5, 6): 33 shapes from 9 first corners (buttons, then
    a corner's shapes as buttons); the whole board: 89 shapes from 15 corners, too many alike for buttons."""
    engine = Geoneo()
    s = engine.new(players, {}, seed)
    width = s["width"]
    s["pieces"] = [None] * len(s["pieces"])
    for i in range(len(s["pieces"])):
        r, c = divmod(i, width)
        if area and (r >= area[0] or c >= area[1]):
            continue
        if (r + c) % 3 == 0:
            s["pieces"][i] = 0
        elif (r + 2 * c) % 5 == 1:
            s["pieces"][i] = 1
    s["supply"] = [0] * players
    s["round"] = {"start": 0, "plays": []}
    s["phase"] = "clear"
    s["clearer"] = 0
    return engine, s


async def put_state(runner, fake, state):
    table = await runner.bot.service.in_channel(CHANNEL)
    table.state = state
    await runner.bot.store.execute("UPDATE tables SET state = ? WHERE id = ?",
                                      table.engine.encode(state), table.id)
    await fake.slash(ANA, CHANNEL, "game", "status")
    return table


async def test_a_long_choice_takes_two_steps_without_paging_and_shows_on_the_board(fake, runner):
    await start(fake, "geoneo")
    engine, s = clearing_state()
    table = await put_state(runner, fake, s)
    assert len(engine.legal_actions(s, 0)) > 20
    clearer = table.players[0]["id"]
    b = board(fake)
    groups = [label for label in moves(b) if " · " in label]
    assert groups and all(c["type"] == 2 for c in comps(b))  # step one: the first corners, as buttons
    assert not any("More" in label for label in labels(b))
    image_before = fake.files[int(b["attachments"][0]["id"])]
    await fake.click(clearer, b, groups[0])
    b = board(fake)
    assert "Choosing a shape from" in sight.description(b)
    assert "Back" in labels(b)
    assert fake.files[int(b["attachments"][0]["id"])] != image_before  # the corner is marked on the board
    options = [o for c in comps(b) if c["type"] == 3 for o in c["options"]] or \
        [{"label": c["label"]} for c in comps(b) if c["type"] == 2 and c["label"] not in ("Back", "My hand", "Rules")]
    assert options and all(o["label"].startswith(("Line", "Rectangle", "Triangle")) for o in options)
    await fake.click(clearer, b, "Back")
    assert any(" · " in label for label in moves(board(fake)))
    # step two picks the shape: the board then shows it cleared
    await fake.click(clearer, board(fake), groups[0])
    b = board(fake)
    selects = [c for c in comps(b) if c["type"] == 3]
    if selects:
        await fake.select(clearer, b, selects[0]["options"][0]["value"])
    else:
        await fake.click(clearer, b, next(x for x in moves(b) if x.startswith(("Line", "Rectangle", "Triangle"))))
    assert "clears a" in sight.description(board(fake))
    assert not fake.rejections


async def test_more_than_ten_first_corners_come_as_a_menu_then_the_corner(fake, runner):
    """Issue 26: 15 buttons "A1 · 12 shapes", "B3 · 13 shapes", ... are too many alike: the corners come as one
    menu; picking one marks it on the board and offers its shapes (a menu again when more than ten)."""
    await start(fake, "geoneo")
    engine, s = clearing_state(area=None)
    table = await put_state(runner, fake, s)
    clearer = table.players[0]["id"]
    b = board(fake)
    [menu] = [c for c in comps(b) if c["type"] == 3]
    assert not moves(b) and len(menu["options"]) == 15  # 13 corners to open, 2 lone shapes as themselves
    assert sum(" · " in o["label"] for o in menu["options"]) == 13
    image_before = fake.files[int(b["attachments"][0]["id"])]
    await fake.select(clearer, b, next(o["value"] for o in menu["options"] if o["label"].startswith("B3 · ")))
    b = board(fake)
    assert "Choosing a shape from" in sight.description(b) and "Back" in labels(b)
    assert fake.files[int(b["attachments"][0]["id"])] != image_before
    [shapes] = [c for c in comps(b) if c["type"] == 3]
    assert len(shapes["options"]) == 13 and all(o["label"].startswith(("Line", "Rectangle", "Triangle"))
                                                 for o in shapes["options"])
    await fake.select(clearer, b, shapes["options"][0]["value"])
    assert "clears a" in sight.description(board(fake))
    assert not fake.rejections


async def test_only_the_player_to_act_moves_the_menus(fake, runner):
    await start(fake, "geoneo")
    _, s = clearing_state()
    table = await put_state(runner, fake, s)
    clearer = table.players[0]["id"]
    other = table.players[1]["id"]
    b = snapshot(board(fake))
    group = next(label for label in moves(b) if " · " in label)
    await fake.click(CY, b, group)
    assert last_ephemeral(fake, CY) == "You are not playing at this table."
    await fake.click(other, b, group)
    assert last_ephemeral(fake, other).startswith("It is not your turn")
    version = {c["custom_id"].split(":")[2] for c in comps(b)}.pop()
    for forged in (f"gt:{table.id}:{version}:pick.Z9", f"gt:{table.id}:{version}:page.1"):
        await fake.click_forged(clearer, b, forged)
        assert "not available" in last_ephemeral(fake, clearer) or "not allowed" in last_ephemeral(fake, clearer)
    await fake.click_forged(CY, b, f"gt:{table.id}:{version}:page.1")
    assert last_ephemeral(fake, CY) == "You are not playing at this table."
    assert board(fake) == b  # nothing moved, nothing re-uploaded
    assert len(await runner.bot.store.actions(table.id)) == 0


async def test_a_forged_hand_on_a_game_without_hands_gets_a_sentence(fake, runner):
    b = await start(fake)
    version = {c["custom_id"].split(":")[2] for c in comps(b)}.pop()
    await fake.click_forged(ANA, b, f"gt:1:{version}:hand")
    assert "no private hand" in last_ephemeral(fake, ANA)
    assert board(fake) == b


# --- 5. exact words ---------------------------------------------------------------------------------------
async def test_an_out_of_date_click_does_not_link_to_its_own_message(fake, runner):
    b = await start(fake)
    old = snapshot(b)
    who = to_act(b)
    await fake.click(who, b, moves(b)[0])
    await fake.click(who, old, moves(old)[0])
    text = last_ephemeral(fake, who)
    assert "changed" in text and f"/{old['id']}" not in text


async def test_a_closed_lobby_does_not_ask_the_host_to_start(fake, runner):
    await fake.slash(ANA, CHANNEL, "play", "geek-out")
    lobby = fake.messages_in(CHANNEL)[-1]
    await fake.click(ANA, lobby, "Leave")
    text = sight.description(fake.messages[int(lobby["id"])])
    assert "Start" not in text and "closed" in text


async def test_a_forged_group_pick_on_a_short_list_changes_nothing(fake, runner):
    b = await start(fake)
    who = to_act(b)
    version = {c["custom_id"].split(":")[2] for c in comps(b)}.pop()
    await fake.click_forged(who, b, f"gt:1:{version}:pick.use")
    assert last_ephemeral(fake, who) == "That choice is not available now."
    assert board(fake) == b


async def test_a_reposted_board_keeps_the_ping_pointing_at_it(fake, runner):
    b = await start(fake)
    away(runner)
    who = to_act(b)
    while to_act(board(fake)) == who:
        b = board(fake)
        await fake.click(who, b, next((x for x in moves(b) if x.startswith("Pass")), moves(b)[0]))
    await fake.slash(who, CHANNEL, "game", "status")  # the board is posted afresh
    [ping] = pings(fake)
    assert sight.content(ping).endswith(f"/{board(fake)['id']}") and len(fake.notifications) == 1
