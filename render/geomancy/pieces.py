"""Geomancy's pieces: the layout's measures, colours, the seats' marks, stones and upright stones as sprites."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from games.geomancy.rules import ROUND_STONES
from i18n import _, pgettext
from render.common import (
    BLACK,
    MARGIN,
    P_HEADER_H,
    PHONE_CANVAS,
    PLAYER_COLOURS,
    WHITE,
    cached,
    mark,
)

GAME = "geomancy"
TITLE = pgettext("game", "Geomancy")
"""The game's name, kept as published in every language (a message, so the pseudo-language shows it was said)."""
OVERLAYS = {"auras": _("Auras")}
"""Other ways to draw the board, on request (``focus={"overlay": name}``): {name: button label}."""

ROUND_WORDS = ROUND_STONES
"""What each round casts ("small stones")."""

# --- layout ----------------------------------------------------------------------------------------------
WIDTH = PHONE_CANVAS
"""Drawn for the phone (docs/rendering.md, "Legible on a phone"): 600 px wide, shown 240 px wide on a 360 px
phone; every label at least ``P_SMALL``, every stone at least 30 px across (12 px there)."""
S = 68
"""A square's side."""
BX = MARGIN + 32
"""The board's left edge (the rank numbers stand left of it)."""
RIM = 12
"""Room above the board for the arrows of stones that flew off its top."""
BY = P_HEADER_H + 4 + RIM
"""The board's top edge."""
BOARD_R = BX + 8 * S
BOARD_B = BY + 8 * S
LETTERS_H = 38
PANEL_X = MARGIN
PANEL_TOP = BOARD_B + LETTERS_H

# --- colours ---------------------------------------------------------------------------------------------
LIGHT_SQ = (96, 103, 120)
DARK_SQ = (70, 76, 92)
BOARD_EDGE = (24, 26, 32)
GOLD_SQ = (112, 100, 44)
"""A square the player to act may choose (the aim rank), over a light or a dark square alike."""
INK = (18, 18, 22)
"""The seat mark drawn on a stone."""
LAST_TURN = WHITE
"""The last turn's marks (frames, crosshair, arrows) and its lines in the panel: no seat's colour (the six
seats are sky blue, orange, green, purple, yellow and vermillion; sky blue was the first seat's), told apart
from each of them with any colour vision (tests/render/test_geomancy_board.py) and bright on both squares."""
AURA_TINT = 0.3
"""How much of the strongest colour tints a square in the aura overlay."""


def seat_colour(seat: int) -> tuple[int, int, int]:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def _mix(a, b, t: float) -> tuple[int, int, int]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))


def face_colours(seat: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """A stone's lit and shaded faces."""
    colour = seat_colour(seat)
    return _mix(colour, WHITE, 0.28), _mix(colour, BLACK, 0.22)


def aura_tint(square_colour, seat: int) -> tuple[int, int, int]:
    return _mix(square_colour, seat_colour(seat), AURA_TINT)


COLOURS = (LIGHT_SQ, DARK_SQ, BOARD_EDGE, GOLD_SQ, INK,
           *(c for seat in range(6) for c in face_colours(seat)),
           *(aura_tint(sq, seat) for seat in range(6) for sq in (LIGHT_SQ, DARK_SQ)))
"""The flat colours this board adds to ``common.THEME`` (kept exactly in its PNG palette): the squares, the
stones' faces and the aura overlay's tints, for the six seats."""

STONE_L = (39, 50, 61)
"""A stone's length (base to tip) per size, px on the board."""
STONE_W = (32, 41, 50)
"""A stone's base width per size."""
SS = 4


# --- marks (the seat's shape) ------------------------------------------------------------------------------
def mark_points(seat: int, x: float, y: float, r: float) -> list[tuple[float, float]] | None:
    """The outline of the seat's mark (as ``common.seat_mark`` draws it) centred on (x, y); None: a circle."""
    kind = seat % 8
    if kind == 0:
        return None
    if kind == 1:
        q = r * 0.9
        return [(x - q, y - q), (x + q, y - q), (x + q, y + q), (x - q, y + q)]
    if kind == 2:
        return [(x, y - r), (x + r * 1.05, y + r * 0.85), (x - r * 1.05, y + r * 0.85)]
    if kind == 3:
        return [(x, y - r * 1.1), (x + r, y), (x, y + r * 1.1), (x - r, y)]
    if kind == 4:
        out = []
        for k in range(10):
            a = -math.pi / 2 + k * math.pi / 5
            rad = r * 1.15 if k % 2 == 0 else r * 0.5
            out.append((x + rad * math.cos(a), y + rad * math.sin(a)))
        return out
    if kind == 5:
        t = r * 0.4
        return [(x - t, y - r), (x + t, y - r), (x + t, y - t), (x + r, y - t), (x + r, y + t), (x + t, y + t),
                (x + t, y + r), (x - t, y + r), (x - t, y + t), (x - r, y + t), (x - r, y - t), (x - t, y - t)]
    sides = kind - 1
    return [(x + (r + 1) * math.sin(2 * math.pi * k / sides), y - (r + 1) * math.cos(2 * math.pi * k / sides))
            for k in range(sides)]


def draw_mark(d: ImageDraw.ImageDraw, seat: int, x: float, y: float, r: float, fill, outline=None,
              width: int = 0) -> None:
    pts = mark_points(seat, x, y, r)
    if pts is None:
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=width)
    else:
        d.polygon(pts, fill=fill, outline=outline, width=width)


# --- stones ------------------------------------------------------------------------------------------------
LIGHT = (-0.6, -1.0)
"""Where the light comes from (screen x, y): the top left, a little more from the top."""


def _rotate(points, direction: int, cx: float, cy: float) -> list[tuple[float, float]]:
    a = math.radians(45 * direction)
    c, s = math.cos(a), math.sin(a)
    return [(cx + x * c - y * s, cy + x * s + y * c) for x, y in points]


@cached(maxsize=512)
def stone_sprite(seat: int, size: int, direction: int, scale: int = 100, ghost: bool = False) -> Image.Image:
    """A stone seen from above: a triangle in the seat's colour pointing ``direction`` (0-7 clockwise from
    north), its two faces lit from the top left, a dark edge and the seat's mark near its base. ``size`` 1-3,
    ``scale`` in percent. ``ghost``: pale and see-through (a stone that was just captured)."""
    f = scale / 100
    length, wide = STONE_L[size - 1] * f, STONE_W[size - 1] * f
    side = math.ceil(math.hypot(length, wide) + 8)
    img = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = side * SS / 2
    L, W = length * SS, wide * SS
    tip, left, right = (0, -L / 2), (-W / 2, L / 2), (W / 2, L / 2)
    alpha = 150 if ghost else 255
    # which half faces the light: the left half's outward normal, turned with the stone
    a = math.radians(45 * direction)
    nx, ny = -math.cos(a), -math.sin(a)
    lit_left = nx * LIGHT[0] + ny * LIGHT[1] > 0
    bright, dark = face_colours(seat)
    d.polygon(_rotate([tip, left, right], direction, c, c), fill=(*BLACK, alpha))
    inner = _shrink([tip, left, right], 2.2 * SS)
    lh, rh = (_rotate(_clip_half(inner, k), direction, c, c) for k in (-1, 1))
    d.polygon(lh, fill=(*(bright if lit_left else dark), alpha))
    d.polygon(rh, fill=(*(dark if lit_left else bright), alpha))
    # the seat's mark, on the widest part (the incircle of the triangle)
    r_in = (W * L / 2) / ((W + 2 * math.hypot(W / 2, L)) / 2)
    mx, my = _rotate([(0, L / 2 - r_in)], direction, c, c)[0]
    mr = r_in * 0.62
    draw_mark(d, seat, mx, my, mr, fill=(*INK, alpha))
    return img.reduce(SS)


def _shrink(tri, by: float) -> list[tuple[float, float]]:
    """The triangle moved inwards by ``by`` (towards its incentre), for the dark edge around it."""
    (ax, ay), (bx, by_), (cx, cy) = tri
    la, lb, lc = math.dist(tri[1], tri[2]), math.dist(tri[0], tri[2]), math.dist(tri[0], tri[1])
    p = la + lb + lc
    ix, iy = (la * ax + lb * bx + lc * cx) / p, (la * ay + lb * by_ + lc * cy) / p
    area = abs((bx - ax) * (cy - ay) - (cx - ax) * (by_ - ay)) / 2
    r = 2 * area / p
    k = max(0.0, (r - by) / r)
    return [(ix + (x - ix) * k, iy + (y - iy) * k) for x, y in tri]


def _clip_half(tri, side: int) -> list[tuple[float, float]]:
    """The left (-1) or right (+1) half of an upright triangle (tip, left, right), split along its ridge."""
    tip, left, right = tri
    mid = ((left[0] + right[0]) / 2, (left[1] + right[1]) / 2)
    return [tip, left, mid] if side < 0 else [tip, mid, right]


def put_stone(img: Image.Image, seat: int, size: int, direction: int, x: float, y: float, scale: int = 100,
              ghost: bool = False, kind: str = "stone") -> None:
    """``kind``: what the phone test (``common.mark``) judges it as: a "stone", or a "secondary stone", one whose
    detail is not the point where it is drawn: two to four sharing a square while a choice is pending (the panel
    lists each whole, in words), the aura overlay's (the chips are its subject; the plain board shows the stones
    whole), a captured stone's ghost (the cross says it; the panel's line names it)."""
    sprite = stone_sprite(seat, size, direction, scale, ghost)
    mark(kind, STONE_W[size - 1] * scale / 100, STONE_L[size - 1] * scale / 100)
    img.paste(sprite, (round(x - sprite.width / 2), round(y - sprite.height / 2)), sprite)


@cached(maxsize=64)
def upright_sprite(seat: int, size: int, scale: int = 100) -> Image.Image:
    """A stone standing on its base, seen from above: a square with its four faces, half see-through."""
    half = (STONE_W[size - 1] + 4) / 2 * scale / 100
    side = math.ceil(2 * half + 8)
    img = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c, h = side * SS / 2, half * SS
    colour = seat_colour(seat)
    corners = [(c - h, c - h), (c + h, c - h), (c + h, c + h), (c - h, c + h)]
    shades = (_mix(colour, WHITE, 0.3), _mix(colour, BLACK, 0.1), _mix(colour, BLACK, 0.3), _mix(colour, WHITE, 0.1))
    for k in range(4):
        d.polygon([corners[k], corners[(k + 1) % 4], (c, c)], fill=(*shades[k], 170))
    d.polygon(corners, outline=(*BLACK, 255), width=2 * SS)
    d.line((*corners[0], *corners[2]), fill=(*BLACK, 200), width=SS)
    d.line((*corners[1], *corners[3]), fill=(*BLACK, 200), width=SS)
    mr = h * 0.34
    d.ellipse((c - mr * 1.5, c - mr * 1.5, c + mr * 1.5, c + mr * 1.5), fill=(*colour, 255), outline=(*BLACK, 255),
              width=SS)
    draw_mark(d, seat, c, c, mr, fill=(*INK, 255))
    return img.reduce(SS)


