import logging
import os

import pytest
from hypothesis import settings

from tests.postgres import PostgresServer, PostgresUnavailable

# the loopback Discord's access log would fill a failing test's captured log (INFO, see pyproject.toml)
logging.getLogger("aiohttp.access").setLevel(logging.WARNING)

settings.register_profile("ci", max_examples=200, deadline=None)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

BACKENDS = ("sqlite", "postgres")


@pytest.fixture(scope="session")
def postgres_server():
    """A real PostgreSQL server for the session (see tests/postgres.py): never skipped, it fails loudly."""
    try:
        server = PostgresServer.from_env_or_start()
    except PostgresUnavailable as exc:
        pytest.fail(str(exc), pytrace=False)
    yield server
    server.stop()


@pytest.fixture(params=BACKENDS)
async def database(request, tmp_path):
    """The database setting of a fresh, empty store on each backend: a SQLite file's path, or a PostgreSQL
    URL selecting a schema of its own on the session's server."""
    if request.param == "sqlite":
        yield str(tmp_path / "geotable.db")
        return
    server = request.getfixturevalue("postgres_server")
    async with server.scratch() as url:
        yield url
