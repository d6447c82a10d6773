"""/replay through the real discord.py client against the loopback Discord: a finished game posted again as an
animated GIF of its boards and its move list; refusals for ids that have no replay."""

import io

import pytest
from PIL import Image, ImageChops

from bot.store import short_id
from playground.fake_discord import FakeDiscord
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, MOD
from tests.bot.test_geek_out_e2e import DICE_MOVES, board, last_ephemeral, play_one, start_game

OTHER_GUILD, OTHER_CHANNEL = 900, 910


@pytest.fixture
async def fake():
    """The usual loopback Discord with a second server (for another server's id)."""
    f = FakeDiscord()
    f.add_guild(OTHER_GUILD, (OTHER_CHANNEL,))
    await f.start()
    f.add_user(ANA, "Ana")
    f.add_user(BO, "Bo")
    f.add_user(MOD, "Mo", moderator=True)
    yield f
    await f.stop()
    f.assert_spec_kept()


async def finished_game(fake, runner, moves: int = 6) -> str:
    """A Geek Out! game of a few moves that ends when Bo leaves; its short id."""
    await start_game(fake, takeover=False)
    for _ in range(moves):
        await play_one(fake, prefer=("Pass", "Continue") + DICE_MOVES)
    await fake.slash(BO, CHANNEL, "game", "leave")
    [result] = await runner.bot.store.results(fake.guild_id)
    return short_id(result["table_id"])


def pixels(data: bytes, frame: int | None = None) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    if frame is not None:
        image.seek(frame)
    return image.convert("RGB")


async def test_replay_posts_an_animated_gif_ending_on_the_final_board_and_the_move_list(fake, runner):
    game = await finished_game(fake, runner)
    final_board = fake.files[int(board(fake)["attachments"][0]["id"])]
    [shown] = [t for t, _d, _f in sight.pages(board(fake))]
    assert shown.endswith(f"· table {game}")  # the id /history and /replay use is the board's table number
    it = await fake.slash(ANA, CHANNEL, "replay", id=f"#{game}")
    [post] = fake.replies_to(it)
    assert int(post["id"]) not in fake.ephemeral_of  # for the channel to see
    assert sight.is_v2(post) and sight.title(post) == f"Replay of game #{game}: Geek Out! Masters", post
    assert sight.image_refs(post) == [f"attachment://replay-{game}.gif"]  # the animation in the screen's gallery
    assert f"moves-{game}.txt" in str(post["components"])  # the move list shown as a file of the screen
    files = {a["filename"]: fake.files[int(a["id"])] for a in post["attachments"]}
    assert set(files) == {f"replay-{game}.gif", f"moves-{game}.txt"}
    gif = files[f"replay-{game}.gif"]
    assert gif.startswith(b"GIF89a") and len(gif) < 10 * 1024 * 1024
    animation = Image.open(io.BytesIO(gif))
    assert animation.is_animated and animation.n_frames >= 4
    assert animation.info.get("loop") == 0
    # the last frame is the final board the channel was shown ("Ended early: Bo left"), pixel for pixel
    final = pixels(final_board)
    last = pixels(gif, animation.n_frames - 1).crop((0, 0, *final.size))
    assert ImageChops.difference(last, final).getbbox() is None
    moves = files[f"moves-{game}.txt"].decode().splitlines()
    assert moves[0].startswith("Geek Out") and f"#{game}" in moves[0] and moves[1] == "Players: Ana, Bo"
    numbered = [line for line in moves if line[:4].strip().rstrip(".").isdigit()]
    assert numbered[0].startswith("  0. The game begins.") and 4 <= len(numbered) <= 8  # (silent steps: no line)
    assert numbered[-1].startswith("  7. Table: ") and "Bo" in numbered[-1]
    assert numbered[1].startswith(("  1. Ana: ", "  1. Bo: ", "  2. Ana: ", "  2. Bo: "))
    assert not fake.rejections


async def test_replay_refuses_unknown_unfinished_and_other_servers_games(fake, runner):
    await fake.slash(ANA, CHANNEL, "replay", id="9999")
    assert last_ephemeral(fake, ANA) == "There is no finished game #9999 in this server (see /history for the ids)."
    for junk in ("<@everyone>", "-1", "2s", "#"):
        await fake.slash(ANA, CHANNEL, "replay", id=junk)
        assert last_ephemeral(fake, ANA) == "Game ids are numbers, e.g. #12 (see /history).", junk
    game = await finished_game(fake, runner, moves=1)
    await fake.slash(ANA, OTHER_CHANNEL, "replay", id=game)  # another server's game reads as unknown there
    assert last_ephemeral(fake, ANA) == f"There is no finished game #{game} in this server (see /history for the ids)."
    await start_game(fake)
    [playing] = runner.bot.service.cached_in(CHANNEL)
    await fake.slash(BO, CHANNEL, "replay", id=short_id(playing.id))
    assert last_ephemeral(fake, BO) == f"Game #{short_id(playing.id)} is not over yet: watch it live in <#{CHANNEL}>."
    await fake.slash(MOD, CHANNEL, "mod", "end", reason="late")
    await fake.slash(BO, CHANNEL, "replay", id=short_id(playing.id))
    assert last_ephemeral(fake, BO) == f"Game #{short_id(playing.id)} was closed before its end, so it has no replay."
    assert not [m for m in fake.messages_in(OTHER_CHANNEL)]
    assert not [m for m in fake.messages_in(CHANNEL) if any(a["filename"].endswith(".gif") for a in m["attachments"])]
