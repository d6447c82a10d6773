"""Tables in threads of their own (issue 27), through the real discord.py client and the loopback Discord:
a game from its lobby to its result in a thread, the parent channel's link and result lines, an archived thread
woken by a move, a deleted thread or channel ending its table, a missing permission, a forum post."""

import pytest

from playground.fake_discord import ALL_PERMISSIONS
from playground.fake_threads import CREATE_PUBLIC_THREADS, SEND_MESSAGES
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY, MOD
from tests.bot.test_geek_out_e2e import DICE_MOVES, play_one

FORUM = 650


def the_thread(fake, parent=CHANNEL) -> int:
    threads = [t for t in fake.threads_of(parent) if t["name"] != "thread-700"]
    assert len(threads) == 1, threads
    return int(threads[0]["id"])


def lines(fake, channel=CHANNEL) -> list[str]:
    return [sight.content(m) for m in fake.messages_in(channel)]


async def open_in_thread(fake, *players, channel=CHANNEL, **options) -> int:
    await fake.slash(players[0], channel, "play", "geek-out", thread="yes", **options)
    thread = the_thread(fake, channel)
    lob = sight.lobby(fake, thread)
    for p in players[1:]:
        await fake.click(p, lob, "Join")
    return thread


async def test_a_table_in_a_thread_from_lobby_to_result(fake, runner):
    thread = await open_in_thread(fake, ANA, BO)
    made = fake.channels[thread]
    table = sight.table_of(sight.lobby(fake, thread))
    assert made["name"] == f"Geek Out! Masters · table {table}"
    assert made["type"] == 11 and made["parent_id"] == str(CHANNEL)
    said = sight.content(fake.ephemerals(ANA)[-1])
    assert f"<#{thread}>" in said and "thread of its own" in said
    # the channel itself: one short line linking the thread, no lobby, no board
    assert lines(fake) == [f"Ana opened a Geek Out! Masters table in its own thread: <#{thread}>"]
    assert not any(sight.is_lobby(m) or sight.is_board(m) for m in fake.messages_in(CHANNEL))
    # the channel is free for a table of its own meanwhile
    await fake.slash(BO, CHANNEL, "play", "geek-out", thread="no")
    assert sight.lobby(fake, CHANNEL)
    await fake.click(ANA, sight.lobby(fake, thread), "Start")
    for _ in range(400):
        if sight.standings_of(fake, thread) is not None:
            break
        await play_one(fake, channel=thread, prefer=("Pass", "Continue") + DICE_MOVES)
    assert sight.standings_of(fake, thread) is not None
    result = lines(fake)[-1]  # the result line, linking the thread
    assert result.startswith(f"Geek Out! Masters in <#{thread}> is over: "), result
    assert "wins" in result or "Shared victory" in result or "Nobody won" in result
    assert len([line for line in lines(fake) if f"<#{thread}>" in line]) == 2
    row = await runner.bot.store.get_table(table)
    assert row.status == "finished" and row.channel_id == thread and row.parent_channel_id == CHANNEL
    # its rematch is a table of the same thread, whose end the channel hears of too
    await fake.click(BO, sight.board(fake, thread), "Rematch")
    again = await runner.bot.store.open_table_in(thread)
    assert again.id != table and again.parent_channel_id == CHANNEL


async def test_an_archived_thread_is_unarchived_when_a_move_comes(fake, runner):
    thread = await open_in_thread(fake, ANA, BO)
    await fake.click(ANA, sight.lobby(fake, thread), "Start")
    await fake.archive_thread(thread)
    await fake.settle()
    assert fake.channels[thread]["thread_metadata"]["archived"]
    before = len(fake.rejections)
    await play_one(fake, channel=thread, prefer=("Pass", "Continue") + DICE_MOVES)
    assert not fake.channels[thread]["thread_metadata"]["archived"]
    assert [e for e in fake.rejections[before:] if e.code == 50083] == []
    assert ("PATCH", f"/channels/{thread}") in fake.requests


async def test_a_deleted_thread_ends_its_table_unrated(fake, runner, caplog):
    thread = await open_in_thread(fake, ANA, BO)
    table = sight.table_of(sight.lobby(fake, thread))
    await fake.click(ANA, sight.lobby(fake, thread), "Start")
    before = len(fake.rejections)
    with caplog.at_level("INFO", logger="bot.threads"):
        await fake.delete_thread(thread)
    row = await runner.bot.store.get_table(table)
    assert row.status == "ended" and row.end_reason == "its thread was deleted"
    assert await runner.bot.store.due_deadlines(float("inf")) == []
    assert await runner.bot.store.history(fake.guild_id, thread, limit=5) == []  # no result: unrated
    assert any("ended" in r.getMessage() and str(table) in r.getMessage() for r in caplog.records)
    assert lines(fake)[-1] == f"The Geek Out! Masters table {table} ended: its thread was deleted."
    assert not runner.bot.service.is_open(table)
    await fake.settle()
    assert fake.rejections[before:] == []  # nothing was sent to the thread that is gone


async def test_a_deleted_channel_ends_the_tables_of_its_threads(fake, runner):
    thread = await open_in_thread(fake, ANA, BO)
    table = sight.table_of(sight.lobby(fake, thread))
    await fake.slash(BO, 601, "play", "geek-out", thread="yes")
    other = sight.table_of(sight.lobby(fake, the_thread(fake, 601)))
    await fake.delete_channel(CHANNEL)
    assert (await runner.bot.store.get_table(table)).status == "ended"
    assert (await runner.bot.store.get_table(other)).status == "lobby"  # another channel's thread: untouched


async def test_without_the_permission_to_make_threads_one_sentence_and_nothing_made(fake, runner):
    fake.set_bot_permissions(CHANNEL, ALL_PERMISSIONS & ~CREATE_PUBLIC_THREADS)
    await fake.slash(ANA, CHANNEL, "play", "geek-out", thread="yes")
    said = sight.content(fake.ephemerals(ANA)[-1])
    assert said == "I can't open a table in a thread here: I need the permission \u201cCreate Public Threads\u201d " \
                   "in this channel."
    assert fake.threads_of(CHANNEL) == [t for t in fake.threads_of(CHANNEL) if t["name"] == "thread-700"]
    assert fake.messages_in(CHANNEL) == []
    assert await runner.bot.store.open_table_in(CHANNEL) is None
    # without a thread, the channel still takes a table
    await fake.slash(ANA, CHANNEL, "play", "geek-out")
    assert sight.lobby(fake, CHANNEL)


async def test_thread_yes_inside_a_thread_plays_there(fake, runner):
    await fake.slash(ANA, 700, "play", "geek-out", thread="yes")
    assert sight.lobby(fake, 700)
    said = sight.content(fake.ephemerals(ANA)[-1])
    assert "This is a thread already, so the table opens here." in said


async def test_mod_threads_sets_the_default(fake, runner):
    await fake.slash(MOD, CHANNEL, "mod", "threads")
    assert "in the channel" in sight.content(fake.ephemerals(MOD)[-1])
    await fake.slash(MOD, CHANNEL, "mod", "threads", live="yes")
    assert sight.content(fake.ephemerals(MOD)[-1]).startswith("/play opens every table in a thread of its own")
    await fake.slash(ANA, CHANNEL, "play", "geek-out")  # no thread: asked, so the server's default
    thread = the_thread(fake)
    assert sight.lobby(fake, thread)
    settings = await runner.bot.store.guild_settings(fake.guild_id)
    assert settings.threads_live is True and settings.threads_turn_based is None


@pytest.fixture
async def forum_fake(fake):
    fake.add_forum(FORUM)
    return fake


async def test_play_in_a_forum_opens_a_post_with_the_lobby_as_its_first_message(forum_fake, database):
    from tests.bot.harness import BotRunner

    fake = forum_fake
    runner = BotRunner(fake, database)
    await runner.start()
    try:
        await fake.slash(ANA, FORUM, "play", "geek-out")
        post = the_thread(fake, FORUM)
        first = fake.messages[post]  # a forum post's first message has the post's id
        assert sight.is_lobby(first)
        assert sight.lobby(fake, post)["id"] == str(post)
        assert fake.messages_in(FORUM) == []  # a forum lists its posts: no link line
        # thread:yes inside a forum post: a post can't hold threads, so a new post of the forum
        await fake.slash(BO, post, "play", "geek-out", thread="yes")
        posts = [int(t["id"]) for t in fake.threads_of(FORUM)]
        assert len(posts) == 2 and sight.is_lobby(fake.messages[posts[1]])
        row = await runner.bot.store.open_table_in(posts[1])
        assert row.parent_channel_id == FORUM and row.host_id == BO
        # without it, /play in a post plays there
        await fake.slash(ANA, posts[1], "play", "geek-out")
        assert "already" in sight.content(fake.ephemerals(ANA)[-1])  # that post has its table
        # the permission to post in a forum ("Create Posts")
        fake.set_bot_permissions(FORUM, ALL_PERMISSIONS & ~SEND_MESSAGES)
        await fake.slash(CY, FORUM, "play", "geek-out")
        assert "\u201cCreate Posts\u201d" in sight.content(fake.ephemerals(CY)[-1])
        assert len(fake.threads_of(FORUM)) == 2
    finally:
        await runner.stop()


async def test_a_thread_deleted_while_the_bot_was_away_ends_its_table_at_its_next_move(fake, runner):
    thread = await open_in_thread(fake, ANA, BO)
    table = sight.table_of(sight.lobby(fake, thread))
    await fake.click(ANA, sight.lobby(fake, thread), "Start")
    await runner.stop()
    await fake.delete_thread(thread)  # no bot connected: no THREAD_DELETE reaches it
    await runner.restart(later=3600)  # the turn timed out meanwhile: the table plays for the idle player
    await fake.wait_until(lambda: ("PATCH", f"/channels/{thread}") in fake.requests, what="the thread looked up")
    await fake.settle()
    row = await runner.bot.store.get_table(table)
    assert row.status == "ended" and row.end_reason == "its thread was deleted"
    assert {e.code for e in fake.rejections} == {10003}  # only the look-up that found it gone
    assert lines(fake)[-1] == f"The Geek Out! Masters table {table} ended: its thread was deleted."


async def test_a_turn_based_table_opens_in_a_thread_unless_asked_or_set_otherwise(fake, runner):
    """The bot's default: a turn-based table (pace from /play or the server's /mod pace) gets a thread of its own,
    a live one stays in the channel; /mod threads turn-based:no keeps turn-based tables in the channel."""
    await fake.slash(ANA, CHANNEL, "play", "geek-out", pace="24h")
    thread = the_thread(fake)
    assert (await runner.bot.store.open_table_in(thread)).pace == 24 * 3600
    assert await runner.bot.store.open_table_in(CHANNEL) is None
    await fake.slash(MOD, CHANNEL, "mod", "threads", **{"turn-based": "no"})
    await fake.slash(BO, CHANNEL, "play", "geek-out", pace="3d")
    here = await runner.bot.store.open_table_in(CHANNEL)
    assert here is not None and here.pace == 3 * 24 * 3600 and here.parent_channel_id is None
