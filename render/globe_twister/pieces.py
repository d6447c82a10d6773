"""The small pieces every Globe Twister picture shares: card chips and their arrows, icons (padlock, sand
timer, tick, globe), puzzles and the programming frame, and the game's colours."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from games.globe_twister.puzzle import (
    CARD_NAMES,
    DIRECTIONS,
    SHORT_NAMES,
    STEP,
    TURN,
    defined,
)
from i18n import _, here, pgettext
from render.common import (
    BLACK,
    BLUE,
    BODY,
    GREEN,
    HIGHLIGHT,
    MUTED,
    PANEL,
    PANEL_EDGE,
    SMALL,
    TEXT,
    VERMILLION,
    WHITE,
    font,
    mark,
    text,
    wrap_text,
)
from render.globe_twister import photos

GAME = "globe_twister"
TITLE = pgettext("game", "Globe Twister")
"""The game's name, as published in every language (a message only so that the pseudo-language test sees it said)."""

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
    "g1": _("turn 90 degrees clockwise"),
    "g2": _("turn 90 degrees counter-clockwise"),
    "g3": _("turn 180 degrees"),
    "b1": _("swap with the neighbour"),
    "b2": _("swap with the diagonal one"),
    "b3": _("swap opposite corners"),
    "b4": _("swap opposite edges"),
    "b5": _("to the other end of its line"),
    "r1": _("to its own cell"),
    "r2": _("to its own cell, upright"),
}
"""The cards in a few words (``CARD_NAMES`` without the colour and number, which the chip shows)."""
assert set(CARD_WORDS) == set(CARD_NAMES)
PHOTO_LINES = {"polar": pgettext("two lines", "Polar\nregion"), "north-america": pgettext("two lines", "North\nAmerica"),
               "latin-america": pgettext("two lines", "Latin\nAmerica")}
"""The photos' names on two lines, for a narrow column: where a language writes a name as one long word
(German "Lateinamerika"), its translation says where it breaks ("Latein-/amerika")."""


def photo_name_lines(photo: str, name: str, size: float, width: float) -> list[str]:
    """A photo's name (in the drawing's language) on one line of ``width`` px, else on two."""
    whole = here(name)
    if font(size).getlength(whole) <= width:
        return [whole]
    if photo in PHOTO_LINES:
        return here(PHOTO_LINES[photo]).split("\n")[:2]
    return wrap_text(whole, size, width, lines=2)

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
        mark("tile", t)
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
                    text(d, ((box[0] + box[2]) / 2, box[3] - 6), _("no effect"), SMALL, WHITE, anchor="md")
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
            reach = c * (0.56 if way in ("n", "e", "s", "w") else 0.7)  # over the cell's edge
            tip = (cx + ux * reach, cy + uy * reach)
            ok = defined(step_cell, card, way)  # an arrow off the grid: grey (it does nothing there)
            arrow(d, tip, way, c * 0.52, BLACK, width=max(8, c * 0.15))
            arrow(d, tip, way, c * 0.46, HIGHLIGHT if ok else MUTED, width=max(5, c * 0.09))


def frame_size(c: int, gap: int = 4) -> int:
    return 3 * c + 2 * gap
