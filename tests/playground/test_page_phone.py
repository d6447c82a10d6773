"""The playground as Discord draws it, and on a phone (issue 26): a Components V2 message (container, sections
with an accessory, text in markdown, a media gallery, separators, rows of buttons) is drawn as Discord's client
draws it, and at a phone's 390 px a whole game is played with nothing wider than the screen and no word broken
in the middle."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.playground.test_page import open_geek_out, play_one, to_act

PHONE = {"width": 390, "height": 844}
"""An iPhone 12-15's viewport in CSS pixels (the narrowest common phones are 360)."""

PIXEL = ("data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5"
         "ErkJggg==")

V2_MESSAGE = {
    "id": "999999999999999999", "type": 0, "flags": 1 << 15, "content": "", "embeds": [], "attachments": [],
    "timestamp": "2026-11-28T12:00:00+00:00", "edited_timestamp": None, "mentions": [],
    "components": [{
        "type": 17, "accent_color": 0x3498DB, "components": [
            {"type": 10, "content": "## Geek Out! Masters · table 7\nRound 2 · **Ana** to play"},
            {"type": 12, "items": [{"media": {"url": PIXEL}, "description": "Ana 12 points, Bo 9 points"}]},
            {"type": 14, "divider": True, "spacing": 1},
            {"type": 9, "components": [{"type": 10, "content": "**Bo** · computer (normal)"}],
             "accessory": {"type": 2, "style": 4, "label": "Remove", "custom_id": "gt:7:3:remove.1"}},
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "Roll", "custom_id": "g1:7:3:roll"},
                                       {"type": 2, "style": 2, "label": "Pass", "custom_id": "g1:7:3:pass"}]},
        ]}],
}


def overflow(page) -> list[str]:
    """What sticks out to the right of the screen, and whether the page scrolls sideways."""
    return page.evaluate("""() => {
        const wide = [];
        if (document.documentElement.scrollWidth > innerWidth) wide.push(`page ${document.documentElement.scrollWidth}px`);
        const box = document.querySelector('#messages');
        if (box.scrollWidth > box.clientWidth) wide.push(`messages ${box.scrollWidth}px`);
        for (const el of document.querySelectorAll('#messages *, #topbar *, #composer *')) {
            const r = el.getBoundingClientRect();
            if (r.width && r.right > innerWidth + 1) wide.push(`${el.tagName}.${el.className} ends at ${Math.round(r.right)}px`);
        }
        return wide;
    }""")


def broken_words(page) -> list[str]:
    """Words of the messages drawn on more than one line (a link or code may break; a word may not)."""
    return page.evaluate("""() => {
        const broken = [];
        const walker = document.createTreeWalker(document.querySelector('#messages'), NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (node.parentElement.closest('a, code, pre, [hidden]')) continue;
            const word = /[^\\s\\-\\/·,:()]+/g;
            let m;
            while ((m = word.exec(node.data))) {
                if (m[0].length < 2) continue;
                const range = document.createRange();
                range.setStart(node, m.index);
                range.setEnd(node, m.index + m[0].length);
                const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
                if (lines.size > 1) broken.push(m[0]);
            }
        }
        return broken;
    }""")


def test_a_components_v2_message_is_drawn_as_discord_draws_it(page):
    channel_id = page.page.evaluate("state.channel")
    page.page.evaluate("m => handle({type: 'message', message: m})", {**V2_MESSAGE, "channel_id": channel_id,
                                                                      "author": page.page.evaluate("state.bot")})
    message = page.page.locator("#m-999999999999999999")
    container = message.locator(".container")  # drawn as Discord draws a container: a box with an accent bar
    expect(container).to_have_css("border-left-color", "rgb(52, 152, 219)")  # the accent colour
    expect(container.locator(".embed-title")).to_have_text("Geek Out! Masters · table 7")  # its heading
    expect(container.locator(".text-display b").first).to_have_text("Ana")  # markdown in a text display
    expect(container.locator("img")).to_have_attribute("alt", "Ana 12 points, Bo 9 points")  # the gallery's image
    expect(container.locator(".separator")).to_have_count(1)
    expect(container.locator(".section .section-text")).to_contain_text("computer (normal)")
    expect(container.locator(".section button.btn.danger")).to_have_text("Remove")  # the section's accessory
    expect(container.locator(".row button.btn")).to_have_text(["Roll", "Pass"])
    assert page.refusals() == []


def test_a_container_without_buttons_or_an_embed_without_fields_shows_no_stray_zero(page):
    """/help's screen has no row of buttons: the page once drew the count of its rows, a lone "0", under it."""
    channel_id = page.page.evaluate("state.channel")
    bot = page.page.evaluate("state.bot")
    words = {"type": 17, "accent_color": 0x56B4E9, "components": [{"type": 10, "content": "## Geotable\nHello!"}]}
    page.page.evaluate("m => handle({type: 'message', message: m})",
                       {**V2_MESSAGE, "components": [words], "channel_id": channel_id, "author": bot})
    page.page.evaluate("m => handle({type: 'message', message: m})",
                       {**V2_MESSAGE, "id": "999999999999999998", "flags": 0, "components": [], "channel_id": channel_id,
                        "author": bot, "embeds": [{"title": "Standings", "description": "Ana 3", "fields": []}]})
    for message_id in ("999999999999999999", "999999999999999998"):
        body = page.page.locator(f"#m-{message_id} .body")
        expect(body).to_contain_text("Hello!" if message_id.endswith("9") else "Ana 3")
        assert "0" not in body.locator(".embed").inner_text(), body.inner_text()
    assert page.refusals() == []


def test_a_file_component_is_drawn_in_its_container_and_no_null(page):
    """/replay's screen ends with a file component (the move list): the page drew "null" for it in the container
    and the file as a loose attachment below."""
    channel_id = page.page.evaluate("state.channel")
    text_file = {"id": "5", "filename": "moves-2.txt", "url": PIXEL, "content_type": "text/plain"}
    container = {"type": 17, "accent_color": 0xE69F00, "components": [
        {"type": 10, "content": "## Replay of game #2"}, {"type": 13, "file": {"url": "attachment://moves-2.txt"}}]}
    page.page.evaluate("m => handle({type: 'message', message: m})",
                       {**V2_MESSAGE, "components": [container], "attachments": [text_file], "channel_id": channel_id,
                        "author": page.page.evaluate("state.bot")})
    body = page.page.locator("#m-999999999999999999 .body")
    expect(body.locator(".container a.file")).to_have_text("📄 moves-2.txt")
    expect(body.locator("a.file")).to_have_count(1)
    assert "null" not in body.inner_text()
    assert page.refusals() == []


def test_a_whole_game_on_a_phone_with_nothing_wider_than_the_screen(page):
    page.page.set_viewport_size(PHONE)
    expect(page.page.locator("#menu")).to_be_visible()  # the sidebar is a drawer
    expect(page.page.locator("#sidebar")).not_to_be_in_viewport()
    board = open_geek_out(page, ("Ana", "Bo"), turns=1)
    assert overflow(page.page) == []
    page.screenshot("phone-first-board")
    moves = 0
    while to_act(board) is not None:
        play_one(page, board)
        moves += 1
        assert moves < 200
    expect(page.messages.filter(has_text="final standings").last).to_contain_text("Bo")
    page.page.locator("#messages").evaluate("box => box.scrollTop = box.scrollHeight")
    page.screenshot("phone-final-standings")
    assert overflow(page.page) == []
    assert broken_words(page.page) == []
    assert page.refusals() == []
