"""kill -9 of the bot while its render workers draw: the workers exit quietly (no traceback in the bot's log)
and none is left running."""

import asyncio
import os
import random

import pytest

from playground.run_bot import BotProcess
from tests.bot import sight
from tests.bot.harness import solo_players_discord
from tests.bot.test_crash import PLAYERS, _all, board, move_labels, wait_for


@pytest.fixture
async def fake():
    async with solo_players_discord(PLAYERS) as f:
        yield f


def child_pids(pid: int) -> set[int]:
    out: set[int] = set()
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            out |= {int(p) for p in f.read().split()}
    return out


def running(pid: int) -> bool:
    """Alive and not a zombie (an exited child nobody has reaped yet)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def test_render_workers_killed_bot_leaves_no_traceback_and_no_worker(fake, tmp_path):
    rng = random.Random(8)
    log = tmp_path / "bot.log"
    bot = BotProcess(fake, str(tmp_path / "db.sqlite"), log_path=str(log), env={"GEOTABLE_RENDER_WORKERS": "2"})
    await bot.start()
    for channel, user in PLAYERS.items():
        await fake.slash(user, channel, "play", "geek-out", settle=False, turns=10)
    assert await wait_for(lambda: _all(fake, lambda c: fake.messages_in(c) and sight.components(fake.messages_in(c)[-1])))
    for channel, user in PLAYERS.items():
        await fake.click(user, fake.messages_in(channel)[-1], "Start", settle=False)
    assert await wait_for(lambda: _all(fake, lambda c: board(fake, c) is not None))
    workers: set[int] = set()
    for _round in range(4):
        # boards being drawn on every table when the kill lands
        workers |= child_pids(bot.proc.pid)
        for _volley in range(3):
            for channel, user in PLAYERS.items():
                b = board(fake, channel)
                if b and move_labels(b):
                    await fake.click(user, b, rng.choice(move_labels(b)), settle=False)
        await asyncio.sleep(rng.uniform(0.02, 0.1))
        await bot.kill()

        async def gone(workers=frozenset(workers)):
            return not any(running(p) for p in workers)
        assert await wait_for(gone, timeout=10), [p for p in workers if running(p)]
        if _round < 3:
            await bot.start()
    assert len(workers) >= 4 * 2  # two render workers per start (and multiprocessing's resource tracker)
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]
