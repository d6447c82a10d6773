"""/leaderboard, /stats and /history through the real discord.py client and the loopback Discord (issue 18,
items 2 and 3): a two-person game to its end moves the ratings the commands show; a second game, which Bo leaves
with the takeover option on (a computer plays his seat to the end), is still rated and changes them again."""

import io
import re

import pytest
from PIL import Image

from render.common import PHONE_CANVAS
from render.records import render_leaderboard
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY
from tests.bot.harness import BotRunner
from tests.bot.test_geek_out_e2e import DICE_MOVES, board, labels, last_ephemeral, start_game

PASSIVE = ("Pass", "Continue") + DICE_MOVES
KEEN = DICE_MOVES + ("Pass",)
"""Ana uses her dice before she banks, Bo passes at once (either may win, or they share the victory)."""


@pytest.fixture
async def quick(fake, database):
    """The bot with a short computer pause (the second game's computer plays Bo's seat)."""
    r = BotRunner(fake, database, computer_pause=0.05)
    await r.start()
    yield r
    await r.stop()


def finished(fake) -> int:
    return sum("final standings" in sight.content(m) for m in fake.messages_in(CHANNEL))


def to_act_names(message) -> list[str]:
    line = re.search(r"To act: (.*)", sight.description(message) or "")
    return re.findall(r"\*\*([^*]+)\*\*", line.group(1)) if line else []


async def play_to_the_end(fake, people: dict[str, int], keen=("Ana",)) -> dict:
    """Plays every person's turn (a computer's are its own) until the game's standings are posted; returns the
    final board."""
    before = finished(fake)
    for _ in range(2000):
        await fake.wait_until(lambda: finished(fake) > before or set(to_act_names(board(fake))) & set(people),
                              what="a person's turn or the end")
        if finished(fake) > before:
            return board(fake)
        b = board(fake)
        who = people[next(n for n in to_act_names(b) if n in people)]
        names = [x for x in labels(b) if x and x != "Rules"]
        prefer = KEEN if who in [people[n] for n in keen] else PASSIVE
        await fake.click(who, b, next((n for p in prefer for n in names if n.startswith(p)), names[-1]))
    raise AssertionError("the game did not end")


def reply(fake, it) -> dict:
    [message] = fake.replies_to(it)
    return message


def image_of(fake, message) -> bytes:
    return fake.files[int(message["attachments"][0]["id"])]


async def check_leaderboard(fake, runner, asker: int, rated: int) -> None:
    """/leaderboard geek-out: public, the image drawn from the store's figures (the same PNG the renderer makes
    of them), the asker's row marked."""
    it = await fake.slash(asker, CHANNEL, "leaderboard", game="geek_out")
    message = reply(fake, it)
    assert message in fake.messages_in(CHANNEL), "the leaderboard is posted for the server to see"
    assert sight.is_v2(message) and sight.title(message) == "Geek Out! Masters: leaderboard", message
    assert sight.description(message).startswith(f"{rated} players are rated in this game here."), message
    assert message["attachments"][0]["filename"] == "leaderboard.png"
    assert sight.image_refs(message) == ["attachment://leaderboard.png"]  # in the screen's gallery
    board_ = await runner.bot.store.leaderboard(fake.guild_id, "geek_out", 10, asker)
    rows = [{"rank": r.rank, "user_id": r.user_id, "name": r.name, "rating": r.rating, "games": r.games,
             "wins": r.wins} for r in board_.rows]
    own = next(r for r in rows if r["user_id"] == asker)
    assert image_of(fake, message) == render_leaderboard("Geek Out! Masters", rows, own, rated, asker)
    assert Image.open(io.BytesIO(image_of(fake, message))).size[0] == PHONE_CANVAS  # drawn for the phone (docs/rendering.md)


async def figures(runner, fake, user) -> tuple[int, int, int]:
    [stats] = await runner.bot.store.stats(fake.guild_id, user)
    return stats.rating, stats.games, stats.wins


async def test_a_game_then_another_move_the_leaderboard_stats_and_history(fake, quick):
    it = await fake.slash(ANA, CHANNEL, "leaderboard", game="geek_out")
    assert sight.content(reply(fake, it)).startswith("Nobody is rated in Geek Out! Masters on this server yet")
    assert not reply(fake, it)["attachments"]
    await fake.slash(ANA, CHANNEL, "history")
    assert last_ephemeral(fake, ANA) == "No game has finished in this channel yet."

    # the first game, to its end
    await start_game(fake)
    first = await play_to_the_end(fake, {"Ana": ANA, "Bo": BO})
    ana, bo = await figures(quick, fake, ANA), await figures(quick, fake, BO)
    [result] = await quick.bot.store.results(fake.guild_id)
    winners = {result["standings"]["players"][s]["id"] for s in result["standings"]["ranking"][0]}
    assert (ana[1], ana[2], bo[1], bo[2]) == (1, int(ANA in winners), 1, int(BO in winners)), (ana, bo, winners)
    assert ana[0] != 1000 and bo[0] != 1000  # a first rated game moves the shown rating
    assert (ana[0] > bo[0], ana[0] == bo[0]) == (winners == {ANA}, winners == {ANA, BO}), (ana, bo, winners)
    await check_leaderboard(fake, quick, ANA, 2)

    it = await fake.slash(BO, CHANNEL, "stats", member=ANA)
    stats = reply(fake, it)
    assert stats in fake.messages_in(CHANNEL)
    assert f"**Geek Out! Masters**: rating **{ana[0]}**, 1 rated game, {ana[2]} win" in sight.content(stats), sight.content(stats)
    assert stats["attachments"][0]["filename"] == "stats.png"
    assert sight.image_refs(stats) == ["attachment://stats.png"]

    [game] = await quick.bot.store.history(fake.guild_id, CHANNEL)
    await fake.slash(CY, CHANNEL, "history")
    text = history_text(fake, CY)
    link = f"https://discord.com/channels/{fake.guild_id}/{CHANNEL}/{first['id']}"
    assert f"`#{game.short_id}`" in text and f"[final board]({link})" in text, text
    assert "**Geek Out! Masters**" in text and "Ana, Bo" in text and "won by **" in text, text

    # the second game: Bo leaves, a computer plays his seat to the end; his departure is a rated loss
    await start_game(fake)
    await fake.slash(BO, CHANNEL, "game", "leave")
    await play_to_the_end(fake, {"Ana": ANA})
    ana2, bo2 = await figures(quick, fake, ANA), await figures(quick, fake, BO)
    assert (ana2[1], ana2[2], bo2[1], bo2[2]) == (2, ana[2] + 1, 2, bo[2]), (ana2, bo2)
    assert ana2[0] > ana[0] and bo2[0] < bo[0]
    await check_leaderboard(fake, quick, BO, 2)
    it = await fake.slash(ANA, CHANNEL, "stats")
    assert f"rating **{ana2[0]}** (+{ana2[0] - ana[0]} last game), 2 rated games" in sight.content(reply(fake, it))

    await fake.slash(ANA, CHANNEL, "history", scope="server")
    text = history_text(fake, ANA)
    newest, oldest = await quick.bot.store.history(fake.guild_id)
    assert text.index(f"`#{newest.short_id}`") < text.index(f"`#{oldest.short_id}`"), text
    assert f"<#{CHANNEL}>" in text, text
    # Bo left: Ana wins, his seat's computer never does (when it outscored her, the line says why)
    assert ("Ana, Computer for Bo; won by **Ana**" in text
            or "Ana, Computer for Bo; **Ana** wins: Bo left (a computer played their seat)." in text), text
    assert not fake.rejections


async def test_stats_of_someone_without_games_and_history_elsewhere(fake, runner):
    it = await fake.slash(ANA, CHANNEL, "stats", member=CY)
    assert sight.content(reply(fake, it)) == "Cy has not finished a game on this server yet."
    await fake.slash(ANA, CHANNEL, "history", scope="server")
    assert last_ephemeral(fake, ANA) == "No game has finished in this server yet."


def history_text(fake, user) -> str:
    """The last /history answer as the member reads it: its title and its lines (a V2 screen's)."""
    message = fake.ephemerals(user)[-1]
    return sight.words(message)


async def store_finished_games(store, guild: int, count: int, players: list[str], first_id: int = 100) -> None:
    """``count`` finished games of ``players`` in the server, each in its own channel, a minute apart (stored as
    a game's last move stores them)."""
    import json

    for k in range(count):
        table_id, channel = first_id + k, 900_000_000_000_000_000 + k
        seated = [{"id": 10**17 + 100 * k + i, "name": name} for i, name in enumerate(players)]
        standings = {"scores": list(range(len(seated), 0, -1)), "ranking": [[s] for s in range(len(seated))],
                     "players": seated, "detail": {}}
        at = 1.7e9 + 60 * k
        await store.execute(
            "INSERT INTO tables (id, guild_id, channel_id, game, options, seed, status, players, host_id, version,"
            " message_id, last_move, created_at, updated_at) VALUES (?, ?, ?, ?, '{}', ?, 'finished', ?, ?, 9, ?,"
            " '', ?, ?)", table_id, guild, channel, "geek_out", table_id, json.dumps(seated), seated[0]["id"],
            1_100_000_000_000_000_000 + k, at - 600, at)
        await store.execute("INSERT INTO results (table_id, guild_id, game, standings, finished_at, channel_id)"
                            " VALUES (?, ?, ?, ?, ?, ?)", table_id, guild, "geek_out", json.dumps(standings), at,
                            channel)


@pytest.mark.parametrize("players", [
    ["Alexandrina", "Bartholomew", "Constantine", "Dorothea"],  # the kind of server: 7 of 10 fitted
    [f"{name} {'x' * (31 - len(name))}" for name in ("Ana", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")],  # 8 x 32
])
async def test_history_shows_the_ten_latest_games_however_long_the_names(fake, runner, players):
    """/history promises the 10 latest games; Discord's 2,000 characters of a message held 9 of them or fewer
    (each line links its final board): the lines are an embed's (4,096), names shortened only when even that is
    too little."""
    await store_finished_games(runner.bot.store, fake.guild_id, 12, players)
    await fake.slash(ANA, CHANNEL, "history", scope="server")
    text = history_text(fake, ANA)
    shown = [int(n) for n in re.findall(r"`#(\d+)`", text)]
    assert shown == list(range(111, 101, -1)), text
    assert text.count("](https://discord.com/channels/") == 10
    assert not fake.rejections
