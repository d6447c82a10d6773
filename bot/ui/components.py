"""Buttons and menus built from an engine's legal actions, as DynamicItems so they work after a restart.

custom_id formats (at most 99 of Discord's 100 characters):
  ``gt:<table>:<version>:<key>``   a button; ``key`` is an action key or a lobby/utility key
  ``gs:<table>:<version>:<group>`` a select menu whose option values are action keys
A seat's moves (and group picks) on its private panel (never the public board: the token digests its secret
actions too) end in ``/<token>``, the seat's ``Table.seat_token`` on that version: a click
on an older version is still played when the seat's token is unchanged (simultaneous play, bot/table/staleness.py).
The templates accept anything after the prefix so that a malformed or forged id still reaches our handler
and gets a sentence back instead of a silent failure.
"""

from __future__ import annotations

import re

import discord

import i18n
from bot.computers import display_name, is_computer, strength_lines
from bot.table.choices import CHOICE_ROWS, MENU_SIZE, choice_groups, group_key, pickable
from bot.table.model import Table
from bot.table.seating import free_seat
from games.ai import STRENGTHS, strength_name
from games.core import Action, Engine
from i18n import DEFAULT, N_, localize, pgettext, say
from render import has_private, overlays

MY_VIEW = N_("My view")
"""The private-panel button of a game that names it no other way (``Engine.private_label``)."""
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
_BODY = re.compile(r"(?P<table>\d{1,18}):(?P<version>\d{1,9}):(?P<key>[\w:.\-]{1,60}(?:/[0-9a-f]{6})?)")
TOKEN_SEPARATOR = "/"


def parse(body: str) -> tuple[int, int, str] | None:
    """(table, version, key) of a custom_id's body; the key keeps its ``/<token>`` (see ``split_token``)."""
    m = _BODY.fullmatch(body)
    if not m:
        return None
    return int(m["table"]), int(m["version"]), m["key"]


def split_token(key: str) -> tuple[str, str | None]:
    """("c3", "9f2a1c") for "c3/9f2a1c"; (key, None) for a button that is no seat's own."""
    key, sep, token = key.partition(TOKEN_SEPARATOR)
    return key, token if sep else None


async def _dispatch(interaction: discord.Interaction, body: str, key: str | None = None) -> None:
    handler = interaction.client.on_table_click  # type: ignore[attr-defined]
    parsed = parse(body)
    if parsed is None:
        await handler(interaction, None, 0, "")
        return
    table_id, version, parsed_key = parsed
    await handler(interaction, table_id, version, key if key is not None else parsed_key)


def whole_words(text: str, limit: int) -> str:
    """``text`` within Discord's ``limit``: a longer one ends at a word's end, with "…" (a German strength line
    was cut mid-word, "bis zu einer zufälligen Zah")."""
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut).rstrip(" ,;:") + "…"


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=r"gt:(?P<body>.*)"):
    def __init__(self, body: str, *, label: str = "?", style=discord.ButtonStyle.secondary, row: int | None = None,
                 emoji: str | None = None):
        super().__init__(
            discord.ui.Button(label=label[:80], style=style, custom_id=f"gt:{body}"[:100], row=row, emoji=emoji)
        )
        self.body = body

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match):
        return cls(match["body"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch(interaction, self.body)


class TableSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"gs:(?P<body>.*)"):
    def __init__(self, body: str, options: list[discord.SelectOption] | None = None, placeholder: str = "",
                 row: int | None = None):
        super().__init__(
            discord.ui.Select(custom_id=f"gs:{body}"[:100], options=options or [discord.SelectOption(label="?")],
                              placeholder=placeholder[:150] or None, row=row)
        )
        self.body = body

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match):
        return cls(match["body"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _dispatch_select(interaction, self.body)


async def _dispatch_select(interaction: discord.Interaction, body: str) -> None:
    """A menu's chosen value is the action key."""
    values = (interaction.data or {}).get("values") or [""]
    parsed = parse(body)
    if parsed is None:
        await _dispatch(interaction, body)
        return
    table_id, version, group = parsed
    _group, token = split_token(group)
    value = values[0] or "-"
    await _dispatch(interaction, f"{table_id}:{version}:{value}" + (f"/{token}" if token else ""))


def on_message(message: discord.Message | None, custom_id: str) -> bool:
    """Whether ``custom_id`` is a component of ``message`` as Discord has it now."""
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None) == custom_id:
                return True
    return False


def message_version(message: discord.Message) -> int | None:
    """The table version the message's components were made for (None: it has none of ours)."""
    versions = []
    for row in message.components:
        for child in getattr(row, "children", [row]):
            custom_id = getattr(child, "custom_id", None) or ""
            parsed = parse(custom_id[3:]) if custom_id.startswith(("gt:", "gs:")) else None
            if parsed is not None:
                versions.append(parsed[1])
    return max(versions) if versions else None


async def dispatch_unlisted(interaction: discord.Interaction, custom_id: str) -> None:
    """A click whose component is no longer on the message (the player's screen showed an older version,
    or the id was forged): discord.py's item dispatch skips it, so it is routed here to get its answer."""
    if custom_id.startswith("gs:"):
        await _dispatch_select(interaction, custom_id[3:])
    else:
        await _dispatch(interaction, custom_id[3:])


def button(table: Table, key: str, label: str, style: str = "secondary", row: int | None = None,
           emoji: str | None = None, seat: int | None = None) -> TableButton:
    """A button; ``seat``: one of that seat's own choices, carrying its token (see the module's docstring)."""
    return TableButton(f"{table.id}:{table.version}:{key}{_token_suffix(table, seat)}", label=label,
                       style=STYLES[style], row=row, emoji=emoji or None)


def _token_suffix(table: Table, seat: int | None) -> str:
    token = table.seat_token(seat) if seat is not None else ""
    return f"{TOKEN_SEPARATOR}{token}" if token else ""


class Controls:
    """How a message turns moves into components: a table's (``TableControls``: ``gt:``/``gs:`` ids with the
    seat's token) or a lesson's (bot/cogs/learn.py). ``chooser`` lays the moves out, the same for both."""

    def button(self, key: str, label: str, style: str = "secondary", row: int | None = None,
               emoji: str | None = None) -> discord.ui.Item:
        raise NotImplementedError

    def menu(self, name: str, options: list[discord.SelectOption], placeholder: str, row: int) -> discord.ui.Item:
        """A select menu whose option values are keys (as a button's); ``name`` tells a message's menus apart."""
        raise NotImplementedError


class TableControls(Controls):
    """A table's components; ``seat``: the seat's own choices, carrying its token (see the module's docstring)."""

    def __init__(self, table: Table, seat: int | None = None):
        self.table, self.seat = table, seat

    def button(self, key, label, style="secondary", row=None, emoji=None):
        return button(self.table, key, label, style, row=row, emoji=emoji, seat=self.seat)

    def menu(self, name, options, placeholder, row):
        table = self.table
        return TableSelect(f"{table.id}:{table.version}:{name}{_token_suffix(table, self.seat)}", options,
                           placeholder, row=row)


def _label(text: str, lang: str) -> str:
    return localize(text, lang)


def _entries(controls: Controls, entries: list[tuple], lang: str, rows: int, first: int) -> list[discord.ui.Item]:
    """(key, label, style, emoji) entries as buttons when they fit in ``rows`` rows (from row ``first``), else
    as menus of 25 in the given order (best first), one per row."""
    if len(entries) <= 5 * rows:
        return [controls.button(key, label, style, row=first + i // 5, emoji=emoji)
                for i, (key, label, style, emoji) in enumerate(entries)]
    items: list[discord.ui.Item] = []
    for row, start in enumerate(range(0, min(len(entries), MENU_SIZE * rows), MENU_SIZE)):
        chunk = entries[start:start + MENU_SIZE]
        options = [discord.SelectOption(label=label[:100], value=key) for key, label, _style, _emoji in chunk]
        placeholder = say(lang, "Choose ({first}-{last} of {total}, best first)", first=start + 1,
                          last=start + len(chunk), total=len(entries))
        items.append(controls.menu(f"m{row}", options, placeholder, first + row))
    return items


def chooser(controls: Controls, engine: Engine, actions: list[Action], group: str = "", *, always: bool = False,
            lang: str = DEFAULT, rows: int = CHOICE_ROWS, first: int = 0) -> list[discord.ui.Item]:
    """The components for a list of actions in ``rows`` rows from row ``first``: buttons when they fit. A longer
    list (or one the engine wants grouped: ``always``, ``Engine.grouped``) comes in two steps, never paged:
    first its groups (``Action.group``, e.g. a shape's first corner) as buttons (as menus when there are more),
    a group of one action as that action's own button, then the chosen group's actions (buttons, or menus of
    25) with a Back button on the row below. A group is picked with the key ``pick.<group>`` (``pick.``: back)."""
    def entry(a: Action) -> tuple:
        return a.key, _label(a.label, lang), a.style, a.emoji

    groups = choice_groups(actions, always, rows)
    if groups is None:
        return _entries(controls, [entry(a) for a in actions], lang, rows, first)
    if group in pickable(groups):
        return _entries(controls, [entry(a) for a in groups[group]], lang, rows, first) + [
            controls.button("pick.", localize(pgettext("button", "Back"), lang), "secondary", row=first + rows,
                            emoji="↩")]
    return _entries(controls, [
        (f"pick.{group_key(g)}", say(lang, "{group} · {count}", group=localize(g, lang),
                                     count=engine.group_size(len(acts))), "primary", None)
        if len(acts) > 1 else entry(acts[0])
        for g, acts in groups.items()], lang, rows, first)


def action_items(table: Table, actions: list[Action], group: str = "", seat: int | None = None, *,
                 private: bool = True, lang: str = DEFAULT) -> list[discord.ui.Item]:
    """The components for a list of ``seat``'s actions at a table (``chooser``; the groups as ``seat`` wants
    them, ``Engine.grouped``). ``private``: on the seat's own panel, so its components carry the seat's token
    (never on the public board: the token digests its secret actions too)."""
    always = seat is not None and table.engine.grouped(table.state, seat)
    return chooser(TableControls(table, seat if private else None), table.engine, actions, group, always=always,
                   lang=lang)


REMATCH = "rematch"
"""The key of the final board's Rematch button (``gt:<table>:<version>:rematch``)."""


def table_view(table: Table, lang: str = DEFAULT) -> discord.ui.View | None:
    """The components of a running table: the public legal moves of the player to act. Secret moves (a card
    from a hand) are offered only in the player's own ephemeral panel; when several seats act at once, each
    plays from their panel. A finished game's final board has one button, Rematch (a game a moderator closed,
    or that ended among computers, has none)."""
    if table.status == "finished":
        view = discord.ui.View(timeout=None)
        view.add_item(button(table, REMATCH, localize(pgettext("button", "Rematch"), lang), "success", emoji="🔁"))
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
        view.add_item(button(table, "hand", localize(i18n.Text(label), lang), "success", row=4, emoji="🂠"))
    for name, label in overlays(table.row.game).items():
        view.add_item(button(table, f"overlay.{name}", localize(label, lang), "secondary", row=4, emoji="🔍"))
    view.add_item(button(table, "rules", localize(pgettext("button", "Rules"), lang), "secondary", row=4,
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
    view.add_item(button(table, "pings.off", say(lang, "Stop pinging me"), "secondary", emoji="🔕"))
    return view


ADD_COMPUTER = "computer"
"""The group of the lobby's "Add a computer" menu (its values are the keys ``computer.<strength>``)."""


def lobby_view(table: Table, lang: str = DEFAULT) -> discord.ui.View:
    """Join, Leave, Start, Rules and the takeover switch; a menu to add a computer at a strength (each option
    says what the strength does) while a seat is free; a Remove button per computer seat; Team up with ... per
    seated player in a team game. Every row fits Discord's five."""
    view = discord.ui.View(timeout=None)
    view.add_item(button(table, "join", localize(pgettext("button", "Join"), lang), "success", row=0))
    view.add_item(button(table, "leave", localize(pgettext("button", "Leave"), lang), "secondary", row=0))
    view.add_item(button(table, "start", localize(pgettext("button", "Start"), lang), "primary", row=0))
    view.add_item(button(table, "rules", localize(pgettext("button", "Rules"), lang), "secondary", row=0, emoji="📖"))
    takeover = table.row.takeover
    view.add_item(button(table, "takeover.off" if takeover else "takeover.on",
                         say(lang, "Computer takes a leaver's seat: on") if takeover
                         else say(lang, "Computer takes a leaver's seat: off"),
                         "success" if takeover else "secondary", row=0, emoji="🤖"))
    row = 1
    if free_seat(table.players, table.engine.max_players) is not None:  # a kept seat yields when none is free
        lines = strength_lines(table.row.game)
        options = [discord.SelectOption(label=say(lang, "Add a computer: {strength}",
                                                  strength=localize(strength_name(s), lang)),
                                        value=f"{ADD_COMPUTER}.{s}", emoji="🤖",
                                        description=whole_words(localize(lines[s], lang), 100)) for s in STRENGTHS]
        view.add_item(TableSelect(f"{table.id}:{table.version}:{ADD_COMPUTER}", options,
                                  say(lang, "Add a computer player (pick its strength)"), row=row))
        row += 1
    drops = [(seat, p) for seat, p in enumerate(table.players) if is_computer(p)]
    for k, (seat, player) in enumerate(drops):
        view.add_item(button(table, f"drop.{seat}", say(lang, "Remove {player}", player=_name(player, lang)),
                             "danger", row=row + k // 5, emoji="✖"))
    row += (len(drops) + 4) // 5
    if table.engine.teams(len(table.players)):  # a team game: each player can pick their partner
        for player in table.players:
            view.add_item(button(table, f"partner.{player['id']}",
                                 say(lang, "Team up with {player}", player=_name(player, lang)), row=row,
                                 emoji="🤝"))
    return view


def _name(player: dict, lang: str) -> str:
    """A seat's name as shown (a computer's is a ``Text``, said in ``lang``)."""
    return localize(display_name(player), lang)
