"""Rematch in the playground (issue 18, item 1): two members play Geek Out to its end by clicking, one clicks the
final board's Rematch, the new lobby keeps the other's seat and calls her back; she takes it with one click, the
second game is played to its end, and the first board's Rematch then says a newer game was played."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.playground.test_page import GEEK_OUT, open_geek_out, play_one, to_act


def play_to_the_end(page, board) -> None:
    moves = 0
    while to_act(board) is not None:
        play_one(page, board)
        moves += 1
        assert moves < 200
    expect(board).to_contain_text("Game over")


def test_rematch_from_the_final_board_and_a_second_game(page):
    first = open_geek_out(page, ("Ana", "Bo"), turns=1)
    play_to_the_end(page, first)
    first_id = first.get_attribute("data-id")
    expect(page.button(first, "Rematch")).to_be_visible()
    page.screenshot("final-board-with-rematch")

    page.as_member("Bo")
    page.button(first, "Rematch").click()
    reply = page.messages.filter(has_text="Rematch! A new Geek Out! Masters lobby is below").last
    expect(reply).to_contain_text("Seats are kept for Ana.")
    lobby = page.messages.filter(has_text="Geek Out! Masters · lobby").last
    expect(lobby).to_contain_text("waiting for @Ana")
    expect(lobby).to_contain_text("1/8 seated")
    expect(lobby).to_contain_text("Bo asked for a rematch.")
    expect(page.messages.filter(has_text="asked for a rematch of Geek Out! Masters").last).to_contain_text("@Ana")
    page.screenshot("rematch-lobby")

    page.as_member("Ana")
    page.button(lobby, "Join").click()  # one click: her own seat again
    expect(lobby).to_contain_text("Ana took their seat again.")
    expect(lobby).to_contain_text("2/8 seated")
    expect(lobby).not_to_contain_text("waiting for")
    page.as_member("Bo")
    page.button(lobby, "Start").click()
    second = page.board(GEEK_OUT)
    expect(second).not_to_have_attribute("data-id", first_id)
    play_to_the_end(page, second)
    page.screenshot("second-game-over")

    page.as_member("Ana")
    page.button(page.page.locator(f"#m-{first_id}"), "Rematch").click()
    expect(page.messages.filter(has_text="A newer game has been played in this channel").last).to_be_visible()
    assert page.refusals() == []
