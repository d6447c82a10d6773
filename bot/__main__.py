"""``python -m bot`` (or ``geotable``): read settings from the environment and .env, then run the bot.

Without a token it says what to set and exits with :data:`NO_TOKEN` (the Docker image stops there);
``scripts/run`` asks ``python -m bot --check`` first and starts the playground instead."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from dotenv import load_dotenv

from bot.settings import MissingToken, Settings

NO_TOKEN = 3
INVALID = 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the Geotable bot (settings: .env).")
    parser.add_argument("--check", action="store_true",
                        help=f"only read the settings: exit 0 when the bot can start, {NO_TOKEN} without a token, "
                             f"{INVALID} when a setting is not valid")
    args = parser.parse_args(argv)
    load_dotenv()
    try:
        settings = Settings.from_env()
    except MissingToken as exc:
        print(exc, file=sys.stderr)
        return NO_TOKEN
    except ValueError as exc:
        print(f"A setting in .env is not valid: {exc}", file=sys.stderr)
        return INVALID
    if args.check:
        return 0
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.client import run

    try:
        asyncio.run(run(settings))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
