"""Seasons as moderators and members meet them, through the loopback Discord: bad input to /mod season (one
sentence each, nothing changed), /halloffame with a season that ended without rated games, and /privacy delete
after a season (the podium keeps "Former player", the season's ladder drops the member), /help naming the season
ladder and the hall of fame (where a newcomer finds them), two moderators starting or ending at once; German and
Spanish."""

from __future__ import annotations

import pytest

from playground.fake_discord import SEND_MESSAGES
from playground.fake_errors import DiscordError
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, MOD
from tests.bot.harness import BotRunner
from tests.bot.test_geek_out_e2e import start_game
from tests.bot.test_records_e2e import play_to_the_end, reply


def latest(fake, user=MOD) -> str:
    return sight.content(fake.ephemerals(user)[-1])


async def seasons(runner, fake) -> list[tuple]:
    """What the store holds of the server's seasons (to see that bad input changed nothing)."""
    return [(s.name, s.ends_at, s.ended_at, s.games) for s in await runner.bot.store.seasons(fake.guild_id)]


async def test_bad_input_to_mod_season_is_one_sentence_and_changes_nothing(fake, runner):
    await fake.slash(ANA, CHANNEL, "mod", "season", "start", name="Spring", weeks=2)
    assert latest(fake, ANA) == "You need the Manage Server permission to do that."
    await fake.slash(MOD, CHANNEL, "mod", "season", "end")
    assert latest(fake) == "No season is running here: `/mod season start` starts one."
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="   ", weeks=2)
    assert latest(fake) == "A season needs a name."
    # Discord's client refuses more than 40 characters; a client that sent them gets a sentence
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="S" * 41, weeks=2)
    assert latest(fake) == "A season's name has at most 40 characters: choose a shorter one."
    for weeks in (0, 53, 10**9):  # Discord's client sends only 1 to 52
        with pytest.raises(DiscordError):
            await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="Spring", weeks=weeks)
    assert await seasons(runner, fake) == []
    it = await fake.slash(BO, CHANNEL, "halloffame")
    assert sight.content(reply(fake, it)) == "No season has ended here yet: `/mod season start` starts one."

    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="  Spring   2027 ", weeks=2)
    assert latest(fake).startswith("Season **Spring 2027** has started"), latest(fake)
    before = await seasons(runner, fake)
    await fake.slash(ANA, CHANNEL, "mod", "season", "end")
    assert latest(fake, ANA) == "You need the Manage Server permission to do that."
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="Summer", weeks=2)
    assert latest(fake).startswith("Season **Spring 2027** is still running (until <t:"), latest(fake)
    assert await seasons(runner, fake) == before
    # a member types the name as they remember it: spaces and letter case aside
    it = await fake.slash(BO, CHANNEL, "leaderboard", game="geek_out", season=" spring  2027")
    assert sight.content(reply(fake, it)) == "Nobody is rated in Geek Out! Masters in season Spring 2027 yet."
    await fake.slash(MOD, CHANNEL, "mod", "season", "end")
    await fake.slash(MOD, CHANNEL, "mod", "season", "end")
    assert latest(fake) == "No season is running here: `/mod season start` starts one."
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="SPRING 2027", weeks=2)
    assert latest(fake) == "This server already had a season called **SPRING 2027**: choose another name."
    assert [s[0] for s in await seasons(runner, fake)] == ["Spring 2027"]
    # the same in German and Spanish
    fake.locales[MOD] = "de"
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="S" * 41, weeks=2)
    assert latest(fake) == "Der Name einer Saison darf höchstens 40 Zeichen lang sein: wähl einen kürzeren."
    fake.locales[MOD] = "es-ES"
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="S" * 41, weeks=2)
    assert latest(fake) == ("El nombre de una temporada puede tener como máximo 40 caracteres: elige uno más "
                            "corto.")
    assert [s[0] for s in await seasons(runner, fake)] == ["Spring 2027"]
    assert not fake.rejections


async def test_a_hall_of_fame_channel_the_bot_may_not_post_in_is_refused_in_one_sentence(fake, database):
    fake.channels[602]["permission_overwrites"] = [
        {"id": str(fake.guild_id), "type": 0, "allow": "0", "deny": str(SEND_MESSAGES)}]
    runner = BotRunner(fake, database)  # (started after the change: the loopback sends no channel update)
    await runner.start()
    try:
        await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="Spring", weeks=2, channel=602)
        assert latest(fake) == "I can't post in <#602>: choose a channel where I may send messages."
        assert await seasons(runner, fake) == []
        fake.locales[MOD] = "es-ES"
        await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="Spring", weeks=2, channel=602)
        assert latest(fake) == "No puedo publicar en <#602>: elige un canal donde pueda enviar mensajes."
        assert await seasons(runner, fake) == []
    finally:
        await runner.stop()


async def test_the_hall_of_fame_lists_a_season_that_ended_without_rated_games(fake, runner):
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="Quiet", weeks=1)
    it = await fake.slash(BO, CHANNEL, "halloffame")  # before any end: the running season, not /mod's command
    assert sight.content(reply(fake, it)).startswith("No season has ended here yet: the first, **Quiet**, runs until "
                                                     "<t:"), reply(fake, it)
    await fake.slash(MOD, CHANNEL, "mod", "season", "end")
    it = await fake.slash(BO, CHANNEL, "halloffame")
    hall = reply(fake, it)
    assert sight.title(hall) == "Hall of fame", hall
    text = sight.content(hall)
    assert "Season **Quiet** (<t:" in text and "ended by a moderator; 0 rated games)" in text, text
    assert "No rated game was played in this season." in text, text
    it = await fake.slash(BO, CHANNEL, "halloffame", game="geek_out")
    assert sight.content(reply(fake, it)) == "No season has ended here with rated games of Geek Out! Masters yet."
    # a second season with a game: both listed, the newest first
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="Busy", weeks=1)
    await start_game(fake)
    await play_to_the_end(fake, {"Ana": ANA, "Bo": BO})
    await fake.slash(MOD, CHANNEL, "mod", "season", "end")
    await fake.set_guild_locale("es-ES")
    it = await fake.slash(BO, CHANNEL, "halloffame")
    text = sight.content(reply(fake, it))
    assert text.index("Temporada **Busy**") < text.index("**Geek Out! Masters**: 🥇 ") < text.index(
        "Temporada **Quiet**") < text.index("En esta temporada no se jugó ninguna partida puntuada."), text
    assert not fake.rejections


async def test_privacy_delete_after_a_season_leaves_former_player_on_its_podium(fake, runner):
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="Spring", weeks=1)
    await start_game(fake)
    await play_to_the_end(fake, {"Ana": ANA, "Bo": BO})
    await fake.slash(MOD, CHANNEL, "mod", "season", "end")
    fake.locales[ANA] = "de"
    await fake.slash(ANA, CHANNEL, "privacy", "delete")
    await fake.click(ANA, fake.ephemerals(ANA)[-1], "Ja, meine Daten löschen")
    said = latest(fake, ANA)
    assert ("Deine Saisonwertung in 1 Spiel ist ebenfalls gelöscht, und deine Plätze in der Ruhmeshalle lauten "
            "jetzt „Former player“.") in said, said
    it = await fake.slash(BO, CHANNEL, "halloffame")
    podium = sight.content(reply(fake, it))
    assert "Former player" in podium and "Bo" in podium and "Ana" not in podium, podium
    it = await fake.slash(BO, CHANNEL, "leaderboard", game="geek_out", season="Spring")
    board = reply(fake, it)
    assert sight.description(board).startswith("1 player was rated in this game in season Spring"), board
    assert "Ana" not in " ".join(sight.image_words(board))
    await fake.slash(ANA, CHANNEL, "privacy", "show")
    report = latest(fake, ANA)
    assert "**Saisonwertungen hier:** keine." in report and "**Plätze in der Ruhmeshalle hier:** keine." in report, \
        report
    assert not fake.rejections


async def test_help_names_the_season_ladder_and_the_hall_of_fame_in_the_members_language(fake, runner):
    await fake.slash(ANA, CHANNEL, "help")
    assert ("`/leaderboard` shows a game's best players here (with `season:`, a season's own ladder), `/halloffame` "
            "the podiums of past seasons.") in latest(fake, ANA), latest(fake, ANA)
    fake.locales[BO] = "de"
    await fake.slash(BO, CHANNEL, "help")
    assert "(mit `saison:` die eigene Bestenliste einer Saison), `/ruhmeshalle` die Siegerpodeste" in latest(fake, BO)
    fake.locales[BO] = "es-ES"
    await fake.slash(BO, CHANNEL, "help")
    assert "(con `temporada:`, la clasificación propia de una temporada) y `/salón-de-la-fama`, los podios" in \
        latest(fake, BO), latest(fake, BO)


async def test_two_moderators_at_once_start_one_season_and_end_it_once(fake, runner):
    mia = 198
    fake.add_user(mia, "Mia", moderator=True)
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="Spring", weeks=1, settle=False)
    await fake.slash(mia, CHANNEL, "mod", "season", "start", name="Summer", weeks=1, settle=False)
    await fake.settle()
    [(name, *_rest)] = await seasons(runner, fake)
    said = sorted([latest(fake), latest(fake, mia)], key=lambda line: "still running" in line)
    assert said[0].startswith(f"Season **{name}** has started") and said[1].startswith(
        f"Season **{name}** is still running (until <t:"), said
    await fake.slash(MOD, CHANNEL, "mod", "season", "end", settle=False)
    await fake.slash(mia, CHANNEL, "mod", "season", "end", settle=False)
    await fake.settle()
    said = sorted([latest(fake), latest(fake, mia)])
    assert said[0] == "No season is running here: `/mod season start` starts one." or said[0].startswith(
        f"Season **{name}** has already ended"), said
    assert said[1] == f"Season **{name}** has ended: its hall of fame is posted in <#{CHANNEL}>.", said
    posts = [m for m in fake.messages_in(CHANNEL) if sight.title(m) == f"Season {name} is over: hall of fame"]
    assert len(posts) == 1
    assert not fake.rejections
