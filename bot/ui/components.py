"""Buttons and menus built from an engine's legal actions (their ids: bot/ui/keys.py; their DynamicItems, which
work after a restart: bot/ui/items.py).

A seat's moves (and group picks) on its private panel (never the public board: the token digests its secret
actions too) carry ``<token>``, the seat's ``Table.seat_token`` on that version: a click on an older version is
still played when the seat's token is unchanged (simultaneous play, bot/table/staleness.py).
"""

from __future__ import annotations

import abc

import discord

import i18n
from bot.computers import display_name, is_computer, strength_lines
from bot.table import pace as paces
from bot.table.choices import CHOICE_ROWS, MENU_SIZE, group_key, offer
from bot.table.model import Table
from bot.table.seating import free_seat
from bot.ui import keys
from bot.ui.items import button, select
from games.ai import STRENGTHS, strength_name
from games.core import Action, Engine
from i18n import DEFAULT, N_, localize, pgettext, say
from render import has_private, overlays

MY_VIEW = N_("My view")
"""The private-panel button of a game that names it no other way (``Engine.private_label``)."""


def whole_words(text: str, limit: int) -> str:
    """``text`` within Discord's ``limit``: a longer one ends at a word's end, with "…" (a German strength line
    was cut mid-word, "bis zu einer zufälligen Zah")."""
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(" ,;:") + "…"


def on_message(message: discord.Message | None, custom_id: str) -> bool:
    """Whether ``custom_id`` is a component of ``message`` as Discord has it now."""
    return message is not None and any(getattr(c, "custom_id", None) == custom_id for c in every(message.components))


def every(components) -> list:
    """The components of a message, nested ones too (a V2 container's rows, a section's accessory)."""
    out = []
    for component in components:
        out.append(component)
        out += every(getattr(component, "children", None) or [])
        if getattr(component, "accessory", None) is not None:
            out += every([component.accessory])
    return out


def message_version(message: discord.Message) -> int | None:
    """The table version the message's components were made for (None: it has none of ours)."""
    versions = []
    for child in every(message.components):
        value = keys.decode(getattr(child, "custom_id", None) or "")
        if isinstance(value, keys.Move | keys.Utility | keys.Menu):
            versions.append(value.version)
    return max(versions) if versions else None


def utility(table: Table, name: str, arg: str | None, label: str, style: str = "secondary", row: int | None = None,
            emoji: str | None = None) -> discord.ui.Item:
    """One of a table's own buttons (``keys.UTILITIES``), for everyone (no seat's token)."""
    return button(TableControls(table).utility(name, arg), label, style, row=row, emoji=emoji)


class Controls(abc.ABC):
    """How a message turns moves into components: a table's (``TableControls``: with the seat's token) or a
    lesson's (``LessonControls``). ``chooser`` lays the moves out, the same for both; these say what a component
    stands for (bot/ui/keys.py)."""

    @abc.abstractmethod
    def move(self, key: str) -> keys.Move | keys.LessonMove:
        """A move's component."""

    @abc.abstractmethod
    def utility(self, name: str, arg: str | None = None) -> keys.Utility | keys.LessonUtility:
        """One of the message's own buttons (a table's ``keys.UTILITIES``; a lesson's leave, again, next)."""

    def pick(self, group: str) -> keys.Utility | keys.LessonUtility:
        """The first step of a two-step choice: ``group``'s moves ("": back to the groups)."""
        return self.utility("pick", group)

    @abc.abstractmethod
    def menu(self, name: str) -> keys.Menu | keys.LessonMenu:
        """A select menu whose option values are ``keys.value``s; ``name`` tells a message's menus apart."""

    def style(self, style: str) -> str:
        """How a move's button is coloured here (the game's style by default)."""
        return style


class TableControls(Controls):
    """A table's components; ``seat``: the seat's own choices, carrying its token (see the module's docstring)."""

    def __init__(self, table: Table, seat: int | None = None):
        self.table, self.seat = table, seat
        self.token = (table.seat_token(seat) or None) if seat is not None else None

    def move(self, key):
        return keys.Move(self.table.id, self.table.version, key, self.token)

    def utility(self, name, arg=None):
        return keys.Utility(self.table.id, self.table.version, name, arg, self.token)

    def menu(self, name):
        return keys.Menu(self.table.id, self.table.version, name, self.token)


class LessonControls(Controls):
    """A /learn lesson's components (bot/cogs/learn.py): the table's two steps, its own ids. Green is the
    suggested move's alone: a move the game draws green ("Pass: bank 6") is grey here."""

    def __init__(self, lesson):
        self.lesson = lesson

    def move(self, key):
        return keys.LessonMove(self.lesson.id, self.lesson.version, key)

    def utility(self, name, arg=None):
        return keys.LessonUtility(self.lesson.id, self.lesson.version, name, arg)

    def menu(self, name):
        return keys.LessonMenu(self.lesson.id, self.lesson.version, name)

    def style(self, style):
        return "secondary" if style == "success" else style


def _label(text: str, lang: str) -> str:
    return localize(text, lang)


def _entries(controls: Controls, entries: list[tuple], lang: str, rows: int, first: int, buttons: bool
             ) -> list[discord.ui.Item]:
    """(what, label, style, emoji) entries (``what``: a move or a pick, ``Controls``) as buttons in ``rows``
    rows (from row ``first``; ``buttons``: they fit, ``offer``), else as menus of 25 in the given order (best
    first), one per row."""
    if buttons:
        return [button(what, label, controls.style(style), row=first + i // 5, emoji=emoji)
                for i, (what, label, style, emoji) in enumerate(entries)]
    items: list[discord.ui.Item] = []
    for row, start in enumerate(range(0, min(len(entries), MENU_SIZE * rows), MENU_SIZE)):
        chunk = entries[start:start + MENU_SIZE]
        options = [discord.SelectOption(label=label[:100], value=keys.value(what))
                   for what, label, _style, _emoji in chunk]
        placeholder = say(lang, "Choose ({first}-{last} of {total}, best first)", first=start + 1,
                          last=start + len(chunk), total=len(entries))
        items.append(select(controls.menu(f"m{row}"), options, placeholder, first + row))
    return items


def chooser(controls: Controls, engine: Engine, actions: list[Action], group: str = "", *, always: bool = False,
            lang: str = DEFAULT, rows: int = CHOICE_ROWS, first: int = 0) -> list[discord.ui.Item]:
    """The components for a list of actions in ``rows`` rows from row ``first``, as ``offer`` (bot/table/choices.py)
    says: buttons when they fit with no more than ten alike. A longer list (or one the engine wants grouped:
    ``always``, ``Engine.grouped``; or one of too many alike) comes in two steps, never paged: first its groups
    (``Action.group``, e.g. a shape's first corner) as buttons (as menus when there are more, or too many
    alike), a group of one action as that action's own button, then the chosen group's actions (buttons, or
    menus of 25) with a Back button on the row below. A group is picked with ``Controls.pick``
    (``pick.<group>``; ``pick.``: back)."""
    def entry(a: Action) -> tuple:
        return controls.move(a.key), _label(a.label, lang), a.style, a.emoji

    entries, back, buttons = offer(actions, group, always, rows)
    items = _entries(controls, [
        (controls.pick(group_key(e[0])), say(lang, "{group} · {count}", group=localize(e[0], lang),
                                             count=engine.group_size(len(e[1]))), "primary", None)
        if isinstance(e, tuple) else entry(e) for e in entries], lang, rows, first, buttons)
    if back:
        items.append(button(controls.pick(""), localize(pgettext("button", "Back"), lang), "secondary",
                            row=first + rows, emoji="↩"))
    return items


def action_items(table: Table, actions: list[Action], group: str = "", seat: int | None = None, *,
                 private: bool = True, lang: str = DEFAULT) -> list[discord.ui.Item]:
    """The components for a list of ``seat``'s actions at a table (``chooser``; the groups as ``seat`` wants
    them, ``Engine.grouped``). ``private``: on the seat's own panel, so its components carry the seat's token
    (never on the public board: the token digests its secret actions too)."""
    always = seat is not None and table.engine.grouped(table.state, seat)
    return chooser(TableControls(table, seat if private else None), table.engine, actions, group, always=always,
                   lang=lang)


def table_view(table: Table, lang: str = DEFAULT) -> discord.ui.View | None:
    """The components of a running table: the public legal moves of the player to act. Secret moves (a card
    from a hand) are offered only in the player's own ephemeral panel; when several seats act at once, each
    plays from their panel. A finished game's final board has one button, Rematch (a game a moderator closed,
    or that ended among computers, has none)."""
    if table.status == "finished":
        view = discord.ui.View(timeout=None)
        view.add_item(utility(table, "rematch", None, localize(pgettext("button", "Rematch"), lang), "success",
                              emoji="🔁"))
        return view
    if table.status != "playing":
        return None
    view = discord.ui.View(timeout=None)
    to_act = table.to_act()
    if len(to_act) == 1 and not is_computer(table.players[to_act[0]]):  # a computer's moves are no one's to click
        # no seat token here (private=False): it digests the seat's secret actions too, and anyone can read a
        # public message's custom_ids (nor is one needed: only that seat can move the table on meanwhile); the
        # seat still decides how its moves are grouped (Engine.grouped)
        public = [a for a in table.actions_for(to_act[0]) if not a.secret]
        for item in action_items(table, public, table.pick_of(to_act[0]), to_act[0], private=False, lang=lang):
            view.add_item(item)
    if has_private(table.row.game):
        label = table.engine.private_label or MY_VIEW
        view.add_item(utility(table, "hand", None, localize(i18n.Text(label), lang), "success", row=4, emoji="🂠"))
    for name, label in overlays(table.row.game).items():
        view.add_item(utility(table, "overlay", name, localize(label, lang), "secondary", row=4, emoji="🔍"))
    view.add_item(utility(table, "rules", None, localize(pgettext("button", "Rules"), lang), "secondary", row=4,
                          emoji="📖"))
    return view


def panel_view(table: Table, seat: int, lang: str = DEFAULT) -> discord.ui.View | None:
    """A player's own panel: on their turn, every move they can make (secret ones included)."""
    actions = table.actions_for(seat) if seat in table.to_act() else []
    if not actions:
        return None
    view = discord.ui.View(timeout=None)
    for item in action_items(table, actions, table.pick_of(seat), seat, lang=lang):
        view.add_item(item)
    return view


def ping_view(table: Table, lang: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(utility(table, "pings", "off", say(lang, "Stop pinging me"), "secondary", emoji="🔕"))
    return view


def lobby_view(table: Table, lang: str = DEFAULT) -> discord.ui.View:
    """Join, Leave, Start, Rules and the takeover switch; a menu to add a computer at a strength (each option
    says what the strength does) while a seat is free; a Remove button per computer seat; Team up with ... per
    seated player in a team game. Every row fits Discord's five."""
    view = discord.ui.View(timeout=None)
    view.add_item(utility(table, "join", None, localize(pgettext("button", "Join"), lang), "success", row=0))
    view.add_item(utility(table, "leave", None, localize(pgettext("button", "Leave"), lang), "secondary", row=0))
    view.add_item(utility(table, "start", None, localize(pgettext("button", "Start"), lang), "primary", row=0))
    view.add_item(utility(table, "rules", None, localize(pgettext("button", "Rules"), lang), "secondary", row=0,
                          emoji="📖"))
    takeover = table.row.takeover
    view.add_item(utility(table, "takeover", "off" if takeover else "on",
                          say(lang, "Computer takes a leaver's seat: on") if takeover
                          else say(lang, "Computer takes a leaver's seat: off"),
                          "success" if takeover else "secondary", row=0, emoji="🤖"))
    row = 1
    if free_seat(table.players, table.engine.max_players) is not None:  # a kept seat yields when none is free
        lines = strength_lines(table.row.game)
        options = [discord.SelectOption(label=say(lang, "Add a computer: {strength}",
                                                  strength=localize(strength_name(s), lang)),
                                        value=keys.utility_text(keys.COMPUTER_MENU, s), emoji="🤖",
                                        description=whole_words(localize(lines[s], lang), 100)) for s in STRENGTHS]
        view.add_item(select(keys.Menu(table.id, table.version, keys.COMPUTER_MENU), options,
                             say(lang, "Add a computer player (pick its strength)"), row=row))
        row += 1
    row = _pace_controls(view, table, row, lang)
    drops = [(seat, p) for seat, p in enumerate(table.players) if is_computer(p)]
    for k, (seat, player) in enumerate(drops):
        view.add_item(utility(table, "drop", str(seat), say(lang, "Remove {player}", player=_name(player, lang)),
                              "danger", row=row + k // 5, emoji="✖"))
    row += (len(drops) + 4) // 5
    if table.engine.teams(len(table.players)):  # a team game: each player can pick their partner
        for player in table.players:
            view.add_item(utility(table, "partner", str(player["id"]),
                                  say(lang, "Team up with {player}", player=_name(player, lang)), row=row,
                                  emoji="🤝"))
    return view


def _pace_controls(view: discord.ui.View, table: Table, row: int, lang: str) -> int:
    """The lobby's pace menu (live, or a time per move) and, for a turn-based table, the switch of what happens
    when a move runs out; returns the next free row."""
    current = table.row.pace
    options = [discord.SelectOption(label=say(lang, "Live: the server's turn timeout"), value="pace.live", emoji="⚡",
                                    default=current is None)]
    options += [discord.SelectOption(label=say(lang, "Turn-based: {time} per move",
                                               time=localize(paces.per_move_words(seconds), lang)),
                                     value=f"pace.{seconds}", emoji="⌛", default=current == seconds)
                for seconds in paces.PACES]
    view.add_item(select(keys.Menu(table.id, table.version, keys.PACE_MENU), options,
                         say(lang, "Pace of the game"), row=row))
    row += 1
    if current is not None:
        computer = table.row.on_timeout == "computer"
        view.add_item(utility(table, "ontimeout", "play" if computer else "computer",
                              say(lang, "Move runs out: a computer takes the seat") if computer
                              else say(lang, "Move runs out: the table plays it"),
                              "secondary", row=row, emoji="⏰"))
    return row


def _name(player: dict, lang: str) -> str:
    """A seat's name as shown (a computer's is a ``Text``, said in ``lang``)."""
    return localize(display_name(player), lang)
