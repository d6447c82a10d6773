"""GEONEO through the real discord.py client and the fake Discord: secret hands, teams, whole games."""

import logging
import re

from playground.fake_discord import snapshot
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY

DEE = 104
NAMES = {ANA: "Ana", BO: "Bo", CY: "Cy", DEE: "Dee"}
SECRET_LABEL = re.compile(r"^(Play \d|[+-]\d = \d|Put away \d)")


def board(fake, channel=CHANNEL):
    return [m for m in fake.messages_in(channel) if m["attachments"]][-1]


def to_act(message):
    m = re.search(r"To act: \*\*(\w+)\*\*", sight.description(message))
    return {v: k for k, v in NAMES.items()}[m.group(1)] if m else None


def components(message):
    return sight.components(message)


async def start(fake, players):
    await fake.slash(players[0], CHANNEL, "play", "geoneo")
    lobby = fake.messages_in(CHANNEL)[-1]
    for p in players[1:]:
        await fake.click(p, lobby, "Join")
    await fake.click(players[0], lobby, "Start")


async def move(fake, hands_seen):
    b = board(fake)
    who = to_act(b)
    comps = components(b)
    selects = [c for c in comps if c["type"] == 3]
    public = [c for c in comps if c["type"] == 2 and c["label"] not in ("My hand", "Rules")
              and not c["label"].startswith("More")]
    if selects:
        await fake.select(who, b, selects[0]["options"][0]["value"])
    elif public:
        await fake.click(who, b, public[0]["label"])
    else:
        await fake.click(who, b, "My hand")
        private = fake.ephemerals(who)[-1]
        assert sight.content(private).startswith("Your hand") and private["attachments"]
        hands_seen.add(fake.files[int(private["attachments"][0]["id"])])
        await fake.click(who, private, components(private)[0]["label"])


async def play_to_the_end(fake, limit=600):
    hands_seen = set()
    for _ in range(limit):
        if any("final standings" in sight.content(m) for m in fake.messages_in(CHANNEL)):
            return hands_seen
        await move(fake, hands_seen)
    raise AssertionError("the game did not end")


def assert_no_hand_in_public(fake, hands_seen, caplog):
    public_files = set()
    for m in fake.messages_in(CHANNEL):
        for c in components(m):
            assert not SECRET_LABEL.match(c.get("label") or ""), c
            for o in c.get("options", []):
                assert not SECRET_LABEL.match(o["label"]), o
        assert "hand" not in (sight.content(m) or "").lower() or "final standings" in sight.content(m)
        public_files |= {fake.files[int(a["id"])] for a in m["attachments"]}
    assert hands_seen and not (hands_seen & public_files)
    for record in caplog.records:
        if record.name.startswith("bot"):
            assert "hand" not in record.getMessage().lower()


async def test_a_whole_two_player_game_with_secret_hands(fake, runner, caplog):
    caplog.set_level(logging.DEBUG, logger="bot")
    await start(fake, (ANA, BO))
    hands_seen = await play_to_the_end(fake)
    assert not fake.rejections
    assert_no_hand_in_public(fake, hands_seen, caplog)
    [result] = await runner.bot.store.results(fake.guild_id)
    assert len(result["standings"]["scores"]) == 2


async def test_a_four_player_team_game(fake, runner, caplog):
    fake.add_user(DEE, "Dee")
    caplog.set_level(logging.DEBUG, logger="bot")
    await fake.slash(ANA, CHANNEL, "play", "geoneo")
    lobby = fake.messages_in(CHANNEL)[-1]
    for p in (BO, CY, DEE):
        await fake.click(p, lobby, "Join")
    seats = sight.description(lobby)
    assert "team White (with seat 3)" in seats and "team Black (with seat 4)" in seats
    table, version = sight.components(lobby)[0]["custom_id"].split(":")[1:3]
    await fake.click_forged(ANA, lobby, f"gt:{table}:{version}:takeover.off")  # Dee's seat is not a computer's
    await fake.click(ANA, lobby, "Start")
    hands_seen = set()
    for _ in range(30):
        await move(fake, hands_seen)
    await fake.slash(DEE, CHANNEL, "game", "leave")  # the table plays Dee's seat; the team stays a team
    hands_seen |= await play_to_the_end(fake)
    assert_no_hand_in_public(fake, hands_seen, caplog)
    [result] = await runner.bot.store.results(fake.guild_id)
    scores = result["standings"]["scores"]
    assert scores[0] == scores[2] and scores[1] == scores[3]  # partners share the team's score
    standings = sight.content([m for m in fake.messages_in(CHANNEL) if "final standings" in sight.content(m)][0])
    lines = standings.splitlines()
    assert "**Team Black** (**Bo** & **Dee** (left))" in standings
    if scores[0] != scores[1]:  # two places, one per team, each a team
        assert lines[1].startswith("1st: **Team") and lines[2].startswith("2nd: **Team") and len(lines) == 4
        assert lines[3].endswith("wins!") and "Team" in lines[3]
    else:
        assert lines[1].startswith("1st: **Team") and "= **Team" in lines[1] and "Shared victory" in lines[2]


async def test_my_hand_is_only_for_seated_players_and_moves_only_on_your_turn(fake, runner):
    await start(fake, (ANA, BO))
    b = board(fake)
    who = to_act(b)
    other = BO if who == ANA else ANA
    await fake.click(CY, b, "My hand")
    assert sight.content(fake.ephemerals(CY)[-1]) == "You are not playing at this table."
    await fake.click(other, b, "My hand")
    private = fake.ephemerals(other)[-1]
    assert "not your turn" in sight.content(private) and sight.components(private) == []
    await fake.click(who, b, "My hand")
    mine = fake.ephemerals(who)[-1]
    assert all(SECRET_LABEL.match(c["label"]) for c in components(mine))
    # someone else clicking a button of that ephemeral (a forwarded id) is refused
    await fake.click(other, mine, components(mine)[0]["label"])
    assert sight.content(fake.ephemerals(other)[-1]).startswith("It is not your turn")


async def test_restart_mid_game_keeps_hands_and_buttons(fake, runner):
    await start(fake, (ANA, BO))
    seen = set()
    for _ in range(5):
        await move(fake, seen)
    before = snapshot(board(fake))
    await runner.restart()
    await move(fake, seen)
    assert board(fake)["id"] == before["id"] and board(fake) != before
    assert not fake.rejections


async def test_a_corner_with_a_single_shape_offers_that_shape_at_once(fake, runner):
    """Shapes come grouped by their first corner; a corner that starts one shape is no group to open (no
    "E6 · 1 shape" followed by a lone choice and Back): its button is the shape itself."""
    from tests.bot.test_play_feel import clearing_state

    await start(fake, (ANA, BO))
    engine, s = clearing_state()
    table = await runner.bot.service.in_channel(CHANNEL)
    table.state = s
    await runner.bot.store.execute("UPDATE tables SET state = ? WHERE id = ?", engine.encode(s), table.id)
    await fake.slash(ANA, CHANNEL, "game", "status")
    shapes = {a.key: a.label for a in engine.legal_actions(s, 0)}
    b = board(fake)
    labels = [c["label"] for c in components(b) if c["type"] == 2 and c["label"] not in ("My hand", "Rules")]
    assert any(" · " in label for label in labels)  # corners with several shapes: a group each
    assert not any(label.endswith(" · 1 shape") for label in labels)
    lone = [label for label in labels if " · " not in label]
    assert lone and set(lone) <= set(shapes.values())  # e.g. "Line E6-...": one click clears it
    await fake.click(table.players[0]["id"], b, lone[0])
    assert f"clears a {lone[0].split(':')[0]}" in sight.description(board(fake))
    assert not fake.rejections
