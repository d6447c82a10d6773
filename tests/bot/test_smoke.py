from tests.bot.conftest import ANA, BO, CHANNEL


async def test_play_join_start_and_a_move(fake, runner):
    it = await fake.slash(ANA, CHANNEL, "play", "geek-out")
    assert it.acked == 4, fake.rejections
    [lobby] = fake.messages_in(CHANNEL)
    await fake.click(BO, lobby, "Join")
    await fake.click(ANA, lobby, "Start")
    board = fake.messages_in(CHANNEL)[0]
    print(board["embeds"][0]["description"], [c["label"] for r in board["components"] for c in r["components"]])
    assert board["attachments"], board
    assert not fake.rejections
