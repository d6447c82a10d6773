"""What the page does with each kind of thing Discord's client shows and sends, checked on messages made here (no
bot: every interaction the page sends is caught at the fake's gateway, and answered by hand where needed).

The fake and the page run on an event loop of their own thread: Playwright's synchronous API (the browser
fixture) owns the test's thread."""

from __future__ import annotations

import asyncio
import inspect
import io
import threading
import time

import aiohttp
import pytest
from PIL import Image
from playwright.sync_api import expect

from playground.server import Playground
from tests.playground.conftest import ARTEFACTS, LIMIT_MS

ANA, BO = "101", "102"
CHANNEL = 601


class NoBot:
    """Stands in for the bot process: nothing to start."""

    async def start(self):
        pass

    async def stop(self):
        pass

    restart = start


class Loop:
    """An event loop in a thread of its own; ``run(fn, *args)`` calls ``fn`` there (awaiting what it returns)."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, fn, *args):
        async def call():
            result = fn(*args)
            return await result if inspect.isawaitable(result) else result
        return asyncio.run_coroutine_threadsafe(call(), self.loop).result(LIMIT_MS / 1000)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


@pytest.fixture
def playground(tmp_path):
    loop = Loop()
    pg = Playground(str(tmp_path / "unused.db"), bot=NoBot())
    sent: list[dict] = []

    async def gateway(event, data):  # what would reach the bot
        sent.append(data)
        if data.get("type") == 4:  # an autocomplete: answer at once, as a bot would
            typed = [o for o in data["data"]["options"] if o.get("focused")][0]["value"]
            choices = [{"name": f.title(), "value": f} for f in ("apple", "apricot", "banana") if f.startswith(typed)]
            pg.fake._callback(int(data["id"]), data["token"], {"type": 8, "data": {"choices": choices}}, {})

    pg.fake.dispatch = gateway
    pg.fake.commands["fruit"] = {"id": "1", "name": "fruit", "type": 1, "description": "Name a fruit", "options": [
        {"name": "name", "type": 3, "description": "Which", "required": True, "autocomplete": True},
        {"name": "count", "type": 4, "description": "How many", "min_value": 1, "max_value": 5},
        {"name": "who", "type": 6, "description": "For whom"}]}
    port = loop.run(pg.start, 0)
    yield pg, loop, sent, f"http://127.0.0.1:{port}/"
    loop.run(pg.stop)
    loop.close()


def board_message(fake) -> dict:
    image = io.BytesIO()
    Image.new("RGB", (800, 500), (40, 90, 160)).save(image, "PNG")
    payload = {
        "content": f"<@{ANA}>: your turn in **Test**, until <t:{int(time.time()) + 150}:R> in <#{CHANNEL}>.",
        "embeds": [{"title": "Test · table 9", "description": "To act: **Ana**", "color": 0x56B4E9,
                    "fields": [{"name": "Score", "value": "3", "inline": True}, {"name": "Round", "value": "2",
                                                                                  "inline": True}],
                    "image": {"url": "attachment://board.png"}, "footer": {"text": "Table 9"}}],
        "attachments": [{"id": 0, "filename": "board.png"}],
        "components": [
            {"type": 1, "components": [
                {"type": 2, "style": 1, "label": "Go", "custom_id": "t:go", "emoji": {"name": "🎲"}},
                {"type": 2, "style": 3, "label": "Join", "custom_id": "t:join"},
                {"type": 2, "style": 4, "label": "Quit", "custom_id": "t:quit"},
                {"type": 2, "style": 2, "label": "Wait", "custom_id": "t:wait", "disabled": True},
                {"type": 2, "style": 5, "label": "Rules", "url": "https://example.org/rules"}]},
            {"type": 1, "components": [{"type": 3, "custom_id": "t:menu", "placeholder": "Choose a square",
                                        "options": [{"label": f"Square {i}", "value": f"s{i}"} for i in range(3)]}]},
            {"type": 1, "components": [{"type": 3, "custom_id": "t:many", "placeholder": "Choose two",
                                        "min_values": 2, "max_values": 2,
                                        "options": [{"label": c, "value": c} for c in "xyz"]}]},
        ]}
    return fake._create(CHANNEL, payload, {"files[0]": image.getvalue()}, author=fake.bot_user)


def test_the_page_shows_and_sends_what_discords_client_does(playground, browser):
    pg, loop, sent, url = playground
    fake = pg.fake
    message = loop.run(board_message, fake)
    it, _ = loop.run(fake._interaction, 3, int(BO), CHANNEL, {"custom_id": "t:go", "component_type": 2}, message)
    loop.run(lambda: fake._create(CHANNEL, {"content": "Bo's secret", "flags": 64}, {}, author=fake.bot_user,
                                  interaction=it))
    ARTEFACTS.mkdir(exist_ok=True)
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(url)
        shown = page.locator(f"#m-{message['id']}")
        # what a message shows: mentions by name (and highlighted for the member mentioned), a live
        # relative time, the embed with its fields and colour, its image, buttons by style, menus
        expect(shown.locator(".content")).to_contain_text("@Ana: your turn in Test, until in 2 minutes in #games-1")
        expect(shown).to_have_class("msg mentioned")
        expect(shown.locator(".embed")).to_have_css("border-left-color", "rgb(86, 180, 233)")
        expect(shown.locator(".field.inline")).to_have_count(2)
        assert shown.locator(".embed-image").evaluate("img => img.complete && img.naturalWidth") == 800
        expect(shown.locator("img.attachment")).to_have_count(0)  # shown in the embed, not twice
        expect(shown.locator("button.btn.primary[data-custom-id]")).to_have_text("🎲Go")
        expect(shown.locator("button.btn", has_text="Wait")).to_be_disabled()
        expect(shown.locator("button.btn", has_text="Wait")).to_have_css("opacity", "0.5")
        expect(shown.locator("a.btn.link")).to_have_attribute("href", "https://example.org/rules")
        expect(page.locator(".msg", has_text="Bo's secret")).to_have_count(0)
        page.screenshot(path=str(ARTEFACTS / "features-01-message.png"))

        # a click and a menu choice are real interactions, from the member playing
        shown.locator("button.btn", has_text="Go").click()
        shown.locator(".select", has_text="Choose a square").locator(".select-box").click()
        page.screenshot(path=str(ARTEFACTS / "features-02-menu-open.png"))
        shown.locator(".select-option", has_text="Square 2").click()
        many = shown.locator(".select", has_text="Choose two")
        many.locator(".select-box").click()
        many.locator(".select-option", has_text="x").click()
        many.locator(".select-option", has_text="z").click()
        many.locator("button", has_text="Done").click()
        until(lambda: len(components(sent)) == 3)
        go, menu, two = components(sent)
        assert (go["data"]["custom_id"], go["member"]["user"]["id"], go["message"]["id"]) == ("t:go", ANA, message["id"])
        assert (menu["data"]["custom_id"], menu["data"]["values"]) == ("t:menu", ["s2"])
        assert two["data"]["values"] == ["x", "z"]

        # nobody answered within 3 seconds: Discord's client says so, to the member who clicked only
        expect(shown.locator(".failed")).to_have_text("This interaction failed")
        page.locator('#member-list [data-member="Bo"]').click()
        expect(page.locator(f"#m-{message['id']} .failed")).to_have_count(0)
        secret = page.locator(".msg", has_text="Bo's secret")
        expect(secret.locator(".ephemeral-note")).to_contain_text("Only you can see this")
        expect(secret.locator(".used")).to_contain_text("Bo clicked on Test · table 9")

        # an edit replaces the message in place; a deletion removes it; a refused request shows
        loop.run(fake._edit, message, {"content": "Changed."}, {})
        expect(page.locator(f"#m-{message['id']} .content")).to_have_text("Changed.(edited)")
        loop.run(bot_requests, fake, message)
        expect(page.locator(".notice")).to_contain_text(
            f"Discord refused the bot's POST /channels/{CHANNEL}/messages: 400 (code 50035)")
        expect(page.locator(f"#m-{message['id']}")).to_have_count(0)

        # a slash command: picked from the list, a required option refused until filled, an autocomplete
        box = page.locator("#input")
        box.fill("/fr")
        box.press("Enter")
        page.locator('[data-option="name"]').press("Enter")
        expect(page.locator("#error")).to_have_text("Fill in name first.")
        page.locator('[data-option="name"]').fill("ap")
        expect(page.locator("#picker .pick")).to_have_text(["Apple", "Apricot"])
        page.screenshot(path=str(ARTEFACTS / "features-03-autocomplete.png"))
        page.locator('[data-option="name"]').press("ArrowDown")
        page.locator('[data-option="name"]').press("Enter")
        expect(page.locator('[data-option="name"]')).to_have_value("Apricot")
        page.locator('[data-option="count"]').fill("3")
        page.locator('[data-option="who"]').select_option(label="Ana")
        page.locator('[data-option="count"]').press("Enter")
        until(lambda: any(d.get("type") == 2 for d in sent))
        command = next(d for d in sent if d.get("type") == 2)
        assert command["member"]["user"]["id"] == BO
        assert {o["name"]: o["value"] for o in command["data"]["options"]} == {"name": "apricot", "count": 3, "who": ANA}
        assert ANA in command["data"]["resolved"]["users"]

        # a plain message
        box.fill("hello table")
        box.press("Enter")
        expect(page.locator(".msg[data-author='Bo']").last).to_contain_text("hello table")
        page.screenshot(path=str(ARTEFACTS / "features-04-after.png"))
    finally:
        page.close()
    assert not errors, errors
    assert fake.messages_in(CHANNEL)[-1]["content"] == "hello table"


async def bot_requests(fake, message) -> None:
    """A message over Discord's limits (refused), then the deletion of ``message``."""
    async with aiohttp.ClientSession() as s:
        await s.post(f"{fake.api_base}/channels/{CHANNEL}/messages", json={"content": "x" * 2001})
        await s.delete(f"{fake.api_base}/channels/{CHANNEL}/messages/{message['id']}")


def components(sent):
    return [d for d in sent if d.get("type") == 3]


def until(condition, timeout=LIMIT_MS / 1000):
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "the condition never held"
        time.sleep(0.02)


def test_threads_come_and_go_in_the_sidebar_as_discord_makes_archives_and_deletes_them(playground, browser):
    """A thread the bot starts appears under its channel at once (no reload), a mention of it names it and
    jumps there, an archived one is dimmed, a deleted one goes and whoever read it is back in its channel."""
    pg, loop, _sent, url = playground
    fake = pg.fake

    async def no_bot_to_wait_for():  # settle waits for every task of this loop: the page's, here, never end
        pass

    fake.settle = no_bot_to_wait_for
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(url)
        expect(page.locator("#channels .channel")).to_have_count(4)  # three channels and the side table
        made = loop.run(fake._start_thread, CHANNEL, {"name": "GEONEO · table 3", "type": 11}, {})
        thread = made["id"]
        entry = page.locator(f'#channels .channel[data-id="{thread}"]')
        expect(entry).to_have_class("channel thread")
        order = page.locator("#channels .channel").evaluate_all("els => els.map(e => e.dataset.id)")
        assert order[:3] == [str(CHANNEL), "701", thread]  # under its channel, after its older thread
        loop.run(lambda: fake._create(CHANNEL, {"content": f"Ana opened a table: <#{thread}>"}, {},
                                      author=fake.bot_user))
        loop.run(lambda: fake._create(int(thread), {"content": "The lobby."}, {}, author=fake.bot_user))
        link = page.locator(".mention", has_text="GEONEO · table 3")
        expect(link).to_have_text("🧵 GEONEO · table 3")
        link.click()
        expect(page.locator("#channel-name")).to_have_text("GEONEO · table 3")
        expect(page.locator(".msg", has_text="The lobby.")).to_have_count(1)
        loop.run(fake.archive_thread, int(thread))
        expect(entry).to_have_class("channel thread archived current")
        loop.run(fake.delete_thread, int(thread))
        expect(entry).to_have_count(0)
        expect(page.locator("#channel-name")).to_have_text("games-1")
        expect(page.locator(".mention", has_text="unknown")).to_have_text("#unknown")  # as Discord says it
        page.locator(".mention", has_text="unknown").click()  # nowhere to go: it stays, nothing fails
        expect(page.locator("#channel-name")).to_have_text("games-1")
    finally:
        page.close()
    assert not errors, errors
