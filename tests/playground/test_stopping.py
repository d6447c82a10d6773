"""Ctrl-C and SIGTERM stop the playground cleanly, also when a shell script started it in the background (such a
shell starts its background jobs with SIGINT ignored): the bot and its render workers go too, no traceback, the
page's port is freed, the exit code is 0.

The script runs in a session of its own, so every process it leads to (the playground, the bot, the workers) is
found by its session id, and Ctrl-C is what a terminal sends: SIGINT to the whole process group.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from playground.run_bot import PARENT_ENV

ROOT = Path(__file__).parents[2]
LIMIT = 120  # seconds: only a hang reaches it (a busy machine's start-up takes a few seconds)
SCRIPT = r"""
trap 'signalled=1' INT TERM  # the script outlives the signal, to report how the playground ended
signalled=0
"$@" > "$LOG" 2>&1 &
echo $! > "$PID"
wait $!; status=$?
if [ "$signalled" = 1 ]; then wait "$(cat "$PID")"; status=$?; fi  # the first wait was cut short by the trap
echo "$status" > "$STATUS"
"""
COMMANDS = {"python -m playground": [sys.executable, "-m", "playground"],
            "./scripts/run --playground": ["./scripts/run", "--playground"]}


def session(sid: int) -> dict[int, str]:
    """pid -> command line of every live process of the session ``sid`` (zombies count as gone)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2:].split()  # after "pid (name) ": state, ppid, pgrp, session
            if int(fields[3]) == sid and fields[0] != "Z":
                found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    return found


def until(condition, what: str, limit: float = LIMIT):
    deadline = time.monotonic() + limit
    while not (result := condition()):
        assert time.monotonic() < deadline, what
        time.sleep(0.1)
    return result


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("how", ["Ctrl-C", "SIGTERM"])
def test_the_playground_started_in_the_background_of_a_script_stops_cleanly(tmp_path, command, how):
    log, pid_file, status_file = tmp_path / "playground.log", tmp_path / "pid", tmp_path / "status"
    env = {k: v for k, v in os.environ.items() if k != PARENT_ENV}  # as from a terminal: no parent to die with
    env.update(LOG=str(log), PID=str(pid_file), STATUS=str(status_file), DISCORD_TOKEN="",
               GEOTABLE_RENDER_WORKERS="2")
    script = subprocess.Popen(
        ["bash", "-c", SCRIPT, "script", *COMMANDS[command], "--port", "0", "--database", str(tmp_path / "pg.db")],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, start_new_session=True)
    sid = script.pid
    try:
        def ready():
            assert script.poll() is None and not status_file.exists(), f"it ended early: {log.read_text()}"
            return log.exists() and re.search(r"open http://127\.0\.0\.1:(\d+)/", log.read_text())

        port = int(until(ready, "the playground never said where it is").group(1))
        playground = int(pid_file.read_text())
        running = session(sid)
        assert playground in running
        assert any("playground.run_bot" in line for line in running.values()), running  # the bot
        assert any("multiprocessing" in line for line in running.values()), running  # its render workers

        if how == "Ctrl-C":
            os.killpg(sid, signal.SIGINT)  # what a terminal does: the whole foreground process group
        else:
            os.kill(playground, signal.SIGTERM)  # kill PID
        until(status_file.exists, f"the playground did not stop on {how}: {log.read_text()}")
        assert status_file.read_text().strip() == "0", log.read_text()
        until(lambda: not session(sid), f"processes left behind: {session(sid)}")
        output = log.read_text()
        assert "Traceback" not in output and "Playground stopped." in output, output
        with socket.socket() as probe:  # the page's port is free again
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(("127.0.0.1", port))
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(sid, signal.SIGKILL)
        for pid in session(sid):  # what left the group (none should)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        script.wait()
