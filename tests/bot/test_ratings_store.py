"""Ratings, leaderboards, stats and history in the store, on both backends: written by the statement of the
move that ends a game (migration 008), read by indexed queries."""

import asyncio
import json

import aiosqlite
import pytest
from openskill.models import PlackettLuce

from bot import ratings
from bot.database import open_store
from bot.store import StaleRatings, StaleVersion, short_id, table_id_of
from bot.store.sqlite import SQLiteStore

LIBRARY = PlackettLuce()
ANA, BO, CY, DEE = ({"id": 1000 + i, "name": n} for i, n in enumerate(["Ana", "Bo", "Cy", "Dee"]))
BOT = {"id": -1, "name": "Computer (easy)", "computer": "easy"}


@pytest.fixture
async def store(database):
    s = await open_store(database)
    yield s
    await s.close()


async def finish(store, players, ranking, scores=None, *, guild=1, channel=10, game="geek_out", at=None,
                 version_off=0, message=None):
    """A game of ``players`` played to the end: lobby, start, and the one move that ends it."""
    t = await store.create_table(guild_id=guild, channel_id=channel, game=game, options={}, seed=5,
                                 host=players[0] if players[0]["id"] > 0 else ANA, lobby_due=None)
    await store.start_table(t.id, 0, players, '{"s":0}', turn_due=50.0)
    standings = {"scores": scores or [len(players) - i for i in range(len(players))], "ranking": ranking,
                 "players": players, "detail": {}}
    await store.record_move(table_id=t.id, version=1 + version_off, state='{"s":1}', status="finished", ply=0,
                            seat=0, action="p", turn_due=None, standings=standings,
                            ratings=ratings.plan(game, standings))
    if message:
        await store.set_message(t.id, message)
    if at is not None:
        await store.execute("UPDATE results SET finished_at = ? WHERE table_id = ?", at, t.id)
        await store.execute("UPDATE result_players SET finished_at = ? WHERE table_id = ?", at, t.id)
    return t.id


def rating(mu, sigma):
    return round(ratings.displayed(mu, sigma))


async def test_the_move_that_ends_a_game_writes_its_people_and_their_ratings(store):
    table = await finish(store, [ANA, BO], [[1], [0]], [3, 10], message=555)
    (bo,), (ana,) = LIBRARY.rate([[LIBRARY.rating()], [LIBRARY.rating()]], ranks=[1.0, 2.0])
    rows = await store.result_players(table)
    assert [(r["user_id"], r["place"], r["won"], r["rated"], r["score"]) for r in rows] == [
        (ANA["id"], 2, 0, 1, 3), (BO["id"], 1, 1, 1, 10)]
    assert rows[1]["rating"] == pytest.approx(ratings.displayed(bo.mu, bo.sigma))
    board = await store.leaderboard(1, "geek_out", around_user=ANA["id"])
    assert [(s.rank, s.name, s.rating, s.games, s.wins) for s in board.rows] == [
        (1, "Bo", rating(bo.mu, bo.sigma), 1, 1), (2, "Ana", rating(ana.mu, ana.sigma), 1, 0)]
    assert board.own == board.rows[1] and board.players == 2
    # a second game: computed from the stored ratings, as the library does it
    await finish(store, [ANA, BO], [[0], [1]])
    (ana2,), (bo2,) = LIBRARY.rate([[LIBRARY.rating(mu=ana.mu, sigma=ana.sigma)],
                                    [LIBRARY.rating(mu=bo.mu, sigma=bo.sigma)]], ranks=[1.0, 2.0])
    skills = await store.skills(table, [ANA["id"], BO["id"]])
    assert skills == {ANA["id"]: ratings.Skill(ana2.mu, ana2.sigma, 2), BO["id"]: ratings.Skill(bo2.mu, bo2.sigma, 2)}


async def test_a_refused_move_writes_no_result_and_no_rating(store):
    with pytest.raises(StaleVersion):
        await finish(store, [ANA, BO], [[0], [1]], version_off=3)
    assert await store.results(1) == []
    assert await store.stats(1, ANA["id"]) == []
    assert (await store.leaderboard(1, "geek_out")).rows == []


async def test_ratings_computed_from_ratings_that_changed_meanwhile_are_refused_whole(store):
    await finish(store, [ANA, BO], [[0], [1]])  # Ana now has 1 rated game
    t = await store.create_table(guild_id=1, channel_id=11, game="geek_out", options={}, seed=5, host=ANA,
                                 lobby_due=None)
    await store.start_table(t.id, 0, [ANA, CY], '{"s":0}', turn_due=50.0)
    standings = {"scores": [1, 0], "ranking": [[0], [1]], "players": [ANA, CY], "detail": {}}
    stale = ratings.plan("geek_out", standings).rows({})  # as if Ana had no rating yet
    with pytest.raises(StaleRatings):
        await store.commit_move(table_id=t.id, version=1, state='{"s":1}', status="finished", ply=0, seat=0,
                                action="p", turn_due=None, standings=standings, rows=stale)
    assert (await store.get_table(t.id)).version == 1 and len(await store.results(1)) == 1
    assert await store.result_players(t.id) == []


async def two_games_of_ana_ending_together(store) -> list[tuple[int, dict]]:
    """Ana wins against Bo and against Cy at two tables whose ending moves are committed at once; their ids and
    standings."""
    tables = []
    for channel, other in ((20, BO), (21, CY)):
        t = await store.create_table(guild_id=1, channel_id=channel, game="geek_out", options={}, seed=5,
                                     host=ANA, lobby_due=None)
        await store.start_table(t.id, 0, [ANA, other], '{"s":0}', turn_due=50.0)
        tables.append((t.id, {"scores": [1, 0], "ranking": [[0], [1]], "players": [ANA, other], "detail": {}}))
    await asyncio.gather(*(store.record_move(
        table_id=t, version=1, state="{}", status="finished", ply=0, seat=0, action="p", turn_due=None,
        standings=s, ratings=ratings.plan("geek_out", s)) for t, s in tables))
    return tables


async def test_two_games_ending_together_both_count_for_their_shared_player(store):
    """Each reads Ana's rating before either writes: the second is refused, reads again and counts on top."""
    tables = await two_games_of_ana_ending_together(store)
    skills = await store.skills(tables[0][0], [ANA["id"]])
    (first,), _ = LIBRARY.rate([[LIBRARY.rating()], [LIBRARY.rating()]], ranks=[1.0, 2.0])
    (second,), _ = LIBRARY.rate([[LIBRARY.rating(mu=first.mu, sigma=first.sigma)], [LIBRARY.rating()]],
                                ranks=[1.0, 2.0])
    assert skills[ANA["id"]] == ratings.Skill(second.mu, second.sigma, 2)
    [stats] = await store.stats(1, ANA["id"])
    assert (stats.games, stats.wins, len(stats.trend)) == (2, 2, 2)


async def test_games_with_computers_count_as_played_but_not_rated(store):
    await finish(store, [ANA, BOT], [[0], [1]], [40, 3])
    await finish(store, [ANA, BO], [[1], [0]], [12, 30])
    [stats] = await store.stats(1, ANA["id"])
    assert (stats.games, stats.wins, stats.unrated, stats.best_score, len(stats.trend)) == (1, 0, 1, 40, 1)
    only_bot = await finish(store, [CY, BOT], [[0], [1]], channel=12)
    [cy] = await store.stats(1, CY["id"])
    assert (cy.games, cy.unrated, cy.rating, cy.trend) == (0, 1, None, [])
    assert [r["rated"] for r in await store.result_players(only_bot)] == [0]
    board = await store.leaderboard(1, "geek_out", around_user=CY["id"])
    assert {s.name for s in board.rows} == {"Ana", "Bo"} and board.own is None and board.players == 2


async def test_the_leaderboard_shares_ranks_and_finds_the_askers_row_below_the_top(store):
    # Ana beats Bo, Cy beats Dee: Ana and Cy tie, Bo and Dee tie
    await finish(store, [ANA, BO], [[0], [1]])
    await finish(store, [CY, DEE], [[0], [1]])
    board = await store.leaderboard(1, "geek_out", limit=3, around_user=DEE["id"])
    assert [(s.rank, s.name) for s in board.rows] == [(1, "Cy"), (1, "Ana"), (3, "Dee")]
    board = await store.leaderboard(1, "geek_out", limit=2, around_user=BO["id"])
    assert [s.name for s in board.rows] == ["Cy", "Ana"] and (board.own.rank, board.own.name) == (3, "Bo")
    assert board.players == 4
    assert (await store.leaderboard(2, "geek_out", around_user=BO["id"])).own is None  # another server
    assert (await store.leaderboard(1, "geoneo", around_user=BO["id"])).rows == []  # another game


async def test_stats_per_game_with_the_rating_trend(store):
    for at, ranking in ((100.0, [[0], [1]]), (200.0, [[1], [0]]), (300.0, [[0], [1]])):
        await finish(store, [ANA, BO], ranking, [5, 4] if ranking[0] == [0] else [4, 5], at=at)
    await finish(store, [ANA, BO, CY], [[0], [1], [2]], game="geodeto", scores=[21, 17, 9])
    geek, geodeto = await store.stats(1, ANA["id"])
    assert (geek.game, geek.games, geek.wins, geek.unrated, geek.best_score) == ("geek_out", 3, 2, 0, 5)
    assert [at for at, _ in geek.trend] == [100.0, 200.0, 300.0]
    assert geek.trend[-1][1] == geek.rating and geek.trend[1][1] < geek.trend[0][1] < geek.trend[2][1]
    assert (geodeto.game, geodeto.games, geodeto.wins, geodeto.best_score) == ("geodeto", 1, 1, 21)
    assert len((await store.stats(1, ANA["id"], trend=2))[0].trend) == 2
    assert await store.stats(2, ANA["id"]) == []


async def test_history_of_a_server_or_a_channel_newest_first_with_short_ids(store):
    first = await finish(store, [ANA, BO], [[1], [0]], channel=10, at=100.0, message=71)
    second = await finish(store, [ANA, CY, BOT], [[2], [0, 1]], channel=11, at=200.0)
    nobody = await finish(store, [BO, CY], [[0], [1]], channel=10, at=300.0, game="globe_twister")
    await store.execute("UPDATE results SET standings = ? WHERE table_id = ?", json.dumps(
        {"scores": [0, 0], "ranking": [[0], [1]], "players": [BO, CY], "no_winner": True}), nobody)
    await finish(store, [ANA, BO], [[0], [1]], guild=2, channel=90)  # another server
    games = await store.history(1)
    assert [g.table_id for g in games] == [nobody, second, first]
    assert [[p["name"] for p in g.winners] for g in games] == [[], ["Computer (easy)"], ["Bo"]]
    assert [p["name"] for p in games[1].players] == ["Ana", "Cy", "Computer (easy)"]
    assert (games[2].guild_id, games[2].channel_id, games[2].message_id) == (1, 10, 71)
    assert [g.table_id for g in await store.history(1, channel_id=10)] == [nobody, first]
    assert [g.table_id for g in await store.history(1, limit=1)] == [nobody]
    found = await store.result_by_short_id(1, f"#{games[1].short_id}")
    assert (found.table_id, found.game, found.finished_at) == (second, "geek_out", 200.0)
    assert await store.result_by_short_id(2, games[1].short_id) is None  # not this server's
    assert await store.result_by_short_id(1, "no such!") is None
    assert await store.result_by_short_id(1, "999999") is None


def test_short_ids_are_the_table_number_the_board_shows():
    assert [short_id(n) for n in (0, 10, 36, 1_000_000)] == ["0", "10", "36", "1000000"]
    assert [table_id_of(s) for s in ("1000000", "#10", " 10 ", "# 7")] == [1_000_000, 10, 10, 7]
    assert [table_id_of(s) for s in ("", "#", "a", "2s", "-1", "+1", "1.0", "١٢", "9" * 20)] == [None] * 9


async def test_results_stored_before_the_migration_learn_their_channel(tmp_path):
    lite = SQLiteStore(await aiosqlite.connect(tmp_path / "old.db", isolation_level=None))
    lite.db.row_factory = aiosqlite.Row
    try:
        await lite.migrate(upto=7)
        # the rows as that version wrote them (today's create_table writes columns of later migrations)
        await lite.execute("INSERT INTO tables (id, guild_id, channel_id, game, options, seed, status, players,"
                           " host_id, state, version, created_at, updated_at) VALUES (1, 1, 44, 'geek_out', '{}', 1,"
                           " 'playing', ?, ?, '{}', 1, 0, 0)", json.dumps([ANA, BO]), ANA["id"])
        t = await lite.get_table(1)
        await lite.execute("INSERT INTO moves (table_id, version, state, status, ply, seat, action, at, last_move,"
                           " standings) VALUES (?, 1, '{}', 'finished', 0, 0, 'p', 5.0, '', ?)", t.id,
                           json.dumps({"scores": [1, 0], "ranking": [[0], [1]], "players": [ANA, BO]}))
        assert await lite.migrate(upto=8) == 8
        [game] = await lite.history(1, channel_id=44)
        assert (game.table_id, [p["name"] for p in game.winners]) == (t.id, ["Ana"])
    finally:
        await lite.close()
