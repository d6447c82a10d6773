"""``python -m playground [--port 8080] [--database data/playground.db]``: the real bot against a loopback Discord,
played in a web page on 127.0.0.1. No token, no internet. The database starts empty each time."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal

from playground.run_bot import die_with_parent
from playground.server import serve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m playground", description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8080, help="the page's port on 127.0.0.1 (0: any free one)")
    parser.add_argument("--database", default="data/playground.db", help="the bot's SQLite file (replaced)")
    parser.add_argument("--bot-log", default=None, help="a file for the bot's output (default: this terminal)")
    args = parser.parse_args(argv)
    die_with_parent()  # started by a test: it goes when the test run goes
    # started in the background of a shell script, SIGINT comes ignored: Ctrl-C must stop it all the same
    # (serve() handles SIGINT and SIGTERM itself once its loop runs; before that, this ends it quietly)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.database, args.port, args.bot_log))


if __name__ == "__main__":
    main()
