"""Screenshots of each game's table in the playground, as a desktop and a phone show it (the README's pictures).

    python -m playground.screenshots [--out docs/screenshots] [--games geek-out,geoneo]

For each game: a fresh playground (``python -m playground``: the fake Discord, the page, the real bot), Ana opens
a table with two computers (one for Globe Twister's and Geomancy's duels is enough: two), starts it, waits until
the computers have moved and it is her turn, then the table's message is photographed in Debian's Chromium at
1280 and at 390 px wide (``<game>-desktop.png``, ``<game>-phone.png``). The PNGs are quantized to 256 colours so
the repository stays small. Needs Playwright's Python package and /usr/bin/chromium (``scripts/need-chromium``),
as the browser tests do.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).parents[1]
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
GAMES = {  # the slash command's game, the board's title, the computers to seat
    "geek-out": ("Geek Out! Masters", 2),
    "geoneo": ("GEONEO", 2),
    "geodeto": ("Geodeto", 2),
    "globe-twister": ("Globe Twister", 1),
    "geomancy": ("Geomancy", 2),
}
VIEWPORTS = {"desktop": {"width": 1280, "height": 2000}, "phone": {"width": 390, "height": 2400}}
"""Tall enough that the whole message shows below the page's sticky top bar."""
WAIT_MS = 120_000


def start_playground(folder: Path) -> tuple[subprocess.Popen, str]:
    """``python -m playground`` on a free port; returns the process and the page's address."""
    log_path = folder / "playground.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "playground", "--port", "0", "--database",
                                 str(folder / "playground.db")], cwd=ROOT, stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT, env=dict(os.environ, DISCORD_TOKEN=""))
    deadline = time.monotonic() + 120
    while not (found := re.search(r"open (http://127\.0\.0\.1:\d+/)", log_path.read_text())):
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"the playground did not start: {log_path.read_text()}")
        time.sleep(0.1)
    return proc, found.group(1)


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def open_table(page, game: str, computers: int) -> None:
    """Ana types ``/play <game> computers:N`` and presses Start; returns once it is her turn."""
    page.locator('#member-list [data-member="Ana"]').click()
    box = page.locator("#input")
    box.fill(f"/play {game}")
    page.locator("#picker .pick").first.wait_for()
    box.press("Enter")
    field = page.locator('#command [data-option="computers"]')
    field.fill(str(computers))
    field.press("Enter")
    lobby = page.locator("#messages .msg", has_text="lobby").last
    lobby.locator("button.btn", has_text="Start").first.click()
    board_shown(page)


def board_shown(page):
    """The newest board once it is Ana's turn and its image has loaded."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('#messages .msg')].some(m =>
               m.querySelector('img') && /To act: \\S*Ana/.test(m.textContent))""", timeout=WAIT_MS)
    board = page.locator("#messages .msg", has=page.locator("img")).filter(has_text="To act").last
    page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                           arg=board.locator("img").first.element_handle(), timeout=WAIT_MS)
    return board


def shoot(page, path: Path) -> None:
    """The newest board alone, as a 256-colour PNG (again if a computer's move replaced it meanwhile)."""
    for attempt in range(5):
        try:
            png = board_shown(page).screenshot()
            break
        except Exception:  # noqa: BLE001 - Playwright's errors: the message was redrawn under the camera
            if attempt == 4:
                raise
            time.sleep(1)
    image = Image.open(io.BytesIO(png)).convert("RGB").quantize(256, method=Image.Quantize.MEDIANCUT)
    image.save(path, optimize=True)


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright  # a development dependency, as the browser tests

    parser = argparse.ArgumentParser(prog="python -m playground.screenshots", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        for game in args.games.split(","):
            _title, computers = GAMES[game]
            folder = Path(tmp) / game
            folder.mkdir()
            proc, address = start_playground(folder)
            try:
                for kind, viewport in VIEWPORTS.items():
                    page = browser.new_page(viewport=viewport)
                    page.set_default_timeout(WAIT_MS)
                    page.goto(address)
                    page.locator("#status.online").wait_for()
                    if kind == "desktop":
                        open_table(page, game, computers)
                    shoot(page, out / f"{game}-{kind}.png")
                    page.close()
                    print(f"{out / f'{game}-{kind}.png'}: {(out / f'{game}-{kind}.png').stat().st_size} bytes")
            finally:
                stop(proc)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
