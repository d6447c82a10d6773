"""The leak check on what the channel sees (issue 19): a server whose language is the pseudo-language "qps"
(every translated vowel accented), a whole game of each of the five games, its lobby, boards, buttons, menus,
standings and announcements, the qps member's own answers, a moderator's /mod end, remove and computer,
/replay's move list and /history. A word of plain ASCII letters in any of it was never translated (player
names, game titles and numbers aside)."""

import json
import re
from pathlib import Path

import pytest

import games.globe_twister
import i18n
from playground.fake_discord import snapshot
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY, MOD
from tests.bot.harness import BotRunner
from tests.bot.test_globe_twister_e2e import click_key as panel_key
from tests.bot.test_globe_twister_e2e import panel
from tests.bot.test_languages_e2e import (
    NAMES,
    UTILITY,
    click_key,
    components,
    key_of,
    lobby,
    standings,
    to_act,
    untranslated,
)

ALLOWED = set(NAMES) | {"GEONEO", "Geodeto", "Geomancy", "Globe", "Twister", "Geek", "Out", "Masters", "Discord", "UTC"}
"""Words that stay as they are in every language: player names, game titles."""


def leaks_in(message) -> list[str]:
    """Each line of the message with a word never translated: "<words> in <line>"."""
    texts = sight.texts(message)
    return [f"{words} in {line!r}" for text in texts if text for line in text.splitlines()
            if (words := untranslated(line, ALLOWED))]


@pytest.fixture
async def pseudo_server(fake, database):
    """A bot in a server whose Discord language is qps, Ana and the moderator reading qps too; every message
    (public or ephemeral) any client was shown, each version of it, is kept in ``fake.shown``."""
    fake.guild_locales[fake.guild_id] = i18n.PSEUDO
    for user in (ANA, MOD):
        fake.locales[user] = i18n.PSEUDO
    fake.shown = []
    fake.observers.append(lambda event, message: fake.shown.append(snapshot(message)) if event == "message"
                          and fake.ephemeral_of.get(int(message["id"]), ANA) in (ANA, MOD) else None)
    r = BotRunner(fake, database, computer_pause=0.01)
    await r.start()
    yield r
    await r.stop()


def boards(fake):
    """The channel's boards (an announcement or a score sheet has an image too, but no embed)."""
    return sight.boards(fake, CHANNEL)


async def move(fake):
    """Ana, to act, makes a move: a public one when the board offers it, else from her panel."""
    b = boards(fake)[-1]
    menus = [c for c in components(b) if c["type"] == 3]
    public = [c for c in components(b) if c["type"] == 2 and key_of(c) not in UTILITY
              and not key_of(c).startswith("overlay.")]
    if menus:
        await fake.select(ANA, b, menus[0]["options"][0]["value"])
    elif public:
        chosen = next((c for c in public if key_of(c) == "p"), public[0])
        await fake.click(ANA, b, custom_id=chosen["custom_id"])
    else:
        await click_key(fake, ANA, b, "hand")
        first = components(fake.ephemerals(ANA)[-1])[0]
        if first["type"] == 3:
            await fake.select(ANA, fake.ephemerals(ANA)[-1], first["options"][0]["value"])
        else:
            await fake.click(ANA, fake.ephemerals(ANA)[-1], custom_id=first["custom_id"])


def all_leaks(fake) -> list[str]:
    return sorted({leak for m in fake.shown for leak in leaks_in(m)})


async def play_with_computers(fake, game, **options):
    """Ana opens ``game`` with computers in the other seats and plays her turns to the standings."""
    await fake.slash(ANA, CHANNEL, "play", game, **options)
    await click_key(fake, ANA, lobby(fake), "join")  # a refusal: already seated
    await click_key(fake, ANA, lobby(fake), "start")
    await click_key(fake, ANA, boards(fake)[-1], "rules")
    for _ in range(800):
        await fake.wait_until(lambda: standings(fake) or to_act(boards(fake)[-1]) == ANA, what="Ana's turn")
        if standings(fake):
            break
        await move(fake)
    assert standings(fake)
    final = [m for m in boards(fake) if any(key_of(c) == "rematch" for c in components(m))][-1]
    await click_key(fake, ANA, final, "rematch")


@pytest.mark.parametrize(("game", "options"), [
    ("geek-out", {"turns": 1, "computers": 1}),
    ("geoneo", {"computers": 1}),
    ("geodeto", {"goals": 1, "computers": 2}),
    ("geomancy", {"computers": 1}),
])
async def test_a_pseudo_language_server_sees_no_unmarked_word_in_a_whole_game(fake, pseudo_server, game, options):
    await play_with_computers(fake, game, **options)
    assert len(fake.shown) > 10
    assert not all_leaks(fake), all_leaks(fake)
    assert not fake.rejections


async def test_a_solo_globe_twister_puzzle_in_a_pseudo_language_server(fake, pseudo_server):
    await fake.slash(ANA, CHANNEL, "play", "globe-twister", puzzle="tourist", number=1)
    await click_key(fake, ANA, lobby(fake), "start")
    shipped = json.loads((Path(games.globe_twister.__file__).parent / "data" / "puzzles.json").read_text())
    await click_key(fake, ANA, boards(fake)[-1], "hand")  # "My program", in qps
    for cell, card, direction in shipped["levels"]["tourist"][0]["solution"][0]:
        for key in (f"c{cell}", f"k{card}", f"d{direction}" if direction else None):
            if key:
                await panel_key(fake, ANA, panel(fake, ANA), key)
    await panel_key(fake, ANA, panel(fake, ANA), "lock")
    assert standings(fake)
    assert not all_leaks(fake), all_leaks(fake)


async def test_moderation_timeouts_replay_and_history_in_a_pseudo_language_server(fake, pseudo_server):
    await fake.slash(ANA, CHANNEL, "play", "geek-out", turns=1)
    for who in (BO, CY):
        await click_key(fake, who, lobby(fake), "join")
    await click_key(fake, ANA, lobby(fake), "start")
    await fake.slash(MOD, CHANNEL, "mod", "computer", player=BO)
    await fake.slash(MOD, CHANNEL, "mod", "remove", player=CY)
    await fake.slash(MOD, CHANNEL, "mod", "end", reason="x")
    await fake.slash(ANA, CHANNEL, "play", "geek-out", turns=2, computers=1)  # her first turn is not the last
    await click_key(fake, ANA, lobby(fake), "start")
    await fake.wait_until(lambda: to_act(boards(fake)[-1]) == ANA, what="Ana's turn")
    clock = pseudo_server.bot.service.clock  # Ana sits idle past the turn timeout: the table plays for her
    pseudo_server.bot.service.clock = lambda: clock() + 3600  # (it stays an hour ahead)
    await fake.wait_until(lambda: any("⏰" in (m.get("content") or "") for m in fake.shown), what="a timeout")
    for _ in range(200):
        await fake.wait_until(lambda: standings(fake) or to_act(boards(fake)[-1]) == ANA, what="Ana's turn")
        if standings(fake):
            break
        await move(fake)
    await fake.slash(ANA, CHANNEL, "history")
    [short_id] = re.findall(r"`#(\d+)`", sight.description(fake.ephemerals(ANA)[-1]))
    await fake.slash(ANA, CHANNEL, "replay", id=short_id)
    files = [fake.files[int(a["id"])] for m in fake.shown for a in m.get("attachments", [])
             if a["filename"].endswith(".txt")]
    assert files, "the replay's move list"
    leaks = all_leaks(fake) + sorted({f"{words} in {line!r}" for f in files for line in f.decode().splitlines()
                                     if (words := untranslated(line, ALLOWED))})
    assert not leaks, leaks
