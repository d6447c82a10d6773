"""Upgrades: a database made by every older schema, with rows in it, upgrades in place to the schema a fresh
database gets, on SQLite and PostgreSQL, and then commits moves as a fresh one does."""

import contextlib
import hashlib
import json
import sqlite3

import aiosqlite
import asyncpg
import pytest

from bot import ratings
from bot.store import StaleVersion, TournamentOpen, migrations
from bot.store.postgres import SCHEMA_TABLE, PostgresStore
from bot.store.sqlite import SQLiteStore

LATEST = migrations("sqlite")[-1][0]
ANA, BO = {"id": 1000, "name": "Ana"}, {"id": 1001, "name": "Bo"}
PLAYERS = json.dumps([ANA, BO])


@pytest.fixture(params=("sqlite", "postgres"))
def empty(request, tmp_path):
    """Makes empty databases of one backend, none of its migrations applied: ``async with empty() as store``."""
    names = iter(range(1000))

    @contextlib.asynccontextmanager
    async def make():
        if request.param == "sqlite":
            db = await aiosqlite.connect(tmp_path / f"{next(names)}.db", isolation_level=None)
            db.row_factory = sqlite3.Row
            await db.execute("PRAGMA foreign_keys = ON")  # as SQLiteStore.connect has it
            store = SQLiteStore(db)
        else:
            server = request.getfixturevalue("postgres_server")
            async with server.scratch() as url:
                store = PostgresStore(await asyncpg.create_pool(url, min_size=1, max_size=2))
                try:
                    yield store
                finally:
                    await store.close()
            return
        try:
            yield store
        finally:
            await store.close()

    return make


async def schema(store) -> dict:
    """Everything the migrations make, as the database describes it: tables, columns, keys, indexes, views,
    triggers and functions (PostgreSQL: with the scratch schema's name taken out)."""
    if store.dialect == "sqlite":
        rows = await store.db.execute_fetchall("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")
        (version,) = (await store.db.execute_fetchall("PRAGMA user_version"))[0]
        return {"objects": [tuple(r) for r in rows], "version": version}
    queries = {
        "columns": "SELECT table_name, column_name, ordinal_position, data_type, is_nullable, column_default,"
                   " is_identity FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY 1, 3",
        "constraints": "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint"
                       " WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2",
        "indexes": "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()"
                   " ORDER BY 2",
        "views": "SELECT table_name, view_definition FROM information_schema.views"
                 " WHERE table_schema = current_schema() ORDER BY 1",
        "triggers": "SELECT t.tgrelid::regclass::text, t.tgname, pg_get_triggerdef(t.oid) FROM pg_trigger t"
                    " JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal"
                    " AND c.relnamespace = current_schema()::regnamespace ORDER BY 2",
        "functions": "SELECT proname, pg_get_functiondef(oid) FROM pg_proc"
                     " WHERE pronamespace = current_schema()::regnamespace ORDER BY 1",
        "sequences": "SELECT sequence_name, data_type FROM information_schema.sequences"
                     " WHERE sequence_schema = current_schema() ORDER BY 1",
        "version": f"SELECT version FROM {SCHEMA_TABLE}",
    }
    async with store.pool.acquire() as con:
        here = await con.fetchval("SELECT current_schema()")
        found = {name: [tuple(r) for r in await con.fetch(sql)] for name, sql in queries.items()}
    return json.loads(json.dumps(found).replace(f"{here}.", "").replace(here, "<schema>"))


async def played_at_version_1(store) -> None:
    """What the first schema held: a game in play with a move and its turn deadline, a finished game with its
    result, a lobby with its deadline, written as that version's code wrote them (the moves view of 001)."""
    for channel, status in ((10, "playing"), (11, "playing"), (12, "lobby")):
        await store.execute(
            "INSERT INTO tables (guild_id, channel_id, game, options, seed, status, players, host_id, state, version,"
            " created_at, updated_at) VALUES (1, ?, 'geek_out', '{}', 5, ?, ?, 1000, ?, 1, 1.0, 1.0)",
            channel, status, PLAYERS, '{"s":0}' if status == "playing" else None)
    await store.execute("INSERT INTO deadlines (table_id, kind, due_at) VALUES (3, 'lobby', 99.0)")
    move = ("INSERT INTO moves (table_id, version, state, status, ply, seat, action, at, last_move, due_at,"
            " standings) VALUES (?, 1, ?, ?, 0, 0, 'a', 2.0, 'Ana moved', ?, ?)")
    await store.execute(move, 1, '{"s":1}', "playing", 60.0, None)
    standings = {"scores": [2, 1], "ranking": [[0], [1]], "players": [ANA, BO], "detail": {}}
    await store.execute(move, 2, '{"s":9}', "finished", None, json.dumps(standings))


async def built_step_by_step(store, upto: int) -> None:
    """The database of a bot that ran every version up to ``upto`` in turn (one migration per upgrade), with
    rows written at the first."""
    for number in range(1, upto + 1):
        assert await store.migrate(upto=number) == number
        if number == 1:
            await played_at_version_1(store)


@pytest.mark.parametrize("since", range(1, LATEST))
async def test_a_database_of_every_older_schema_upgrades_to_the_fresh_schema_and_keeps_playing(empty, since):
    async with empty() as fresh, empty() as old:
        assert await fresh.migrate() == LATEST
        await built_step_by_step(old, since)
        assert await old.migrate() == LATEST  # a start of this version: every pending migration at once
        assert await schema(old) == await schema(fresh), f"a database of schema {since} upgraded"

        # the rows of the first version are there, and the upgraded database commits moves as a fresh one
        assert await old.actions(1) == [(0, "a")] and await old.deadline(1, "turn") == 60.0
        [earlier] = await old.history(1)
        assert (earlier.table_id, earlier.channel_id, [p["name"] for p in earlier.winners]) == (2, 11, ["Ana"])
        with pytest.raises(StaleVersion):
            await old.record_move(table_id=1, version=1, state="{}", status="playing", ply=1, seat=1,
                                  action="late", turn_due=70.0, standings=None)
        await old.record_move(table_id=1, version=2, state='{"s":2}', status="playing", ply=1, seat=1, action="b",
                              turn_due=70.0, standings=None, timer_due=80.0, last_move="Bo moved")
        row = await old.get_table(1)
        assert (row.version, row.state, row.last_move) == (3, '{"s":2}', "Bo moved")
        assert await old.deadline(1, "turn") == 70.0 and await old.deadline(1, "timer") == 80.0
        standings = {"scores": [1, 3], "ranking": [[1], [0]], "players": [ANA, BO], "detail": {}}
        await old.record_move(table_id=1, version=3, state='{"s":3}', status="finished", ply=2, seat=0,
                              action="c", turn_due=None, standings=standings, timer_due=0,
                              ratings=ratings.plan("geek_out", standings))
        assert await old.actions(1) == [(0, "a"), (1, "b"), (0, "c")]
        assert await old.deadline(1, "turn") is None and await old.deadline(1, "timer") is None
        assert [(g.table_id, [p["name"] for p in g.winners]) for g in await old.history(1)] == [(1, ["Bo"]),
                                                                                             (2, ["Ana"])]
        assert [(r["user_id"], r["place"], r["rated"]) for r in await old.result_players(1)] == [
            (ANA["id"], 2, 1), (BO["id"], 1, 1)]
        assert [(s.name, s.games) for s in (await old.leaderboard(1, "geek_out")).rows] == [("Bo", 1), ("Ana", 1)]
        assert await old.prune_tables(1, before=10**12) == 2  # both games go whole, the lobby stays
        assert await old.deadline(3, "lobby") == 99.0


async def test_twin_open_tournaments_of_a_channel_upgrade_to_one(empty):
    """Migration 021 on a database where two creates in the same instant left several open tournaments in one
    channel: the earliest stays open, the later ones close (sign-up: cancelled; running: ended) with their
    closing post due; other channels and closed tournaments are untouched, and the index then holds."""
    async with empty() as old:
        assert await old.migrate(upto=20) == 20
        for channel, status in ((5, "signup"), (5, "signup"), (5, "running"), (6, "running"), (6, "finished"),
                                (7, "running"), (7, "signup")):
            await old.execute(
                "INSERT INTO tournaments (guild_id, channel_id, game, options, format, rounds, size, status,"
                " created_by, created_at, updated_at, final_message) VALUES (1, ?, 'geek_out', '{}', 'swiss', 3,"
                " 2, ?, 9, 1.0, 1.0, ?)", channel, status, None if status in ("signup", "running") else 0)
        assert await old.migrate() == LATEST
        rows = [(t.id, t.channel_id, t.status, t.end_reason, t.final_message)
                for t in [await old.tournament(i) for i in range(1, 8)]]
        twin = "another tournament was already open in this channel"
        assert rows == [(1, 5, "signup", None, None), (2, 5, "cancelled", twin, None), (3, 5, "ended", twin, None),
                        (4, 6, "running", None, None), (5, 6, "finished", None, 0), (6, 7, "running", None, None),
                        (7, 7, "cancelled", twin, None)]
        assert [(t.id, t.status) for t in await old.open_tournaments()] == [
            (1, "signup"), (2, "cancelled"), (3, "ended"), (4, "running"), (6, "running"), (7, "cancelled")]
        with pytest.raises(TournamentOpen):
            await old.create_tournament(guild_id=1, channel_id=5, game="geek_out", options={}, fmt="swiss",
                                        rounds=3, size=2, pace=None, signup_due=None, cap=None, created_by=9)


RELEASED = {  # sha256 (first 16 digits) of each migration file as released: existing databases went through them
    ("sqlite", 1): "c9aac7161f4dc240", ("sqlite", 2): "f80f57c35261a6da", ("sqlite", 3): "d4e0014ea11e9029",
    ("sqlite", 4): "66e21874b3ee86b7", ("sqlite", 5): "1240c7a2eaa8fa0c", ("sqlite", 6): "cbcef768e2f9937c",
    ("sqlite", 7): "47fdf3ec0e12eaa2", ("sqlite", 8): "e2f759989400d0a9", ("sqlite", 9): "2f5a563e028927a3",
    ("sqlite", 10): "d999658356b6a020", ("sqlite", 11): "09b449536df5e8d8", ("sqlite", 12): "5e6b28488d3d4aea",
    ("sqlite", 13): "4b8daac67c556173", ("sqlite", 14): "dbb430c215d74d6e",
    ("sqlite", 15): "5a55142fad818d78", ("sqlite", 16): "35f7ea4b407bee3d",
    ("postgres", 1): "461ef03598789eae", ("postgres", 2): "e51324a768d79d84", ("postgres", 3): "2becdb9a82cc903b",
    ("postgres", 4): "d591fcebba45aa50", ("postgres", 5): "284ae2d1c039b83c", ("postgres", 6): "93af34af62183a9f",
    ("postgres", 7): "ed9612bce7a17d20", ("postgres", 8): "0c6a0372b7315f8b", ("postgres", 9): "59dc95ef4bc10115",
    ("postgres", 10): "10d549293cec9eca", ("postgres", 11): "ac058cd0789505fb", ("postgres", 12): "5631b79ca12c2031",
    ("postgres", 13): "45238103e502871f", ("postgres", 14): "fb5c5ab993a1ec17",
    ("postgres", 15): "0003f4d002730994", ("postgres", 16): "3e9751b405cb3001",
    ("sqlite", 17): "a7e13a3e26624afd", ("postgres", 17): "570dc798898880b9",  # the daily puzzle (issue 28)
    ("sqlite", 18): "aab5ef401aaa1272", ("postgres", 18): "3e8792f5845563f5",  # tournaments (issue 28)
    ("sqlite", 19): "d4c733b61e315c1b", ("postgres", 19): "75c1de287ed8473f",  # seasons, hall of fame (issue 28)
    ("sqlite", 20): "223a1b6ab4ee6f8c", ("postgres", 20): "8e28e1c80474b0bb",  # tournaments' posts made once (issue 28)
    ("sqlite", 21): "85cae6d379408131", ("postgres", 21): "718dcec68cda2792",  # one open tournament a channel (T-B6)
}


def test_released_migrations_are_never_edited():
    """A database records only the number of the last migration it applied: an edit of a released file never
    reaches the databases made before it, so what a fresh database gets would differ from theirs (the test
    above builds old databases from today's files, so this is what keeps them the files of their day). A
    change of schema is a new numbered file."""
    for dialect in ("sqlite", "postgres"):
        for number, sql in migrations(dialect):
            digest = hashlib.sha256(sql.encode()).hexdigest()[:16]
            assert (dialect, number) in RELEASED, f"a new migration: add ({dialect!r}, {number}): {digest!r} to RELEASED"
            assert RELEASED[dialect, number] == digest, f"the released {dialect} migration {number} was edited"
