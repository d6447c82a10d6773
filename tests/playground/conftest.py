"""The playground as a user runs it (``python -m playground``: the fake Discord, the page, the real bot as its
child process) and Debian's Chromium, driven by Playwright's Python package (never a downloaded browser).

Screenshots go to ``tests/playground/artefacts/`` (kept after the run, ignored by git). Without /usr/bin/chromium the
browser tests fail: ``scripts/need-chromium`` (run by ``scripts/test``) installs it.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect, sync_playwright

from playground.run_bot import PARENT_ENV

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTEFACTS = Path(__file__).parent / "artefacts"
ROOT = Path(__file__).parents[2]
LIMIT_MS = 120_000
"""How long the page may take to show what a test waits for: generous, so a busy machine (the suite shares it)
only makes a test slower; a page that never gets there still fails."""
expect.set_options(timeout=LIMIT_MS)


@pytest.fixture(scope="module")  # not longer: while it runs, no asyncio test can (the sync API holds a loop)
def browser(tmp_path_factory):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: the browser tests need Debian's chromium (scripts/need-chromium "
                    "installs it as root: apt-get install chromium)")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=FLAGS, viewport={"width": 1280, "height": 900})
        context.set_default_timeout(LIMIT_MS)  # clicks, fills, waits for a function
        yield context
        context.close()


@pytest.fixture
def playground(tmp_path, request):
    """A running ``python -m playground`` on a free port, or (parametrized ``"readme"``) the README's
    ``./scripts/run`` without a token; its output (and the bot's) in a log file."""
    log_path = tmp_path / "playground.log"
    options = ["--port", "0", "--database", str(tmp_path / "playground.db")]
    command = ["./scripts/run"] if getattr(request, "param", None) == "readme" else [sys.executable, "-m", "playground"]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            command + options, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            env=dict(os.environ, DISCORD_TOKEN="", **{PARENT_ENV: str(os.getpid())}))
    try:
        deadline = time.monotonic() + 120
        while not (match := re.search(r"open (http://127\.0\.0\.1:\d+/)", log_path.read_text())):
            assert proc.poll() is None, f"the playground exited: {log_path.read_text()}"
            assert time.monotonic() < deadline, f"the playground never said where it is: {log_path.read_text()}"
            time.sleep(0.1)
        yield match.group(1)
    finally:
        proc.send_signal(signal.SIGINT)  # Ctrl-C: it stops its bot and its servers
        try:
            proc.wait(LIMIT_MS / 1000)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert "Traceback" not in log_path.read_text(), log_path.read_text()


@pytest.fixture
def page(browser, playground, request):
    tab = browser.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.goto(playground)
    expect(tab.locator("#status")).to_have_class("online")
    yield Channel(tab, request.node.name)
    tab.close()
    assert not errors, errors


class Channel:
    """What a person at the page does: switch member and channel, type commands, click, look."""

    def __init__(self, page: Page, test: str):
        self.page = page
        self.test = test
        self.shots = 0

    def drawer(self) -> None:
        """On a phone-wide page the channels and members are in a drawer: opened first (☰)."""
        if self.page.locator("#menu").is_visible():
            self.page.locator("#menu").click()

    def as_member(self, name: str) -> None:
        self.drawer()
        self.page.locator(f'#member-list [data-member="{name}"]').click()
        expect(self.page.locator(f'#member-list [data-member="{name}"]')).to_have_class(re.compile("current"))

    def to_channel(self, name: str) -> None:
        self.drawer()
        self.page.locator(f'#channels [data-channel="{name}"]').click()
        expect(self.page.locator("#channel-name")).to_have_text(name)

    def slash(self, command: str, **options) -> None:
        """Types ``/command``, picks it from the list, fills its options and sends it with Enter."""
        box = self.page.locator("#input")
        box.fill(f"/{command}")
        expect(self.page.locator("#picker .pick").first).to_contain_text(f"/{command}")
        box.press("Enter")
        expect(self.page.locator("#command .chip")).to_have_text(f"/{command}")
        last = self.page.locator("#command .chip")
        for name, value in options.items():
            field = self.page.locator(f'#command [data-option="{name}"]')
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(label=str(value))
            else:
                field.fill(str(value))
            last = field
        last.press("Enter")
        expect(self.page.locator("#input")).to_be_visible()

    @property
    def messages(self) -> Locator:
        return self.page.locator("#messages .msg")

    def board(self, title: str) -> Locator:
        """The newest message whose embed title holds ``title`` ("Geek Out! Masters · table")."""
        return self.messages.filter(has=self.page.locator(".embed-title", has_text=title)).last

    def button(self, message: Locator, label: str) -> Locator:
        return message.locator("button.btn", has_text=label).first

    def screenshot(self, what: str) -> Path:
        ARTEFACTS.mkdir(exist_ok=True)
        self.shots += 1
        path = ARTEFACTS / f"{self.test}-{self.shots:02d}-{what}.png"
        self.page.screenshot(path=str(path))
        return path

    def refusals(self) -> list[str]:
        return self.page.locator("#messages .notice").all_inner_texts()
