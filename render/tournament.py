"""Images of a tournament (issue 28): its standings and a knockout's bracket.

Drawn for the phone like the leaderboard (render/records.py): ``PHONE_CANVAS`` (600) px wide, every label at least
``P_SMALL``, so they read where a 360 px phone shows them 240 px wide (docs/rendering.md). Drawn from plain dicts
whose words (titles, notes, round names, names) come already in the reader's language; the column heads and the
few fixed words here are this module's own, translated like records.py's. Nothing relies on colour alone: the
podium's medals carry their number, the asker has a star and "(you)", a player who left has "(left)" written,
a knockout's winner a pointer and bold type, a loser grey type.
"""

from __future__ import annotations

from collections.abc import Sequence

import i18n
from i18n import N_, _, ngettext, number
from render import common as c
from render.common import (
    MARGIN,
    P_BODY,
    P_HEADER_H,
    P_LARGE,
    P_SMALL,
    PHONE_CANVAS,
    canvas,
    encode_png,
    fit_name,
    fit_text,
    font,
    phone_header,
    star,
    text,
    turn_arrow,
    winner_banner,
    wrap_text,
)

WIDTH = PHONE_CANVAS
ROW_H = 48
MEDALS = {1: (255, 214, 10), 2: (196, 202, 212), 3: (205, 127, 50)}
"""Gold, silver, bronze: each medal also carries its number."""
LIMIT, SHOWN = 24, 20
"""More rows than ``LIMIT``: the top ``SHOWN``, then the asker's own row (64 players would be 3,200 px tall)."""

HEADS = {
    "duels": (N_("Pts"), N_("Bh"), N_("SB"), N_("G/W")),
    "tables": (N_("Pts"), N_("ΣPl"), N_("Opp"), N_("G/W")),
    "knockout": (N_("Won"), N_("Out"), None, N_("G/W")),
}
"""Column heads per kind of tournament, short: the footer spells them out (``LEGENDS``)."""
LEGENDS = {
    "duels": N_("Pts: points (win 1, draw ½). Bh: Buchholz, the opponents' points. SB: Sonneborn-Berger, the points "
                "of those beaten (half for a draw). G/W: games/wins."),
    "tables": N_("Pts: points (4, 2, 1 by place, last 0). ΣPl: sum of places, lower is better. Opp: the opponents' "
                 "points. G/W: games/wins."),
    "knockout": N_("Won: tables won. Out: the round they went out in. G/W: games/wins."),
}
NUMBERS_X = (362, 436, 506, 578)
"""Right edges of the four figure columns."""


def _figure(value: float | int | None) -> str:
    if value is None:
        return "–"
    return i18n.here(number(round(float(value), 2)))


def _medal(draw, centre: tuple[float, float], place: int) -> None:
    """A medal: a ribbon's two tails above a disc with the place written on it."""
    x, y = centre
    for dx, lean in ((-8, -4), (8, 4)):
        draw.polygon([(x + dx - 5, y - 21), (x + dx + 5, y - 21), (x + dx + lean + 4, y - 8),
                      (x + dx + lean - 4, y - 8)], fill=c.BLUE, outline=c.BLACK)
    draw.ellipse((x - 18, y - 14, x + 18, y + 22), fill=MEDALS[place], outline=c.BLACK, width=2)
    text(draw, (x, y + 4), str(place), P_SMALL, c.BLACK, anchor="mm", bold=True)


def _standing_row(draw, y: float, row: dict, kind: str, *, shade: bool) -> None:
    own, left = bool(row.get("you")), bool(row.get("dropped"))
    fill = c.CURRENT_ROW if own else (c.PANEL if shade else None)
    if fill is not None:
        draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW_H - 4), radius=8, fill=fill,
                               outline=c.HIGHLIGHT if own else None, width=2)
    cy = y + (ROW_H - 4) / 2
    place = row["place"]
    if place in MEDALS:
        _medal(draw, (40, cy - 2), place)
    else:
        text(draw, (16, cy), f"#{place}", P_BODY, c.TEXT, anchor="lm")
    x = 76
    room = NUMBERS_X[0] - 64 - x
    tags = []
    if own:
        star(draw, (x + 12, cy), 13)
        x += 30
        room -= 30
        tags.append(_("(you)"))
    if left:
        tags.append(_("(left)"))
    tag = " ".join(i18n.here(t) for t in tags)
    if tag:
        room -= font(P_SMALL).getlength(tag) + 8
    ink = c.MUTED if left else c.TEXT
    width = text(draw, (x, cy), fit_name(row["name"], P_BODY, room), P_BODY, ink, anchor="lm", bold=place <= 3)
    if tag:
        text(draw, (x + width + 8, cy), tag, P_SMALL, c.HIGHLIGHT if own else c.MUTED, anchor="lm")
    if kind == "knockout":
        out = row.get("out")
        figures = [row.get("points"), "–" if out is None else _("R{n}", n=out), None, None]
    else:
        tiebreaks = list(row.get("tiebreaks") or ()) + [None, None]
        figures = [row.get("points"), tiebreaks[0], tiebreaks[1], None]
    figures[3] = f"{row.get('games', 0)}/{row.get('wins', 0)}"
    for k, (value, rx) in enumerate(zip(figures, NUMBERS_X, strict=True)):
        if k == 2 and kind == "knockout":
            continue
        shown = value if isinstance(value, str) else _figure(value)
        text(draw, (rx, cy), shown, P_BODY, ink, anchor="rm", bold=k == 0)


def render_standings(data: dict, locale: str = "en") -> bytes:
    """A tournament's standings: ``data`` = {"title", "note" (the header's two lines), "kind": "duels" |
    "tables" | "knockout", "rows": [{"place", "name", "points", "tiebreaks": [..], "games", "wins", "dropped",
    "you", "out" (knockout: the round they went out in, None while in)}], sorted}. More than ``LIMIT`` rows:
    the top ``SHOWN`` and the row marked "you" (when further down)."""
    with i18n.using(locale):
        return _standings(data)


def _standings(data: dict) -> bytes:
    kind = data.get("kind", "duels")
    rows: Sequence[dict] = data["rows"]
    shown, own = list(rows), None
    if len(rows) > LIMIT:
        shown = list(rows[:SHOWN])
        own = next((r for r in rows[SHOWN:] if r.get("you")), None)
    hidden = len(rows) - len(shown) - (own is not None)
    legend = wrap_text(i18n.here(_(LEGENDS[kind])), P_SMALL, WIDTH - 2 * MARGIN - 8, lines=4, prose=True)
    foot = 16 + 32 * len(legend)
    gap = 34 + (ROW_H if own is not None else 0) + (36 if hidden else 0) if len(shown) < len(rows) else 0
    height = P_HEADER_H + 12 + 36 + ROW_H * max(len(shown), 1) + gap + 8 + foot
    img, draw = canvas(height, WIDTH)
    phone_header(draw, data["title"], data["note"], arrow=False)
    y = P_HEADER_H + 10
    text(draw, (16, y), "#", P_SMALL, c.MUTED, bold=True)
    text(draw, (76, y), _("Player"), P_SMALL, c.MUTED, bold=True)
    for head, rx in zip(HEADS[kind], NUMBERS_X, strict=True):
        if head is not None:
            text(draw, (rx, y), _(head), P_SMALL, c.MUTED, anchor="ra", bold=True)
    y += 36
    if not rows:
        text(draw, (WIDTH / 2, y + ROW_H / 2), _("Nobody yet."), P_BODY, c.MUTED, anchor="mm")
    for k, row in enumerate(shown):
        _standing_row(draw, y, row, kind, shade=k % 2 == 0)
        y += ROW_H
    if len(shown) < len(rows):
        text(draw, (WIDTH / 2, y + 16), "· · ·", P_LARGE, c.MUTED, anchor="mm")
        y += 34
        if own is not None:
            _standing_row(draw, y, own, kind, shade=False)
            y += ROW_H
        if hidden:
            text(draw, (WIDTH / 2, y + 16), ngettext("and {n} more player", "and {n} more players", hidden,
                                                     n=hidden), P_SMALL, c.MUTED, anchor="mm")
    draw.rectangle((0, height - foot, WIDTH, height), fill=c.BAR)
    draw.line((0, height - foot, WIDTH, height - foot), fill=c.PANEL_EDGE, width=2)
    for k, line in enumerate(legend):
        text(draw, (MARGIN + 4, height - foot + 8 + 32 * k), line, P_SMALL, c.MUTED)
    return encode_png(img)


# --- the bracket -------------------------------------------------------------------------------------------
COLUMNS, FIRST_SEATS = 3, 16
"""At most three rounds side by side, the first of them seating at most 16 (duels: the quarter-finals on)."""
SEAT_H, BOX_PAD, BOX_GAP, COL_GAP = 40, 6, 14, 22


def window(rounds: Sequence[dict]) -> int:
    """The first round the image shows: the last ``COLUMNS`` rounds at most, the first of them seating at most
    ``FIRST_SEATS`` (the earlier rounds are in the tournament's message and standings)."""
    start = len(rounds) - 1
    while start > 0 and len(rounds) - start < COLUMNS and \
            sum(max(len(m["players"]), 1) for m in rounds[start - 1]["matches"]) <= FIRST_SEATS:
        start -= 1
    return max(start, 0)


def _box_h(match: dict) -> float:
    """A bye's box has a line of its own for the word (beside the name it left no room in a narrow column)."""
    return BOX_PAD * 2 + SEAT_H * max(len(match["players"]) + (1 if match.get("bye") else 0), 1)


def _match(draw, box: tuple[float, float, float, float], match: dict) -> None:
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=8, fill=c.PANEL, outline=c.PANEL_EDGE, width=2)
    winner = match.get("winner")
    bye = i18n.here(_("bye")) if match.get("bye") else ""
    for k, player in enumerate(match["players"]):
        cy = y0 + BOX_PAD + SEAT_H * k + SEAT_H / 2
        if player is None:
            text(draw, (x0 + 34, cy), "…", P_SMALL, c.MUTED, anchor="lm")
            continue
        won = winner == k
        lost = winner is not None and not won
        if won:
            turn_arrow(draw, (x0 + 16, cy), 10)
        x = x0 + 34
        if player.get("you"):
            star(draw, (x + 10, cy), 11)
            x += 26
        room = x1 - 8 - x
        ink = c.MUTED if lost else (c.HIGHLIGHT if won else c.TEXT)
        text(draw, (x, cy), fit_name(player["name"], P_SMALL, room), P_SMALL, ink, anchor="lm", bold=won)
    if bye:
        cy = y0 + BOX_PAD + SEAT_H * len(match["players"]) + SEAT_H / 2
        text(draw, (x0 + 34, cy), fit_text(bye, P_SMALL, x1 - 8 - x0 - 34), P_SMALL, c.MUTED, anchor="lm")


def render_bracket(data: dict, locale: str = "en") -> bytes:
    """A knockout's bracket: ``data`` = {"title", "note" (the header's two lines), "rounds": [{"name": the round's
    name, "matches": [{"players": [{"name", "you"?} or None (not known yet)], "winner": index into players or
    None, "bye": bool}]}] (every round, the final last, matches in bracket order: ``bot.tournament.bracket``),
    "banner": the winner's line or None}. Rounds as columns (``window``), winners pointed at and bold."""
    with i18n.using(locale):
        return _bracket(data)


def _bracket(data: dict) -> bytes:
    rounds: Sequence[dict] = data["rounds"]
    start = window(rounds) if rounds else 0
    shown = rounds[start:]
    first = sum(_box_h(m) + BOX_GAP for m in shown[0]["matches"]) if shown else 0
    note_lines = []
    if start:
        note_lines = wrap_text(i18n.here(ngettext("Round {n} is in the standings.", "Rounds 1 to {n} are in the "
                                                  "standings.", start, n=start)), P_SMALL, WIDTH - 2 * MARGIN)
    banner_h = 76 if data.get("banner") else 0
    top = P_HEADER_H + 12 + 40 + 32 * len(note_lines)
    height = int(top + max(first, SEAT_H) + banner_h + 12)
    img, draw = canvas(height, WIDTH)
    phone_header(draw, data["title"], data["note"], arrow=False)
    y = P_HEADER_H + 8
    for line in note_lines:
        text(draw, (MARGIN + 4, y), line, P_SMALL, c.MUTED)
        y += 32
    columns = max(len(shown), 1)
    col_w = (WIDTH - 2 * MARGIN - COL_GAP * (columns - 1)) / columns
    centres: list[float] = []
    for k, rnd in enumerate(shown):
        x0 = MARGIN + k * (col_w + COL_GAP)
        text(draw, (x0 + col_w / 2, y + 4), fit_text(i18n.here(rnd["name"]), P_SMALL, col_w), P_SMALL, c.MUTED,
             anchor="ma", bold=True)
        matches = rnd["matches"]
        if k == 0:
            now, at = [], top
            for match in matches:
                now.append(at + _box_h(match) / 2)
                at += _box_h(match) + BOX_GAP
        else:
            per = max(len(centres) // max(len(matches), 1), 1)
            now = [sum(centres[i * per:(i + 1) * per]) / len(centres[i * per:(i + 1) * per]) for i in
                   range(len(matches))]
            for i, cy in enumerate(now):  # the lines from the feeding matches
                for feeder in centres[i * per:(i + 1) * per]:
                    mid = x0 - COL_GAP / 2
                    draw.line((x0 - COL_GAP, feeder, mid, feeder), fill=c.PANEL_EDGE, width=2)
                    draw.line((mid, feeder, mid, cy), fill=c.PANEL_EDGE, width=2)
                draw.line((x0 - COL_GAP / 2, cy, x0, cy), fill=c.PANEL_EDGE, width=2)
        for match, cy in zip(matches, now, strict=True):
            _match(draw, (x0, cy - _box_h(match) / 2, x0 + col_w, cy + _box_h(match) / 2), match)
        centres = now
    if data.get("banner"):
        winner_banner(draw, (MARGIN, height - banner_h - 4, WIDTH - MARGIN, height - 12), data["banner"],
                      sizes=(P_LARGE, P_BODY, P_SMALL, P_SMALL), star_r=12)
    return encode_png(img)
