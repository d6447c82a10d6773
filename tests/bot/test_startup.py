import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
from pathlib import Path

import asyncpg
import pytest

from bot.database import open_store
from bot.settings import MissingToken, SettingError, Settings
from bot.store import NotADatabaseSetting, Shards
from bot.store.sqlite import SQLiteStore


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


# --- operators' mistakes: one sentence that names the setting, where it came from and the cause --------------
def run_bot(cwd, **env) -> subprocess.CompletedProcess:
    """``python -m bot`` as an operator starts it: a token, no command sync, and ``env`` (in the environment)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GEOTABLE_", "DISCORD_"))}
    return subprocess.run([sys.executable, "-m", "bot"], cwd=cwd, capture_output=True, text=True, timeout=90,
                          env=base | {"DISCORD_TOKEN": "x", "GEOTABLE_SYNC_COMMANDS": "0"} | env)


def one_sentence(proc: subprocess.CompletedProcess, *words: str) -> str:
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode != 0 and "Traceback" not in proc.stderr and len(lines) == 1, (proc.returncode,
                                                                                         proc.stderr)
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def with_url(url: str, *, user: str | None = None, database: str | None = None, **query: str) -> str:
    parts = urllib.parse.urlsplit(url)
    netloc = parts.netloc if user is None else f"{user}@{parts.netloc.rpartition('@')[2]}"
    path = parts.path if database is None else f"/{database}"
    merged = dict(urllib.parse.parse_qsl(parts.query)) | query
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc, path=path, query=urllib.parse.urlencode(merged)))


@pytest.fixture(scope="module")
def postgres_mistakes(postgres_server):
    """The session's PostgreSQL with a user that may log in but has no rights in a schema of its own, and a
    user whose password the server checks: on the server the tests started (trust for everyone else) a line
    of pg_hba.conf asks that one user for its password; a server of yours (GEOTABLE_TEST_POSTGRES) is
    expected to ask for passwords already."""
    role, schema, password_user = f"norights_{os.getpid()}", f"locked_{os.getpid()}", f"pwuser_{os.getpid()}"
    hba = postgres_server.folder / "data" / "pg_hba.conf" if postgres_server.folder else None

    async def admin(*statements):
        con = await asyncpg.connect(postgres_server.url)
        try:
            for sql in statements:
                await con.execute(sql)
        finally:
            await con.close()

    async def password_checked() -> None:
        """Waits until the server has read the new pg_hba.conf: the wrong password is refused."""
        for _ in range(200):
            try:
                con = await asyncpg.connect(with_url(postgres_server.url, user=password_user), password="wrong")
            except asyncpg.InvalidPasswordError:
                return
            await con.close()
            await asyncio.sleep(0.05)
        raise AssertionError("the server never asked for the password")

    asyncio.run(admin(f"CREATE ROLE {role} LOGIN", f"CREATE SCHEMA {schema}",
                      f"GRANT USAGE ON SCHEMA {schema} TO {role}",  # it may look, not create
                      f"CREATE ROLE {password_user} LOGIN PASSWORD 'the-right-one'"))
    original = hba.read_text() if hba else None
    try:
        if hba:
            hba.write_text(f"local all {password_user} scram-sha-256\n" + original)
            asyncio.run(admin("SELECT pg_reload_conf()"))
        asyncio.run(password_checked())
        yield postgres_server.url, role, schema, password_user
    finally:
        if hba:
            hba.write_text(original)
            asyncio.run(admin("SELECT pg_reload_conf()"))
        asyncio.run(admin(f"DROP SCHEMA {schema} CASCADE", f"DROP ROLE {role}", f"DROP ROLE {password_user}"))


POSTGRES_MISTAKES = {
    "a database that does not exist": (lambda url, role, schema, pw_user: with_url(url, database="no_such_db"),
                                       "has no database 'no_such_db'"),
    "a user that does not exist": (lambda url, role, schema, pw_user: with_url(url, user="nobody_here"),
                                   "does not let user 'nobody_here' in"),
    "a wrong password": (lambda url, role, schema, pw_user: with_url(url, user=f"{pw_user}:s3cret-pw"),
                         "refused the password of user 'pwuser_"),
    "a closed port": (lambda url, role, schema, pw_user: "postgresql://geotable:s3cret-pw@127.0.0.1:1/geotable",
                      "nothing accepts connections at 127.0.0.1:1"),
    "a host name that does not resolve": (lambda url, role, schema, pw_user: "postgresql://geotable:s3cret-pw@nohost.invalid/g",
                                          "the host name 'nohost.invalid' cannot be resolved"),
    "a socket folder without a server": (lambda url, role, schema, pw_user: with_url(url, host="/nonexistent-pg"),
                                         "cannot be reached"),
    "a user without rights": (lambda url, role, schema, pw_user: with_url(url, user=role, search_path=schema),
                              "lacks a right the bot needs"),
    "a search_path naming no schema": (lambda url, role, schema, pw_user: with_url(url, search_path="no_such_schema"),
                                       "the search_path names no schema that exists and that user"),
}


@pytest.mark.parametrize("mistake", POSTGRES_MISTAKES)
def test_a_postgresql_mistake_is_one_sentence_naming_the_setting_and_the_cause(mistake, postgres_mistakes, tmp_path):
    make_url, cause = POSTGRES_MISTAKES[mistake]
    proc = run_bot(tmp_path, GEOTABLE_DATABASE=make_url(*postgres_mistakes))
    line = one_sentence(proc, "GEOTABLE_DATABASE (set in the environment)", cause)
    assert "s3cret-pw" not in line


def test_sqlite_mistakes_are_one_sentence_and_create_nothing(tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    (tmp_path / "notes.db").write_text("shopping list: eggs, flour, more eggs, and then some more eggs")
    (tmp_path / "a-folder").mkdir()
    for path, cause in (("missing/deeper/geotable.db", "does not exist"), ("a-file/geotable.db", "is a file"),
                        ("notes.db", "is not a SQLite database file"), ("a-folder", "is a folder")):
        before = sorted(p.name for p in tmp_path.rglob("*"))
        one_sentence(run_bot(tmp_path, GEOTABLE_DATABASE=path), "GEOTABLE_DATABASE", cause)
        assert sorted(p.name for p in tmp_path.rglob("*")) == before, path


def test_a_sqlite_folder_that_exists_but_cannot_be_written_is_one_sentence(tmp_path):
    """A folder the bot's user may not write in: one sentence and exit code 1 (it was followed by a 24-line
    "Event loop is closed" traceback from aiosqlite's thread, 3 times in 3). As root any folder is writable, so
    there the bot runs as ``nobody`` (``setpriv``, as a container's user would); otherwise the folder is made
    read-only."""
    folder = Path(tempfile.mkdtemp(prefix="geotable-readonly-"))  # (tmp_path's parents are closed to nobody)
    try:
        (folder / "data").mkdir()
        if os.geteuid() == 0:
            folder.chmod(0o755)
            (folder / "data").chmod(0o755)  # root's: nobody may read it, not write in it
            as_nobody = [shutil.which("setpriv") or "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        else:
            (folder / "data").chmod(0o555)
            as_nobody = []
        base = {k: v for k, v in os.environ.items() if not k.startswith(("GEOTABLE_", "DISCORD_"))}
        for _ in range(3):
            proc = subprocess.run([*as_nobody, sys.executable, "-m", "bot"], cwd=folder, capture_output=True,
                                  text=True, timeout=90,
                                  env=base | {"DISCORD_TOKEN": "x", "GEOTABLE_SYNC_COMMANDS": "0",
                                              "GEOTABLE_DATABASE": "data/geotable.db", "HOME": str(folder)})
            assert proc.returncode == 1, (proc.returncode, proc.stderr)
            one_sentence(proc, "GEOTABLE_DATABASE", "data/geotable.db cannot be opened for writing")
            assert list((folder / "data").iterdir()) == []
    finally:
        (folder / "data").chmod(0o755)
        shutil.rmtree(folder)


@pytest.mark.parametrize("url", ["postgresql+asyncpg://user:s3cret-pw@host/db", "postgresql:/x", "sqlite:///g.db",
                                 "mysql://user:s3cret-pw@host/db"])
def test_a_url_the_bot_does_not_support_is_refused_and_never_becomes_a_sqlite_file(url, tmp_path):
    line = one_sentence(run_bot(tmp_path, GEOTABLE_DATABASE=url), "GEOTABLE_DATABASE", "in the environment",
                        "not one the bot supports")
    assert "s3cret-pw" not in line
    assert list(tmp_path.iterdir()) == []


async def test_the_store_never_makes_a_sqlite_file_of_a_url(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for url in ("postgresql+asyncpg://u:pw@h/db", "postgresql:/x", "sqlite://g.db"):
        with pytest.raises(NotADatabaseSetting):
            await open_store(url)
        with pytest.raises(NotADatabaseSetting):
            await SQLiteStore.connect(url)
    assert list(tmp_path.rglob("*")) == []


def test_a_bad_setting_names_where_it_came_from(tmp_path):
    env = run_bot(tmp_path, GEOTABLE_SHARD_IDS="0,1")
    one_sentence(env, "A setting in the environment is not valid", "GEOTABLE_SHARD_COUNT")
    (tmp_path / ".env").write_text("GEOTABLE_SHARD_IDS=0,1\nGEOTABLE_DATABASE=postgresql://g:pw@127.0.0.1:1/g\n")
    one_sentence(run_bot(tmp_path), "A setting in .env is not valid", "GEOTABLE_SHARD_COUNT")
    (tmp_path / ".env").write_text("GEOTABLE_DATABASE=postgresql://g:s3cret-pw@127.0.0.1:1/g\n")
    line = one_sentence(run_bot(tmp_path), "GEOTABLE_DATABASE (set in .env)", "nothing accepts connections")
    assert "s3cret-pw" not in line
    one_sentence(run_bot(tmp_path, GEOTABLE_TURN_TIMEOUT="soon"), "in the environment",
                 "GEOTABLE_TURN_TIMEOUT must be a whole number")
    one_sentence(run_bot(tmp_path, GEOTABLE_LEASE_HEARTBEAT="30"), "A setting in the environment is not valid",
                 "GEOTABLE_LEASE_STALE must be longer than GEOTABLE_LEASE_HEARTBEAT")


def test_render_workers_and_lease_timing_are_read_and_checked_and_empty_means_the_default():
    def settings(**env):
        return Settings.from_env({"DISCORD_TOKEN": "a"} | {f"GEOTABLE_{k.upper()}": v for k, v in env.items()})

    s = settings(render_workers="", lease_heartbeat="", lease_stale="")  # as .env.example leaves them
    assert (s.render_workers, s.lease_heartbeat, s.lease_stale) == (None, 5.0, 20.0)
    s = settings(render_workers="3", lease_heartbeat="0.5", lease_stale="2")
    assert (s.render_workers, s.lease_heartbeat, s.lease_stale) == (3, 0.5, 2.0)
    for bad, says in (({"render_workers": "many"}, "GEOTABLE_RENDER_WORKERS must be a whole number"),
                      ({"render_workers": "0"}, "1 or more"),
                      ({"lease_heartbeat": "30"}, "GEOTABLE_LEASE_STALE must be longer than"),
                      ({"lease_stale": "soon"}, "GEOTABLE_LEASE_STALE must be a number")):
        with pytest.raises(SettingError, match=says):
            settings(**bad)
    for bad, wrong in (({"lease_heartbeat": "30"}, "HEARTBEAT"), ({"lease_heartbeat": "0", "lease_stale": "9"},
                                                                  "HEARTBEAT"),
                       ({"lease_stale": "1"}, "STALE"), ({"lease_heartbeat": "30", "lease_stale": "20"}, "STALE")):
        with pytest.raises(SettingError) as raised:
            settings(**bad)
        assert raised.value.name == f"GEOTABLE_LEASE_{wrong}", bad  # where it came from is said of that one


@pytest.mark.parametrize("url", ["postgresql://g:s3cret/pw@127.0.0.1:1/g", "postgresql://g:s3cret#pw@127.0.0.1:1/g",
                                 "postgresql://g:s3cret?pw@127.0.0.1:1/g", "postgresql://g:s3cret@pw@127.0.0.1:1/g",
                                 "postgresql://g@127.0.0.1:1/g?password=s3cret-pw&sslmode=bogus",
                                 "mysql://g:s3cret/pw@host/db"])
def test_a_password_with_characters_a_url_reserves_is_never_printed(url, tmp_path):
    """A generated password often holds / # ? @ unencoded: the sentence still masks all of it."""
    line = one_sentence(run_bot(tmp_path, GEOTABLE_DATABASE=url), "GEOTABLE_DATABASE", "in the environment")
    assert "s3cret" not in line and "pw@" not in line, line


def test_an_unknown_log_level_is_one_sentence(tmp_path):
    one_sentence(run_bot(tmp_path, GEOTABLE_LOG_LEVEL="verbose"), "A setting in the environment is not valid",
                 "GEOTABLE_LOG_LEVEL", "DEBUG, INFO, WARNING, ERROR")
