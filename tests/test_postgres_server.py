"""The test harness's PostgreSQL server (tests/postgres.py): found or failed loudly, never skipped."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.postgres import ENV_BIN, ENV_URL, PostgresUnavailable, find_bin_dir, with_query

ROOT = Path(__file__).resolve().parent.parent


def test_no_server_programs_is_an_error_that_says_what_to_install(tmp_path):
    with pytest.raises(PostgresUnavailable, match="apt-get install postgresql.*GEOTABLE_TEST_POSTGRES"):
        find_bin_dir([str(tmp_path)])


def test_without_a_server_the_postgres_tests_fail_not_skip_and_the_sqlite_ones_still_run(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != ENV_URL} | {ENV_BIN: str(tmp_path / "nowhere")}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "pings_default_on",
         "tests/bot/test_store.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0
    assert "1 passed" in proc.stdout and "1 error" in proc.stdout and "skipped" not in proc.stdout
    assert "The PostgreSQL tests need a PostgreSQL server" in proc.stdout


def test_a_url_gains_query_parameters():
    assert with_query("postgresql://u@/db?host=%2Ftmp%2Fx", search_path="t_1") == \
        "postgresql://u@/db?host=%2Ftmp%2Fx&search_path=t_1"
