"""A person's data in the store, on both backends (issue 18 item 5): what names them, deleting it (their rows go,
their seats in stored games become "Former player", the games stay whole for the others), and pruning finished
games older than a server's retention with their logs (migration 009)."""

import json

import pytest

from bot.database import open_store
from bot.store import FORMER_ID, FORMER_PLAYER, GuildSettings, Shards, StillPlaying
from tests.bot.test_ratings_store import ANA, BO, CY, finish

GUILD, OTHER_GUILD = 1, 2
MOD = {"id": 1999, "name": "Mo"}


@pytest.fixture
async def store(database):
    s = await open_store(database)
    yield s
    await s.close()


async def everything(store) -> dict[str, list[dict]]:
    """Every row of every table that can name a person, as text-comparable dicts."""
    out = {}
    for table in ("tables", "results", "result_players", "ratings", "panels", "user_settings", "actions",
                  "deadlines"):
        rows = await store._fetch(f"SELECT * FROM {table}", ())
        out[table] = [dict(r) for r in rows]
    return out


def mentions(rows: list[dict], *needles) -> list[dict]:
    """The rows naming any of ``needles`` (ids, names) in a value; times (floats) aside: a timestamp such as
    1795510823.1000388 holds the digits of the id 1000."""
    return [r for r in rows if any(str(n) in json.dumps({k: v for k, v in r.items() if not isinstance(v, float)},
                                                        default=str) for n in needles)]


async def ended_lobby(store, host, players, *, guild=GUILD, channel=30, reason="nobody started it"):
    t = await store.create_table(guild_id=guild, channel_id=channel, game="geek_out", options={}, seed=1, host=host,
                                 lobby_due=None)
    if players != [host]:
        await store.update_lobby(t.id, 0, players, host["id"])
    await store.close_table(t.id, "ended", reason)
    return t.id


async def test_deleting_a_person_anonymises_them_everywhere_in_the_server_and_only_them(store):
    first = await finish(store, [ANA, BO], [[0], [1]], [9, 4])
    second = await finish(store, [BO, ANA, CY], [[0], [2], [1]], [7, 2, 5], game="geodeto", channel=11)
    await store.execute("UPDATE tables SET last_move = ? WHERE id = ?", "Ana played a Banana card; Bo passed.", first)
    # a seat a computer took over from Ana, and its last move naming her
    handed = {"id": -2, "name": "Computer for Ana", "computer": "normal", "was": dict(ANA)}
    took_over = await finish(store, [BO, handed], [[0], [1]], channel=12)
    await store.execute("UPDATE tables SET last_move = ? WHERE id = ?", "Computer for Ana passed.", took_over)
    lobby = await ended_lobby(store, ANA, [ANA])
    ended_by_her = await ended_lobby(store, BO, [BO, CY], channel=31, reason="too slow (by Ana)")
    theirs = await finish(store, [BO, CY], [[0], [1]], channel=13)
    elsewhere = await finish(store, [ANA, BO], [[1], [0]], guild=OTHER_GUILD, channel=90)
    await store.set_pings(ANA["id"], False)
    await store.save_panel(first, ANA["id"], seat=0, application_id=5, token="t", message_id=None, opened=1.0)
    await store.save_panel(first, BO["id"], seat=1, application_id=5, token="u", message_id=None, opened=1.0)
    before = await everything(store)
    bo_rows = [r for r in before["result_players"] if r["user_id"] == BO["id"]]
    bo_board = await store.leaderboard(GUILD, "geek_out")

    found = await store.person_tables(GUILD, ANA["id"])
    assert [t.id for t in found] == sorted([first, second, took_over, lobby, ended_by_her])
    assert {t.id: t.names for t in found}[took_over] == {"Ana"} and not {t.id: t for t in found}[ended_by_her].seated

    done = await store.forget_person(GUILD, ANA["id"])
    assert (done.tables, done.ratings, done.settings, done.panels) == (5, 2, True, 1)
    after = await everything(store)
    here = {name: [r for r in rows if r.get("guild_id", GUILD) == GUILD and r.get("table_id") != elsewhere]
            for name, rows in after.items()}
    for name in ("tables", "results", "result_players", "ratings", "panels", "user_settings"):
        assert mentions(here[name], ANA["id"], '"Ana"', "Ana ", "(by Ana)") == [], name
    # her seats say "Former player"; everything else of the games is as it was
    t = await store.get_table(first)
    assert t.players == [{"id": FORMER_ID, "name": FORMER_PLAYER}, BO] and t.host_id == FORMER_ID
    assert t.last_move == "Former player played a Banana card; Bo passed."  # "Banana" is not her name
    assert (await store.get_table(took_over)).players[1] == {
        "id": -2, "name": f"Computer for {FORMER_PLAYER}", "computer": "normal",
        "was": {"id": FORMER_ID, "name": FORMER_PLAYER}}
    assert (await store.get_table(took_over)).last_move == "Computer for Former player passed."
    assert (await store.get_table(ended_by_her)).end_reason == "too slow (by a former member)"
    assert (await store.get_table(ended_by_her)).players == [BO, CY]
    games = {g.table_id: g for g in await store.history(GUILD, limit=20)}
    assert [p["name"] for p in games[second].players] == ["Bo", FORMER_PLAYER, "Cy"]
    assert games[second].standings["scores"] == [7, 2, 5] and games[first].winners[0]["name"] == FORMER_PLAYER
    assert await store.actions(first) == [(0, "p")]
    # the others' rows are untouched; hers stay as the game's rows, with no id
    assert [r for r in after["result_players"] if r["user_id"] == BO["id"]] == bo_rows
    assert sorted(r["seat"] for r in after["result_players"] if r["table_id"] == second) == [0, 1, 2]
    assert await store.result_players(theirs) == [r for r in before["result_players"] if r["table_id"] == theirs]
    # gone from the leaderboard and her stats; Bo's rating is what it was
    board = await store.leaderboard(GUILD, "geek_out", around_user=ANA["id"])
    assert {s.name for s in board.rows} == {"Bo", "Cy"} and board.own is None and board.players == 2
    assert {s.name: s.rating for s in board.rows} == {s.name: s.rating for s in bo_board.rows if s.name != "Ana"}
    assert await store.stats(GUILD, ANA["id"]) == []
    # her settings (every server) are gone; her data in the other server stays
    assert await store.user_settings(ANA["id"]) is None and await store.pings_enabled(ANA["id"]) is True
    assert [s.name for s in (await store.leaderboard(OTHER_GUILD, "geek_out")).rows] == ["Bo", "Ana"]
    assert (await store.get_table(elsewhere)).players == [ANA, BO]
    assert (await store.live_panels(0.0)) == [{"table_id": first, "user_id": BO["id"], "seat": 1, "application_id": 5,
                                               "token": "u", "message_id": None, "opened": 1.0,
                                               "locale": None}]
    # asking again finds nothing more to do
    assert await store.person_tables(GUILD, ANA["id"]) == []
    assert (await store.forget_person(GUILD, ANA["id"])).tables == 0


async def test_a_person_at_an_open_table_is_refused_and_nothing_is_deleted(store):
    await finish(store, [ANA, BO], [[0], [1]])
    t = await store.create_table(guild_id=GUILD, channel_id=40, game="geek_out", options={}, seed=1, host=BO,
                                 lobby_due=None)
    await store.start_table(t.id, 0, [BO, ANA], "{}", turn_due=None)
    await store.set_pings(ANA["id"], False)
    before = await everything(store)
    with pytest.raises(StillPlaying) as refused:
        await store.forget_person(GUILD, ANA["id"])
    assert [(x.id, x.channel_id, x.status) for x in refused.value.tables] == [(t.id, 40, "playing")]
    assert await everything(store) == before
    await store.forget_person(GUILD, CY["id"])  # someone else is not held up by it
    assert await everything(store) == before


async def test_a_moderator_is_found_by_the_names_given_and_their_seats(store):
    """One who only ended a game is named in its reason: by their name now (``names``) or a seat's name."""
    ended = await ended_lobby(store, BO, [BO], reason="spam (by Mo)")
    assert await store.person_tables(GUILD, MOD["id"]) == []
    [found] = await store.person_tables(GUILD, MOD["id"], names=["Mo"])
    assert (found.id, found.seated, found.names) == (ended, False, frozenset())
    await finish(store, [MOD, CY], [[0], [1]])  # a seat named Mo: found by that name too
    assert ended in [t.id for t in await store.person_tables(GUILD, MOD["id"])]
    await store.forget_person(GUILD, MOD["id"])
    assert (await store.get_table(ended)).end_reason == "spam (by a former member)"


async def test_a_server_with_many_tables_is_read_in_pages(store):
    store.PAGE = 2
    mine = [await finish(store, [ANA, BO] if i % 2 else [BO, CY], [[0], [1]], channel=50 + i) for i in range(7)]
    # the same creation time on a page boundary: the id orders them
    await store.execute("UPDATE tables SET created_at = 5.0")
    assert [t.id for t in await store.person_tables(GUILD, ANA["id"])] == mine[1::2]
    assert [t.id for t in await store.person_tables(GUILD, CY["id"])] == mine[0::2]


async def aged(store, table_id, days_ago, now=10_000_000.0):
    at = now - days_ago * 86400
    await store.execute("UPDATE tables SET created_at = ?, updated_at = ? WHERE id = ?", at - 600, at, table_id)
    await store.execute("UPDATE results SET finished_at = ? WHERE table_id = ?", at, table_id)


async def test_pruning_deletes_exactly_the_old_finished_games_with_their_logs(store):
    now = 10_000_000.0
    old = await finish(store, [ANA, BO], [[0], [1]], channel=10)
    older = await finish(store, [ANA, CY], [[0], [1]], channel=11)
    recent = await finish(store, [ANA, BO], [[1], [0]], channel=12)
    old_lobby = await ended_lobby(store, ANA, [ANA], channel=13)
    playing = await store.create_table(guild_id=GUILD, channel_id=14, game="geek_out", options={}, seed=1, host=ANA,
                                       lobby_due=None)
    await store.start_table(playing.id, 0, [ANA, BO], "{}", turn_due=now + 60)
    lobby = await store.create_table(guild_id=GUILD, channel_id=15, game="geek_out", options={}, seed=1, host=CY,
                                     lobby_due=now + 60)
    long_game = await finish(store, [BO, CY], [[0], [1]], channel=16)  # begun long ago, ended lately
    elsewhere = await finish(store, [ANA, BO], [[0], [1]], guild=OTHER_GUILD, channel=90)
    for table_id, days in ((old, 40), (older, 50), (recent, 5), (old_lobby, 45), (playing.id, 60), (lobby.id, 60),
                           (elsewhere, 100)):
        await aged(store, table_id, days, now)
    await store.execute("UPDATE tables SET created_at = ?, updated_at = ? WHERE id = ?", now - 40 * 86400,
                        now - 86400, long_game)
    await store.save_panel(old, ANA["id"], seat=0, application_id=5, token="t", message_id=None, opened=1.0)
    await store.set_deadline(old, "turn", 5.0)  # (a finished game has none; one left behind goes with it)
    ratings_before = (await everything(store))["ratings"]

    before = now - 30 * 86400
    assert await store.prune_tables(GUILD, before, limit=1) == 1  # the oldest first
    assert await store.get_table(older) is None and await store.get_table(old) is not None
    assert await store.prune_tables(GUILD, before, limit=10) == 2
    assert await store.prune_tables(GUILD, before, limit=10) == 0
    rows = await everything(store)
    gone = {old, older, old_lobby}
    kept = {recent, playing.id, lobby.id, long_game, elsewhere}
    assert {r["id"] for r in rows["tables"]} == kept
    for name in ("results", "result_players", "actions", "deadlines", "panels"):
        assert not [r for r in rows[name] if r["table_id"] in gone], name
    assert {r["table_id"] for r in rows["results"]} == {recent, long_game, elsewhere}
    assert {r["table_id"] for r in rows["actions"]} == {recent, long_game, elsewhere}
    assert {r["table_id"] for r in rows["deadlines"]} == {playing.id, lobby.id}
    assert rows["ratings"] == ratings_before  # the ladder stays
    assert [g.table_id for g in await store.history(GUILD)] == [long_game, recent]


async def test_retention_is_a_guild_setting_read_per_shard(store):
    guilds = {0: 2 << 22, 1: 3 << 22}  # one guild on each of two shards
    for shard, guild in guilds.items():
        await store.save_guild_settings(GuildSettings(guild, turn_timeout=60, retention_days=30 + shard))
    await store.save_guild_settings(GuildSettings(9 << 22, retention_days=None))
    assert (await store.guild_settings(guilds[1])).retention_days == 31
    assert (await store.guild_settings(guilds[1])).turn_timeout == 60
    assert await store.retention_guilds() == [(guilds[0], 30), (guilds[1], 31)]
    assert await store.retention_guilds(Shards(2, (1,))) == [(guilds[1], 31)]
    await store.save_guild_settings(GuildSettings(guilds[0], retention_days=0))  # 0: forever
    assert (await store.guild_settings(guilds[0])).retention_days is None
    assert await store.retention_guilds() == [(guilds[1], 31)]
