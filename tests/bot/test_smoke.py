from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL


async def test_play_join_start_and_a_move(fake, runner):
    it = await fake.slash(ANA, CHANNEL, "play", "geek-out")
    assert it.acked == 4, fake.rejections
    [lobby] = fake.messages_in(CHANNEL)
    await fake.click(BO, lobby, "Join")
    await fake.click(ANA, lobby, "Start")
    board = fake.messages_in(CHANNEL)[0]
    print(sight.description(board), sight.labels(board))
    assert board["attachments"], board
    assert not fake.rejections
