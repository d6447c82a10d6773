"""What the page does with each kind of thing Discord's client shows and sends, checked on messages made here (no
bot: every interaction the page sends is caught at the fake's gateway, and answered by hand where needed)."""

from __future__ import annotations

import asyncio
import io
import json
import time

import aiohttp
import pytest
from PIL import Image
from playwright.async_api import async_playwright, expect

from playground.server import Playground
from tests.playground.conftest import ARTEFACTS, CHROMIUM, FLAGS

ANA, BO = "101", "102"
CHANNEL = 601


class NoBot:
    """Stands in for the bot process: nothing to start."""

    async def start(self):
        pass

    async def stop(self):
        pass

    restart = start


@pytest.fixture
async def playground(tmp_path):
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
    port = await pg.start(0)
    yield pg, sent, f"http://127.0.0.1:{port}/"
    await pg.stop()


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


async def test_the_page_shows_and_sends_what_discords_client_does(playground):
    pg, sent, url = playground
    fake = pg.fake
    message = board_message(fake)
    it, _ = fake._interaction(3, int(BO), CHANNEL, {"custom_id": "t:go", "component_type": 2}, message)
    fake._create(CHANNEL, {"content": "Bo's secret", "flags": 64}, {}, author=fake.bot_user, interaction=it)
    ARTEFACTS.mkdir(exist_ok=True)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = await browser.new_page(viewport={"width": 1280, "height": 900})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        await page.goto(url)
        shown = page.locator(f"#m-{message['id']}")
        # what a message shows: mentions by name (and highlighted for the member mentioned), a live
        # relative time, the embed with its fields and colour, its image, buttons by style, menus
        await expect(shown.locator(".content")).to_contain_text("@Ana: your turn in Test, until in 2 minutes in #games-1")
        await expect(shown).to_have_class("msg mentioned")
        await expect(shown.locator(".embed")).to_have_css("border-left-color", "rgb(86, 180, 233)")
        await expect(shown.locator(".field.inline")).to_have_count(2)
        assert await shown.locator(".embed-image").evaluate("img => img.complete && img.naturalWidth") == 800
        await expect(shown.locator("img.attachment")).to_have_count(0)  # shown in the embed, not twice
        await expect(shown.locator("button.btn.primary[data-custom-id]")).to_have_text("🎲Go")
        await expect(shown.locator("button.btn", has_text="Wait")).to_be_disabled()
        await expect(shown.locator("button.btn", has_text="Wait")).to_have_css("opacity", "0.5")
        await expect(shown.locator("a.btn.link")).to_have_attribute("href", "https://example.org/rules")
        await expect(page.locator(".msg", has_text="Bo's secret")).to_have_count(0)
        await page.screenshot(path=str(ARTEFACTS / "features-01-message.png"))

        # a click and a menu choice are real interactions, from the member playing
        await shown.locator("button.btn", has_text="Go").click()
        await shown.locator(".select", has_text="Choose a square").locator(".select-box").click()
        await page.screenshot(path=str(ARTEFACTS / "features-02-menu-open.png"))
        await shown.locator(".select-option", has_text="Square 2").click()
        many = shown.locator(".select", has_text="Choose two")
        await many.locator(".select-box").click()
        await many.locator(".select-option", has_text="x").click()
        await many.locator(".select-option", has_text="z").click()
        await many.locator("button", has_text="Done").click()
        await until(lambda: len(components(sent)) == 3)
        go, menu, two = components(sent)
        assert (go["data"]["custom_id"], go["member"]["user"]["id"], go["message"]["id"]) == ("t:go", ANA, message["id"])
        assert (menu["data"]["custom_id"], menu["data"]["values"]) == ("t:menu", ["s2"])
        assert two["data"]["values"] == ["x", "z"]

        # nobody answered within 3 seconds: Discord's client says so, to the member who clicked only
        await expect(shown.locator(".failed")).to_have_text("This interaction failed", timeout=6000)
        await page.locator('#member-list [data-member="Bo"]').click()
        await expect(page.locator(f"#m-{message['id']} .failed")).to_have_count(0)
        secret = page.locator(".msg", has_text="Bo's secret")
        await expect(secret.locator(".ephemeral-note")).to_contain_text("Only you can see this")
        await expect(secret.locator(".used")).to_contain_text("Bo clicked on Test · table 9")

        # an edit replaces the message in place; a deletion removes it; a refused request shows
        fake._edit(message, {"content": "Changed."}, {})
        await expect(page.locator(f"#m-{message['id']} .content")).to_have_text("Changed.(edited)")
        async with aiohttp.ClientSession() as s:
            await s.post(f"{fake.api_base}/channels/{CHANNEL}/messages", json={"content": "x" * 2001})
            await s.delete(f"{fake.api_base}/channels/{CHANNEL}/messages/{message['id']}")
        await expect(page.locator(".notice")).to_contain_text(
            f"Discord refused the bot's POST /channels/{CHANNEL}/messages: 400 (code 50035)")
        await expect(page.locator(f"#m-{message['id']}")).to_have_count(0)

        # a slash command: picked from the list, a required option refused until filled, an autocomplete
        box = page.locator("#input")
        await box.fill("/fr")
        await box.press("Enter")
        await page.locator('[data-option="name"]').press("Enter")
        await expect(page.locator("#error")).to_have_text("Fill in name first.")
        await page.locator('[data-option="name"]').fill("ap")
        await expect(page.locator("#picker .pick")).to_have_text(["Apple", "Apricot"])
        await page.screenshot(path=str(ARTEFACTS / "features-03-autocomplete.png"))
        await page.locator('[data-option="name"]').press("ArrowDown")
        await page.locator('[data-option="name"]').press("Enter")
        await expect(page.locator('[data-option="name"]')).to_have_value("Apricot")
        await page.locator('[data-option="count"]').fill("3")
        await page.locator('[data-option="who"]').select_option(label="Ana")
        await page.locator('[data-option="count"]').press("Enter")
        await until(lambda: any(d.get("type") == 2 for d in sent))
        command = next(d for d in sent if d.get("type") == 2)
        assert command["member"]["user"]["id"] == BO
        assert {o["name"]: o["value"] for o in command["data"]["options"]} == {"name": "apricot", "count": 3, "who": ANA}
        assert ANA in command["data"]["resolved"]["users"]

        # a plain message
        await box.fill("hello table")
        await box.press("Enter")
        await expect(page.locator(".msg[data-author='Bo']").last).to_contain_text("hello table")
        await page.screenshot(path=str(ARTEFACTS / "features-04-after.png"))
        await browser.close()
    assert not errors, errors
    assert json.loads(json.dumps(fake.messages_in(CHANNEL)))[-1]["content"] == "hello table"


def components(sent):
    return [d for d in sent if d.get("type") == 3]


async def until(condition, timeout=5.0):
    end = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < end, "the condition never held"
        await asyncio.sleep(0.02)
