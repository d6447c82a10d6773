"""Turn-based pace (issue 27), the pure part: the paces a table may have, their words, a server's limits, when
a turn's reminder is due, how long Globe Twister's sand runs at a turn-based table, and how many turns in a row
a seat let run out (read from the action log). No Discord types, no database calls."""

from __future__ import annotations

from collections.abc import Iterable

import i18n
from games.core import SYSTEM
from i18n import _, ngettext

HOUR = 3600
DAY = 24 * HOUR
PACES = (HOUR, 12 * HOUR, DAY, 3 * DAY, 7 * DAY)
"""The times per move a turn-based table may have (seconds): 1 h, 12 h, 24 h, 3 days, 7 days."""
PACE_NAMES = {"live": None, "1h": HOUR, "12h": 12 * HOUR, "24h": DAY, "3d": 3 * DAY, "7d": 7 * DAY}
"""/play's and /mod's names of the paces (None: live)."""
LONGEST = 7 * DAY
"""The longest pace a server allows unless ``/mod pace`` sets a shorter one."""
AWAY_DAYS = 14
"""The longest ``/game away`` unless ``/mod pace away_days:`` sets another."""
AWAY_MOST = 60
"""The most days a moderator may allow for ``/game away``."""
REMIND_SHARE = 5
"""A turn-based turn pings once more when a fifth of its time is left."""
IN_A_ROW = 3
"""Turns in a row a seat lets run out at a turn-based table before it counts as leaving."""
ON_TIMEOUT = ("play", "computer")
"""What a turn-based table does when a move runs out: plays it as a live table does, or a computer takes the
seat."""


def pace_name(pace: int | None) -> str:
    """/play's name of ``pace`` ("live", "24h"...), or "" when it is none of them."""
    return next((name for name, seconds in PACE_NAMES.items() if seconds == pace), "")


def span_words(seconds: float) -> i18n.Text:
    """A span in plain words, to the nearest hour (minute, under two hours) as a board says what is left: "3
    days", "2 days 5 h", "21 h", "45 min"."""
    seconds = max(0, int(seconds))
    if seconds >= 2 * HOUR - 30:
        days, hours = divmod((seconds + HOUR // 2) // HOUR, 24)
        if days >= 2 and hours:
            return ngettext("{n} day {h} h", "{n} days {h} h", days, h=hours)
        if days >= 2:
            return ngettext("{n} day", "{n} days", days)
        return _("{n} h", n=days * 24 + hours)
    return _("{n} min", n=max(1, (seconds + 30) // 60))


def per_move_words(pace: int) -> i18n.Text:
    """The pace in words: "24 h", "3 days", "1 h"."""
    if pace % DAY == 0 and pace > DAY:
        return ngettext("{n} day", "{n} days", pace // DAY, n=pace // DAY)
    return _("{n} h", n=pace // HOUR) if pace % HOUR == 0 else _("{n} min", n=pace // 60)


def exact_words(seconds: float) -> i18n.Text:
    """A span to the minute, in hours and minutes (a sand timer's: "4 h 48 min", "12 min", "33 h 36 min")."""
    hours, minutes = divmod(max(1, round(seconds / 60)), 60)
    if hours and minutes:
        return _("{h} h {m} min", h=hours, m=minutes)
    return _("{n} h", n=hours) if hours else _("{n} min", n=minutes)


def pace_words(pace: int | None) -> i18n.Text:
    """A lobby's pace: "live" or "turn-based, 24 h per move"."""
    if pace is None:
        return _("live")
    return _("turn-based, {time} per move", time=per_move_words(pace))


def longest(settings) -> int:
    """The longest pace the server allows (seconds)."""
    return settings.pace_max or LONGEST


def away_days(settings) -> int:
    """The longest ``/game away`` the server allows (days)."""
    return settings.away_max or AWAY_DAYS


def refused_pace(pace: int | None, settings) -> i18n.Text | None:
    """Why ``pace`` may not be a table's in this server (one sentence naming the limit), or None: it may."""
    if pace is None:
        return None
    if pace not in PACES:
        return _("A turn-based table takes 1 h, 12 h, 24 h, 3 days or 7 days per move.")
    if pace > longest(settings):
        return _("This server allows at most {time} per move (/mod pace).", time=per_move_words(longest(settings)))
    return None


def remind_at(due: float, pace: int) -> float:
    """When a turn-based turn due at ``due`` pings once more: when a fifth of its time is left."""
    return due - pace / REMIND_SHARE


def sand_seconds(pace: int) -> float:
    """Globe Twister's sand timer at a turn-based table: a fifth of the pace (docs/rules/decisions.md): the
    first lock-in gives the others a fifth of a move's time, never more than their stage has left."""
    return pace / REMIND_SHARE


def timeouts_in_a_row(actions: Iterable[tuple[int, str]], seat: int) -> int:
    """How many of ``seat``'s latest turns ran out in a row: the table's ``timeout:<seat>`` since the seat's
    last own move (``actions``: (seat, action) newest first)."""
    count = 0
    for by, action in actions:
        if by == seat:
            break
        if by == SYSTEM and action == f"timeout:{seat}":
            count += 1
    return count
