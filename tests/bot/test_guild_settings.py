"""Where games may be started, as stored: both modes round-trip, and rows older versions wrote still read
(issue 16, item 1)."""

import pytest

from bot.database import open_store
from bot.store import GuildSettings


@pytest.fixture
async def store(database):
    s = await open_store(database)
    yield s
    await s.close()


async def test_both_channel_modes_round_trip_and_old_rows_read(store):
    everywhere_but = GuildSettings(3, None, None, [601, 700])
    await store.save_guild_settings(everywhere_but)
    assert await store.guild_settings(3) == everywhere_but
    with_a_thread = GuildSettings(3, None, None, [600], [700])  # a thread of the forbidden 600, allowed
    await store.save_guild_settings(with_a_thread)
    assert await store.guild_settings(3) == with_a_thread
    assert with_a_thread.allows(700, parent_id=600) and not with_a_thread.allows(701, parent_id=600)
    only_but = GuildSettings(3, 60, [600], [700])
    await store.save_guild_settings(only_but)
    assert await store.guild_settings(3) == only_but
    await store.execute("UPDATE guild_settings SET allowed_channels = ? WHERE guild_id = ?", "[600, 601]", 3)
    assert await store.guild_settings(3) == GuildSettings(3, 60, [600, 601])  # what older versions wrote


def test_a_thread_follows_its_own_entry_then_its_parents():
    everywhere_but = GuildSettings(1, None, None, [600])
    assert everywhere_but.allows(601) and not everywhere_but.allows(600)
    assert not everywhere_but.allows(700, parent_id=600) and everywhere_but.allows(701, parent_id=601)
    only = GuildSettings(1, None, [600], [700])
    assert only.allows(600) and only.allows(701, parent_id=600) and not only.allows(700, parent_id=600)
    assert not only.allows(601) and not GuildSettings(1, None, []).allows(600)
