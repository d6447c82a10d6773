"""How long a computer's turn takes to watch: the real bot (its own process) against the loopback Discord.

    python -m benchmarks.pace [--game geek-out] [--seconds 90] [--latency 0.15] [--pause 0.8 --step-pause 0.1]

Per game a table of one person (Ana, this script, clicking a random choice of her own the moment her turn
comes) and three computers (easy, normal, strong), played for ``--seconds`` of wall time. Every board the bot
posts or edits is recorded with its time and its "To act" line. A **computer turn** is a run of boards whose
"To act" is the same computers only (a computer's turn, or in a simultaneous stage the computers' part once
no person is programming): it lasts from the first board showing it until the first board showing someone
else (so its pause before the turn counts). Printed per game and strength: the turns seen, the boards shown
per turn (its steps), and the seconds per turn (mean, median, max); then the time from a computer's commit to its
board, and the size of a table's message (its JSON, its board image).

``--latency`` makes the loopback Discord answer every request that much later (a real edit with a PNG takes
some 0.1-0.3 s), so the figure approaches what a Discord channel shows. ``--pause`` / ``--step-pause`` are
passed to the bot (GEOTABLE_COMPUTER_PAUSE / GEOTABLE_COMPUTER_STEP_PAUSE; omitted: the bot's defaults).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot.ui import keys
from playground.fake_discord import FakeDiscord, snapshot
from playground.run_bot import BotProcess
from tests.bot import sight

GAMES = ("geek-out", "geodeto", "geoneo", "geomancy", "globe-twister")
CHANNELS = dict(zip(GAMES, range(720, 725), strict=True))
ANA = 301
UTILITY = ("My goals", "My program", "My hand", "My view", "Rules", "Back", "Hint")
STRENGTHS = ("easy", "normal", "strong")


def comps(message: dict) -> list[dict]:
    """A message's buttons and menus, nested ones (Components V2) too."""
    return sight.components(message)


def to_act(message: dict) -> tuple[str, ...] | None:
    """The names on a board's "To act" line (None: not a board in play)."""
    if not sight.is_board(message):
        return None
    found = re.search(r"To act: (.*)", "\n".join(sight.texts(message)))
    return tuple(re.findall(r"\*\*([^*]+)\*\*", found.group(1))) if found else None


def lobby_id(fake: FakeDiscord, channel: int) -> tuple[dict, str] | None:
    """The channel's lobby message and its first table button's custom_id (bot/ui/keys.py)."""
    for message in reversed(fake.messages_in(channel)):
        ids = [c["custom_id"] for c in comps(message)
               if isinstance(keys.decode(c.get("custom_id", "")), keys.Move | keys.Utility)]
        if ids and any(c.get("label") == "Start" for c in comps(message)):
            return message, ids[0]
    return None


def is_board(message: dict) -> bool:
    return sight.is_board(message)


def boards_in(fake: FakeDiscord, channel: int) -> list[dict]:
    return [m for m in fake.messages_in(channel) if is_board(m)]


def board_looks(message: dict) -> tuple:
    """What tells one board from the next: its message and its buttons (their ids carry the table version)."""
    return message["id"], tuple(c.get("custom_id") for c in comps(message))


async def until(condition, timeout: float = 60.0) -> bool:
    end = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > end:
            return False
        await asyncio.sleep(0.005)
    return True


async def start_table(fake: FakeDiscord, game: str) -> None:
    """/play, three computers added with the lobby's keys (``computer.<strength>``), Start."""
    channel = CHANNELS[game]
    await fake.slash(ANA, channel, "play", game, settle=False)
    await until(lambda: lobby_id(fake, channel) is not None)
    for strength in STRENGTHS:
        lobby, custom_id = lobby_id(fake, channel)
        table, version = custom_id.split(":")[1:3]
        forged = snapshot(lobby)
        key = f"gt:{table}:{version}:computer.{strength}"
        forged["components"] = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Add", "custom_id": key}]}]
        await fake.click(ANA, forged, custom_id=key, settle=False)
        await until(lambda custom_id=custom_id: lobby_id(fake, channel)[1] != custom_id)
    await fake.click(ANA, lobby_id(fake, channel)[0], "Start", settle=False)
    await until(lambda: bool(boards_in(fake, channel)) and to_act(boards_in(fake, channel)[-1]) is not None)


def action_key(component: dict) -> str:
    what = keys.decode(component.get("custom_id", ""))
    return what.key if isinstance(what, keys.Move) else what.text if isinstance(what, keys.Utility) else ""


async def anas_move(fake: FakeDiscord, board: dict, rng: random.Random) -> bool:
    """Ana clicks a random choice of hers on the board, or in her panel when her choices are secret (Globe
    Twister: she locks in at once). False when she found nothing to click."""
    buttons = [c for c in comps(board) if c["type"] == 2 and c.get("label") not in UTILITY and not c.get("disabled")]
    options = [o for c in comps(board) if c["type"] == 3 for o in c["options"]]
    if options and (not buttons or rng.random() < 0.5):
        await fake.select(ANA, board, rng.choice(options)["value"], settle=False)
        return True
    if buttons:
        await fake.click(ANA, board, rng.choice(buttons)["label"], settle=False)
        return True
    mine = [c for c in comps(board) if c.get("label", "").startswith("My ")]
    if not mine:
        return False
    it = await fake.click(ANA, board, mine[0]["label"], settle=False)

    def choices() -> list[tuple[dict, dict]]:
        return [(panel, c) for panel in fake.replies_to(it) for c in comps(panel)
                if c["type"] == 2 and action_key(c) and c.get("label") not in UTILITY]

    if not await until(lambda: bool(choices()), 10):
        return False
    found = choices()
    panel, button = next(((p, c) for p, c in found if action_key(c) == "lock"), None) or rng.choice(found)
    await fake.click(ANA, panel, custom_id=button["custom_id"], settle=False)
    return True


async def play(fake: FakeDiscord, game: str, seconds: float, rng: random.Random,
               first_shown: dict | None = None, payloads: list | None = None) -> list[tuple[float, tuple]]:
    """Tables of Ana and three computers for ``seconds`` (a new one when a game ends); returns (time, "To
    act" names) of every board in play. ``first_shown``: filled with (table, version) -> the wall-clock time
    (``time.time()``, as the bot stamps its commits) the loopback Discord first received a board of it.
    ``payloads``: filled with (bytes of the message's JSON, bytes of its board image) of every board."""
    channel = CHANNELS[game]
    boards: list[tuple[float, tuple]] = []

    def seen(event: str, message) -> None:
        if event == "message" and int(message["channel_id"]) == channel and is_board(message):
            names = to_act(message)
            boards.append((time.perf_counter(), names or ()))
            drawn = re.search(r"table(\d+)-(\d+)\.png$", message["attachments"][0].get("filename", ""))
            if first_shown is not None and drawn:
                first_shown.setdefault((int(drawn[1]), int(drawn[2])), time.time())
            if payloads is not None:
                payloads.append((len(json.dumps(message, separators=(",", ":"))), len(sight.image(fake, message))))

    fake.observers.append(seen)
    try:
        end = time.perf_counter() + seconds
        await start_table(fake, game)
        while time.perf_counter() < end:
            def anas_turn_or_over() -> bool:
                names = to_act(boards_in(fake, channel)[-1])
                return names is None or "Ana" in names

            if not await until(anas_turn_or_over, max(0.1, end - time.perf_counter())):
                break
            board = boards_in(fake, channel)[-1]
            if to_act(board) is None:  # the game is over: another
                await start_table(fake, game)
                continue
            looks = board_looks(board)
            if not await anas_move(fake, board, rng):
                break
            await until(lambda looks=looks: board_looks(boards_in(fake, channel)[-1]) != looks, 10)
    finally:
        fake.observers.remove(seen)
    return boards


def computer_turns(boards: list[tuple[float, tuple]]) -> list[tuple[tuple, float, int]]:
    """(the computers to act, seconds, boards shown) of every complete run of boards whose "To act" is the
    same computers only."""
    turns = []
    start = 0
    for i in range(1, len(boards) + 1):
        if i < len(boards) and boards[i][1] == boards[start][1]:
            continue
        names = boards[start][1]
        if i < len(boards) and names and all(n.startswith("Computer") for n in names):
            turns.append((names, boards[i][0] - boards[start][0], i - start))
        start = i
    return turns


def strength_of(names: tuple) -> str:
    found = {s for n in names for s in STRENGTHS if f"({s})" in n}
    return "+".join(sorted(found)) if found else "?"


async def run(games: list[str], seconds: float, latency: float, options: dict, seed: int, report) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        fake = FakeDiscord(channels=tuple(CHANNELS.values()), threads=())
        fake.latency = latency
        await fake.start()
        fake.add_user(ANA, "Ana")
        bot = BotProcess(fake, str(Path(tmp) / "pace.sqlite"), log_path=str(Path(tmp) / "bot.log"), **options)
        try:
            await bot.start(timeout=120)
            for game in games:
                first_shown: dict = {}
                payloads: list[tuple[int, int]] = []
                boards = await play(fake, game, seconds, random.Random(seed), first_shown, payloads)
                report(game, computer_turns(boards))
                report_shown(commit_to_board(str(Path(tmp) / "pace.sqlite"), first_shown))
                report_payloads(payloads)
        finally:
            await bot.kill()
            await fake.stop()


def commit_to_board(database: str, first_shown: dict) -> list[float]:
    """Seconds from the commit of each computer's move (the action log's ``at``) to the first board of the
    version it made (a key that more keys followed in the same firing draws no board of its own: left out)."""
    import sqlite3

    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT table_id, seat, at FROM actions ORDER BY table_id, ply").fetchall()
        # each move is one version and the last versions are moves: the table's version less its moves is
        # the version before its first move (the lobby's joins and the start came before)
        first = dict(db.execute("SELECT t.id, t.version - COUNT(*) FROM tables t JOIN actions a"
                                " ON a.table_id = t.id GROUP BY t.id").fetchall())
    waits, counts = [], {}
    for table, seat, at in rows:
        counts[table] = counts.get(table, 0) + 1
        version = first[table] + counts[table]
        if seat > 0 and (table, version) in first_shown:  # Ana is seat 0, a table event -1
            waits.append(first_shown[table, version] - at)
    return waits


def report_shown(waits: list[float]) -> None:
    if len(waits) >= 2:
        q = statistics.quantiles(waits, n=100, method="inclusive")  # never past the max
        print(f"    a computer's commit to its board: {len(waits)} moves, p50 {q[49] * 1e3:.0f} ms, "
              f"p99 {q[98] * 1e3:.0f} ms, max {max(waits) * 1e3:.0f} ms", flush=True)


def report_payloads(payloads: list[tuple[int, int]]) -> None:
    """The size of a table's message: its JSON (text, components, attachment records) and its board image."""
    if payloads:
        text = sorted(t for t, _i in payloads)
        image = sorted(i for _t, i in payloads)
        print(f"    a table message: {len(payloads)} boards, JSON median {text[len(text) // 2] / 1e3:.1f} KB "
              f"(max {text[-1] / 1e3:.1f}), board image median {image[len(image) // 2] / 1e3:.1f} KB "
              f"(max {image[-1] / 1e3:.1f})", flush=True)


def report(game: str, turns: list[tuple[tuple, float, int]]) -> None:
    """Prints a game's computer turns by strength."""
    by_strength: dict[str, list] = {}
    for names, took, shown in turns:
        by_strength.setdefault(strength_of(names), []).append((took, shown))
    print(f"  {game}")
    for strength, seen in sorted(by_strength.items()):
        took = [t for t, _n in seen]
        shown = [n for _t, n in seen]
        print(f"    {strength:20} {len(seen):3} turns, {statistics.mean(shown):5.1f} boards a turn (max "
              f"{max(shown)}); {statistics.mean(took):5.2f} s a turn (median {statistics.median(took):.2f}, "
              f"max {max(took):.2f})", flush=True)



def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", choices=GAMES, action="append")
    parser.add_argument("--seconds", type=float, default=90.0, help="wall time played per game")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds the loopback Discord takes to answer")
    parser.add_argument("--pause", type=float, default=None, help="GEOTABLE_COMPUTER_PAUSE for the bot")
    parser.add_argument("--step-pause", type=float, default=None, help="GEOTABLE_COMPUTER_STEP_PAUSE for the bot")
    parser.add_argument("--board-every", type=float, default=None, help="GEOTABLE_COMPUTER_BOARD_EVERY for the bot")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    options = {k: v for k, v in (("computer_pause", args.pause), ("computer_step_pause", args.step_pause),
                                 ("computer_board_every", args.board_every)) if v is not None}
    games = args.game or list(GAMES)
    print(f"seconds per computer turn ({args.seconds:g} s of play per game, Discord latency {args.latency:g} s, "
          f"bot options {options or 'default'})")
    asyncio.run(run(games, args.seconds, args.latency, options, args.seed, report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
