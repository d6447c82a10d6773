import os
import subprocess
import sys

import pytest

from bot.settings import MissingToken, Settings
from bot.store import Shards


def test_without_a_token_the_bot_says_what_to_set_and_exits_non_zero(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    proc = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode != 0
    assert "DISCORD_TOKEN" in proc.stderr and ".env" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_settings_read_the_environment():
    s = Settings.from_env({"DISCORD_TOKEN": "abc", "GEOTABLE_TURN_TIMEOUT": "90", "GEOTABLE_DEV_GUILD": "5"})
    assert (s.token, s.turn_timeout, s.dev_guild, s.database) == ("abc", 90, 5, "data/geotable.db")
    try:
        Settings.from_env({"DISCORD_TOKEN": "  "})
    except MissingToken:
        pass
    else:
        raise AssertionError("a blank token must be refused")


def test_the_database_setting_names_a_sqlite_file_or_a_postgresql_url():
    assert not Settings.from_env({"DISCORD_TOKEN": "a"}).database_is_postgres
    for url in ("postgresql://u:p@db:5432/geotable", "postgres://db/geotable"):
        s = Settings.from_env({"DISCORD_TOKEN": "a", "GEOTABLE_DATABASE": url})
        assert s.database == url and s.database_is_postgres


def test_shard_settings_are_read_and_checked():
    def shards(**env):
        s = Settings.from_env({"DISCORD_TOKEN": "a"} | {f"GEOTABLE_SHARD_{k.upper()}": v for k, v in env.items()})
        return s.shard_count, s.shard_ids, s.shards

    assert shards() == (None, None, None)  # all shards Discord recommends, in this process
    assert shards(count="4") == (4, None, None)  # all four here: every table is this process's
    assert shards(count="4", ids="0,1") == (4, (0, 1), Shards(4, (0, 1)))  # only these shards' tables
    assert shards(count="8", ids=" 4-6, 7 ")[:2] == (8, (4, 5, 6, 7))
    for bad, says in (({"ids": "0"}, "needs GEOTABLE_SHARD_COUNT"), ({"count": "0"}, "1 or more"),
                      ({"count": "two"}, "whole number"), ({"count": "2", "ids": "1,2"}, "not below"),
                      ({"count": "4", "ids": "1,1"}, "twice"), ({"count": "4", "ids": "a-b"}, "0-3")):
        with pytest.raises(ValueError, match=says):
            shards(**bad)


def test_a_bad_shard_setting_stops_the_bot_with_one_line(tmp_path):
    env = dict(os.environ, DISCORD_TOKEN="x", GEOTABLE_SHARD_IDS="0,1")
    env.pop("GEOTABLE_SHARD_COUNT", None)
    proc = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2 and "GEOTABLE_SHARD_COUNT" in proc.stderr and "Traceback" not in proc.stderr


def test_check_says_whether_the_bot_can_start_without_starting_it(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}

    def check(**more):
        return subprocess.run([sys.executable, "-m", "bot", "--check"], cwd=tmp_path, env=dict(env, **more),
                              capture_output=True, timeout=60).returncode

    assert check() == 3  # scripts/run starts the playground instead
    assert check(DISCORD_TOKEN="abc") == 0
    assert check(DISCORD_TOKEN="abc", GEOTABLE_TURN_TIMEOUT="soon") == 2
