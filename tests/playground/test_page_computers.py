"""A newcomer plays against the computer in the playground (issue 17): opens a lobby, adds a computer from the
lobby's menu at a strength, starts, sees the computer's seat on the board (the board the page shows is the one
drawn with that seat marked: the robot's head beside "Computer (strong)"), watches it move by itself, and the
standings say which seat a computer played."""

from __future__ import annotations

import json
import sqlite3
import urllib.request

from playwright.sync_api import expect

import render
from bot.table.words import board_view
from games import get_engine
from tests.playground.test_page import play_one, to_act

GEEK_OUT = "Geek Out! Masters · table"


def stored_table(database) -> dict:
    with sqlite3.connect(database) as db:
        db.row_factory = sqlite3.Row
        row = db.execute("SELECT * FROM tables ORDER BY id DESC LIMIT 1").fetchone()
    return dict(row)


def test_a_newcomer_adds_a_computer_from_the_lobby_and_sees_it_on_the_board(page, tmp_path):
    page.as_member("Ana")
    page.slash("play geek-out", turns=1)
    lobby = page.messages.filter(has_text="Geek Out! Masters · lobby").last
    expect(lobby).to_contain_text("1/8 seated")
    expect(lobby).not_to_contain_text("strong:")  # what each strength does: said in the menu alone (issue 26)
    menu = lobby.locator(".select", has_text="Add a computer")
    menu.locator(".select-box").click()
    expect(menu.locator(".select-option", has_text="Add a computer: strong")).to_contain_text("plays every turn")
    page.screenshot("strengths")
    menu.locator(".select-option", has_text="Add a computer: strong").click()
    expect(lobby).to_contain_text("Computer (strong)")
    expect(lobby).not_to_contain_text("a computer (strong)")
    expect(lobby).to_contain_text("2/8 seated")
    expect(page.button(lobby, "Remove Computer (strong)")).to_be_visible()
    page.screenshot("computer-seated")
    page.button(lobby, "Start").click()

    board = page.board(GEEK_OUT)
    image = board.locator(".embed-image")
    expect(image).to_be_visible()
    compared = computer_moved = False
    moves = 0
    while "Game over" not in board.locator(".embed-desc").inner_text():
        if to_act(board) == "Ana":  # the board stays as it is until she moves: it is the stored version's
            if not compared:
                page.screenshot("board-with-the-computer")
                shows_the_computer_marked(page, board, tmp_path / "playground.db")
                compared = True
            play_one(page, board)
        else:  # the computer's turn: it moves by itself, until Ana's turn or the end
            page.page.wait_for_function(
                """id => {
                    const text = document.querySelector(`#m-${id} .embed-desc`).textContent;
                    return text.includes("To act: Ana") || text.includes("Game over");
                }""", arg=board.get_attribute("data-id"))
            if not computer_moved:  # its steps since Ana's turn, one a line, under "Latest moves"
                page.screenshot("board-after-the-computers-turn")
            computer_moved = True
        moves += 1
        assert moves < 200
    assert compared and computer_moved
    standings = page.messages.filter(has_text="final standings").last
    expect(standings).to_contain_text("🤖 Computer (strong)")
    expect(standings).to_contain_text("Played by a computer: Computer (strong).")
    page.screenshot("final-standings")
    assert page.refusals() == []


def shows_the_computer_marked(page, board, database) -> None:
    """The board the page shows is the stored table drawn with seat 1 marked as the computer's."""
    table = stored_table(database)
    players = json.loads(table["players"])
    assert [(p["name"], p.get("computer")) for p in players] == [("Ana", None), ("Computer (strong)", "strong")]
    ids = f"{table['id']}:{table['version']}:"
    expect(board.locator(f"[data-custom-id^='g1m:{ids}'], [data-custom-id^='g1u:{ids}']").first).to_be_attached()
    image = board.locator(".embed-image")
    page.page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    with urllib.request.urlopen(image.get_attribute("src")) as shown:
        png = shown.read()
    engine = get_engine("geek_out")
    view = board_view(engine, engine.decode(table["state"]))
    names = [p["name"] for p in players]
    assert png == render.render_board("geek_out", view, names, table["last_move"], None, computers=(1,))
    assert png != render.render_board("geek_out", view, names, table["last_move"], None)
