import asyncio
import itertools
import json

import aiosqlite
import asyncpg
import pytest

from bot.database import open_store
from bot.store import ChannelBusy, GuildSettings, Shards, StaleVersion, migrations
from bot.store.postgres import SCHEMA_TABLE, PostgresStore
from bot.store.sqlite import SQLiteStore


@pytest.fixture
async def store(database):
    s = await open_store(database)
    yield s
    await s.close()


async def make(store, channel=10):
    return await store.create_table(
        guild_id=1, channel_id=channel, game="geek_out", options={}, seed=5, host={"id": 7, "name": "Ana"},
        lobby_due=100.0,
    )


async def test_the_setting_picks_the_backend_and_migrations_are_applied_once(database):
    s = await open_store(database)
    assert isinstance(s, PostgresStore if database.startswith("postgresql://") else SQLiteStore)
    assert await s.migrate() == migrations(s.dialect)[-1][0]
    await s.close()
    s = await open_store(database)  # again: nothing re-applied, no error
    assert await s.migrate() == migrations(s.dialect)[-1][0]
    await s.close()


async def test_sqlite_runs_in_wal_mode(tmp_path):
    s = await open_store(tmp_path / "a.db")
    async with s.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    await s.close()


async def test_processes_starting_together_on_postgres_migrate_once(postgres_server):
    async with postgres_server.scratch() as url:
        stores = await asyncio.gather(*(open_store(url) for _ in range(3)))
        try:
            assert {await s.migrate() for s in stores} == {migrations("postgres")[-1][0]}
            assert await stores[0]._fetchval(f"SELECT count(*) FROM {SCHEMA_TABLE}", ()) == 1
        finally:
            for s in stores:
                await s.close()


async def test_one_open_table_per_channel(store):
    t = await make(store)
    with pytest.raises(ChannelBusy):
        await make(store)
    await store.close_table(t.id, "ended", "test")
    await make(store)  # the channel is free again


async def test_a_move_writes_state_log_deadline_and_result_or_nothing(store):
    t = await make(store)
    await store.start_table(t.id, 0, [{"id": 7, "name": "Ana"}], '{"s":0}', turn_due=50.0)
    assert await store.deadlines() == [(t.id, "turn", 50.0)]
    await store.record_move(table_id=t.id, version=1, state='{"s":1}', status="playing", ply=0, seat=0,
                            action="u1", turn_due=80.0, standings=None)
    with pytest.raises(StaleVersion):
        await store.record_move(table_id=t.id, version=1, state='{"s":9}', status="playing", ply=1, seat=0,
                                action="p", turn_due=90.0, standings=None)
    row = await store.get_table(t.id)
    assert (row.state, row.version) == ('{"s":1}', 2)
    assert await store.actions(t.id) == [(0, "u1")]
    assert await store.deadlines() == [(t.id, "turn", 80.0)]
    await store.record_move(table_id=t.id, version=2, state='{"s":2}', status="finished", ply=1, seat=0,
                            action="p", turn_due=None, standings={"scores": [3]})
    assert await store.deadlines() == []
    [res] = await store.results(1)
    assert res["standings"] == {"scores": [3]} and res["game"] == "geek_out"
    assert (await store.get_table(t.id)).status == "finished"


async def test_a_move_starts_keeps_and_stops_a_game_timer_in_the_same_statement(store):
    t = await make(store)
    await store.start_table(t.id, 0, [{"id": 7, "name": "Ana"}], '{"s":0}', turn_due=50.0)
    await store.record_move(table_id=t.id, version=1, state='{"s":1}', status="playing", ply=0, seat=0,
                            action="lock", turn_due=80.0, standings=None, timer_due=31.5)
    assert sorted(await store.deadlines()) == [(t.id, "timer", 31.5), (t.id, "turn", 80.0)]
    await store.record_move(table_id=t.id, version=2, state='{"s":2}', status="playing", ply=1, seat=1,
                            action="x", turn_due=90.0, standings=None)  # None: the timer runs on
    assert (t.id, "timer", 31.5) in await store.deadlines()
    assert await store.due_deadlines(40.0) == [(t.id, "timer", 31.5)] and await store.next_deadline() == 31.5
    await store.record_move(table_id=t.id, version=3, state='{"s":3}', status="playing", ply=2, seat=0,
                            action="lock", turn_due=95.0, standings=None, timer_due=0)  # 0: stopped
    assert await store.deadlines() == [(t.id, "turn", 95.0)]


async def test_the_move_commit_is_the_stores_with_no_trigger_view_or_function_of_its_own(store):
    """A move is committed by ``Store.commit_move`` (one definition for both databases), not by database code
    that migrations re-create: the only trigger left deletes a table with what hangs off it."""
    if store.dialect == "sqlite":
        found = {(r[0], r[1]) for r in await store._fetch(
            "SELECT type, name FROM sqlite_master WHERE type IN ('view', 'trigger')", ())}
    else:
        found = {(r[0], r[1]) for r in await store._fetch(
            "SELECT 'view', table_name::text FROM information_schema.views WHERE table_schema = current_schema()"
            " UNION SELECT DISTINCT 'trigger', trigger_name::text FROM information_schema.triggers"
            " WHERE trigger_schema = current_schema() UNION SELECT 'function', proname::text FROM pg_proc"
            " WHERE pronamespace = current_schema()::regnamespace", ())}
        found -= {("function", "tables_delete")}
    assert found == {("trigger", "tables_delete")}


async def started(store, channel=10):
    t = await make(store, channel)
    await store.start_table(t.id, 0, [{"id": 7, "name": "Ana"}], '{"s":0}', turn_due=50.0)
    await store.record_move(table_id=t.id, version=1, state='{"s":1}', status="playing", ply=0, seat=0,
                            action="a", turn_due=60.0, standings=None)
    return t.id


async def test_a_move_that_fails_half_way_writes_nothing(store):
    t = await started(store)
    with pytest.raises(Exception, match="(?i)unique|duplicate"):  # its action's ply is logged already
        await store.record_move(table_id=t, version=2, state='{"s":2}', status="finished", ply=0, seat=0,
                                action="b", turn_due=None, standings={"scores": [3]}, timer_due=30.0)
    row = await store.get_table(t)
    assert (row.version, row.state, row.status) == (2, '{"s":1}', "playing")
    assert await store.actions(t) == [(0, "a")] and await store.deadlines() == [(t, "turn", 60.0)]
    assert await store.results(1) == []
    await store.record_move(table_id=t, version=2, state='{"s":2}', status="playing", ply=1, seat=0, action="b",
                            turn_due=70.0, standings=None)  # the store goes on
    assert await store.actions(t) == [(0, "a"), (0, "b")]


def cancelled_at_statement(store, n):
    """Makes the store's transactions stop as cancelled as their ``n``-th statement (0: the first) is about to
    be sent (on SQLite that is inside the database's thread, where the whole transaction runs)."""
    real = store._run

    def cancelling(steps):
        result = None
        for sent in itertools.count():
            try:
                statement = steps.send(result)
            except StopIteration as done:
                return done.value
            if sent == n:
                raise asyncio.CancelledError()
            result = yield statement

    async def run(steps):
        return await real(cancelling(steps))

    store._run = run
    return lambda: setattr(store, "_run", real)


async def test_a_move_cancelled_at_any_point_is_written_whole_or_not_at_all(store, database):
    """A click's task cancelled (at shutdown) while its move is being committed: as one of the move's statements
    is sent (nothing is written), or after 0, 1, 2 ... steps of the event loop (all or nothing). Another
    connection sees that, and the store goes on."""
    t = await started(store)
    other = await open_store(database)
    try:
        version, ply = 2, 1
        for point in [("statement", n) for n in range(3)] + [("steps", n) for n in range(12)]:
            restore = cancelled_at_statement(store, point[1]) if point[0] == "statement" else lambda: None
            task = asyncio.create_task(store.record_move(
                table_id=t, version=version, state=f'{{"s":{version}}}', status="playing", ply=ply, seat=0,
                action=f"m{point}", turn_due=100.0 + ply, standings=None, timer_due=200.0 + ply))
            for _ in range(point[1] if point[0] == "steps" else 0):
                await asyncio.sleep(0)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            restore()
            await store.set_ping_message(t, ply)  # a statement of this store after it
            row, log = await other.get_table(t), await other.actions(t)
            assert row.ping_message_id == ply, point
            if row.version == version + 1:  # written whole
                assert point[0] == "steps" and (row.state, log[-1]) == (f'{{"s":{version}}}', (0, f"m{point}"))
                assert sorted(await other.deadlines()) == [(t, "timer", 200.0 + ply), (t, "turn", 100.0 + ply)]
                version, ply = version + 1, ply + 1
            else:  # or not at all
                assert row.version == version and len(log) == ply, point
                assert (t, "turn", 100.0 + ply) not in await other.deadlines(), point
        await store.record_move(table_id=t, version=version, state="{}", status="playing", ply=ply, seat=0,
                                action="last", turn_due=None, standings=None)
        assert (await other.actions(t))[-1] == (0, "last")
    finally:
        await other.close()


async def test_lobby_updates_are_version_checked(store):
    t = await make(store)
    await store.update_lobby(t.id, 0, [{"id": 7, "name": "Ana"}, {"id": 8, "name": "Bo"}], 7)
    with pytest.raises(StaleVersion):
        await store.update_lobby(t.id, 0, [], 7)
    row = await store.get_table(t.id)
    assert [p["name"] for p in row.players] == ["Ana", "Bo"] and row.version == 1


async def test_guild_settings_round_trip(store):
    assert await store.guild_settings(3) == GuildSettings(3)
    await store.save_guild_settings(GuildSettings(3, 120, [5, 6]))
    assert await store.guild_settings(3) == GuildSettings(3, 120, [5, 6])
    await store.save_guild_settings(GuildSettings(3, None, None))
    assert await store.guild_settings(3) == GuildSettings(3)
    assert json.dumps(1)


async def test_ids_and_seeds_are_64_bit_and_times_keep_their_fraction(store):
    snowflake = 1_234_567_890_123_456_789
    t = await store.create_table(guild_id=snowflake, channel_id=snowflake + 1, game="geek_out", options={"a": 1},
                                 seed=2**62 - 1, host={"id": snowflake + 2, "name": "Ana"}, lobby_due=12.345678)
    row = await store.get_table(t.id)
    assert (row.guild_id, row.channel_id, row.host_id, row.seed) == (snowflake, snowflake + 1, snowflake + 2,
                                                                     2**62 - 1)
    assert row.options == {"a": 1} and await store.deadline(t.id, "lobby") == 12.345678
    await store.set_message(t.id, snowflake + 3)
    assert (await store.get_table(t.id)).message_id == snowflake + 3


async def test_two_writers_racing_for_one_version_one_wins_and_the_other_is_told(database):
    first, second = await open_store(database), await open_store(database)
    try:
        t = await make(first)
        await first.start_table(t.id, 0, [{"id": 7, "name": "Ana"}], '{"s":0}', turn_due=50.0)

        async def move(store, action):
            await store.record_move(table_id=t.id, version=1, state=f'{{"s":"{action}"}}', status="playing",
                                    ply=0, seat=0, action=action, turn_due=60.0, standings=None)
            return action

        outcomes = await asyncio.gather(move(first, "a"), move(second, "b"), return_exceptions=True)
        won = [o for o in outcomes if isinstance(o, str)]
        assert len(won) == 1 and [type(o) for o in outcomes if not isinstance(o, str)] == [StaleVersion]
        assert await second.actions(t.id) == [(0, won[0])]
        row = await second.get_table(t.id)
        assert (row.version, row.state) == (2, f'{{"s":"{won[0]}"}}')
    finally:
        await first.close()
        await second.close()


async def test_shown_version_never_goes_back_and_behind_lists_unshown_boards(store):
    t = await make(store)
    await store.set_message(t.id, 99)
    await store.start_table(t.id, 0, [{"id": 7, "name": "Ana"}], '{"s":0}', turn_due=None)
    assert await store.behind() == [t.id]
    await store.set_shown_version(t.id, 1)
    await store.set_shown_version(t.id, 0)
    assert (await store.get_table(t.id)).shown_version == 1 and await store.behind() == []


async def test_a_process_reads_only_its_shards_deadlines_and_boards_behind(store):
    shards = Shards(3, (0, 2))
    # real snowflakes, one guild on each of the 3 shards (Discord's rule: (guild_id >> 22) % count)
    guilds = {shards.of(g): g for g in range(1_234_567_890_123_456_789, 1_234_567_890_123_456_789 + (5 << 22),
                                             1 << 22)}
    tables = {}
    for shard in (0, 1, 2):
        t = await store.create_table(guild_id=guilds[shard], channel_id=700 + shard, game="geek_out", options={},
                                     seed=1, host={"id": 7, "name": "Ana"}, lobby_due=10.0 + shard)
        await store.set_message(t.id, 99)
        await store.update_lobby(t.id, 0, [{"id": 7, "name": "Ana"}], 7)
        tables[shard] = t.id
    assert [t for t, _kind, _due in await store.due_deadlines(20.0)] == [tables[0], tables[1], tables[2]]
    assert [t for t, _kind, _due in await store.due_deadlines(20.0, shards=shards)] == [tables[0], tables[2]]
    assert await store.due_deadlines(20.0, shards=Shards(3, (1,))) == [(tables[1], "lobby", 11.0)]
    assert await store.next_deadline() == 10.0 and await store.next_deadline(Shards(3, (1, 2))) == 11.0
    assert await store.next_deadline(Shards(1, (0,))) == 10.0
    assert await store.behind(shards) == [tables[0], tables[2]] and len(await store.behind()) == 3


async def test_pings_default_on_and_can_be_switched(store):
    user = 987_654_321_987_654_321
    assert await store.pings_enabled(user) is True
    await store.set_pings(user, False)
    assert await store.pings_enabled(user) is False and await store.pings_enabled(5) is True
    await store.set_pings(user, True)
    assert await store.pings_enabled(user) is True


async def test_panels_are_kept_replaced_and_forgotten_once_their_token_is_too_old(store):
    guilds = {0: 2 << 22, 1: 3 << 22}  # one guild on each of two shards
    tables = [await store.create_table(guild_id=guilds[shard], channel_id=800 + shard, game="geek_out", options={},
                                       seed=1, host={"id": 7, "name": "Ana"}, lobby_due=None) for shard in (0, 1)]
    snowflake = 987_654_321_987_654_321
    for t in tables:
        await store.save_panel(t.id, snowflake, seat=1, application_id=snowflake + 1, token="old", message_id=None,
                               opened=1000.0)
        await store.save_panel(t.id, snowflake, seat=1, application_id=snowflake + 1, token="new",
                               message_id=snowflake + 2, opened=2000.0, locale="de")  # a click renews it
    await store.save_panel(tables[0].id, 5, seat=0, application_id=1, token="stale", message_id=3, opened=500.0)
    [mine] = await store.live_panels(1500.0, Shards(2, (0,)))
    assert mine == {"table_id": tables[0].id, "user_id": snowflake, "seat": 1, "application_id": snowflake + 1,
                    "token": "new", "message_id": snowflake + 2, "opened": 2000.0, "locale": "de"}
    assert len(await store.live_panels(0.0)) == 2  # the stale one was deleted by the first read
    await store.delete_panel(tables[0].id, snowflake)
    await store.delete_panel(tables[1].id)
    assert await store.live_panels(0.0) == []


# --- the two migration sets stay in step ---------------------------------------------------------------

def test_both_backends_have_the_same_migration_numbers_without_gaps():
    """A database keeps only the last number it applied: a gap filled later would be skipped for good."""
    numbers = [n for n, _ in migrations("sqlite")]
    assert numbers == [n for n, _ in migrations("postgres")] == list(range(1, len(numbers) + 1))


# SQLite's INTEGER is 64-bit and its REAL a double: PostgreSQL's BIGINT (or INTEGER where 32 bits do) and
# DOUBLE PRECISION (never REAL, a 4-byte float there)
SQLITE_KINDS = {"INTEGER": "integer", "TEXT": "text", "REAL": "real"}
POSTGRES_KINDS = {"bigint": "integer", "integer": "integer", "text": "text", "double precision": "real"}


async def sqlite_schema(db: aiosqlite.Connection) -> dict:
    schema = {"tables": {}, "views": {}, "indexes": {}, "triggers": {}}
    objects = await db.execute_fetchall(
        "SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
    for kind, name, table in objects:
        if kind == "view":
            schema["views"][name] = [c[1] for c in await db.execute_fetchall(f"PRAGMA table_info({name})")]
        elif kind == "trigger":
            schema["triggers"][name] = table
        elif kind == "table":
            columns = await db.execute_fetchall(f"PRAGMA table_info({name})")  # cid, name, type, notnull, default, pk
            keys = await db.execute_fetchall(f"PRAGMA foreign_key_list({name})")  # ..., table, from, to, ...
            schema["tables"][name] = {
                "columns": [(c[1], SQLITE_KINDS[c[2].upper()], bool(c[3] or c[5]), c[4]) for c in columns],
                "primary_key": [c[1] for c in sorted(columns, key=lambda c: c[5]) if c[5]],
                "foreign_keys": sorted((k[3], k[2], k[4]) for k in keys),
            }
            for index in await db.execute_fetchall(f"PRAGMA index_list({name})"):  # seq, name, unique, origin, partial
                if index[3] != "pk":
                    cols = await db.execute_fetchall(f"PRAGMA index_info({index[1]})")
                    schema["indexes"][index[1]] = (name, [c[2] for c in cols], bool(index[2]), bool(index[4]))
    return schema


async def postgres_schema(con: asyncpg.Connection) -> dict:
    schema = {"tables": {}, "views": {}, "indexes": {}, "triggers": {}}
    here = "current_schema()"
    for name, kind in await con.fetch(
            f"SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = {here}"
            f" AND table_name <> '{SCHEMA_TABLE}'"):
        columns = await con.fetch(
            "SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns"
            f" WHERE table_schema = {here} AND table_name = $1 ORDER BY ordinal_position", name)
        if kind == "VIEW":
            schema["views"][name] = [c[0] for c in columns]
            continue
        primary = [r[0] for r in await con.fetch(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
            " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = $1::regclass AND i.indisprimary"
            " ORDER BY array_position(i.indkey::int2[], a.attnum)", name)]
        keys = await con.fetch(
            "SELECT a.attname, c.confrelid::regclass::text, f.attname FROM pg_constraint c"
            " JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]"
            " JOIN pg_attribute f ON f.attrelid = c.confrelid AND f.attnum = c.confkey[1]"
            " WHERE c.contype = 'f' AND c.conrelid = $1::regclass", name)
        schema["tables"][name] = {
            "columns": [(c[0], POSTGRES_KINDS[c[1]], c[2] == "NO", c[3]) for c in columns],
            "primary_key": primary,
            "foreign_keys": sorted(tuple(k) for k in keys),
        }
    for name, table, unique, partial, cols in await con.fetch(
            "SELECT i.relname, t.relname, x.indisunique, x.indpred IS NOT NULL,"
            " array(SELECT a.attname FROM pg_attribute a WHERE a.attrelid = t.oid AND a.attnum = ANY(x.indkey)"
            "       ORDER BY array_position(x.indkey::int2[], a.attnum))"
            " FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid"
            f" WHERE NOT x.indisprimary AND t.relnamespace = {here}::regnamespace"):
        schema["indexes"][name] = (table, list(cols), unique, partial)
    for name, table in await con.fetch(
            "SELECT DISTINCT trigger_name, event_object_table FROM information_schema.triggers"
            f" WHERE trigger_schema = {here}"):
        schema["triggers"][name] = table
    return schema


async def test_the_postgres_migrations_keep_in_step_with_sqlites_after_every_step(tmp_path, postgres_server):
    """Same tables, columns (name, kind, nullability, default, order), keys, indexes, views and triggers,
    compared by introspecting both databases after each migration, in a fresh PostgreSQL database."""
    lite = SQLiteStore(await aiosqlite.connect(tmp_path / "step.db", isolation_level=None))
    async with postgres_server.scratch_database() as url:
        pg = PostgresStore(await asyncpg.create_pool(url, min_size=1, max_size=1))
        try:
            for number, _sql in migrations("sqlite"):
                assert await lite.migrate(upto=number) == number
                assert await pg.migrate(upto=number) == number
                async with pg.pool.acquire() as con:
                    assert await postgres_schema(con) == await sqlite_schema(lite.db), f"after migration {number}"
                if number == 8:  # the comparison sees views' columns (the moves view of 001-012)
                    assert (await sqlite_schema(lite.db))["views"]["moves"][-1] == "ratings"
            async with pg.pool.acquire() as con:  # Discord ids (snowflakes) and seeds need 64 bits
                narrow = await con.fetch(
                    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema ="
                    " current_schema() AND (column_name LIKE '%id' OR column_name = 'seed')"
                    " AND data_type <> 'bigint' AND table_name <> 'moves'")
                assert [tuple(r) for r in narrow] == []
        finally:
            await pg.close()
            await lite.close()


def test_the_store_interface_imports_no_backend():
    """bot/store/ is the interface and the queries; only bot/database.py picks (and imports) a backend
    (bot/store/sqlite.py, bot/store/postgres.py)."""
    import ast
    from pathlib import Path

    import bot.store

    backends = ("bot.store.sqlite", "bot.store.postgres", "aiosqlite", "asyncpg")
    for path in sorted(Path(bot.store.__file__).parent.glob("*.py")):
        if path.stem in ("sqlite", "postgres"):
            continue
        tree = ast.parse(path.read_text())
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
            a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert not {m for m in imported if m and m.startswith(backends)}, path.name
