"""/rules through the loopback Discord (issue 19 item 2): short pages with the game's own picture of a position
its engine reached, Previous / Next editing the same ephemeral message, in the member's language, after a
restart too; a forged page id gets a sentence and changes nothing."""

import re

import i18n
import render
from bot.table.words import board_view
from games import get_engine
from games.rulebook import NAMES, example, pages
from playground.fake_discord import snapshot
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL

DORA = 104
"""A member whose Discord speaks German."""


def page_of(fake, user) -> dict:
    return fake.ephemerals(user)[-1]


def shown_png(fake, message) -> bytes:
    [attachment] = message["attachments"]
    return fake.files[int(attachment["id"])]


def drawn(game, page, locale) -> bytes:
    shown = example(game, page)
    names = list(NAMES[:shown.state["players"]])
    last = " ".join(i18n.localize(e.text, locale) for e in shown.events)
    for seat, name in enumerate(names):
        last = last.replace(f"{{p{seat}}}", name)
    return render.render_board(game, board_view(get_engine(game), shown.state), names, last or None, shown.focus,
                               locale=locale)


def buttons(message) -> dict[str, bool]:
    return {c["label"]: bool(c.get("disabled")) for c in sight.components(message)}


async def test_rules_open_page_one_and_the_buttons_turn_the_same_message(fake, runner):
    await fake.slash(ANA, CHANNEL, "rules", game="geodeto")
    first = page_of(fake, ANA)
    screen = snapshot(first)  # what the member's screen shows until it refreshes
    assert not fake.messages_in(CHANNEL), "only the asker sees the rules"
    [(title, text, footer)] = sight.pages(first)
    assert title == "Geodeto: The board"
    assert text.startswith("Six continents lie in a ring around the World Ocean")
    assert footer == "Page 1 of 5"
    assert sight.image_refs(first) == ["attachment://rules-geodeto-1.png"]
    assert shown_png(fake, first) == drawn("geodeto", 0, "en")
    assert buttons(first) == {"Previous": True, "Next": False}

    await fake.click(ANA, screen, "Next")
    second = snapshot(fake.messages[int(first["id"])])
    assert len(fake.ephemerals(ANA)) == 1, "the same message, edited"
    assert sight.title(second) == "Geodeto: Your turn"
    assert sight.footer(second) == "Page 2 of 5"
    assert shown_png(fake, second) == drawn("geodeto", 1, "en")
    assert buttons(second) == {"Previous": False, "Next": False}
    await fake.click(ANA, screen, "Next")  # a double click: the screen still showed page 1
    assert sight.footer(fake.messages[int(first["id"])]) == "Page 2 of 5"
    await fake.click(ANA, second, "Next")
    await fake.click(ANA, fake.messages[int(first["id"])], "Previous")
    back = fake.messages[int(first["id"])]
    assert sight.footer(back) == "Page 2 of 5"

    for _ in range(3):
        await fake.click(ANA, fake.messages[int(first["id"])], "Next")
    last = fake.messages[int(first["id"])]
    assert sight.title(last) == "Geodeto: The end" and sight.footer(last) == "Page 5 of 5"
    assert sight.pages(last)[1][0] == "Computer players"
    assert buttons(last) == {"Previous": False, "Next": True}
    assert not fake.rejections


async def test_a_german_member_reads_german_pages_and_pictures(fake, runner):
    fake.add_user(DORA, "Dora", locale="de")
    await fake.slash(DORA, CHANNEL, "rules", game="geomancy")
    first = page_of(fake, DORA)
    book = pages("geomancy")
    assert sight.title(first) == f"Geomancy: {i18n.localize(book[0].title, 'de')}"
    assert sight.description(first) == i18n.localize(book[0].text, "de") != str(book[0].text)
    assert sight.footer(first) == "Seite 1 von 5"
    assert shown_png(fake, first) == drawn("geomancy", 0, "de")  # (drawn in German: render_board's locale)
    assert set(buttons(first)) == {"Zurück", "Weiter"}
    await fake.click(DORA, first, "Weiter")
    second = fake.messages[int(first["id"])]
    assert sight.title(second) == f"Geomancy: {i18n.localize(book[1].title, 'de')}"
    assert shown_png(fake, second) == drawn("geomancy", 1, "de")
    # the table's Rules button opens the same pages, in the clicker's language
    await fake.slash(ANA, CHANNEL, "play", "geomancy")
    lobby = fake.messages_in(CHANNEL)[-1]
    await fake.click(DORA, lobby, "Rules")
    assert sight.title(page_of(fake, DORA)) == f"Geomancy: {i18n.localize(book[0].title, 'de')}"
    await fake.click(BO, lobby, "Rules")
    assert sight.title(page_of(fake, BO)) == "Geomancy: Rounds"
    assert not fake.rejections


async def test_the_buttons_work_after_a_restart_and_a_forged_page_is_refused(fake, runner):
    await fake.slash(ANA, CHANNEL, "rules", game="geoneo")
    message_id = int(page_of(fake, ANA)["id"])
    await runner.restart()
    await fake.click(ANA, fake.messages[message_id], "Next")
    assert sight.title(fake.messages[message_id]) == "GEONEO: Placing"

    before = dict(fake.messages[message_id])
    for forged in ("gr:geoneo:4", "gr:geoneo:99", "gr:chess:0", "gr:geoneo", "gr:"):
        it = await fake.click_forged(ANA, fake.messages[message_id], forged)
        [answer] = fake.replies_to(it)
        assert sight.content(answer) == "There is no such rule page: use /rules to open a game's rules.", forged
        assert sight.pages(fake.messages[message_id]) == sight.pages(before)
    # a rule page's id on a board is no way to replace the board
    await fake.slash(ANA, CHANNEL, "play", "geoneo")
    lobby = fake.messages_in(CHANNEL)[-1]
    it = await fake.click_forged(BO, lobby, "gr:geoneo:1")
    assert sight.content(fake.replies_to(it)[0]) == "There is no such rule page: use /rules to open a game's rules."
    assert sight.words(fake.messages[int(lobby["id"])]) == sight.words(lobby)
    assert not fake.rejections


async def test_every_word_of_a_rule_page_is_marked_for_translation(fake, runner):
    """The pseudo-language (every vowel accented): a plain English word on a page was never marked."""
    i18n.install_pseudo()
    try:
        fake.add_user(DORA, "Dora", locale=i18n.PSEUDO)
        for game in ("geek_out", "geodeto", "geomancy", "geoneo", "globe_twister"):
            await fake.slash(DORA, CHANNEL, "rules", game=game)
            message = page_of(fake, DORA)
            for page in range(len(pages(game))):
                page, *computers = sight.pages(message)  # (the last page's second one: what computers do)
                texts = [page[0].replace(get_engine(game).title, ""), page[1], page[2], *buttons(message),
                         *(t for c in computers for t in c)]
                plain = [w for t in texts for w in re.findall(r"[^\W\d_]{2,}", t)
                         if w.isascii() and set(w) & set("aeiouncyAEIOUNCY")]
                assert not plain, (game, page, plain)
                [_previous, following] = sight.rows(message)[0]
                if not following.get("disabled"):
                    await fake.click(DORA, message, custom_id=following["custom_id"])
                    message = fake.messages[int(message["id"])]
    finally:
        i18n.remove_language(i18n.PSEUDO)
