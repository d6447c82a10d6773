"""Buttons posted before the custom_id grammar (bot/ui/keys.py, issue 25) still work after the upgrade, through
the real discord.py client and the loopback Discord: a lobby, a board, a private panel, a lesson, a rule page and
/privacy are posted, their components rewritten to the ids the code before the grammar wrote (``gt:``, ``gs:``,
``gl:``, ``gls:``, ``gr:``, ``gp:``, as bot/ui/components.py, bot/cogs/learn.py, rules.py and privacy.py wrote
them), the bot restarts, and clicks on them are played."""

from __future__ import annotations

from bot.ui import keys
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL
from tests.bot.test_geek_out_e2e import board, labels, lobby, to_act


def legacy(custom_id: str) -> str:
    """The id the code before the grammar wrote for the component the bot draws now as ``custom_id``."""
    match keys.decode(custom_id):
        case keys.Move(table, version, key, token):
            return f"gt:{table}:{version}:{key}" + (f"/{token}" if token else "")
        case keys.Utility(table, version, name, arg, token):
            return f"gt:{table}:{version}:{keys.utility_text(name, arg)}" + (f"/{token}" if token else "")
        case keys.Menu(table, version, name, token):
            return f"gs:{table}:{version}:{name}" + (f"/{token}" if token else "")
        case keys.LessonMove(lesson, version, key):
            return f"gl:{lesson}:{version}:{key}"
        case keys.LessonUtility(lesson, version, "pick", group):
            return f"gl:{lesson}:{version}:pick.{group}"
        case keys.LessonUtility(lesson, version, name):
            return f"gl:{lesson}:{version}:~{name}"
        case keys.LessonMenu(lesson, version, name):
            return f"gls:{lesson}:{version}:{name}"
        case keys.RulePage(game, page):
            return f"gr:{game}:{page}"
        case keys.Privacy(step, user):
            return f"gp:{step}:{user}"
    raise AssertionError(f"not an id the bot draws: {custom_id!r}")


def posted_before(fake, message: dict) -> dict:
    """``message`` as the code before the grammar posted it: every component's id (and a menu's values: a group
    was ``pick.<group>``) in the old form. The stored message is changed, as Discord keeps it."""
    stored = fake.messages[int(message["id"])]
    for component in sight.components(stored):
        assert component["custom_id"].startswith("g1"), component
        component["custom_id"] = legacy(component["custom_id"])
        for option in component.get("options", []):
            option["value"] = option["value"].removeprefix(keys.MARK)
    return stored


async def actions(runner, table_id: int) -> list:
    return await runner.bot.service.store.actions(table_id)


async def test_a_lobby_and_a_board_posted_before_the_upgrade_are_played_after_it(fake, runner):
    await fake.slash(ANA, CHANNEL, "play", "geek-out")
    lob = posted_before(fake, lobby(fake))
    assert sight.components(lob)[0]["custom_id"].startswith("gt:")
    await runner.restart()  # the upgrade
    await fake.click(BO, lob, "Join")
    table = await runner.bot.service.in_channel(CHANNEL)
    assert [p["id"] for p in table.players] == [ANA, BO]
    await fake.select(ANA, posted_before(fake, lobby(fake)), "computer.easy")  # the old menu, its old value
    table = await runner.bot.service.in_channel(CHANNEL)
    assert len(table.players) == 3 and table.players[2].get("computer") == "easy"
    lob = posted_before(fake, lobby(fake))
    await fake.click(ANA, lob, next(label for label in labels(lob) if (label or "").startswith("Remove")))
    assert len((await runner.bot.service.in_channel(CHANNEL)).players) == 2
    await fake.click(ANA, posted_before(fake, lobby(fake)), "Start")
    b = posted_before(fake, board(fake))
    await runner.restart()
    table = await runner.bot.service.in_channel(CHANNEL)
    before = await actions(runner, table.id)
    who = to_act(b)
    move = next(label for label in labels(b) if label != "Rules")
    await fake.click(who, b, move)
    played = await actions(runner, table.id)
    assert len(played) == len(before) + 1 and played[-1][0] == table.seat_of(who)
    assert all(keys.prefix_of(c["custom_id"]).startswith("g1") for c in sight.components(board(fake)))  # drawn anew in today's grammar
    assert not fake.rejections


async def test_geoneo_boards_and_panels_posted_before_the_upgrade_are_played_after_it(fake, runner):
    """Geoneo's board and a seat's own panel, whose moves carried the seat's token in the old ids too (a board's
    menu, when one comes, is chosen the old way; the lobby's menu is, in the test above)."""
    await fake.slash(ANA, CHANNEL, "play", "geoneo")
    await fake.click(BO, fake.messages_in(CHANNEL)[-1], "Join")
    await fake.click(ANA, fake.messages_in(CHANNEL)[-1], "Start")
    table = await runner.bot.service.in_channel(CHANNEL)
    names = {p["name"]: p["id"] for p in table.players}
    used = set()
    await runner.restart()
    for _ in range(40):
        b = posted_before(fake, [m for m in fake.messages_in(CHANNEL) if sight.is_board(m)][-1])
        who = names[sight.description(b).split("To act: **")[1].split("**")[0]]
        before = len(await actions(runner, table.id))
        comps = sight.components(b)
        selects = [c for c in comps if c["type"] == 3]
        public = [c for c in comps if c["type"] == 2 and c["label"] not in ("My hand", "Rules")]
        if selects:
            value = selects[0]["options"][0]["value"]
            kind = "group menu" if value.startswith("pick.") else "move menu"
            await fake.select(who, b, value)
        elif public:
            kind = "group" if public[0]["custom_id"].split(":", 3)[3].startswith("pick.") else "button"
            await fake.click(who, b, public[0]["label"])
        else:
            await fake.click(who, b, "My hand")
            panel = posted_before(fake, fake.ephemerals(who)[-1])
            first = sight.components(panel)[0]
            assert first["custom_id"].startswith("gt:") and "/" in first["custom_id"]  # the seat's token
            kind = "panel group" if first["custom_id"].split(":", 3)[3].startswith("pick.") else "panel"
            await fake.click(who, panel, first["label"])
        used.add(kind)
        if "group" not in kind:
            assert len(await actions(runner, table.id)) > before, kind  # the move was played
        if {"button", "panel"} <= used:
            break
    assert {"button", "panel"} <= used, used
    assert len(await actions(runner, table.id)) >= 2
    assert not fake.rejections


async def test_a_lesson_a_rule_page_and_privacy_posted_before_the_upgrade_work_after_it(fake, runner):
    await fake.slash(ANA, CHANNEL, "learn", game="geek_out")
    lesson = posted_before(fake, fake.ephemerals(ANA)[-1])
    lesson_id = int(sight.components(lesson)[0]["custom_id"].split(":")[1])
    version = (await runner.bot.store.lesson(lesson_id)).version
    await fake.slash(ANA, CHANNEL, "rules", game="geoneo")
    page = posted_before(fake, fake.ephemerals(ANA)[-1])
    await fake.slash(BO, CHANNEL, "privacy", "show")
    mine = posted_before(fake, fake.ephemerals(BO)[-1])
    await runner.restart()

    await fake.click(ANA, lesson, next(label for label in labels(lesson) if label.startswith("✓ ")))
    assert (await runner.bot.store.lesson(lesson_id)).version > version
    await fake.click(ANA, page, "Next")
    assert sight.footer(fake.messages[int(page["id"])]).startswith("Page 2 of")
    await fake.click(BO, mine, "Delete my data…")
    assert "Yes, delete my data" in labels(fake.ephemerals(BO)[-1]) + labels(fake.messages[int(mine["id"])])
    lesson = posted_before(fake, fake.messages[int(lesson["id"])])
    await fake.click(ANA, lesson, "Leave lesson")
    assert sight.content(fake.messages[int(lesson["id"])]).startswith("You left the lesson")
    assert await runner.bot.store.lesson(lesson_id) is None
    assert not fake.rejections


async def test_each_forged_id_gets_one_short_sentence_and_changes_nothing(fake, runner):
    """Forged and malformed ids of every family, on a copy of a message (as a forged click carries them), and
    ids that read as nothing though a template takes them (an old lesson's unknown ``~`` key): one ephemeral
    sentence each, never two answers, and the table is unchanged."""
    await fake.slash(ANA, CHANNEL, "play", "geek-out")
    await fake.click(BO, lobby(fake), "Join")
    await fake.click(ANA, lobby(fake), "Start")
    table = await runner.bot.service.in_channel(CHANNEL)
    b = board(fake)
    forged = [f"g1u:{table.id}:{table.version}:nonsense", f"g1m:{table.id}:{table.version}:a b", "g1m:1:1:",
              "gl:1:1:~bogus", "g1k:1:1:sideways", "g1r:chess:0", "g1r:geoneo", "g1p:erase:1", "gp:delete:x",
              "g2m:1:1:c3", f"g1m:{table.id}:{table.version}:" + "z" * 61]
    for custom_id in forged:
        count = len(fake.ephemerals(ANA))
        await fake.click_forged(ANA, b, custom_id)
        said = fake.ephemerals(ANA)[count:]
        assert len(said) == 1 and len(sight.content(said[0])) < 120, (custom_id, said)
    assert (await runner.bot.service.in_channel(CHANNEL)).version == table.version
    assert not fake.rejections


async def test_an_id_a_template_takes_but_that_reads_as_nothing_is_answered_once(fake, runner):
    """On the message itself (not a forged copy), so discord.py runs its DynamicItem: ``on_interaction`` must
    leave it to the item, even though it reads as nothing (an old lesson's unknown ``~`` key)."""
    await fake.slash(ANA, CHANNEL, "learn", game="geek_out")
    lesson = fake.messages[int(fake.ephemerals(ANA)[-1]["id"])]
    what = keys.decode(sight.components(lesson)[0]["custom_id"])
    sight.components(lesson)[0]["custom_id"] = f"gl:{what.lesson}:{what.version}:~bogus"
    count = len(fake.ephemerals(ANA))
    await fake.click(ANA, lesson, custom_id=f"gl:{what.lesson}:{what.version}:~bogus")
    said = [sight.content(m) for m in fake.ephemerals(ANA)[count:]]
    assert said == ["This button isn't one of your lesson's: start a lesson with `/learn`."], said
    assert (await runner.bot.store.lesson(what.lesson)).version == what.version


def as_classic(fake, message: dict) -> dict:
    """``message`` as the bot posted boards before Components V2 (issue 26): an embed with the board image and
    the words, its buttons in top-level action rows, today's ids. The stored message is changed, as Discord
    keeps it."""
    stored = fake.messages[int(message["id"])]
    rows = [[dict(c) for c in r] for r in sight.rows(stored)]
    stored.update(flags=0, content="", components=[{"type": 1, "components": r} for r in rows], embeds=[{
        "title": sight.title(stored), "description": sight.description(stored), "color": 5682409,
        "image": {"url": f"attachment://{sight.image_name(stored)}"}}])
    return stored


async def test_a_classic_board_posted_before_v2_answers_its_buttons_and_becomes_a_v2_board(fake, runner):
    lob = await start_geek_out(fake)
    old = as_classic(fake, board(fake))
    assert not sight.is_v2(old) and old["embeds"] and sight.to_act_id(old) in (ANA, BO)
    await runner.restart()  # the upgrade
    before = sight.version_of(old)
    move = next(c for c in sight.components(old) if sight.key_of(c) not in ("rules", "hand"))
    await fake.click(sight.to_act_id(old), old, custom_id=move["custom_id"])
    now = fake.messages[int(old["id"])]
    assert board(fake)["id"] == old["id"], "the same message, edited"
    assert sight.is_v2(now) and now["content"] == "" and now["embeds"] == [], "converted: no embed beside the flag"
    assert max(sight.version_of(now)) > max(before) and sight.image_refs(now) == [
        f"attachment://{sight.image_name(now)}"] and len(now["attachments"]) == 1
    assert not fake.rejections and lob


async def start_geek_out(fake) -> dict:
    await fake.slash(ANA, CHANNEL, "play", "geek-out")
    lob = lobby(fake)
    await fake.click(BO, lob, "Join")
    await fake.click(ANA, lob, "Start")
    return lob
