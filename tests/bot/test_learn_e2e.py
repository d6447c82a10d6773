"""/learn through the loopback Discord (issue 19 item 3): a private guided game against the computer, one
ephemeral message edited step by step, with the coach's suggestion; leaving, restarting, stale and forged
clicks; nothing in the channel."""

from __future__ import annotations

import io

from PIL import Image

from tests.bot.conftest import ANA, BO, CHANNEL

SUGGESTED = "✓ "


def lesson_message(fake, user=ANA) -> dict:
    return fake.ephemerals(user)[-1]


def last_ephemeral(fake, user) -> str:
    return fake.ephemerals(user)[-1]["content"]


async def follow(fake, user=ANA, steps: int = 400) -> dict:
    """Clicks the suggested move until the lesson ends; the final message."""
    for _ in range(steps):
        message = lesson_message(fake, user)
        if "Well played" in message["content"]:
            return message
        await fake.click(user, message, SUGGESTED)
    raise AssertionError("the lesson did not end")


async def test_a_lesson_is_private_explains_each_step_and_plays_to_the_end(fake, runner):
    await fake.slash(ANA, CHANNEL, "learn", game="geek_out")
    message = lesson_message(fake)
    text = message["content"]
    assert text.startswith("**Lesson: Geek Out! Masters**"), text
    assert "**Your choice:**" in text and "**Suggested:**" in text
    labels = [c.get("label") for r in message["components"] for c in r["components"]]
    assert labels[0].startswith(SUGGESTED) and "Leave lesson" in labels
    [board] = [a for a in message["attachments"] if a["filename"].endswith(".png")]
    image = Image.open(io.BytesIO(fake.files[int(board["id"])]))
    assert image.width >= 400
    final = await follow(fake)
    assert "Play for real with `/play`" in final["content"], final["content"]
    assert [c["label"] for r in final["components"] for c in r["components"]] == ["Again", "Close"]
    assert fake.messages_in(CHANNEL) == []  # nothing public
    assert not fake.rejections


async def test_every_game_has_lessons_that_follow_the_coach(fake, runner):
    for game in ("geoneo", "geodeto", "geomancy"):
        await fake.slash(ANA, CHANNEL, "learn", game=game)
        for _ in range(6):
            await fake.click(ANA, lesson_message(fake), SUGGESTED)
        text = lesson_message(fake)["content"]
        assert "**Suggested:**" in text or "Well played" in text, text
    assert not fake.rejections


async def test_globe_twister_lessons_are_its_solo_levels_in_order(fake, runner):
    await fake.slash(ANA, CHANNEL, "learn", game="globe_twister")
    assert "level 1 of 4" in lesson_message(fake)["content"]
    final = await follow(fake)
    await fake.click(ANA, final, "Next level")
    assert "level 2 of 4" in lesson_message(fake)["content"]
    assert fake.messages_in(CHANNEL) == []


async def test_leaving_stale_and_foreign_clicks_and_a_restart(fake, runner):
    await fake.slash(ANA, CHANNEL, "learn", game="geek_out")
    first = dict(lesson_message(fake))
    await fake.click(ANA, first, SUGGESTED)
    after = lesson_message(fake)
    assert after["content"] != first["content"] or after["attachments"] != first["attachments"]
    # the first step's message as an old screen showed it: refused, nothing changes
    before = await runner.bot.store.lesson(int(first["components"][0]["components"][0]["custom_id"].split(":")[1]))
    await fake.click(ANA, first, SUGGESTED)
    assert last_ephemeral(fake, ANA) == "That is an older step of your lesson: use its latest message."
    assert (await runner.bot.store.lesson(before.id)).version == before.version
    # someone else's click (a forged copy) and a malformed id
    custom_id = fake.find_component(after, label=SUGGESTED)["custom_id"]
    await fake.click_forged(BO, after, custom_id)
    assert last_ephemeral(fake, BO) == "This lesson is someone else's: start your own with `/learn`."
    await fake.click_forged(ANA, after, "gl:nonsense")
    assert last_ephemeral(fake, ANA) == "This button isn't one of your lesson's: start a lesson with `/learn`."
    assert (await runner.bot.store.lesson(before.id)).version == before.version
    # a restart keeps the lesson and its buttons
    await runner.restart()
    lesson_id = int(after["id"])
    await fake.click(ANA, fake.messages[lesson_id], SUGGESTED)
    assert (await runner.bot.store.lesson(before.id)).version > before.version
    # leaving at any point
    await fake.click(ANA, fake.messages[lesson_id], "Leave lesson")
    assert fake.messages[lesson_id]["content"].startswith("You left the lesson.")
    assert fake.messages[lesson_id]["components"] == [] and fake.messages[lesson_id]["attachments"] == []
    assert await runner.bot.store.lesson(before.id) is None
    assert fake.messages_in(CHANNEL) == []
    assert not fake.rejections


async def test_a_lesson_speaks_the_learner_s_language(fake, runner):
    """A German member's lesson in German and a Spanish member's in Spanish: the texts, the buttons and the
    board (drawn in their language), whatever the server's language."""
    fake.locales[ANA] = "de"
    fake.locales[BO] = "es-ES"
    await fake.slash(ANA, CHANNEL, "learn", game="geoneo")
    text = lesson_message(fake, ANA)["content"]
    assert text.startswith("**Lektion: GEONEO**") and "**Deine Wahl:**" in text and "**Warum:**" in text, text
    labels = [c.get("label") for r in lesson_message(fake, ANA)["components"] for c in r["components"]]
    assert "Lektion verlassen" in labels
    await fake.slash(BO, CHANNEL, "learn", game="geek_out")
    text = lesson_message(fake, BO)["content"]
    assert text.startswith("**Lección: Geek Out! Masters**") and "**Tu decisión:**" in text, text
    await fake.click(BO, lesson_message(fake, BO), "Dejar la lección")
    assert lesson_message(fake, BO)["content"].startswith("Has dejado la lección.")
    assert fake.messages_in(CHANNEL) == []
