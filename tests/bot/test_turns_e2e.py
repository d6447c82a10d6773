"""/turns through the real discord.py client and the loopback Discord (issue 27): five tables of different games
in five channels (one where Ana sits but Bo is to act, one simultaneous stage of Globe Twister, one she does not
sit at, one finished); each member sees the tables where they are to act, soonest deadline first, with the game,
opponents, time left and a jump link to the board; a member with none gets one sentence; /help names /turns."""

import pytest

from bot.cogs.turns import ROOM, turns_text
from bot.store import Turn
from playground.fake_discord import FakeDiscord
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CY, MOD
from tests.bot.test_geek_out_e2e import DICE_MOVES, play_one

NAMES = {ANA: "Ana", BO: "Bo", CY: "Cy"}
TABLES = {600: ("geek-out", (ANA, BO)), 601: ("geoneo", (ANA, CY)), 602: ("globe-twister", (ANA, BO)),
          603: ("geomancy", (BO, CY)), 604: ("geodeto", (ANA, BO))}
TITLES = {"geek-out": "Geek Out! Masters", "geoneo": "GEONEO", "globe-twister": "Globe Twister",
          "geomancy": "Geomancy", "geodeto": "Geodeto"}


@pytest.fixture
async def fake():
    f = FakeDiscord(channels=tuple(TABLES), threads=())
    await f.start()
    for user, name in [*NAMES.items(), (MOD, "Mo")]:
        f.add_user(user, name, moderator=user == MOD)
    yield f
    await f.stop()
    f.assert_spec_kept()


async def open_table(fake, channel, takeover=True):
    """``takeover=False``: a player who leaves ends a two-player game (no computer takes the seat)."""
    game, players = TABLES[channel]
    await fake.slash(players[0], channel, "play", game)
    lobby = sight.lobby(fake, channel)
    for p in players[1:]:
        await fake.click(p, lobby, "Join")
    if not takeover:
        table, version = sight.components(lobby)[0]["custom_id"].split(":")[1:3]
        await fake.click_forged(players[0], lobby, f"gt:{table}:{version}:takeover.off")
    await fake.click(players[0], lobby, "Start")


async def people_to_act(runner, channel) -> set[int]:
    table = await runner.bot.service.in_channel(channel)
    return {table.players[s]["id"] for s in table.to_act()}


async def answer(fake, user) -> str:
    """The member's /turns answer: a screen's words, or its one sentence."""
    await fake.slash(user, 600, "turns")
    return sight.words(fake.ephemerals(user)[-1])


async def test_turns_across_five_tables(fake, runner):
    for channel in TABLES:
        await open_table(fake, channel, takeover=channel != 604)
    for _ in range(60):  # Geek Out: played on until it is Bo's turn, not Ana's
        if ANA not in await people_to_act(runner, 600):
            break
        await play_one(fake, 600, prefer=("Pass", "Continue") + DICE_MOVES)
    assert await people_to_act(runner, 600) == {BO}
    assert await people_to_act(runner, 602) == {ANA, BO}  # Globe Twister: everyone at once
    await fake.slash(BO, 604, "game", "leave")  # Geodeto: Ana is left alone, the game is over
    assert (await runner.bot.store.open_table_in(604)) is None
    assert [g.table_id for g in await runner.bot.store.history(fake.guild_id, 604)] != []  # finished, with a result

    store, guild = runner.bot.store, fake.guild_id
    for user in (ANA, BO, CY):
        theirs = [c for c in (600, 601, 602, 603) if user in await people_to_act(runner, c)]
        if not theirs:  # (Cy, when both his games start with the other player)
            assert await answer(fake, user) == "It's not your turn at any table on this server."
            continue
        due = {c: await store.deadline((await runner.bot.service.in_channel(c)).id, "turn") for c in theirs}
        text = await answer(fake, user)
        n = len(theirs)
        assert text.startswith(f"## Your turn at {n} table{'s' if n > 1 else ''}"), text
        lines = [line for line in text.splitlines() if line.startswith("- ")]
        assert len(lines) == n, text
        for line, channel in zip(lines, sorted(theirs, key=lambda c: (due[c], c)), strict=True):
            game, players = TABLES[channel]
            board = sight.board(fake, channel)
            others = ", ".join(NAMES[p] for p in players if p != user)
            assert line.startswith(f"- **{TITLES[game]}** in <#{channel}> with {others} · "), line
            assert f"time runs out <t:{int(due[channel])}:R>" in line, line
            assert line.endswith(f"· [board](https://discord.com/channels/{guild}/{channel}/{board['id']})"), line
        assert "<#604>" not in text  # the finished table waits for nobody
    ana = await answer(fake, ANA)
    assert "<#600>" not in ana and "<#603>" not in ana and "<#602>" in ana  # Bo's turn; not her table; hers
    assert "<#600>" in await answer(fake, BO)

    await fake.slash(MOD, 600, "turns")
    assert sight.content(fake.ephemerals(MOD)[-1]) == "It's not your turn at any table on this server."
    await fake.slash(CY, 600, "help")
    assert "`/turns` lists every table of this server where it's your turn" in sight.words(fake.ephemerals(CY)[-1])
    assert not fake.rejections


def test_a_long_list_keeps_to_a_screens_room_and_counts_the_rest():
    found = [Turn(n, "geoneo", 600 + n, 9000 + n, [{"id": ANA, "name": "Ana"}, {"id": BO, "name": "B" * 30}], 1e9 + n)
             for n in range(200)]
    text = turns_text(500, ANA, found, "en")
    assert len(text) <= ROOM and text.splitlines()[-1].startswith("…and ") and text.endswith(" more tables.")
    shown = len(text.splitlines()) - 1
    assert text.splitlines()[-1] == f"…and {200 - shown} more tables."
    assert "with Bo" not in text and f"with {'B' * 30}" in text
    assert turns_text(500, ANA, found[:1], "de").startswith("- **GEONEO** in <#600> mit ")
