"""The Globe Twister pictures (docs/rendering.md, "Globe Twister"): the public board (every player's scrambled
puzzle, who has locked in, the sand timer; after a stage C each program with the puzzle before and after), the
private panel ("My program": the puzzle, the photo to rebuild, the programming frame with the cards placed and
the step in progress, the cards in hand, solo level, par and hints) and, for each program run, an animated GIF.

The photos are drawn by code (``render.photos``): each tile shows by itself which way is up, so a turned tile
reads at a glance. Cards carry their name (G1-G3, B1-B5, R1, R2) and their arrow as well as their colour (green
turns, blue moves, red sends home), so colour is never the only cue. Gold marks what is being chosen (the cell
being programmed, the players still programming, the card acting in an animation); sky blue what the last card
or run changed.
"""

from __future__ import annotations

import copy
import io
import math
import random
from collections.abc import Iterator, Sequence

from PIL import Image, ImageChops, ImageDraw

from games.globe_twister.puzzle import (
    CARD_NAMES,
    CARDS,
    CELL_NAMES,
    DIRECTIONS,
    RED,
    SHORT_NAMES,
    STEP,
    TURN,
    defined,
    move_of,
)
from games.globe_twister.rules import PHOTO_NAMES
from render import photos
from render.common import (
    BAR,
    BLACK,
    BLUE,
    BODY,
    FOOTER_H,
    GREEN,
    HEADER_H,
    HIGHLIGHT,
    LARGE,
    MARGIN,
    MUTED,
    PANEL,
    PANEL_EDGE,
    SKY,
    SMALL,
    STATUS,
    TEXT,
    VERMILLION,
    WHITE,
    WIDTH,
    canvas,
    font,
    footer,
    header,
    join_fit,
    join_names,
    panel,
    player_row,
    plural,
    seat_mark,
    star,
    text,
    wrap_text,
)

GAME = "globe_twister"
TITLE = "Globe Twister"

CARD_FILL = {"g": GREEN, "b": BLUE, "r": VERMILLION}
"""Green turns a tile, blue moves tiles, red sends a tile home; each card also shows its name and arrow."""
CARD_DIM = {k: tuple(round(c * 0.4 + p * 0.6) for c, p in zip(v, PANEL, strict=True)) for k, v in CARD_FILL.items()}
"""A card already placed in the frame (in the hand list) or already played (in an animation)."""
CELL_FILL = (44, 48, 59)
"""An empty cell of the programming frame."""
GOLD_CELL = (92, 84, 40)
"""The cell being programmed."""
TILE_BACK = (16, 17, 21)
GONE = (96, 100, 112)
COLOURS = (*CARD_FILL.values(), *CARD_DIM.values(), CELL_FILL, GOLD_CELL, TILE_BACK, GONE)
"""The flat colours this game adds to ``common.THEME``. The game has no ``palette_samples``: its photos' sky
gradients band visibly under a fixed 256-colour palette (mean error ~2 levels, 4x the other games'), so its
images are sent as RGB PNGs (docs/rendering.md, "Globe Twister")."""

GAP = 2
"""Between the tiles of a puzzle (px)."""
CARD_WORDS = {
    "g1": "turn 90 degrees clockwise",
    "g2": "turn 90 degrees counter-clockwise",
    "g3": "turn 180 degrees",
    "b1": "swap with the neighbour",
    "b2": "swap with the diagonal one",
    "b3": "swap opposite corners",
    "b4": "swap opposite edges",
    "b5": "to the other end of its line",
    "r1": "to its own cell",
    "r2": "to its own cell, upright",
}
"""The cards in a few words (``CARD_NAMES`` without the colour and number, which the chip shows)."""
assert set(CARD_WORDS) == set(CARD_NAMES)

_VEC = {d: (dc, dr) for d, (dr, dc) in STEP.items()}


# --- small pieces -------------------------------------------------------------------------------------------
def _unit(direction: str) -> tuple[float, float]:
    dx, dy = _VEC[direction]
    n = math.hypot(dx, dy)
    return dx / n, dy / n


def arrow(d: ImageDraw.ImageDraw, centre: tuple[float, float], direction: str, length: float, fill, *,
          width: float | None = None, double: bool = False) -> None:
    """A straight arrow through ``centre`` pointing ``direction`` (n, ne, e...): a shaft and a head (both ends
    with ``double``)."""
    ux, uy = _unit(direction)
    cx, cy = centre
    w = width or max(3.0, length * 0.14)
    head = min(max(w * 2.4, length * 0.34), length * (0.42 if double else 0.55))
    a = (cx - ux * length / 2, cy - uy * length / 2)
    b = (cx + ux * length / 2, cy + uy * length / 2)
    a2 = (a[0] + ux * head * 0.7, a[1] + uy * head * 0.7) if double else a
    b2 = (b[0] - ux * head * 0.7, b[1] - uy * head * 0.7)
    d.line([a2, b2], fill=fill, width=round(w))
    px, py = -uy, ux
    for tip, s in ((b, 1),) + (((a, -1),) if double else ()):
        base = (tip[0] - s * ux * head, tip[1] - s * uy * head)
        d.polygon([tip, (base[0] + px * head * 0.55, base[1] + py * head * 0.55),
                   (base[0] - px * head * 0.55, base[1] - py * head * 0.55)], fill=fill)


def arrow_between(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill, *, width: float = 6,
                  head: float = 18, double: bool = False, outline=None) -> None:
    """An arrow from ``a`` to ``b`` (heads at both ends with ``double``), with a dark outline to stand out on a
    photo."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(dx, dy) or 1
    ux, uy = dx / n, dy / n
    px, py = -uy, ux
    ends = [(b, 1)] + ([(a, -1)] if double else [])
    s0 = (a[0] + ux * head * 0.8, a[1] + uy * head * 0.8) if double else a
    s1 = (b[0] - ux * head * 0.8, b[1] - uy * head * 0.8)
    for colour, extra in (((outline, 4),) if outline else ()) + ((fill, 0),):
        d.line([s0, s1], fill=colour, width=round(width + extra))
        for tip, s in ends:
            base = (tip[0] - s * ux * head, tip[1] - s * uy * head)
            grow = extra * 0.6
            d.polygon([(tip[0] + s * ux * grow, tip[1] + s * uy * grow),
                       (base[0] + px * (head * 0.6 + grow) - s * ux * grow, base[1] + py * (head * 0.6 + grow)
                        - s * uy * grow),
                       (base[0] - px * (head * 0.6 + grow) - s * ux * grow, base[1] - py * (head * 0.6 + grow)
                        - s * uy * grow)], fill=colour)


def turn_icon(d: ImageDraw.ImageDraw, centre: tuple[float, float], card: str, r: float, fill) -> None:
    """A curved arrow: a quarter turn clockwise (G1), counter-clockwise (G2), a half turn (G3)."""
    cx, cy = centre
    w = max(3, round(r * 0.3))
    sweep = {"g1": (200, 470), "g2": (70, 340), "g3": (180, 360)}[card]
    start, end = sweep
    d.arc((cx - r, cy - r, cx + r, cy + r), start, end, fill=fill, width=w)
    clockwise = card != "g2"
    a = math.radians(end if clockwise else start)
    tip_dir = a + (math.pi / 2 if clockwise else -math.pi / 2)
    tx, ty = cx + r * math.cos(a), cy + r * math.sin(a)
    ux, uy = math.cos(tip_dir), math.sin(tip_dir)
    h = r * 0.75
    tip = (tx + ux * h * 0.6, ty + uy * h * 0.6)
    base = (tx - ux * h * 0.4, ty - uy * h * 0.4)
    px, py = -uy, ux
    d.polygon([tip, (base[0] + px * h * 0.55, base[1] + py * h * 0.55),
               (base[0] - px * h * 0.55, base[1] - py * h * 0.55)], fill=fill)
    if card == "g3":  # the second half: both ends' heads
        a = math.radians(start)
        tx, ty = cx + r * math.cos(a), cy + r * math.sin(a)
        ux, uy = math.cos(a - math.pi / 2), math.sin(a - math.pi / 2)
        tip = (tx + ux * h * 0.6, ty + uy * h * 0.6)
        base = (tx - ux * h * 0.4, ty - uy * h * 0.4)
        px, py = -uy, ux
        d.polygon([tip, (base[0] + px * h * 0.55, base[1] + py * h * 0.55),
                   (base[0] - px * h * 0.55, base[1] - py * h * 0.55)], fill=fill)


def card_direction(cell: int | None, card: str, direction: str | None) -> tuple[str | None, bool]:
    """The way a card's arrow points in ``cell`` and whether it is drawn double-headed: B1, B2, B5 one head, the
    way their arrow points (it is the player's choice, so it must read at a glance); B3, B4 double, towards the
    opposite corner or edge (their swap is fixed by the cell); others none."""
    if card in ("b1", "b2", "b5"):
        return direction, False
    if card in ("b3", "b4") and cell is not None and cell != 4:
        r, c = divmod(cell, 3)
        name = {(-1, 0): "n", (1, 0): "s", (0, -1): "w", (0, 1): "e", (-1, 1): "ne", (1, 1): "se",
                (1, -1): "sw", (-1, -1): "nw"}.get((1 - r, 1 - c))
        if (card == "b3") == (name in ("ne", "se", "sw", "nw")):  # a B3 on an edge, a B4 on a corner: no effect
            return name, True
    return None, False


def card_chip(d: ImageDraw.ImageDraw, box, card: str, direction: str | None = None, *, cell: int | None = None,
              style: str = "full", size: int = BODY, outline=None, icon: bool = True) -> None:
    """A card: its colour, its name (G1...) and (``icon``) its arrow or turn. ``style``: "full", "dim" (placed
    or played), "ghost" (a hint: dashed gold outline, no fill)."""
    x0, y0, x1, y1 = box
    kind = card[0]
    w, h = x1 - x0, y1 - y0
    if style == "ghost":
        _dashed_rect(d, box, HIGHLIGHT, 3, 9)
        ink = HIGHLIGHT
    else:
        fill = CARD_FILL[kind] if style == "full" else CARD_DIM[kind]
        d.rounded_rectangle(box, radius=max(4, round(min(w, h) * 0.14)), fill=fill, outline=outline or BLACK,
                            width=2 if outline is None else 3)
        ink = WHITE if style == "full" else TEXT
    label = SHORT_NAMES[card]
    way, double = card_direction(cell, card, direction) if icon else (None, False)
    if way is None and not (icon and card in TURN):
        text(d, ((x0 + x1) / 2, (y0 + y1) / 2), label, size, ink, anchor="mm", bold=True)
        return
    lw = font(size).getlength(label)
    if w >= h * 1.35:  # wide: the name left, the arrow right
        gx = x0 + (w - lw - h * 0.7) / 2
        text(d, (gx, (y0 + y1) / 2), label, size, ink, anchor="lm", bold=True)
        c = (gx + lw + h * 0.42, (y0 + y1) / 2)
        room = (h * 0.6, h * 0.6)
    elif h < 48:  # small: the name high, the arrow low
        text(d, ((x0 + x1) / 2, y0 + h * 0.3), label, size, ink, anchor="mm", bold=True)
        c = ((x0 + x1) / 2, y0 + h * 0.77)
        room = (w * 0.72, h * 0.3)
    else:  # the name on top, the arrow under it
        text(d, ((x0 + x1) / 2, y0 + h * 0.3), label, size, ink, anchor="mm", bold=True)
        c = ((x0 + x1) / 2, y0 + h * 0.7)
        room = (w * 0.6, h * 0.42)
    if way is not None:
        ux, uy = _unit(way)
        length = min(room[0] / abs(ux) if ux else 1e9, room[1] / abs(uy) if uy else 1e9)
        arrow(d, c, way, length, ink, width=max(2.5, min(room) * 0.16), double=double)
    else:
        turn_icon(d, c, card, min(room) * 0.42, ink)


def _dashed_rect(d: ImageDraw.ImageDraw, box, colour, width: int = 3, dash: int = 8) -> None:
    x0, y0, x1, y1 = box
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        length = math.hypot(b[0] - a[0], b[1] - a[1])
        n = max(1, int(length // (2 * dash)))
        for k in range(n):
            t0, t1 = (2 * k) / (2 * n), (2 * k + 1) / (2 * n)
            d.line([(a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0),
                    (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)], fill=colour, width=width)


def padlock(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, fill) -> None:
    """A padlock: "locked in" (next to the words)."""
    cx, cy = centre
    d.arc((cx - r * 0.6, cy - r * 1.15, cx + r * 0.6, cy + r * 0.05), 180, 360, fill=fill, width=max(2, round(r * 0.28)))
    d.line([(cx - r * 0.6, cy - r * 0.55), (cx - r * 0.6, cy - r * 0.1)], fill=fill, width=max(2, round(r * 0.28)))
    d.line([(cx + r * 0.6, cy - r * 0.55), (cx + r * 0.6, cy - r * 0.1)], fill=fill, width=max(2, round(r * 0.28)))
    d.rounded_rectangle((cx - r * 0.9, cy - r * 0.2, cx + r * 0.9, cy + r), radius=max(2, r * 0.2), fill=fill)


def hourglass(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, fill, sand=None) -> None:
    """The sand timer."""
    cx, cy = centre
    d.line([(cx - r * 0.75, cy - r), (cx + r * 0.75, cy - r)], fill=fill, width=max(2, round(r * 0.22)))
    d.line([(cx - r * 0.75, cy + r), (cx + r * 0.75, cy + r)], fill=fill, width=max(2, round(r * 0.22)))
    d.polygon([(cx - r * 0.6, cy - r * 0.9), (cx + r * 0.6, cy - r * 0.9), (cx + r * 0.08, cy),
               (cx + r * 0.6, cy + r * 0.9), (cx - r * 0.6, cy + r * 0.9), (cx - r * 0.08, cy)], outline=fill,
              width=max(2, round(r * 0.16)))
    if sand is not None:
        d.polygon([(cx - r * 0.45, cy + r * 0.8), (cx + r * 0.45, cy + r * 0.8), (cx, cy + r * 0.25)], fill=sand)
        d.polygon([(cx - r * 0.3, cy - r * 0.6), (cx + r * 0.3, cy - r * 0.6), (cx, cy - r * 0.2)], fill=sand)


def tick(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, fill) -> None:
    cx, cy = centre
    d.line([(cx - r, cy), (cx - r * 0.3, cy + r * 0.7), (cx + r, cy - r * 0.7)], fill=fill,
           width=max(3, round(r * 0.4)), joint="curve")


# --- puzzles and frames -------------------------------------------------------------------------------------
def puzzle_size(t: int) -> int:
    return 3 * t + 2 * GAP


def draw_puzzle(img: Image.Image, d: ImageDraw.ImageDraw, xy: tuple[float, float], t: int, photo: str,
                pairs: Sequence[Sequence[int]] | None, *, solved: bool = False, marks: dict | None = None) -> None:
    """A 3x3 puzzle at ``xy`` (its top left), tiles ``t`` px, each tile turned as in ``pairs`` (None: face down).
    ``solved`` frames it in gold; ``marks`` {cell: colour} frames single cells."""
    x, y = round(xy[0]), round(xy[1])
    size = puzzle_size(t)
    d.rectangle((x - 3, y - 3, x + size + 2, y + size + 2), fill=TILE_BACK)
    for cell in range(9):
        r, c = divmod(cell, 3)
        tx, ty = x + c * (t + GAP), y + r * (t + GAP)
        if pairs is None:
            d.rectangle((tx, ty, tx + t - 1, ty + t - 1), fill=CELL_FILL)
            continue
        tile, rot = pairs[cell]
        img.paste(photos.tile(photo, t, tile, rot), (tx, ty))
    if solved:
        d.rectangle((x - 5, y - 5, x + size + 4, y + size + 4), outline=HIGHLIGHT, width=4)
    for cell, colour in (marks or {}).items():
        cell_frame(d, (x, y), t, cell, colour)


def cell_box(xy: tuple[float, float], t: int, cell: int) -> tuple[float, float, float, float]:
    r, c = divmod(cell, 3)
    x, y = xy[0] + c * (t + GAP), xy[1] + r * (t + GAP)
    return x, y, x + t - 1, y + t - 1


def cell_centre(xy: tuple[float, float], t: int, cell: int) -> tuple[float, float]:
    x0, y0, x1, y1 = cell_box(xy, t, cell)
    return (x0 + x1) / 2, (y0 + y1) / 2


def cell_frame(d: ImageDraw.ImageDraw, xy, t: int, cell: int, colour, width: int | None = None) -> None:
    """A frame round one cell of a puzzle, with a dark edge so it stands out on any photo."""
    w = width or max(3, round(t / 22))
    x0, y0, x1, y1 = cell_box(xy, t, cell)
    d.rectangle((x0 - 1, y0 - 1, x1 + 1, y1 + 1), outline=BLACK, width=w + 2)
    d.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=colour, width=w)


def thumbnail(img: Image.Image, d: ImageDraw.ImageDraw, xy: tuple[float, float], size: int, photo: str) -> None:
    """The upright photo (the one to rebuild), ``size`` px square, framed."""
    x, y = round(xy[0]), round(xy[1])
    d.rectangle((x - 3, y - 3, x + size + 2, y + size + 2), fill=TILE_BACK)
    img.paste(photos.photo(photo, size), (x, y))


def draw_frame(d: ImageDraw.ImageDraw, xy: tuple[float, float], c: int, program: Sequence | None, *,
               step: dict | None = None, hints: Sequence[dict] = (), active: int | None = None,
               done: Sequence[int] = (), numbers: bool = True, size: int = BODY, gap: int = 4) -> None:
    """The 3x3 programming frame: each cell's card (its name and arrow) or its number when empty. ``step``: the
    cell being programmed (gold) and the card whose arrow is being chosen (its possible arrows dashed); ``hints``:
    cards of a solution revealed (gold dashed); ``active``: the cell acting now (gold), ``done``: cells already
    played (dim)."""
    x, y = xy
    step_cell = step.get("cell") if step else None
    hint_at = {h["cell"]: h for h in hints}
    choosing = None
    for cell in range(9):
        r, col = divmod(cell, 3)
        box = (x + col * (c + gap), y + r * (c + gap), x + col * (c + gap) + c, y + r * (c + gap) + c)
        entry = program[cell] if program else None
        gold = cell == step_cell or cell == active
        d.rounded_rectangle(box, radius=6, fill=GOLD_CELL if gold else CELL_FILL,
                            outline=HIGHLIGHT if gold else PANEL_EDGE, width=4 if gold else 2)
        inset = 4 if c >= 48 else 2
        inner = (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset)
        if step and cell == step_cell and step.get("card"):
            card_chip(d, inner, step["card"], None, style="full", size=size)
            choosing = (box, step["card"])
            continue
        if entry is not None:
            style = "dim" if cell in done else "full"
            works = defined(cell, entry["card"], entry.get("dir"))
            card_chip(d, inner, entry["card"], entry.get("dir"), cell=cell, style=style if works else "dim",
                      size=size, outline=HIGHLIGHT if cell == active else None)
            if not works:  # placed where it does nothing (the card is still used): struck through
                d.line([(inner[0] + 3, inner[3] - 3), (inner[2] - 3, inner[1] + 3)], fill=BLACK, width=5)
                d.line([(inner[0] + 3, inner[3] - 3), (inner[2] - 3, inner[1] + 3)], fill=WHITE, width=2)
                if c >= 70:
                    text(d, ((box[0] + box[2]) / 2, box[3] - 6), "no effect", SMALL, WHITE, anchor="md")
        elif cell in hint_at:
            h = hint_at[cell]
            card_chip(d, inner, h["card"], h.get("dir"), cell=cell, style="ghost", size=size)
        elif numbers:
            text(d, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), str(cell + 1), size,
                 HIGHLIGHT if gold else MUTED, anchor="mm")
        if cell in hint_at and entry is not None and c >= 60:  # a hint under a placed card: a gold corner
            d.polygon([(box[2] - 16, box[1] + 2), (box[2] - 2, box[1] + 2), (box[2] - 2, box[1] + 16)],
                      fill=HIGHLIGHT)
    if choosing is not None:  # the arrows on offer, at the card's edges (drawn over the neighbours)
        box, card = choosing
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        for way in DIRECTIONS[card]:
            ux, uy = _unit(way)
            reach = c * 0.5 - (8 if way in ("n", "e", "s", "w") else 2)
            tip = (cx + ux * reach, cy + uy * reach)
            ok = defined(step_cell, card, way)  # an arrow off the grid: grey (it does nothing there)
            arrow(d, tip, way, 32, BLACK, width=10)
            arrow(d, tip, way, 28, HIGHLIGHT if ok else MUTED, width=6)


def frame_size(c: int, gap: int = 4) -> int:
    return 3 * c + 2 * gap


# --- the view, in words -------------------------------------------------------------------------------------
def _level(view: dict) -> tuple[str, int]:
    """The solo level's name without its stars, and how many stars (drawn, the font has none)."""
    solo = view.get("solo") or {}
    name = solo.get("level_name") or "Practice"
    return name.replace("★", "").strip(), name.count("★")


def _par(par: dict | None) -> str:
    if not par:
        return ""
    return f"par {plural(par['turns'], 'turn')}, {plural(par['cards'], 'card')}"


def winners_of(view: dict) -> list[int]:
    if view.get("winners") is not None:
        return list(view["winners"])
    wins = view.get("wins") or []
    if not wins or max(wins) == 0:
        return []
    best = max(w for s, w in enumerate(wins) if not view["left"][s])
    return [s for s, w in enumerate(wins) if w == best and not view["left"][s]]


def _winner_text(view: dict, names: list[str]) -> str:
    solo = view.get("solo")
    if solo is not None:
        if not solo.get("solved"):
            return "Not rebuilt this time"
        return f"Rebuilt in {plural(solo['turns'], 'turn')} with {plural(solo['cards'], 'card')}!"
    seats = [s for s in winners_of(view) if view["wins"][s] > 0]
    if not seats:
        return "Nobody rebuilt a photo"
    tail = " wins!" if len(seats) == 1 else " tie!"
    if view["rounds"] > 1:
        tail = f" {'wins' if len(seats) == 1 else 'tie'} with {plural(view['wins'][seats[0]], 'round')}!"
    room = WIDTH - 120 - font(STATUS).getlength(tail)
    return join_fit([names[s] for s in seats], STATUS, room) + tail


def _status(view: dict, names: list[str]) -> str:
    phase = view["phase"]
    if phase == "program" and shown_run(view) is not None:
        played = view["last_run"]["turn"]
        return f"Turn {played} played, nobody rebuilt: program turn {view['turn']}" if view["players"] > 1 else \
            f"Turn {played} played: program turn {view['turn']}, then lock in"
    to_act = view["to_act"]
    n = view["players"]
    if phase == "side":
        need = ": choose the polar front or your region's back"
        if len(to_act) <= 2:
            return join_names([names[s] for s in to_act]) + need if font(STATUS).getlength(
                join_names([names[s] for s in to_act]) + need) <= WIDTH - 2 * MARGIN - 20 else "Choose" + need[8:]
        return "Choose a side" + need[7:]
    solo = view.get("solo") is not None
    locked = [s for s in view["active"] if view["locked"][s] and not view["left"][s]]
    if view.get("timer"):
        secs = round(view["timer"]["seconds"])
        still = len(to_act)
        return f"Sand timer running ({secs} s): {still} still programming"
    if solo:
        return "Program your cards, then lock in"
    if view.get("decider"):
        need = " play again: program, then lock in"
        room = WIDTH - 2 * MARGIN - 20 - font(STATUS).getlength(need)
        return join_fit([names[s] for s in view["active"]], STATUS, room) + need
    if not locked:
        return "Everyone: program, then lock in" if not view.get("no_timer") else \
            "Everyone: program; the first lock-in stops all"
    return f"{len(locked)} of {n} locked in"


def _right_note(view: dict) -> str:
    solo = view.get("solo")
    turn = view.get("turn") or 1
    if solo is not None:
        name, _ = _level(view)
        number = f" #{solo['number']}" if solo.get("number") else ""
        return f"{name}{number} - turn {turn}"
    parts = []
    if view["rounds"] > 1:
        parts.append(f"Round {view['round']} of {view['rounds']}")
    if view["phase"] != "side":
        parts.append(f"turn {turn}" if parts else f"Turn {turn}")
    return ", ".join(parts)


def shown_run(view: dict) -> dict | None:
    """The last stage C, {seat: run}, when the board should show it: the game is over, or nobody has locked in
    since it ran and the puzzles are still as it left them (not a new round's scramble)."""
    last = view.get("last_run")
    if not last:
        return None
    runs = {r["seat"]: r for r in last["runs"]}
    if view["phase"] == "over":
        return runs
    if view["phase"] != "program" or any(view["locked"]):
        return None
    puzzles = view["puzzles"]
    if all(puzzles[s] is not None and [list(p) for p in puzzles[s]] == [list(p) for p in r["after"]]
           for s, r in runs.items()):
        return runs
    return None


# --- the board ----------------------------------------------------------------------------------------------
LAYOUT = {
    # columns, rows, where a block's details go; stage B: puzzle tile, photo size; a run: puzzle after, frame
    # cell, puzzle before
    2: {"cols": 2, "rows": 1, "mode": "below", "t": 104, "thumb": 110, "rt": 104, "c": 50, "tb": 46},
    3: {"cols": 3, "rows": 1, "mode": "below", "t": 78, "thumb": 90, "rt": 78, "c": 40, "tb": 32},
    4: {"cols": 2, "rows": 2, "mode": "right", "t": 82, "thumb": 88, "rt": 72, "c": 40, "tb": 20},
    5: {"cols": 2, "rows": 3, "mode": "right", "t": 47, "thumb": 84, "rt": 46, "c": 40, "tb": 26},
}
"""Per player count (1 is the solo layout). Every block fits the 800 px width and the board stays <= 800 tall."""
NAME_H = 46
"""A block's name row and the gap under it."""


def _block_height(n: int, run: bool) -> int:
    p = LAYOUT[n]
    if p["mode"] == "right":
        return {4: 306, 5: 200}[n]
    if run:
        return NAME_H + puzzle_size(p["rt"]) + 12 + 26 + max(frame_size(p["c"], 3), puzzle_size(p["tb"])) + 38
    return NAME_H + puzzle_size(p["t"]) + 12 + p["thumb"] + 12


SOLO_H = 470


def board_height(view: dict) -> int:
    n = view["players"]
    if n == 1:
        return HEADER_H + 8 + (290 if view["phase"] == "side" else SOLO_H) + 8 + FOOTER_H
    p = LAYOUT[min(n, 5)]
    h = _block_height(min(n, 5), shown_run(view) is not None)
    return HEADER_H + 8 + p["rows"] * h + (p["rows"] - 1) * 8 + 8 + FOOTER_H


def _red_chips(d: ImageDraw.ImageDraw, view: dict, seat: int, x: float, cy: float, *, h: int = 28) -> float:
    """The red cards the seat still holds (R1, R2), a crossed-out grey chip for each one played. Returns the
    right edge."""
    hand = view["hands"][seat]
    reds = [c for c in RED]
    if not any(c in hand for c in reds) and view.get("solo") is not None and not view["solo"].get("red"):
        text(d, (x, cy), "no red cards", SMALL, MUTED, anchor="lm")
        return x + font(SMALL).getlength("no red cards")
    w = 44
    for card in reds:
        box = (x, cy - h / 2, x + w, cy + h / 2)
        if card in hand:
            card_chip(d, box, card, size=SMALL, icon=False)
        else:
            d.rounded_rectangle(box, radius=5, fill=CELL_FILL, outline=GONE, width=2)
            text(d, ((box[0] + box[2]) / 2, cy), SHORT_NAMES[card], SMALL, GONE, anchor="mm")
            d.line([(box[0] + 4, box[3] - 4), (box[2] - 4, box[1] + 4)], fill=GONE, width=3)
        x += w + 6
    return x


def _seat_status(view: dict, seat: int, run: dict | None) -> tuple[str, tuple]:
    """The word on a player's row: locked in, programming, rebuilt, left, watching."""
    if view["left"][seat]:
        return "", MUTED
    if view["phase"] == "side":
        side = view["photos"][seat]["side"]
        return ("choosing a side", HIGHLIGHT) if side is None else (f"took the {side}", TEXT)
    if seat not in view["active"]:
        return "watching", MUTED
    if view["phase"] == "over":
        if seat in winners_of(view):
            return "wins", HIGHLIGHT
        return ("rebuilt", TEXT) if view["solved"][seat] else ("", MUTED)
    if run is not None and run.get("solved"):
        return "rebuilt!", HIGHLIGHT
    if view["locked"][seat]:
        return "locked in", SKY
    return "programming", HIGHLIGHT


def _name_row(d: ImageDraw.ImageDraw, view: dict, names: list[str], seat: int, box, run: dict | None) -> None:
    """The shared player row (turn arrow and gold frame while they program), then on the right how they stand:
    "programming", "locked in" (a padlock; the sand timer too for who turned it), "rebuilt!", "wins" (a star),
    "watching", "(left)"."""
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
    word_w = font(SMALL).getlength(word) + 2 if word else 0
    right = x1 - 8 - word_w - 26 * len(icons)
    player_row(d, (x0, y0, x1, y1), seat, names[seat], name_width=right - x0 - 8, current=seat in view["to_act"],
               gone=view["left"][seat])
    if word:
        text(d, (x1 - 8, cy), word, SMALL, colour, anchor="rm", bold=True)
    x = x1 - 8 - word_w
    for icon in icons:
        if icon == "lock":
            padlock(d, (x - 13, cy + 1), 9, SKY)
        elif icon == "timer":
            hourglass(d, (x - 13, cy), 10, SKY, HIGHLIGHT)
        else:
            star(d, (x - 13, cy), 11)
        x -= 26


def _run_words(run: dict) -> str:
    k = run["cards"]
    return f"{plural(k, 'card')} played" if k else "no card played"


def _block(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, names: list[str], seat: int, box,
           run: dict | None, winners: list[int]) -> None:
    """One player: the name row, the puzzle, and beside or under it the photo to rebuild and the red cards (stage
    B) or the program played and the puzzle before it (after a stage C)."""
    x0, y0, x1, y1 = box
    n = min(view["players"], 5)
    p = LAYOUT[n]
    panel(d, box)
    _name_row(d, view, names, seat, (x0 + 4, y0 + 4, x1 - 4, y0 + 38), run)
    photo = view["photos"][seat]["photo"]
    pairs = run["after"] if run is not None else view["puzzles"][seat]
    solved = bool(run["solved"]) if run is not None else bool(view["solved"][seat])
    top = y0 + NAME_H
    t = p["rt"] if run is not None else p["t"]
    size = puzzle_size(t)
    if p["mode"] == "below":
        px = (x0 + x1 - size) / 2
        draw_puzzle(img, d, (px, top), t, photo, pairs, solved=solved)
        y = top + size + 12
        if run is not None:
            fw, bw = frame_size(p["c"], 3), puzzle_size(p["tb"])
            space = (x1 - x0 - fw - bw) / 3
            fx, bx = x0 + space, x0 + 2 * space + fw
            text(d, (fx + fw / 2, y), "program", SMALL, MUTED, anchor="ma")
            text(d, (bx + bw / 2, y), "before", SMALL, MUTED, anchor="ma")
            y += 26
            draw_frame(d, (fx, y), p["c"], run["program"], numbers=False, size=SMALL, gap=3)
            draw_puzzle(img, d, (bx, y + 2), p["tb"], photo, run["before"])
            y += max(fw, bw) + 8
            text(d, ((x0 + x1) / 2, y), _run_words(run), SMALL, TEXT, anchor="ma")
            return
        th = p["thumb"]
        thumbnail(img, d, (x0 + 14, y + 2), th, photo)
        tx = x0 + 14 + th + 14
        _details(d, view, seat, tx, y, x1 - 8)
        return
    # "right": the puzzle on the left, the rest in a column beside it
    body = y1 - top - 8
    py = top + (body - size) / 2
    px = x0 + 12
    draw_puzzle(img, d, (px, py), t, photo, pairs, solved=solved)
    cx0, cx1 = px + size + 16, x1 - 10
    y = top - 4
    if run is not None:
        fw, bw = frame_size(p["c"], 3), puzzle_size(p["tb"])
        text(d, (cx0, y), "program", SMALL, MUTED)
        draw_frame(d, (cx0, y + 24), p["c"], run["program"], numbers=False, size=SMALL, gap=3)
        if n == 4:  # stacked: the frame, then the puzzle before it
            by = y + 24 + fw + 8
            text(d, (cx0, by), "before", SMALL, MUTED)
            draw_puzzle(img, d, (cx0 + 2, by + 26), p["tb"], photo, run["before"])
        else:  # side by side
            bx = cx0 + fw + 12
            text(d, (bx, y), "before", SMALL, MUTED)
            draw_puzzle(img, d, (bx + 2, y + 26), p["tb"], photo, run["before"])
            text(d, (bx, y + 26 + bw + 8), plural(run["cards"], "card"), SMALL, TEXT, max_width=cx1 - bx)
        return
    th = p["thumb"]
    thumbnail(img, d, (cx0 + 2, y + 6), th, photo)
    if n == 4:  # the details under the photo
        _details(d, view, seat, cx0, y + th + 14, cx1, compact=True)
    else:  # beside it
        _details(d, view, seat, cx0 + th + 14, y + 2, cx1, compact=True)


def _details(d: ImageDraw.ImageDraw, view: dict, seat: int, x: float, y: float, x1: float, *,
             compact: bool = False) -> None:
    """The photo's name, the red cards left, round wins, who turned the timer."""
    if not compact:
        text(d, (x, y), "rebuild", SMALL, MUTED)
        y += 24
    name = view["photos"][seat]["name"]
    size = BODY if not compact and font(BODY).getlength(name) + 2 <= x1 - x else SMALL
    for line in wrap_text(name, size, x1 - x - 2, lines=2):  # "Latin / America" in a narrow column
        text(d, (x, y), line, size, TEXT, bold=True)
        y += 24 if size == SMALL else 28
    y += 2
    _red_chips(d, view, seat, x, y + 16)
    y += 40
    if view["rounds"] > 1:
        text(d, (x, y), f"wins: {view['wins'][seat]}" if compact else plural(view["wins"][seat], "round") + " won",
             SMALL, TEXT, max_width=x1 - x)


def _key(d: ImageDraw.ImageDraw, view: dict, box) -> None:
    """How a turn works, in three lines, with a card of each colour."""
    x0, y0, x1, y1 = box
    panel(d, box, "HOW A TURN WORKS")
    y = y0 + 40
    for card, words in (("g1", "green cards turn a tile"), ("b1", "blue cards move tiles"),
                        ("r1", "red cards send a tile home")):
        card_chip(d, (x0 + 14, y, x0 + 62, y + 28), card, size=SMALL, icon=False)
        text(d, (x0 + 74, y + 14), words, SMALL, TEXT, anchor="lm", max_width=x1 - x0 - 84)
        y += 34
    timer = "no sand timer: the first lock-in stops all" if view.get("no_timer") else \
        f"the first lock-in turns the {view.get('timer_seconds', 30)} s timer"
    for line in wrap_text(f"Programs run cell 1 to 9; {timer}.", SMALL, x1 - x0 - 28, lines=2):
        text(d, (x0 + 14, y), line, SMALL, MUTED)
        y += 24


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
    """A player choosing a side (The Shock of Experience): the polar front or their set's back; the one they took
    in gold."""
    x0, y0, x1, y1 = box
    panel(d, box)
    _name_row(d, view, names, seat, (x0 + 4, y0 + 4, x1 - 4, y0 + 38), None)
    side = view["photos"][seat]["side"]
    size = int(min((x1 - x0 - 48) / 2, y1 - y0 - NAME_H - 66, 170))
    _side_options(img, d, (x0, y0 + NAME_H + 6, x1), size, side)


def _side_options(img: Image.Image, d: ImageDraw.ImageDraw, where: tuple[float, float, float], size: int,
                  side: str | None) -> None:
    """The two sides side by side, ``size`` px each, named under them; the one taken framed in gold."""
    x0, y, x1 = where
    gap = (x1 - x0 - 2 * size) / 3
    for k, (which, label) in enumerate((("front", "front: Polar region"), ("back", "back: your region"))):
        x = x0 + gap + k * (size + gap)
        if which == "front":
            thumbnail(img, d, (x, y), size, "polar")
        else:
            d.rectangle((x - 3, y - 3, x + size + 2, y + size + 2), fill=TILE_BACK)
            d.rectangle((x, y, x + size - 1, y + size - 1), fill=CELL_FILL)
            globe(d, (x + size / 2, y + size / 2), size * 0.36, (40, 70, 100), MUTED)
        if side == which:
            d.rectangle((x - 6, y - 6, x + size + 5, y + size + 5), outline=HIGHLIGHT, width=4)
        for j, line in enumerate(label.split(": ")):
            text(d, (x + size / 2, y + size + 10 + 24 * j), line, SMALL, HIGHLIGHT if side == which else TEXT,
                 anchor="ma", bold=j == 0, max_width=size + gap - 8)


def _solo_block(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, names: list[str], box,
                run: dict | None) -> None:
    """One player alone: the puzzle big, the photo to rebuild, the level and par, the cards (or the last turn's
    program and the puzzle before it)."""
    x0, y0, x1, y1 = box
    seat = 0
    solo = view["solo"]
    photo = view["photos"][seat]["photo"]
    pairs = run["after"] if run is not None else view["puzzles"][seat]
    solved = bool(run["solved"]) if run is not None else bool(view["solved"][seat])
    t = 140
    size = puzzle_size(t)
    px, py = x0 + 8, y0 + (y1 - y0 - size) / 2
    draw_puzzle(img, d, (px, py), t, photo, pairs, solved=solved)
    cx0, cx1 = px + size + 24, x1
    panel(d, (cx0, y0, cx1, y1))
    x = cx0 + 14
    y = y0 + 12
    name, stars = _level(view)
    text(d, (x, y), name, LARGE, TEXT, bold=True)
    sx = x + font(LARGE).getlength(name) + 18
    for k in range(stars):
        star(d, (sx + k * 24, y + 14), 10)
    y += 36
    lines = []
    if solo.get("number"):
        lines.append(f"puzzle {solo['number']} of the level")
    if solo.get("par"):
        lines.append(_par(solo["par"]))
    lines.append("red cards " + ("allowed" if solo.get("red") else "not allowed"))
    lines.append("any turn of the photo counts")
    for line in lines:
        text(d, (x, y), line, SMALL, TEXT, max_width=cx1 - x - 12)
        y += 26
    over = view["phase"] == "over"
    played = f"{'played' if over else 'so far'}: {plural(solo['turns'], 'turn')}, {plural(solo['cards'], 'card')}"
    if solo.get("hints_used"):
        played += f", {plural(solo['hints_used'], 'hint')}"
    text(d, (x, y), played, SMALL, TEXT if over else MUTED, max_width=cx1 - x - 12)
    y += 26
    par = solo.get("par")
    if over and solo.get("solved") and par:
        made = solo["turns"] <= par["turns"] and solo["cards"] <= par["cards"]
        if made:
            star(d, (x + 9, y + 11), 9)
        text(d, (x + (24 if made else 0), y), "within par!" if made else "over par", SMALL,
             HIGHLIGHT if made else TEXT, bold=made)
        y += 26
    y += 8
    if run is not None:
        c, tb = 44, 44
        text(d, (x, y), "last program", SMALL, MUTED)
        bx = x + frame_size(c, 3) + 24
        text(d, (bx, y), "before it", SMALL, MUTED)
        draw_frame(d, (x, y + 26), c, run["program"], numbers=False, size=SMALL, gap=3)
        draw_puzzle(img, d, (bx + 2, y + 28), tb, photo, run["before"])
        y += 26 + max(frame_size(c, 3), puzzle_size(tb)) + 10
        text(d, (x, y), _run_words(run) + (": rebuilt!" if run["solved"] else ""), SMALL,
             HIGHLIGHT if run["solved"] else TEXT)
        return
    th = 150
    text(d, (x, y), "rebuild", SMALL, MUTED)
    thumbnail(img, d, (x + 2, y + 28), th, photo)
    tx = x + th + 20
    text(d, (tx, y + 28), view["photos"][seat]["name"], BODY, TEXT, bold=True, max_width=cx1 - tx - 10)
    if view["locked"][seat]:
        padlock(d, (tx + 9, y + 72), 9, SKY)
        text(d, (tx + 26, y + 72), "locked in", SMALL, SKY, anchor="lm", bold=True)
    _red_chips(d, view, seat, tx, y + 108)


def draw_board(view: dict, names: list[str], last: str | None = None, focus: dict | None = None) -> Image.Image:
    """The public board: each player's puzzle and how they stand (stage B), or each program just run with the
    puzzle before and after (after a stage C, until someone locks in), or the end. ``focus`` is not used."""
    img, d = canvas(board_height(view))
    n = view["players"]
    over = view["phase"] == "over"
    winners = winners_of(view) if over else []
    if over:
        header(d, TITLE, _winner_text(view, names), right="Game over", winner=True)
    else:
        header(d, TITLE, _status(view, names), right=_right_note(view), seat=None)
    runs = shown_run(view) or {}
    top = HEADER_H + 8
    bottom = img.height - FOOTER_H - 8
    if view["phase"] == "side" and n == 1:
        _side_block(img, d, view, names, 0, (MARGIN, top, WIDTH - MARGIN, bottom))
    elif n == 1:
        _solo_block(img, d, view, names, (MARGIN, top, WIDTH - MARGIN, bottom), runs.get(0))
    else:
        p = LAYOUT[min(n, 5)]
        cols = p["cols"]
        h = _block_height(min(n, 5), bool(runs))
        w = (WIDTH - 2 * MARGIN - (cols - 1) * 8) / cols
        for seat in range(n):
            r, c = divmod(seat, cols)
            x = MARGIN + c * (w + 8)
            y = top + r * (h + 8)
            if view["phase"] == "side":
                _side_block(img, d, view, names, seat, (x, y, x + w, y + h))
            else:
                _block(img, d, view, names, seat, (x, y, x + w, y + h), runs.get(seat), winners)
        if n % cols:  # an empty place in the last row: a key for new players
            x = MARGIN + (n % cols) * (w + 8)
            y = top + (n // cols) * (h + 8)
            _key(d, view, (x, y, WIDTH - MARGIN, y + h))
    footer(d, last, height=img.height)
    return img


# --- the private panel: "My program" ------------------------------------------------------------------------
PRIVATE_T = 96
PRIVATE_C = 88
PRIVATE_THUMB = 138


def _private_status(view: dict) -> tuple[str, bool]:
    """What the player must do now (and whether it is their move)."""
    phase = view["phase"]
    seat = view.get("seat")
    if phase == "over":
        return "The voyage is over", False
    if phase == "side":
        side = view["photos"][seat]["side"] if seat is not None else None
        return ("Choose the polar front or your region's back", True) if side is None else \
            (f"You took the {side}: waiting for the others", False)
    if seat is None or seat not in view["active"]:
        return "Watching this round", False
    if view["left"][seat]:
        return "You left the game", False
    if view["locked"][seat]:
        return "Locked in: waiting for the others", False
    step = view.get("step")
    if step:
        cell = step["cell"]
        if step.get("card"):
            return f"Cell {cell + 1}: point {SHORT_NAMES[step['card']]}'s arrow", True
        return f"Cell {cell + 1} ({CELL_NAMES[cell]}): pick a card", True
    if any(view.get("program") or ()):
        return "Pick a cell for the next card, or lock in", True
    return "Pick a cell (1-9) for your first card", True


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
            words, colour = "played: gone", GONE
        elif card in where:
            words, colour = f"in cell {where[card] + 1}", HIGHLIGHT
        text(d, (x + 60, cy), words, SMALL, colour, anchor="lm", max_width=colw - 70)


def draw_private(view: dict, name: str) -> Image.Image:
    """The seat's own panel ("My program"): their puzzle, the programming frame (cards placed, the step in
    progress, hints revealed), the photo to rebuild, and every card with what it does and where it lies."""
    seat = view.get("seat", 0)
    if view.get("phase") == "side":
        return _private_side(view, name, seat)
    solo = view.get("solo")
    hand_h = 5 * 34
    height = HEADER_H + 12 + 28 + max(puzzle_size(PRIVATE_T), frame_size(PRIVATE_C)) + 18 + 30 + hand_h + 12
    img, d = canvas(height)
    status, mine = _private_status(view)
    title = f"{TITLE} - {name}'s program" if len(name) <= 22 else f"{TITLE} - your program"
    right = _right_note(view) if view.get("phase") != "side" else None
    if view.get("timer") and not view["locked"][seat]:
        right = f"sand timer: {round(view['timer']['seconds'])} s"
    header(d, title, status, right=right, seat=seat, arrow=mine)
    y = HEADER_H + 12
    photo = view["photos"][seat]["photo"]
    pairs = view["puzzles"][seat]
    step = view.get("step")
    # the puzzle
    x = MARGIN + 6
    text(d, (x, y), "YOUR PUZZLE", SMALL, MUTED, bold=True)
    marks = {step["cell"]: HIGHLIGHT} if step else None
    draw_puzzle(img, d, (x + 2, y + 30), PRIVATE_T, photo, pairs, solved=bool(view["solved"][seat]), marks=marks)
    # the frame
    fx = x + puzzle_size(PRIVATE_T) + 26
    text(d, (fx, y), "PROGRAM (runs 1 to 9)", SMALL, MUTED, bold=True)
    hints = (solo or {}).get("hints") or []
    draw_frame(d, (fx, y + 30), PRIVATE_C, view.get("program"), step=step, hints=hints, size=LARGE)
    # the photo to rebuild, the level
    rx = fx + frame_size(PRIVATE_C) + 22
    rw = WIDTH - MARGIN - rx
    text(d, (rx, y), "REBUILD", SMALL, MUTED, bold=True)
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
            text(d, (rx, ty), plural(len(hints), "hint") + " (gold)", SMALL, HIGHLIGHT, max_width=rw)
    elif view["rounds"] > 1:
        text(d, (rx, ty), plural(view["wins"][seat], "round") + " won", SMALL, TEXT, max_width=rw)
    # the cards
    hy = y + 30 + max(puzzle_size(PRIVATE_T), frame_size(PRIVATE_C)) + 18
    d.line((MARGIN, hy - 6, WIDTH - MARGIN, hy - 6), fill=PANEL_EDGE, width=2)
    note = "each card once, at most one red card; a red card played is gone"
    text(d, (MARGIN + 6, hy), "CARDS", SMALL, MUTED, bold=True)
    text(d, (MARGIN + 90, hy), note, SMALL, MUTED, max_width=WIDTH - 2 * MARGIN - 96)
    _hand_rows(d, view, seat, (MARGIN + 6, hy + 28, WIDTH - MARGIN, hy + 28 + hand_h))
    return img


def _private_side(view: dict, name: str, seat: int) -> Image.Image:
    """Before the first turn (The Shock of Experience): the two sides to choose from, and why."""
    img, d = canvas(HEADER_H + 16 + 170 + 70)
    status, mine = _private_status(view)
    title = f"{TITLE} - {name}'s program" if len(name) <= 22 else f"{TITLE} - your program"
    header(d, title, status, seat=seat, arrow=mine)
    y = HEADER_H + 16
    _side_options(img, d, (MARGIN, y + 4, WIDTH / 2 + 20), 170, view["photos"][seat]["side"])
    x = WIDTH / 2 + 30
    lines = ["The front, the polar region, is the easier picture: the rules advise it for your first games.",
             "The back is a fisheye view of the region of the set in front of you."]
    for para in lines:
        for line in wrap_text(para, BODY, WIDTH - MARGIN - x - 8, lines=3):
            text(d, (x, y), line, BODY, TEXT)
            y += 30
        y += 14
    return img


# --- the run, animated --------------------------------------------------------------------------------------
GIF_W = 600
GIF_T = 100
GIF_C = 62
STEP_MS = 900
DONE_MS = 700
FIRST_MS = 1600
LAST_MS = 3500


def _moved_to(cell: int, card: str, direction: str | None, before: Sequence[Sequence[int]]) -> int | None:
    """Where the card sends the tile in ``cell`` (None: it stays, turning or doing nothing)."""
    if card in RED:
        home = before[cell][0]
        return None if home == cell else home
    perm = move_of(cell, card, direction)
    if perm is None:
        return None
    return perm.index(cell)


def _changed(a: Sequence[Sequence[int]], b: Sequence[Sequence[int]]) -> list[int]:
    return [i for i in range(9) if list(a[i]) != list(b[i])]


def _gif_frame(card: dict, pairs, *, title: str, caption: str, active: int | None = None,
               done: Sequence[int] = (), marks: dict | None = None, move: tuple | None = None,
               turn: tuple | None = None, result: str | None = None) -> Image.Image:
    height = 46 + 12 + puzzle_size(GIF_T) + 14 + 58
    img, d = canvas(height, GIF_W)
    d.rectangle((0, 0, GIF_W, 45), fill=BAR)
    seat = card.get("seat")
    x = 12
    if seat is not None:
        seat_mark(d, (x + 12, 23), seat, 11)
        x += 32
    text(d, (x, 23), title, BODY, TEXT, anchor="lm", bold=True, max_width=GIF_W - x - 150)
    turn_no = card.get("turn")
    if turn_no:
        text(d, (GIF_W - 12, 23), f"turn {turn_no}", SMALL, MUTED, anchor="rm")
    px, py = 12, 58
    photo = card["photo"]
    draw_puzzle(img, d, (px, py), GIF_T, photo, pairs, solved=result == "rebuilt", marks=marks)
    if move is not None:
        a, b, double = move
        arrow_between(d, cell_centre((px, py), GIF_T, a), cell_centre((px, py), GIF_T, b), HIGHLIGHT, width=7,
                      head=22, double=double, outline=BLACK)
    if turn is not None:
        cell, which = turn
        cx, cy = cell_centre((px, py), GIF_T, cell)
        d.ellipse((cx - 30, cy - 30, cx + 30, cy + 30), fill=BLACK)
        turn_icon(d, (cx, cy), which, 18, HIGHLIGHT)
    fx = px + puzzle_size(GIF_T) + 24
    text(d, (fx, py - 4), "program", SMALL, MUTED)
    draw_frame(d, (fx, py + 22), GIF_C, card["program"], active=active, done=done, numbers=False, size=BODY,
               gap=4)
    ty = py + 22 + frame_size(GIF_C) + 12
    th = py + puzzle_size(GIF_T) - ty - 2
    if th >= 60:  # the photo to rebuild, small
        thumbnail(img, d, (fx + 2, ty + 2), th, photo)
        text(d, (fx + th + 16, ty), "rebuild", SMALL, MUTED)
        name = PHOTO_NAMES.get(photo, photo)
        for k, line in enumerate(wrap_text(name, SMALL, GIF_W - fx - th - 28, lines=2)):
            text(d, (fx + th + 16, ty + 26 + 24 * k), line, SMALL, TEXT)
    # the caption under it all
    cy0 = height - 58
    d.rectangle((0, cy0, GIF_W, height), fill=BAR)
    if result == "rebuilt":
        d.rectangle((0, cy0, GIF_W, height), fill=HIGHLIGHT)
        star(d, (24, cy0 + 29), 12, BLACK)
        text(d, (46, cy0 + 29), caption, LARGE, BLACK, anchor="lm", bold=True, max_width=GIF_W - 60)
    else:
        lines = wrap_text(caption, BODY, GIF_W - 28, lines=2)
        top = cy0 + 29 - 13 * len(lines)
        for k, line in enumerate(lines):
            text(d, (14, top + 26 * k + 13), line, BODY, TEXT, anchor="lm")
    return img


def _step_words(step: dict, k: int, total: int) -> str:
    cell, card, direction = step["cell"], step["card"], step.get("dir")
    way = {"n": "up", "e": "right", "s": "down", "w": "left", "ne": "up-right", "se": "down-right",
           "sw": "down-left", "nw": "up-left"}.get(direction or "", "")
    what = CARD_WORDS[card] + (f" ({way})" if way and card in DIRECTIONS else "")
    return f"Card {k} of {total}: cell {cell + 1}, {SHORT_NAMES[card]} {what}"


def _done_words(step: dict, before, changed: list[int]) -> str:
    """What a card did, in the past tense."""
    cell, card, direction = step["cell"], step["card"], step.get("dir")
    name = SHORT_NAMES[card]
    if not changed:
        return f"{name}: no effect here, nothing moves (the card is used all the same)"
    if card in TURN:
        return f"{name}: the tile in cell {cell + 1} turned " + {"g1": "a quarter turn clockwise",
                                                                 "g2": "a quarter turn counter-clockwise",
                                                                 "g3": "a half turn"}[card]
    dest = _moved_to(cell, card, direction, before)
    if card in RED:
        upright = ", upright" if card == "r2" else ""
        return f"{name}: the tile went home to cell {dest + 1}{upright}" if dest is not None else \
            f"{name}: the tile was already home; now upright"
    if card == "b5" and dest is not None:
        return f"{name}: cell {cell + 1} moved to cell {dest + 1}, the others shifted back"
    if dest is not None:
        return f"{name}: cells {cell + 1} and {dest + 1} swapped"
    return f"{name}: done"


def run_frames(card: dict, title: str | None = None) -> list[tuple[Image.Image, int]]:
    """The animation's frames and their durations (ms): the puzzle before; for each card, the card acting (its
    cell and card gold, where the tile goes) and what it changed (sky blue); the puzzle after."""
    frames = card.get("frames") or [card["before"]]
    steps = card.get("steps") or []
    total = len(steps)
    title = title or "The program runs"
    out = [(_gif_frame(card, frames[0], title=title,
                       caption=f"Before: {plural(total, 'card')} to play, in reading order" if total else
                       "No card in the frame: nothing moves"), FIRST_MS)]
    done: list[int] = []
    for k, step in enumerate(steps):
        before, after = frames[k], frames[min(k + 1, len(frames) - 1)]
        cell, which, direction = step["cell"], step["card"], step.get("dir")
        words = _step_words(step, k + 1, total)
        move = None
        turn = None
        dest = _moved_to(cell, which, direction, before)
        if which in TURN:
            turn = (cell, which)
        elif dest is not None:
            move = (cell, dest, which not in ("b5",))
        out.append((_gif_frame(card, before, title=title, caption=words, active=cell, done=done,
                               marks={cell: HIGHLIGHT}, move=move, turn=turn), STEP_MS))
        changed = _changed(before, after)
        done.append(cell)
        out.append((_gif_frame(card, after, title=title, caption=_done_words(step, before, changed), done=done,
                               marks={c: SKY for c in changed}), DONE_MS))
    result = "rebuilt" if card.get("solved") else None
    out.append((_gif_frame(card, frames[-1], title=title,
                           caption="After: rebuilt!" if result else "After: not rebuilt yet", done=done,
                           result=result), LAST_MS))
    return out


def encode_gif(frames: list[tuple[Image.Image, int]]) -> bytes:
    """An animated GIF that loops. Every frame is mapped to one palette (255 colours learned from the first and
    last frames and the marks' colours, no dithering); from the second frame on, the pixels that did not change
    are the transparent 256th colour (each frame is drawn over the one before), so a frame costs little more than
    what changed in it."""
    first, last = frames[0][0], frames[-1][0]
    w, h = first.size
    probe = Image.new("RGB", (w, 2 * h + 8))
    probe.paste(first, (0, 0))
    probe.paste(last, (0, h))
    strip = ImageDraw.Draw(probe)
    for k, colour in enumerate((HIGHLIGHT, SKY, GOLD_CELL, *CARD_FILL.values(), *CARD_DIM.values(), BLACK, WHITE,
                                TEXT, MUTED, BAR, CELL_FILL)):
        strip.rectangle((k * 8, 2 * h, k * 8 + 7, 2 * h + 7), fill=colour)
    pal = probe.quantize(255, method=Image.Quantize.MEDIANCUT)
    colours = (pal.getpalette() or [])[: 3 * 255]
    colours += [0] * (3 * 255 - len(colours)) + [255, 0, 255]  # index 255: transparent
    indexed = [img.quantize(palette=pal, dither=Image.Dither.NONE).tobytes() for img, _ in frames]
    images = []
    previous = None
    for data in indexed:
        layer = Image.frombytes("L", (w, h), data)
        if previous is not None:
            same = ImageChops.difference(layer, previous).point(lambda v: 255 if v == 0 else 0)
            shown = layer.copy()
            shown.paste(255, mask=same)
        else:
            shown = layer
        previous = layer
        frame = Image.frombytes("P", (w, h), shown.tobytes())
        frame.putpalette(colours)
        images.append(frame)
    out = io.BytesIO()
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:], duration=[ms for _, ms in frames],
                   loop=0, optimize=False, disposal=1, transparency=255)
    return out.getvalue()


def draw_card(card: dict, note: str | None = None) -> bytes | Image.Image:
    """A card for the channel. ``card["kind"] == "run"`` (an engine announcement after stage C): an animated GIF
    of the program running, as bytes; ``note`` (optional) is its title, e.g. "Ana's program"."""
    if card.get("kind") != "run":
        raise KeyError(f"no picture for a {card.get('kind')!r} card")
    return encode_gif(run_frames(card, note))


# --- sample games (tests, palette) --------------------------------------------------------------------------
def _program_keys(rng: random.Random, hand: list[str], cards: int) -> list[str]:
    keys = []
    cells = rng.sample(range(9), min(cards, 9))
    pool = list(hand)
    rng.shuffle(pool)
    red = False
    for cell in cells:
        card = next((c for c in pool if not (c in RED and red)), None)
        if card is None:
            break
        pool.remove(card)
        red = red or card in RED
        keys += [f"c{cell}", f"k{card}"]
        if card in DIRECTIONS:
            keys.append(f"d{rng.choice(DIRECTIONS[card])}")
    return keys


def sample_game(players: int, seed: int, options: dict | None = None, solvers: Sequence[int] = (0,),
                stop_at: int = 400) -> Iterator[dict]:
    """Every state of a seeded game: the seats in ``solvers`` play a known solution (so photos get rebuilt),
    the others random cards; each locks in when its program is set, the sand timer runs out now and then."""
    from games.globe_twister.puzzle import from_pairs
    from games.globe_twister.rules import GlobeTwister
    from games.globe_twister.solver import plan

    engine = GlobeTwister()
    state = engine.new(players, dict(options or {}), seed)
    rng = random.Random(seed)
    queues: dict[int, list[str]] = {}
    stage = None
    count = 0
    yield state
    while engine.to_act(state) and count < stop_at:
        count += 1
        if state["phase"] == "program" and state["stage"] != stage:
            stage = state["stage"]
            queues = {}
            for s in engine.to_act(state):
                hand = state["hands"][s]
                if s in solvers:
                    any_rotation = state["solo"] is not None
                    red = state["solo"]["red"] if state["solo"] is not None else not state["options"]["no_red"]
                    found = plan(from_pairs(state["puzzles"][s]), hand, red=red,
                                 red_left=[c for c in RED if c in hand], any_rotation=any_rotation)
                    keys = []
                    for cell, card, direction in (found[0] if found else []):
                        keys += [f"c{cell}", f"k{card}"] + ([f"d{direction}"] if direction else [])
                    queues[s] = keys + ["lock"]
                else:
                    queues[s] = _program_keys(rng, hand, rng.randrange(0, 6)) + ["lock"]
        running = engine.timer(state)
        if running and rng.random() < 0.08:
            state, _ = engine.apply(state, -1, f"timer:{running[0]}")
            yield state
            continue
        seat = rng.choice(sorted(engine.to_act(state)))
        if state["phase"] == "side":
            key = rng.choice(["front", "back"])
        else:
            queue = queues.get(seat) or ["lock"]
            key = queue.pop(0)
        state, _ = engine.apply(state, seat, key)
        yield state


def sample_states(players: int, seed: int, options: dict | None = None,
                  solvers: Sequence[int] = (0,)) -> list[tuple[str, dict]]:
    """Tagged states of a seeded game: the start, mid-programming (a step in progress), someone locked in with
    the timer running, right after a run, a new round, the end."""
    out: list[tuple[str, dict]] = []
    seen: set[str] = set()
    prev_run = None
    for i, s in enumerate(sample_game(players, seed, options, solvers)):
        tag = None
        if i == 0:
            tag = "start"
        elif s["phase"] == "over":
            tag = "over"
        elif s["phase"] == "side":
            tag = "side"
        elif s["last_run"] is not None and s["last_run"]["stage"] != prev_run:
            prev_run = s["last_run"]["stage"]
            tag = "run" if "run" not in seen else ("new round" if s["turn"] == 1 else "run 2")
        elif any(s["steps"]) and "step" not in seen:
            tag = "step"
        elif any(s["locked"]) and s["starter"] is not None and "locked" not in seen:
            tag = "locked"
        if tag and tag not in seen:
            seen.add(tag)
            out.append((tag, copy.deepcopy(s)))
    return out
