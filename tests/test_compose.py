"""compose.yaml (PostgreSQL and the bot as one container per shard group) is checked against the settings the
bot reads. No Docker engine runs here: the file is parsed, its variables filled in as Compose does, and each
bot service's environment goes through the bot's own Settings.from_env."""

import re
import urllib.parse
from pathlib import Path

import pytest
import yaml
from dotenv import dotenv_values

from bot.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
DOTENV = {"DISCORD_TOKEN": "token-from-dotenv"}
"""What a .env would give Compose to fill in (POSTGRES_PASSWORD left out: its default is used)."""


def interpolate(value, env: dict[str, str]):
    """Compose's ``${NAME}``, ``${NAME:-default}`` and ``${NAME:?error}`` in every string of ``value``."""
    if isinstance(value, dict):
        return {k: interpolate(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, env) for v in value]
    if not isinstance(value, str):
        return value

    def one(m: re.Match) -> str:
        name, op, arg = m.group(1), m.group(2), m.group(3)
        if env.get(name):
            return env[name]
        if op == ":?":
            raise KeyError(f"{name}: {arg}")
        return arg if op == ":-" else ""

    return re.sub(r"\$\{(\w+)(?:(:[-?])([^}]*))?\}", one, value)


def variables_the_bot_reads() -> set[str]:
    """Every environment variable named in the bot's code (Settings.from_env, and the render pool's)."""
    names = set()
    for path in (ROOT / "bot").rglob("*.py"):
        names |= set(re.findall(r'"((?:DISCORD|GEOTABLE)_[A-Z_]+)"', path.read_text(encoding="utf-8")))
    return names


@pytest.fixture(scope="module")
def compose() -> dict:
    return interpolate(yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8")), DOTENV)


def bots(compose: dict) -> dict[str, dict]:
    """The bot services: the ones built from this repository."""
    found = {name: s for name, s in compose["services"].items() if s.get("build") == "."}
    assert len(found) >= 2, "the compose file should run several bot processes"
    return found


def test_every_variable_a_bot_service_sets_is_one_the_bot_reads(compose):
    known = variables_the_bot_reads()
    assert {"DISCORD_TOKEN", "GEOTABLE_DATABASE", "GEOTABLE_SHARD_COUNT", "GEOTABLE_SHARD_IDS"} <= known
    for name, service in bots(compose).items():
        assert set(service["environment"]) <= known, (name, set(service["environment"]) - known)


def test_each_bot_service_is_accepted_by_the_bots_settings_and_the_shards_are_covered_once(compose):
    settings = {name: Settings.from_env({k: str(v) for k, v in s["environment"].items()})
                for name, s in bots(compose).items()}
    assert all(s.token == DOTENV["DISCORD_TOKEN"] for s in settings.values())
    counts = {s.shard_count for s in settings.values()}
    assert len(counts) == 1 and None not in counts, "every process needs the same GEOTABLE_SHARD_COUNT"
    ran = sorted(i for s in settings.values() for i in s.shard_ids)
    assert ran == list(range(counts.pop())), "each shard must run in exactly one process"


def test_the_bots_share_the_postgres_service(compose):
    postgres = compose["services"]["postgres"]
    db = postgres["environment"]
    for name, service in bots(compose).items():
        url = urllib.parse.urlsplit(service["environment"]["GEOTABLE_DATABASE"])
        assert Settings.from_env({k: str(v) for k, v in service["environment"].items()}).database_is_postgres
        assert (url.hostname, url.port or 5432) == ("postgres", 5432), name
        assert (url.username, url.password, url.path) == (db["POSTGRES_USER"], db["POSTGRES_PASSWORD"],
                                                          "/" + db["POSTGRES_DB"]), name
        assert "postgres" in service["depends_on"], name


def test_the_token_comes_from_dotenv_and_is_required():
    raw = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    with pytest.raises(KeyError, match="DISCORD_TOKEN"):
        interpolate(raw, {})


def test_env_example_names_only_what_the_bot_or_compose_reads():
    names = {line.split("=", 1)[0] for line in (ROOT / ".env.example").read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")}
    compose_vars = set(re.findall(r"\$\{(\w+)", (ROOT / "compose.yaml").read_text(encoding="utf-8")))
    assert names <= variables_the_bot_reads() | compose_vars, names - variables_the_bot_reads() - compose_vars
    assert {"GEOTABLE_SHARD_COUNT", "GEOTABLE_SHARD_IDS", "POSTGRES_PASSWORD"} <= names


def env_files(service: dict) -> list[str]:
    files = service.get("env_file", [])
    files = [files] if isinstance(files, str) else files
    return [f if isinstance(f, str) else f["path"] for f in files]


def dotenv_from_example(**filled: str) -> dict[str, str]:
    """A .env made from .env.example, with ``filled`` set (everything else as the example leaves it)."""
    return {k: v or "" for k, v in dotenv_values(ROOT / ".env.example").items()} | filled


def container_environment(service: dict, dotenv: dict[str, str]) -> dict[str, str]:
    """What a bot container gets, as Compose does it: every line of .env (env_file), its own ``environment``
    over it."""
    assert ".env" in env_files(service), "the settings in .env must reach the container (env_file)"
    return dotenv | {k: str(v) for k, v in service["environment"].items()}


def test_every_setting_in_dotenv_reaches_the_bots_and_the_services_own_win():
    dotenv = dotenv_from_example(DISCORD_TOKEN="t", GEOTABLE_TURN_TIMEOUT="90", GEOTABLE_LOBBY_TIMEOUT="120",
                                 GEOTABLE_RENDER_WORKERS="3", GEOTABLE_LOG_LEVEL="debug")
    compose = interpolate(yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8")), dotenv)
    for name, service in bots(compose).items():
        settings = Settings.from_env(container_environment(service, dotenv))
        assert (settings.turn_timeout, settings.lobby_timeout, settings.log_level) == (90, 120, "DEBUG"), name
        assert settings.render_workers == 3, name
        # the database and the shards are the service's, whatever .env says (.env.example's is a SQLite path)
        assert settings.database_is_postgres and settings.shard_count == 2, name


def test_render_workers_are_a_few_per_bot_unless_dotenv_says_otherwise():
    dotenv = dotenv_from_example(DISCORD_TOKEN="t")  # GEOTABLE_RENDER_WORKERS left empty, as in the example
    compose = interpolate(yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8")), dotenv)
    for name, service in bots(compose).items():
        workers = Settings.from_env(container_environment(service, dotenv)).render_workers
        assert workers is not None and 1 <= workers <= 4, (name, workers)  # not one per core of the host


def test_the_postgres_healthcheck_asks_over_tcp(compose):
    """During its first start the postgres image runs a setup server on the Unix socket only: a check over
    the socket passes before the real server is up."""
    check = compose["services"]["postgres"]["healthcheck"]["test"]
    assert "pg_isready" in " ".join(check) and "-h 127.0.0.1" in " ".join(check)


def test_the_image_runs_the_bot_as_pid_1_with_a_few_render_workers():
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    env = dict(re.findall(r"(GEOTABLE_\w+)=(\S+)", "\n".join(line for line in dockerfile.splitlines()
                                                               if line.startswith("ENV "))))
    assert 1 <= int(env["GEOTABLE_RENDER_WORKERS"]) <= 4  # not one per core of the host
    assert re.search(r'^CMD \["python", "-m", "bot"\]', dockerfile, re.M)  # exec form: signals reach the bot
