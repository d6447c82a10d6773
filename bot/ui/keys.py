"""Every custom_id the bot writes and reads: one grammar, typed and versioned (issue 25). Pure: no discord.

An id is ``g1`` (the grammar's version) and one letter for its kind, then its fields (at most 100 characters):

  g1m:<table>:<version>:<key>[/<token>]            Move: a game's action key, and nothing else
  g1u:<table>:<version>:<name>[.<arg>][/<token>]   Utility: a table's own button (``UTILITIES``: join, start,
                                                   rules, hand, pick.<group>, rematch...)
  g1s:<table>:<version>:<menu>[/<token>]           Menu: a table's select menu (its values: ``choose``)
  g1l:<lesson>:<version>:<key>                     LessonMove: a move in /learn
  g1k:<lesson>:<version>:<name>[.<arg>]            LessonUtility: leave, again, next, pick.<group>
  g1n:<lesson>:<version>:<menu>                    LessonMenu
  g1r:<game>:<page>                                RulePage: a page of /rules
  g1p:<step>:<user>                                Privacy: a button of /privacy
  g1d:<day>:<version>:<key>                        DailyMove: a move in /daily (``<day>``: YYYYMMDD)
  g1e:<day>:<name>                                 DailyUtility: /daily's share button
  g1t:<tournament>:<name>                          TournamentButton: a tournament message's join, leave, start,
                                                   cancel

A move and a utility have distinct prefixes, so no action key is ever read as anything else (a game's move keyed
``start`` is a move). ``<token>`` ends a seat's own choices on its private panel (``Table.seat_token``,
bot/table/model.py). In a move menu, a value is an action key, or ``~`` and a utility (``~pick.<group>``: ``~`` is in
no action key); in the lobby's ``computer`` menu a value is ``computer.<strength>``.

The ids of versions before this grammar (``gt:``, ``gs:``, ``gl:``, ``gls:``, ``gr:``, ``gp:``, still on boards
posted before an upgrade) are read as that code read them: a ``gt:`` key that was a lobby or table button is a
Utility, any other a Move (``legacy_utility``). ``decode`` answers None for anything else (forged or malformed).
``PATTERNS`` are the DynamicItems' templates (bot/ui/items.py), with named groups, one per prefix; ``read`` makes
a match a value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LIMIT = 100
"""Discord's longest custom_id."""
KEY = r"[\w.\-]{1,60}"
"""An action key: what an engine's ``Action.key`` may be (tests/bot/test_keys.py checks every game's)."""
TOKEN = r"(?:/(?P<token>[0-9a-f]{6}))?"
UTILITIES = ("join", "leave", "start", "takeover", "partner", "computer", "drop", "pace", "ontimeout",  # the lobby's
             "hand", "rules", "overlay", "pings", "rematch", "pick")
"""A table's own buttons: ``<name>`` or ``<name>.<arg>`` (``pick.`` goes back from a group)."""
LOBBY = frozenset({"join", "leave", "start", "takeover", "partner", "computer", "drop", "pace", "ontimeout"})
"""The utilities that change a lobby (``TableService.lobby``): join, leave, start, ``takeover.on``/``.off``,
``partner.<user id>``, ``computer.<strength>``, ``drop.<seat>``, ``pace.<seconds|live>``,
``ontimeout.<play|computer>``."""
LESSON_UTILITIES = ("leave", "again", "next", "pick")
COMPUTER_MENU = "computer"
"""The lobby's "Add a computer" menu (its values ``computer.<strength>``)."""
PACE_MENU = "pace"
"""The lobby's pace menu (its values ``pace.<seconds|live>``)."""
MARK = "~"
"""Starts a utility among a menu's values (and a legacy lesson's utility keys)."""


@dataclass(frozen=True)
class Move:
    table: int
    version: int
    key: str
    token: str | None = None


@dataclass(frozen=True)
class Utility:
    table: int
    version: int
    name: str
    arg: str | None = None
    token: str | None = None

    @property
    def text(self) -> str:
        """``name`` or ``name.arg``, as ``TableService.lobby`` takes it."""
        return utility_text(self.name, self.arg)


@dataclass(frozen=True)
class Menu:
    """A table's select menu; ``legacy``: a ``gs:`` one, whose values are read the old way."""
    table: int
    version: int
    name: str
    token: str | None = None
    legacy: bool = False


@dataclass(frozen=True)
class LessonMove:
    lesson: int
    version: int
    key: str


@dataclass(frozen=True)
class LessonUtility:
    lesson: int
    version: int
    name: str
    arg: str | None = None


@dataclass(frozen=True)
class LessonMenu:
    lesson: int
    version: int
    name: str
    legacy: bool = False


@dataclass(frozen=True)
class RulePage:
    game: str
    page: int


@dataclass(frozen=True)
class Privacy:
    step: str
    user: int


@dataclass(frozen=True)
class DailyMove:
    day: str
    """YYYYMMDD: the day whose puzzle it plays (the member's own attempt: the clicker's)."""
    version: int
    key: str


@dataclass(frozen=True)
class DailyUtility:
    day: str
    name: str


@dataclass(frozen=True)
class TournamentButton:
    tournament: int
    name: str


Key = (Move | Utility | Menu | LessonMove | LessonUtility | LessonMenu | RulePage | Privacy | DailyMove | DailyUtility
       | TournamentButton)
TABLE, LESSON, RULES, PRIVACY = "table", "lesson", "rules", "privacy"
DAILY = "daily"
TOURNAMENT = "tournament"
TOURNAMENT_BUTTONS = ("join", "leave", "start", "cancel")
DAILY_UTILITIES = ("share",)
"""Families of ids: which part of the bot answers one (``family``), even a forged one."""


def utility_text(name: str, arg: str | None) -> str:
    return name if arg is None else f"{name}.{arg}"


def split_utility(text: str) -> tuple[str, str | None]:
    """("computer", "easy") for "computer.easy", ("join", None) for "join"."""
    name, dot, arg = text.partition(".")
    return name, arg if dot else None


_IDS = r"(?P<table>\d{1,18}):(?P<version>\d{1,9}):"
_LESSON = r"(?P<lesson>\d{1,18}):(?P<version>\d{1,9}):"
_ARG = r"(?:\.(?P<arg>[\w.\-]{0,60}))?"
PATTERNS: dict[str, re.Pattern] = {
    "g1m": re.compile(rf"g1m:{_IDS}(?P<key>{KEY}){TOKEN}"),
    "g1u": re.compile(rf"g1u:{_IDS}(?P<name>{'|'.join(UTILITIES)}){_ARG}{TOKEN}"),
    "g1s": re.compile(rf"g1s:{_IDS}(?P<name>[\w.\-]{{1,40}}){TOKEN}"),
    "g1l": re.compile(rf"g1l:{_LESSON}(?P<key>{KEY})"),
    "g1k": re.compile(rf"g1k:{_LESSON}(?P<name>{'|'.join(LESSON_UTILITIES)}){_ARG}"),
    "g1n": re.compile(rf"g1n:{_LESSON}(?P<name>[\w.\-]{{1,40}})"),
    "g1r": re.compile(r"g1r:(?P<game>[a-z_]{1,30}):(?P<page>\d{1,2})"),
    "g1p": re.compile(r"g1p:(?P<step>ask|delete|keep):(?P<user>\d{1,20})"),
    "g1d": re.compile(rf"g1d:(?P<day>\d{{8}}):(?P<version>\d{{1,9}}):(?P<key>{KEY})"),
    "g1e": re.compile(rf"g1e:(?P<day>\d{{8}}):(?P<name>{'|'.join(DAILY_UTILITIES)})"),
    "g1t": re.compile(rf"g1t:(?P<tournament>\d{{1,18}}):(?P<name>{'|'.join(TOURNAMENT_BUTTONS)})"),
    # before the grammar (issue 25): read as that code read them
    "gt": re.compile(rf"gt:{_IDS}(?P<key>[\w:.\-]{{1,60}}){TOKEN}"),
    "gs": re.compile(rf"gs:{_IDS}(?P<name>[\w:.\-]{{1,60}}){TOKEN}"),
    "gl": re.compile(rf"gl:{_LESSON}(?P<key>[\w:.\-~]{{1,60}})"),
    "gls": re.compile(rf"gls:{_LESSON}(?P<name>[\w:.\-~]{{1,60}})"),
    "gr": re.compile(r"gr:(?P<game>[a-z_]+):(?P<page>\d{1,2})"),
    "gp": re.compile(r"gp:(?P<step>ask|delete|keep):(?P<user>\d+)"),
}
SELECTS = frozenset({"g1s", "g1n", "gs", "gls"})
"""The prefixes of select menus (the others are buttons')."""
FAMILIES = {"g1m": TABLE, "g1u": TABLE, "g1s": TABLE, "gt": TABLE, "gs": TABLE,
            "g1l": LESSON, "g1k": LESSON, "g1n": LESSON, "gl": LESSON, "gls": LESSON,
            "g1r": RULES, "gr": RULES, "g1p": PRIVACY, "gp": PRIVACY, "g1d": DAILY, "g1e": DAILY,
            "g1t": TOURNAMENT}

_LEGACY_NAMED = frozenset({"hand", "rules", "pings.off", "rematch", "join", "leave", "start", "takeover.on",
                           "takeover.off"})
_LEGACY_PREFIXES = ("pick.", "overlay.", "partner.", "computer.", "drop.")


def legacy_utility(key: str) -> bool:
    """Whether a ``gt:`` id's key was a table's own button before this grammar (else it was a move)."""
    return key in _LEGACY_NAMED or key.startswith(_LEGACY_PREFIXES)


def _table_key(table: int, version: int, key: str, token: str | None) -> Move | Utility:
    """A ``gt:`` key (or a ``gs:`` menu's value) as the code before the grammar read it."""
    if legacy_utility(key):
        name, arg = split_utility(key)
        return Utility(table, version, name, arg, token)
    return Move(table, version, key, token)


def _lesson_key(lesson: int, version: int, key: str) -> LessonMove | LessonUtility | None:
    """A ``gl:`` key (or a ``gls:`` menu's value) as the code before the grammar read it."""
    if key.startswith(MARK):
        return LessonUtility(lesson, version, key[1:]) if key[1:] in ("leave", "again", "next") else None
    if key.startswith("pick."):
        return LessonUtility(lesson, version, "pick", key[5:])
    return LessonMove(lesson, version, key)


def read(prefix: str, m: re.Match) -> Key | None:
    """The value of an id that ``PATTERNS[prefix]`` matched (a DynamicItem's ``from_custom_id`` calls this)."""
    if prefix in ("g1r", "gr"):
        return RulePage(m["game"], int(m["page"]))
    if prefix in ("g1p", "gp"):
        return Privacy(m["step"], int(m["user"]))
    if prefix == "g1d":
        return DailyMove(m["day"], int(m["version"]), m["key"])
    if prefix == "g1e":
        return DailyUtility(m["day"], m["name"])
    if prefix == "g1t":
        return TournamentButton(int(m["tournament"]), m["name"])
    version = int(m["version"])
    if prefix in ("g1l", "g1k", "g1n", "gl", "gls"):
        lesson = int(m["lesson"])
        if prefix == "g1l":
            return LessonMove(lesson, version, m["key"])
        if prefix == "g1k":
            return LessonUtility(lesson, version, m["name"], m["arg"])
        if prefix == "g1n":
            return LessonMenu(lesson, version, m["name"])
        if prefix == "gls":
            return LessonMenu(lesson, version, m["name"], legacy=True)
        return _lesson_key(lesson, version, m["key"])
    table = int(m["table"])
    if prefix == "g1m":
        return Move(table, version, m["key"], m["token"])
    if prefix == "g1u":
        return Utility(table, version, m["name"], m["arg"], m["token"])
    if prefix == "g1s":
        return Menu(table, version, m["name"], m["token"])
    if prefix == "gs":
        return Menu(table, version, m["name"], m["token"], legacy=True)
    return _table_key(table, version, m["key"], m["token"])


def prefix_of(custom_id: str) -> str | None:
    head = custom_id.split(":", 1)[0]
    return head if head in PATTERNS and custom_id.startswith(head + ":") else None


def family(custom_id: str) -> str | None:
    """Which part of the bot an id of ours belongs to (TABLE, LESSON, RULES, PRIVACY), decodable or not; None:
    not ours."""
    prefix = prefix_of(custom_id)
    return FAMILIES[prefix] if prefix else None


def templated(custom_id: str) -> bool:
    """Whether a DynamicItem's template (``PATTERNS``) takes the id: its item answers it when it is on its message
    (even when it reads as nothing: an old lesson's ``~`` key that was none)."""
    prefix = prefix_of(custom_id)
    return prefix is not None and PATTERNS[prefix].fullmatch(custom_id) is not None


def decode(custom_id: str) -> Key | None:
    """The typed value of an id (today's or an older grammar's), or None (forged, malformed, not ours)."""
    prefix = prefix_of(custom_id)
    if prefix is None or len(custom_id) > LIMIT:
        return None
    m = PATTERNS[prefix].fullmatch(custom_id)
    return read(prefix, m) if m else None


def _suffix(token: str | None) -> str:
    return f"/{token}" if token else ""


def encode(value: Key) -> str:
    """The id of ``value`` in today's grammar; ValueError when it cannot be one (``decode`` reads it back)."""
    match value:
        case Move(table, version, key, token):
            text = f"g1m:{table}:{version}:{key}{_suffix(token)}"
        case Utility(table, version, name, arg, token):
            text = f"g1u:{table}:{version}:{utility_text(name, arg)}{_suffix(token)}"
        case Menu(table, version, name, token, False):
            text = f"g1s:{table}:{version}:{name}{_suffix(token)}"
        case LessonMove(lesson, version, key):
            text = f"g1l:{lesson}:{version}:{key}"
        case LessonUtility(lesson, version, name, arg):
            text = f"g1k:{lesson}:{version}:{utility_text(name, arg)}"
        case LessonMenu(lesson, version, name, False):
            text = f"g1n:{lesson}:{version}:{name}"
        case RulePage(game, page):
            text = f"g1r:{game}:{page}"
        case Privacy(step, user):
            text = f"g1p:{step}:{user}"
        case DailyMove(day, version, key):
            text = f"g1d:{day}:{version}:{key}"
        case DailyUtility(day, name):
            text = f"g1e:{day}:{name}"
        case TournamentButton(tournament, name):
            text = f"g1t:{tournament}:{name}"
        case _:
            raise ValueError(f"no id for {value!r}")
    if len(text) > LIMIT or not PATTERNS[text[:3]].fullmatch(text):  # (a regex: ids are built on every board)
        raise ValueError(f"{value!r} has no id in the grammar (it would read {text!r})")
    return text


def value(choice: Move | Utility | LessonMove | LessonUtility) -> str:
    """An option's value in a menu (``choose`` reads it back with the menu's id)."""
    if isinstance(choice, Move | LessonMove):
        return choice.key
    return MARK + utility_text(choice.name, choice.arg)


def choose(menu: Menu | LessonMenu, chosen: str) -> Move | Utility | LessonMove | LessonUtility | None:
    """What choosing the value ``chosen`` in ``menu`` means: a move, a utility, or None (no such value)."""
    if isinstance(menu, LessonMenu):
        if menu.legacy:
            return _lesson_key(menu.lesson, menu.version, chosen or "-")
        if chosen.startswith(MARK):
            name, arg = split_utility(chosen[1:])
            return LessonUtility(menu.lesson, menu.version, name, arg) if name == "pick" else None
        return LessonMove(menu.lesson, menu.version, chosen) if re.fullmatch(KEY, chosen) else None
    if menu.legacy:
        return _table_key(menu.table, menu.version, chosen or "-", menu.token)
    if menu.name in (COMPUTER_MENU, PACE_MENU):
        name, arg = split_utility(chosen)
        return Utility(menu.table, menu.version, name, arg) if name == menu.name and arg else None
    if chosen.startswith(MARK):
        name, arg = split_utility(chosen[1:])
        return Utility(menu.table, menu.version, name, arg, menu.token) if name == "pick" else None
    return Move(menu.table, menu.version, chosen, menu.token) if re.fullmatch(KEY, chosen) else None
