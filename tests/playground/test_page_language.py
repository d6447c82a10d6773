"""The playground's first page greets a newcomer as the bot greets a server (its hello: /play, /rules, /learn),
in the browser's language; the language picker switches the members' and the server's Discord language, so
the bot answers in it too (issue 19)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.playground.conftest import Channel


@pytest.fixture
def open_page(browser, playground, request):
    """Opens the page as a browser whose languages are ``languages``."""
    tabs = []

    def open_as(languages: list[str]) -> Channel:
        tab = browser.new_page()
        tab.add_init_script(f"Object.defineProperty(navigator, 'languages', {{get: () => {json.dumps(languages)}}});"
                            f"Object.defineProperty(navigator, 'language', {{get: () => {json.dumps(languages[0])}}});")
        tabs.append(tab)
        tab.goto(playground)
        expect(tab.locator("#status")).to_have_class("online")
        return Channel(tab, request.node.name)

    yield open_as
    for tab in tabs:
        tab.close()


def test_the_page_greets_in_the_browsers_language_and_the_picker_switches_it(open_page):
    page = open_page(["de-DE", "en"])
    greeting = page.page.locator("#messages .welcome .greeting")
    expect(greeting).to_contain_text("Hallo! Ich bin Geotable")
    expect(greeting).to_contain_text("/spielen")
    expect(greeting).to_contain_text("/regeln")
    expect(page.page.locator("#language")).to_have_value("de")
    page.screenshot("greeting-de")
    page.page.locator("#input").fill("/spielen geek")  # the commands as a German Discord client shows them
    expect(page.page.locator("#picker .pick").first).to_contain_text("/spielen geek-out")
    expect(page.page.locator("#picker .pick").first).to_contain_text("Geek Out! Masters (1-8 Spieler)")
    page.page.locator("#input").press("Enter")
    expect(page.page.locator('#command label.option').filter(has=page.page.locator('[data-option="strength"]'))
           ).to_contain_text("stärke")
    page.page.keyboard.press("Escape")
    page.slash("hilfe")  # the bot itself answers in the members' language now
    expect(page.messages.last).to_contain_text("Hallo! Ich bin Geotable")

    page.page.locator("#language").select_option(label="Español")
    expect(greeting).to_contain_text("¡Hola! Soy Geotable")
    expect(greeting).to_contain_text("/jugar")
    page.slash("ayuda")
    expect(page.messages.last).to_contain_text("¡Hola! Soy Geotable")

    again = open_page(["fr-FR"])  # a second page keeps what was picked (its browser's language aside)
    expect(again.page.locator("#messages .welcome .greeting")).to_contain_text("¡Hola! Soy Geotable")
    assert page.refusals() == []


def test_an_english_browser_is_greeted_in_english(open_page):
    page = open_page(["en-US"])
    greeting = page.page.locator("#messages .welcome .greeting")
    expect(greeting).to_contain_text("Hello! I'm Geotable")
    expect(greeting).to_contain_text("Start a game in any channel with /play")
    expect(page.page.locator("#language")).to_have_value("en")


def test_the_page_s_own_welcome_and_hints_follow_its_language(open_page):
    """Issue 24: the bot answered in German while the page's welcome, its hints and its buttons' names stayed
    English ("Type /play geek-out", a command a German client does not show)."""
    page = open_page(["de-DE"])
    tab = page.page
    welcome = tab.locator("#messages .welcome")
    expect(welcome.locator(".h1")).to_have_text("Willkommen in #games-1!")
    expect(welcome).to_contain_text("Neu hier? Eine erste Partie in drei Schritten:")
    expect(welcome.locator("button.try").first).to_have_text("/spielen geek-out")
    expect(welcome).to_contain_text("drücke in der Lobby Beitreten")  # the lobby's button as the bot labels it
    expect(welcome.locator("button.try").nth(1)).to_have_text("/regeln")
    expect(tab.locator("#members h2")).to_have_text("Spielen als")
    expect(tab.locator("#input")).to_have_attribute("placeholder", "Nachricht an #games-1 (/ für Befehle)")
    welcome.locator("button.try").first.click()  # the welcome's command, picked as the page's Discord names it
    tab.locator("#input").press("Enter")
    expect(tab.locator("#command .chip")).to_have_text("/spielen geek-out")
    expect(tab.locator("#command .hint")).to_have_text("Enter zum Senden, Esc zum Abbrechen")
    tab.keyboard.press("Escape")
    tab.locator("#input").fill("/gibtsnicht")
    tab.locator("#input").press("Enter")
    expect(tab.locator("#error")).to_have_text("Kein Befehl des Bots heißt so: tippe /, um alle zu sehen.")
    page.screenshot("welcome-de")

    tab.locator("#language").select_option(label="Español")
    expect(welcome.locator(".h1")).to_have_text("¡Te damos la bienvenida a #games-1!")
    expect(welcome.locator("button.try").first).to_have_text("/jugar geek-out")
    expect(welcome).to_contain_text("pulsa Unirse en la sala")
    expect(tab.locator("#members h2")).to_have_text("Jugar como")
    expect(tab.locator("#restart")).to_have_text("Reiniciar el bot")

    tab.locator("#language").select_option(label="English")
    expect(welcome.locator(".h1")).to_have_text("Welcome to #games-1!")
    expect(welcome.locator("button.try").first).to_have_text("/play geek-out")
    expect(welcome).to_contain_text("press Join on the lobby")


def test_times_are_written_as_a_client_in_the_page_s_language_writes_them(open_page):
    """A German page wrote every message's time and Discord timestamp the English way ("07:45 AM"): the
    browser's default locale, not the page's language."""
    page = open_page(["de-DE"])
    page.slash("hilfe")
    stamp = page.messages.last.locator(".head time")
    expect(stamp).to_contain_text("Heute um")
    assert not any(mark in stamp.inner_text() for mark in ("AM", "PM")), stamp.inner_text()
    page.page.locator("#language").select_option(label="English")
    page.slash("help")
    expect(page.messages.last.locator(".head time")).to_contain_text(re.compile(r"Today at \d\d:\d\d [AP]M"))
