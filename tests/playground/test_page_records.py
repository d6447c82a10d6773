"""Issue 18 in the playground page: after a game played by clicking, a member opens the game's leaderboard with
``/leaderboard`` typed in the slash box and sees its image (the real bot, the loopback Discord, Chromium)."""

from __future__ import annotations

from playwright.sync_api import expect

from render.common import PHONE_CANVAS
from tests.playground.test_page import open_geek_out, play_one, to_act


def test_a_member_opens_the_leaderboard_after_a_game_and_sees_its_image(page):
    board = open_geek_out(page, ("Ana", "Bo"), turns=1)
    moves = 0
    while to_act(board) is not None:
        play_one(page, board)
        moves += 1
        assert moves < 200
    expect(page.messages.filter(has_text="final standings").last).to_contain_text("Bo")
    page.as_member("Cy")
    page.slash("leaderboard", game="Geek Out! Masters")
    answer = page.messages.filter(has_text="Geek Out! Masters: leaderboard").last
    expect(answer).to_contain_text("2 players are rated in this game here.")
    expect(answer).to_contain_text("You are not rated in this game yet.")
    image = answer.locator("img.attachment, img.embed-image").first
    expect(image).to_be_visible()
    page.page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    assert image.evaluate("img => [img.naturalWidth, img.naturalHeight]")[0] == PHONE_CANVAS  # drawn for a phone
    page.screenshot("leaderboard")
    assert page.refusals() == []
