"""Geodeto's end score sheet: a column per player."""

from __future__ import annotations

from PIL import Image, ImageDraw

from games.geodeto.rules import GROUP_NAMES
from i18n import N_, _
from render.common import (
    COMPUTER_MARK_W,
    HIGHLIGHT,
    MARGIN,
    MUTED,
    P_BODY,
    P_HEADER_H,
    P_LARGE,
    P_SMALL,
    PANEL_EDGE,
    TEXT,
    canvas,
    computer_mark,
    fit_text,
    font,
    panel,
    phone_header,
    plain,
    played_by_computer,
    short_name,
    star,
    text,
    wrap_text,
)
from render.common import (
    PHONE_CANVAS as W,
)
from render.geodeto.board import (
    GAP,
    _name,
    _winner_text,
    winners_of,
)
from render.geodeto.pieces import (
    SHEET_STRIPE,
    TITLE,
    text_w,
)

# --- the score sheet ---------------------------------------------------------------------------------------------
SHEET_ROWS = (
    ("groups", N_("Groups (3 / 1)")),
    ("fulfilled", N_("Fulfilled goals (+2)")),
    ("hand", N_("Cards in hand (-1)")),
    ("continents", N_("Continents (+2)")),
    ("last", N_("Last goal (+1)")),
    ("extras", N_("Extra cards (+2)")),
)


SHEET_COLS = 3
"""Players per table (drawn for the phone, 600 px wide: the labels and three columns); four to six players get
two tables, one under the other."""
LABEL_W = 236
"""The labels' column, at least (wider where a language's labels are: "Forschungsstationen")."""
HEAD_H = 72
ROBOT_HEAD_H = 104
"""The column heads when a computer plays: the robot's head over its name (its two lines then take the whole
column)."""
ROW_H = 40
ROBOT_W = COMPUTER_MARK_W * 1.4


def _chunks(n: int) -> list[range]:
    """The players per table: all of them up to ``SHEET_COLS``, else two tables as even as can be."""
    if n <= SHEET_COLS:
        return [range(n)]
    half = -(-n // 2)
    return [range(half), range(half, n)]


def _lines() -> list[tuple[str, str, bool]]:
    """The sheet's rows: (key, label, sub-row): the parts, the four sight groups under "Groups"."""
    lines: list[tuple[str, str, bool]] = []
    for key, label in SHEET_ROWS:
        lines.append((key, _(label), False))
        if key == "groups":
            lines.extend((f"group:{g}", _(GROUP_NAMES[g]), True) for g in GROUP_NAMES)
    return lines


def draw_score_sheet(view: dict, names: list[str]) -> Image.Image:
    """The end score sheet drawn for the phone (600 px wide) as a table: a row per part (the four sight groups
    under "Groups"), a column per player (three at most: four to six players get two tables), the total last;
    the winners' totals in gold with a star."""
    players = view["score_sheet"]["players"]
    winners = winners_of(view)
    chunks = _chunks(len(players))
    label_w = max(LABEL_W, *(text_w(P_SMALL, label) + (30 if sub else 14) for _key, label, sub in _lines()))
    head_h = ROBOT_HEAD_H if any(played_by_computer(view, s) for s in range(len(players))) else HEAD_H
    table_h = head_h + ROW_H * (len(_lines()) + 1) + 12
    height = P_HEADER_H + GAP + len(chunks) * (table_h + GAP) + 2
    img, d = canvas(height, W)
    phone_header(d, _("{game} - score sheet", game=TITLE), _winner_text(view, names, winners), right=_("Game over"),
                 winner=True)
    top = P_HEADER_H + GAP
    for seats in chunks:
        _table(d, view, names, list(seats), winners, (top, table_h, head_h), label_w)
        top += table_h + GAP
    return img


def _table(d: ImageDraw.ImageDraw, view: dict, names: list[str], seats: list[int], winners: list[int],
           where: tuple[float, float, float], label_w: float) -> None:
    """One table of the sheet: the parts' labels and a column per seat of ``seats``; ``where``: its top, its
    height and its column heads' height."""
    top, table_h, head_h = where
    players = view["score_sheet"]["players"]
    col_w = (W - 2 * MARGIN - label_w) / SHEET_COLS
    panel(d, (MARGIN, top, W - MARGIN, top + table_h))
    x = MARGIN + label_w
    for k, s in enumerate(seats):
        cx = x + col_w * (k + 0.5)
        y_name = top + head_h - 66
        computer = played_by_computer(view, s)
        if computer:  # the robot's head over the name
            computer_mark(d, (cx, y_name - 18), 13)
        lines_n = _column_name(_name(names, s), col_w - 2, computer)
        for j, line in enumerate(lines_n):
            y_line = y_name + j * 30 + (15 if len(lines_n) == 1 else 0)
            text(d, (cx, y_line), line, P_SMALL, HIGHLIGHT if s in winners else TEXT, anchor="ma", bold=True)
    y = top + head_h
    d.line((MARGIN + 8, y - 2, W - MARGIN - 8, y - 2), fill=PANEL_EDGE, width=2)
    for i, (key, label, sub) in enumerate(_lines()):
        if i % 2 == 0:
            d.rectangle((MARGIN + 4, y, W - MARGIN - 4, y + ROW_H - 1), fill=SHEET_STRIPE)
        text(d, (MARGIN + (26 if sub else 10), y + ROW_H / 2), label, P_SMALL, MUTED if sub else TEXT, anchor="lm",
             max_width=label_w - (28 if sub else 12))
        for k, s in enumerate(seats):
            row = players[s]
            cx = x + col_w * (k + 0.5)
            if sub:
                g = key.split(":", 1)[1]
                count = (row.get("group_counts") or {}).get(g, 0)
                value = (row.get("group_points") or {}).get(g, 0)
                _cell(d, cx, y + ROW_H / 2, f"+{value}" if value else ("0" if count else "-"),
                      f"({count})" if count else "", P_SMALL, col_w)
            else:
                value = row.get(key, 0)
                _cell(d, cx, y + ROW_H / 2, f"{value:+d}" if value else "0", _count(row, key), P_BODY, col_w)
        y += ROW_H
    d.line((MARGIN + 8, y + 1, W - MARGIN - 8, y + 1), fill=PANEL_EDGE, width=2)
    text(d, (MARGIN + 10, y + ROW_H / 2 + 4), _("Total"), P_BODY, TEXT, anchor="lm", bold=True)
    for k, s in enumerate(seats):
        cx = x + col_w * (k + 0.5)
        total = str(players[s]["total"])
        won = s in winners
        text(d, (cx, y + ROW_H / 2 + 4), total, P_LARGE, HIGHLIGHT if won else TEXT, anchor="mm", bold=True)
        if won:
            star(d, (cx - text_w(P_LARGE, total) / 2 - 20, y + ROW_H / 2 + 4), 13)


def _cell(d: ImageDraw.ImageDraw, cx: float, cy: float, value: str, count: str, size: int, col_w: float) -> None:
    """A score sheet cell: the points, bold, and the count behind them, muted, centred together."""
    bold = value not in ("0", "-")
    w = font(size).getlength(value) + (2 if bold else 0)
    cw = text_w(P_SMALL, count) + 4 if count else 0
    if w + cw > col_w - 6:
        count, cw = "", 0
    left = cx - (w + cw) / 2
    text(d, (left, cy), value, size, TEXT if bold else MUTED, anchor="lm", bold=bold)
    if count:
        text(d, (left + w + 4, cy), count, P_SMALL, MUTED, anchor="lm")


def _count(row: dict, key: str) -> str:
    if key == "fulfilled":
        return f"({row.get('fulfilled_count', 0)})" if row.get("fulfilled_count") else ""
    if key == "hand":
        return f"({row.get('hand_count', 0)})" if row.get("hand_count") else ""
    if key == "continents":
        return f"({len(row.get('continent_list') or ())})" if row.get("continent_list") else ""
    if key == "extras":
        return f"({len(row.get('extra_cards') or ())})" if row.get("extra_cards") else ""
    return ""




def _column_name(name: str, width: float, computer: bool) -> list[str]:
    """A column's name in two lines at most of ``width`` px (the robot's head, for a computer, stands over it):
    the whole name; else a computer's short form, split at its last space in a narrow column ("Normal" / "2",
    "Bartho…'s" / "bot": never clipped below ``least_name``)."""
    lines = wrap_text(name, P_SMALL, width, lines=2)
    if not computer or " ".join(lines) == plain(name):
        return lines
    short = short_name(name)
    lines = wrap_text(short, P_SMALL, width, lines=2)
    head, _sep, rest = short.rpartition(" ")
    if " ".join(lines) == short or not head:
        return lines
    if head.endswith("'s"):  # the first name of whose seat it took, clipped
        head = fit_text(head[:-2], P_SMALL, width - text_w(P_SMALL, "'s")) + "'s"
    return [fit_text(head, P_SMALL, width), rest]
