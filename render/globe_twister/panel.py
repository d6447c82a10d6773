"""The private panel, "My program": the player's puzzle, the programming frame, the photo and the cards."""

from __future__ import annotations

from PIL import Image, ImageDraw

from games.globe_twister.puzzle import (
    CARDS,
    CELL_NAMES,
    RED,
    SHORT_NAMES,
)
from i18n import _, ngettext
from render.common import (
    BODY,
    HEADER_H,
    HIGHLIGHT,
    LARGE,
    MARGIN,
    MUTED,
    PANEL_EDGE,
    SMALL,
    TEXT,
    WIDTH,
    canvas,
    header,
    star,
    text,
    wrap_text,
)
from render.globe_twister.board import _level, _par, _right_note, _side_options
from render.globe_twister.pieces import (
    CARD_WORDS,
    CELL_FILL,
    GONE,
    TITLE,
    card_chip,
    draw_frame,
    draw_puzzle,
    frame_size,
    puzzle_size,
    thumbnail,
)

# --- the private panel: "My program" ------------------------------------------------------------------------
PRIVATE_T = 84
PRIVATE_C = 80
PRIVATE_THUMB = 138


def _title(name: str) -> str:
    """The panel's title: the game and whose program (a long name: "your program")."""
    if len(name) <= 22:
        return _("{game} - {name}'s program", game=TITLE, name=name)
    return _("{game} - your program", game=TITLE)


def _private_status(view: dict) -> tuple[str, bool]:
    """What the player must do now (and whether it is their move)."""
    phase = view["phase"]
    seat = view.get("seat")
    if phase == "over":
        return _("The voyage is over"), False
    if phase == "side":
        side = view["photos"][seat]["side"] if seat is not None else None
        if side is None:
            return _("Choose the polar front or your region's back"), True
        return (_("You took the front: waiting for the others") if side == "front" else
                _("You took the back: waiting for the others")), False
    if seat is None or seat not in view["active"]:
        return _("Watching this round"), False
    if view["left"][seat]:
        return _("You left the game"), False
    if view["locked"][seat]:
        return _("Locked in: waiting for the others"), False
    step = view.get("step")
    if step:
        cell = step["cell"]
        if step.get("card"):
            return _("Cell {number}: point {card}'s arrow", number=cell + 1, card=SHORT_NAMES[step["card"]]), True
        return _("Cell {number} ({cell}): pick a card", number=cell + 1, cell=CELL_NAMES[cell]), True
    if any(view.get("program") or ()):
        return _("Pick a cell for the next card, or lock in"), True
    return _("Pick a cell (1-9) for your first card"), True


def _hand_rows(d: ImageDraw.ImageDraw, view: dict, seat: int, box) -> None:
    """Every card, two columns: its chip and what it does; a card placed says where, a red card played is
    gone."""
    x0, y0, x1, y1 = box
    hand = view["hands"][seat]
    program = view.get("program") or [None] * 9
    where = {e["card"]: cell for cell, e in enumerate(program) if e}
    solo = view.get("solo")
    cards = [c for c in CARDS if c not in RED or (solo is None or solo.get("red")) or c in hand]
    colw = (x1 - x0) / 2
    row = (y1 - y0) / 5
    for k, card in enumerate(cards):
        col, r = divmod(k, 5)
        x = x0 + col * colw
        y = y0 + r * row
        cy = y + row / 2
        chip = (x, cy - 15, x + 50, cy + 15)
        gone = card not in hand
        if gone:
            d.rounded_rectangle(chip, radius=5, fill=CELL_FILL, outline=GONE, width=2)
            text(d, ((chip[0] + chip[2]) / 2, cy), SHORT_NAMES[card], SMALL, GONE, anchor="mm")
            d.line([(chip[0] + 4, chip[3] - 4), (chip[2] - 4, chip[1] + 4)], fill=GONE, width=3)
        else:
            card_chip(d, chip, card, size=SMALL, style="dim" if card in where else "full", icon=False)
        words = CARD_WORDS[card]
        colour = TEXT
        if gone:
            words, colour = _("played: gone"), GONE
        elif card in where:
            words, colour = _("in cell {number}", number=where[card] + 1), HIGHLIGHT
        text(d, (x + 60, cy), words, SMALL, colour, anchor="lm", max_width=colw - 70)


def draw_private(view: dict, name: str) -> Image.Image:
    """The seat's own panel ("My program"): their puzzle, the programming frame (cards placed, the step in
    progress, hints revealed), the photo to rebuild, and every card with what it does and where it lies."""
    seat = view.get("seat", 0)
    if view.get("phase") == "side":
        return _private_side(view, name, seat)
    solo = view.get("solo")
    hand_h = 5 * 32
    height = HEADER_H + 12 + 28 + max(puzzle_size(PRIVATE_T), frame_size(PRIVATE_C)) + 14 + 30 + hand_h + 8
    img, d = canvas(height)
    status, mine = _private_status(view)
    title = _title(name)
    right = _right_note(view) if view.get("phase") != "side" else None
    if view.get("timer") and not view["locked"][seat]:
        right = _("sand timer: {seconds} s", seconds=round(view["timer"]["seconds"]))
    header(d, title, status, right=right, seat=seat, arrow=mine)
    y = HEADER_H + 12
    photo = view["photos"][seat]["photo"]
    pairs = view["puzzles"][seat]
    step = view.get("step")
    # the puzzle
    x = MARGIN + 6
    text(d, (x, y), _("YOUR PUZZLE"), SMALL, MUTED, bold=True)
    marks = {step["cell"]: HIGHLIGHT} if step else None
    draw_puzzle(img, d, (x + 2, y + 30), PRIVATE_T, photo, pairs, solved=bool(view["solved"][seat]), marks=marks)
    # the frame
    fx = x + puzzle_size(PRIVATE_T) + 26
    text(d, (fx, y), _("PROGRAM (runs 1 to 9)"), SMALL, MUTED, bold=True)
    hints = (solo or {}).get("hints") or []
    draw_frame(d, (fx, y + 30), PRIVATE_C, view.get("program"), step=step, hints=hints, size=LARGE)
    # the photo to rebuild, the level
    rx = fx + frame_size(PRIVATE_C) + 22
    rw = WIDTH - MARGIN - rx
    text(d, (rx, y), _("REBUILD"), SMALL, MUTED, bold=True)
    th = min(PRIVATE_THUMB, rw - 4)
    thumbnail(img, d, (rx + 2, y + 32), th, photo)
    ty = y + 32 + th + 10
    text(d, (rx, ty), view["photos"][seat]["name"], BODY, TEXT, bold=True, max_width=rw)
    ty += 30
    if solo is not None:
        lname, stars = _level(view)
        text(d, (rx, ty), lname, SMALL, TEXT, max_width=rw)
        ty += 26
        for k in range(stars):  # the level's stars on their own line (the column is narrow)
            star(d, (rx + 9 + k * 20, ty + 9), 8)
        ty += 24 if stars else 0
        if solo.get("par"):
            for line in wrap_text(_par(solo["par"]), SMALL, rw, lines=2):
                text(d, (rx, ty), line, SMALL, TEXT)
                ty += 24
            ty += 2
        if hints:
            text(d, (rx, ty), ngettext("{n} hint (gold)", "{n} hints (gold)", len(hints)), SMALL, HIGHLIGHT,
                 max_width=rw)
    elif view["rounds"] > 1:
        wins = view["wins"][seat]
        text(d, (rx, ty), ngettext("{n} round won", "{n} rounds won", wins), SMALL, TEXT, max_width=rw)
    # the cards
    hy = y + 30 + max(puzzle_size(PRIVATE_T), frame_size(PRIVATE_C)) + 14
    d.line((MARGIN, hy - 6, WIDTH - MARGIN, hy - 6), fill=PANEL_EDGE, width=2)
    note = _("each card once, at most one red card; a red card played is gone")
    text(d, (MARGIN + 6, hy), _("CARDS"), SMALL, MUTED, bold=True)
    text(d, (MARGIN + 90, hy), note, SMALL, MUTED, max_width=WIDTH - 2 * MARGIN - 96)
    _hand_rows(d, view, seat, (MARGIN + 6, hy + 28, WIDTH - MARGIN, hy + 28 + 5 * 32))
    return img


def _private_side(view: dict, name: str, seat: int) -> Image.Image:
    """Before the first turn (The Shock of Experience): the two sides to choose from, and why."""
    img, d = canvas(HEADER_H + 16 + 170 + 70)
    status, mine = _private_status(view)
    header(d, _title(name), status, seat=seat, arrow=mine)
    y = HEADER_H + 16
    _side_options(img, d, (MARGIN, y + 4, WIDTH / 2 + 20), 170, view["photos"][seat]["side"])
    x = WIDTH / 2 + 30
    lines = [_("The front, the polar region, is the easier picture: the rules advise it for your first games."),
             _("The back is a fisheye view of the region of the set in front of you.")]
    for para in lines:
        for line in wrap_text(para, BODY, WIDTH - MARGIN - x - 8, lines=4):  # German: four lines
            text(d, (x, y), line, BODY, TEXT)
            y += 30
        y += 14
    return img
