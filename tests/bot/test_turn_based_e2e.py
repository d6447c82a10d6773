"""Turn-based play (issue 27) through the real discord.py client and the loopback Discord: a three-day GEONEO
game played with a moved clock: the pace in the lobby and its limits, the turn ping, the one reminder at a fifth
of the time left, timeouts, three in a row counting as leaving, a vacation pausing the clock and /game back
resuming it, and a restart in between keeping every deadline. On SQLite and PostgreSQL (the ``runner``)."""

import asyncio
import time

from bot.computers import is_computer
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, MOD
from tests.bot.test_geoneo_e2e import board, move

DAY = 86400
PACE = 3 * DAY
FIFTH = PACE / 5
REMINDER = "a fifth of your time is left"


class Clock:
    """The bot's clock, moved ahead by hand (``ahead``), kept across a restart."""

    def __init__(self):
        self.offset = 0.0

    def install(self, bot) -> None:
        bot.service.clock = lambda: time.time() + self.offset

    def ahead(self, seconds: float) -> None:
        self.offset += seconds

    def now(self) -> float:
        return time.time() + self.offset


def last_ephemeral(fake, user: int) -> str:
    return sight.content(fake.ephemerals(user)[-1])


def posted(fake) -> list[str]:
    """Every message posted in the channel so far (also those deleted since: a ping gives way to the next)."""
    if not hasattr(fake, "posted"):
        fake.posted = {}
        fake.observers.append(lambda event, m: event == "message" and int(m["channel_id"]) == CHANNEL
                              and fake.posted.setdefault(m["id"], m.get("content") or ""))
    return list(fake.posted.values())


def reminders(fake, user: int) -> list[str]:
    return [m for m in posted(fake) if REMINDER in m and f"<@{user}>" in m]


def turn_pings(fake, user: int) -> list[str]:
    return [m for m in posted(fake) if "your turn in **GEONEO**" in m and f"<@{user}>" in m]


async def play_turn(fake, who: int) -> None:
    """``who`` plays moves until the turn passes."""
    seen = set()
    for _ in range(10):
        if sight.to_act_id(board(fake)) != who:
            return
        await move(fake, seen)
    raise AssertionError("the turn did not pass")


async def quiet_ticks(fake) -> None:
    """Lets the deadline loop run several of its passes (``tick``: 0.05 s), so what it would fire has fired."""
    await asyncio.sleep(0.3)
    await fake.settle()


async def deadlines(runner, table_id: int) -> tuple[float | None, float | None]:
    store = runner.bot.store
    return await store.deadline(table_id, "turn"), await store.deadline(table_id, "remind")


async def run_out(fake, runner, clock: Clock, table_id: int, what: str) -> None:
    """The clock moves just past the turn's deadline; waits until the board says ``what``."""
    due, _remind = await deadlines(runner, table_id)
    clock.ahead(due - clock.now() + 1)
    runner.bot.service.wake_timers()
    await fake.wait_until(lambda: what in sight.description(board(fake)), what=what)
    await fake.settle()


async def test_a_three_day_turn_based_geoneo_game(fake, runner):
    clock = Clock()
    clock.install(runner.bot)
    posted(fake)
    # the server's limits: a day per move by default, three at most
    await fake.slash(MOD, CHANNEL, "mod", "pace", default="24h", longest="3d")
    assert "at most 3 days" in last_ephemeral(fake, MOD) and "turn-based, 24 h per move" in last_ephemeral(fake, MOD)
    await fake.slash(MOD, CHANNEL, "mod", "pace")  # bare: shows the setting, changes nothing
    assert last_ephemeral(fake, MOD) == ("New tables here are turn-based, 24 h per move unless /play says otherwise; a "
                                         "move may take at most 3 days; members may be away for up to 14 days (/game "
                                         "away).")
    await fake.slash(MOD, CHANNEL, "mod", "pace", default="7d")
    assert last_ephemeral(fake, MOD) == "The default pace can't be longer than the longest allowed (3 days)."
    assert (await runner.bot.store.guild_settings(fake.guild_id)).pace_default == DAY
    # a pace past the limit opens nothing
    await fake.slash(ANA, CHANNEL, "play", "geoneo", pace="7d")
    assert last_ephemeral(fake, ANA) == "This server allows at most 3 days per move (/mod pace)."
    assert await runner.bot.service.in_channel(CHANNEL) is None
    # the server's default, then the host picks three days in the lobby (seven: refused; Bo: not the host)
    await fake.slash(ANA, CHANNEL, "play", "geoneo", thread="no")  # here (turn-based opens a thread by default)
    lobby = sight.lobby(fake, CHANNEL)
    assert "Pace: turn-based, 24 h per move · when a move runs out, the table plays it" in sight.words(lobby)
    await fake.click(BO, lobby, "Join")
    await fake.select(ANA, sight.lobby(fake, CHANNEL), f"pace.{7 * DAY}")
    assert last_ephemeral(fake, ANA) == "This server allows at most 3 days per move (/mod pace)."
    await fake.select(BO, sight.lobby(fake, CHANNEL), f"pace.{PACE}")
    assert last_ephemeral(fake, BO) == "Only the host can change the pace."
    await fake.select(ANA, sight.lobby(fake, CHANNEL), f"pace.{PACE}")
    lobby = sight.lobby(fake, CHANNEL)
    assert "Pace: turn-based, 3 days per move" in sight.words(lobby)
    await fake.click(ANA, lobby, "Start")
    table = await runner.bot.service.in_channel(CHANNEL)
    assert table.row.pace == PACE
    first = sight.to_act_id(board(fake))
    second = BO if first == ANA else ANA
    idle = next(s for s, p in enumerate(table.players) if p["id"] == second)
    due, remind = await deadlines(runner, table.id)
    assert abs(due - (clock.now() + PACE)) < 5 and remind == due - FIFTH
    assert "⏳ 3 days per move: 3 days left; time runs out <t:" in sight.description(board(fake))

    # an hour later the first player moves: the second's turn starts, with a ping and three days
    clock.ahead(3600)
    await play_turn(fake, first)
    [ping] = turn_pings(fake, second)
    assert "⏳ Time runs out <t:" in ping
    due, remind = await deadlines(runner, table.id)
    assert abs(due - (clock.now() + PACE)) < 5 and remind == due - FIFTH

    # a restart keeps both deadlines
    await runner.restart(later=clock.offset)
    clock.install(runner.bot)
    assert await deadlines(runner, table.id) == (due, remind)

    # the reminder comes when a fifth of the time is left, not before, and once
    clock.ahead(remind - clock.now() - 60)
    await quiet_ticks(fake)
    assert not reminders(fake, second)
    clock.ahead(61)
    runner.bot.service.wake_timers()
    await fake.wait_until(lambda: reminders(fake, second), what="the reminder")
    clock.ahead(FIFTH / 2)
    await quiet_ticks(fake)
    assert len(reminders(fake, second)) == 1 and await runner.bot.store.deadline(table.id, "remind") is None

    # the move runs out: the table plays it (one); the first player's turn comes with three days of its own
    await run_out(fake, runner, clock, table.id, "ran out of time")
    assert sight.to_act_id(board(fake)) == first
    await play_turn(fake, first)
    # with pings off, the second player's next turn sends no reminder; it runs out (two in a row)
    await fake.slash(second, CHANNEL, "game", "pings", enabled="off")
    _due, remind = await deadlines(runner, table.id)
    clock.ahead(remind - clock.now() + 1)
    await quiet_ticks(fake)
    assert len(reminders(fake, second)) == 1 and await runner.bot.store.deadline(table.id, "remind") is None
    await run_out(fake, runner, clock, table.id, "ran out of time")
    await fake.slash(second, CHANNEL, "game", "pings", enabled="on")

    # the first player goes away for two days: their clock stops (refused past the limit, or twice)
    assert sight.to_act_id(board(fake)) == first
    await fake.slash(first, CHANNEL, "game", "away", days=30)
    assert last_ephemeral(fake, first) == "You can be away for 1 to 14 days in this server."
    before, _remind = await deadlines(runner, table.id)
    clock.ahead(DAY)  # a day of their three is gone
    await fake.slash(first, CHANNEL, "game", "away", days=2)
    assert "You are away until" in last_ephemeral(fake, first)
    paused, paused_remind = await deadlines(runner, table.id)
    assert abs(paused - (before + 2 * DAY)) < 5 and paused_remind == paused - FIFTH
    assert "away until <t:" in sight.description(board(fake))
    await fake.slash(first, CHANNEL, "game", "away", days=1)
    assert last_ephemeral(fake, first) == "You are already away; /game back ends it."
    assert await deadlines(runner, table.id) == (paused, paused_remind)
    logged = len(await runner.bot.store.actions(table.id))
    clock.ahead(2.5 * DAY)  # past the deadline they had before going away: nothing runs out
    await quiet_ticks(fake)
    assert sight.to_act_id(board(fake)) == first and len(await runner.bot.store.actions(table.id)) == logged
    # back (a day later than they said, the vacation over half a day ago: not away any more)
    await fake.slash(first, CHANNEL, "game", "back")
    assert last_ephemeral(fake, first) == "You are not away."
    assert await deadlines(runner, table.id) == (paused, paused_remind)
    # the next vacation, ended early: the clock resumes with the time it had left
    left = paused - clock.now()
    await fake.slash(first, CHANNEL, "game", "away", days=3)
    clock.ahead(DAY)
    await fake.slash(first, CHANNEL, "game", "back")
    assert last_ephemeral(fake, first).startswith("Welcome back")
    due, _remind = await deadlines(runner, table.id)
    assert abs(due - (clock.now() + left)) < 5
    assert "away until" not in sight.description(board(fake))

    # the first player moves; the second lets a third move in a row run out: that counts as leaving
    await play_turn(fake, first)
    await run_out(fake, runner, clock, table.id, "three moves in a row")
    table = await runner.bot.service.get(table.id)
    assert is_computer(table.players[idle]) and table.status == "playing"
    actions = [a for _s, a in await runner.bot.store.actions(table.id)]
    assert actions[-1] == f"handover:{idle}" and actions.count(f"timeout:{idle}") == 2
    assert not fake.rejections
