"""The public board, drawn for the phone: a row per player (or the solo puzzle and its level), the header's status
and the end banner."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from games.globe_twister.puzzle import (
    RED,
    SHORT_NAMES,
)
from i18n import _, here, ngettext, pgettext
from render.common import (
    COMPUTER_MARK_W,
    HIGHLIGHT,
    MARGIN,
    MUTED,
    P_BODY,
    P_HEADER_H,
    P_LARGE,
    P_SMALL,
    SKY,
    TEXT,
    canvas,
    font,
    name_room,
    panel,
    phone_header,
    played_by_computer,
    player_row,
    star,
    text,
    wrap_text,
)
from render.globe_twister.pieces import (
    CELL_FILL,
    GONE,
    TILE_BACK,
    TITLE,
    card_chip,
    draw_frame,
    draw_puzzle,
    frame_size,
    hourglass,
    padlock,
    photo_name_lines,
    puzzle_size,
    thumbnail,
)
from render.globe_twister.words import (
    WIDTH,
    _cards,
    _level,
    _par,
    _right_note,
    _status,
    _turns,
    _winner_text,
    _winning_seats,
    shown_run,
)

# --- the board ----------------------------------------------------------------------------------------------
T = 56
"""A puzzle's tile on the board, 2-5 players (22.4 px on the phone: a quarter turn reads from its picture; 60
would take the 5-player board's RGB PNG past 300 KB)."""
SOLO_T = 92
C = 44
"""A programming frame's cell after a run (its card's name at ``P_SMALL``)."""
TH = 104
"""The photo to rebuild, beside the puzzle."""
GAP = 8
NAME_H = 52
"""A block's name row and the gap under it."""
BLOCK_H = max(puzzle_size(T) + 20, NAME_H + frame_size(C, 3) + 10)
"""A player's block, whatever the phase: the board keeps its size all game (528-1152 px for 2-5 players)."""
SOLO_TOP_H = puzzle_size(SOLO_T) + 20
SOLO_LINE = 34


def _solo_lines(view: dict) -> list[tuple[str, tuple, bool]]:
    """The solo panel's lines under the puzzle: (words, colour, bold)."""
    solo = view["solo"]
    lines = []
    if solo.get("number"):
        lines.append((_("puzzle {number} of the level", number=solo["number"]), TEXT, False))
    if solo.get("par"):
        lines.append((_par(solo["par"]), TEXT, False))
    lines.append((_("red cards allowed") if solo.get("red") else _("red cards not allowed"), TEXT, False))
    lines.append((_("any turn of the photo counts"), TEXT, False))
    over = view["phase"] == "over"
    counts = {"turns": _turns(solo["turns"]), "cards": _cards(solo["cards"]),
              "hints": ngettext("{n} hint", "{n} hints", solo.get("hints_used") or 0)}
    if solo.get("hints_used"):
        played = _("played: {turns}, {cards}, {hints}", **counts) if over else \
            _("so far: {turns}, {cards}, {hints}", **counts)
    else:
        played = _("played: {turns}, {cards}", **counts) if over else _("so far: {turns}, {cards}", **counts)
    lines.append((played, TEXT if over else MUTED, False))
    par = solo.get("par")
    if over and solo.get("solved") and par:
        made = solo["turns"] <= par["turns"] and solo["cards"] <= par["cards"]
        lines.append((_("within par!") if made else _("over par"), HIGHLIGHT if made else TEXT, made))
    return lines


def _solo_info_h(view: dict) -> int:
    return 12 + 40 + SOLO_LINE * len(_solo_lines(view)) + 8


def board_height(view: dict) -> int:
    """The board's height: the header, a block per player (one, the solo puzzle and its panel); no footer (the
    message says the last move)."""
    n = view["players"]
    if n == 1:
        if view["phase"] == "side":
            return P_HEADER_H + GAP + NAME_H + 200 + 90 + GAP
        return P_HEADER_H + GAP + SOLO_TOP_H + GAP + _solo_info_h(view) + GAP
    return P_HEADER_H + GAP + n * BLOCK_H + (n - 1) * GAP + GAP


def _red_chips(d: ImageDraw.ImageDraw, view: dict, seat: int, x: float, cy: float) -> float:
    """The red cards the seat still holds (R1, R2), a crossed-out grey chip for each one played. Returns the right
    edge."""
    hand = view["hands"][seat]
    if not any(c in hand for c in RED) and view.get("solo") is not None and not view["solo"].get("red"):
        return x + text(d, (x, cy), _("no red cards"), P_SMALL, MUTED, anchor="lm")
    w, h = 58, 40
    for card in RED:
        box = (x, cy - h / 2, x + w, cy + h / 2)
        if card in hand:
            card_chip(d, box, card, size=P_SMALL, icon=False)
        else:
            d.rounded_rectangle(box, radius=6, fill=CELL_FILL, outline=GONE, width=2)
            text(d, ((box[0] + box[2]) / 2, cy), SHORT_NAMES[card], P_SMALL, GONE, anchor="mm", bold=True)
            d.line([(box[0] + 5, box[3] - 5), (box[2] - 5, box[1] + 5)], fill=GONE, width=4)
        x += w + 8
    return x


def _seat_status(view: dict, seat: int, run: dict | None) -> tuple[str, tuple]:
    """The word on a player's row: locked in, programming, rebuilt, left, watching."""
    if view["left"][seat]:
        return "", MUTED
    if view["phase"] == "side":
        side = view["photos"][seat]["side"]
        if side is None:
            return _("choosing a side"), HIGHLIGHT
        return (_("took the front") if side == "front" else _("took the back")), TEXT
    if seat not in view["active"]:
        return _("watching"), MUTED
    if view["phase"] == "over":
        if seat in _winning_seats(view):
            return pgettext("status", "wins"), HIGHLIGHT
        return (_("rebuilt"), TEXT) if view["solved"][seat] else ("", MUTED)
    if run is not None and run.get("solved"):
        return _("rebuilt!"), HIGHLIGHT
    if view["locked"][seat]:
        return _("locked in"), SKY
    return _("programming"), HIGHLIGHT


def _name_row(d: ImageDraw.ImageDraw, view: dict, names: list[str], seat: int, box, run: dict | None) -> None:
    """The shared player row (turn arrow and gold frame while they program), then on the right how they stand:
    "programming", "locked in" (a padlock; the sand timer too for who turned it), "rebuilt!", "wins" (a star),
    "watching", "(left)"; the word left out where it would clip the name below ``name_room``."""
    x0, y0, x1, y1 = box
    word, colour = _seat_status(view, seat, run)
    cy = (y0 + y1) / 2
    icons = []
    if word == "locked in":
        icons.append("lock")
        if view.get("starter") == seat:
            icons.append("timer")
    elif word in ("rebuilt!", "wins"):
        icons.append("star")
    word_w = font(P_SMALL, bold=True).getlength(here(word)) + 4 if word else 0
    right = x1 - 10 - word_w - 32 * len(icons)
    computer = played_by_computer(view, seat)
    least = name_room(names[seat], P_SMALL) + (COMPUTER_MARK_W * 1.25 if computer else 0)
    whole = font(P_BODY).getlength(here(names[seat])) + (COMPUTER_MARK_W * 1.25 if computer else 0)
    if word and (right - x0 - 8 - 66 < least or (colour == HIGHLIGHT and right - x0 - 8 - 66 < whole)):
        # a narrow row: the name keeps its room (all of it, beside a gold word: "programming", "choosing a side"
        # are the gold frame and turn arrow; "wins" the star and the header); the icons, the header (who plays,
        # who wins) or the sides drawn under it say what the word would
        word, word_w = "", 0
        right = x1 - 10 - 32 * len(icons)
    player_row(d, (x0, y0, x1, y1), seat, names[seat], name_width=right - x0 - 8, current=seat in view["to_act"],
               gone=view["left"][seat], computer=computer, size=P_BODY, k=1.25, least=P_SMALL)
    if word:
        text(d, (x1 - 10, cy), word, P_SMALL, colour, anchor="rm", bold=True)
    x = x1 - 10 - word_w
    for icon in icons:
        if icon == "lock":
            padlock(d, (x - 15, cy + 2), 12, SKY)
        elif icon == "timer":
            hourglass(d, (x - 15, cy), 13, SKY, HIGHLIGHT)
        else:
            star(d, (x - 15, cy), 14)
        x -= 32


def _run_words(run: dict) -> str:
    k = run["cards"]
    return ngettext("{n} card played", "{n} cards played", k) if k else _("no card played")


def _block(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, names: list[str], seat: int, box,
           run: dict | None) -> None:
    """One player, a row: the puzzle on the left; beside it the name row and, under it, the photo to rebuild with
    its name, the red cards left and the round wins (stage B) or the program just played (after a stage C: the
    run's animation, posted just before, shows the puzzle before it)."""
    x0, y0, x1, y1 = box
    panel(d, box)
    photo = view["photos"][seat]["photo"]
    pairs = run["after"] if run is not None else view["puzzles"][seat]
    solved = bool(run["solved"]) if run is not None else bool(view["solved"][seat])
    size = puzzle_size(T)
    px, py = x0 + 12, y0 + (y1 - y0 - size) / 2
    draw_puzzle(img, d, (px, py), T, photo, pairs, solved=solved)
    cx0, cx1 = px + size + 14, x1 - 10
    _name_row(d, view, names, seat, (cx0 - 4, y0 + 6, x1 - 6, y0 + NAME_H - 6), run)
    y = y0 + NAME_H
    if run is not None:  # the program, and how many cards it held
        draw_frame(d, (cx0, y), C, run["program"], numbers=False, size=P_SMALL, gap=3)
        tx = cx0 + frame_size(C, 3) + 14
        text(d, (tx, y), pgettext("label", "program"), P_SMALL, MUTED)
        for k, line in enumerate(wrap_text(_run_words(run), P_SMALL, cx1 - tx, lines=2)):
            text(d, (tx, y + 34 + 32 * k), line, P_SMALL, TEXT)
        _round_wins(d, view, seat, tx, y1 - 44, cx1)
        return
    th = min(TH, y1 - 10 - y)
    thumbnail(img, d, (cx0 + 2, y + 2), th, photo)
    tx = cx0 + th + 16
    name = here(view["photos"][seat]["name"])
    for line in photo_name_lines(photo, name, P_SMALL, cx1 - tx):
        text(d, (tx, y - 2), line, P_SMALL, TEXT, bold=True)
        y += 32
    _red_chips(d, view, seat, tx, y + 24)
    _round_wins(d, view, seat, tx, y + 52, cx1)


def _round_wins(d: ImageDraw.ImageDraw, view: dict, seat: int, x: float, y: float, x1: float) -> None:
    """The rounds the seat has won, in a game of several: "wins: 2", or a star and the number where the words do
    not fit."""
    if view["rounds"] <= 1:
        return
    wins = view["wins"][seat]
    said = _("wins: {n}", n=wins)
    if font(P_SMALL).getlength(here(said)) > x1 - x:
        star(d, (x + 13, y + 17), 13)
        text(d, (x + 32, y), str(wins), P_SMALL, TEXT, bold=True)
    else:
        text(d, (x, y), said, P_SMALL, TEXT)


def globe(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, fill, ink) -> None:
    """A globe with meridians and parallels: the back of a photo (a region's fisheye, not known before it is
    chosen)."""
    cx, cy = centre
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=ink, width=3)
    for k in (0.35, 0.75):
        d.ellipse((cx - r * k, cy - r, cx + r * k, cy + r), outline=ink, width=2)
    d.line([(cx, cy - r), (cx, cy + r)], fill=ink, width=2)
    for k in (-0.5, 0, 0.5):
        half = r * math.sqrt(1 - k * k)
        d.line([(cx - half, cy + k * r), (cx + half, cy + k * r)], fill=ink, width=2)


def _side_block(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, names: list[str], seat: int, box) -> None:
    """A player choosing a side (The Shock of Experience): the polar front or their set's back, each named beside
    it; the one they took in gold."""
    x0, y0, x1, y1 = box
    panel(d, box)
    _name_row(d, view, names, seat, (x0 + 4, y0 + 6, x1 - 6, y0 + NAME_H - 6), None)
    side = view["photos"][seat]["side"]
    if y1 - y0 < 250:  # a row among others: each side named beside it
        _side_options(img, d, (x0 + 12, y0 + NAME_H + 4, x1 - 10), 120, side, beside=True)
    else:  # alone: big, named under them
        _side_options(img, d, (x0, y0 + NAME_H + 8, x1), 200, side)


def _side_options(img: Image.Image, d: ImageDraw.ImageDraw, where: tuple[float, float, float], size: int,
                  side: str | None, *, beside: bool = False) -> None:
    """The two sides side by side, ``size`` px each, named under them (``beside``: to their right); the one taken
    framed in gold."""
    x0, y, x1 = where
    gap = (x1 - x0 - 2 * size) / 3 if not beside else 0
    each = (x1 - x0) / 2
    for k, (which, name) in enumerate((("front", _("Polar region")), ("back", _("your region")))):
        x = x0 + gap + k * (size + gap) if not beside else x0 + k * each
        if which == "front":
            thumbnail(img, d, (x, y), size, "polar")
        else:
            d.rectangle((x - 3, y - 3, x + size + 2, y + size + 2), fill=TILE_BACK)
            d.rectangle((x, y, x + size - 1, y + size - 1), fill=CELL_FILL)
            globe(d, (x + size / 2, y + size / 2), size * 0.36, (40, 70, 100), MUTED)
        if side == which:
            d.rectangle((x - 6, y - 6, x + size + 5, y + size + 5), outline=HIGHLIGHT, width=4)
        colour = HIGHLIGHT if side == which else TEXT
        title = pgettext("side", "front") if which == "front" else pgettext("side", "back")
        if beside:  # the words to the right: the side, then the photo's name on up to two lines
            tx, room = x + size + 12, each - size - 20
            text(d, (tx, y + 4), title, P_SMALL, colour, bold=True, max_width=room)
            lines = photo_name_lines("polar", name, P_SMALL, room) if which == "front" else \
                wrap_text(name, P_SMALL, room)
            for j, line in enumerate(lines):
                text(d, (tx, y + 38 + 32 * j), line, P_SMALL, colour)
        else:
            text(d, (x + size / 2, y + size + 12), title, P_SMALL, colour, anchor="ma", bold=True,
                 max_width=size + gap - 8)
            text(d, (x + size / 2, y + size + 44), name, P_SMALL, colour, anchor="ma", max_width=size + gap - 8)


def _solo_block(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, names: list[str], top: float,
                run: dict | None) -> None:
    """One player alone: the puzzle big and beside it the photo to rebuild (or the last turn's program); under
    them the level, its par and the rules it plays by, and the turns and cards so far."""
    seat = 0
    photo = view["photos"][seat]["photo"]
    pairs = run["after"] if run is not None else view["puzzles"][seat]
    solved = bool(run["solved"]) if run is not None else bool(view["solved"][seat])
    size = puzzle_size(SOLO_T)
    px, py = MARGIN + 8, top + 10
    draw_puzzle(img, d, (px, py), SOLO_T, photo, pairs, solved=solved)
    x, x1 = px + size + 20, WIDTH - MARGIN - 4
    y = top + 4
    if run is not None:
        c = 56
        text(d, (x, y), _("last program"), P_SMALL, MUTED)
        draw_frame(d, (x, y + 38), c, run["program"], numbers=False, size=P_SMALL, gap=3)
        words = _("{played}: rebuilt!", played=_run_words(run)) if run["solved"] else _run_words(run)
        for k, line in enumerate(wrap_text(words, P_SMALL, x1 - x, lines=2)):
            text(d, (x, y + 38 + frame_size(c, 3) + 8 + 32 * k), line, P_SMALL,
                 HIGHLIGHT if run["solved"] else TEXT)
    else:
        text(d, (x, y), pgettext("label", "rebuild"), P_SMALL, MUTED)
        th = min(x1 - x - 4, 190)
        thumbnail(img, d, (x + 2, y + 40), th, photo)
        ty = y + 40 + th + 10
        for line in photo_name_lines(photo, view["photos"][seat]["name"], P_SMALL, x1 - x):
            text(d, (x, ty), line, P_SMALL, TEXT, bold=True)
            ty += 32
        if view["locked"][seat]:
            padlock(d, (x + 12, ty + 20), 12, SKY)
            text(d, (x + 32, ty + 20), _("locked in"), P_SMALL, SKY, anchor="lm", bold=True)
        else:
            _red_chips(d, view, seat, x, ty + 22)
    # the level
    y0 = top + SOLO_TOP_H + GAP
    box = (MARGIN, y0, WIDTH - MARGIN, y0 + _solo_info_h(view))
    panel(d, box)
    x = MARGIN + 14
    y = y0 + 10
    name, stars = _level(view)
    w = text(d, (x, y), name, P_LARGE, TEXT, bold=True, max_width=box[2] - x - 20 - 30 * stars)
    for k in range(stars):
        star(d, (x + w + 24 + k * 30, y + 20), 13)
    y += 44
    for words, colour, bold in _solo_lines(view):
        if colour == HIGHLIGHT and bold:
            star(d, (x + 12, y + 17), 12)
            text(d, (x + 30, y), words, P_SMALL, colour, bold=True, max_width=box[2] - x - 40)
        else:
            text(d, (x, y), words, P_SMALL, colour, max_width=box[2] - x - 12)
        y += SOLO_LINE


def draw_board(view: dict, names: list[str], last: str | None = None, focus: dict | None = None) -> Image.Image:
    """The public board: each player's puzzle and how they stand (stage B), or each program just run (after a
    stage C, until someone locks in), or the end. ``last`` and ``focus`` are not used (the message says the last
    move)."""
    img, d = canvas(board_height(view), WIDTH)
    n = view["players"]
    if view["phase"] == "over":  # the gold banner only when someone won
        phone_header(d, TITLE, _winner_text(view, names), right=_("Game over"), winner=bool(_winning_seats(view)))
    else:
        phone_header(d, TITLE, _status(view, names), right=_right_note(view) or None)
    runs = shown_run(view) or {}
    top = P_HEADER_H + GAP
    if view["phase"] == "side" and n == 1:
        _side_block(img, d, view, names, 0, (MARGIN, top, WIDTH - MARGIN, top + NAME_H + 200 + 90))
        return img
    if n == 1:
        _solo_block(img, d, view, names, top, runs.get(0))
        return img
    for seat in range(n):
        y = top + seat * (BLOCK_H + GAP)
        box = (MARGIN, y, WIDTH - MARGIN, y + BLOCK_H)
        if view["phase"] == "side":
            _side_block(img, d, view, names, seat, box)
        else:
            _block(img, d, view, names, seat, box, runs.get(seat))
    return img
