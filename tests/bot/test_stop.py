"""SIGTERM (``docker stop``) and SIGINT (Ctrl-C) stop the bot cleanly, in the middle of a game.

The bot runs as a real child process (playground/run_bot.py, the same start and stop as ``python -m bot``).
Clicks are in flight when the signal comes: the bot stops taking new ones, finishes those under way (their
commit and their board), gives its shard lease up, closes the store and exits 0 within a few seconds. Every
click it acknowledged is in the action log and on the board, and a restart (at once: the lease was given
up) continues the games.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
from pathlib import Path

import pytest

from bot.client import STOP_GRACE
from bot.database import open_store
from games import get_engine
from playground.run_bot import BotProcess
from tests.bot import sight
from tests.bot.harness import solo_players_discord
from tests.bot.test_crash import board, shown_version, wait_for
from tests.bot.test_shards import moves_on

CHANNELS = (600, 601, 602, 603)
PLAYERS = {channel: channel - 300 for channel in CHANNELS}  # one solo player per table


@pytest.fixture
async def fake():
    async with solo_players_discord(PLAYERS) as f:
        yield f


async def open_tables(fake) -> None:
    for channel, user in PLAYERS.items():
        await fake.slash(user, channel, "play", "geek-out", settle=False, turns=10)
    assert await wait_for(lambda: asyncio.sleep(0, all(fake.messages_in(c) and sight.components(fake.messages_in(c)[-1])
                                                       for c in CHANNELS)))
    for channel, user in PLAYERS.items():
        await fake.click(user, fake.messages_in(channel)[-1], "Start", settle=False)
    assert await wait_for(lambda: asyncio.sleep(0, all(board(fake, c) is not None for c in CHANNELS)))


async def shows(fake, channel: int, version: int) -> bool:
    """Waits until the channel's board shows ``version``."""
    return await wait_for(lambda: asyncio.sleep(0, shown_version(board(fake, channel)) == version))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_stop_signal_mid_game_finishes_the_clicks_under_way_and_exits_0(fake, database, tmp_path, sig):
    rng = random.Random(sig)
    log = Path(tmp_path / "bot.log")
    bot = BotProcess(fake, database, log_path=str(log), env={"GEOTABLE_RENDER_WORKERS": "1"})
    try:
        await bot.start()
        await open_tables(fake)
        clicks = []
        for channel, user in PLAYERS.items():  # a volley, and the signal lands in the middle of its handling
            custom_id, version, key = rng.choice(moves_on(board(fake, channel)))
            clicks.append((channel, version, key, await fake.click(user, board(fake, channel), custom_id=custom_id,
                                                                    settle=False)))
        # the signal once the bot has taken some clicks up (acknowledged) and while others are under way
        assert await wait_for(lambda: asyncio.sleep(0, any(it.acked is not None for *_, it in clicks)))
        loop = asyncio.get_running_loop()
        signalled = loop.time()
        bot.proc.send_signal(sig)
        code = await asyncio.wait_for(bot.proc.wait(), 30)
        took = loop.time() - signalled
        assert code == 0 and took < STOP_GRACE + 3, (code, took)
        text = log.read_text()
        assert "Traceback" not in text and "stopping" in text, text[-3000:]
        acknowledged = [c for c in clicks if c[3].acked is not None and not c[3].followups]
        assert acknowledged
        # what the bot acknowledged is committed and shown: it finished the clicks under way before exiting
        store = await open_store(database)
        try:
            for channel, version, key, _it in acknowledged:
                row = await store._fetchrow("SELECT id FROM tables WHERE channel_id = ? ORDER BY id DESC", (channel,))
                log_rows = await store.actions(row[0])
                assert log_rows[version - 1:version] == [(0, key)], (channel, version, key, log_rows)
                assert shown_version(board(fake, channel)) > version, channel
            assert await store.leases() == []  # given up: a replacement starts serving at once
        finally:
            await store.close()
        # and a restart continues every game
        await bot.start()
        store = await open_store(database)
        try:
            for channel, user in PLAYERS.items():
                row = await store.open_table_in(channel)
                assert await shows(fake, channel, row.version)
                engine = get_engine(row.game)
                assert engine.encode(engine.replay(1, row.options, row.seed, await store.actions(row.id))) == row.state
                custom_id, version, _key = moves_on(board(fake, channel))[0]
                await fake.click(user, board(fake, channel), custom_id=custom_id, settle=False)
                assert await shows(fake, channel, version + 1)
        finally:
            await store.close()
        assert fake.rejections == []
    finally:
        await bot.kill()


async def test_a_stop_signal_during_start_up_ends_it_at_once(tmp_path):
    """SIGTERM while the bot still waits for its database (a server that accepts and never answers): it ends
    at once with 0, not after the 10 s connect timeout (as PID 1 in a container it would be ignored)."""
    connected = asyncio.Event()
    held = []

    async def silent(reader, writer):
        held.append(writer)
        connected.set()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GEOTABLE_", "DISCORD_"))}
    env |= {"DISCORD_TOKEN": "x", "GEOTABLE_DATABASE": f"postgresql://g:pw@127.0.0.1:{port}/g"}
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        await asyncio.wait_for(connected.wait(), 30)
        loop = asyncio.get_running_loop()
        signalled = loop.time()
        proc.send_signal(signal.SIGTERM)
        _out, err = await asyncio.wait_for(proc.communicate(), 30)
        assert proc.returncode == 0 and loop.time() - signalled < 3, (proc.returncode, err.decode())
        assert b"Traceback" not in err
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        for writer in held:
            writer.close()
        server.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_stop_signal_while_the_bot_syncs_its_commands_ends_the_start_up_cleanly(fake, database, tmp_path, sig):
    """The start-up's last steps (the shards' leases taken, the commands synced with Discord, which can take a
    while) are start-up too: a signal then ends it at once with 0, the lease given up, no traceback (a shutdown
    beside the running start closed the HTTP session and the store under it)."""
    syncing, answer = asyncio.Event(), asyncio.Event()
    route = fake._route

    async def held_sync(method, path, payload, uploads, request):
        if method == "PUT" and path.rstrip("/").endswith("/commands"):
            syncing.set()
            await answer.wait()  # Discord slow to answer: held until the bot has gone
        return await route(method, path, payload, uploads, request)

    fake._route = held_sync
    log = Path(tmp_path / "bot.log")
    bot = BotProcess(fake, database, log_path=str(log), env={"GEOTABLE_RENDER_WORKERS": "1"})
    starting = asyncio.create_task(bot.start())
    try:
        await asyncio.wait_for(syncing.wait(), 120)
        bot.proc.send_signal(sig)
        code = await asyncio.wait_for(bot.proc.wait(), 30)
        text = log.read_text()
        assert code == 0 and "Traceback" not in text, (code, text[-3000:])
        store = await open_store(database)
        try:
            assert await store.leases() == []  # a replacement serves at once
        finally:
            await store.close()
    finally:
        answer.set()
        starting.cancel()
        with contextlib.suppress(asyncio.CancelledError, RuntimeError):
            await starting
        await bot.kill()
