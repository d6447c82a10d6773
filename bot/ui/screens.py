"""The table's screens in the layout kit (bot/ui/layout.py), one Components V2 message each: the table (header,
board, latest moves, the choice, controls), the lobby (seats as sections, a computer's with its Remove beside
it; the button a person most likely wants first), the final standings (with the score sheet) and a player's
private panel."""

from __future__ import annotations

from discord import ui

from bot.table.model import Table
from bot.ui import components, final, messages
from bot.ui.layout import Layout
from i18n import DEFAULT, say


def _items(view: ui.View | None) -> list[ui.Item]:
    """A classic view's items, taken out of it (to sit in a layout's action rows)."""
    if view is None:
        return []
    items = list(view.children)
    view.clear_items()
    return items


def table(table: Table, filename: str, lang: str = DEFAULT, now: float | None = None) -> ui.LayoutView:
    """A running or finished table: its header (game, table, whose turn with their mark, a warning, the
    countdown), the board with its description in words, the latest moves, the choice in front of the player
    to act, then the buttons and menus (``components.table_view``; Rematch when the game is over)."""
    kit = Layout(table.engine.accent)
    kit.heading(messages.table_title(table, lang), *messages.status_lines(table, lang, now))
    kit.image(filename, messages.board_words(table, lang))
    kit.text(messages.latest_moves(table, lang))
    kit.text(messages.choice_line(table, lang))
    controls = _items(components.table_view(table, lang))
    if controls:
        kit.separator()
        kit.controls(controls)
    return kit.view


def lobby(table: Table, note: str = "", lang: str = DEFAULT) -> ui.LayoutView:
    """A lobby (open, or closed: no buttons). Each seat a line; a computer's seat a section with its Remove
    button while the lobby is open. Start comes first once the table may start, else Join."""
    kit = Layout(table.engine.accent)
    kit.heading(messages.lobby_title(table, lang))
    items = _items(components.lobby_view(table, lang) if table.status == "lobby" else None)
    drops = {item.value.arg: item for item in items if getattr(item.value, "name", "") == "drop"}
    items = [item for item in items if item not in drops.values()]
    people: list[str] = []
    for seat, line in enumerate(messages.seat_lines(table, lang)):
        remove = drops.get(str(seat))
        if remove is None:
            people.append(line)
            continue
        kit.text("\n".join(people))
        people = []
        kit.section(line, remove)
    kit.text("\n".join(people))
    kit.separator()
    kit.text(messages.lobby_words(table, note, lang) + "\n-# " + say(lang, "Table {table}", table=table.id))
    if items:
        first = "start" if messages.may_start(table) else "join"
        items.sort(key=lambda item: getattr(item.value, "name", "") != first)  # stable: the rest keep their order
        kit.controls(items)
    return kit.view


def panel(table: Table, seat: int, filename: str, note: str = "", lang: str = DEFAULT) -> ui.LayoutView:
    """A player's private panel: whose turn and what to do, the latest moves, their own part drawn (their hand,
    goals, program) and, on their turn, every move they can make."""
    kit = Layout(table.engine.accent)
    kit.text(messages.panel_text(table, seat, note, lang))
    kit.image(filename, say(lang, "What only you can see at table {table}.", table=table.id))
    controls = _items(components.panel_view(table, seat, lang))
    if controls:
        kit.separator()
        kit.controls(controls)
    return kit.view


def words(table: Table, text: str) -> ui.LayoutView:
    """A screen of words alone (a private panel once its game is over)."""
    kit = Layout(table.engine.accent)
    kit.text(text)
    return kit.view


def standings(table: Table, result, sheet: str | None, lang: str = DEFAULT) -> ui.LayoutView:
    """The final standings in words (places, points, who a computer played, the score sheet's lines) and, where
    the game draws one, the score sheet (``sheet``: its attachment's filename)."""
    kit = Layout(table.engine.accent)
    kit.text(final.standings(table, result, lang))
    if sheet:
        kit.image(sheet, say(lang, "The score sheet of table {table}.", table=table.id))
    return kit.view
