"""A 64-player Swiss of 6 rounds played through the table service (issue 28, "Measured").

    python -m benchmarks.tournament [--players 64] [--rounds 6] [--game geek-out]

The real bot (discord.py client) against the loopback Discord, in this process, on a fresh SQLite database.
64 members sign up by clicking Join, a moderator clicks Start; every table of every round is a real game of
duels, each seat's moves chosen by the computers' policy (``games.ai.choose``, normal strength) and played as
that member through ``TableService.act`` and shown through ``Boards.publish`` (what a click does after its
acknowledgement), all tables of a round at once. Measured per round: the time from the last table of a round
ending (its final board published) to the next round's tables all posted (target under 2 s), printed as p50
and max, with a ratio against a baseline of the same run: one /play lobby opened and posted (a slash command
answered). Each round's pairing is checked: nobody seated twice in a round, nobody left out who is still in,
and no repeat meeting (64 players over 6 rounds can always avoid one).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from games import get_engine
from games.ai import choose
from playground.fake_discord import FakeDiscord
from tests.bot import sight
from tests.bot.harness import BotRunner

CHANNEL, MOD, FIRST = 600, 199, 1000


async def play_table(bot, table_id: int) -> float:
    """Plays the table to its end; returns the loop time its final board was published."""
    service, boards = bot.service, bot.get_cog("Tables").boards
    loop = asyncio.get_running_loop()
    while True:
        table = await service.get(table_id)
        if table.status != "playing":
            return loop.time()
        seat = min(table.to_act())
        key = choose(table.engine, table.state, seat, "normal", f"bench-{table_id}")
        change = await service.act(table_id, table.version, key, table.players[seat]["id"])
        await boards.publish(change)
        if change.finished or change.closed:
            return loop.time()


async def baseline(fake: FakeDiscord, runs: int = 5) -> float:
    """Seconds for /play to open a lobby and post it (the median of ``runs``), in channel 601."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        await fake.slash(MOD, 601, "play", "geek-out")
        times.append(time.perf_counter() - start)
        await fake.click(MOD, sight.lobby(fake, 601), "Leave")
    return statistics.median(times)


async def run(players: int, rounds: int, game: str) -> bool:
    """Plays the tournament and prints the figures; True when every round advanced in under 2 s."""
    fake = FakeDiscord()
    await fake.start()
    fake.add_user(MOD, "Mo", moderator=True)
    ids = list(range(FIRST, FIRST + players))
    for u in ids:
        fake.add_user(u, f"P{u - FIRST + 1}")
    with tempfile.TemporaryDirectory() as tmp:
        runner = BotRunner(fake, str(Path(tmp) / "bench.db"), turn_timeout=3600)
        bot = await runner.start()
        try:
            base = await baseline(fake)
            await fake.slash(MOD, CHANNEL, "tournament", "create", game, rounds=rounds, turns=1)
            message = [m for m in fake.messages_in(CHANNEL) if any(c.startswith("g1t:") for c in sight.custom_ids(m))][0]
            for u in ids:
                await fake.click(u, message, "Join")
            rounds_cog = bot.get_cog("Tournament").rounds
            t = await bot.store.channel_tournament(CHANNEL)
            assert get_engine(t.game)
            await fake.click(MOD, message, "Start")
            gaps, met = [], set()
            for number in range(1, rounds + 1):
                await fake.wait_until(lambda n=number: any(o[1] == n for o in rounds_cog.opened), 300,
                                      what=f"round {number}")
                r = (await bot.store.rounds(t.id))[number - 1]
                seated = [u for table in r.tables for u in table] + list(r.byes)
                assert len(seated) == len(set(seated)) == players, f"round {number}: {len(seated)} seats"
                pairs = {frozenset(table) for table in r.tables}
                assert not pairs & met, f"round {number} repeats a meeting"
                met |= pairs
                boards = [b for b in await bot.store.boards(t.id) if b.round == number]
                ended = await asyncio.gather(*(play_table(bot, b.table_id) for b in boards))
                last = max(ended)
                if number < rounds:
                    await fake.wait_until(lambda n=number: any(o[1] == n + 1 for o in rounds_cog.opened), 300,
                                          what=f"round {number + 1}")
                    posted = next(o[3] for o in rounds_cog.opened if o[1] == number + 1)
                    gaps.append(posted - last)
                    print(f"round {number} -> {number + 1}: {len(boards)} tables, next round posted "
                          f"{posted - last:.3f} s after the last table ended", flush=True)
            await fake.wait_until(lambda: any("is over" in sight.content(m) for m in fake.messages_in(CHANNEL)), 120,
                                  what="the podium")
            print(f"{players} players, {rounds} rounds of {game} duels: every round paired with nobody seated twice "
                  f"and no repeat meeting; podium posted")
            print(f"last table of a round -> next round's tables posted: p50 {statistics.median(gaps):.3f} s, "
                  f"max {max(gaps):.3f} s (target < 2 s)")
            print(f"baseline (/play: a lobby opened and posted): {base * 1000:.0f} ms; round advance / baseline: "
                  f"p50 {statistics.median(gaps) / base:.1f}x, max {max(gaps) / base:.1f}x")
            return max(gaps) < 2.0
        finally:
            await runner.stop()
            await fake.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tournament", description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--game", default="geek-out")
    args = parser.parse_args(argv)
    return 0 if asyncio.run(run(args.players, args.rounds, args.game)) else 1


if __name__ == "__main__":
    raise SystemExit(main())
