"""/daily through the loopback Discord with the real discord.py client (issue 28 item 3): the day's Globe
Twister puzzle played privately to solved in par moves, shared once, a second /daily the same day, a restart in
the middle, the day's reset with a moved clock (the finished day's board posted once, the share of yesterday
refused), streaks, /daily show:board, and German and Spanish."""

from __future__ import annotations

import asyncio
import datetime
import re
import time

from bot.store.daily import CLAIM_STALE, DailySettings, day_of, shift
from games.globe_twister import daily
from playground.fake_discord import SEND_MESSAGES
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY, MOD
from tests.bot.harness import BotRunner

BOARD_CHANNEL = 601


def keys_for(solution) -> list[str]:
    out = []
    for cell, card, direction in solution:
        out += [f"c{cell}", f"k{card}"] + ([f"d{direction}"] if direction else []) + ["lock"]
    return out


def latest(fake, user=ANA) -> dict:
    return fake.ephemerals(user)[-1]


def puzzle_message(fake, user) -> dict:
    """The member's latest puzzle screen (a refusal comes as a message of its own)."""
    return [m for m in fake.ephemerals(user) if any(c.startswith(("g1d:", "g1e:")) for c in sight.custom_ids(m))][-1]


async def press(fake, user, key):
    message = puzzle_message(fake, user)
    [custom_id] = [c for c in sight.custom_ids(message) if c.startswith("g1d:") and c.endswith(":" + key)]
    await fake.click(user, message, custom_id=custom_id)


async def solve(fake, user, day, extra: list[str] = ()):
    """Plays ``extra`` keys first (a wasted turn), then the proven solution."""
    for key in [*extra, *keys_for(daily.puzzle_of(day)["solution"])]:
        await press(fake, user, key)


def set_clock(runner, later: float) -> None:
    runner.bot.service.clock = lambda: time.time() + later
    runner.bot.get_cog("Daily").wake()


async def test_the_daily_is_played_privately_to_par_shared_once_and_continued_not_replayed(fake, runner):
    day = day_of(time.time(), 0)
    par = daily.puzzle_of(day)["par"]
    await fake.slash(ANA, CHANNEL, "daily")
    text = sight.content(latest(fake))
    assert f"Geotable daily {day} · par {par}" in text and "One try today" in text, text
    assert sight.has_image(latest(fake))
    assert "Hint" not in " ".join(label or "" for label in sight.labels(latest(fake)))
    # half-way, a second /daily continues the same attempt
    await press(fake, ANA, "c0")
    await fake.slash(ANA, CHANNEL, "daily")
    assert any(c.endswith(":1:back") or ":1:" in c for c in sight.custom_ids(latest(fake)))
    await press(fake, ANA, "back")
    await solve(fake, ANA, day)
    final = sight.content(latest(fake))
    assert f"Your result: {par} moves (par {par})" in final, final
    assert sight.labels(latest(fake)) == ["Share my result"]
    assert fake.messages_in(CHANNEL) == []  # nothing public until shared
    await fake.click(ANA, latest(fake), "Share my result")
    [shared] = fake.messages_in(CHANNEL)
    line = sight.content(shared)
    # moves against par, squares (one per turn) and the streak: nothing that gives the solution away
    assert re.fullmatch(rf"\*\*Ana\*\* · Geotable daily {day}: {par} moves \(par {par}\) [🟨⬛]*🟩 · streak 1",
                        line), line
    # a second share: one sentence, nothing posted
    await fake.click(ANA, [m for m in fake.ephemerals(ANA) if "Share my result" in sight.labels(m)][-1],
                     "Share my result")
    assert "already shared" in sight.content(latest(fake))
    assert len(fake.messages_in(CHANNEL)) == 1
    # a second /daily the same day: the result, never a second try
    await fake.slash(ANA, CHANNEL, "daily")
    assert sight.content(latest(fake)).startswith(f"You solved today's puzzle: {par} moves (par {par}).")
    assert not any(c.startswith("g1d:") for c in sight.custom_ids(latest(fake)))
    assert not fake.rejections


async def test_a_restart_mid_puzzle_loses_nothing_and_an_older_step_changes_nothing(fake, runner):
    day = day_of(time.time(), 0)
    await fake.slash(BO, CHANNEL, "daily")
    await press(fake, BO, "c4")
    await press(fake, BO, "kg3")
    stale = dict(latest(fake, BO))
    await press(fake, BO, "lock")  # a wasted turn: one card, no solve
    await runner.restart()
    await fake.slash(BO, CHANNEL, "daily")
    assert "Turn 2 of 10 · 1 card so far" in sight.content(latest(fake, BO)), sight.content(latest(fake, BO))
    [lock] = [c for c in sight.custom_ids(stale) if c.endswith(":lock")]
    await fake.click(BO, stale, custom_id=lock)
    assert "older step" in sight.content(latest(fake, BO))
    # the wasted Green 3 on the centre is undone by another Green 3 there, then the proven solution
    await solve(fake, BO, day, extra=["c4", "kg3", "lock"])
    par = daily.puzzle_of(day)["par"]
    assert f"Your result: {par + 2} moves (par {par})" in sight.content(puzzle_message(fake, BO))


async def test_the_board_the_reset_and_streaks_with_a_moved_clock(fake, runner):
    today = day_of(time.time(), 0)
    await fake.slash(MOD, CHANNEL, "mod", "daily")
    assert "turns at 00:00 UTC" in sight.content(latest(fake, MOD))
    await fake.slash(MOD, CHANNEL, "mod", "daily", channel=BOARD_CHANNEL)
    assert f"<#{BOARD_CHANNEL}>" in sight.content(latest(fake, MOD))
    await fake.slash(ANA, CHANNEL, "daily", show="board")
    assert "Nobody has finished this puzzle" in sight.content(latest(fake))
    await fake.slash(ANA, CHANNEL, "daily")
    await solve(fake, ANA, today)
    await fake.slash(BO, CHANNEL, "daily")
    await solve(fake, BO, today, extra=["c8", "kg1", "lock", "c8", "kg2", "lock"])
    await fake.slash(ANA, CHANNEL, "daily", show="board")
    board = sight.content(latest(fake))
    assert f"Daily puzzle {today}: board" in board, board
    assert board.find(f"<@{ANA}>") < board.find(f"<@{BO}>"), board  # fewer moves first
    assert "2 members played, 2 solved it." in board
    share = [m for m in fake.ephemerals(ANA) if "Share my result" in sight.labels(m)][-1]
    # the day turns: the finished day's board is posted once, in the chosen channel
    set_clock(runner, 86400)
    await fake.wait_until(lambda: fake.messages_in(BOARD_CHANNEL), 30, what="the finished day's board")
    [posted] = fake.messages_in(BOARD_CHANNEL)
    assert f"Daily puzzle {today}: board" in sight.content(posted)
    await runner.restart(later=86400)  # a restart on the same day posts nothing again
    runner.bot.get_cog("Daily").wake()
    await fake.wait_until(lambda: runner.bot.get_cog("Daily").resets_done.is_set(), 30)
    assert len(fake.messages_in(BOARD_CHANNEL)) == 1
    # yesterday's share button: one sentence, nothing posted
    await fake.click(ANA, share, "Share my result")
    assert "can no longer be shared" in sight.content(latest(fake))
    assert fake.messages_in(CHANNEL) == []
    # the next day's puzzle; solved again: streak 2 (Bo skips it: no streak for him)
    tomorrow = shift(today, 1)
    await fake.slash(ANA, CHANNEL, "daily")
    assert f"Geotable daily {tomorrow}" in sight.content(latest(fake))
    await solve(fake, ANA, tomorrow)
    await fake.click(ANA, latest(fake), "Share my result")
    assert sight.content(fake.messages_in(CHANNEL)[-1]).endswith("· streak 2 🔥")
    # the reset hour moves to 06:00: the server's day follows it
    await fake.slash(MOD, CHANNEL, "mod", "daily", reset=6)
    assert "turns at 06:00 UTC" in sight.content(latest(fake, MOD))
    assert not fake.rejections


async def test_a_reset_that_died_after_discord_made_the_post_posts_it_once_when_taken_again(fake, runner):
    """The process dies between Discord's answer and the record of the post: the claim goes stale and is taken
    again; the post's nonce (bot/nonces.py) makes Discord answer the first message instead of a second."""
    today = day_of(time.time(), 0)
    await fake.slash(MOD, CHANNEL, "mod", "daily", channel=BOARD_CHANNEL)
    await fake.slash(ANA, CHANNEL, "daily")
    await solve(fake, ANA, today)
    store = runner.bot.service.store
    record = store.daily_posted

    async def dies(*args):
        store.daily_posted = record
        raise ConnectionError("the process died here")

    store.daily_posted = dies
    set_clock(runner, 86400)
    await fake.wait_until(lambda: fake.messages_in(BOARD_CHANNEL), 30, what="the finished day's board")
    assert await store.daily_post(fake.guild_id, today) is None  # claimed, never recorded
    set_clock(runner, 86400 + CLAIM_STALE + 1)
    await fake.wait_until(lambda: store.daily_posted is record, 5)
    for _ in range(100):
        if await store.daily_post(fake.guild_id, today):
            break
        await asyncio.sleep(0.05)
    [posted] = fake.messages_in(BOARD_CHANNEL)
    assert await store.daily_post(fake.guild_id, today) == int(posted["id"])


async def test_german_and_spanish(fake, runner):
    fake.locales[ANA] = "de"
    fake.locales[BO] = "es-ES"
    day = day_of(time.time(), 0)
    await fake.slash(ANA, CHANNEL, "daily")
    text = sight.content(latest(fake))
    assert "Ein Versuch heute" in text, text
    await solve(fake, ANA, day)
    assert "Dein Ergebnis" in sight.content(latest(fake)) and "Karten (Par" in sight.content(latest(fake))
    await fake.click(ANA, latest(fake), "Mein Ergebnis teilen")
    assert sight.content(latest(fake)) == "Im Kanal geteilt."
    await fake.slash(BO, CHANNEL, "daily", show="board")
    assert "tablero de resultados" in sight.content(latest(fake, BO)) and "1 miembro jugó, 1 lo resolvió." in sight.content(latest(fake, BO))
    await fake.slash(BO, CHANNEL, "daily")
    assert "Un intento hoy" in sight.content(latest(fake, BO))


async def test_privacy_lists_and_deletes_the_members_daily_results(fake, runner):
    day = day_of(time.time(), 0)
    await fake.slash(ANA, CHANNEL, "daily")
    await solve(fake, ANA, day)
    await fake.slash(ANA, CHANNEL, "privacy", "show")
    assert "**Daily puzzle results here:** 1 day (your moves and streaks)." in sight.content(latest(fake))
    await fake.slash(ANA, CHANNEL, "privacy", "delete")
    await fake.click(ANA, latest(fake), "Yes, delete my data")
    assert "Your daily puzzle result of 1 day is deleted too." in sight.content(latest(fake))
    await fake.slash(ANA, CHANNEL, "daily", show="board")
    assert "Nobody has finished this puzzle" in sight.content(latest(fake))
    assert await runner.bot.store.daily_result(fake.guild_id, day, ANA) is None


async def test_forged_and_malformed_daily_clicks_get_one_sentence(fake, runner):
    day = day_of(time.time(), 0)
    await fake.slash(ANA, CHANNEL, "daily")
    message = puzzle_message(fake, ANA)
    await fake.click_forged(ANA, message, "g1d:20200101:0:c0")  # an old day's
    assert "That day's puzzle is over" in sight.content(latest(fake))
    await fake.click_forged(ANA, message, "g1d:bad")
    assert "isn't one of your daily puzzle's" in sight.content(latest(fake))
    await fake.click_forged(ANA, message, f"g1d:{day.replace('-', '')}:0:kz9")  # no such move
    assert sight.content(latest(fake)) in ("That move is not possible now.",
                                           "That is an older step of your puzzle: use its latest message.")
    await fake.click_forged(BO, message, f"g1d:{day.replace('-', '')}:0:c0")  # not Bo's: he has none
    assert "Play today's puzzle with `/daily` first." in sight.content(latest(fake, BO))
    assert (await runner.bot.store.daily_result(fake.guild_id, day, ANA)).log == []


def at(runner, text: str) -> None:
    """The bot's clock at a moment (UTC), as if it were then."""
    moment = datetime.datetime.fromisoformat(text).replace(tzinfo=datetime.UTC).timestamp()
    runner.bot.service.clock = lambda: moment
    runner.bot.get_cog("Daily").wake()


async def test_a_server_whose_day_turns_at_six_counts_its_days_and_streaks_by_it(fake, runner):
    at(runner, "2026-12-10 05:00")
    await fake.slash(MOD, CHANNEL, "mod", "daily", reset=6, channel=BOARD_CHANNEL)
    assert "turns at 06:00 UTC" in sight.content(latest(fake, MOD))
    await fake.slash(ANA, CHANNEL, "daily")  # before six: still the 9th's puzzle
    assert "Geotable daily 2026-12-09" in sight.content(latest(fake))
    await solve(fake, ANA, "2026-12-09")
    await fake.slash(CY, CHANNEL, "daily")
    await press(fake, CY, "c0")  # Cy starts the 9th's puzzle and leaves it
    assert fake.messages_in(BOARD_CHANNEL) == []  # the 8th (before the channel was chosen) is not posted late
    at(runner, "2026-12-10 06:30")
    await fake.wait_until(lambda: fake.messages_in(BOARD_CHANNEL), 30, what="the 9th's board at six")
    [posted] = fake.messages_in(BOARD_CHANNEL)
    assert "Daily puzzle 2026-12-09: board" in sight.content(posted)
    assert "1 member played, 1 solved it." in sight.content(posted)  # Cy's unfinished attempt is not on it
    await press(fake, CY, "kg1")  # the 9th is over for Cy's old screen
    assert "That day's puzzle is over: play today's with `/daily`." in sight.content(latest(fake, CY))
    await fake.slash(ANA, CHANNEL, "daily")
    assert "Geotable daily 2026-12-10" in sight.content(latest(fake))
    await solve(fake, ANA, "2026-12-10")
    await fake.click(ANA, puzzle_message(fake, ANA), "Share my result")
    assert "Geotable daily 2026-12-10" in sight.content(fake.messages_in(CHANNEL)[-1])
    assert sight.content(fake.messages_in(CHANNEL)[-1]).endswith("· streak 2 🔥")
    at(runner, "2026-12-12 06:30")  # the 11th missed: the streak starts again
    await fake.slash(ANA, CHANNEL, "daily")
    await solve(fake, ANA, "2026-12-12")
    await fake.click(ANA, puzzle_message(fake, ANA), "Share my result")
    assert sight.content(fake.messages_in(CHANNEL)[-1]).endswith("· streak 1")
    # the clock jumped past the 10th's reset (as after a stop): only the last finished day, the 11th, is looked
    # at, and nobody finished it: nothing more is posted
    await fake.wait_until(lambda: runner.bot.get_cog("Daily").resets_done.is_set(), 30)
    assert ["Daily puzzle 2026-12-09: board" in sight.content(m) for m in fake.messages_in(BOARD_CHANNEL)] == [True]


async def test_help_points_to_the_daily_puzzle_by_its_name_in_the_members_language(fake, runner):
    await fake.slash(ANA, CHANNEL, "help")
    assert "`/daily` (one try, then share your result)" in sight.content(latest(fake))
    fake.locales[BO] = "de"
    await fake.slash(BO, CHANNEL, "help")
    assert "`/tagesrätsel` (ein Versuch, dann teilst du dein Ergebnis)" in sight.content(latest(fake, BO))


async def test_a_board_channel_the_bot_may_not_post_in_is_refused_in_one_sentence(fake, database):
    fake.channels[602]["permission_overwrites"] = [
        {"id": str(fake.guild_id), "type": 0, "allow": "0", "deny": str(SEND_MESSAGES)}]
    runner = BotRunner(fake, database)
    await runner.start()
    try:
        await fake.slash(MOD, CHANNEL, "mod", "daily", channel=602, reset=3)
        assert sight.content(latest(fake, MOD)) == ("I can't post in <#602>: choose a channel where I may send "
                                                    "messages.")
        assert await runner.bot.store.daily_settings(fake.guild_id) == DailySettings(fake.guild_id, 0, None)
    finally:
        await runner.stop()
