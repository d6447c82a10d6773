"""Images of the server's records (bot/cogs/records.py): a game's leaderboard and a member's rating trends.

Drawn for the phone (render/common.py: fonts, colours, ``phone_header``): ``PHONE_CANVAS`` (600) px wide, every
label at least ``P_SMALL``, so they read where a 360 px phone shows them 240 px wide (docs/rendering.md). Drawn from plain data (dicts, lists), so they travel to the render workers as they are: the
bot calls them through bot/workers/renderpool.py, never on its event loop. The asker's own row is marked by a star
and the word "you", not by its colour alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import i18n
from i18n import N_, _, here, ngettext
from render import common as c
from render.common import (
    MARGIN,
    P_BODY,
    P_HEADER_H,
    P_LARGE,
    P_SMALL,
    P_STATUS,
    PHONE_CANVAS,
    canvas,
    encode_png,
    fit_name,
    font,
    phone_header,
    plain,
    star,
    text,
    wrap_text,
)

WIDTH = PHONE_CANVAS
ROW_H = 48
COLUMNS = ((N_("Rank"), 16, "la"), (N_("Player"), 92, "la"), (N_("Rating"), 396, "ra"), (N_("Games"), 496, "ra"),
           (N_("Wins"), 586, "ra"))
"""Column title, x and anchor ("la": text starts there, "ra": text ends there)."""


def _row(draw, y: float, row: dict, *, own: bool, shade: bool) -> None:
    fill = c.CURRENT_ROW if own else (c.PANEL if shade else None)
    if fill is not None:
        draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW_H - 4), radius=8, fill=fill,
                               outline=c.HIGHLIGHT if own else None, width=2)
    cy = y + (ROW_H - 4) / 2
    text(draw, (COLUMNS[0][1], cy), f"#{row['rank']}", P_BODY, c.HIGHLIGHT if row["rank"] <= 3 else c.TEXT,
         anchor="lm", bold=row["rank"] <= 3)
    x = COLUMNS[1][1]
    room = COLUMNS[2][1] - 84 - x
    if own:
        star(draw, (x + 12, cy), 13)
        x += 30
        you = font(P_SMALL).getlength(here(_("(you)"))) + 8
        room -= 30 + you
    width = text(draw, (x, cy), fit_name(row["name"], P_BODY, room), P_BODY, c.TEXT, anchor="lm")
    if own:
        text(draw, (x + width + 8, cy), _("(you)"), P_SMALL, c.HIGHLIGHT, anchor="lm")
    for (_title, cx, anchor), key in zip(COLUMNS[2:], ("rating", "games", "wins"), strict=True):
        text(draw, (cx, cy), str(row[key]), P_BODY, c.TEXT, anchor="rm" if anchor == "ra" else "lm",
             bold=key == "rating")


def render_leaderboard(title: str, rows: Sequence[dict], own: dict | None, players: int,
                       asker: int | None = None, locale: str = "en") -> bytes:
    """The top ``rows`` (each: rank, user_id, name, rating, games, wins) of a game in the server; ``own``: the
    asker's row, drawn below the top after a gap when it is not among them; ``players``: how many are rated."""
    with i18n.using(locale):
        return _leaderboard(title, rows, own, players, asker)


def _leaderboard(title: str, rows: Sequence[dict], own: dict | None, players: int, asker: int | None) -> bytes:
    own_below = own is not None and all(r["user_id"] != own["user_id"] for r in rows)
    note = wrap_text(_("Rated games between people only; equal ratings share a rank."), P_SMALL,
                     WIDTH - 2 * MARGIN - 8)
    foot = 16 + 32 * len(note)
    height = P_HEADER_H + 12 + 36 + ROW_H * len(rows) + (ROW_H + 34 if own_below else 0) + 8 + foot
    img, draw = canvas(height, WIDTH)
    phone_header(draw, _("{game} · leaderboard", game=title),
                 ngettext("Top {top} of {n} rated player", "Top {top} of {n} rated players", players, top=len(rows)),
                 arrow=False)
    y = P_HEADER_H + 10
    for name, x, anchor in COLUMNS:
        text(draw, (x, y), _(name), P_SMALL, c.MUTED, anchor=anchor, bold=True)
    y += 36
    for k, row in enumerate(rows):
        _row(draw, y, row, own=row["user_id"] == asker, shade=k % 2 == 0)
        y += ROW_H
    if own_below:
        text(draw, (WIDTH / 2, y + 16), "· · ·", P_LARGE, c.MUTED, anchor="mm")
        y += 34
        _row(draw, y, own, own=True, shade=False)
        y += ROW_H
    draw.rectangle((0, height - foot, WIDTH, height), fill=c.BAR)
    draw.line((0, height - foot, WIDTH, height - foot), fill=c.PANEL_EDGE, width=2)
    for k, line in enumerate(note):
        text(draw, (MARGIN + 4, height - foot + 8 + 32 * k), line, P_SMALL, c.MUTED)
    return encode_png(img)


CHART_H = 220


def _chart(img, draw, box: tuple[float, float, float, float], title: str, points: Sequence[int], note: str) -> None:
    """One game's panel: its title and figures, and the rating after each of the latest rated games as a line
    with a dot per game (the first and last value written beside their dots, clear of every line: ``_label``),
    the 1000 a newcomer starts from dashed."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=c.PANEL, outline=c.PANEL_EDGE, width=2)
    note_w = font(P_SMALL).getlength(plain(here(note)))
    text(draw, (x0 + 14, y0 + 8), title, P_BODY, c.TEXT, bold=True, max_width=x1 - x0 - 44 - note_w)
    text(draw, (x1 - 14, y0 + 12), note, P_SMALL, c.MUTED, anchor="ra")
    left, right, top, bottom = x0 + 84, x1 - 30, y0 + 84, y1 - 26
    if not points:
        text(draw, ((x0 + x1) / 2, (top + bottom) / 2), _("No rated game yet."), P_BODY, c.MUTED, anchor="mm")
        return
    low, high = min(*points, 1000), max(*points, 1000)
    if high - low < 40:
        low, high = (low + high) / 2 - 20, (low + high) / 2 + 20

    def at(k: int, value: float) -> tuple[float, float]:
        x = (left + right) / 2 if len(points) == 1 else left + (right - left) * k / (len(points) - 1)
        return x, bottom - (bottom - top) * (value - low) / (high - low)

    base = at(0, 1000)[1]
    for x in range(int(left), int(right), 16):
        draw.line((x, base, x + 8, base), fill=c.MUTED, width=2)
    text(draw, (left - 10, base), "1000", P_SMALL, c.MUTED, anchor="rm")
    xy = [at(k, v) for k, v in enumerate(points)]
    if len(xy) > 1:
        draw.line(xy, fill=c.SKY, width=4, joint="curve")
    for x, y in xy:
        draw.ellipse((x - 7, y - 7, x + 7, y + 7), fill=c.SKY, outline=c.TEXT, width=2)
    inside = (x0 + 6, y0 + 6, x1 - 6, y1 - 6)
    for k in sorted({0, len(points) - 1}):
        _label(img, draw, xy[k], str(points[k]), inside)


LABEL_CLEAR = 3
"""Px of bare panel a value's label keeps around it."""


def _label(img, draw, dot: tuple[float, float], label: str, inside: tuple[float, float, float, float]) -> None:
    """``label`` near ``dot`` where it touches nothing drawn (lines, dots, the other label, the titles): the
    first spot, nearest first (above, below, beside; centred or to either side), whose box holds only the
    panel's colour. Should none (a crowded chart), the one with the least drawn under it, on a patch of the
    panel's colour: a line under it gives way rather than running through the figures."""
    left, top, right, bottom = font(P_SMALL, bold=True).getbbox(label, anchor="mm")
    w, h = right - left, bottom - top
    x, y = dot
    spots = []
    for rise in (26, 34, 44, 56, 70):
        for sign in (-1, 1):
            spots += [(x + dx, y + sign * rise) for dx in (0, -w / 2 + 4, w / 2 - 4)]
    for dy in (0, -14, 14, -28, 28):
        spots += [(x - w / 2 - 14, y + dy), (x + w / 2 + 14, y + dy)]

    def box(spot: tuple[float, float]) -> tuple[int, int, int, int]:
        return (round(spot[0] + left) - LABEL_CLEAR, round(spot[1] + top) - LABEL_CLEAR,
                round(spot[0] + right) + LABEL_CLEAR, round(spot[1] + bottom) + LABEL_CLEAR)

    def drawn_under(spot: tuple[float, float]) -> int:
        b = box(spot)
        if b[0] < inside[0] or b[1] < inside[1] or b[2] > inside[2] or b[3] > inside[3]:
            return w * h * 4  # outside the panel
        return sum(n for n, colour in img.crop(b).getcolors(w * h * 4) if colour != c.PANEL)

    best = min(spots, key=lambda spot: (drawn_under(spot), spots.index(spot)))
    if drawn_under(best):
        _patch(draw, box(best))
    text(draw, best, label, P_SMALL, c.TEXT, anchor="mm", bold=True)


def _patch(draw, box: tuple[int, int, int, int]) -> None:
    """A patch of the panel's colour under a label that found no bare spot (none in 2,000 random trends)."""
    draw.rounded_rectangle(box, radius=4, fill=c.PANEL)


def render_trends(name: str, games: Sequence[dict], locale: str = "en") -> bytes:
    """A member's rating trend per game (each: title, points: ratings after their latest rated games, oldest
    first, note: a short line of figures, a Text where it has words)."""
    with i18n.using(locale):
        return _trends(name, games)


def _trends(name: str, games: Sequence[dict]) -> bytes:
    height = P_HEADER_H + 12 + (CHART_H + 12) * len(games)
    img, draw = canvas(height, WIDTH)
    phone_header(draw, _("Rating trend"), fit_name(name, P_STATUS, WIDTH - 40), arrow=False)
    y = P_HEADER_H + 12
    for game in games:
        _chart(img, draw, (MARGIN, y, WIDTH - MARGIN, y + CHART_H), game["title"], game["points"], game["note"])
        y += CHART_H + 12
    return encode_png(img)
