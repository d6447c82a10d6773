"""Timers: a deadline fires on time without waiting for a poll, and one that fails does not stop the others."""

from tests.bot import sight
from tests.bot.conftest import ANA, BO
from tests.bot.harness import BotRunner


def board(fake, channel):
    boards = [m for m in fake.messages_in(channel) if sight.is_board(m)]
    return boards[-1] if boards else None


async def solo_table(fake, user, channel):
    await fake.slash(user, channel, "play", "geek-out")
    await fake.click(user, fake.messages_in(channel)[-1], "Start")
    return board(fake, channel)


async def test_a_deadline_fires_when_due_not_at_the_next_poll(fake, database):
    runner = BotRunner(fake, database, turn_timeout=1)
    await runner.start(tick=3600)  # the loop would poll once an hour: only its wake-ups can fire in time
    try:
        await solo_table(fake, ANA, 600)
        # well before the loop's hourly poll: the deadline woke it
        await fake.wait_until(lambda: "ran out of time" in sight.description(board(fake, 600)),
                              what="the deadline to fire")
    finally:
        await runner.stop()


async def test_one_failing_deadline_does_not_stop_the_others(fake, database, monkeypatch):
    runner = BotRunner(fake, database, turn_timeout=1)
    bot = await runner.start()
    try:
        await solo_table(fake, ANA, 600)
        await solo_table(fake, BO, 601)
        broken = (await bot.service.in_channel(600)).id
        engine = (await bot.service.in_channel(600)).engine
        original = engine.on_timeout

        def on_timeout(state, seat, events):
            if state["seed"] == broken_seed:
                raise RuntimeError("a bug in one game")
            return original(state, seat, events)

        broken_seed = (await bot.service.get(broken)).state["seed"]
        monkeypatch.setattr(engine, "on_timeout", on_timeout)
        await fake.wait_until(lambda: "ran out of time" in sight.description(board(fake, 601)),
                              what="the other table's deadline to fire")
        assert "ran out of time" not in sight.description(board(fake, 600))
        assert (await bot.store.deadline(broken, "turn")) is not None  # kept, to be tried again
    finally:
        await runner.stop()
