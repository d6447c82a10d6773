"""A real PostgreSQL server for the test session, and a fresh schema of it for each test.

``GEOTABLE_TEST_POSTGRES`` (a ``postgresql://`` URL of a database the tests may create schemas in) points the
tests at a server of yours. Otherwise the first PostgreSQL test starts one: ``initdb`` into a private
temporary folder and ``pg_ctl start`` with a Unix socket in that folder only (no TCP port, so runs side by
side never collide), as the ``postgres`` user when the tests run as root (PostgreSQL refuses root), with
durability off (fsync) for speed. The server is stopped and its folder removed at the end of the session.

The server programs are Debian's ``postgresql`` package (``scripts/need-postgres`` installs it); without them
and without ``GEOTABLE_TEST_POSTGRES`` every PostgreSQL test fails with :class:`PostgresUnavailable`'s
message. They are never skipped.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import urllib.parse
from pathlib import Path

import asyncpg

ENV_URL = "GEOTABLE_TEST_POSTGRES"
ENV_BIN = "GEOTABLE_TEST_POSTGRES_BIN"
"""A folder with the server programs, to use instead of looking for them (e.g. a PostgreSQL of your own)."""
PREFIX = "geotable-pg-"
SERVER_USER = "postgres"  # who runs the server when the tests run as root (Debian's package makes it)


class PostgresUnavailable(Exception):
    """No PostgreSQL server for the tests: the message says what to install or set."""


def find_bin_dir(candidates: list[str] | None = None) -> Path:
    """The folder holding ``initdb``, ``pg_ctl`` and ``postgres``: on the PATH, else Debian's
    /usr/lib/postgresql/<version>/bin (newest first)."""
    if candidates is None and os.environ.get(ENV_BIN):
        candidates = [os.environ[ENV_BIN]]
    if candidates is None:
        candidates = []
        on_path = shutil.which("pg_ctl")
        if on_path:
            candidates.append(os.path.dirname(os.path.realpath(on_path)))
        versions = glob.glob("/usr/lib/postgresql/*/bin")
        candidates += sorted(versions, key=lambda p: int(p.split("/")[-2]) if p.split("/")[-2].isdigit() else 0,
                             reverse=True)
    for folder in candidates:
        if all(os.access(os.path.join(folder, name), os.X_OK) for name in ("initdb", "pg_ctl", "postgres")):
            return Path(folder)
    raise PostgresUnavailable(
        "The PostgreSQL tests need a PostgreSQL server and none was found: install the server programs "
        "(`scripts/need-postgres` does it as root: apt-get install postgresql; ./scripts/test runs it), or set "
        f"{ENV_URL} to a postgresql:// URL of a database where the tests may create schemas. "
        f"Looked in: {', '.join(candidates) or 'nothing'}."
    )


def with_query(url: str, **params: str) -> str:
    """``url`` with ``params`` added to its query string."""
    parts = urllib.parse.urlsplit(url)
    query = urllib.parse.parse_qsl(parts.query) + list(params.items())
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


class PostgresServer:
    """A server the session uses: one it started (``start``) or one it was given (``given``)."""

    def __init__(self, url: str, folder: Path | None = None, bin_dir: Path | None = None,
                 run_as: str | None = None):
        self.url = url
        """The admin URL: the database the per-test schemas are made in."""
        self.folder = folder
        self.bin_dir = bin_dir
        self.run_as = run_as
        self._names = itertools.count(1)

    @classmethod
    def from_env_or_start(cls) -> PostgresServer:
        url = os.environ.get(ENV_URL, "").strip()
        if url:
            return cls(url)
        return cls.start()

    @classmethod
    def start(cls) -> PostgresServer:
        bin_dir = find_bin_dir()
        cls.stop_abandoned(bin_dir)
        run_as = None
        if os.geteuid() == 0:
            try:
                pwd.getpwnam(SERVER_USER)
            except KeyError:
                raise PostgresUnavailable(
                    f"PostgreSQL refuses to run as root and there is no {SERVER_USER!r} user to run it as "
                    f"(Debian's postgresql package makes one); or set {ENV_URL}."
                ) from None
            run_as = SERVER_USER
        folder = Path(tempfile.mkdtemp(prefix=PREFIX))
        (folder / "session.pid").write_text(str(os.getpid()))
        if run_as:
            shutil.chown(folder, run_as)
        server = cls(with_query("postgresql://postgres@/postgres", host=str(folder)), folder, bin_dir, run_as)
        try:
            server._run("initdb", "-D", str(folder / "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                        "--locale=C", "--no-sync")
            options = (f"-c listen_addresses='' -c unix_socket_directories='{folder}' -c fsync=off"
                       " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
            server._run("pg_ctl", "-D", str(folder / "data"), "-l", str(folder / "server.log"), "-w", "-t", "60",
                        "-o", options, "start")
        except BaseException:
            server.stop()
            raise
        atexit.register(server.stop)  # should the session end without its teardown
        return server

    @classmethod
    def stop_abandoned(cls, bin_dir: Path) -> None:
        """Stops and removes the servers of earlier sessions that died without their teardown (SIGKILL)."""
        for folder in Path(tempfile.gettempdir()).glob(f"{PREFIX}*"):
            try:
                owner = int((folder / "session.pid").read_text())
                os.kill(owner, 0)
                continue  # its session is alive: not ours to stop
            except ProcessLookupError:
                pass
            except (OSError, ValueError):
                continue  # no readable owner: leave it alone
            stale = cls("", folder, bin_dir, SERVER_USER if os.geteuid() == 0 else None)
            stale.stop()

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin_dir / program), *args]
        if self.run_as:
            command = ["runuser", "-u", self.run_as, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.folder)
        if done.returncode != 0:
            log = ""
            with contextlib.suppress(OSError):
                log = (self.folder / "server.log").read_text()[-2000:]
            raise PostgresUnavailable(f"{program} failed ({done.returncode}): {done.stderr.strip()}\n{log}")

    def stop(self) -> None:
        if self.folder is None:
            return
        if (self.folder / "data" / "postmaster.pid").exists():
            with contextlib.suppress(PostgresUnavailable):
                self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None

    @contextlib.asynccontextmanager
    async def scratch(self):
        """A fresh, empty schema for one test; yields the database URL that selects it (asyncpg passes the
        URL's ``search_path`` to the server). Dropped afterwards."""
        schema = f"t_{os.getpid()}_{next(self._names)}"
        admin = await asyncpg.connect(self.url)
        try:
            await admin.execute(f"CREATE SCHEMA {schema}")
            yield with_query(self.url, search_path=schema)
        finally:
            with contextlib.suppress(Exception):
                await admin.execute(f"DROP SCHEMA {schema} CASCADE")
            await admin.close()

    @contextlib.asynccontextmanager
    async def scratch_database(self):
        """A fresh, empty database (slower than a schema: for tests of what a whole database holds)."""
        name = f"gt_{os.getpid()}_{next(self._names)}"
        admin = await asyncpg.connect(self.url)
        try:
            await admin.execute(f"CREATE DATABASE {name}")
            parts = urllib.parse.urlsplit(self.url)
            yield urllib.parse.urlunsplit(parts._replace(path=f"/{name}"))
        finally:
            with contextlib.suppress(Exception):
                await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
            await admin.close()
