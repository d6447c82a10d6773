"""/privacy and /mod retention through the loopback Discord (issue 18 item 5): a member reads what is kept about
them, deletes it with a confirmation (refused while a game of theirs is open), and is gone from the leaderboard
and anonymised in history; a moderator sets how long finished games are kept and the bot prunes older ones."""

import asyncio

from bot.store import FORMER_PLAYER, short_id
from playground.fake_discord import snapshot
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, MOD
from tests.bot.harness import LIMIT
from tests.bot.test_geek_out_e2e import board, last_ephemeral, lobby, play_one, start_game
from tests.bot.test_records_e2e import history_text

OTHER = 601
DAY = 86400


async def play_to_the_end(fake, players=(ANA, BO), channel=CHANNEL) -> int:
    """A one-turn Geek Out game played to its end; its table id."""
    await start_game(fake, players, channel=channel, turns=1)
    for _ in range(200):
        if "Game over" in sight.description(board(fake, channel)):
            break
        await play_one(fake, channel)
    final = board(fake, channel)
    assert "Game over" in sight.description(final)
    return int(sight.title(final).split()[-1])


def ephemeral_message(fake, user) -> dict:
    return fake.ephemerals(user)[-1]


async def test_a_member_reads_and_deletes_their_data_and_leaves_the_leaderboard(fake, runner):
    store = runner.bot.store
    table = await play_to_the_end(fake)
    await fake.slash(ANA, CHANNEL, "game", "pings", enabled="off")
    await fake.slash(ANA, CHANNEL, "privacy", "show")
    report = ephemeral_message(fake, ANA)
    assert sight.is_v2(report) and sight.title(report) == "What Geotable keeps about you in this server", report
    text = sight.description(report)
    assert "**Settings** (every server): turn pings off." in text
    assert "Geek Out! Masters: rating " in text and "(1 rated, " in text
    assert "**Games here that name you:** 1 finished (Geek Out! Masters 1), 0 closed without a result (lobbies," \
           " games ended early), 0 open now." in text, text
    assert "**Your names in them:** Ana." in text
    assert "kept in this server until its moderators set a limit" in text
    assert {s.name for s in (await store.leaderboard(fake.guild_id, "geek_out")).rows} == {"Ana", "Bo"}

    # a lobby of hers is open: refused, nothing deleted, told where
    await fake.slash(ANA, OTHER, "play", "geek-out")
    await fake.slash(ANA, CHANNEL, "privacy", "delete")
    assert last_ephemeral(fake, ANA) == (
        f"You are at a lobby or game that is still open here (<#{OTHER}>): nothing was deleted. Leave the lobby,"
        " or wait until the game ends (a game you left still lists you until then), then ask again.")
    assert not sight.components(ephemeral_message(fake, ANA))
    await fake.click(ANA, lobby(fake, OTHER), "Leave")  # the lobby closes

    # asked from the list's button, then confirmed; another member's click on a copy changes nothing
    await fake.slash(ANA, CHANNEL, "privacy", "show")
    await fake.click(ANA, ephemeral_message(fake, ANA), "Delete my data")
    confirm = ephemeral_message(fake, ANA)
    assert sight.content(confirm).startswith("Delete your data? This deletes your settings (in every server)"), confirm
    assert sight.content(confirm).endswith("It cannot be undone.")
    await fake.click(BO, confirm, "Yes, delete my data")
    assert last_ephemeral(fake, BO) == "This button is someone else's: use `/privacy` for your own data."
    assert await store.user_settings(ANA) is not None
    yes = fake.find_component(confirm, label="Yes, delete my data", kind=2)["custom_id"]
    unanswered = snapshot(confirm)  # as a screen that has not refreshed still shows it
    await fake.interact_together([(ANA, confirm, yes), (ANA, confirm, yes)])  # a double click: one deletion
    assert last_ephemeral(fake, ANA) == ("You already confirmed this: your data is deleted (or being deleted) with"
                                         " your first click.")
    done = fake.messages[int(confirm["id"])]
    assert sight.content(done) == ("Done. Your settings and your ratings here (ratings in 1 game) are deleted, and your name is"
                               f" replaced with \"{FORMER_PLAYER}\" in 2 stored tables of this server."), done
    assert sight.components(done) == []
    assert not fake.rejections
    # after a restart, the old button pressed again on a screen that still shows it (its message as that screen
    # has it): told so, the first answer kept (it was rewritten "... ratings in 0 games ... 0 stored tables": the
    # clicks were known in memory only)
    first, seen = sight.content(done), len(fake.ephemerals(ANA))
    await runner.restart()
    it, payload = fake._interaction(3, ANA, CHANNEL, {"custom_id": yes, "component_type": 2}, unanswered)
    await fake._dispatch_interaction(it, payload)
    await fake.settle()
    assert len(fake.ephemerals(ANA)) == seen + 1
    assert last_ephemeral(fake, ANA) == ("You already confirmed this: your data is deleted (or being deleted) with"
                                         " your first click.")
    assert sight.content(fake.messages[int(confirm["id"])]) == first
    store = runner.bot.store

    # the server's commands say so: /leaderboard (public), /history (ephemeral) and /replay
    it = await fake.slash(ANA, CHANNEL, "leaderboard", game="geek_out")
    [answer] = fake.replies_to(it)
    assert sight.title(answer) == "Geek Out! Masters: leaderboard"
    assert sight.description(answer) == "1 player is rated in this game here.\nYou are not rated in this game yet."
    await fake.slash(BO, CHANNEL, "history")
    listed = history_text(fake, BO)
    assert "**Geek Out! Masters**: " in listed and FORMER_PLAYER in listed and "Ana" not in listed, listed
    it = await fake.slash(BO, CHANNEL, "replay", id=short_id(table))
    [post] = fake.replies_to(it)
    moves = next(fake.files[int(a["id"])] for a in post["attachments"] if a["filename"].endswith(".txt")).decode()
    assert FORMER_PLAYER in moves and "Ana" not in moves, moves
    board_now = await store.leaderboard(fake.guild_id, "geek_out", around_user=ANA)
    assert [s.name for s in board_now.rows] == ["Bo"] and board_now.own is None
    [game] = await store.history(fake.guild_id)
    assert game.table_id == table and sorted(p["name"] for p in game.players) == ["Bo", FORMER_PLAYER]
    assert await store.user_settings(ANA) is None and await store.stats(fake.guild_id, ANA) == []
    await fake.slash(ANA, CHANNEL, "privacy", "show")
    text = last_ephemeral(fake, ANA)
    assert "**Settings** (every server): none stored" in text and "**Ratings here:** none." in text
    assert "0 finished," in text and "**Your names in them:** none." in text


async def test_a_member_who_keeps_their_data_keeps_it(fake, runner):
    await play_to_the_end(fake)
    await fake.slash(BO, CHANNEL, "privacy", "delete")
    confirm = ephemeral_message(fake, BO)
    await fake.click_forged(BO, confirm, f"gp:delete:{ANA}")  # not a button of the message: nothing happens
    assert last_ephemeral(fake, BO) == "This button no longer works: use `/privacy` again."
    await fake.click(BO, confirm, "Keep it")
    assert sight.content(fake.messages[int(confirm["id"])]) == "Nothing was deleted."
    assert await runner.bot.store.stats(fake.guild_id, ANA) and await runner.bot.store.stats(fake.guild_id, BO)
    assert {s.name for s in (await runner.bot.store.leaderboard(fake.guild_id, "geek_out")).rows} == {"Ana", "Bo"}


async def test_moderators_set_how_long_finished_games_are_kept_and_older_ones_are_pruned(fake, runner):
    store = runner.bot.store
    await fake.slash(ANA, CHANNEL, "mod", "retention", days=1)
    assert last_ephemeral(fake, ANA) == "You need the Manage Server permission to do that."
    assert (await store.guild_settings(fake.guild_id)).retention_days is None
    finished = await play_to_the_end(fake)
    await fake.slash(MOD, CHANNEL, "mod", "retention", days=1)
    assert last_ephemeral(fake, MOD) == (
        "Finished games are now kept in this server for 1 day: older ones (and closed lobbies) are deleted with"
        " their moves and results (now, then every hour). Ratings stay.")
    await fake.slash(BO, CHANNEL, "privacy", "show")
    assert "finished games are kept in this server for 1 day, then deleted" in last_ephemeral(fake, BO)
    assert await store.get_table(finished) is not None  # finished moments ago

    bot = await runner.restart(later=2 * DAY)  # back two days later: its first pass deletes the game
    await asyncio.wait_for(bot.pruned.wait(), LIMIT)
    assert await store_of(runner).get_table(finished) is None
    assert await store_of(runner).history(fake.guild_id) == []
    assert await store_of(runner).actions(finished) == []
    assert {s.name for s in (await store_of(runner).leaderboard(fake.guild_id, "geek_out")).rows} == {"Ana", "Bo"}

    await fake.slash(MOD, CHANNEL, "mod", "retention")  # left out: shows the setting, changes nothing
    assert last_ephemeral(fake, MOD) == ("Finished games are kept in this server for 1 day, then deleted."
                                         " `/mod retention days:0` keeps them until a limit is set again.")
    assert (await store_of(runner).guild_settings(fake.guild_id)).retention_days == 1
    await fake.slash(MOD, CHANNEL, "mod", "retention", days=0)
    assert last_ephemeral(fake, MOD) == "Finished games are now kept in this server until a limit is set."
    assert (await store_of(runner).guild_settings(fake.guild_id)).retention_days is None
    await fake.slash(MOD, CHANNEL, "mod", "retention")
    assert last_ephemeral(fake, MOD) == ("Finished games are kept in this server until a limit is set."
                                         " `/mod retention days:` sets one (1 to 3650 days).")
    assert (await store_of(runner).guild_settings(fake.guild_id)).retention_days is None


def store_of(runner):
    return runner.bot.store
