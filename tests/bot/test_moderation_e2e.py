"""Moderators' commands through the loopback Discord: where games may be started (channels, threads),
failures worded for the command, and a removal that ends a game (issue 16, items 1-3)."""

from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY, MOD
from tests.bot.test_geek_out_e2e import board, last_ephemeral, start_game

THREAD = 700  # a thread of CHANNEL in the fake's guild
OTHER, THIRD = 601, 602


async def can_open_a_table(fake, channel) -> bool:
    """Whether /play opens a lobby in ``channel`` (it is closed again at once, so the next try is fresh)."""
    await fake.slash(ANA, channel, "play", "geek-out")
    answer = last_ephemeral(fake, ANA)
    if "can't be started in this channel" in answer:
        return False
    assert answer.startswith("Opened"), answer
    await fake.slash(MOD, channel, "mod", "end", reason="just checking")
    return True


async def test_forbidding_one_channel_forbids_that_one_only(fake, runner):
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="forbid", channel=OTHER)
    assert last_ephemeral(fake, MOD) == f"Games may be started in every channel except <#{OTHER}>."
    assert await can_open_a_table(fake, CHANNEL)
    assert await can_open_a_table(fake, THREAD)
    assert not await can_open_a_table(fake, OTHER)
    assert f"every channel except <#{OTHER}>" in last_ephemeral(fake, ANA)
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="forbid", channel=THIRD)
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="show")
    assert last_ephemeral(fake, MOD) == f"Games may be started in every channel except <#{OTHER}>, <#{THIRD}>."
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="allow", channel=OTHER)  # forbidden no more
    assert last_ephemeral(fake, MOD) == f"Games may be started in every channel except <#{THIRD}>."
    assert await can_open_a_table(fake, OTHER)
    await runner.restart()  # the rules are stored, not only cached
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="show")
    assert last_ephemeral(fake, MOD) == f"Games may be started in every channel except <#{THIRD}>."
    assert not await can_open_a_table(fake, THIRD)


async def test_allowing_some_channels_only_and_threads(fake, runner):
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="allow", channel=THREAD)
    assert not fake.rejections and "went wrong" not in last_ephemeral(fake, MOD)
    assert last_ephemeral(fake, MOD) == f"Games may be started only in <#{THREAD}> (and their threads)."
    assert await can_open_a_table(fake, THREAD)
    assert not await can_open_a_table(fake, CHANNEL)
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="allow", channel=OTHER)
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="show")
    assert last_ephemeral(fake, MOD) == f"Games may be started only in <#{THREAD}>, <#{OTHER}> (and their threads)."
    assert await can_open_a_table(fake, OTHER)
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="forbid", channel=THREAD)
    assert last_ephemeral(fake, MOD) == f"Games may be started only in <#{OTHER}> (and their threads)."
    assert not await can_open_a_table(fake, THREAD)
    # a channel allowed covers its threads; one of them can still be forbidden on its own
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="allow", channel=CHANNEL)
    assert await can_open_a_table(fake, THREAD)
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="forbid", channel=THREAD)
    assert last_ephemeral(fake, MOD) == (f"Games may be started only in <#{OTHER}>, <#{CHANNEL}> (and their threads),"
                                         f" not in <#{THREAD}>.")
    assert not await can_open_a_table(fake, THREAD) and await can_open_a_table(fake, CHANNEL)
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="everywhere")
    assert last_ephemeral(fake, MOD) == "Games may be started in every channel."
    assert await can_open_a_table(fake, THREAD)


async def test_a_channel_of_a_kind_no_game_fits_gets_a_sentence(fake, runner):
    """A Discord client that lets a category through as the channel (Discord's own offers only the kinds the
    command names): a sentence, not "Something went wrong"."""
    data = fake._command_data(CHANNEL, "mod", ("channels",), {"action": "allow", "channel": OTHER})
    category = dict(data["resolved"]["channels"].pop(str(OTHER)), id="650", type=4, name="Games")
    data["resolved"]["channels"]["650"] = category
    data["options"][0]["options"][1]["value"] = "650"
    it, payload = fake._interaction(2, MOD, CHANNEL, data)
    await fake._dispatch_interaction(it, payload)
    await fake.settle()
    assert last_ephemeral(fake, MOD) == ("I can't use that kind of channel here: pick a text channel, a thread, a forum"
                                         " or a voice channel.")
    assert (await runner.bot.store.guild_settings(fake.guild_id)).allowed_channels is None


async def test_a_moderator_command_that_fails_does_not_speak_of_the_game(fake, runner):
    await runner.bot.store.execute("DROP TABLE guild_settings")  # the database refuses the write
    await fake.slash(MOD, CHANNEL, "mod", "timeout", seconds=60)
    answer = last_ephemeral(fake, MOD)
    assert answer == "Something went wrong on my side while running /mod timeout. Please try again.", answer


def top_bar_is_a_winner_banner(fake, message) -> bool:
    """Whether the board's top bar is the gold winner banner (most of the bar's middle is the gold)."""
    from render.common import HEADER_H, HIGHLIGHT
    image = fake_image(fake, message)
    band = image.crop((40, 40, image.width - 40, HEADER_H - 12))
    gold = sum(count for count, colour in band.getcolors(1 << 24) if colour == HIGHLIGHT)
    return gold > 0.5 * band.width * band.height


def fake_image(fake, message):
    import io

    from PIL import Image
    attachment_id = int(message["attachments"][0]["id"])
    return Image.open(io.BytesIO(fake.files[attachment_id])).convert("RGB")


async def test_a_removal_that_ends_the_game_says_so(fake, runner):
    await start_game(fake, takeover=False)  # else a computer would play Bo's seat on
    await fake.slash(MOD, CHANNEL, "mod", "remove", player=BO)
    assert last_ephemeral(fake, MOD) == "Bo was removed."
    final = board(fake)
    text = sight.description(final)
    assert sight.latest_moves(final)[0][-1] == "Bo was removed by a moderator.", text  # the log line
    assert "**Game over.** The game ended early: Bo was removed by a moderator. **Ana** finishes first by default." \
        in text, text
    assert "wins" not in text and "left the game" not in text
    [standings] = [sight.content(m) for m in fake.messages_in(CHANNEL) if "final standings" in sight.content(m)]
    assert "**Bo** (removed by a moderator)" in standings and "wins" not in standings, standings
    assert standings.endswith("The game ended early: Bo was removed by a moderator. **Ana** finishes first by default.")
    assert not top_bar_is_a_winner_banner(fake, final)
    # the stored log replays to the stored state
    row = await runner.bot.store.get_table(int(sight.title(final).split()[-1]))
    await check_replay(runner.bot.store, row)


async def check_replay(store, row):
    from games import get_engine
    engine = get_engine(row.game)
    log = await store.actions(row.id)
    replayed = engine.replay(len(row.players), row.options, row.seed, log)
    assert any(key == "remove:1" for _, key in log), log
    assert engine.encode(replayed) == row.state


async def test_leaving_that_ends_the_game_is_no_ordinary_win_either(fake, runner):
    await start_game(fake, takeover=False)
    await fake.slash(CY, CHANNEL, "game", "leave")  # a spectator
    assert last_ephemeral(fake, CY) == "You are not playing at this table."
    await fake.slash(BO, CHANNEL, "game", "leave")
    text = sight.description(board(fake))
    assert "**Game over.** The game ended early: Bo left. **Ana** finishes first by default." in text, text
    assert not top_bar_is_a_winner_banner(fake, board(fake))


async def test_an_ordinary_end_keeps_its_winner_banner(fake, runner):
    """The check above can fail: a game played to its end shows the gold banner."""
    from tests.bot.test_geek_out_e2e import play_one
    await start_game(fake, turns=1)
    for _ in range(200):
        if "Game over" in sight.description(board(fake)):
            break
        await play_one(fake)
    assert "Game over" in sight.description(board(fake))
    assert top_bar_is_a_winner_banner(fake, board(fake))


async def test_a_player_who_left_the_server_can_still_be_removed(fake, runner):
    """Discord sends a user without a member when they left the server: the removal still works."""
    await start_game(fake, players=(ANA, BO, CY))
    data = fake._command_data(CHANNEL, "mod", ("remove",), {"player": CY})
    del data["resolved"]["members"]
    it, payload = fake._interaction(2, MOD, CHANNEL, data)
    await fake._dispatch_interaction(it, payload)
    await fake.settle()
    assert last_ephemeral(fake, MOD) == "Cy was removed."
    assert sight.latest_moves(board(fake))[0][-1].startswith("Cy was removed by a moderator.")


async def test_allowing_a_thread_of_a_forbidden_channel_allows_that_thread_only(fake, runner):
    """Games everywhere but #games-1; then one thread of #games-1 is allowed: that thread opens, and every
    other channel keeps its rule (it did not become "only in that thread")."""
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="forbid", channel=CHANNEL)
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="allow", channel=THREAD)
    assert last_ephemeral(fake, MOD) == f"Games may be started in every channel except <#{CHANNEL}>; also in <#{THREAD}>."
    assert await can_open_a_table(fake, THREAD) and await can_open_a_table(fake, OTHER)
    assert not await can_open_a_table(fake, CHANNEL)
    await runner.restart()  # stored
    assert await can_open_a_table(fake, THREAD) and not await can_open_a_table(fake, CHANNEL)
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="forbid", channel=THREAD)
    assert last_ephemeral(fake, MOD) == f"Games may be started in every channel except <#{CHANNEL}>."
    assert not await can_open_a_table(fake, THREAD)


async def test_the_bare_timeout_command_shows_the_setting_and_changes_nothing(fake, runner):
    """Like /mod retention and /mod language, /mod timeout without a value shows the setting (it silently set
    the bot's default, 600 s); 0 goes back to the default."""
    await fake.slash(MOD, CHANNEL, "mod", "timeout")
    assert last_ephemeral(fake, MOD) == ("Turn timeout is 600 seconds, the bot's default. `/mod timeout seconds:` sets"
                                         " another (30 to 86400).")
    await fake.slash(MOD, CHANNEL, "mod", "timeout", seconds=45)
    assert last_ephemeral(fake, MOD) == "Turn timeout is now 45 seconds (from the next move on)."
    await fake.slash(MOD, CHANNEL, "mod", "timeout")
    assert last_ephemeral(fake, MOD) == ("Turn timeout is 45 seconds in this server. `/mod timeout seconds:0` goes"
                                         " back to the bot's default.")
    assert (await runner.bot.store.guild_settings(fake.guild_id)).turn_timeout == 45
    await fake.slash(MOD, CHANNEL, "mod", "timeout", seconds=10)
    assert last_ephemeral(fake, MOD) == "A turn timeout is 30 seconds at least (0: the bot's default)."
    assert (await runner.bot.store.guild_settings(fake.guild_id)).turn_timeout == 45
    await fake.slash(MOD, CHANNEL, "mod", "timeout", seconds=0)
    assert last_ephemeral(fake, MOD) == "Turn timeout is now 600 seconds (from the next move on)."
    assert (await runner.bot.store.guild_settings(fake.guild_id)).turn_timeout is None
