"""/learn through the loopback Discord (issue 19 item 3): a private guided game against the computer, one
ephemeral message edited step by step, with the coach's suggestion; leaving, restarting, stale and forged
clicks; nothing in the channel."""

from __future__ import annotations

import io
import re

from PIL import Image

from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL

SUGGESTED = "✓ "


def lesson_message(fake, user=ANA) -> dict:
    return fake.ephemerals(user)[-1]


def last_ephemeral(fake, user) -> str:
    return sight.content(fake.ephemerals(user)[-1])


async def follow(fake, user=ANA, steps: int = 400) -> dict:
    """Clicks the suggested move until the lesson ends; the final message."""
    for _ in range(steps):
        message = lesson_message(fake, user)
        if "Well played" in sight.content(message):
            return message
        await fake.click(user, message, SUGGESTED)
    raise AssertionError("the lesson did not end")


async def test_a_lesson_is_private_explains_each_step_and_plays_to_the_end(fake, runner):
    await fake.slash(ANA, CHANNEL, "learn", game="geek_out")
    message = lesson_message(fake)
    text = sight.content(message)
    assert text.startswith("**Lesson: Geek Out! Masters**"), text
    assert "**Your choice:**" in text and "**Suggested:**" in text
    assert "**Goal:** Score the most points over your turns." in text  # a newcomer learns what the game is about
    labels = sight.labels(message)
    assert labels[0].startswith(SUGGESTED) and "Leave lesson" in labels
    [board] = [a for a in message["attachments"] if a["filename"].endswith(".png")]
    image = Image.open(io.BytesIO(fake.files[int(board["id"])]))
    assert image.width >= 400
    final = await follow(fake)
    assert "Play for real with `/play`" in sight.content(final), sight.content(final)
    # the end says who won, with the scores
    assert re.search(r"\*\*(You win|A draw|The computer wins)\*\*, \d+ to \d+\.", sight.content(final)), sight.content(final)
    assert sight.labels(final) == ["Again", "Close"]
    assert fake.messages_in(CHANNEL) == []  # nothing public
    assert not fake.rejections


async def test_every_game_has_lessons_that_follow_the_coach(fake, runner):
    for game in ("geoneo", "geodeto", "geomancy"):
        await fake.slash(ANA, CHANNEL, "learn", game=game)
        assert "**Goal:**" in sight.content(lesson_message(fake))
        for _ in range(6):
            await fake.click(ANA, lesson_message(fake), SUGGESTED)
        text = sight.content(lesson_message(fake))
        assert "**Suggested:**" in text or "Well played" in text, text
    assert not fake.rejections


async def test_globe_twister_lessons_are_its_solo_levels_in_order(fake, runner):
    await fake.slash(ANA, CHANNEL, "learn", game="globe_twister")
    assert "level 1 of 4" in sight.content(lesson_message(fake))
    assert "**Goal:** Rebuild the photo" in sight.content(lesson_message(fake))
    final = await follow(fake)
    await fake.click(ANA, final, "Next level")
    assert "level 2 of 4" in sight.content(lesson_message(fake))
    assert fake.messages_in(CHANNEL) == []


async def test_leaving_stale_and_foreign_clicks_and_a_restart(fake, runner):
    await fake.slash(ANA, CHANNEL, "learn", game="geek_out")
    first = dict(lesson_message(fake))
    await fake.click(ANA, first, SUGGESTED)
    after = lesson_message(fake)
    assert "**Goal:**" in sight.content(first) and "**Goal:**" not in sight.content(after)  # said once, at the start
    assert sight.content(after) != sight.content(first) or after["attachments"] != first["attachments"]
    # the first step's message as an old screen showed it: refused, nothing changes
    before = await runner.bot.store.lesson(int(sight.components(first)[0]["custom_id"].split(":")[1]))
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
    assert sight.content(fake.messages[lesson_id]).startswith("You left the lesson.")
    assert sight.components(fake.messages[lesson_id]) == [] and fake.messages[lesson_id]["attachments"] == []
    assert await runner.bot.store.lesson(before.id) is None
    assert fake.messages_in(CHANNEL) == []
    assert not fake.rejections


def test_a_long_computer_turn_is_shortened_at_a_sentence():
    from bot.cogs.learn import recent

    sentences = [f"Computer (normal)'s Heart brought in die number {n}." for n in range(40)]
    text = recent(" ".join(sentences))
    assert len(text) <= 700 and text.startswith("… Computer (normal)'s Heart")
    assert text.endswith(sentences[-1])
    assert recent("Short. Story.") == "Short. Story."


async def test_the_end_of_a_lesson_says_each_score_once(fake, runner):
    """Geomancy's last event already lists the scores: the score sheet below it does not repeat them."""
    await fake.slash(ANA, CHANNEL, "learn", game="geomancy")
    final = sight.content(await follow(fake))
    assert re.search(r"\*\*(You win|A draw|The computer wins)\*\*", final), final
    for line in final.splitlines():
        if line.startswith("Ana: "):
            assert final.count(line) == 1, final
    assert final.count("Ana: ") == 1, final


async def test_a_lesson_speaks_the_learner_s_language(fake, runner):
    """A German member's lesson in German and a Spanish member's in Spanish: the texts, the buttons and the
    board (drawn in their language), whatever the server's language."""
    fake.locales[ANA] = "de"
    fake.locales[BO] = "es-ES"
    await fake.slash(ANA, CHANNEL, "learn", game="geoneo")
    text = sight.content(lesson_message(fake, ANA))
    assert text.startswith("**Lektion: GEONEO**") and "**Deine Wahl:**" in text and "**Warum:**" in text, text
    labels = sight.labels(lesson_message(fake, ANA))
    assert "Lektion verlassen" in labels
    await fake.slash(BO, CHANNEL, "learn", game="geek_out")
    text = sight.content(lesson_message(fake, BO))
    assert text.startswith("**Lección: Geek Out! Masters**") and "**Tu decisión:**" in text, text
    await fake.click(BO, lesson_message(fake, BO), "Dejar la lección")
    assert sight.content(lesson_message(fake, BO)).startswith("Has dejado la lección.")
    assert fake.messages_in(CHANNEL) == []


def rows_of(message: dict) -> list[list[str]]:
    return [[c.get("label") or c.get("placeholder") for c in r] for r in sight.rows(message)]


async def test_geodeto_s_lesson_offers_the_game_s_controls_place_pyramid_destination(fake, runner, monkeypatch):
    """The table's two steps (a place, then its pyramids; Back), then the destination: not one button per
    pyramid. The suggested move has its row; Leave lesson is never beside it. Seed 0: about one lesson in 40
    (seed 88) has a place whose one move besides the suggestion is a button of its own, as at a table."""
    import types

    from bot.cogs import learn

    monkeypatch.setattr(learn, "random", types.SimpleNamespace(getrandbits=lambda bits: 0))
    await fake.slash(ANA, CHANNEL, "learn", game="geodeto")
    message = lesson_message(fake)
    rows = rows_of(message)
    assert len(rows[0]) == 1 and rows[0][0].startswith(SUGGESTED), rows
    assert rows[-1] == ["Leave lesson"], rows
    groups = [label for row in rows for label in row if re.fullmatch(r".+ · \d+ moves?", label)]
    assert len(groups) >= 3, rows
    assert not any(label.startswith("Move ") for row in rows[1:] for label in row), rows
    group = next(label for label in groups if not label.endswith(" 1 move"))
    await fake.click(ANA, message, group)
    picked = lesson_message(fake)
    assert sight.content(picked) == sight.content(message)  # the words stay; only the moves open
    rows = rows_of(picked)
    assert rows[-1] == ["Back", "Leave lesson"], rows
    pyramid = next(label for row in rows[1:-1] for label in row if label.startswith("Move "))
    await fake.click(ANA, picked, pyramid)
    text = sight.content(lesson_message(fake))
    assert "**Your choice:** Choose where the" in text, text
    await fake.click(ANA, lesson_message(fake), "Choose another move")  # the engine's own way back
    assert "**Your choice:** Your turn: move a pyramid" in sight.content(lesson_message(fake))
    assert not fake.rejections


async def test_a_weaker_move_than_suggested_is_said_at_the_next_step(fake, runner, monkeypatch):
    """Seed 12345: Geek Out's first choice suggests the Heart (20.7 points on average this turn); sending a
    Dragon away with the Spaceship is worth 18.7. Picking the Spaceship's die costs nothing yet (it can be put
    back); its target does. The line comes first, in the learner's language."""
    import types

    from bot.cogs import learn

    monkeypatch.setattr(learn, "random", types.SimpleNamespace(getrandbits=lambda bits: 12345))
    for user, words in ((ANA, "Your move (Spaceship: send a Dragon away) was worth 18.7 points on average this "
                                "turn; the suggestion (Heart: bring in a die) would have given 20.7."),
                        (BO, "Dein Zug (Raumschiff: einen Drachen wegschicken) war im Schnitt ")):
        if user == BO:
            fake.locales[BO] = "de"
        await fake.slash(user, CHANNEL, "learn", game="geek_out")
        first = lesson_message(fake, user)
        assert sight.components(first)[0]["custom_id"].endswith(":u4"), sight.components(first)
        await fake.click(user, first, custom_id=sight.components(first)[0]["custom_id"]
                         .rsplit(":", 1)[0] + ":u3")
        picked = sight.content(lesson_message(fake, user))
        assert "18.7" not in picked.split("\n")[1], picked  # no line for the die alone
        target = lesson_message(fake, user)
        await fake.click(user, target, custom_id=sight.components(target)[0]["custom_id"]
                         .rsplit(":", 1)[0] + ":t1")
        line = sight.content(lesson_message(fake, user)).split("\n")[1]
        assert line.startswith(words), line
    assert not fake.rejections
