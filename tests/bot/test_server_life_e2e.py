"""Issue 18 as one story through the real discord.py client and the loopback Discord: a game to its end, Rematch,
a second game, /leaderboard and /stats changed accordingly, /history lists both, /replay posts the animation and
the move list, /privacy delete, and the member is gone from the leaderboard and anonymised in history."""

import io

import pytest
from PIL import Image

from bot.store import FORMER_PLAYER
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL
from tests.bot.harness import BotRunner
from tests.bot.test_records_e2e import history_text
from tests.bot.test_rematch_e2e import boards, labels, lobby, open_table, play_to_the_end


@pytest.fixture
async def quick(fake, database):
    r = BotRunner(fake, database, computer_pause=0.1)
    await r.start()
    yield r
    await r.stop()


def reply(fake, it) -> dict:
    [message] = fake.replies_to(it)
    return message


async def rated(runner, fake, user) -> tuple[int, int]:
    """(rating, rated games) of ``user`` in Geek Out! on this server."""
    [stats] = await runner.bot.store.stats(fake.guild_id, user)
    return stats.rating, stats.games


async def test_two_games_a_rematch_records_a_replay_and_a_deletion(fake, quick):
    store = quick.bot.store
    await open_table(fake, turns=1)
    await fake.click(ANA, lobby(fake), "Start")
    await play_to_the_end(fake, 0)
    first_board = boards(fake)[-1]
    after_one = {u: await rated(quick, fake, u) for u in (ANA, BO)}
    assert [games for _, games in after_one.values()] == [1, 1]

    # Rematch: Bo asks, Ana takes her kept seat with one click, the second game plays to its end
    await fake.click(BO, first_board, "Rematch")
    await fake.click(ANA, lobby(fake), "Join")
    await fake.click(BO, lobby(fake), "Start")
    await play_to_the_end(fake, 1)
    second_board = boards(fake)[-1]
    assert "Rematch" in labels(second_board)
    after_two = {u: await rated(quick, fake, u) for u in (ANA, BO)}
    assert [games for _, games in after_two.values()] == [2, 2]

    # the leaderboard and the stats say so
    it = await fake.slash(ANA, CHANNEL, "leaderboard", game="geek_out")
    message = reply(fake, it)
    assert sight.title(message) == "Geek Out! Masters: leaderboard", message
    assert sight.description(message) == "2 players are rated in this game here.", sight.description(message)
    assert Image.open(io.BytesIO(fake.files[int(message["attachments"][0]["id"])])).format == "PNG"
    it = await fake.slash(BO, CHANNEL, "stats", member=ANA)
    assert f"rating **{after_two[ANA][0]}**" in sight.content(reply(fake, it)) and "2 rated games" in sight.content(reply(
        fake, it)), sight.content(reply(fake, it))

    # /history lists both games, newest first, each with its short id and its final board
    newest, oldest = await store.history(fake.guild_id, CHANNEL)
    await fake.slash(BO, CHANNEL, "history")
    listed = history_text(fake, BO)
    assert listed.index(f"`#{newest.short_id}`") < listed.index(f"`#{oldest.short_id}`"), listed
    for board in (second_board, first_board):
        assert f"/{CHANNEL}/{board['id']})" in listed, listed

    # /replay of the second game: an animated GIF and the move list
    it = await fake.slash(BO, CHANNEL, "replay", id=newest.short_id)
    post = reply(fake, it)
    files = {a["filename"]: fake.files[int(a["id"])] for a in post["attachments"]}
    gif = Image.open(io.BytesIO(files[f"replay-{newest.short_id}.gif"]))
    assert gif.format == "GIF" and gif.n_frames >= 3
    moves = files[f"moves-{newest.short_id}.txt"].decode()
    assert "Ana" in moves and "Bo" in moves

    # Ana deletes her data: gone from the leaderboard, anonymised in history and the replay's move list
    await fake.slash(ANA, CHANNEL, "privacy", "delete")
    await fake.click(ANA, fake.ephemerals(ANA)[-1], "Yes, delete my data")
    it = await fake.slash(BO, CHANNEL, "leaderboard", game="geek_out")
    assert sight.description(reply(fake, it)) == "1 player is rated in this game here."
    board_now = await store.leaderboard(fake.guild_id, "geek_out", around_user=ANA)
    assert [r.name for r in board_now.rows] == ["Bo"] and board_now.own is None
    await fake.slash(BO, CHANNEL, "history")
    listed = history_text(fake, BO)
    assert listed.count(f"{FORMER_PLAYER}, Bo;") == 2 and "Ana" not in listed, listed
    it = await fake.slash(BO, CHANNEL, "replay", id=oldest.short_id)
    moves = next(fake.files[int(a["id"])] for a in reply(fake, it)["attachments"] if a["filename"].endswith(".txt"))
    assert FORMER_PLAYER in moves.decode() and "Ana" not in moves.decode()
    assert await rated(quick, fake, BO) == after_two[BO]  # the others' figures stay as they were
    assert not fake.rejections
