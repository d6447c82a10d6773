"""Two moderators run /tournament create in one channel in the same instant (T-B6): both read the channel as free
(the command's check), the database's index (migration 021) lets one tournament in, and the other moderator gets
the check's one ephemeral sentence naming it; one tournament message appears."""

from __future__ import annotations

import asyncio

from tests.bot import sight
from tests.bot.conftest import CHANNEL, MOD
from tests.bot.test_tournament_e2e import last_ephemeral

MOD2 = 198


async def test_two_moderators_creating_at_once_make_one_tournament(fake, runner):
    fake.add_user(MOD2, "Mira", moderator=True)
    store = runner.bot.service.store
    read = store.channel_tournament
    both = asyncio.Barrier(2)
    calls = []

    async def at_the_same_instant(channel_id):
        """The two creates' checks both read the channel before either writes (as two processes may)."""
        found = await read(channel_id)
        calls.append(found)
        if len(calls) <= 2:
            await asyncio.wait_for(both.wait(), 10)
        return found

    store.channel_tournament = at_the_same_instant
    try:
        await asyncio.gather(fake.slash(MOD, CHANNEL, "tournament", "create", "geek-out", settle=False),
                             fake.slash(MOD2, CHANNEL, "tournament", "create", "geek-out", settle=False))
        await fake.settle()
    finally:
        del store.channel_tournament
    assert calls[:2] == [None, None]  # both passed the check
    [t] = await store.open_tournaments()
    posts = [m for m in fake.messages_in(CHANNEL) if "tournament #" in sight.content(m).split("\n")[0]]
    assert len(posts) == 1 and f"tournament #{t.id}" in sight.content(posts[0]), posts
    won, lost = (MOD, MOD2) if t.created_by == MOD else (MOD2, MOD)
    assert last_ephemeral(fake, won).startswith("The sign-up of ") and "is open below" in last_ephemeral(fake, won)
    said = last_ephemeral(fake, lost)
    assert said == (f"Geek Out! Masters tournament #{t.id} is still open in this channel: end it first, or open this one "
                    "in another channel."), said
    assert len(fake.ephemerals(lost)) == 1
