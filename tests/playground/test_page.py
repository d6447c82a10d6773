"""The playground in a real browser, as a person uses it: one person switching between members plays whole games
by typing commands and clicking, while the real bot answers through the loopback Discord.

Every test ends with no refusal on the page (a request of the bot that Discord would refuse shows there).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

GEEK_OUT = "Geek Out! Masters · table"
PREFERRED = ("Pass", "Continue", "Heart", "Meeple", "Superhero", "Spaceship", "Reroll", "Flip", "Send")


def to_act(board) -> str | None:
    match = re.search(r"To act: (\w+)", board.locator(".embed-desc").inner_text())
    return match.group(1) if match else None


def versions(board) -> set[str]:
    return {cid.split(":")[2] for cid in board.locator("[data-custom-id^='g1']").evaluate_all(
        "els => els.map(e => e.dataset.customId)")}


def open_geek_out(page, players=("Ana", "Bo"), turns=1):
    page.as_member(players[0])
    page.slash("play geek-out", turns=turns)
    lobby = page.messages.filter(has_text="Geek Out! Masters · lobby").last
    expect(lobby).to_contain_text("1/8 seated")
    for name in players[1:]:
        page.as_member(name)
        page.button(lobby, "Join").click()
        expect(lobby).to_contain_text(f"@{name}")
    page.as_member(players[0])
    page.button(lobby, "Start").click()
    board = page.board(GEEK_OUT)
    expect(board.locator(".embed-image")).to_be_visible()
    return board


def play_one(page, board) -> None:
    """The member to act clicks a move; returns once the board shows the next version (or the end)."""
    who = to_act(board)
    page.as_member(who)
    before = versions(board)
    labels = [t.strip() for t in board.locator("button.btn:not([disabled])").all_inner_texts()]
    moves = [label for label in labels if label and "Rules" not in label]
    pick = next((m for p in PREFERRED for m in moves if m.startswith(p)), moves[0])
    page.button(board, pick).click()
    page.page.wait_for_function(
        """([title, before]) => {
            const boards = [...document.querySelectorAll('#messages .msg')]
                .filter(m => [...m.querySelectorAll('.embed-title')].some(t => t.textContent.includes(title)));
            const ids = [...boards.at(-1).querySelectorAll("[data-custom-id^='g1']")].map(e => e.dataset.customId.split(':')[2]);
            return ids.length === 0 || !ids.some(v => before.includes(v));
        }""", arg=[GEEK_OUT, sorted(before)])


def test_a_whole_game_of_geek_out_played_by_clicking(page):
    board = open_geek_out(page, ("Ana", "Bo", "Cy"), turns=2)
    page.screenshot("first-board")
    moves = 0
    while to_act(board) is not None:
        play_one(page, board)
        moves += 1
        assert moves < 200
    standings = page.messages.filter(has_text="final standings").last
    expect(standings).to_contain_text("Ana")
    expect(standings).to_contain_text("Bo")
    expect(standings).to_contain_text("Cy")
    expect(board).to_contain_text("Game over")
    page.screenshot("final-standings")
    assert page.refusals() == []


@pytest.mark.parametrize("playground", ["readme"], indirect=True)  # started the README's way, with no token
def test_a_geoneo_hand_is_seen_by_its_owner_and_by_no_other_member(page):
    page.as_member("Ana")
    page.slash("play geoneo")
    lobby = page.messages.filter(has_text="GEONEO · lobby").last
    page.as_member("Bo")
    page.button(lobby, "Join").click()
    expect(lobby).to_contain_text("@Bo")
    page.as_member("Ana")
    page.button(lobby, "Start").click()
    board = page.board("GEONEO · table")
    expect(board.locator(".embed-image")).to_be_visible()
    page.button(board, "My hand").click()
    panel = page.messages.filter(has_text="Your hand (only you can see this").last
    expect(panel).to_contain_text("Only you can see this")
    expect(panel.locator("img.attachment")).to_be_visible()
    ana_panel = panel.get_attribute("data-id")
    page.screenshot("ana-sees-her-hand")
    for other in ("Bo", "Sol", "Mo"):  # the other player, a spectator, the moderator
        page.as_member(other)
        expect(page.page.locator(f"#m-{ana_panel}")).to_have_count(0)
        expect(page.messages.filter(has_text="Your hand")).to_have_count(0)
    page.screenshot("bo-does-not")
    page.as_member("Bo")
    page.button(page.board("GEONEO · table"), "My hand").click()
    bo_panel = page.messages.filter(has_text="Your hand (only you can see this").last
    expect(bo_panel).to_be_visible()
    assert bo_panel.get_attribute("data-id") != ana_panel
    page.as_member("Ana")
    expect(page.page.locator(f"#m-{ana_panel}")).to_have_count(1)
    expect(page.messages.filter(has_text="Your hand")).to_have_count(1)
    assert page.refusals() == []


def test_a_moderator_ends_a_game_with_mod_end_typed_in_the_slash_box(page):
    page.to_channel("games-2")
    board = open_geek_out(page, ("Cy",), turns=3)
    page.as_member("Cy")  # a player does not even see the moderators' commands, as in Discord
    page.page.locator("#input").fill("/mod")
    expect(page.page.locator("#picker .pick", has_text="/mod end")).to_have_count(0)
    page.page.locator("#input").press("Escape")
    page.as_member("Mo")
    page.page.locator("#input").fill("/mod")
    expect(page.page.locator("#picker .pick", has_text="/mod end")).to_be_visible()
    page.screenshot("moderator-commands")
    page.slash("mod end", reason="Closing time")
    expect(board).to_contain_text("Ended: Closing time (by Mo)")
    expect(board.locator("button.btn", has_text="Pass")).to_have_count(0)
    expect(page.messages.filter(has_text="The game is ended.")).to_contain_text("Only you can see this")
    page.screenshot("ended")
    assert page.refusals() == []


def test_the_bot_restarts_while_the_page_stays_open_and_the_old_buttons_still_work(page):
    board = open_geek_out(page, ("Ana", "Bo"), turns=2)
    page.page.evaluate("window.sameVisit = true")  # gone if the page were reloaded
    page.page.locator("#restart").click()
    expect(page.page.locator("#status")).to_have_class("restarting")
    page.screenshot("restarting")
    expect(page.page.locator("#status")).to_have_class("online")
    assert page.page.evaluate("window.sameVisit") is True
    play_one(page, board)  # a button drawn before the restart, clicked on the same page
    play_one(page, board)
    page.screenshot("after-restart")
    assert page.refusals() == []


def test_the_first_page_greets_a_newcomer_with_what_to_do_first(page):
    welcome = page.page.locator("#messages .welcome")
    expect(welcome).to_contain_text("Welcome to #games-1!")
    expect(welcome).to_contain_text("You play as Ana.")
    expect(welcome).to_contain_text("Type /play geek-out in the message box")
    expect(welcome).to_contain_text("(Bo, Cy, Dee) are the other players")
    expect(welcome).to_contain_text("How a game is played: /rules")
    page.screenshot("welcome")
    welcome.locator("button.try", has_text="/play geek-out").click()  # what it says to type, typed for them
    expect(page.page.locator("#picker .pick").first).to_contain_text("/play geek-out")
    page.page.keyboard.press("Enter")  # "pick it with Enter and press Enter again"
    expect(page.page.locator("#command .chip")).to_have_text("/play geek-out")
    page.page.keyboard.press("Enter")
    lobby = page.messages.filter(has_text="Geek Out! Masters · lobby").last
    expect(lobby).to_contain_text("1/8 seated")
    expect(lobby).to_contain_text("@Ana")
    page.as_member("Bo")  # the greeting follows who one plays as
    expect(welcome).to_contain_text("You play as Bo.")
    expect(welcome).to_contain_text("(Ana, Cy, Dee) are the other players")
    welcome.locator("button.try", has_text="/rules").click()
    expect(page.page.locator("#picker .pick").first).to_contain_text("/rules")
    assert page.refusals() == []
