"""A newcomer plays against the computer in the playground (issue 17): opens a lobby, adds a computer from the
lobby's menu at a strength, starts, and sees the computer's seat on the board: the board the page shows is the
one drawn with that seat marked (the robot's head beside "Computer (strong)")."""

from __future__ import annotations

import json
import sqlite3
import urllib.request

from playwright.sync_api import expect

import render
from bot.tables import board_view
from games import get_engine

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
    expect(lobby).to_contain_text("strong:")  # what each strength does, in one line
    menu = lobby.locator(".select", has_text="Add a computer")
    menu.locator(".select-box").click()
    expect(menu.locator(".select-option", has_text="Add a computer: strong")).to_contain_text("plays every turn")
    page.screenshot("strengths")
    menu.locator(".select-option", has_text="Add a computer: strong").click()
    expect(lobby).to_contain_text("Computer (strong), a computer (strong)")
    expect(lobby).to_contain_text("2/8 seated")
    expect(page.button(lobby, "Remove Computer (strong)")).to_be_visible()
    page.screenshot("computer-seated")
    page.button(lobby, "Start").click()

    board = page.board(GEEK_OUT)
    image = board.locator(".embed-image")
    expect(image).to_be_visible()
    page.page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    page.screenshot("board-with-the-computer")
    table = stored_table(tmp_path / "playground.db")
    players = json.loads(table["players"])
    assert [(p["name"], p.get("computer")) for p in players] == [("Ana", None), ("Computer (strong)", "strong")]
    expect(board.locator(f"[data-custom-id^='gt:{table['id']}:{table['version']}:']").first).to_be_attached()
    with urllib.request.urlopen(image.get_attribute("src")) as shown:  # the board of the stored version
        png = shown.read()
    engine = get_engine("geek_out")
    view = board_view(engine, engine.decode(table["state"]))
    names = [p["name"] for p in players]
    assert png == render.render_board("geek_out", view, names, table["last_move"], None, computers=(1,))
    assert png != render.render_board("geek_out", view, names, table["last_move"], None)
    assert page.refusals() == []
