"""``python -m bot`` (or ``geotable``): read settings from the environment and .env, then run the bot.

Without a token it says what to set and exits with :data:`NO_TOKEN` (the Docker image stops there);
``scripts/run`` asks ``python -m bot --check`` first and starts the playground instead. A setting that is not
valid, a database it cannot use, or shards another process runs with another count: one sentence naming the
setting and where it came from (.env or the environment), and a non-zero exit. SIGTERM and SIGINT stop it
cleanly (exit 0)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys

from dotenv import find_dotenv, load_dotenv

from bot.settings import MissingToken, SettingError, Settings

NO_TOKEN = 3
INVALID = 2
CANNOT_START = 1
"""The database cannot be used, or another process runs another shard count on it."""


def origin(name: str, from_environment: set[str]) -> str:
    """Where a setting's value came from, for the sentence that says it is wrong."""
    return "the environment" if name in from_environment else ".env"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the Geotable bot (settings: .env).")
    parser.add_argument("--check", action="store_true",
                        help=f"only read the settings: exit 0 when the bot can start, {NO_TOKEN} without a token, "
                             f"{INVALID} when a setting is not valid")
    args = parser.parse_args(argv)
    from_environment = set(os.environ)  # load_dotenv never overrides these
    load_dotenv(find_dotenv(usecwd=True))  # the .env of the folder it runs in (or above), also for `geotable`
    try:
        settings = Settings.from_env()
    except MissingToken as exc:
        print(exc, file=sys.stderr)
        return NO_TOKEN
    except SettingError as exc:
        print(f"A setting in {origin(exc.name, from_environment)} is not valid: {exc}", file=sys.stderr)
        return INVALID
    if args.check:
        return 0
    if settings.render_workers is None:  # `GEOTABLE_RENDER_WORKERS=` in .env: the default, as for every setting
        os.environ.pop("GEOTABLE_RENDER_WORKERS", None)
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return run_until_stopped(settings, origin("GEOTABLE_DATABASE", from_environment))


def run_until_stopped(settings: Settings, database_origin: str, **options) -> int:
    """Runs the bot (``options``: see :func:`bot.client.run`) and turns what stops it at start into one
    sentence on stderr; returns the exit code."""
    from bot.client import run
    from bot.leases import ShardCountInUse
    from bot.store import DatabaseUnavailable

    try:
        return asyncio.run(run(settings, **options))
    except DatabaseUnavailable as exc:
        print(f"GEOTABLE_DATABASE (set in {database_origin}) names a database the bot cannot use: {exc}.",
              file=sys.stderr)
    except ShardCountInUse as exc:
        print(exc, file=sys.stderr)
    except KeyboardInterrupt:  # before the bot's own handler is in place
        return 0
    return CANNOT_START


if __name__ == "__main__":
    sys.exit(main())
