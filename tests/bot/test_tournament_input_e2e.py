"""Bad input to tournaments through the loopback Discord (issue 28, "Bad input"): each refusal is one ephemeral
sentence and changes nothing (no tournament created, no entry, no round, the message as it was)."""

from __future__ import annotations

import pytest

from playground.fake_discord import DiscordError, snapshot
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY, MOD
from tests.bot.test_tournament_e2e import (
    add_players,
    create,
    last_ephemeral,
    sign_up,
    tournament_message,
    wait_round,
)

THREAD = 700
"""A thread of CHANNEL (the fake Discord's)."""


async def refused(fake, runner, user, text: str) -> str:
    """The user's last answer: ephemeral, one sentence with ``text`` in it."""
    said = last_ephemeral(fake, user)
    assert text in said, said
    assert said.count(". ") + said.count("! ") <= 1 and "\n" not in said, said
    return said


async def test_create_refuses_what_does_not_fit_and_creates_nothing(fake, runner):
    store = runner.bot.store
    await fake.slash(ANA, CHANNEL, "tournament", "create", "geek-out")
    await refused(fake, runner, ANA, "Only a moderator")
    await fake.slash(MOD, THREAD, "tournament", "create", "geek-out")
    await refused(fake, runner, MOD, "needs a text channel")
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="forbid", channel=CHANNEL)
    await fake.slash(MOD, CHANNEL, "tournament", "create", "geek-out")
    await refused(fake, runner, MOD, "Games can't be started in this channel.")
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="everywhere")
    await fake.slash(MOD, CHANNEL, "tournament", "create", "geoneo", size=4, cap=5)
    await refused(fake, runner, MOD, "A cap of 5 is below the 8 players this tournament needs.")
    await fake.slash(MOD, CHANNEL, "tournament", "create", "geoneo", format="knockout", rounds=4)
    await refused(fake, runner, MOD, "A knockout plays until one player is left: leave out rounds")
    await fake.slash(MOD, CHANNEL, "tournament", "create", "globe-twister", puzzle="tourist")
    await refused(fake, runner, MOD, "Puzzle levels are for solo play (one player).")
    for bad in ({"rounds": 0}, {"rounds": 50}, {"signup_hours": 0}, {"size": 5}, {"size": 1}, {"turns": 11},
                {"cap": 1}):
        with pytest.raises(DiscordError):  # Discord's client refuses it before the bot hears of it
            await fake.slash(MOD, CHANNEL, "tournament", "create", "geek-out", **bad)
    assert await store.channel_tournament(CHANNEL) is None
    assert not [m for m in fake.messages_in(CHANNEL) if "tournament #" in sight.content(m)]
    await create(fake)
    await fake.slash(MOD, CHANNEL, "tournament", "create", "geoneo")  # one open tournament a channel
    await refused(fake, runner, MOD, "Geek Out! Masters tournament #1 is still open in this channel")
    assert [t.id for t in await store.open_tournaments()] == [1]


async def test_buttons_and_commands_of_members_who_may_not(fake, runner):
    add_players(fake, [ANA, BO, CY, 111, 112])
    await create(fake, cap=4)
    message = tournament_message(fake)
    before = sight.content(message)
    await fake.click(ANA, message, "Leave")
    await refused(fake, runner, ANA, "You are not signed up for this tournament.")
    for button in ("Start", "Cancel"):
        await fake.click(ANA, message, button)
        await refused(fake, runner, ANA, "Only a moderator")
    await fake.slash(ANA, CHANNEL, "tournament", "end", reason="x")
    await refused(fake, runner, ANA, "Only a moderator")
    await fake.slash(ANA, CHANNEL, "tournament", "drop", member=BO)
    await refused(fake, runner, ANA, "Only a moderator")
    await fake.click(MOD, message, "Start")
    await refused(fake, runner, MOD, "needs at least 4 players to start; 0 signed up.")
    await fake.slash(MOD, CHANNEL, "tournament", "drop", member=BO)
    await refused(fake, runner, MOD, "Bo is not in this tournament.")
    await fake.click_forged(ANA, message, "g1t:99:join")
    await refused(fake, runner, ANA, "There is no such tournament.")
    for forged in ("g1t:1:explode", "g1t:x", "g1t:-1:join"):
        await fake.click_forged(ANA, message, forged)
        await refused(fake, runner, ANA, "This button doesn't belong to any tournament I know.")
    assert sight.content(tournament_message(fake)) == before
    assert await runner.bot.store.entries(1) == []
    await sign_up(fake, [ANA, BO, CY, 111])
    signup = snapshot(tournament_message(fake))  # a screen that still shows the sign-up's buttons
    ids = {c["label"]: c["custom_id"] for c in sight.components(signup) if c["type"] == 2}
    await fake.click(MOD, tournament_message(fake), "Start")
    await wait_round(fake, 1, 2)
    await fake.click_forged(ANA, signup, ids["Leave"])
    await refused(fake, runner, ANA, "The tournament has started")
    await fake.click_forged(MOD, signup, ids["Cancel"])
    await refused(fake, runner, MOD, "Only a tournament still in sign-up can be cancelled")
    await fake.click_forged(MOD, signup, ids["Start"])
    await refused(fake, runner, MOD, "This tournament has already started.")
    assert len(await runner.bot.store.rounds(1)) == 1


async def test_a_moderator_ends_a_running_tournament_and_the_channel_is_told_why(fake, runner):
    add_players(fake, [ANA, BO, CY, 111, 112])
    await create(fake, rounds=3, turns=1)
    await sign_up(fake, [ANA, BO, CY, 111, 112])
    await fake.click(MOD, tournament_message(fake), "Start")
    await wait_round(fake, 1, 2)
    await fake.slash(MOD, CHANNEL, "tournament", "end", reason="Server maintenance")
    assert last_ephemeral(fake, MOD) == "The tournament is ended."
    said = [sight.content(m) for m in fake.messages_in(CHANNEL)]
    closed = [s for s in said if s.startswith("The Geek Out! Masters table in <#")]
    assert len(closed) == 2 and all(s.endswith("was closed: a moderator ended the tournament") for s in closed), closed
    final = [s for s in said if s.startswith("## Geek Out! Masters tournament #1 was ended")]
    assert len(final) == 1 and final[0].split("\n")[0].endswith("was ended: Server maintenance (Mo)"), final
    assert "Ended by a moderator: Server maintenance (Mo)" in sight.content(tournament_message(fake))
    assert (await runner.bot.store.tournament(1)).status == "ended"
    await fake.slash(MOD, CHANNEL, "tournament", "end", reason="again")
    await refused(fake, runner, MOD, "There is no tournament in this channel.")
