"""/rules <game>: a game's rules as a few short pages, each with an example the game's own renderer draws from
a position its engine reached (games/<game>/rulebook.py), for the asker only and in their language.

Previous / Next edit the same message. Their id is a ``keys.RulePage`` (``g1r:<game>:<page>``, the page the
button opens, 0-based; bot/ui/keys.py), a DynamicItem, so they work after a restart; an id that names no game or
page gets a sentence.
The table's Rules button opens the same first page.
"""

from __future__ import annotations

import io

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.language import member_language
from bot.table.words import board_view, events_words
from bot.ui import items, keys
from bot.ui.choices import GAME_CHOICES
from bot.ui.components import every
from bot.ui.layout import Layout
from bot.ui.messages import strength_words
from bot.ui.say import say, think
from bot.workers import renderpool
from games import get_engine
from games.core import all_engines
from games.rulebook import NAMES, example, pages
from i18n import _, pgettext


def _games() -> set[str]:
    return {e.slug for e in all_engines()}


def target(what: keys.RulePage | None) -> tuple[str, int] | None:
    """(game, page) of a rule page button, or None when it names no game or page of ours."""
    if not isinstance(what, keys.RulePage) or what.game not in _games():
        return None
    return (what.game, what.page) if what.page < len(pages(what.game)) else None


def buttons(game: str, page: int, locale: str) -> list[discord.ui.Item]:
    last = len(pages(game)) - 1
    return [items.button(keys.RulePage(game, max(page - 1, 0)),
                         i18n.localize(pgettext("button", "Previous"), locale), disabled=page == 0),
            items.button(keys.RulePage(game, min(page + 1, last)),
                         i18n.localize(pgettext("button", "Next"), locale), disabled=page == last)]


def filename(game: str, page: int) -> str:
    return f"rules-{game}-{page + 1}.png"


async def draw(game: str, page: int, locale: str) -> bytes:
    """The page's example drawn by the game's renderer in ``locale`` (in a render worker)."""
    engine = get_engine(game)
    shown = example(game, page)
    names = list(NAMES[:shown.state["players"]])
    last = i18n.localize(events_words(shown.events, names), locale) or None
    return await renderpool.board(game, board_view(engine, shown.state), names, last, shown.focus, locale=locale)


async def content(game: str, page: int, locale: str) -> dict:
    """The message of a rule page in the layout kit (bot/ui/layout.py): its title, words, the picture (described
    by the page's title) and the page number, on the last page what each computer strength does, and the
    buttons."""
    engine = get_engine(game)
    book = pages(game)
    shown = book[page]
    kit = Layout(engine.accent)
    title = i18n.localize(_("{game}: {title}", game=engine.title, title=shown.title), locale)
    kit.heading(title)
    kit.text(i18n.localize(shown.text, locale))
    kit.image(filename(game, page), title)
    kit.small(i18n.localize(_("Page {page} of {pages}", page=page + 1, pages=len(book)), locale))
    if page == len(book) - 1:
        kit.separator()
        heading = i18n.localize(_("Computer players"), locale)
        how = i18n.localize(_("Add one in a lobby (the menu), or /play with computers and strength."), locale)
        kit.text(f"### {heading}\n{strength_words(game, locale)}\n-# {how}")
    kit.controls(buttons(game, page, locale))
    image = await draw(game, page, locale)
    return {"attachments": [discord.File(io.BytesIO(image), filename(game, page))], "view": kit.view}


async def send_rules(interaction: discord.Interaction, game: str) -> None:
    """Page 1 of ``game``'s rules, for the asker only, in their language (/rules and the table's Rules)."""
    await think(interaction)
    page = await content(game, 0, member_language(interaction))
    await say(interaction, None, files=page["attachments"], view=page["view"])


def rule_message(message: discord.Message | None) -> bool:
    """Whether ``message`` is a rule page (only those are ever turned into another page: a forged id on a
    board must not replace the board)."""
    if message is None or not message.flags.ephemeral:
        return False
    return any(keys.family(str(getattr(child, "custom_id", None) or "")) == keys.RULES
               for child in every(message.components))


async def open_page(interaction: discord.Interaction, what: keys.RulePage | None) -> None:
    """A Previous / Next click: the message becomes that page (in the clicker's language). A click from a
    screen that had not refreshed yet (a double click) is served as well: the page is still the rules'."""
    locale = i18n.pick(interaction.locale)
    page = target(what)
    if page is None or not rule_message(interaction.message):
        await say(interaction, _("There is no such rule page: use /rules to open a game's rules."))
        return
    await interaction.response.defer()
    # (content and embeds cleared: a page shown before the upgrade was a classic message)
    await interaction.edit_original_response(**await content(*page, locale), content=None, embeds=[])


class Rules(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="rules", description="How a game is played (only you see it)")
    @app_commands.describe(game="The game whose rules you want to read")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        await send_rules(interaction, game.value)
