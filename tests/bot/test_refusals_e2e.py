"""Refusals through the loopback Discord: raised in a slash command (wrapped by discord.py in its
CommandInvokeError) or in a click, each is answered by the one handler (bot/ui/refusals.py), ephemeral, with the
sentence players saw before refusals had kinds, in the member's language."""

import logging

import pytest

import bot.ui.refusals
from bot.table.refusals import Refusal
from playground.fake_discord import snapshot
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, MOD
from tests.bot.test_geek_out_e2e import board, last_ephemeral, lobby, start_game


@pytest.fixture
def answered(monkeypatch) -> list[Refusal]:
    """The kinds of the refusals the one handler answered, in order."""
    kinds: list[Refusal] = []
    answer = bot.ui.refusals.answer

    async def spy(interaction, refusal):
        kinds.append(refusal.kind)
        await answer(interaction, refusal)

    monkeypatch.setattr(bot.ui.refusals, "answer", spy)
    return kinds


def link(fake, message) -> str:
    return f"https://discord.com/channels/{fake.guild_id}/{CHANNEL}/{message['id']}"


async def test_play_in_a_busy_channel_is_refused_by_the_one_handler(fake, runner, answered, caplog):
    await fake.slash(ANA, CHANNEL, "play", "geek-out")
    waiting = lobby(fake)
    caplog.set_level(logging.INFO)
    it = await fake.slash(BO, CHANNEL, "play", "geek-out")
    assert it.acked == 4  # the refusal answers the command itself (an ephemeral message)
    assert [sight.content(m) for m in fake.replies_to(it)] == [
        f"A game of Geek Out! Masters is already waiting in its lobby in this channel: {link(fake, waiting)}"]
    assert answered == [Refusal.CHANNEL_BUSY]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]  # a refusal, not a failure
    fake.locales[BO] = "de"  # the member's own language
    await fake.slash(BO, CHANNEL, "play", "geek-out")
    assert last_ephemeral(fake, BO) == (
        f"In diesem Kanal wartet schon eine Partie Geek Out! Masters in ihrer Lobby: {link(fake, waiting)}")
    assert answered == [Refusal.CHANNEL_BUSY] * 2


async def test_game_and_mod_commands_without_a_game_are_refused_by_the_one_handler(fake, runner, answered):
    await fake.slash(ANA, CHANNEL, "game", "leave")
    assert last_ephemeral(fake, ANA) == "There is no game in this channel. Start one with /play."
    await fake.slash(MOD, CHANNEL, "mod", "end", reason="spam")
    assert last_ephemeral(fake, MOD) == "There is no game in this channel. Start one with /play."
    await start_game(fake)
    await fake.slash(MOD, CHANNEL, "mod", "remove", player=MOD)
    assert last_ephemeral(fake, MOD) == "That user is not playing at this table."
    assert answered == [Refusal.NO_GAME, Refusal.NO_GAME, Refusal.NOT_A_PLAYER]


async def test_clicks_are_refused_by_the_one_handler(fake, runner, answered):
    await fake.slash(ANA, CHANNEL, "play", "geek-out")
    lob = lobby(fake)
    await fake.click(ANA, lob, "Join")
    assert last_ephemeral(fake, ANA) == "You are already seated at this table."
    await fake.click(BO, lob, "Join")
    before = snapshot(lobby(fake))  # a screen that had not refreshed yet
    await fake.click(ANA, lob, "Start")
    old = snapshot(board(fake))
    await fake.click(ANA, before, "Join")
    assert last_ephemeral(fake, ANA) == "This game has already started."
    not_to_act = BO if "**Ana**" in sight.description(old) else ANA
    first = next(c for c in sight.components(old) if c.get("label"))
    await fake.click(not_to_act, old, first["label"])
    assert last_ephemeral(fake, not_to_act).startswith("It is not your turn: waiting for ")
    to_act = ANA if not_to_act == BO else BO
    await fake.click(to_act, old, first["label"])  # a move: the screen `old` is outdated from here on
    await fake.click(to_act, old, first["label"])
    assert last_ephemeral(fake, to_act) == (
        "That board was out of date: it changed before your click arrived. Have another look.")
    assert answered == [Refusal.ALREADY_SEATED, Refusal.LOBBY_CLOSED, Refusal.NOT_YOUR_TURN, Refusal.STALE]
