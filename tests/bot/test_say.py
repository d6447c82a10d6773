"""bot/ui/say.py: what ``say`` does with an interaction in each state (not answered, after ``think``, answered),
and the member's language. The end-to-end tests of /rules, /history, /privacy and /learn show it on the wire."""

from __future__ import annotations

import asyncio
import io

import discord
import pytest

from bot.ui.say import in_member_language, say, think
from i18n import _


class Response:
    def __init__(self, calls):
        self.calls, self.done = calls, False

    def is_done(self):
        return self.done

    async def send_message(self, *args, **fields):
        self.done = True
        self.calls.append(("send_message", args, fields))

    async def defer(self, **fields):
        self.done = True
        self.calls.append(("defer", (), fields))


class Followup:
    def __init__(self, calls):
        self.calls = calls

    async def send(self, *args, **fields):
        self.calls.append(("followup", args, fields))


class Interaction:
    def __init__(self, locale="en-US"):
        self.calls, self.locale, self.extras = [], locale, {}
        self.response, self.followup = Response(self.calls), Followup(self.calls)

    async def edit_original_response(self, **fields):
        self.calls.append(("edit_original_response", (), fields))


def run(coro):
    return asyncio.run(coro)


def test_an_answer_with_files_and_buttons():
    i, view = Interaction(), discord.ui.View(timeout=None)
    file = discord.File(io.BytesIO(b"png"), "x.png")
    run(say(i, "Hello", files=[file], view=view))
    assert i.calls == [("send_message", ("Hello",), {"ephemeral": True, "files": [file], "view": view})]


def test_think_then_say_replaces_the_thinking_and_a_second_say_is_a_message_of_its_own():
    i, file = Interaction(), discord.File(io.BytesIO(b"png"), "x.png")
    run(think(i))
    run(say(i, None, files=[file]))
    run(say(i, "And one more thing."))
    assert i.calls == [("defer", (), {"ephemeral": True, "thinking": True}),
                       ("edit_original_response", (), {"content": None, "attachments": [file]}),
                       ("followup", ("And one more thing.",), {"ephemeral": True})]


def test_a_click_answered_already_gets_a_followup():
    i = Interaction()
    run(i.response.defer())
    run(say(i, "x" * 2500))
    assert i.calls[-1] == ("followup", ("x" * 2000,), {"ephemeral": True})


def test_said_in_the_member_s_language():
    said = in_member_language(Interaction("de"), _("This game is not running."))
    assert said != "This game is not running." and said == in_member_language(Interaction("de"),
                                                                               "This game is not running.")


def test_words_already_in_the_member_s_language_are_said_as_they_are_braces_and_all():
    for words in ("Lektion: {{Ana}} spielt {x}", "Ana }{ Bo"):
        assert in_member_language(Interaction("de"), words) == words


def test_a_screen_holds_its_words_and_is_let_go_once_sent():
    """A LayoutView (bot/ui/layout.py) carries its own words: text beside it is refused (Discord would
    refuse them). Sent as a followup (discord.py gives an ephemeral one a 15-minute timer), a screen of DynamicItems
    is stopped and emptied: its buttons are answered by their custom_id's template, after a restart too."""
    from bot.ui import items, keys
    from bot.ui.layout import screen

    i = Interaction()
    with pytest.raises(ValueError):
        run(say(i, "words", view=screen("Title")))
    assert i.calls == []

    async def send() -> discord.ui.LayoutView:  # (a view made in the loop, as the bot makes it)
        view = screen("Title", "words", controls=[items.button(keys.Privacy("ask", 1), "Delete my data…")])
        await i.response.defer()
        await say(i, None, view=view)
        return view

    view = run(send())
    assert i.calls[-1] == ("followup", (), {"ephemeral": True, "view": view})
    assert view.is_finished() and not list(view.walk_children())


def test_a_view_with_an_item_that_is_not_dynamic_keeps_listening():
    async def send() -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="x", custom_id="plain"))
        await say(Interaction(), "Hello", view=view)
        return view

    view = run(send())
    assert not view.is_finished() and len(view.children) == 1
