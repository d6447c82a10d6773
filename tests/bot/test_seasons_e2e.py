"""Seasons through the loopback Discord with the real discord.py client (issue 28 item 2): /mod season start, rated
games, /leaderboard season: (its own ladder, from a fresh start), the season ending by its time with a moved clock
and by /mod season end, the hall of fame posted once (a restart, a post claimed by a process killed mid-post) and
shown by /halloffame; German and Spanish."""

from __future__ import annotations

import time

import pytest

from bot.database import open_store
from render.records import render_leaderboard
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, MOD
from tests.bot.test_geek_out_e2e import start_game
from tests.bot.test_records_e2e import image_of, play_to_the_end, reply
from tests.bot.test_seasons_store import recomputed, season_rows

WEEK = 7 * 86400
HALL = 601


def latest(fake, user=MOD) -> str:
    return sight.content(fake.ephemerals(user)[-1])


def halls(fake, channel=CHANNEL) -> list[dict]:
    """The season ends' posts (not /halloffame's answers)."""
    return [m for m in fake.messages_in(channel) if (sight.title(m) or "").startswith(("Season ", "Die Saison "))]


def set_clock(runner, later: float) -> None:
    runner.bot.service.clock = lambda: time.time() + later
    runner.bot.get_cog("Seasons").wake()


async def a_pass(fake, runner) -> None:
    """One whole pass of the season loop, after now."""
    cog = runner.bot.get_cog("Seasons")
    cog.passes.clear()
    cog.wake()
    await fake.wait_until(lambda: cog.passes.is_set(), 30, what="a pass of the season loop")


async def test_a_season_from_start_to_its_hall_of_fame_by_its_time_and_by_a_moderator(fake, runner):
    store = runner.bot.store
    await fake.slash(MOD, CHANNEL, "mod", "season", "show")
    assert latest(fake) == "No season is running here: `/mod season start` starts one."
    await fake.slash(MOD, CHANNEL, "mod", "season", "end")
    assert latest(fake) == "No season is running here: `/mod season start` starts one."
    # a game before the season: all-time only
    await start_game(fake)
    await play_to_the_end(fake, {"Ana": ANA, "Bo": BO})
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="Spring", weeks=2, channel=HALL)
    said = latest(fake)
    assert said.startswith("Season **Spring** has started: every rated game counts for its own ladder, from a "
                           "fresh start, until <t:") and f"posted in <#{HALL}>." in said, said
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="Summer", weeks=1)
    assert latest(fake).startswith("Season **Spring** is still running (until <t:")
    assert [s.name for s in await store.seasons(fake.guild_id)] == ["Spring"]  # nothing changed
    await fake.slash(MOD, CHANNEL, "mod", "season", "show")
    assert latest(fake).startswith("Season **Spring** runs until <t:") and "0 rated games so far" in latest(fake)
    # the season's games: its ladder starts afresh, the all-time one goes on
    it = await fake.slash(ANA, CHANNEL, "leaderboard", game="geek_out", season="spring")
    assert sight.content(reply(fake, it)) == "Nobody is rated in Geek Out! Masters in season Spring yet."
    for _ in range(2):
        await start_game(fake)
        await play_to_the_end(fake, {"Ana": ANA, "Bo": BO})
    spring = await store.season_named(fake.guild_id, "Spring")
    assert spring.games == 2 and len(await store.season_games(spring.id)) == 2
    stored = await season_rows(store, spring.id)  # OpenSkill from a fresh start over the season's two games
    for key, (mu, sigma, n) in recomputed(await store.season_games(spring.id)).items():
        assert stored[key] == (pytest.approx(mu), pytest.approx(sigma), n)
    assert [c["name"] for c in await fake.autocomplete(ANA, CHANNEL, "leaderboard", focused="season", game="geek_out",
                                                       season="spr")] == ["Spring (running)"]
    it = await fake.slash(BO, CHANNEL, "stats", member=ANA)  # /stats names the running season's rating
    assert "Season **Spring**: Geek Out! Masters " in sight.content(reply(fake, it)) and "(2 rated)." in sight.content(
        reply(fake, it)), sight.content(reply(fake, it))
    it = await fake.slash(ANA, CHANNEL, "leaderboard", game="geek_out", season="Spring")
    message = reply(fake, it)
    assert message in fake.messages_in(CHANNEL)
    assert sight.title(message) == "Geek Out! Masters: leaderboard of season Spring", message
    assert sight.description(message).startswith("2 players are rated in this game in season Spring, which runs "
                                                 "until <t:"), message
    board = await store.season_board(spring.id, "geek_out", 10, ANA)
    assert [r.games for r in board.rows] == [2, 2]
    rows = [{"rank": r.rank, "user_id": r.user_id, "name": r.name, "rating": r.rating, "games": r.games,
             "wins": r.wins} for r in board.rows]
    own = next(r for r in rows if r["user_id"] == ANA)
    assert image_of(fake, message) == render_leaderboard("Geek Out! Masters · Spring", rows, own, 2, ANA)
    alltime = await store.leaderboard(fake.guild_id, "geek_out", 10, ANA)
    assert [r.games for r in alltime.rows] == [3, 3]
    it = await fake.slash(ANA, CHANNEL, "leaderboard", game="geek_out", season="Winter")
    assert latest(fake, ANA).startswith("This server has no season called **Winter**")

    # its end time passes (the clock moved 15 days): ended at its time, the hall of fame posted once
    it = await fake.slash(ANA, CHANNEL, "halloffame")
    assert sight.content(reply(fake, it)) == ("No season has ended here yet: the first, **Spring**, runs until "
                                              f"<t:{int(spring.ends_at)}:f>.")
    set_clock(runner, 15 * 86400)
    await fake.wait_until(lambda: halls(fake, HALL), 30, what="the hall of fame")
    await a_pass(fake, runner)
    [posted] = halls(fake, HALL)
    assert sight.is_v2(posted) and sight.title(posted) == "Season Spring is over: hall of fame"
    text = sight.content(posted)
    assert "Season **Spring** (<t:" in text and "; 2 rated games)" in text, text
    assert "**Geek Out! Masters**: 🥇 " in text and "🥈 " in text or text.count("🥇") == 2, text
    ended = await store.season_named(fake.guild_id, "Spring")
    assert ended.ended_at == spring.ends_at and not ended.ended_early and ended.message_id == int(posted["id"])
    await runner.restart(later=15 * 86400)  # a restart posts nothing again
    store = runner.bot.store
    await a_pass(fake, runner)
    assert len(halls(fake, HALL)) == 1
    # a game now is no longer the season's
    await start_game(fake)
    await play_to_the_end(fake, {"Ana": ANA, "Bo": BO})
    assert (await store.season_named(fake.guild_id, "Spring")).games == 2

    # a second season, ended by a moderator: posted where it was started
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="SPRING", weeks=4)
    assert latest(fake) == "This server already had a season called **SPRING**: choose another name."
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="Summer", weeks=4)
    await start_game(fake)
    await play_to_the_end(fake, {"Ana": ANA, "Bo": BO})
    await fake.slash(MOD, CHANNEL, "mod", "season", "end")
    assert latest(fake) == f"Season **Summer** has ended: its hall of fame is posted in <#{CHANNEL}>."
    [summer_post] = halls(fake, CHANNEL)
    assert "ended by a moderator; 1 rated game)" in sight.content(summer_post)
    await a_pass(fake, runner)
    assert len(halls(fake, CHANNEL)) == 1 and len(halls(fake, HALL)) == 1
    await fake.slash(MOD, CHANNEL, "mod", "season", "end")
    assert latest(fake) == "No season is running here: `/mod season start` starts one."
    # /halloffame: newest season first, in the channel; game: only that game
    it = await fake.slash(BO, CHANNEL, "halloffame")
    hall = reply(fake, it)
    assert hall in fake.messages_in(CHANNEL) and sight.title(hall) == "Hall of fame"
    text = sight.content(hall)
    assert text.index("Season **Summer**") < text.index("Season **Spring**"), text
    it = await fake.slash(BO, CHANNEL, "halloffame", game="geodeto")
    assert sight.content(reply(fake, it)) == "No season has ended here with rated games of Geodeto yet."
    it = await fake.slash(BO, CHANNEL, "halloffame", game="geek_out")
    assert sight.title(reply(fake, it)) == "Hall of fame: Geek Out! Masters"
    # /privacy show lists Ana's season ratings and places; /privacy delete leaves "Former player" on the podium
    await fake.slash(ANA, CHANNEL, "privacy", "show")
    report = latest(fake, ANA)
    assert "**Season ratings here:** Summer, Geek Out! Masters: rating " in report, report
    assert "**Hall of fame places here:** Summer, Geek Out! Masters: place " in report, report
    assert not fake.rejections


async def test_a_post_claimed_by_a_process_killed_mid_post_is_posted_once_after_a_restart(fake, runner, database):
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="Spring", weeks=1)
    await runner.stop()
    other = await open_store(database)  # the process that ended it and died before its post
    try:
        season = await other.current_season(fake.guild_id)
        assert await other.end_season(season.id, time.time(), early=True)
        assert await other.claim_season_post(season.id, time.time())
    finally:
        await other.close()
    await runner.start()
    await a_pass(fake, runner)
    assert halls(fake) == []  # claimed a moment ago: that process may still post it
    await runner.restart(later=121)  # past POST_STALE (45 s) the claim is stale: posted, once
    await fake.wait_until(lambda: halls(fake), 30, what="the hall of fame")
    await a_pass(fake, runner)
    assert len(halls(fake)) == 1
    assert "No rated game was played in this season." in sight.content(halls(fake)[0])


async def test_german_and_spanish(fake, runner):
    fake.locales[MOD] = "de"
    fake.locales[ANA] = "es-ES"
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="Frühling", weeks=1)
    assert latest(fake).startswith("Die Saison **Frühling** hat begonnen"), latest(fake)
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="Sommer", weeks=1)
    assert latest(fake).startswith("Die Saison **Frühling** läuft noch"), latest(fake)
    await start_game(fake)
    await play_to_the_end(fake, {"Ana": ANA, "Bo": BO})  # (the game's words in English: the helpers click them)
    await fake.set_guild_locale("de")  # what the channel sees: the server's language
    it = await fake.slash(BO, CHANNEL, "leaderboard", game="geek_out", season="Frühling")
    assert sight.title(reply(fake, it)) == "Geek Out! Masters: Bestenliste der Saison Frühling", reply(fake, it)
    await fake.slash(ANA, CHANNEL, "leaderboard", game="geek_out", season="Invierno")
    assert latest(fake, ANA).startswith("Este servidor no tiene ninguna temporada llamada **Invierno**"), \
        latest(fake, ANA)
    await fake.slash(MOD, CHANNEL, "mod", "season", "end")
    assert latest(fake).startswith("Die Saison **Frühling** ist beendet"), latest(fake)
    [posted] = halls(fake)
    assert sight.title(posted) == "Die Saison Frühling ist vorbei: Ruhmeshalle", posted
    assert "von einem Moderator beendet" in sight.content(posted) and "🥇" in sight.content(posted)
    it = await fake.slash(BO, CHANNEL, "halloffame")
    assert sight.title(reply(fake, it)) == "Ruhmeshalle"
    await fake.slash(ANA, CHANNEL, "privacy", "show")
    report = latest(fake, ANA)
    assert "**Puntuaciones de temporada aquí:** Frühling, Geek Out! Masters: puntuación " in report, report
    assert "**Puestos en el salón de la fama aquí:** Frühling, Geek Out! Masters: puesto " in report, report
    assert not fake.rejections
