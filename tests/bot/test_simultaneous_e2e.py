"""Simultaneous play through the real discord.py client and the fake Discord: in Globe Twister's programming
every player acts in their own panel at once. Clicks sent within the same millisecond (built from the
screens the players saw, then put on the gateway back to back) must all be played: each seat's buttons carry
a token of its own choices, so another seat's move never makes them out of date."""

from playground.fake_discord import snapshot
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY

ROUNDS = 100


def board(fake, channel=CHANNEL):
    return sight.board(fake, channel)


def panel(fake, user, channel=CHANNEL):
    return [m for m in fake.ephemerals(user) if m["attachments"] and int(m["channel_id"]) == channel][-1]


def custom_id(message, key):
    """The custom_id of ``message``'s button whose action key is ``key`` (gt:<table>:<version>:<key>[/token])."""
    [found] = [c["custom_id"] for c in sight.components(message)
               if c.get("custom_id", "").split(":", 3)[-1].split("/")[0] == key]
    return found


def refusals(fake, user):
    """The sentences (messages of their own, not a panel's note) telling the user a click was out of date."""
    return [sight.content(m) for m in fake.ephemerals(user) if "out of date" in sight.content(m) and not m["attachments"]]


async def start(fake, players, channel=CHANNEL, **options):
    """A Globe Twister table in ``channel``, every player's panel open."""
    await fake.slash(players[0], channel, "play", "globe-twister", **options)
    lobby = fake.messages_in(channel)[-1]
    for p in players[1:]:
        await fake.click(p, lobby, "Join")
    await fake.click(players[0], lobby, "Start")
    for p in players:
        await fake.click(p, board(fake, channel), "My program")


GAMES = {600: (ANA, BO), 601: (BO, CY), 602: (CY, ANA)}
"""Three tables played at once (one per channel), so the render workers draw side by side."""


async def test_two_players_clicking_in_the_same_millisecond_both_get_their_move_a_hundred_times(fake, runner):
    tables = {}
    for channel, players in GAMES.items():
        await start(fake, players, channel=channel)
        tables[channel] = await runner.bot.service.in_channel(channel)
        assert tables[channel].to_act() == [0, 1]
    played = {c: len(await runner.bot.store.actions(t.id)) for c, t in tables.items()}
    rounds = -(-ROUNDS // len(GAMES))
    for n in range(rounds):
        # in every game both players pick a cell of their own program at the same moment, then take it back
        key = f"c{n % 9}" if n % 2 == 0 else "back"
        screens = {(c, u): snapshot(panel(fake, u, c)) for c, players in GAMES.items() for u in players}
        await fake.interact_together([(u, screen, custom_id(screen, key)) for (c, u), screen in screens.items()])
        expected = {"cell": n % 9} if key != "back" else None
        for channel, table in tables.items():
            assert table.state["steps"] == [expected, expected], f"round {n} in {channel}: {table.state['steps']}"
        assert not any(refusals(fake, u) for u in (ANA, BO, CY)), f"round {n}"
    for channel, table in tables.items():
        assert len(await runner.bot.store.actions(table.id)) == played[channel] + 2 * rounds
    assert not fake.rejections


async def test_a_second_click_on_the_same_screen_is_still_out_of_date_and_says_so(fake, runner):
    """The seat's own move changes its screen: a double click (or a click on a screen from before it) is
    refused, and the refusal is a message of its own that the panel's redraw cannot take away."""
    await start(fake, (ANA, BO))
    table = await runner.bot.service.in_channel(CHANNEL)
    before = snapshot(panel(fake, ANA))
    await fake.interact(ANA, before, custom_id(before, "c4"))
    await fake.interact(ANA, before, custom_id(before, "c5"))  # the same screen, clicked again
    assert table.state["steps"][table.players.index(next(p for p in table.players if p["id"] == ANA))] == {"cell": 4}
    [refusal] = refusals(fake, ANA)
    assert "changed before your click arrived" in refusal
    await fake.click(BO, panel(fake, BO), custom_id=custom_id(panel(fake, BO), "c1"))  # a redraw of every panel
    assert refusals(fake, ANA) == [refusal]


async def test_a_forged_token_is_refused_with_a_sentence(fake, runner):
    await start(fake, (ANA, BO))
    old = snapshot(panel(fake, ANA))
    await fake.interact(BO, panel(fake, BO), custom_id(panel(fake, BO), "c1"))  # the table moves on
    forged = custom_id(old, "c2").rsplit("/", 1)[0] + "/abcdef"
    await fake.click_forged(ANA, old, forged)
    assert refusals(fake, ANA)
    await fake.click_forged(ANA, old, custom_id(old, "c2") + "x")  # malformed
    assert "doesn't belong to any game" in sight.content(fake.ephemerals(ANA)[-1])
    table = await runner.bot.service.in_channel(CHANNEL)
    assert table.state["steps"][[p["id"] for p in table.players].index(ANA)] is None


async def test_lock_ins_in_the_same_millisecond_both_count(fake, runner):
    """The first lock-in rewords the other's button ("Lock in and turn the sand timer" becomes "Lock in") but
    does not change what it does: both lock in and the stage runs."""
    await start(fake, (ANA, BO))
    table = await runner.bot.service.in_channel(CHANNEL)
    turn = table.state["turn"]
    screens = {u: snapshot(panel(fake, u)) for u in (ANA, BO)}
    await fake.interact_together([(u, screens[u], custom_id(screens[u], "lock")) for u in (ANA, BO)])
    assert table.state["turn"] == turn + 1 and not any(table.state["locked"])
    assert not refusals(fake, ANA) and not refusals(fake, BO)


async def test_a_click_from_before_the_stage_ended_is_not_played_in_the_next_one(fake, runner):
    """Without the sand timer the first lock-in stops everyone and the programs run: a click the other player
    made on the stage that just ended is refused (in words), not played on the new stage with the same
    buttons."""
    await start(fake, (ANA, BO), no_timer=True)
    table = await runner.bot.service.in_channel(CHANNEL)
    turn = table.state["turn"]
    screens = {u: snapshot(panel(fake, u)) for u in (ANA, BO)}
    await fake.interact_together([(ANA, screens[ANA], custom_id(screens[ANA], "lock")),
                                  (BO, screens[BO], custom_id(screens[BO], "lock"))])
    assert table.state["turn"] == turn + 1 and not any(table.state["locked"])
    assert len(refusals(fake, ANA)) + len(refusals(fake, BO)) == 1  # the one that came second


async def test_the_public_board_carries_no_seat_token(fake, runner):
    """A seat's token digests all its legal actions, its secret ones too (Globe Twister: whether its program
    is empty, whether a hint is left): everyone can read a public message's custom_ids, so only the seat's
    own panel may carry it. With one seat left to act the board shows its "Lock in" button, without a token."""
    await start(fake, (ANA, BO))
    await fake.click(ANA, panel(fake, ANA), custom_id=custom_id(panel(fake, ANA), "lock"))
    table = await runner.bot.service.in_channel(CHANNEL)
    assert len(table.to_act()) == 1
    ids = [c["custom_id"] for m in fake.messages_in(CHANNEL) for c in sight.components(m)
           if c.get("custom_id")]
    assert any(i.split(":", 3)[-1].startswith("lock") for i in ids)
    assert not [i for i in ids if "/" in i]
