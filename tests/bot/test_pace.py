"""Turn-based pace (issue 27): the pure rules (bot/table/pace.py) and the table service's clocks on a real store
of each backend: a turn's deadline and its one reminder written with the move, a simultaneous stage's shared
time, Globe Twister's sand timer at a turn-based table, the timeout option, and a vacation."""

import pytest

from bot.computers import is_computer
from bot.database import open_store
from bot.store import GuildSettings
from bot.table import pace
from bot.table.refusals import Refused
from bot.table.service import TableService
from games.core import SYSTEM

ANA, BO = {"id": 1, "name": "Ana"}, {"id": 2, "name": "Bo"}
HOUR, DAY = 3600, 86400


def test_words_of_paces_and_spans():
    assert [pace.pace_words(p) for p in (None, HOUR, DAY, 3 * DAY)] == [
        "live", "turn-based, 1 h per move", "turn-based, 24 h per move", "turn-based, 3 days per move"]
    assert pace.pace_name(3 * DAY) == "3d" and pace.pace_name(None) == "live" and pace.pace_name(5) == ""
    assert [pace.span_words(s) for s in (3 * DAY - 1, 2 * DAY + 5 * HOUR + 100, 21 * HOUR + 1000, 45 * 60, 0)] == [
        "3 days", "2 days 5 h", "21 h", "45 min", "1 min"]


def test_the_server_limits_a_pace():
    settings = GuildSettings(1)
    assert pace.refused_pace(None, settings) is None and pace.refused_pace(7 * DAY, settings) is None
    assert pace.refused_pace(5 * DAY, settings) == "A turn-based table takes 1 h, 12 h, 24 h, 3 days or 7 days per move."
    settings.pace_max = DAY
    assert pace.refused_pace(3 * DAY, settings) == "This server allows at most 24 h per move (/mod pace)."
    assert pace.refused_pace(12 * HOUR, settings) is None
    assert pace.away_days(settings) == 14 and pace.away_days(GuildSettings(1, away_max=3)) == 3


def test_the_reminder_and_the_sand_take_a_fifth():
    assert pace.remind_at(1000.0 + DAY, DAY) == 1000.0 + DAY * 4 / 5
    assert pace.sand_seconds(DAY) == DAY / 5
    # the sand in words to the minute, as docs/rules/globe-twister.md 7b lists it
    assert [pace.exact_words(pace.sand_seconds(p)) for p in pace.PACES] == [
        "12 min", "2 h 24 min", "4 h 48 min", "14 h 24 min", "33 h 36 min"]
    assert pace.exact_words(5 * HOUR) == "5 h"


def test_timeouts_in_a_row_count_since_the_seats_own_last_move():
    newest_first = [(SYSTEM, "timeout:1"), (0, "a"), (SYSTEM, "timeout:1"), (1, "b"), (SYSTEM, "timeout:1")]
    assert pace.timeouts_in_a_row(newest_first, 1) == 2
    assert pace.timeouts_in_a_row(newest_first, 0) == 0
    assert pace.timeouts_in_a_row([(SYSTEM, "timeout:0"), (SYSTEM, "leave:1")], 0) == 1


class Clock:
    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def service(database):
    clock = Clock()
    s = TableService(await open_store(database), clock=clock)
    s.test_clock = clock
    yield s
    await s.store.close()


async def started(service, game: str, asked: str | None = "24h", on_timeout: str | None = None):
    table = await service.open_lobby(1, 10, game, {}, ANA, pace=await service.default_pace(1, asked))
    await service.lobby(table.id, "join", BO)
    if on_timeout:
        await service.lobby(table.id, f"ontimeout.{on_timeout}", ANA)
    await service.lobby(table.id, "start", ANA)
    return await service.get(table.id)


async def test_a_turn_based_move_writes_its_turn_and_one_reminder(service):
    table = await started(service, "geek_out")
    now = service.test_clock.now
    assert table.row.pace == DAY
    assert await service.store.deadline(table.id, "turn") == now + DAY
    assert await service.store.deadline(table.id, "remind") == now + DAY * 4 / 5
    # the reminder fires once, then is gone; the turn's deadline stays
    service.test_clock.now += DAY * 4 / 5 + 1
    [change] = await service.fire_due()
    assert change.reminded and await service.store.deadline(table.id, "remind") is None
    assert await service.fire_due() == []
    # the move runs out: the table plays it, and the next turn gets its own day and reminder
    service.test_clock.now = now + DAY + 1
    [change] = await service.fire_due()
    assert change.timed_out
    later = service.test_clock.now
    assert await service.store.deadline(table.id, "remind") == later + DAY * 4 / 5


async def test_a_live_table_keeps_the_turn_timeout_and_has_no_reminder(service):
    table = await started(service, "geek_out", asked="live")
    assert table.row.pace is None
    assert await service.store.deadline(table.id, "turn") == service.test_clock.now + 600
    assert await service.store.deadline(table.id, "remind") is None


async def test_a_pace_past_the_servers_limit_opens_nothing(service):
    settings = await service.settings(1)
    settings.pace_max = DAY
    await service.save_settings(settings)
    with pytest.raises(Refused, match="at most 24 h per move"):
        await service.default_pace(1, "3d")
    with pytest.raises(Refused, match="at most 24 h per move"):
        await service.open_lobby(1, 10, "geek_out", {}, ANA, pace=3 * DAY)
    assert await service.in_channel(10) is None
    assert await service.default_pace(1, None) is None  # no default set: live
    settings.pace_default = 12 * HOUR
    await service.save_settings(settings)
    assert await service.default_pace(1, None) == 12 * HOUR and await service.default_pace(1, "live") is None
    table = await service.open_lobby(1, 10, "geek_out", {}, ANA, pace=await service.default_pace(1, None))
    with pytest.raises(Refused, match="at most 24 h per move"):
        await service.lobby(table.id, f"pace.{7 * DAY}", ANA)
    assert (await service.store.get_table(table.id)).pace == 12 * HOUR


async def test_globe_twister_stage_shares_its_time_and_the_sand_runs_a_fifth_of_the_pace(service):
    table = await started(service, "globe_twister")
    start = service.test_clock.now
    assert await service.store.deadline(table.id, "turn") == start + DAY
    service.test_clock.now += HOUR
    await service.act(table.id, table.version, "lock", ANA["id"])  # the first lock-in turns the sand
    assert await service.store.deadline(table.id, "timer") == service.test_clock.now + DAY / 5
    assert await service.store.deadline(table.id, "turn") == start + DAY  # nobody's clock restarts
    service.test_clock.now += HOUR
    await service.act(table.id, table.version, "c0", BO["id"])  # a card placed: still the stage's time
    assert await service.store.deadline(table.id, "turn") == start + DAY
    assert await service.store.deadline(table.id, "remind") == start + DAY * 4 / 5  # still the stage's one


async def test_a_turn_based_globe_twister_names_the_sand_it_runs_not_the_options_seconds(service):
    """The lobby leaves out the option's seconds and says the pace's sand; the lock-in button and its log line
    name no seconds (the board's countdown says the real time), and the words rebuilt from the log (the table
    loaded again, /replay) are the ones the table said."""
    from bot import replay
    from bot.table import recent
    from bot.ui import messages

    lobby = await service.open_lobby(1, 10, "globe_twister", {}, ANA, pace=DAY)
    words = messages.lobby_words(lobby)
    assert "Sand timer (seconds)" not in words and "the sand timer runs 4 h 48 min" in words
    live = await service.open_lobby(1, 11, "globe_twister", {}, BO)
    assert "Sand timer (seconds): 30" in messages.lobby_words(live)  # a live table keeps its option
    await service.lobby(lobby.id, "join", BO)
    await service.lobby(lobby.id, "start", ANA)
    table = await service.get(lobby.id)
    labels = {a.key: a.label for a in table.engine.legal_actions(table.state, 0)}
    assert labels["lock"] == "Lock in and turn the sand timer"
    await service.act(table.id, table.version, "lock", ANA["id"])
    table = await service.get(table.id)
    said = recent.said(table.last_words, "en")  # kept compact (recent.compact)
    assert said.endswith("locks in and turns the sand timer.") and " s)" not in said
    assert recent.said(table.last_words, "de").endswith("legt fest und dreht die Sanduhr um.")
    actions = await service.store.actions(table.id)
    rebuilt = recent.rebuild(table.engine, table.row.players, table.row.options, table.row.seed, actions, True)
    assert recent.said(rebuilt[-1][1], "en") == said  # (seat, words)
    moves = replay.build("globe_twister", table.row.players, table.row.options, table.row.seed, actions,
                         max_frames=2, paced=True).moves
    assert moves.splitlines()[-1].endswith(said) and "(30 s)" not in moves
    moves = replay.build("globe_twister", table.row.players, table.row.options, table.row.seed, actions,
                         max_frames=2).moves  # a log stored by a live table reads as it did
    assert moves.splitlines()[-1].endswith("locks in and turns the sand timer (30 s).")


async def test_a_timeout_hands_the_seat_to_a_computer_when_the_lobby_says_so(service):
    table = await started(service, "geek_out", on_timeout="computer")
    assert table.row.on_timeout == "computer"
    seat = table.to_act()[0]
    service.test_clock.now += DAY + 1
    await service.fire_due()
    table = await service.get(table.id)
    assert is_computer(table.players[seat])
    assert (await service.store.actions(table.id))[-1] == (SYSTEM, f"handover:{seat}")


async def test_away_pushes_the_clock_and_back_resumes_it_with_the_time_left(service):
    table = await started(service, "geek_out")
    seat = table.to_act()[0]
    user = table.players[seat]["id"]
    due = await service.store.deadline(table.id, "turn")
    service.test_clock.now += 6 * HOUR
    with pytest.raises(Refused, match="1 to 14 days"):
        await service.go_away(1, user, 15)
    until, shifted = await service.go_away(1, user, 2)
    assert [t.id for t in shifted] == [table.id] and table.away == {user: until}
    assert await service.store.deadline(table.id, "turn") == due + 2 * DAY
    with pytest.raises(Refused, match="already away"):
        await service.go_away(1, user, 1)
    service.test_clock.now += DAY
    await service.come_back(1, user)
    assert await service.store.deadline(table.id, "turn") == service.test_clock.now + 18 * HOUR
    assert table.away == {}
    with pytest.raises(Refused, match="not away"):
        await service.come_back(1, user)


async def test_away_leaves_live_tables_alone(service):
    table = await started(service, "geek_out", asked="live")
    user = table.players[table.to_act()[0]]["id"]
    due = await service.store.deadline(table.id, "turn")
    until, shifted = await service.go_away(1, user, 3)
    assert shifted == [] and await service.store.deadline(table.id, "turn") == due and table.away == {}
    assert until == service.test_clock.now + 3 * DAY


async def test_a_turn_that_reaches_someone_away_starts_when_they_are_back(service):
    table = await started(service, "geoneo")
    mover = table.to_act()[0]
    waiting = table.players[1 - mover]["id"]
    until, shifted = await service.go_away(1, waiting, 2)
    assert shifted == []  # not their turn: nothing to pause yet
    for _ in range(10):  # the mover's turn, step by step
        if table.to_act() != [mover]:
            break
        await service.act(table.id, table.version, table.actions_for(mover)[0].key, table.players[mover]["id"])
    assert table.to_act() == [1 - mover] and table.away == {waiting: until}
    assert await service.store.deadline(table.id, "turn") == until + DAY
    assert await service.store.deadline(table.id, "remind") == until + DAY * 4 / 5


async def test_the_lobby_says_the_pace_and_globe_twisters_sand_at_it(service):
    from bot.ui import messages

    table = await service.open_lobby(1, 10, "globe_twister", {}, ANA, pace=DAY)
    words = messages.lobby_words(table)
    assert "Pace: turn-based, 24 h per move · when a move runs out, the table plays it" in words
    assert "At this pace the sand timer runs 4 h 48 min, a fifth of the time per move." in words
    assert "Tempo: rundenbasiert, 24 h pro Zug" in messages.lobby_words(table, lang="de")
    await service.lobby(table.id, "pace.live", ANA)
    assert "Pace: live" in messages.lobby_words(table) and "sand timer runs" not in messages.lobby_words(table)


async def play_turn(service, table) -> None:
    """The seat to act plays its first legal moves until the turn passes."""
    seat = table.to_act()[0]
    for _ in range(10):
        if table.to_act() != [seat]:
            return
        await service.act(table.id, table.version, table.actions_for(seat)[0].key, table.players[seat]["id"])
    raise AssertionError("the turn did not pass")


async def test_three_timeouts_in_a_row_are_a_leave_without_takeover_and_a_restart_keeps_the_count(service, database):
    table = await service.open_lobby(1, 10, "geoneo", {}, ANA, pace=HOUR)
    await service.lobby(table.id, "join", BO)
    await service.lobby(table.id, "takeover.off", ANA)
    await service.lobby(table.id, "start", ANA)
    table = await service.get(table.id)
    idle = 1 - table.to_act()[0]
    for timeouts in range(1, 4):
        await play_turn(service, table)
        assert table.to_act() == [idle]
        if timeouts == 2:  # another process (a restart) counts on from the action log
            service = TableService(service.store, clock=service.test_clock)
            service.test_clock = service.clock
            table = await service.get(table.id)
        service.test_clock.now = await service.store.deadline(table.id, "turn") + 1
        [change] = await service.fire_due()  # its reminder came due before it, but says nothing so late
        remind = await service.store.deadline(table.id, "remind")
        assert remind is None or remind > service.test_clock.now  # the next turn's
        actions = [a for _s, a in await service.store.actions(table.id)]
        if timeouts < 3:
            assert actions[-1] == f"timeout:{idle}" and change.timed_out == (idle,)
    assert actions[-1] == f"leave:{idle}" and change.timed_out == ()
    assert "let three moves in a row run out, so they left the game" in change.text
    assert actions.count(f"timeout:{idle}") == 2 and not is_computer((await service.get(table.id)).players[idle])


async def test_a_shared_stage_is_paused_until_the_last_of_its_players_is_back(service):
    table = await started(service, "globe_twister")  # stage B: both program at once, one deadline
    start = service.test_clock.now
    await service.go_away(1, ANA["id"], 2)
    assert await service.store.deadline(table.id, "turn") == start + DAY + 2 * DAY
    await service.go_away(1, BO["id"], 1)  # inside Ana's vacation: the stage is already paused that long
    assert await service.store.deadline(table.id, "turn") == start + DAY + 2 * DAY
    service.test_clock.now += DAY / 2
    await service.come_back(1, ANA["id"])  # Bo is away one more half day: the stage resumes when he is back
    assert await service.store.deadline(table.id, "turn") == start + DAY + DAY
    await service.come_back(1, BO["id"])  # now: the stage resumes with the day it had
    assert await service.store.deadline(table.id, "turn") == service.test_clock.now + DAY


async def test_privacy_delete_forgets_a_vacation(service):
    now = service.test_clock.now
    assert await service.store.set_away(1, ANA["id"], now + DAY, now)
    assert not await service.store.set_away(1, ANA["id"], now + 2 * DAY, now)  # already away: nothing written
    await service.store.forget_person(1, ANA["id"], ["Ana"])
    assert await service.store.away_of(1, [ANA["id"]], now) == {}
