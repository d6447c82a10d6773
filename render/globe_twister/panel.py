"""The private panel, "My program": the player's puzzle, the programming frame, the photo and the cards."""

from __future__ import annotations

from PIL import Image, ImageDraw

from games.globe_twister.puzzle import (
    CARDS,
    CELL_NAMES,
    RED,
    SHORT_NAMES,
)
from i18n import _, here, ngettext
from render.common import (
    HIGHLIGHT,
    MARGIN,
    MUTED,
    P_BODY,
    P_HEADER_H,
    P_SMALL,
    PANEL_EDGE,
    TEXT,
    canvas,
    font,
    phone_header,
    star,
    text,
    wrap_text,
)
from render.globe_twister.board import _side_options
from render.globe_twister.pieces import (
    CARD_WORDS,
    CELL_FILL,
    GONE,
    TITLE,
    card_chip,
    draw_frame,
    draw_puzzle,
    frame_size,
    photo_name_lines,
    puzzle_size,
    thumbnail,
)
from render.globe_twister.words import WIDTH, _level, _par, _right_note

# --- the private panel: "My program" ------------------------------------------------------------------------
PRIVATE_T = 60
"""The puzzle's tiles (24 px on the phone)."""
PRIVATE_C = 60
"""The programming frame's cells."""
PRIVATE_THUMB = 160
ROW = 42
"""A card's row in the list of cards."""
LINE = 34
_PHOTO_X = MARGIN + 6 + puzzle_size(PRIVATE_T) + 18 + frame_size(PRIVATE_C) + 18


def _title(name: str, right: str | None = None) -> str:
    """The panel's title: the game and whose program (a long name, beside the note on the right: "your
    program")."""
    room = WIDTH - 2 * MARGIN - 8 - (font(P_SMALL).getlength(here(right)) + 16 if right else 0)
    said = _("{game} - {name}'s program", game=TITLE, name=name)
    if len(name) <= 22 and font(P_SMALL).getlength(here(said)) <= room:
        return said
    said = _("{game} - your program", game=TITLE)
    return said if font(P_SMALL).getlength(here(said)) <= room else TITLE


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


def _hand_rows(d: ImageDraw.ImageDraw, view: dict, seat: int, x0: float, y: float, x1: float) -> None:
    """Every card, a row each: its chip and what it does; a card placed says where, a red card played is gone."""
    hand = view["hands"][seat]
    program = view.get("program") or [None] * 9
    where = {e["card"]: cell for cell, e in enumerate(program) if e}
    for card in _cards_listed(view, seat):
        cy = y + ROW / 2
        chip = (x0, cy - 18, x0 + 62, cy + 18)
        gone = card not in hand
        if gone:
            d.rounded_rectangle(chip, radius=6, fill=CELL_FILL, outline=GONE, width=2)
            text(d, ((chip[0] + chip[2]) / 2, cy), SHORT_NAMES[card], P_SMALL, GONE, anchor="mm", bold=True)
            d.line([(chip[0] + 5, chip[3] - 5), (chip[2] - 5, chip[1] + 5)], fill=GONE, width=4)
        else:
            card_chip(d, chip, card, size=P_SMALL, style="dim" if card in where else "full", icon=False)
        words = CARD_WORDS[card]
        colour = TEXT
        if gone:
            words, colour = _("played: gone"), GONE
        elif card in where:
            words, colour = _("in cell {number}", number=where[card] + 1), HIGHLIGHT
        text(d, (x0 + 76, cy), words, P_SMALL, colour, anchor="lm", max_width=x1 - x0 - 76)
        y += ROW


def _cards_listed(view: dict, seat: int) -> list[str]:
    """The cards the list shows: every card but the red ones where a solo level does not allow them."""
    solo = view.get("solo")
    hand = view["hands"][seat]
    return [c for c in CARDS if c not in RED or (solo is None or solo.get("red")) or c in hand]


def _info_lines(view: dict, seat: int) -> list[tuple[str, tuple, int]]:
    """The lines under the puzzle: (words, colour, stars drawn after them): the solo level (its stars), its par,
    the hints revealed; in a game of several rounds, the rounds won."""
    solo = view.get("solo")
    lines: list[tuple[str, tuple, int]] = []
    if solo is not None:
        name, stars = _level(view)
        lines.append((name, TEXT, stars))
        if solo.get("par"):
            lines.append((_par(solo["par"]), TEXT, 0))
        hints = solo.get("hints") or []
        if hints:
            lines.append((ngettext("{n} hint (gold)", "{n} hints (gold)", len(hints)), HIGHLIGHT, 0))
    elif view["rounds"] > 1:
        wins = view["wins"][seat]
        lines.append((ngettext("{n} round won", "{n} rounds won", wins), TEXT, 0))
    return lines


def _top_height(view: dict, seat: int) -> int:
    """The puzzle, the frame and the photo with its name (one line or two), under their labels."""
    name = photo_name_lines(view["photos"][seat]["photo"], view["photos"][seat]["name"], P_SMALL,
                            WIDTH - MARGIN - _PHOTO_X)
    return 38 + max(frame_size(PRIVATE_C), PRIVATE_THUMB + 10 + 32 * len(name)) + 12


def _private_height(view: dict, seat: int) -> int:
    top = P_HEADER_H + 12 + _top_height(view, seat)
    return top + LINE * len(_info_lines(view, seat)) + 16 + 38 + 2 * 32 + 6 + ROW * len(_cards_listed(view, seat)) + 8


def draw_private(view: dict, name: str) -> Image.Image:
    """The seat's own panel ("My program"): their puzzle beside the programming frame (cards placed, the step in
    progress, hints revealed) and the photo to rebuild; the level or the rounds won; every card with what it does
    and where it lies."""
    seat = view.get("seat", 0)
    if view.get("phase") == "side":
        return _private_side(view, name, seat)
    solo = view.get("solo")
    img, d = canvas(_private_height(view, seat), WIDTH)
    status, mine = _private_status(view)
    right = _right_note(view) if view.get("phase") != "side" else None
    if view.get("timer") and not view["locked"][seat]:
        right = (_("sand timer running") if view.get("paced") else
                 _("sand timer: {seconds} s", seconds=round(view["timer"]["seconds"])))
    phone_header(d, _title(name, right), status, right=right, seat=seat, arrow=mine)
    y = P_HEADER_H + 12
    photo = view["photos"][seat]["photo"]
    step = view.get("step")
    # the puzzle
    x = MARGIN + 6
    text(d, (x, y), _("YOUR PUZZLE"), P_SMALL, MUTED, bold=True)
    marks = {step["cell"]: HIGHLIGHT} if step else None
    draw_puzzle(img, d, (x + 2, y + 40), PRIVATE_T, photo, view["puzzles"][seat], solved=bool(view["solved"][seat]),
                marks=marks)
    # the frame
    fx = x + puzzle_size(PRIVATE_T) + 18
    text(d, (fx, y), _("PROGRAM"), P_SMALL, MUTED, bold=True)
    hints = (solo or {}).get("hints") or []
    draw_frame(d, (fx, y + 38), PRIVATE_C, view.get("program"), step=step, hints=hints, size=P_BODY)
    # the photo to rebuild
    rx = _PHOTO_X
    rw = WIDTH - MARGIN - rx
    text(d, (rx, y), _("REBUILD"), P_SMALL, MUTED, bold=True)
    th = min(PRIVATE_THUMB, rw - 4)
    thumbnail(img, d, (rx + 2, y + 40), th, photo)
    ty = y + 40 + th + 8
    for line in photo_name_lines(photo, view["photos"][seat]["name"], P_SMALL, rw):
        text(d, (rx, ty), line, P_SMALL, TEXT, bold=True)
        ty += 32
    # the level, the rounds won
    y += _top_height(view, seat)
    for words, colour, stars in _info_lines(view, seat):
        w = text(d, (x, y), words, P_SMALL, colour, max_width=WIDTH - MARGIN - x - 30 * stars - 20)
        for k in range(stars):
            star(d, (x + w + 22 + k * 28, y + 17), 12)
        y += LINE
    # the cards
    y += 8
    d.line((MARGIN, y, WIDTH - MARGIN, y), fill=PANEL_EDGE, width=2)
    y += 8
    text(d, (x, y), _("CARDS"), P_SMALL, MUTED, bold=True)
    y += 38
    note = _("each card once, at most one red card; a red card played is gone")
    for line in wrap_text(note, P_SMALL, WIDTH - MARGIN - x, lines=2):
        text(d, (x, y), line, P_SMALL, MUTED)
        y += 32
    _hand_rows(d, view, seat, x, y + 6, WIDTH - MARGIN)
    return img


def _private_side(view: dict, name: str, seat: int) -> Image.Image:
    """Before the first turn (The Shock of Experience): the two sides to choose from, and why."""
    lines = [wrap_text(para, P_BODY, WIDTH - 2 * MARGIN - 8, lines=4) for para in (
        _("The front, the polar region, is the easier picture: the rules advise it for your first games."),
        _("The back is a fisheye view of the region of the set in front of you."))]
    img, d = canvas(P_HEADER_H + 16 + 200 + 90 + sum(36 * len(p) + 14 for p in lines) + 8, WIDTH)
    status, mine = _private_status(view)
    phone_header(d, _title(name), status, seat=seat, arrow=mine)
    y = P_HEADER_H + 16
    _side_options(img, d, (MARGIN, y + 4, WIDTH - MARGIN), 200, view["photos"][seat]["side"])
    y += 200 + 90
    for para in lines:
        for line in para:
            text(d, (MARGIN + 4, y), line, P_BODY, TEXT)
            y += 36
        y += 14
    return img
