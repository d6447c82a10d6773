"""A tournament on the playground's page (issue 28), as a moderator and members meet it on a desktop and a phone:
Mo opens a Swiss of Geek Out in a channel, four members join from the tournament message, Mo starts it, the
round's post links each table's thread, and a link opens the thread with the players' ping and their board."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.playground.test_page_phone import PHONE, overflow

DESKTOP = {"width": 1280, "height": 900}


@pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_tournament_is_signed_up_for_started_and_its_tables_found_in_their_threads(page, screen):
    page.page.set_viewport_size(screen)
    page.to_channel("games-3")
    page.as_member("Mo")
    page.slash("tournament create geek-out", turns="1")
    message = page.messages.filter(has_text="Geek Out! Masters tournament #1").first
    expect(message).to_contain_text("Swiss, 3 rounds · duels · live")
    expect(message).to_contain_text("Press Join to take part. Round 1 begins when a moderator presses Start.")
    page.screenshot("sign-up")
    for name in ("Ana", "Bo", "Cy", "Dee"):
        page.as_member(name)
        page.button(message, "Join").click()
        expect(message).to_contain_text(name)
    expect(message).to_contain_text("4 players signed up")
    page.screenshot("signed-up")
    if screen is PHONE:
        assert overflow(page.page) == []
    page.as_member("Mo")
    page.button(message, "Start").click()
    post = page.messages.filter(has_text="round 1 of 3").last
    expect(post).to_contain_text("2 tables, each in its own thread:")
    links = post.locator(".mention[data-channel]")
    expect(links).to_have_count(2)
    expect(links.first).to_contain_text("round 1 · table 1")  # the thread's name, not "#unknown"
    expect(message).to_contain_text("Round 1 of 3 is being played.")
    page.screenshot("round-1")
    if screen is PHONE:
        assert overflow(page.page) == []
    thread = links.first.get_attribute("data-channel")
    links.first.click()
    assert page.page.evaluate("state.channel") == thread
    expect(page.messages.filter(has_text="round 1, table 1 of Geek Out! Masters tournament #1")).to_have_count(1)
    expect(page.messages.filter(has=page.page.locator(".embed-image")).last).to_be_visible()
    page.screenshot("table-in-thread")
    if screen is PHONE:
        assert overflow(page.page) == []
    assert page.refusals() == []
