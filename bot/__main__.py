"""``python -m bot`` (or ``geotable``): read settings from the environment and .env, then run the bot."""

from __future__ import annotations

import asyncio
import logging
import sys

from dotenv import load_dotenv

from bot.settings import MissingToken, Settings


def main() -> int:
    load_dotenv()
    try:
        settings = Settings.from_env()
    except MissingToken as exc:
        print(exc, file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"A setting in .env is not valid: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.client import run

    try:
        asyncio.run(run(settings))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
