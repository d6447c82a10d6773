"""Tables in threads (issue 27): the pure decision (``wants_thread``, the thread's name, /mod threads' words)
and what the loopback Discord does and refuses for threads, as Discord does."""

import aiohttp
import pytest

import i18n
from bot.store import GuildSettings
from bot.table.threads import thread_name, threads_sentence, wants_thread
from playground.fake_discord import ALL_PERMISSIONS, FakeDiscord
from playground.fake_threads import CREATE_PUBLIC_THREADS, MANAGE_THREADS, SEND_MESSAGES_IN_THREADS

CHANNEL, FORUM = 600, 650


@pytest.mark.parametrize("asked", [True, False])
@pytest.mark.parametrize("turn_based", [True, False])
def test_what_the_player_asks_decides(asked, turn_based):
    every = GuildSettings(1, threads_live=not asked, threads_turn_based=not asked)
    assert wants_thread(every, asked, turn_based) is asked
    assert wants_thread(GuildSettings(1), asked, turn_based) is asked


def test_else_the_server_then_the_bot_default_by_pace():
    plain = GuildSettings(1)
    assert wants_thread(plain, None, turn_based=True) is True
    assert wants_thread(plain, None, turn_based=False) is False
    flipped = GuildSettings(1, threads_live=True, threads_turn_based=False)
    assert wants_thread(flipped, None, turn_based=True) is False
    assert wants_thread(flipped, None, turn_based=False) is True
    only_live = GuildSettings(1, threads_live=True)  # the other pace keeps the bot's default
    assert wants_thread(only_live, None, turn_based=True) is True


def test_thread_names_and_the_mod_sentence():
    assert thread_name("GEONEO", 42) == "GEONEO · table 42"
    assert len(thread_name("x" * 200, 1)) == 100
    assert thread_name("GEONEO", 42, "de") != "GEONEO · table 42"  # said in the server's language
    assert "turn-based tables in a thread" in threads_sentence(GuildSettings(1))
    assert "every table in a thread" in threads_sentence(GuildSettings(1, threads_live=True))
    assert "every table in the channel" in threads_sentence(GuildSettings(1, threads_turn_based=False))
    for lang in ("de", "es"):
        assert i18n.localize(threads_sentence(GuildSettings(1)), lang) != threads_sentence(GuildSettings(1))


@pytest.fixture
async def fake():
    f = FakeDiscord()
    f.add_forum(FORUM)
    await f.start()
    async with aiohttp.ClientSession() as session:
        f.session = session
        yield f
    await f.stop()
    f.assert_spec_kept()


async def call(fake, method, path, body=None) -> tuple[int, dict | None]:
    async with fake.session.request(method, fake.api_base + path, json=body) as response:
        return response.status, (await response.json() if response.status != 204 else None)


async def thread_in(fake, channel=CHANNEL) -> int:
    status, thread = await call(fake, "POST", f"/channels/{channel}/threads",
                                {"name": "GEONEO · table 1", "auto_archive_duration": 10080, "type": 11})
    assert status == 200, thread
    assert thread["type"] == 11 and thread["parent_id"] == str(channel)
    assert thread["thread_metadata"]["archived"] is False
    return int(thread["id"])


async def test_a_thread_of_a_channel_takes_messages_and_is_refused_where_discord_refuses(fake):
    thread = await thread_in(fake)
    status, _ = await call(fake, "POST", f"/channels/{thread}/messages", {"content": "hi"})
    assert status == 200
    # a thread of a thread, a bad name, a message on a text channel's thread: refused
    assert (await call(fake, "POST", f"/channels/{thread}/threads", {"name": "x", "type": 11}))[1]["code"] == 50024
    assert (await call(fake, "POST", f"/channels/{CHANNEL}/threads", {"name": "", "type": 11}))[1]["code"] == 50035
    assert (await call(fake, "POST", f"/channels/{CHANNEL}/threads",
                       {"name": "x", "message": {"content": "y"}}))[1]["code"] == 50035
    assert (await call(fake, "POST", f"/channels/{CHANNEL}/threads",
                       {"name": "x", "auto_archive_duration": 5}))[1]["code"] == 50035


async def test_an_archived_thread_is_unarchived_by_a_message_not_by_an_edit(fake):
    thread = await thread_in(fake)
    _, message = await call(fake, "POST", f"/channels/{thread}/messages", {"content": "hi"})
    await fake.archive_thread(thread)
    status, error = await call(fake, "PATCH", f"/channels/{thread}/messages/{message['id']}", {"content": "ho"})
    assert (status, error["code"], error["message"]) == (400, 50083, "Thread is archived")
    assert fake.channels[thread]["thread_metadata"]["archived"]
    assert (await call(fake, "POST", f"/channels/{thread}/messages", {"content": "back"}))[0] == 200
    assert not fake.channels[thread]["thread_metadata"]["archived"]
    assert (await call(fake, "PATCH", f"/channels/{thread}/messages/{message['id']}", {"content": "ho"}))[0] == 200


async def test_a_locked_thread_needs_manage_threads_and_patch_unarchives(fake):
    thread = await thread_in(fake)
    await fake.archive_thread(thread, locked=True)
    fake.set_bot_permissions(CHANNEL, ALL_PERMISSIONS & ~MANAGE_THREADS)
    assert (await call(fake, "POST", f"/channels/{thread}/messages", {"content": "x"}))[1]["code"] == 50083
    assert (await call(fake, "PATCH", f"/channels/{thread}", {"archived": False}))[1]["code"] == 50083
    fake.set_bot_permissions(CHANNEL, None)
    status, channel = await call(fake, "PATCH", f"/channels/{thread}", {"archived": False})
    assert status == 200 and channel["thread_metadata"]["archived"] is False


async def test_permissions_and_deleted_threads(fake):
    fake.set_bot_permissions(CHANNEL, ALL_PERMISSIONS & ~CREATE_PUBLIC_THREADS)
    status, error = await call(fake, "POST", f"/channels/{CHANNEL}/threads", {"name": "x", "type": 11})
    assert (status, error["code"]) == (403, 50013)
    assert fake.threads_of(CHANNEL) == [fake.channels[700]]
    fake.set_bot_permissions(CHANNEL, ALL_PERMISSIONS & ~SEND_MESSAGES_IN_THREADS)
    thread = await thread_in(fake)
    assert (await call(fake, "POST", f"/channels/{thread}/messages", {"content": "x"}))[1]["code"] == 50013
    assert fake.bot_may(thread) == ALL_PERMISSIONS & ~SEND_MESSAGES_IN_THREADS  # a thread: its parent's
    await fake.delete_thread(thread)
    status, error = await call(fake, "POST", f"/channels/{thread}/messages", {"content": "x"})
    assert (status, error["code"]) == (404, 10003)


async def test_a_forum_post_needs_its_first_message_whose_id_is_the_posts(fake):
    assert (await call(fake, "POST", f"/channels/{FORUM}/threads", {"name": "x"}))[1]["code"] == 50035
    status, post = await call(fake, "POST", f"/channels/{FORUM}/threads",
                              {"name": "GEONEO · table 1", "message": {"content": "The lobby comes here."}})
    assert status == 200 and post["message"]["id"] == post["id"]
    assert [m["content"] for m in fake.messages_in(int(post["id"]))] == ["The lobby comes here."]
    await fake.delete_channel(FORUM)
    assert fake.messages_in(int(post["id"])) == [] and int(post["id"]) not in fake.channels


async def test_interaction_answers_in_an_archived_thread(fake):
    """A click's answer that edits its message (7) is an edit there: refused, 50083; one that posts a new
    message (4) unarchives the thread as a posted message does; a deferred update (6) changes nothing there."""
    fake.add_user(101, "Ana")
    thread = await thread_in(fake)
    _, message = await call(fake, "POST", f"/channels/{thread}/messages", {"content": "a board"})
    await fake.archive_thread(thread)
    clicks = [fake._interaction(3, 101, thread, {"custom_id": "x", "component_type": 2}, message)[0] for _ in "abc"]
    status, error = await call(fake, "POST", f"/interactions/{clicks[0].id}/{clicks[0].token}/callback",
                               {"type": 7, "data": {"content": "edited"}})
    assert (status, error["code"]) == (400, 50083)
    assert (await call(fake, "POST", f"/interactions/{clicks[1].id}/{clicks[1].token}/callback", {"type": 6}))[0] \
        in (200, 204)
    assert fake.channels[thread]["thread_metadata"]["archived"]
    status, _ = await call(fake, "POST", f"/interactions/{clicks[2].id}/{clicks[2].token}/callback",
                           {"type": 4, "data": {"content": "a new message"}})
    assert status == 200 and not fake.channels[thread]["thread_metadata"]["archived"]
