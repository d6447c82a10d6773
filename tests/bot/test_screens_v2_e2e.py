"""/help, /privacy, /history, /leaderboard, /stats and /replay are screens of the layout kit (issue 26, item 1):
each answers with a Components V2 message, in the house accent or its game's, its words in the member's or the
server's language, its images in a media gallery with a description in words. The loopback Discord refuses
what Discord refuses of V2 messages (content or embeds with the flag, over 40 components or 4,000 characters)."""

import pytest

from bot.store import short_id
from bot.ui import keys
from bot.ui.layout import HOUSE
from games import get_engine
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL
from tests.bot.harness import BotRunner
from tests.bot.test_privacy_e2e import play_to_the_end

GEEK_OUT = get_engine("geek_out").accent


@pytest.fixture
async def bot(fake, tmp_path):
    runner = BotRunner(fake, str(tmp_path / "geotable.db"))
    await runner.start()
    yield runner
    await runner.stop()


def screen_of(fake, it) -> dict:
    [message] = fake.replies_to(it)
    assert sight.is_v2(message) and not message.get("content") and not message.get("embeds"), message
    return message


async def test_each_command_answers_with_a_screen_of_the_kit(fake, bot):
    table = await play_to_the_end(fake)
    standings = sight.standings_of(fake, CHANNEL)  # Geek Out's points turn by turn under its standings
    assert sight.accent(standings) == GEEK_OUT
    assert sight.image_refs(standings) == [f"attachment://scores{table}.png"]
    assert sight.image_words(standings) == [f"The score sheet of table {table}."]

    shown = screen_of(fake, await fake.slash(ANA, CHANNEL, "help"))
    assert sight.accent(shown) == HOUSE and sight.title(shown) == "Geotable"
    assert sight.description(shown).startswith("Hello! I'm Geotable") and not shown["attachments"]

    shown = screen_of(fake, await fake.slash(ANA, CHANNEL, "privacy", "show"))
    assert sight.accent(shown) == HOUSE and sight.title(shown) == "What Geotable keeps about you in this server"
    [ask] = sight.components(shown)
    assert keys.decode(ask["custom_id"]) == keys.Privacy("ask", ANA)  # the button's id as before: old ones work
    await fake.click(ANA, shown, "Delete my data…")
    confirm = fake.ephemerals(ANA)[-1]
    assert sight.is_v2(confirm) and sight.accent(confirm) == HOUSE
    assert sight.content(confirm).startswith("Delete your data?")
    assert [keys.decode(c["custom_id"]) for c in sight.components(confirm)] == [keys.Privacy("delete", ANA),
                                                                                  keys.Privacy("keep", ANA)]
    await fake.click(ANA, confirm, "Keep it")
    kept = fake.messages[int(confirm["id"])]
    assert sight.is_v2(kept) and sight.content(kept) == "Nothing was deleted." and not sight.components(kept)

    shown = screen_of(fake, await fake.slash(BO, CHANNEL, "history"))
    assert fake.ephemeral_of[int(shown["id"])] == BO
    assert sight.accent(shown) == HOUSE and sight.title(shown) == "Finished games in this channel"
    assert f"`#{short_id(table)}`" in sight.description(shown) and sight.footer(shown) == "Newest first."

    shown = screen_of(fake, await fake.slash(ANA, CHANNEL, "leaderboard", game="geek_out"))
    assert shown in fake.messages_in(CHANNEL)
    assert sight.accent(shown) == GEEK_OUT and sight.title(shown) == "Geek Out! Masters: leaderboard"
    assert sight.image_refs(shown) == ["attachment://leaderboard.png"]
    [words] = sight.image_words(shown)
    assert words.startswith("Ranks and ratings: 1. ") and "Ana" in words and "Bo" in words, words

    shown = screen_of(fake, await fake.slash(BO, CHANNEL, "stats", member=ANA))
    assert sight.accent(shown) == HOUSE and sight.title(shown) == "Ana on this server"
    assert sight.description(shown).startswith("- **Geek Out! Masters**: rating **")
    assert sight.image_refs(shown) == ["attachment://stats.png"]
    [words] = sight.image_words(shown)
    assert words.startswith("Ana's rating over the latest rated games: Geek Out! Masters from "), words

    shown = screen_of(fake, await fake.slash(BO, CHANNEL, "replay", id=short_id(table)))
    assert sight.accent(shown) == GEEK_OUT
    assert sight.title(shown) == f"Replay of game #{short_id(table)}: Geek Out! Masters"
    assert sight.image_refs(shown) == [f"attachment://replay-{short_id(table)}.gif"]
    [words] = sight.image_words(shown)
    assert words == f"The public boards of game #{short_id(table)}, one frame a move, as an animation."
    assert not fake.rejections


async def test_the_screens_speak_the_members_and_the_servers_language(fake, bot):
    await play_to_the_end(fake)
    fake.locales[ANA] = "de"
    shown = screen_of(fake, await fake.slash(ANA, CHANNEL, "history"))
    assert sight.title(shown) == "Beendete Spiele in diesem Kanal" and sight.footer(shown) == "Neueste zuerst."
    shown = screen_of(fake, await fake.slash(ANA, CHANNEL, "privacy", "show"))
    assert sight.title(shown) == "Was Geotable auf diesem Server über dich speichert"
    assert sight.labels(shown) == ["Meine Daten löschen…"]

    fake.guild_locales[fake.guild_id] = "de"  # what the channel sees: the server's language
    shown = screen_of(fake, await fake.slash(BO, CHANNEL, "leaderboard", game="geek_out"))
    assert sight.title(shown) == "Geek Out! Masters: Bestenliste"
    assert sight.description(shown).startswith("2 Personen sind in diesem Spiel hier gewertet.")
    assert sight.image_words(shown)[0].startswith("Ränge und Wertungen: 1. ")
    shown = screen_of(fake, await fake.slash(BO, CHANNEL, "stats"))
    assert sight.title(shown) == "Bo auf diesem Server"
    assert not fake.rejections


async def test_a_confirmation_posted_as_a_classic_message_becomes_a_screen(fake, bot):
    """A /privacy confirmation posted before the screens (content and an action row, no V2 flag): its Keep it
    still works, and the message becomes the screen of the answer (its content cleared, as Discord asks)."""
    await fake.slash(BO, CHANNEL, "privacy", "delete")
    shown = fake.ephemerals(BO)[-1]
    classic = {**shown, "flags": shown["flags"] & ~sight.IS_COMPONENTS_V2, "content": sight.content(shown),
               "components": [{"type": sight.ACTION_ROW, "components": sight.components(shown)}]}
    fake.messages[int(shown["id"])] = classic
    await fake.click(BO, classic, "Keep it")
    kept = fake.messages[int(shown["id"])]
    assert sight.is_v2(kept) and not kept.get("content") and sight.content(kept) == "Nothing was deleted."
    assert sight.accent(kept) == HOUSE and not sight.components(kept)
    assert not fake.rejections
