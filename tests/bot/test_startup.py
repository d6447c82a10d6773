import os
import subprocess
import sys

from bot.settings import MissingToken, Settings


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


def test_check_says_whether_the_bot_can_start_without_starting_it(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}

    def check(**more):
        return subprocess.run([sys.executable, "-m", "bot", "--check"], cwd=tmp_path, env=dict(env, **more),
                              capture_output=True, timeout=60).returncode

    assert check() == 3  # scripts/run starts the playground instead
    assert check(DISCORD_TOKEN="abc") == 0
    assert check(DISCORD_TOKEN="abc", GEOTABLE_TURN_TIMEOUT="soon") == 2
