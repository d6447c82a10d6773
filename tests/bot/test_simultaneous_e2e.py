"""Simultaneous play through the real discord.py client and the fake Discord: in Globe Twister's programming
every player acts in their own panel at once. Clicks sent within the same millisecond (built from the
screens the players saw, then put on the gateway back to back) must all be played: each seat's buttons carry
a token of its own choices, so another seat's move never makes them out of date."""

from playground.fake_discord import snapshot
from tests.bot.conftest import ANA, BO, CHANNEL, CY

PLAYERS = (ANA, BO, CY)
ROUNDS = 100


def board(fake):
    return [m for m in fake.messages_in(CHANNEL) if m["attachments"] and m["embeds"]][-1]


def panel(fake, user):
    return [m for m in fake.ephemerals(user) if m["attachments"]][-1]


def custom_id(message, key):
    """The custom_id of ``message``'s button whose action key is ``key`` (gt:<table>:<version>:<key>[/token])."""
    [found] = [c["custom_id"] for r in message["components"] for c in r["components"]
               if c.get("custom_id", "").split(":", 3)[-1].split("/")[0] == key]
    return found


def refusals(fake, user):
    """The sentences (messages of their own, not a panel's note) telling the user a click was out of date."""
    return [m["content"] for m in fake.ephemerals(user) if "out of date" in m["content"] and not m["attachments"]]


async def start(fake, players, **options):
    await fake.slash(players[0], CHANNEL, "play", "globe-twister", **options)
    lobby = fake.messages_in(CHANNEL)[-1]
    for p in players[1:]:
        await fake.click(p, lobby, "Join")
    await fake.click(players[0], lobby, "Start")
    for p in players:
        await fake.click(p, board(fake), "My program")


async def test_clicks_of_three_players_in_the_same_millisecond_are_all_played_a_hundred_times(fake, runner):
    await start(fake, PLAYERS)
    table = await runner.bot.service.in_channel(CHANNEL)
    seat = {p["id"]: i for i, p in enumerate(table.players)}
    assert table.to_act() == [0, 1, 2]
    played = len(await runner.bot.store.actions(table.id))
    for n in range(ROUNDS):
        # every player picks a cell of their own program at the same moment, then takes it back together
        key = f"c{n % 9}" if n % 2 == 0 else "back"
        screens = {u: snapshot(panel(fake, u)) for u in PLAYERS}
        await fake.interact_together([(u, screens[u], custom_id(screens[u], key)) for u in PLAYERS])
        steps = table.state["steps"]
        expected = {"cell": n % 9} if key != "back" else None
        assert [steps[seat[u]] for u in PLAYERS] == [expected] * 3, f"round {n}: {steps}"
        assert not any(refusals(fake, u) for u in PLAYERS), f"round {n}"
    assert len(await runner.bot.store.actions(table.id)) == played + 3 * ROUNDS
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
    assert "doesn't belong to any game" in fake.ephemerals(ANA)[-1]["content"]
    table = await runner.bot.service.in_channel(CHANNEL)
    assert table.state["steps"][[p["id"] for p in table.players].index(ANA)] is None
