"""The layout kit: every table screen as one Components V2 message (discord.py's ``ui.LayoutView``, which sends
the flag IS_COMPONENTS_V2): a container in the game's accent colour holding text displays, the board in a media
gallery (with its description in words, what a screen reader says), sections with an accessory button,
separators and the action rows of our DynamicItem buttons and menus (bot/ui/items.py).

Discord's limits for such a message: no ``content`` or embeds, at most 40 components counting nested ones, at
most 4,000 characters of text in all (``Layout`` clips the last text to fit), an action row of at most 5
buttons or 1 menu, a section of 1-3 texts and exactly one accessory. bot/ui/screens.py builds the table, the
lobby, the standings and the private panel with it; bot/cogs/rules.py the rule pages, bot/cogs/learn.py the
lessons; ``screen`` the other screens (/help, /privacy, /history, /leaderboard, /stats, /replay), in the house
accent (``HOUSE``) or their game's."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from discord import ui

MAX_COMPONENTS = 40
MAX_TEXT = 4000
MAX_IMAGE_WORDS = 1024
"""A media gallery item's description (Discord's limit)."""
HOUSE = 0x56B4E9
"""The accent of a screen that belongs to no game (/help, /privacy, /history, /stats): Okabe-Ito's sky blue, the
accent an engine has unless it picks its own (games/core.py). A game's screen takes its game's accent."""


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


class Layout:
    """One message being laid out: ``text``, ``heading``, ``small``, ``image``, ``section``, ``separator``,
    ``controls``, then ``view``."""

    def __init__(self, accent: int):
        self.view = ui.LayoutView(timeout=None)
        self.box = ui.Container(accent_colour=discord.Colour(accent))
        self.view.add_item(self.box)
        self.chars = 0
        self.count = 1  # the container

    def _words(self, text: str) -> str:
        text = clip(text, MAX_TEXT - self.chars)
        self.chars += len(text)
        return text

    def text(self, text: str) -> None:
        """A text display (markdown); nothing for no words."""
        if text and self.chars < MAX_TEXT:
            self.box.add_item(ui.TextDisplay(self._words(text)))
            self.count += 1

    def heading(self, title: str, *lines: str) -> None:
        """The message's title (``## ...``) and the lines under it, in one text display."""
        self.text("\n".join([f"## {title}", *(line for line in lines if line)]))

    def small(self, text: str) -> None:
        """Small print at the foot (``-# ...``: a table's number)."""
        if text:
            self.text(f"-# {text}")

    def image(self, filename: str, description: str = "") -> None:
        """An attached image (``attachment://<filename>``) with its description in words."""
        item = discord.MediaGalleryItem(f"attachment://{filename}",
                                        description=clip(description, MAX_IMAGE_WORDS) or None)
        self.box.add_item(ui.MediaGallery(item))
        self.count += 1

    def file(self, filename: str) -> None:
        """An attached file shown as a file (a replay's move list): a V2 message shows only the attachments its
        components name."""
        self.box.add_item(ui.File(f"attachment://{filename}"))
        self.count += 1

    def section(self, text: str, accessory: ui.Item) -> None:
        """Words with a button beside them (a seat and its Remove)."""
        self.box.add_item(ui.Section(ui.TextDisplay(self._words(text)), accessory=accessory))
        self.count += 3

    def separator(self) -> None:
        self.box.add_item(ui.Separator())
        self.count += 1

    def controls(self, items: list[ui.Item]) -> None:
        """Buttons and menus in action rows as their ``row`` says (a menu alone, at most 5 buttons a row)."""
        for row in rows(items):
            action = ui.ActionRow()
            for item in row:
                action.add_item(item)
            self.box.add_item(action)
            self.count += 1 + len(row)

    def room(self) -> int:
        """Components still allowed."""
        return MAX_COMPONENTS - self.count


def screen(title: str = "", *lines: str, accent: int = HOUSE, image: tuple[str, str] | None = None,
           files: Sequence[str] = (), small: str = "", controls: Sequence[ui.Item] = ()) -> ui.LayoutView:
    """A screen of words, as the kit lays every screen out: its title (a heading; none for "") and its lines
    (one text display, in the member's or the server's language already), an image (``(filename, its
    description in words)``) in a media gallery, attached ``files`` shown as files, small print, then the buttons
    (DynamicItems: bot/ui/items.py). Pass the game's accent for a game's screen."""
    kit = Layout(accent)
    if title:
        kit.heading(title, *lines)
    else:
        kit.text("\n".join(line for line in lines if line))
    if image is not None:
        kit.image(*image)
    for name in files:
        kit.file(name)
    kit.small(small)
    if controls:
        kit.controls(list(controls))
    return kit.view


def rows(items: list[ui.Item]) -> list[list[ui.Item]]:
    """Items grouped as a classic view would lay them out: by their ``row`` (in order), five buttons or one menu
    a row; an item without a row goes to the first row with room."""
    placed: dict[int, list[ui.Item]] = {}
    for item in items:
        wanted = item.row if item.row is not None else 0
        while True:
            row = placed.setdefault(wanted, [])
            menu = isinstance(item, ui.Select) or isinstance(getattr(item, "item", None), ui.Select)
            full = len(row) >= 5 or (row and (menu or _is_menu(row[0])))
            if not full:
                row.append(item)
                break
            wanted += 1
    return [placed[k] for k in sorted(placed)]


def _is_menu(item: ui.Item) -> bool:
    return isinstance(item, ui.Select) or isinstance(getattr(item, "item", None), ui.Select)


def retired(message: discord.Message, drop_line=None) -> ui.LayoutView | None:
    """A V2 board no longer current, as it stays in the channel: its words and image without its buttons and
    menus (and without the lines ``drop_line`` picks, e.g. a countdown that would run into the past). None for a
    message that is not V2 (an old embed board: its view is removed the classic way)."""
    if not message.flags.components_v2:
        return None
    view = ui.LayoutView.from_message(message, timeout=None)
    _prune(view, drop_line, {a.filename for a in message.attachments})
    return view


def _prune(container, drop_line, files: set[str]) -> None:
    """``retired``'s work on one container (a module function: a nested recursive one would be a cycle for the
    collector to free)."""
    kept = []
    for child in list(container.children):
        if isinstance(child, ui.ActionRow):
            continue
        if isinstance(child, ui.Section):  # its button goes: its words stay
            kept += list(child.children)
            continue
        if isinstance(child, ui.TextDisplay) and drop_line is not None:
            lines = [line for line in child.content.split("\n") if not drop_line(line)]
            if not lines:
                continue
            child.content = "\n".join(lines)
        elif isinstance(child, ui.Container):
            _prune(child, drop_line, files)
        elif isinstance(child, ui.MediaGallery):  # an attachment's image stays the attachment it shows
            for item in child.items:
                name = item.media.url.split("?")[0].rsplit("/", 1)[-1]
                if name in files:
                    item.media = f"attachment://{name}"
        kept.append(child)
    container.clear_items()
    for child in kept:
        container.add_item(child)
