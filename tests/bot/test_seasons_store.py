"""Seasons in the store, on both backends (migration 019): a season's ladder is written by the move that ends a
rated game, in its transaction, and equals OpenSkill recomputed from a fresh start over exactly the season's rated
games; its end writes the hall of fame once; its post is claimed once by two stores (two processes)."""

import asyncio
import json
import time

import pytest
from openskill.models import PlackettLuce

from bot import ratings
from bot.database import open_store
from bot.store import FORMER_ID, FORMER_PLAYER, StaleRatings
from tests.bot.test_ratings_store import ANA, BO, BOT, CY, DEE, finish, two_games_of_ana_ending_together

LIBRARY = PlackettLuce()
WEEK = 7 * 86400


@pytest.fixture
async def store(database):
    s = await open_store(database)
    yield s
    await s.close()


async def started(store, name="Spring", guild=1, weeks=4):
    now = time.time()
    season = await store.start_season(guild, name, 77, now, now + weeks * WEEK)
    assert season is not None and season.running
    return season


def recomputed(games: list[dict]) -> dict[tuple[str, int], tuple[float, float, int]]:
    """Each (game, person)'s OpenSkill rating from a fresh start over ``games`` (stored results, in order),
    with the library alone: the ranks are those ``ratings.plan`` reads from the stored standings."""
    out: dict[tuple[str, int], list] = {}
    for g in games:
        standings = json.loads(g["standings"]) if isinstance(g["standings"], str) else g["standings"]
        plan = ratings.plan(g["game"], standings)
        assert plan.rated
        by_seat = {s.seat: s.user for s in plan.seats}
        teams = [[LIBRARY.rating(mu=out.get((g["game"], by_seat[s]), (ratings.MU, ratings.SIGMA, 0))[0],
                                 sigma=out.get((g["game"], by_seat[s]), (ratings.MU, ratings.SIGMA, 0))[1])
                  for s in unit] for unit in plan.units]
        for unit, team in zip(plan.units, LIBRARY.rate(teams, ranks=[float(r) for r in plan.ranks]), strict=True):
            for seat, after in zip(unit, team, strict=True):
                key = (g["game"], by_seat[seat])
                out[key] = (after.mu, after.sigma, out.get(key, (0, 0, 0))[2] + 1)
    return out


async def season_rows(store, season_id):
    rows = await store._fetch("SELECT game, user_id, mu, sigma, rating, games FROM season_ratings WHERE season_id = ?",
                              (season_id,))
    return {(r["game"], r["user_id"]): (r["mu"], r["sigma"], r["games"]) for r in rows}


async def test_a_seasons_ladder_is_openskill_from_a_fresh_start_over_its_rated_games_only(store):
    before = await finish(store, [ANA, BO], [[0], [1]])  # all-time only
    season = await started(store)
    t1 = await finish(store, [ANA, BO, CY], [[2], [0], [1]])
    await finish(store, [ANA, BOT], [[0], [1]])  # a computer: unrated, not the season's
    t2 = await finish(store, [BO, CY], [[0], [1]], channel=11)
    t3 = await finish(store, [ANA, CY, DEE], [[1, 2], [0]], channel=12)  # a shared place
    other = await finish(store, [ANA, BO], [[1], [0]], guild=2)  # another server: no season there
    t4 = await finish(store, [ANA, BO], [[1], [0]], game="geodeto", channel=13)
    games = await store.season_games(season.id)
    assert [g["table_id"] for g in games] == [t1, t2, t3, t4]
    assert (await store.current_season(1)).games == 4
    stored = await season_rows(store, season.id)
    expected = recomputed(games)
    assert stored.keys() == expected.keys()
    for key, (mu, sigma, n) in expected.items():
        assert stored[key] == (pytest.approx(mu), pytest.approx(sigma), n), key
    # the all-time ladder goes on from before the season, as it did without one
    everything = [r for r in await store.results(1) if r["standings"]["players"][1] != BOT]
    assert [r["table_id"] for r in everything] == [before, t1, t2, t3, t4]
    alltime = recomputed([dict(r, standings=json.dumps(r["standings"])) for r in everything])
    for (game, user), (mu, sigma, n) in alltime.items():
        [row] = await store._fetch("SELECT mu, sigma, games FROM ratings WHERE guild_id = 1 AND game = ? AND"
                                   " user_id = ?", (game, user))
        assert (row["mu"], row["sigma"], row["games"]) == (pytest.approx(mu), pytest.approx(sigma), n)
    assert (await store.result_by_short_id(2, str(other))) is not None
    assert await store._fetchval("SELECT season_id FROM results WHERE table_id = ?", (other,)) is None
    board = await store.season_board(season.id, "geek_out", around_user=DEE["id"])
    assert [s.name for s in board.rows][:1] and board.players == 4 and board.own.user_id == DEE["id"]


async def test_a_server_without_a_season_adds_no_statement_and_a_season_adds_two(store):
    """The ending move's read is the one it was (``ladders`` replaces ``skills``) and its transaction has the
    same statements; with a season: the season's row and its ladder's upsert."""
    counted: list[list[str]] = []
    reads: list[str] = []
    run, fetch = store._run, store._fetch

    async def counting_run(steps):
        seen: list[str] = []
        counted.append(seen)

        def wrapped():
            result = None
            while True:
                try:
                    statement = steps.send(result)
                except StopIteration as done:
                    return done.value
                seen.append(statement[1].split(" (")[0][:40])
                result = yield statement
        return await run(wrapped())

    async def counting_fetch(sql, args):
        reads.append(sql)
        return await fetch(sql, args)

    store._run, store._fetch = counting_run, counting_fetch
    await finish(store, [ANA, BO], [[0], [1]])
    plain = counted[-1]
    assert len([r for r in reads if "FROM ratings" in r or "JOIN ratings" in r]) == 1
    assert not any(s.startswith(("UPDATE seasons", "INSERT INTO season")) for s in plain), plain
    store._run, store._fetch = run, fetch
    await started(store)
    store._run, store._fetch = counting_run, counting_fetch
    reads.clear()
    await finish(store, [ANA, BO], [[0], [1]], channel=11)
    assert len([r for r in reads if "ratings" in r]) == 1  # one read before the transaction, as without
    extra = [s for s in counted[-1] if s not in plain]
    assert extra == ["UPDATE seasons SET games = games + 1 WHE", "INSERT INTO season_ratings"], counted[-1]
    assert len(counted[-1]) == len(plain) + 2


async def test_a_game_rated_for_a_season_that_ended_meanwhile_is_refused_whole_then_counted_without_it(store):
    season = await started(store)
    t = await store.create_table(guild_id=1, channel_id=30, game="geek_out", options={}, seed=5, host=ANA,
                                 lobby_due=None)
    await store.start_table(t.id, 0, [ANA, BO], '{"s":0}', turn_due=50.0)
    standings = {"scores": [1, 0], "ranking": [[0], [1]], "players": [ANA, BO], "detail": {}}
    plan = ratings.plan("geek_out", standings)
    skills, running = await store.ladders(t.id, plan.users)
    assert running == (season.id, {})
    rows = plan.rows(skills)
    assert await store.end_season(season.id, time.time(), early=True)
    with pytest.raises(StaleRatings):  # read while the season ran, written after its end: nothing written
        await store.commit_move(table_id=t.id, version=1, state="{}", status="finished", ply=0, seat=0,
                                action="p", turn_due=None, standings=standings, rows=rows,
                                season=(season.id, [r for r in plan.rows(running[1]) if r["rated"]]))
    assert await store.results(1) == []
    await store.record_move(table_id=t.id, version=1, state="{}", status="finished", ply=0, seat=0, action="p",
                            turn_due=None, standings=standings, ratings=plan)
    assert await store._fetchval("SELECT season_id FROM results WHERE table_id = ?", (t.id,)) is None
    assert await season_rows(store, season.id) == {}
    assert (await store.season_named(1, "spring")).games == 0
    assert await store.season_named(1, "sprin") is None
    # and a season started after the read: refused, read again, counted in it
    t2 = await store.create_table(guild_id=1, channel_id=31, game="geek_out", options={}, seed=5, host=ANA,
                                  lobby_due=None)
    await store.start_table(t2.id, 0, [ANA, BO], '{"s":0}', turn_due=50.0)
    skills2, none = await store.ladders(t2.id, plan.users)
    assert none is None
    autumn = await started(store, "Autumn")
    with pytest.raises(StaleRatings):
        await store.commit_move(table_id=t2.id, version=1, state="{}", status="finished", ply=0, seat=0,
                                action="p", turn_due=None, standings=standings, rows=plan.rows(skills2))
    await store.record_move(table_id=t2.id, version=1, state="{}", status="finished", ply=0, seat=0, action="p",
                            turn_due=None, standings=standings, ratings=plan)
    assert [g["table_id"] for g in await store.season_games(autumn.id)] == [t2.id]


async def test_two_games_of_a_player_ending_together_both_count_in_the_season(store):
    season = await started(store)
    await two_games_of_ana_ending_together(store)
    games = await store.season_games(season.id)
    assert len(games) == 2 and (await store.current_season(1)).games == 2
    stored = await season_rows(store, season.id)
    for key, (mu, sigma, n) in recomputed(games).items():
        assert stored[key] == (pytest.approx(mu), pytest.approx(sigma), n)


async def test_one_season_at_a_time_and_its_end_keeps_the_podium_once(store):
    season = await started(store)
    assert await store.start_season(1, "Summer", 77, time.time(), time.time() + WEEK) is None  # one running
    assert (await store.start_season(2, "Spring", 77, time.time(), time.time() + WEEK)) is not None  # per server
    for i, (a, b) in enumerate([(ANA, BO), (ANA, CY), (ANA, DEE), (BO, CY), (DEE, CY)]):
        await finish(store, [a, b], [[0], [1]], channel=40 + i)
    ends = await asyncio.gather(*(store.end_season(season.id, time.time(), early=False) for _ in range(3)))
    assert sorted(ends) == [False, False, True]
    assert not (await store.season_named(1, "Spring")).running and await store.current_season(1) is None
    [podium] = await store.podiums(1)
    board = await store.season_board(season.id, "geek_out", limit=3)
    assert [(p[0], p[1]) for p in podium.rows] == [(s.rank, s.user_id) for s in board.rows]
    assert podium.rows[0][1] == ANA["id"] and podium.season.name == "Spring"
    assert await store.start_season(1, "Spring", 77, time.time(), time.time() + WEEK) is None  # a name is kept
    summer = await store.start_season(1, "Summer", 77, time.time(), time.time() + WEEK)
    await store.end_season(summer.id, time.time(), early=True)  # no rated game: an empty hall
    assert [p.season.name for p in await store.podiums(1)] == ["Spring"]
    assert [s.name for s in await store.seasons(1)] == ["Summer", "Spring"]


async def test_two_processes_claim_the_hall_of_fame_post_once(database):
    first, second = await open_store(database), await open_store(database)
    try:
        season = await started(first)
        assert not await first.claim_season_post(season.id, time.time())  # running: nothing to post
        assert await second.end_season(season.id, time.time(), early=False)
        assert not await first.end_season(season.id, time.time(), early=False)
        now = time.time()
        claims = await asyncio.gather(first.claim_season_post(season.id, now), second.claim_season_post(season.id, now))
        assert sorted(claims) == [False, True]
        assert [s.id for s in await second.seasons_to_close()] == [season.id]  # claimed, not posted yet
        # killed mid-post: claimed again after a while, by one of them
        later = now + 121
        claims = await asyncio.gather(first.claim_season_post(season.id, later),
                                      second.claim_season_post(season.id, later))
        assert sorted(claims) == [False, True]
        await first.season_posted(season.id, 999)
        assert not await second.claim_season_post(season.id, later + 500)
        assert await second.seasons_to_close() == []
    finally:
        await first.close()
        await second.close()


async def test_privacy_delete_takes_season_ratings_and_leaves_former_player_on_the_podium(store):
    season = await started(store)
    await finish(store, [ANA, BO], [[0], [1]])
    assert await store.end_season(season.id, time.time(), early=False)
    autumn = await started(store, "Autumn")
    await finish(store, [ANA, CY], [[0], [1]], channel=11)
    ratings_of, places = await store.person_seasons(1, ANA["id"])
    assert [(r[0], r[1], r[3]) for r in ratings_of] == [("Autumn", "geek_out", 1), ("Spring", "geek_out", 1)]
    assert places == [("Spring", "geek_out", 1)]
    done = await store.forget_person(1, ANA["id"])
    assert done.seasons == 2
    assert await store.person_seasons(1, ANA["id"]) == ([], [])
    [podium] = await store.podiums(1)
    assert podium.rows[0][1:3] == (FORMER_ID, FORMER_PLAYER) and podium.rows[1][2] == "Bo"
    assert [s.user_id for s in (await store.season_board(autumn.id, "geek_out")).rows] == [CY["id"]]
