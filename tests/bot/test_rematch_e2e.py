"""Rematch (issue 18, item 1) through the real discord.py client and the loopback Discord: a game to its end, the
final board's Rematch button, a new lobby with the same seats (computer seats too), options and takeover switch
and a new seed, the other player back in one click, the second game to its end; the refusals, each a short
sentence that changes nothing; a kept seat that yields when the table is full; a button from before a restart."""

import re

import pytest

from bot.ui import keys
from games.ai import STRENGTHS
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY, MOD
from tests.bot.harness import BotRunner

PAUSE = 0.1
"""A short pause between computer moves, so whole games fit in a test."""
NAMES = {ANA: "Ana", BO: "Bo", CY: "Cy"}


@pytest.fixture
async def quick(fake, database):
    r = BotRunner(fake, database, computer_pause=PAUSE)
    await r.start()
    yield r
    await r.stop()


def comps(message) -> list[dict]:
    return sight.components(message)


def labels(message) -> list[str]:
    return [c.get("label") or c.get("placeholder") for c in comps(message)]


def boards(fake) -> list[dict]:
    return sight.boards(fake, CHANNEL)


def lobby(fake) -> dict:
    return sight.lobby(fake, CHANNEL)


def described(message) -> str:
    return sight.description(message)


def finished(fake) -> int:
    return sum("final standings" in sight.content(m) for m in fake.messages_in(CHANNEL))


def last_ephemeral(fake, user) -> str:
    return sight.content(fake.ephemerals(user)[-1])


def to_act(message) -> list[str]:
    line = re.search(r"To act: (.*)", described(message) or "")
    return re.findall(r"\*\*([^*]+)\*\*", line.group(1)) if line else []


def key_id(message, key: str) -> str:
    """A forged click's custom_id for ``key`` on the table and version of ``message``'s components."""
    what = next(w for c in comps(message) if isinstance(w := keys.decode(c.get("custom_id", "")),
                                                          keys.Move | keys.Utility))
    return keys.encode(keys.Utility(what.table, what.version, *keys.split_utility(key)))


async def play_to_the_end(fake, games_before: int) -> None:
    """Clicks the people's moves (passing where they can) until the game's standings are posted; computers move
    by themselves meanwhile."""
    names = {v: k for k, v in NAMES.items()}
    for _ in range(400):
        await fake.wait_until(lambda: finished(fake) > games_before or any(
            n in names for n in to_act(boards(fake)[-1])), what="a person's turn or the end")
        if finished(fake) > games_before:
            return
        b = boards(fake)[-1]
        who = names[next(n for n in to_act(b) if n in names)]
        choices = [c["label"] for c in comps(b) if c["type"] == 2 and c["label"] not in ("Rules", "Back")]
        pick = next((c for p in ("Pass", "Continue") for c in choices if c.startswith(p)), choices[0])
        await fake.click(who, b, pick)
    raise AssertionError("the game did not end")


async def open_table(fake, players=(ANA, BO), *, computers=(), takeover=True, **options):
    await fake.slash(players[0], CHANNEL, "play", "geek-out", **options)
    for p in players[1:]:
        await fake.click(p, lobby(fake), "Join")
    for strength in computers:
        await fake.select(players[0], lobby(fake), f"computer.{strength}")
    if not takeover:
        await fake.click(players[0], lobby(fake), "Computer takes a leaver's seat: on")


async def stored_open(runner):
    row = await runner.bot.store.open_table_in(CHANNEL)
    return await runner.bot.store.get_table(row.id) if row else None


async def test_rematch_keeps_seats_and_options_with_a_new_seed_and_a_second_game_plays_to_its_end(fake, quick):
    await open_table(fake, computers=["strong"], takeover=False, turns=1)
    first = await stored_open(quick)
    await fake.click(ANA, lobby(fake), "Start")
    await play_to_the_end(fake, 0)
    final = boards(fake)[-1]
    assert labels(final) == ["Rematch"] and not fake.rejections

    await fake.click(BO, final, "Rematch")  # Bo asks: he is the host, seated in his own seat; Ana's seat is kept
    assert "Rematch! A new Geek Out" in last_ephemeral(fake, BO) and "kept for Ana" in last_ephemeral(fake, BO)
    second = await stored_open(quick)
    assert second.id != first.id and second.status == "lobby" and second.game == first.game
    assert second.options == first.options and second.options["turns"] == 1
    assert second.takeover is False and second.seed != first.seed and second.host_id == BO
    assert [(p["id"], p.get("invited", False)) for p in second.players[:2]] == [(ANA, True), (BO, False)]
    assert second.players[2]["computer"] == "strong" and second.players[2]["id"] < 0
    shown = described(lobby(fake))
    assert "**Rematch**: waiting for <@101>" in shown and "2/8 seated" in shown, shown
    assert "1. <@101> · seat kept: press **Join**" in shown and "2. <@102> (host)" in shown, shown
    assert "Computer takes a leaver's seat: off" in labels(lobby(fake))
    call = fake.messages_in(CHANNEL)[-1]
    assert sight.content(call).startswith("🔁 <@101>: Bo asked for a rematch of **Geek Out") and str(lobby(fake)["id"]) in \
        sight.content(call)
    assert (ANA, int(call["id"])) in fake.notifications  # Ana is called back once, by a real mention

    await fake.click(BO, final, "Rematch")  # the lobby is open: a link to it, nothing else
    assert last_ephemeral(fake, BO).startswith("A game of Geek Out") and "waiting in its lobby" in \
        last_ephemeral(fake, BO) and str(lobby(fake)["id"]) in last_ephemeral(fake, BO)
    assert (await stored_open(quick)).id == second.id

    await fake.click(ANA, lobby(fake), "Join")  # one click: back in her own seat
    back = await stored_open(quick)
    assert [p["id"] for p in back.players[:2]] == [ANA, BO] and not any(p.get("invited") for p in back.players)
    assert "Ana took their seat again." in described(lobby(fake)) and "waiting for" not in described(lobby(fake))
    await fake.click(BO, lobby(fake), "Start")
    await play_to_the_end(fake, 1)
    results = await quick.bot.store.results(fake.guild_id)
    assert [r["table_id"] for r in results] == [first.id, second.id]
    assert [p.get("computer") for p in results[1]["standings"]["players"]] == [None, None, "strong"]

    await fake.click(ANA, final, "Rematch")  # the first game's board, after a newer game
    assert last_ephemeral(fake, ANA).startswith("A newer game has been played in this channel since this one")
    assert str(boards(fake)[-1]["id"]) in last_ephemeral(fake, ANA)
    assert await stored_open(quick) is None
    assert not fake.rejections


async def test_refusals_change_nothing(fake, runner):
    await open_table(fake, takeover=False, turns=1)
    await fake.click(ANA, lobby(fake), "Start")
    playing = boards(fake)[-1]
    await fake.click_forged(ANA, playing, key_id(playing, "rematch"))
    assert last_ephemeral(fake, ANA) == "This game is not over yet: a rematch comes after its end."
    await fake.slash(BO, CHANNEL, "game", "leave")  # ended by a departure: Ana wins by default, and may rematch
    final = boards(fake)[-1]
    assert "ended early" in described(final) and labels(final) == ["Rematch"]

    await fake.click(CY, final, "Rematch")
    assert last_ephemeral(fake, CY) == "Only the players of this game can ask for its rematch. /play opens a new table."
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="forbid", channel=CHANNEL)
    await fake.click(ANA, final, "Rematch")
    assert last_ephemeral(fake, ANA).startswith("Games can't be started in this channel.")
    assert await runner.bot.store.open_table_in(CHANNEL) is None
    await fake.slash(MOD, CHANNEL, "mod", "channels", action="everywhere")

    await fake.click(BO, final, "Rematch")  # Bo left, but he played it: his seat was his
    assert "Rematch!" in last_ephemeral(fake, BO)
    await fake.click(BO, lobby(fake), "Start")  # starts without Ana (Geek Out seats one player)
    b = boards(fake)[-1]
    assert "The game begins without Ana." in described(b), described(b)
    rematch = key_id(b, "rematch")
    await fake.slash(MOD, CHANNEL, "mod", "end", reason="closing")  # a moderator's end: no rematch
    closed = boards(fake)[-1]
    assert sight.components(closed) == []
    await fake.click_forged(BO, closed, rematch)
    assert last_ephemeral(fake, BO) == ("This game was closed before its end, so it has no rematch. /play opens a "
                                        "new table.")
    await fake.click_forged(BO, closed, "gt:999999:1:rematch")
    assert last_ephemeral(fake, BO) == "This board is gone: there is no such game."
    assert await runner.bot.store.open_table_in(CHANNEL) is None and not fake.rejections


async def test_a_kept_seat_yields_when_the_table_is_full_and_the_button_survives_a_restart(fake, runner):
    await open_table(fake, takeover=True, turns=1)
    await fake.click(ANA, lobby(fake), "Start")
    await fake.slash(BO, CHANNEL, "game", "leave")  # a computer plays Bo's seat to the end
    await play_to_the_end(fake, 0)
    final = boards(fake)[-1]
    assert "Rematch" in labels(final)

    await runner.restart()  # the button is a DynamicItem: it works after a restart
    await fake.click(ANA, final, "Rematch")
    row = await stored_open(runner)
    # Bo's seat, played by "Computer for Bo" at the end, is his again (kept), not a computer's
    assert [(p["id"], p.get("invited", False), p.get("computer")) for p in row.players] == [
        (ANA, False, None), (BO, True, None)]
    for strength in STRENGTHS + STRENGTHS:  # six computers take the six free seats
        await fake.select(ANA, lobby(fake), f"computer.{strength}")
    assert len((await stored_open(runner)).players) == 8 and "waiting for <@102>" in described(lobby(fake))
    await fake.select(ANA, lobby(fake), "computer.normal")  # no free seat left: Bo's kept seat yields
    row = await stored_open(runner)
    assert len(row.players) == 8 and row.players[1]["computer"] == "normal"
    assert "Ana added Computer 3 (normal) in the seat kept for Bo." in described(lobby(fake))
    assert "waiting for" not in described(lobby(fake))
    assert not [c for c in comps(lobby(fake)) if c["type"] == 3 and c["custom_id"].endswith(":computer")]  # full: no menu to add a computer
    await fake.click(BO, lobby(fake), "Join")
    assert last_ephemeral(fake, BO) == "The table is full (8 players)."
    await fake.click(ANA, lobby(fake), "Remove Computer (easy)")
    await fake.click(CY, lobby(fake), "Join")  # anyone may take a free seat
    assert [p["id"] for p in (await stored_open(runner)).players][-1] == CY
    assert not fake.rejections


async def test_a_kept_seat_can_be_given_up_and_a_lobby_that_closed_unstarted_blocks_no_rematch(fake, runner):
    await open_table(fake, takeover=False, turns=1)
    await fake.click(ANA, lobby(fake), "Start")
    await fake.slash(BO, CHANNEL, "game", "leave")
    final = boards(fake)[-1]
    await fake.click(ANA, final, "Rematch")
    await fake.click(BO, lobby(fake), "Leave")  # Bo does not want to play again
    assert "Bo gave up their kept seat." in described(lobby(fake))
    assert [p["id"] for p in (await stored_open(runner)).players] == [ANA]
    await fake.click(BO, lobby(fake), "Leave")
    assert last_ephemeral(fake, BO) == "You are not seated at this table."
    await fake.click(ANA, lobby(fake), "Leave")  # the host goes: the lobby closes, no game was played
    assert await stored_open(runner) is None
    await fake.click(ANA, final, "Rematch")  # so the finished game is still the channel's latest: a new rematch
    again = await stored_open(runner)
    assert again is not None and [(p["id"], p.get("invited", False)) for p in again.players] == [
        (ANA, False), (BO, True)]
    assert not fake.rejections


async def test_a_rematch_keeps_no_seat_for_players_who_deleted_their_data(fake, quick):
    await open_table(fake, players=(ANA, BO, CY), turns=1)
    await fake.click(ANA, lobby(fake), "Start")
    await play_to_the_end(fake, 0)
    final = boards(fake)[-1]
    for who in (BO, CY):  # their seats in the stored game now name a Former player (id 0)
        await fake.slash(who, CHANNEL, "privacy", "delete")
        await fake.click(who, fake.ephemerals(who)[-1], "Yes, delete my data")
    await fake.click(ANA, final, "Rematch")
    reply = last_ephemeral(fake, ANA)
    assert "Rematch! A new Geek Out" in reply and "kept" not in reply and "Former player" not in reply, reply
    second = await stored_open(quick)
    assert [p["id"] for p in second.players] == [ANA] and second.host_id == ANA
    shown = described(lobby(fake))
    assert "<@0>" not in shown and "seat kept" not in shown and "waiting for" not in shown, shown
    assert "<@0>" not in sight.content(fake.messages_in(CHANNEL)[-1])
    assert not any(user == 0 for user, _ in fake.notifications)
    await fake.click(BO, lobby(fake), "Join")  # the seat is simply free: anyone may take it
    await fake.click(ANA, lobby(fake), "Start")
    b = boards(fake)[-1]
    assert "begins without" not in described(b) and "Former player" not in described(b), described(b)
    assert not fake.rejections


async def test_two_players_asking_for_a_rematch_at_once_open_one_lobby_and_the_second_gets_its_link(fake, runner):
    await open_table(fake, takeover=False, turns=1)
    await fake.click(ANA, lobby(fake), "Start")
    await fake.slash(BO, CHANNEL, "game", "leave")  # Ana wins by default: the game is finished
    final = boards(fake)[-1]
    rematch = fake.find_component(final, label="Rematch", kind=2)["custom_id"]
    await fake.interact_together([(ANA, final, rematch), (BO, final, rematch)])
    opened = await stored_open(runner)
    answers = {who: last_ephemeral(fake, who) for who in (ANA, BO)}
    first = next(who for who, text in answers.items() if text.startswith("Rematch!"))
    second = BO if first == ANA else ANA
    assert opened.host_id == first
    link = f"https://discord.com/channels/{fake.guild_id}/{CHANNEL}/{lobby(fake)['id']}"
    assert answers[second] == f"A game of Geek Out! Masters is already waiting in its lobby in this channel: {link}"
    assert not fake.rejections
