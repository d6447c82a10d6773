"""Computer seats: the pure helpers (bot/computers.py) and the lobby (TableService)."""

import asyncio
import random
from dataclasses import replace

import pytest

import i18n
from bot.computers import computer_seats, handed_over, is_computer, new_computer, strength_lines, strength_of
from bot.database import open_store
from bot.table.model import Defaults
from bot.table.moves import STEPS_SAID
from bot.table.refusals import Refused
from bot.table.service import TableService
from bot.ui import keys

ANA, BO = {"id": 1, "name": "Ana"}, {"id": 2, "name": "Bo"}


def test_computers_get_unique_negative_ids_and_names():
    players = [ANA]
    for strength in ("strong", "strong", "easy"):
        players.append(new_computer(strength, players))
    assert [p["name"] for p in players] == ["Ana", "Computer (strong)", "Computer 2 (strong)", "Computer (easy)"]
    assert [p["id"] for p in players] == [1, -1, -2, -3]
    assert computer_seats(players) == {1: "strong", 2: "strong", 3: "easy"}
    assert not is_computer(ANA) and strength_of(ANA) is None and strength_of(players[3]) == "easy"
    taken = handed_over(BO, "normal", players)
    assert taken == {"id": -4, "name": "Computer for Bo", "computer": "normal", "was": {"id": 2, "name": "Bo"}}
    with pytest.raises(ValueError):
        new_computer("genius", players)


def test_every_strength_has_a_line_for_every_game():
    from games import all_engines

    for engine in all_engines():
        lines = strength_lines(engine.slug)
        assert list(lines) == ["easy", "normal", "strong"] and all(lines.values())


def test_the_computers_seed_comes_from_the_table_never_from_the_games_seed():
    """docs/ai.md: the bot derives the computers' seed from the table, never from the game's own seed (which
    fixes the deck order and the dice): another game seed at the same table gives the same computer seed."""
    from bot.store import TableRow
    from bot.table.model import computer_seed

    row = TableRow(id=7, guild_id=1, channel_id=2, game="geoneo", options={}, seed=12345, status="playing",
                   players=[], host_id=1, state=None, version=0, message_id=None, last_move=None, end_reason=None,
                   created_at=0.0, updated_at=0.0)
    seed = computer_seed(row)
    assert computer_seed(replace(row, seed=54321)) == seed
    assert seed not in (row.seed, row.id)
    assert computer_seed(replace(row, id=8)) != seed and computer_seed(replace(row, channel_id=3)) != seed


def test_the_lobby_keys_are_lobby_keys():
    for key in ("computer.easy", "drop.2", "takeover.on", "takeover.off", "partner.-3"):
        assert keys.split_utility(key)[0] in keys.LOBBY and keys.legacy_utility(key)


async def test_a_lobby_seats_and_drops_computers_and_sets_the_takeover_option(database):
    service = TableService(await open_store(database))
    try:
        table = await service.open_lobby(1, 10, "geoneo", {}, ANA, computers=["strong"])
        assert [p["name"] for p in table.players] == ["Ana", "Computer (strong)"]
        assert table.row.takeover is True
        change = await service.lobby(table.id, "computer.easy", ANA)
        assert change.text == "Ana added Computer (easy)."
        with pytest.raises(Refused, match="seated player"):
            await service.lobby(table.id, "computer.easy", BO)
        await service.lobby(table.id, "join", BO)
        with pytest.raises(Refused, match="full"):
            await service.lobby(table.id, "computer.normal", ANA)
        with pytest.raises(Refused, match=r"^That seat is a person's, not a computer's\.$"):
            await service.lobby(table.id, "drop.3", ANA)  # Bo, a person
        with pytest.raises(Refused, match="no computer in that seat any more"):
            await service.lobby(table.id, "drop.7", ANA)
        for key in ("drop.1", "computer.normal", "takeover.off"):  # the host's, not another seated player's
            with pytest.raises(Refused, match="^Only the host can"):
                await service.lobby(table.id, key, BO)
        await service.lobby(table.id, "drop.1", ANA)
        await service.lobby(table.id, "computer.normal", ANA)
        await service.lobby(table.id, "takeover.off", ANA)
        stored = await service.store.get_table(table.id)
        assert [p["name"] for p in stored.players] == ["Ana", "Computer (easy)", "Bo", "Computer (normal)"]
        assert stored.takeover is False
        await service.lobby(table.id, "leave", ANA)  # the host left: Bo hosts now, and decides
        await service.lobby(table.id, "takeover.on", BO)
        assert (await service.store.get_table(table.id)).takeover is True
    finally:
        await service.store.close()


async def test_open_lobby_refuses_more_computers_than_seats_and_unknown_strengths(database):
    service = TableService(await open_store(database))
    try:
        with pytest.raises(Refused, match="at most 3 computers"):
            await service.open_lobby(1, 10, "geoneo", {}, ANA, computers=["easy"] * 4)
        with pytest.raises(Refused, match="not 'genius'"):
            await service.open_lobby(1, 10, "geodeto", {}, ANA, computers=["genius"])
        assert await service.store.open_table_in(10) is None
    finally:
        await service.store.close()


async def test_a_lobby_closes_when_its_last_person_leaves_and_the_host_passes_to_a_person(database):
    service = TableService(await open_store(database))
    try:
        table = await service.open_lobby(1, 10, "geodeto", {}, ANA, computers=["easy"])
        await service.lobby(table.id, "join", BO)
        await service.lobby(table.id, "leave", ANA)
        assert table.row.host_id == BO["id"]
        change = await service.lobby(table.id, "leave", BO)
        assert change.closed and (await service.store.get_table(table.id)).status == "ended"
    finally:
        await service.store.close()


async def test_one_person_and_computers_start_a_game(database):
    service = TableService(await open_store(database))
    try:
        table = await service.open_lobby(1, 10, "geodeto", {}, ANA)
        with pytest.raises(Refused, match="at least"):
            await service.lobby(table.id, "start", ANA)
        await service.lobby(table.id, "computer.normal", ANA)
        await service.lobby(table.id, "start", ANA)
        assert table.status == "playing" and table.state["players"] == 2
    finally:
        await service.store.close()


# --- computers at play: their pending move is the turn deadline, fired by the service ---------------------------
class Clock:
    def __init__(self, now: float = 1_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


PAUSE = 0.8


def one_step(table, log, start: int) -> bool:
    """Whether the moves ``log[start:]`` are one computer step: a move that says something, after the picks
    that say nothing and that it completes (a pyramid picked, its destination to come)."""
    engine = table.engine
    state = engine.replay(len(table.players), table.row.options, table.row.seed, log[:start])
    said = []
    for seat, key in log[start:]:
        state, events = engine.apply(state, seat, key)
        said.append(any(e.text for e in events))
    return bool(said) and said[-1] and not any(said[:-1])


async def computers_move(service, clock) -> list:
    """The computers' pause passes: their deadline fires, they think (in worker processes) and commit."""
    clock.now += PAUSE
    changes = await service.fire_due()
    await service.computers_done()
    return changes + await service.fire_due()


async def play_with_computers(service, clock, table_id, rng, limit=600) -> dict:
    """The persons play random legal moves, the computers move when their deadline fires; counts by kind."""
    counts = {"person": 0, "computer firings": 0}
    for _ in range(limit):
        table = await service.get(table_id)
        if table.status != "playing":
            return counts
        people = [s for s in table.to_act() if not is_computer(table.players[s])]
        if table.computers_due(held=table.waiting_for_people()):
            assert table.turn_due <= clock.now + PAUSE  # a computer to move: the deadline is the pause
            moved = len(await service.store.actions(table_id))
            changes = await computers_move(service, clock)
            # they moved, or (a simultaneous stage) found nothing to do but wait for the people
            assert (len(changes) == 1 and len(await service.store.actions(table_id)) > moved
                    or not changes and people and table.waiting_for_people())
            counts["computer firings"] += 1
        elif people:
            seat = rng.choice(people)
            action = rng.choice(table.actions_for(seat))
            await service.act(table_id, table.version, action.key, table.players[seat]["id"])
            counts["person"] += 1
    raise AssertionError("the game did not end")


async def test_one_person_and_two_computers_play_geodeto_to_the_end_one_computer_step_per_firing(database):
    from games import get_engine

    clock = Clock()
    service = TableService(await open_store(database), Defaults(computer_pause=PAUSE), clock=clock)
    try:
        table = await service.open_lobby(1, 10, "geodeto", {"goals": 2}, ANA, computers=["normal", "strong"])
        await service.lobby(table.id, "start", ANA)
        counts = await play_with_computers(service, clock, table.id, random.Random(3))
        row = await service.store.get_table(table.id)
        log = await service.store.actions(table.id)
        assert row.status == "finished" and counts["person"] and counts["computer firings"]
        engine = get_engine("geodeto")
        assert engine.encode(engine.replay(3, row.options, row.seed, log)) == row.state
        # one step per firing, never queued: a step is a move that says something (a pick that says nothing,
        # its destination to come, is played with its destination)
        state, steps = engine.new(3, row.options, row.seed), 0
        for seat, key in log:
            state, events = engine.apply(state, seat, key)
            steps += seat in (1, 2) and any(e.text for e in events)
        assert steps == counts["computer firings"]
        [result] = await service.store.results(1)
        assert [p.get("computer") for p in result["standings"]["players"]] == [None, "normal", "strong"]
    finally:
        await service.store.close()


async def computers_wait_for_ana(service, clock, table, timeout=60) -> None:
    """The stage's start: the computers enter their programs in one firing and do not lock in while Ana, a
    person, is still programming; their deadline is then Ana's turn timeout, not a pause firing again."""
    moved = len(await service.store.actions(table.id))
    await computers_move(service, clock)
    entered = (await service.store.actions(table.id))[moved:]
    for seat in (1, 2):  # each computer's program went in within the one firing, but not its lock-in
        keys = [a for s, a in entered if s == seat]
        assert keys and "lock" not in keys and any(table.state["programs"][seat])
    assert table.to_act() == [0, 1, 2] and table.waiting_for_people() == {1, 2}
    assert await service.store.deadline(table.id, "turn") == clock.now + timeout  # Ana's timeout
    assert await service.store.deadline(table.id, "timer") is None  # nobody turned the sand timer
    clock.now += timeout / 2
    assert await service.fire_due() == [] and not service._thinking  # no computer deadline firing in vain
    assert len(await service.store.actions(table.id)) == moved + len(entered)


async def test_globe_twister_computers_program_at_once_but_lock_in_only_after_the_people(database):
    clock = Clock()
    service = TableService(await open_store(database), Defaults(turn_timeout=60, computer_pause=PAUSE), clock=clock)
    try:
        table = await service.open_lobby(1, 10, "globe_twister", {"turn_limit": 3, "timer": 300}, ANA,
                                         computers=["normal", "strong"])
        await service.lobby(table.id, "start", ANA)
        assert table.to_act() == [0, 1, 2] and table.turn_due == clock.now + PAUSE  # not after the people
        await computers_wait_for_ana(service, clock, table)
        await service.act(table.id, table.version, "c0", ANA["id"])  # Ana programs: still her timeout
        assert await service.store.deadline(table.id, "turn") == clock.now + 60
        await service.act(table.id, table.version, "back", ANA["id"])
        change = await service.act(table.id, table.version, "lock", ANA["id"])  # the last person locks in...
        assert "Ana locks in and turns the sand timer" in change.text and table.state["starter"] == 0
        assert await service.store.deadline(table.id, "turn") == clock.now + PAUSE  # ...the computers follow
        [ran] = await computers_move(service, clock)
        assert ran.announcements and table.state["last_run"]["starter"] == 0  # the stage ended at once
        log = await service.store.actions(table.id)
        assert [s for s, a in log if a == "lock"][-3:][0] == 0  # Ana first, then the computers

        await computers_wait_for_ana(service, clock, table)  # the next stage: Ana sits idle
        clock.now += 31
        [timed_out] = await service.fire_due()  # her timeout still works beside waiting computers
        assert timed_out.timed_out == (0,) and table.to_act() == [1, 2]
        assert await service.store.deadline(table.id, "turn") == clock.now + PAUSE  # no person left: lock in
        counts = await play_with_computers(service, clock, table.id, random.Random(5))
        assert (await service.store.get_table(table.id)).status == "finished" and counts["computer firings"]
    finally:
        await service.stop_computers()
        await service.store.close()


async def test_computers_entering_their_programs_draw_a_board_each_not_one_per_key(database, monkeypatch):
    """A Globe Twister computer enters its program with a key per click (cell, card, direction) in one firing.
    Each key once started a board of its own in the render workers (some 20-60 at a stage's start), all but the
    last thrown away, and the firing's board (and with it the deadline loop, and the computers' lock-in after
    the people's) waited behind them: now only a computer's last key of the firing draws its board."""
    from bot.workers import renderpool

    drawn = []

    async def board(game, *args, **kwargs):
        drawn.append(game)
        return b""

    monkeypatch.setattr(renderpool, "board", board)
    clock = Clock()
    service = TableService(await open_store(database), Defaults(turn_timeout=60, computer_pause=PAUSE), clock=clock)
    try:
        table = await service.open_lobby(1, 10, "globe_twister", {}, ANA, computers=["normal", "strong"])
        await service.lobby(table.id, "start", ANA)
        await computers_move(service, clock)  # both enter their programs, then wait for Ana
        entered = await service.store.actions(table.id)
        assert len(entered) >= 6 and {seat for seat, _key in entered} == {1, 2}
        assert len(drawn) == 2  # one board per computer (the last one's is the firing's)
    finally:
        await service.stop_computers()
        await service.store.close()


async def test_without_a_sand_timer_a_persons_lock_in_freezes_the_computers_programs_as_they_stand(database):
    clock = Clock()
    service = TableService(await open_store(database), Defaults(turn_timeout=60, computer_pause=PAUSE), clock=clock)
    try:
        table = await service.open_lobby(1, 10, "globe_twister", {"turn_limit": 2, "no_timer": True}, ANA,
                                         computers=["normal", "strong"])
        await service.lobby(table.id, "start", ANA)
        await computers_wait_for_ana(service, clock, table)  # the computers never stop everyone first
        entered = [list(p) for p in table.state["programs"]]
        change = await service.act(table.id, table.version, "lock", ANA["id"])
        assert 'Ana locks in and shouts "Stop!"' in change.text and change.announcements
        runs = {r["seat"]: r["program"] for r in table.state["last_run"]["runs"]}
        for seat in (1, 2):  # the computers' unlocked programs ran as they stood
            assert runs[seat] == [None if e is None else {"card": e[0], "dir": e[1]} for e in entered[seat]]
            assert any(runs[seat])
    finally:
        await service.stop_computers()
        await service.store.close()


async def test_a_globe_twister_computer_picks_its_photo_side_after_the_people(database):
    clock = Clock()
    service = TableService(await open_store(database), Defaults(turn_timeout=60, computer_pause=PAUSE), clock=clock)
    try:
        table = await service.open_lobby(1, 10, "globe_twister", {"photo": "choose"}, ANA, computers=["normal"])
        await service.lobby(table.id, "start", ANA)
        assert table.state["phase"] == "side" and table.to_act() == [0, 1]
        assert await computers_move(service, clock) == []  # its pick would end its part: it waits for Ana
        assert table.waiting_for_people() == {1} and await service.store.deadline(table.id, "turn") == clock.now + 60
        await service.act(table.id, table.version, "back", ANA["id"])
        assert await service.store.deadline(table.id, "turn") == clock.now + PAUSE
        await computers_move(service, clock)
        assert table.state["phase"] == "program" and (await service.store.actions(table.id))[-1] == (1, "front")
        assert not table.waiting_for_people() and table.turn_due == clock.now + PAUSE  # the program next
        await computers_move(service, clock)
        assert table.waiting_for_people() == {1} and any(table.state["programs"][1])
    finally:
        await service.stop_computers()
        await service.store.close()


async def test_a_player_who_leaves_hands_their_seat_to_a_computer_and_the_game_goes_on_to_its_end(database):
    from games import get_engine

    clock = Clock()
    service = TableService(await open_store(database), Defaults(computer_pause=PAUSE), clock=clock)
    try:
        table = await service.open_lobby(1, 10, "geodeto", {"goals": 2}, ANA)
        await service.lobby(table.id, "join", BO)
        await service.lobby(table.id, "start", ANA)
        had = get_engine("geodeto").scores_now(table.state)[1]  # (the cards in hand count against)
        change = await service.leave(table, BO["id"])
        assert change.text == "Bo left. A computer plays their seat from now on."
        assert table.players[1] == {"id": -1, "name": "Computer for Bo", "computer": "normal",
                                    "was": {**BO, "score": had}}
        assert (await service.store.actions(table.id))[-1] == (-1, "handover:1")
        assert (await service.store.get_table(table.id)).players == table.players  # written with the move
        with pytest.raises(Refused, match="not playing"):
            await service.leave(table, BO["id"])
        await play_with_computers(service, clock, table.id, random.Random(8))
        row = await service.store.get_table(table.id)
        assert row.status == "finished"
        engine = get_engine("geodeto")
        assert engine.encode(engine.replay(2, row.options, row.seed, await service.store.actions(table.id))) == row.state
        [result] = await service.store.results(1)
        assert result["standings"]["players"][1]["was"] == {**BO, "score": had}
        # Bo's row (history, his best score in /stats) has what he scored, not what the computer made of it
        assert result["standings"]["scores"][1] != had
        bo_row = next(r for r in await service.store.result_players(table.id) if r["user_id"] == BO["id"])
        [stats] = await service.store.stats(1, BO["id"])
        assert bo_row["score"] == had and stats.best_score == had
    finally:
        await service.stop_computers()
        await service.store.close()


async def test_with_takeover_off_a_player_who_leaves_leaves_as_before(database):
    service = TableService(await open_store(database))
    try:
        table = await service.open_lobby(1, 10, "geodeto", {}, ANA)
        await service.lobby(table.id, "join", BO)
        await service.lobby(table.id, "join", {"id": 3, "name": "Cy"})
        await service.lobby(table.id, "takeover.off", ANA)
        await service.lobby(table.id, "start", ANA)
        await service.leave(table, BO["id"], by="Mo")
        assert (await service.store.actions(table.id))[-1] == (-1, "remove:1")
        assert table.players[1] == BO and table.status == "playing"
    finally:
        await service.store.close()


async def test_a_moderator_hands_an_idle_players_seat_to_a_computer_which_then_moves(database):
    clock = Clock()
    service = TableService(await open_store(database), Defaults(computer_pause=PAUSE), clock=clock)
    try:
        table = await service.open_lobby(1, 10, "geodeto", {}, ANA)
        await service.lobby(table.id, "join", BO)
        await service.lobby(table.id, "start", ANA)
        idle = table.players[table.to_act()[0]]
        change = await service.hand_over(table, idle["id"], by="Mo")
        assert change.text == f"A moderator (Mo) handed {idle['name']}'s seat to a computer."
        assert table.computers_to_act() and await service.store.deadline(table.id, "turn") == clock.now + PAUSE
        moved = len(await service.store.actions(table.id))
        await computers_move(service, clock)
        assert one_step(table, await service.store.actions(table.id), moved)
        with pytest.raises(Refused, match="not playing"):
            await service.hand_over(table, idle["id"], by="Mo")
    finally:
        await service.stop_computers()
        await service.store.close()


async def test_when_the_last_person_leaves_a_table_of_computers_the_game_ends(database):
    service = TableService(await open_store(database))
    try:
        table = await service.open_lobby(1, 10, "geodeto", {}, ANA, computers=["easy", "easy"])
        await service.lobby(table.id, "start", ANA)
        change = await service.leave(table, ANA["id"])
        assert change.closed and "Only computers were left" in change.text
        assert (await service.store.actions(table.id))[-1] == (-1, "leave:0")
        assert (await service.store.get_table(table.id)).status == "ended" and await service.store.deadlines() == []
    finally:
        await service.store.close()


async def test_a_moderator_handing_the_last_persons_seat_to_a_computer_ends_the_game(database):
    service = TableService(await open_store(database))
    try:
        table = await service.open_lobby(1, 10, "geoneo", {}, ANA, computers=["easy"])
        await service.lobby(table.id, "join", BO)
        await service.lobby(table.id, "start", ANA)
        await service.leave(table, BO["id"])  # a computer takes Bo's seat: Ana is the last person
        assert table.status == "playing" and is_computer(table.players[2])
        change = await service.hand_over(table, ANA["id"], by="Mo")
        assert change.closed and change.text == ("A moderator (Mo) handed Ana's seat to a computer. Only computers "
                                                 "were left at the table, so the game ended.")
        assert (await service.store.actions(table.id))[-1] == (-1, "handover:0")
        row = await service.store.get_table(table.id)
        assert row.status == "ended" and row.end_reason == "only computers were left at the table"
        assert await service.store.deadlines() == [] and await service.store.results(1) == []  # no standings

        other = await service.open_lobby(1, 11, "geoneo", {}, ANA, computers=["easy"])
        await service.lobby(other.id, "join", BO)
        await service.lobby(other.id, "start", ANA)
        await service.leave(other, BO["id"], by="Mo")  # removed, takeover on: a computer plays Bo's seat
        change = await service.leave(other, ANA["id"], by="Mo")  # the last person removed: no takeover
        assert change.closed and "Only computers were left" in change.text
        assert (await service.store.actions(other.id))[-1] == (-1, "remove:0")
    finally:
        await service.store.close()


async def test_a_pending_computer_move_survives_a_restart_and_is_made_once(database):
    clock = Clock()
    store = await open_store(database)
    service = TableService(store, Defaults(computer_pause=PAUSE), clock=clock)
    table = await service.open_lobby(1, 10, "geodeto", {}, ANA)
    await service.lobby(table.id, "computer.strong", ANA)
    await service.lobby(table.id, "start", ANA)
    while table.to_act() == [0]:  # Ana first: her moves make the computer's turn
        await service.act(table.id, table.version, table.actions_for(0)[0].key, ANA["id"])
    assert table.to_act() == [1]
    moved = len(await store.actions(table.id))
    await store.close()  # the process stops with the computer's move pending

    store = await open_store(database)
    try:
        again = TableService(store, Defaults(computer_pause=PAUSE), clock=clock)
        clock.now += PAUSE
        await again.fire_due()
        await asyncio.gather(again.fire_due(), again.fire_due())  # firings meanwhile never move it twice
        await again.computers_done()
        log = await store.actions(table.id)
        assert {seat for seat, _key in log[moved:]} == {1} and one_step(await again.get(table.id), log, moved)
        assert [c.table.id for c in await again.fire_due()] == [table.id]
    finally:
        await store.close()


async def test_a_start_cut_short_before_its_turn_deadline_gets_one_at_the_next_start(database):
    clock = Clock()
    store = await open_store(database)
    service = TableService(store, Defaults(computer_pause=PAUSE), clock=clock)
    table = await service.open_lobby(1, 10, "geodeto", {}, ANA, computers=["easy"])
    await service.lobby(table.id, "start", ANA)
    await store.execute("DELETE FROM deadlines WHERE table_id = ?", table.id)  # the crash between the two writes
    await store.close()
    store = await open_store(database)
    try:
        again = TableService(store, Defaults(turn_timeout=60, computer_pause=PAUSE), clock=clock)
        await again.restore_turn_deadlines()
        stored = await again.get(table.id)
        waits = PAUSE if stored.computers_to_act() else 60
        assert await store.deadline(table.id, "turn") == clock.now + waits
        await again.restore_turn_deadlines()  # nothing more to do
        assert len(await store.deadlines()) == 1
    finally:
        await store.close()


async def test_computers_of_several_tables_think_at_once_and_a_slow_one_holds_up_no_other(database, monkeypatch):
    from bot.workers import thinkpool

    clock = Clock()
    service = TableService(await open_store(database), Defaults(computer_pause=PAUSE), clock=clock)
    decide, held = thinkpool.decide, asyncio.Event()
    slow_table = None

    async def decide_slowly_for_one_table(game, state, *args):
        if state["seed"] == slow_table.row.seed:
            await held.wait()  # this table's computer is still thinking...
        return await decide(game, state, *args)

    monkeypatch.setattr(thinkpool, "decide", decide_slowly_for_one_table)
    try:
        tables = []
        for channel in (10, 11):
            table = await service.open_lobby(1, channel, "geoneo", {}, ANA, computers=["normal"])
            await service.lobby(table.id, "start", ANA)
            while table.to_act() == [0]:
                await service.act(table.id, table.version, table.actions_for(0)[0].key, ANA["id"])
            tables.append(table)
        slow_table = tables[0]
        versions = [t.version for t in tables]
        clock.now += PAUSE
        assert await service.fire_due() == []  # the firing returns at once: both think in the background
        await asyncio.wait_for(service._thinking[tables[1].id], 120)
        assert tables[1].version == versions[1] + 1 and tables[0].version == versions[0]  # ...the other moved
        assert await service.fire_due() != [] and tables[0].id in service._thinking  # never fired twice
        held.set()
        await service.computers_done()
        assert tables[0].version == versions[0] + 1
    finally:
        held.set()
        await service.stop_computers()
        await service.store.close()


async def test_a_computer_thinking_while_a_person_programs_still_moves_and_one_whose_table_closed_does_not(
        database, monkeypatch):
    from bot.workers import thinkpool

    clock = Clock()
    service = TableService(await open_store(database), Defaults(computer_pause=PAUSE), clock=clock)
    decide, meanwhile = thinkpool.decide, []

    async def decide_while_something_happens(*args):
        keys = await decide(*args)
        for happen in meanwhile:  # outside the lock: the table moves on while the computer thinks
            await happen()
        return keys

    monkeypatch.setattr(thinkpool, "decide", decide_while_something_happens)
    try:
        table = await service.open_lobby(1, 10, "globe_twister", {"turn_limit": 2}, ANA, computers=["normal"])
        await service.lobby(table.id, "start", ANA)
        assert table.to_act() == [0, 1]
        version = table.version
        meanwhile[:] = [lambda: service.act(table.id, version, table.actions_for(0)[0].key, ANA["id"])]
        await computers_move(service, clock)
        log = await service.store.actions(table.id)
        assert log[0][0] == 0 and log[-1][0] == 1  # Ana clicked first; the computer's program still went in
        assert "lock" not in [a for s, a in log if s == 1]  # ...and waits for Ana, still programming

        other = await service.open_lobby(1, 11, "geodeto", {}, ANA, computers=["easy", "easy"])
        await service.lobby(other.id, "start", ANA)
        while other.to_act() == [0]:
            await service.act(other.id, other.version, other.actions_for(0)[0].key, ANA["id"])
        moves = len(await service.store.actions(other.id))
        meanwhile[:] = [lambda: service.leave(other, ANA["id"])]  # the last person leaves: the table closes
        await computers_move(service, clock)
        assert (await service.store.get_table(other.id)).status == "ended"
        assert [s for s, _k in (await service.store.actions(other.id))[moves:]] == [-1]  # Ana's leave only
    finally:
        await service.stop_computers()
        await service.store.close()


STEP = 0.1


async def test_a_computers_steps_get_the_short_pause_its_turn_the_long_one_and_each_step_is_shown(database):
    """Geek Out, Ana and two computers: the move that leads to a computer's turn (Ana's, the other computer's)
    writes the long pause; a step inside the turn (the same computer alone to act before and after: its next
    die, a roll) the short one. Each firing plays one step and hands it over on its own to be shown."""
    clock = Clock()
    service = TableService(await open_store(database), Defaults(turn_timeout=60, computer_pause=PAUSE,
                                                                computer_step_pause=STEP, computer_board_every=0),
                           clock=clock)
    rng = random.Random(2)
    seen = {"step": 0, "turn": 0, "person": 0}
    try:
        table = await service.open_lobby(1, 10, "geek_out", {"turns": 2}, ANA, computers=["strong", "normal"])
        await service.lobby(table.id, "start", ANA)
        while table.status == "playing":
            due = await service.store.deadline(table.id, "turn")
            before = table.to_act()
            if before == [0]:
                await service.act(table.id, table.version, rng.choice(table.actions_for(0)).key, ANA["id"])
                if table.status == "playing" and table.to_act() != [0]:
                    assert await service.store.deadline(table.id, "turn") == clock.now + PAUSE  # a turn comes
                continue
            assert due in (clock.now + PAUSE, clock.now + STEP)
            clock.now = due
            moved = len(await service.store.actions(table.id))
            changes = await service.fire_due()
            await service.computers_done()
            changes += await service.fire_due()
            log = await service.store.actions(table.id)
            assert len(changes) == 1 and one_step(table, log, moved)  # one step, handed over to be shown
            if table.status != "playing":
                break
            after = await service.store.deadline(table.id, "turn")
            kind = "step" if table.to_act() == before else "person" if table.to_act() == [0] else "turn"
            assert after == clock.now + {"step": STEP, "turn": PAUSE, "person": 60}[kind]
            seen[kind] += 1
        assert all(seen.values()), seen
    finally:
        await service.stop_computers()
        await service.store.close()


async def test_a_computers_turn_gets_a_board_at_most_every_pause_and_its_steps_between_are_said_with_the_next(
        database):
    """Issue 24's pace: a strong Geek Out computer's turn is some 28 steps; a board each is some 28 channel
    edits, which Discord's rate limit (about five a channel in five seconds) spreads over half a minute. Each
    step is committed, but inside the turn a board comes at most every ``board_every`` (the turn's pause); the
    steps between are quiet (not shown) and said in the next board's words; the turn's last step always has
    its board."""
    clock = Clock()
    service = TableService(await open_store(database), Defaults(turn_timeout=60, computer_pause=PAUSE,
                                                                computer_step_pause=STEP), clock=clock)
    rng = random.Random(5)
    quiet_seen = shown_seen = 0
    try:
        table = await service.open_lobby(1, 10, "geek_out", {"turns": 3}, ANA, computers=["strong"])
        await service.lobby(table.id, "start", ANA)
        unsaid, last_board = [], None
        while table.status == "playing":
            if table.to_act() == [0]:
                await service.act(table.id, table.version, rng.choice(table.actions_for(0)).key, ANA["id"])
                last_board = clock.now
                continue
            clock.now = await service.store.deadline(table.id, "turn")
            computer_turn = table.to_act() == [1]
            moved = len(await service.store.actions(table.id))
            changes = await service.fire_due()
            await service.computers_done()
            changes += await service.fire_due()
            assert len(await service.store.actions(table.id)) > moved  # every step is committed
            if not computer_turn:
                continue
            if not changes:  # a quiet step: inside the turn, less than a pause after its last board
                quiet_seen += 1
                assert table.to_act() == [1] and clock.now - last_board < PAUSE
                unsaid = [i18n.localize(words, "en") for words in table.unshown]  # kept for the next board
                continue
            (change,) = changes
            shown_seen += 1
            assert change.board is not None
            said = i18n.localize(change.text, "en")
            assert all(words in said for words in unsaid[-STEPS_SAID:]), (unsaid, said)  # the steps between...
            assert len(said.splitlines()) <= STEPS_SAID + 2  # ...one a line, the latest ones (and its own)
            unsaid, last_board = [], clock.now
        assert quiet_seen >= 10 and shown_seen >= 3, (quiet_seen, shown_seen)
    finally:
        await service.stop_computers()
        await service.store.close()


async def test_a_computers_step_is_shown_as_soon_as_it_is_committed_and_its_next_step_starts_only_after(
        database, monkeypatch):
    """Issue 25: a computer's committed step is shown by its own task at once (``TableService.show``), not
    when the deadline loop next asks; the table's next step cannot start while the step is being shown, even
    when it is already due (a step pause of 0), so no step's board is skipped; once shown, the deadline loop
    is woken to start it."""
    import secrets

    monkeypatch.setattr(secrets, "randbits", lambda bits: 1)  # dice for a long turn of the computer's
    clock = Clock()
    service = TableService(await open_store(database), Defaults(computer_pause=PAUSE, computer_step_pause=0,
                                                                computer_board_every=0), clock=clock)
    shown, release = [], asyncio.Event()

    async def show(change):
        shown.append(change.table.version)
        await release.wait()

    service.show = show
    try:
        table = await service.open_lobby(1, 10, "geek_out", {"turns": 3}, ANA, computers=["strong"])
        await service.lobby(table.id, "start", ANA)
        while table.to_act() == [0]:  # Ana's turn: she passes as soon as she may
            keys = [a.key for a in table.actions_for(0)]
            await service.act(table.id, table.version, "p" if "p" in keys else keys[0], ANA["id"])
        clock.now += PAUSE
        for _ in range(3):
            if table.to_act() != [1]:
                break
            version = table.version
            assert await service.fire_due() == [] and service._thinking  # the computer's step starts
            for _wait in range(400):  # it thinks in a worker, commits, then shows the step itself
                if shown and shown[-1] > version:
                    break
                await asyncio.sleep(0.01)
            assert shown[-1] == table.version > version and service._thinking  # shown by its own task
            assert await service.store.deadline(table.id, "turn") <= clock.now  # the next step is due...
            assert await service.fire_due() == [] and table.version == shown[-1]  # ...but waits for the show
            service._wake_pending = False
            release.set()
            await service.computers_done()
            release.clear()
            assert not service._thinking and service._wake_pending  # shown: the deadline loop looks again
        assert len(shown) >= 2 and shown == sorted(shown)
    finally:
        release.set()
        await service.stop_computers()
        await service.store.close()
async def test_a_person_can_team_up_with_a_computer(database):
    service = TableService(await open_store(database))
    try:
        table = await service.open_lobby(1, 10, "geoneo", {}, ANA, computers=["easy", "strong"])
        await service.lobby(table.id, "join", BO)
        easy = next(p for p in table.players if p.get("computer") == "easy")  # seat 1: not Ana's partner yet
        change = await service.lobby(table.id, f"partner.{easy['id']}", ANA)
        assert change.text == "Ana teamed up with Computer (easy)."
        teams = table.engine.teams(4)
        seat = {p["id"]: s for s, p in enumerate(table.players)}
        assert any({seat[ANA["id"]], seat[easy["id"]]} == set(t) for t in teams)
    finally:
        await service.store.close()


def test_the_computer_pause_and_thinking_workers_are_read_and_checked():
    from bot.settings import SettingError, Settings

    def settings(**env):
        return Settings.from_env({"DISCORD_TOKEN": "a"} | {f"GEOTABLE_{k.upper()}": v for k, v in env.items()})

    s = settings(computer_pause="", computer_step_pause="", ai_workers="")  # as .env.example leaves them
    assert (s.computer_pause, s.computer_step_pause, s.computer_board_every, s.ai_workers) == (0.8, 0.05, None, None)
    assert s.computer_step_pause < s.computer_pause  # a step inside a turn waits less than a turn
    s = settings(computer_pause="2.5", computer_step_pause="0.3", ai_workers="3")
    assert (s.computer_pause, s.computer_step_pause, s.ai_workers) == (2.5, 0.3, 3)
    assert settings(computer_pause="0.05").computer_step_pause == 0.05  # never longer than a turn's pause
    defaults = Defaults()
    assert defaults.pause(step=True) < defaults.pause(step=False) == defaults.computer_pause
    assert Defaults(computer_pause=0.01).pause(step=True) == 0.01  # e.g. the tests' quick bots
    for bad, says in (({"computer_pause": "-1"}, "GEOTABLE_COMPUTER_PAUSE is 0 to 60"),
                      ({"computer_pause": "soon"}, "GEOTABLE_COMPUTER_PAUSE must be a number"),
                      ({"computer_step_pause": "2"}, r"GEOTABLE_COMPUTER_STEP_PAUSE is 0 to GEOTABLE_COMPUTER_PAUSE \(0.8\)"),
                      ({"computer_board_every": "-1"}, "GEOTABLE_COMPUTER_BOARD_EVERY is 0 to 60"),
                      ({"ai_workers": "0"}, "GEOTABLE_AI_WORKERS must be 1 or more")):
        with pytest.raises(SettingError, match=says):
            settings(**bad)


def test_a_seats_display_name_is_the_computers_name_as_data_in_every_language():
    """What boards and messages show for a seat (``display_name``): a computer's name rebuilt from its stored
    fields as a Text (so boards shorten it and say it in their language), a person's name as it is."""
    import i18n
    from bot.computers import display_name
    from render.common import short_name

    players = [{"id": 1, "name": "Ana"}]
    for strength in ("strong", "strong"):
        players.append(new_computer(strength, players))
    players.append(handed_over({"id": 2, "name": "Bo Long"}, "normal", players))
    legacy = {"id": -9, "name": "Computer 3 (easy)", "computer": "easy"}  # stored before "number" was kept
    shown = [display_name(p) for p in [*players, legacy]]
    assert shown == ["Ana", "Computer (strong)", "Computer 2 (strong)", "Computer for Bo Long", "Computer 3 (easy)"]
    assert [short_name(n) for n in shown] == ["Ana", "Strong", "Strong 2", "Bo's bot", "Easy 3"]
    with i18n.using("de"):
        assert [i18n.here(n) for n in shown[1:3]] == ["Computer (stark)", "Computer 2 (stark)"]
        assert short_name(shown[3]) == "Bot von Bo"


async def test_a_person_who_locks_in_while_the_computer_thinks_is_followed_at_once_not_at_the_sand(
        database, monkeypatch):
    """Issue 24: once the first stage stalled 30 s, a normal computer locking in only when the sand ran out.
    The race: Ana (the only person) locks in while the computer thinks about its program, on a snapshot in
    which she was still programming (so it plans to hold its lock-in for her). Whatever it commits then, the
    next deadline must be the computer's short pause, and its lock-in must follow, never the sand timer."""
    from bot.workers import thinkpool

    clock = Clock()
    service = TableService(await open_store(database), Defaults(turn_timeout=60, computer_pause=PAUSE), clock=clock)
    real = thinkpool.decide
    try:
        table = await service.open_lobby(1, 10, "globe_twister", {"turn_limit": 2, "timer": 300}, ANA,
                                         computers=["normal"])
        await service.lobby(table.id, "start", ANA)

        async def decide(*args, **kwargs):
            keys = await real(*args, **kwargs)
            if table.to_act() == [0, 1]:  # Ana acts while the computer is still thinking
                await service.act(table.id, table.version, "lock", ANA["id"])
            return keys

        monkeypatch.setattr(thinkpool, "decide", decide)
        clock.now += PAUSE
        await service.fire_due()
        await service.computers_done()
        await service.fire_due()
        assert table.to_act() in ([1], []), table.to_act()
        for _ in range(3):  # the computer follows within a few of its pauses, not at the sand (300 s)
            if table.state.get("last_run"):
                break
            due = await service.store.deadline(table.id, "turn")
            assert due is not None and due <= clock.now + PAUSE, (due - clock.now, table.waiting_for_people())
            await computers_move(service, clock)
        assert table.state.get("last_run"), "the computer never locked in"
        log = await service.store.actions(table.id)
        assert not [key for _seat, key in log if key.startswith(("timer:", "timeout:"))]
    finally:
        await service.stop_computers()
        await service.store.close()
