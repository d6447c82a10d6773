"""The bot goes online only once its render workers are warm, so the first board after a start is drawn by a
worker that has every game's palette, fonts and photos; the workers share the palettes' learning."""

import render
from bot.workers import renderpool
from tests.bot import sight
from tests.bot.conftest import ANA, CHANNEL
from tests.bot.harness import BotRunner


async def test_the_bot_is_online_only_with_warm_workers_that_shared_the_warm_up(fake, tmp_path, monkeypatch):
    monkeypatch.setenv("GEOTABLE_CACHE_DIR", str(tmp_path / "cache"))  # a fresh clone: nothing learned yet
    fresh = renderpool.RenderPool(2)  # cold workers, as after a start of the bot's process
    monkeypatch.setattr(renderpool._one, "_pool", fresh)
    runner = BotRunner(fake, str(tmp_path / "db.sqlite"))
    await runner.start()
    try:
        assert fake.connections >= 1 and all(w.warm for w in fresh._workers)
        every = sorted(render._RENDERERS)
        learned = []
        for worker in fresh._workers:
            known, learned_here = await worker.call(render.palettes_known, ())
            assert known == every  # every palette, before the first board
            learned.append(set(learned_here))
        # each palette was learned once, by one of the workers, and handed to the other
        assert all(learned) and learned[0].isdisjoint(learned[1])
        assert learned[0] | learned[1] == set(render.learned_games())
        # the first click after the start: its board comes, drawn with the learned palette
        await fake.slash(ANA, CHANNEL, "play", "geek-out")
        await fake.click(ANA, fake.messages_in(CHANNEL)[-1], "Start")
        board = [m for m in fake.messages_in(CHANNEL) if sight.is_board(m)][-1]
        assert board["attachments"][0]["filename"].endswith(".png")
    finally:
        await runner.stop()
        for worker in fresh._workers:
            worker.close()
    # the next start (a restart) takes the palettes kept on disk: no worker learns one again
    again = renderpool.RenderPool(2)
    monkeypatch.setattr(renderpool._one, "_pool", again)
    try:
        await again.ready()
        for worker in again._workers:
            known, learned_here = await worker.call(render.palettes_known, ())
            assert known == every and learned_here == []
    finally:
        for worker in again._workers:
            worker.close()
