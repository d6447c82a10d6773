"""Tables in threads on the playground's page (issue 27), as a new user meets them: ``/play geek-out thread:yes``
leaves one line in the channel that links the thread, the thread appears in the sidebar indented under its
channel (as Discord lists a channel's threads), a click on the link opens it with the lobby, and the game is
played there; on a desktop and on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.playground.test_page import GEEK_OUT, play_one, versions
from tests.playground.test_page_phone import PHONE, overflow

DESKTOP = {"width": 1280, "height": 900}


@pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_table_opened_in_a_thread_is_found_from_its_link_line_and_played_there(page, screen):
    page.page.set_viewport_size(screen)
    page.to_channel("games-2")
    page.as_member("Ana")
    page.slash("play geek-out", thread="yes")
    line = page.messages.filter(has_text="opened a Geek Out! Masters table in its own thread").last
    link = line.locator(".mention[data-channel]")
    expect(link).to_contain_text("Geek Out! Masters")  # the thread's name, not "#unknown"
    thread_id = link.get_attribute("data-channel")
    assert page.page.evaluate("id => state.channels.find(c => c.id === id)?.thread_of", thread_id) \
        == page.page.evaluate("state.channel")  # a thread of this channel
    expect(page.messages.filter(has_text="Geek Out! Masters · lobby")).to_have_count(0)  # not in the channel
    page.screenshot("link-line")

    page.drawer()  # the sidebar: the thread right under its channel, indented
    entries = page.page.locator("#channels .channel")
    names = entries.evaluate_all("els => els.map(e => [e.dataset.id, e.classList.contains('thread')])")
    ids = [entry[0] for entry in names]
    parent = page.page.evaluate("state.channel")
    assert ids.index(thread_id) > ids.index(parent)
    assert all(is_thread for _id, is_thread in names[ids.index(parent) + 1:ids.index(thread_id) + 1])
    sidebar_entry = page.page.locator(f'#channels .channel[data-id="{thread_id}"]')
    indent = sidebar_entry.evaluate("e => parseFloat(getComputedStyle(e).paddingLeft)")
    assert indent > page.page.locator(f'#channels .channel[data-id="{parent}"]').evaluate(
        "e => parseFloat(getComputedStyle(e).paddingLeft)")
    page.page.wait_for_timeout(300)  # a phone's drawer slides in
    page.screenshot("sidebar")
    if page.page.locator("#menu").is_visible():  # a phone: a tap beside the drawer closes it, and only that
        page.page.mouse.click(screen["width"] - 10, screen["height"] // 2)
        expect(page.page.locator("#app")).not_to_have_class("drawer")
        assert page.page.evaluate("state.channel") == parent

    link.click()  # the link line jumps into the thread
    assert page.page.evaluate("state.channel") == thread_id
    expect(page.page.locator("#channel-name")).to_contain_text("Geek Out! Masters")
    lobby = page.messages.filter(has_text="Geek Out! Masters · lobby").last
    expect(lobby).to_contain_text("1/8 seated")
    page.as_member("Bo")
    page.button(lobby, "Join").click()
    expect(lobby).to_contain_text("@Bo")
    page.as_member("Ana")
    page.button(lobby, "Start").click()
    board = page.board(GEEK_OUT)
    expect(board.locator(".embed-image")).to_be_visible()
    before = versions(board)
    play_one(page, board)
    assert versions(board) != before
    assert page.page.evaluate("state.channel") == thread_id  # switching members kept the thread open
    page.screenshot("played-in-thread")
    if screen is PHONE:
        assert overflow(page.page) == []
    assert page.refusals() == []

