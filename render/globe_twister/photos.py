"""Globe Twister's six souvenir photos, drawn by code: the polar front and the Asia, North America, Latin America,
Europe and Africa backs (games/globe_twister, docs/rendering.md "Globe Twister").

Each photo is a flat travel-poster picture cut into a 3x3 puzzle, and every one of its nine tiles shows by itself
which way is up: sky at the top of the top row (a gradient, the sun or the moon, clouds with flat bottoms, a
balloon, a landmark's spire), things standing on the ground in the middle row (a pagoda, a tower, a mountain, a
tree), and figures standing on the ground over a caption band in the bottom row (penguins, a gate, a bus, a
llama...). A tile turned a quarter or half turn therefore looks wrong at a glance.

Drawn once at ``_DRAW`` px (twice the master size, then halved: smooth edges) and cached; tiles of any size are
cut from the master, turned, and cached too. Deterministic: no randomness but a seeded ``random.Random``.

The caption band's letters are part of the picture (like a sign in a photo), not text the player must read:
they are drawn with Pillow's font directly, not through ``common.font``, and shrink with the tile. The photo's
name is always printed as text next to it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from i18n import N_, current, here, using
from i18n import _ as said
from render.common import _font as board_font

PHOTOS = ("polar", "asia", "north-america", "latin-america", "europe", "africa")
CAPTIONS = {"polar": N_("POLAR REGION"), "asia": N_("ASIA"), "north-america": N_("NORTH AMERICA"),
            "latin-america": N_("LATIN AMERICA"), "europe": N_("EUROPE"), "africa": N_("AFRICA")}
"""The sign painted across each photo's bottom row, in the language the photo is drawn in (so each language
has its own photos in the caches below)."""
MASTER = 480
"""The cached photo's size (px, 160 px tiles); bigger ones are never shown."""
_DRAW = 2 * MASTER

Colour = tuple[int, int, int]


def _hex(s: str) -> Colour:
    s = s.lstrip("#")
    return int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16)


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    return tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(3))  # type: ignore[return-value]


class _Pen:
    """Draws in unit coordinates (0-1 across the photo, y down) on a square canvas."""

    def __init__(self, size: int = _DRAW):
        self.s = size
        self.img = Image.new("RGB", (size, size), (0, 0, 0))
        self.d = ImageDraw.Draw(self.img)

    def px(self, v: float) -> float:
        return v * self.s

    def pts(self, pts: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x * self.s, y * self.s) for x, y in pts]

    def poly(self, pts, fill, outline=None, width: float = 0) -> None:
        self.d.polygon(self.pts(pts), fill=fill, outline=outline, width=round(width * self.s) if outline else 0)

    def rect(self, x0, y0, x1, y1, fill) -> None:
        self.d.rectangle((x0 * self.s, y0 * self.s, x1 * self.s - 1, y1 * self.s - 1), fill=fill)

    def ellipse(self, cx, cy, rx, ry, fill, outline=None, width: float = 0) -> None:
        s = self.s
        self.d.ellipse(((cx - rx) * s, (cy - ry) * s, (cx + rx) * s, (cy + ry) * s), fill=fill, outline=outline,
                       width=round(width * s) if outline else 0)

    def circle(self, cx, cy, r, fill, outline=None, width: float = 0) -> None:
        self.ellipse(cx, cy, r, r, fill, outline, width)

    def line(self, pts, fill, width: float) -> None:
        self.d.line(self.pts(pts), fill=fill, width=max(1, round(width * self.s)), joint="curve")

    def pieslice(self, cx, cy, rx, ry, start, end, fill) -> None:
        s = self.s
        self.d.pieslice(((cx - rx) * s, (cy - ry) * s, (cx + rx) * s, (cy + ry) * s), start, end, fill=fill)

    def chord(self, cx, cy, rx, ry, start, end, fill) -> None:
        s = self.s
        self.d.chord(((cx - rx) * s, (cy - ry) * s, (cx + rx) * s, (cy + ry) * s), start, end, fill=fill)

    def vgrad(self, y0: float, y1: float, stops: Sequence[Colour], x0: float = 0, x1: float = 1) -> None:
        """A vertical gradient through ``stops`` (evenly spaced) from y0 to y1."""
        top, bottom = round(y0 * self.s), round(y1 * self.s)
        h = max(bottom - top, 1)
        rows = []
        for k in range(h):
            t = k / max(h - 1, 1) * (len(stops) - 1)
            i = min(int(t), len(stops) - 2)
            rows.append(_mix(stops[i], stops[i + 1], t - i))
        strip = Image.new("RGB", (1, h))
        strip.putdata(rows)
        left, right = round(x0 * self.s), round(x1 * self.s)
        self.img.paste(strip.resize((right - left, h), Image.Resampling.NEAREST), (left, top))

    def overlay(self) -> tuple[Image.Image, ImageDraw.ImageDraw]:
        layer = Image.new("RGBA", self.img.size, (0, 0, 0, 0))
        return layer, ImageDraw.Draw(layer)

    def merge(self, layer: Image.Image) -> None:
        self.img = Image.alpha_composite(self.img.convert("RGBA"), layer).convert("RGB")
        self.d = ImageDraw.Draw(self.img)

    def caption(self, label: str, y0: float, y1: float, fill: Colour, ink: Colour, x0: float = 0.04,
                x1: float = 0.96) -> None:
        """The caption band across the bottom row: its letters spread over the whole width, so every bottom
        tile holds some (a sign in the picture, not UI text)."""
        self.rect(0, y0, 1, y1, fill)
        self.rect(0, y0, 1, y0 + 0.006, _mix(fill, ink, 0.45))
        size = (y1 - y0) * 0.78 * self.s
        f = board_font(size)  # the boards' font: it has the accents ("ÁFRICA")
        chars = list(here(said(label)))
        step = (x1 - x0) / max(len(chars) - 1, 1) if len(chars) > 1 else 0
        if len(chars) <= 6:  # a short word: spaced out, centred in each third
            step = (x1 - x0) / len(chars)
            x_first = x0 + step / 2
        else:
            x_first = x0
        cy = (y0 + y1) / 2 * self.s
        for k, ch in enumerate(chars):
            if ch == " ":
                continue
            self.d.text(((x_first + k * step) * self.s, cy), ch, font=f, fill=ink, anchor="mm",
                        stroke_width=max(1, round(size / 30)), stroke_fill=ink)


# --- shared figures -----------------------------------------------------------------------------------------
def _stars(p: _Pen, rng: random.Random, n: int, y1: float, colour: Colour = (255, 255, 240)) -> None:
    for _ in range(n):
        x, y, r = rng.random(), rng.random() * y1, 0.002 + rng.random() * 0.004
        p.circle(x, y, r, colour)


def _cloud(p: _Pen, cx: float, cy: float, w: float, colour: Colour, shade: Colour | None = None) -> None:
    """A cumulus: bumps on top, a flat bottom (reads "up" by itself)."""
    h = w * 0.42
    base = cy + h * 0.45
    if shade:
        p.ellipse(cx, base - h * 0.05, w * 0.5, h * 0.18, shade)
    for dx, r in ((-0.30, 0.22), (-0.08, 0.34), (0.16, 0.28), (0.34, 0.18)):
        p.circle(cx + dx * w, base - r * w * 0.8, r * w, colour)
    p.rect(cx - w * 0.5, base - h * 0.35, cx + w * 0.5, base, colour)
    p.chord(cx - w * 0.06, base, w * 0.5, h * 0.12, 0, 180, colour)


def _birds(p: _Pen, pts: Sequence[tuple[float, float, float]], colour: Colour) -> None:
    """Flying birds as little "m" strokes: two arcs, wing tips up."""
    for x, y, w in pts:
        p.line([(x - w, y - w * 0.35), (x - w * 0.45, y - w * 0.55), (x, y)], colour, w * 0.22)
        p.line([(x, y), (x + w * 0.45, y - w * 0.55), (x + w, y - w * 0.35)], colour, w * 0.22)


def _grass(p: _Pen, rng: random.Random, y: float, n: int, colour: Colour, h: float = 0.03,
           x0: float = 0.0, x1: float = 1.0) -> None:
    """Tufts of grass standing on the line ``y``: blades pointing up."""
    for _ in range(n):
        x = x0 + rng.random() * (x1 - x0)
        hh = h * (0.6 + rng.random() * 0.6)
        for dx, lean in ((-0.008, -0.01), (0, 0.0), (0.008, 0.012)):
            p.poly([(x + dx - 0.004, y), (x + dx + lean, y - hh), (x + dx + 0.004, y)], colour)


def _penguin(p: _Pen, cx: float, foot: float, h: float, facing: int = 1) -> None:
    body, belly, beak = _hex("1d2633"), _hex("f4f7fb"), _hex("f39c12")
    w = h * 0.42
    p.poly([(cx - w * 0.55, foot - h * 0.03), (cx - w * 0.35, foot), (cx - w * 0.05, foot - h * 0.03)], beak)
    p.poly([(cx + w * 0.05, foot - h * 0.03), (cx + w * 0.35, foot), (cx + w * 0.55, foot - h * 0.03)], beak)
    p.ellipse(cx, foot - h * 0.4, w * 0.5, h * 0.38, body)
    p.ellipse(cx + facing * w * 0.08, foot - h * 0.36, w * 0.34, h * 0.3, belly)
    p.circle(cx + facing * w * 0.05, foot - h * 0.8, w * 0.3, body)
    p.ellipse(cx + facing * w * 0.14, foot - h * 0.78, w * 0.14, w * 0.16, belly)
    p.circle(cx + facing * w * 0.18, foot - h * 0.8, w * 0.05, body)
    p.poly([(cx + facing * w * 0.3, foot - h * 0.82), (cx + facing * w * 0.6, foot - h * 0.77),
            (cx + facing * w * 0.3, foot - h * 0.73)], beak)
    # flippers
    p.poly([(cx - facing * w * 0.45, foot - h * 0.6), (cx - facing * w * 0.72, foot - h * 0.25),
            (cx - facing * w * 0.4, foot - h * 0.32)], body)


# --- the six photos ---------------------------------------------------------------------------------------
def _polar() -> _Pen:
    p = _Pen()
    rng = random.Random(1)
    p.vgrad(0, 0.36, [_hex("08152f"), _hex("173763"), _hex("3d7ca0")])
    _stars(p, rng, 70, 0.26)
    # the aurora: green curtains hanging from a wavy line, bright at the bottom, fading upwards
    layer, ld = p.overlay()
    s = p.s
    for band, (amp, base, colour) in enumerate(((0.035, 0.16, (80, 255, 160)), (0.03, 0.10, (120, 230, 255)))):
        for k in range(0, s, 2):
            x = k / s
            y = base + amp * math.sin(x * 6.5 + band * 2.1) + 0.012 * math.sin(x * 23 + band)
            top = y - (0.09 + 0.04 * math.sin(x * 11 + band * 3)) * (0.8 if band else 1)
            steps = 12
            for j in range(steps):
                a = (j + 1) / steps
                y0 = top + (y - top) * j / steps
                y1 = top + (y - top) * (j + 1) / steps
                ld.rectangle((k, y0 * s, k + 1, y1 * s), fill=(*colour, round(150 * a ** 2)))
    p.merge(layer)
    # the moon (a crescent) over the right corner
    p.circle(0.86, 0.085, 0.048, _hex("fff4c4"))
    p.circle(0.885, 0.07, 0.042, _mix(_hex("08152f"), _hex("173763"), 0.4))
    # far mountains with snow
    p.poly([(0, 0.37), (0, 0.27), (0.06, 0.22), (0.12, 0.26), (0.2, 0.19), (0.3, 0.27), (0.38, 0.24),
            (0.47, 0.29), (0.58, 0.2), (0.68, 0.27), (0.76, 0.23), (0.86, 0.28), (0.94, 0.21), (1, 0.25),
            (1, 0.37)], _hex("7fa4c4"))
    for peak, left, right in (((0.2, 0.19), 0.16, 0.245), ((0.58, 0.2), 0.54, 0.625), ((0.94, 0.21), 0.9, 0.98),
                              ((0.06, 0.22), 0.03, 0.09)):
        px_, py = peak
        p.poly([(left, py + 0.035), peak, (right, py + 0.035), (px_ + 0.01, py + 0.025), (px_ - 0.01, py + 0.04)],
               _hex("f2f8fc"))
    p.poly([(0, 0.37), (0, 0.31), (0.1, 0.29), (0.25, 0.32), (0.4, 0.3), (0.55, 0.33), (0.7, 0.3), (0.85, 0.32),
            (1, 0.3), (1, 0.37)], _hex("c9dcea"))
    # the sea
    p.vgrad(0.355, 0.66, [_hex("2a6f93"), _hex("134466")])
    for k in range(14):
        y = 0.38 + k * 0.02
        x = rng.random() * 0.8
        p.line([(x, y), (x + 0.08 + rng.random() * 0.1, y)], _hex("3f86aa"), 0.003)
    # icebergs: a small one left, a big one in the middle (peaks up, shaded right faces)
    p.poly([(0.04, 0.6), (0.09, 0.5), (0.14, 0.46), (0.19, 0.49), (0.25, 0.6)], _hex("eaf4fb"))
    p.poly([(0.14, 0.46), (0.19, 0.49), (0.25, 0.6), (0.17, 0.6)], _hex("a9cde3"))
    p.poly([(0.36, 0.62), (0.41, 0.5), (0.47, 0.44), (0.5, 0.37), (0.54, 0.42), (0.58, 0.4), (0.64, 0.5),
            (0.69, 0.62)], _hex("f4f9fd"))
    p.poly([(0.5, 0.37), (0.54, 0.42), (0.58, 0.4), (0.64, 0.5), (0.69, 0.62), (0.55, 0.62), (0.52, 0.47)],
           _hex("b4d5ea"))
    p.line([(0.37, 0.615), (0.68, 0.615)], _hex("8fc3de"), 0.006)
    # a whale's tail, flukes up, with a splash
    tail = _hex("26384c")
    p.poly([(0.81, 0.6), (0.815, 0.53), (0.79, 0.48), (0.74, 0.455), (0.765, 0.44), (0.8, 0.455),
            (0.83, 0.49), (0.86, 0.455), (0.895, 0.44), (0.92, 0.455), (0.87, 0.48), (0.845, 0.53),
            (0.85, 0.6)], tail)
    for dx, dy, r in ((-0.05, 0.59, 0.012), (0.06, 0.585, 0.01), (-0.03, 0.565, 0.008), (0.045, 0.56, 0.008),
                      (0.0, 0.6, 0.02)):
        p.circle(0.83 + dx, dy, r, _hex("d8eef8"))
    # the ice floe
    p.poly([(0, 0.66), (0.15, 0.64), (0.35, 0.655), (0.6, 0.635), (0.8, 0.65), (1, 0.64), (1, 1), (0, 1)],
           _hex("9cc4dd"))
    p.vgrad(0.665, 0.9, [_hex("e3eff7"), _hex("f7fbfe")])
    p.poly([(0, 0.665), (0.15, 0.648), (0.35, 0.662), (0.6, 0.642), (0.8, 0.657), (1, 0.648), (1, 0.67),
            (0, 0.67)], _hex("e3eff7"))
    for x0, x1, y in ((0.05, 0.22, 0.72), (0.42, 0.58, 0.74), (0.7, 0.9, 0.71)):
        p.line([(x0, y), (x1, y)], _hex("c5dcec"), 0.006)
    # penguins on the left
    _penguin(p, 0.1, 0.88, 0.17, 1)
    _penguin(p, 0.235, 0.875, 0.13, -1)
    # an igloo in the middle, its door at the bottom
    p.pieslice(0.5, 0.88, 0.12, 0.13, 180, 360, _hex("eef5fb"))
    p.d.arc(p.pts([(0.38, 0.75), (0.62, 1.01)])[0] + p.pts([(0.38, 0.75), (0.62, 1.01)])[1], 180, 360,
            fill=_hex("9ab9d0"), width=round(0.006 * p.s))
    for y, offs in ((0.845, (0.4, 0.46, 0.52, 0.58)), (0.81, (0.43, 0.49, 0.55)), (0.78, (0.46, 0.52))):
        p.line([(0.39 if y > 0.83 else 0.41 if y > 0.8 else 0.44, y), (0.61 if y > 0.83 else 0.59 if y > 0.8 else
                                                                        0.56, y)], _hex("9ab9d0"), 0.004)
        for x in offs:
            p.line([(x, y), (x, y + 0.035)], _hex("9ab9d0"), 0.004)
    p.pieslice(0.5, 0.88, 0.04, 0.06, 180, 360, _hex("2b3f57"))
    _penguin(p, 0.66, 0.885, 0.09, -1)
    # an expedition flag on the right
    p.line([(0.84, 0.89), (0.84, 0.69)], _hex("4a3a2a"), 0.008)
    p.poly([(0.844, 0.69), (0.95, 0.715), (0.844, 0.745)], _hex("e4572e"))
    p.ellipse(0.84, 0.89, 0.05, 0.012, _hex("c5dcec"))
    _penguin(p, 0.93, 0.885, 0.1, -1)
    p.caption(CAPTIONS["polar"], 0.9, 1.0, _hex("14304d"), _hex("f4f8fb"))
    return p


def _pagoda(p: _Pen, cx: float, top: float, bottom: float) -> None:
    roof, wall, trim = _hex("3b2a33"), _hex("c8412f"), _hex("f1c27d")
    tiers = 5
    spire = top + (bottom - top) * 0.16
    p.line([(cx, top), (cx, spire + 0.01)], roof, 0.007)
    for k in range(4):
        p.ellipse(cx, top + 0.025 + k * 0.018, 0.012, 0.004, trim)
    p.circle(cx, top, 0.008, trim)
    span = (bottom - spire) / tiers
    for k in range(tiers):
        y0 = spire + k * span
        w = 0.055 + 0.015 * k
        p.rect(cx - w * 0.7, y0 + span * 0.3, cx + w * 0.7, y0 + span, wall)
        for j in range(3):
            x = cx - w * 0.45 + j * w * 0.45
            p.rect(x - 0.006, y0 + span * 0.5, x + 0.006, y0 + span * 0.85, _hex("7a241a"))
        p.poly([(cx - w * 1.45, y0 + span * 0.22), (cx - w * 1.25, y0 + span * 0.36), (cx + w * 1.25, y0 + span * 0.36),
                (cx + w * 1.45, y0 + span * 0.22), (cx + w * 1.1, y0 + span * 0.3), (cx + w * 0.55, y0),
                (cx - w * 0.55, y0), (cx - w * 1.1, y0 + span * 0.3)], roof)
    p.rect(cx - 0.12, bottom, cx + 0.12, bottom + 0.02, _hex("8b7d6b"))


def _torii(p: _Pen, cx: float, top: float, foot: float, w: float) -> None:
    red, black = _hex("d0312d"), _hex("26201f")
    for sx in (-1, 1):
        p.poly([(cx + sx * w * 0.33, top + 0.03), (cx + sx * w * 0.37, foot), (cx + sx * w * 0.29, foot),
                (cx + sx * w * 0.26, top + 0.03)], red)
        p.rect(cx + sx * w * 0.33 - 0.016, foot - 0.012, cx + sx * w * 0.33 + 0.016, foot, black)
    p.rect(cx - w * 0.42, top + 0.06, cx + w * 0.42, top + 0.078, red)
    p.rect(cx - 0.01, top + 0.03, cx + 0.01, top + 0.06, red)
    p.poly([(cx - w * 0.56, top - 0.008), (cx - w * 0.5, top + 0.012), (cx + w * 0.5, top + 0.012),
            (cx + w * 0.56, top - 0.008), (cx + w * 0.4, top + 0.002), (cx - w * 0.4, top + 0.002)], black)
    p.poly([(cx - w * 0.52, top + 0.005), (cx - w * 0.46, top + 0.032), (cx + w * 0.46, top + 0.032),
            (cx + w * 0.52, top + 0.005), (cx + w * 0.38, top + 0.014), (cx - w * 0.38, top + 0.014)], red)


def _asia() -> _Pen:
    p = _Pen()
    rng = random.Random(2)
    p.vgrad(0, 0.62, [_hex("f08a5d"), _hex("f7b57a"), _hex("fde2b0"), _hex("fff1d6")])
    # the rising sun and a crane
    p.circle(0.83, 0.13, 0.085, _hex("d7263d"))
    for y, x0, x1 in ((0.215, 0.7, 0.98), (0.245, 0.75, 0.93)):
        p.rect(x0, y, x1, y + 0.014, _hex("fbe3c0"))
    crane, tip = _hex("fbfbf7"), _hex("25262b")
    p.poly([(0.62, 0.07), (0.66, 0.095), (0.7, 0.1), (0.74, 0.098), (0.7, 0.108), (0.66, 0.11)], crane)
    p.poly([(0.65, 0.1), (0.6, 0.035), (0.63, 0.04), (0.69, 0.1)], crane)
    p.poly([(0.6, 0.035), (0.615, 0.03), (0.625, 0.05)], tip)
    p.line([(0.74, 0.098), (0.77, 0.085), (0.785, 0.088)], crane, 0.006)
    p.circle(0.785, 0.086, 0.006, _hex("d7263d"))
    p.line([(0.62, 0.075), (0.57, 0.09)], tip, 0.004)
    # stylised clouds (flat bottoms)
    for cx, cy, w in ((0.33, 0.1, 0.16), (0.12, 0.36, 0.1)):
        _cloud(p, cx, cy, w, _hex("fff6e6"))
    # Mount Fuji, its snow cap with a jagged lower edge
    mountain = _hex("5a5f96")
    p.poly([(0.04, 0.66), (0.3, 0.38), (0.43, 0.2), (0.47, 0.17), (0.53, 0.17), (0.57, 0.2), (0.7, 0.38),
            (0.96, 0.66)], mountain)
    p.poly([(0.5, 0.17), (0.53, 0.17), (0.57, 0.2), (0.7, 0.38), (0.96, 0.66), (0.62, 0.66)], _hex("484c80"))
    p.poly([(0.43, 0.2), (0.47, 0.17), (0.53, 0.17), (0.57, 0.2), (0.62, 0.27), (0.6, 0.3), (0.575, 0.27),
            (0.555, 0.31), (0.53, 0.265), (0.505, 0.33), (0.48, 0.27), (0.455, 0.305), (0.435, 0.265),
            (0.41, 0.29), (0.385, 0.27)], _hex("f7f9fc"))
    for x, y1, w in ((0.41, 0.4, 0.01), (0.455, 0.47, 0.013), (0.505, 0.5, 0.015), (0.555, 0.46, 0.013),
                     (0.6, 0.41, 0.01)):  # snow in the gullies, hanging down the slopes
        p.poly([(x - w, 0.28), (x - w * 0.4, y1 - 0.03), (x, y1), (x + w * 0.4, y1 - 0.03), (x + w, 0.28)],
               _hex("e4eaf5"))
    # a forest of small conifers at the mountain's foot
    forest = _hex("2f5d46")
    p.rect(0, 0.6, 1, 0.7, forest)
    for k in range(34):
        x = k / 33
        h = 0.05 + 0.025 * ((k * 7) % 5) / 4
        p.poly([(x - 0.022, 0.615), (x, 0.615 - h), (x + 0.022, 0.615)], forest)
    # the lake shore and the meadow
    p.vgrad(0.68, 0.9, [_hex("7fb069"), _hex("5d9150")])
    _grass(p, rng, 0.86, 40, _hex("4a7a40"), 0.025)
    # a five-tier pagoda on the left
    _pagoda(p, 0.17, 0.06, 0.82)
    # a torii gate in the middle
    _torii(p, 0.5, 0.7, 0.885, 0.3)
    # a cherry tree on the right: trunk from the ground, pink blossom
    bark = _hex("5b3a32")
    p.poly([(0.84, 0.89), (0.86, 0.7), (0.82, 0.55), (0.84, 0.54), (0.88, 0.66), (0.92, 0.56), (0.935, 0.57),
            (0.9, 0.7), (0.9, 0.89)], bark)
    p.line([(0.83, 0.56), (0.74, 0.47)], bark, 0.012)
    p.line([(0.925, 0.57), (0.97, 0.46)], bark, 0.01)
    for k in range(46):
        a = rng.random() * math.tau
        r = rng.random() ** 0.5
        x = 0.85 + math.cos(a) * r * 0.14
        y = 0.47 + math.sin(a) * r * 0.09
        p.circle(x, y, 0.022 + rng.random() * 0.015, _hex("f6a5c0") if k % 3 else _hex("f9c7d8"))
    for _ in range(10):  # falling petals
        p.circle(0.7 + rng.random() * 0.3, 0.62 + rng.random() * 0.22, 0.006, _hex("f6a5c0"))
    # a stone lantern by the pagoda
    stone = _hex("8f8a80")
    p.rect(0.325, 0.8, 0.345, 0.875, stone)
    p.rect(0.31, 0.77, 0.36, 0.8, stone)
    p.rect(0.322, 0.778, 0.348, 0.795, _hex("ffd27a"))
    p.poly([(0.3, 0.77), (0.335, 0.745), (0.37, 0.77)], stone)
    p.rect(0.31, 0.87, 0.36, 0.885, stone)
    p.caption(CAPTIONS["asia"], 0.9, 1.0, _hex("7a1f1f"), _hex("fff1d6"))
    return p


def _liberty(p: _Pen, cx: float) -> None:
    green, dark = _hex("6fb5a3"), _hex("3f8273")
    stone, stone_dark = _hex("c9b48a"), _hex("a08b63")
    # the pedestal, wider at the bottom
    p.poly([(cx - 0.11, 0.86), (cx - 0.09, 0.7), (cx - 0.075, 0.58), (cx + 0.075, 0.58), (cx + 0.09, 0.7),
            (cx + 0.11, 0.86)], stone)
    p.poly([(cx + 0.02, 0.58), (cx + 0.075, 0.58), (cx + 0.09, 0.7), (cx + 0.11, 0.86), (cx + 0.03, 0.86)],
           stone_dark)
    p.rect(cx - 0.09, 0.56, cx + 0.09, 0.585, stone_dark)
    for y in (0.64, 0.74):
        p.rect(cx - 0.03, y, cx - 0.01, y + 0.04, _hex("7b6a4c"))
        p.rect(cx + 0.015, y, cx + 0.035, y + 0.04, _hex("7b6a4c"))
    # the robe
    p.poly([(cx - 0.065, 0.565), (cx - 0.05, 0.4), (cx - 0.04, 0.31), (cx + 0.035, 0.3), (cx + 0.05, 0.4),
            (cx + 0.06, 0.565)], green)
    p.poly([(cx + 0.005, 0.3), (cx + 0.035, 0.3), (cx + 0.05, 0.4), (cx + 0.06, 0.565), (cx + 0.015, 0.565)], dark)
    for k in range(4):
        p.line([(cx - 0.04 + k * 0.022, 0.36), (cx - 0.05 + k * 0.026, 0.55)], dark, 0.004)
    # the tablet in the left arm
    p.poly([(cx - 0.075, 0.35), (cx - 0.035, 0.34), (cx - 0.03, 0.42), (cx - 0.07, 0.43)], _hex("5aa090"))
    # head with the crown's rays
    p.line([(cx - 0.005, 0.3), (cx - 0.005, 0.27)], green, 0.02)
    p.circle(cx - 0.006, 0.255, 0.022, green)
    for k in range(7):
        a = math.radians(-160 + k * 23.3)
        p.line([(cx - 0.006 + 0.02 * math.cos(a), 0.245 + 0.02 * math.sin(a)),
                (cx - 0.006 + 0.05 * math.cos(a), 0.245 + 0.05 * math.sin(a))], green, 0.007)
    # the raised right arm and the torch with its golden flame
    p.line([(cx + 0.03, 0.31), (cx + 0.045, 0.2), (cx + 0.05, 0.12)], green, 0.02)
    p.poly([(cx + 0.035, 0.12), (cx + 0.065, 0.12), (cx + 0.058, 0.1), (cx + 0.042, 0.1)], dark)
    p.poly([(cx + 0.05, 0.025), (cx + 0.07, 0.07), (cx + 0.062, 0.098), (cx + 0.038, 0.098), (cx + 0.03, 0.07)],
           _hex("f6c945"))
    p.poly([(cx + 0.05, 0.05), (cx + 0.06, 0.078), (cx + 0.05, 0.095), (cx + 0.04, 0.078)], _hex("fff1a8"))


def _north_america() -> _Pen:
    p = _Pen()
    rng = random.Random(3)
    p.vgrad(0, 0.76, [_hex("2f6db5"), _hex("5d9ad6"), _hex("a9d3ef"), _hex("d8eef8")])
    _cloud(p, 0.45, 0.09, 0.2, _hex("ffffff"), _hex("d5e6f3"))
    _cloud(p, 0.82, 0.27, 0.16, _hex("ffffff"), _hex("d5e6f3"))
    _cloud(p, 0.33, 0.36, 0.1, _hex("f4f9fd"))
    # a jet, tail fin up, with its contrail
    jet = _hex("f4f6f8")
    p.line([(0.62, 0.125), (0.8, 0.125)], _hex("e4f0f9"), 0.008)
    p.poly([(0.8, 0.12), (0.9, 0.118), (0.925, 0.125), (0.9, 0.132), (0.8, 0.132)], jet)
    p.poly([(0.8, 0.12), (0.805, 0.09), (0.818, 0.09), (0.825, 0.12)], _hex("c93a3a"))
    p.poly([(0.85, 0.128), (0.83, 0.15), (0.845, 0.15), (0.875, 0.128)], _hex("cfd8e0"))
    # skyscrapers: the Empire State Building with its spire, a Chrysler-like crown, blocks with windows
    far, near, win = _hex("7d93b5"), _hex("4a5877"), _hex("f7e08a")
    for x0, x1, top in ((0.3, 0.4, 0.42), (0.6, 0.68, 0.38), (0.86, 0.96, 0.44), (0.93, 1.0, 0.36)):
        p.rect(x0, top, x1, 0.74, far)
    # Chrysler-like: stepped arches to a needle
    cx = 0.76
    p.rect(cx - 0.045, 0.3, cx + 0.045, 0.74, _hex("8a9ab5"))
    for k, w in enumerate((0.04, 0.032, 0.024, 0.016)):
        p.chord(cx, 0.3 - k * 0.03, w, 0.035, 180, 360, _hex("c8d3e0") if k % 2 else _hex("9fb0c8"))
    p.line([(cx, 0.2), (cx, 0.12)], _hex("c8d3e0"), 0.004)
    # Empire State
    ex = 0.5
    body = _hex("5f6f8e")
    p.rect(ex - 0.075, 0.4, ex + 0.075, 0.74, body)
    p.rect(ex - 0.055, 0.3, ex + 0.055, 0.4, body)
    p.rect(ex - 0.035, 0.21, ex + 0.035, 0.3, body)
    p.rect(ex - 0.02, 0.16, ex + 0.02, 0.21, body)
    p.poly([(ex - 0.012, 0.16), (ex, 0.1), (ex + 0.012, 0.16)], body)
    p.line([(ex, 0.1), (ex, 0.04)], body, 0.005)
    for x0, x1, y0, y1 in ((ex - 0.065, ex + 0.065, 0.42, 0.72), (ex - 0.045, ex + 0.045, 0.32, 0.39),
                           (ex - 0.025, ex + 0.025, 0.23, 0.29)):
        y = y0
        while y < y1:
            x = x0
            while x < x1 - 0.01:
                if rng.random() < 0.65:
                    p.rect(x, y, x + 0.01, y + 0.014, win)
                x += 0.02
            y += 0.028
    # nearer blocks with windows and water towers on their roofs
    for x0, x1, top in ((0.24, 0.34, 0.52), (0.6, 0.72, 0.48), (0.82, 0.94, 0.54)):
        p.rect(x0, top, x1, 0.76, near)
        y = top + 0.02
        while y < 0.73:
            x = x0 + 0.012
            while x < x1 - 0.015:
                if rng.random() < 0.6:
                    p.rect(x, y, x + 0.012, y + 0.016, win)
                x += 0.024
            y += 0.032
        wx = x0 + 0.03
        p.line([(wx - 0.012, top), (wx - 0.01, top - 0.02)], _hex("3a2f2a"), 0.003)
        p.line([(wx + 0.012, top), (wx + 0.01, top - 0.02)], _hex("3a2f2a"), 0.003)
        p.rect(wx - 0.014, top - 0.05, wx + 0.014, top - 0.02, _hex("8b5a3c"))
        p.poly([(wx - 0.016, top - 0.05), (wx, top - 0.068), (wx + 0.016, top - 0.05)], _hex("5c3a28"))
    # the harbour
    p.vgrad(0.74, 0.9, [_hex("2e6f9e"), _hex("1d4f78")])
    for k in range(10):
        y = 0.77 + k * 0.013
        x = rng.random() * 0.9
        p.line([(x, y), (x + 0.05 + rng.random() * 0.06, y)], _hex("4b8bb8"), 0.003)
    # Liberty on her island
    p.ellipse(0.17, 0.87, 0.16, 0.03, _hex("5b8a4a"))
    _liberty(p, 0.17)
    # the ferry: hull below, cabins above, a funnel
    fx = 0.62
    p.poly([(fx - 0.14, 0.8), (fx + 0.14, 0.8), (fx + 0.12, 0.845), (fx - 0.12, 0.845)], _hex("e8772e"))
    p.rect(fx - 0.1, 0.76, fx + 0.1, 0.8, _hex("f3f0e8"))
    p.rect(fx - 0.07, 0.73, fx + 0.05, 0.76, _hex("f3f0e8"))
    for k in range(8):
        p.rect(fx - 0.09 + k * 0.024, 0.77, fx - 0.078 + k * 0.024, 0.785, _hex("3a4a5e"))
    p.rect(fx + 0.01, 0.7, fx + 0.03, 0.73, _hex("2c2c2c"))
    p.circle(fx + 0.02, 0.68, 0.012, _hex("e4edf4"))
    # the quay and a yellow cab
    p.rect(0.76, 0.86, 1.0, 0.9, _hex("8a8f98"))
    cab = _hex("f5c518")
    cx = 0.89
    p.poly([(cx - 0.085, 0.86), (cx - 0.085, 0.83), (cx - 0.05, 0.825), (cx - 0.03, 0.795), (cx + 0.035, 0.795),
            (cx + 0.055, 0.825), (cx + 0.085, 0.83), (cx + 0.085, 0.86)], cab)
    p.poly([(cx - 0.022, 0.803), (cx + 0.0, 0.803), (cx + 0.0, 0.823), (cx - 0.038, 0.823)], _hex("bfe3f5"))
    p.poly([(cx + 0.008, 0.803), (cx + 0.03, 0.803), (cx + 0.045, 0.823), (cx + 0.008, 0.823)], _hex("bfe3f5"))
    p.rect(cx - 0.012, 0.782, cx + 0.016, 0.795, _hex("2b2b2b"))
    for wx in (cx - 0.05, cx + 0.05):
        p.circle(wx, 0.862, 0.017, _hex("222222"))
        p.circle(wx, 0.862, 0.007, _hex("b8bcc4"))
    p.caption(CAPTIONS["north-america"], 0.9, 1.0, _hex("1d3557"), _hex("f7f3e3"))
    return p


def _sun_face(p: _Pen, cx: float, cy: float, r: float) -> None:
    """An Inca sun: rays around a face (eyes over a smile: it has an up)."""
    gold, deep = _hex("f9c22e"), _hex("e08e0b")
    for k in range(16):
        a = k * math.tau / 16
        r1 = r * (1.75 if k % 2 else 1.45)
        p.poly([(cx + r * 0.9 * math.cos(a - 0.17), cy + r * 0.9 * math.sin(a - 0.17)),
                (cx + r1 * math.cos(a), cy + r1 * math.sin(a)),
                (cx + r * 0.9 * math.cos(a + 0.17), cy + r * 0.9 * math.sin(a + 0.17))], deep if k % 2 else gold)
    p.circle(cx, cy, r, gold)
    p.circle(cx, cy, r * 0.82, _hex("fbd35a"))
    ink = _hex("8a4b08")
    p.ellipse(cx - r * 0.33, cy - r * 0.2, r * 0.11, r * 0.15, ink)
    p.ellipse(cx + r * 0.33, cy - r * 0.2, r * 0.11, r * 0.15, ink)
    p.d.arc(p.pts([(cx - r * 0.45, cy - r * 0.25), (cx + r * 0.45, cy + r * 0.5)])[0]
            + p.pts([(cx - r * 0.45, cy - r * 0.25), (cx + r * 0.45, cy + r * 0.5)])[1], 20, 160, fill=ink,
            width=round(r * 0.12 * p.s))
    p.poly([(cx, cy - r * 0.1), (cx - r * 0.08, cy + r * 0.15), (cx + r * 0.08, cy + r * 0.15)], deep)


def _llama(p: _Pen, cx: float, foot: float, h: float) -> None:
    wool, shade, dark = _hex("f3ead8"), _hex("d8c8a8"), _hex("4a3b2f")
    w = h * 0.7
    for dx in (-0.38, -0.22, 0.2, 0.34):
        p.rect(cx + dx * w - 0.008, foot - h * 0.38, cx + dx * w + 0.008, foot, shade if dx < 0 else wool)
        p.rect(cx + dx * w - 0.009, foot - 0.01, cx + dx * w + 0.009, foot, dark)
    p.ellipse(cx - w * 0.05, foot - h * 0.45, w * 0.5, h * 0.16, wool)
    p.ellipse(cx - w * 0.55, foot - h * 0.5, w * 0.08, h * 0.06, wool)
    # a saddle blanket in stripes
    for k, c in enumerate(("d7263d", "f9c22e", "2a9d8f", "d7263d")):
        p.rect(cx - w * 0.2 + k * w * 0.08, foot - h * 0.6, cx - w * 0.12 + k * w * 0.08, foot - h * 0.4, _hex(c))
    # neck and head
    p.poly([(cx + w * 0.3, foot - h * 0.5), (cx + w * 0.32, foot - h * 0.95), (cx + w * 0.46, foot - h * 0.95),
            (cx + w * 0.45, foot - h * 0.45)], wool)
    p.ellipse(cx + w * 0.46, foot - h * 0.95, w * 0.16, h * 0.07, wool)
    p.poly([(cx + w * 0.33, foot - h * 0.98), (cx + w * 0.35, foot - h * 1.12), (cx + w * 0.39, foot - h * 0.99)],
           wool)
    p.poly([(cx + w * 0.4, foot - h * 0.98), (cx + w * 0.44, foot - h * 1.12), (cx + w * 0.46, foot - h * 0.99)],
           wool)
    p.circle(cx + w * 0.48, foot - h * 0.97, 0.006, dark)


def _saguaro(p: _Pen, cx: float, foot: float, h: float) -> None:
    green, light = _hex("3f8f4f"), _hex("5fb06a")
    w = h * 0.13
    p.rect(cx - w, foot - h + w, cx + w, foot, green)
    p.circle(cx, foot - h + w, w, green)
    for sx, y, up in ((-1, 0.55, 0.3), (1, 0.4, 0.25)):
        ay = foot - h * y
        ax = cx + sx * w * 2.6
        p.rect(min(cx, ax) - (0 if sx > 0 else w * 0.8), ay - w * 0.8, max(cx, ax) + (w * 0.8 if sx > 0 else 0), ay,
               green)
        p.rect(ax - w * 0.8, ay - h * up, ax + w * 0.8, ay, green)
        p.circle(ax, ay - h * up, w * 0.8, green)
    p.line([(cx - w * 0.3, foot - h * 0.9), (cx - w * 0.3, foot)], light, 0.004)
    p.circle(cx, foot - h + w * 0.2, w * 0.55, _hex("f25f8a"))


def _latin_america() -> _Pen:
    p = _Pen()
    rng = random.Random(4)
    p.vgrad(0, 0.7, [_hex("1f9fd0"), _hex("6cc7e6"), _hex("c6ecf5")])
    _sun_face(p, 0.15, 0.13, 0.075)
    _cloud(p, 0.82, 0.26, 0.17, _hex("ffffff"), _hex("d6eef6"))
    _cloud(p, 0.36, 0.07, 0.12, _hex("f7fcfe"))
    # a condor soaring, wings spread with fingered tips, head forward
    condor = _hex("1f1f24")
    p.poly([(0.66, 0.12), (0.72, 0.1), (0.78, 0.095), (0.84, 0.06), (0.9, 0.05), (0.93, 0.055), (0.91, 0.065),
            (0.94, 0.07), (0.9, 0.08), (0.86, 0.1), (0.82, 0.125), (0.76, 0.135), (0.7, 0.14)], condor)
    p.poly([(0.7, 0.12), (0.64, 0.08), (0.6, 0.06), (0.57, 0.062), (0.59, 0.072), (0.56, 0.078), (0.6, 0.088),
            (0.66, 0.13)], condor)
    p.circle(0.785, 0.13, 0.012, _hex("f3f0ea"))
    p.circle(0.8, 0.135, 0.009, _hex("c9504a"))
    # distant blue mountains, then Huayna Picchu's green peak
    p.poly([(0, 0.55), (0, 0.32), (0.1, 0.27), (0.2, 0.33), (0.3, 0.26), (0.42, 0.35), (0.5, 0.4), (0.5, 0.55)],
           _hex("8aa8c4"))
    peak = _hex("2f7a4e")
    p.poly([(0.38, 0.7), (0.45, 0.48), (0.52, 0.3), (0.56, 0.18), (0.6, 0.12), (0.635, 0.13), (0.66, 0.2),
            (0.7, 0.28), (0.75, 0.33), (0.8, 0.42), (0.86, 0.47), (0.95, 0.58), (1, 0.6), (1, 0.7)], peak)
    p.poly([(0.6, 0.12), (0.635, 0.13), (0.66, 0.2), (0.7, 0.28), (0.75, 0.33), (0.8, 0.42), (0.86, 0.47),
            (0.95, 0.58), (1, 0.6), (1, 0.7), (0.7, 0.7), (0.64, 0.4)], _hex("23603d"))
    # terraces and stone ruins with gabled roofs
    for k in range(7):
        y = 0.46 + k * 0.035
        x1 = 0.62 + k * 0.03
        p.rect(0, y, x1, y + 0.035, _hex("8fbf63") if k % 2 else _hex("7aad55"))
        p.rect(0, y + 0.03, x1, y + 0.035, _hex("6b8d4a"))
    stone, roof = _hex("b6ab98"), _hex("8c7f6b")
    for hx, hy, w in ((0.06, 0.46, 0.07), (0.17, 0.46, 0.06), (0.28, 0.495, 0.07), (0.4, 0.53, 0.065),
                      (0.12, 0.565, 0.06), (0.24, 0.6, 0.07), (0.5, 0.6, 0.06)):
        p.rect(hx, hy - 0.035, hx + w, hy, stone)
        p.poly([(hx - 0.005, hy - 0.035), (hx + w / 2, hy - 0.07), (hx + w + 0.005, hy - 0.035)], roof)
        p.rect(hx + w * 0.4, hy - 0.025, hx + w * 0.6, hy, _hex("5e554a"))
    # a palm tree on the right
    trunk = _hex("8a5a3b")
    p.poly([(0.86, 0.82), (0.87, 0.6), (0.885, 0.45), (0.9, 0.45), (0.892, 0.6), (0.885, 0.82)], trunk)
    leaf = _hex("3c9a48")
    for a, ln in ((-160, 0.1), (-125, 0.11), (-90, 0.08), (-55, 0.11), (-20, 0.1), (-200, 0.08), (20, 0.08)):
        r = math.radians(a)
        x1, y1 = 0.892 + ln * math.cos(r), 0.45 + ln * math.sin(r) + ln * 0.35
        mx, my = 0.892 + ln * 0.55 * math.cos(r), 0.45 + ln * 0.55 * math.sin(r) - 0.015
        p.poly([(0.892, 0.45), (mx, my - 0.012), (x1, y1), (mx, my + 0.012)], leaf)
    p.circle(0.885, 0.462, 0.01, _hex("6b4a2a"))
    # the valley floor
    p.vgrad(0.68, 0.9, [_hex("c9b26b"), _hex("b39650")])
    _grass(p, rng, 0.89, 30, _hex("8a7a3a"), 0.02)
    _llama(p, 0.16, 0.88, 0.19)
    # agaves and flowers in the middle
    agave = _hex("4f8f7a")
    for cx in (0.44, 0.56):
        for a in (-150, -125, -105, -90, -75, -55, -30):
            r = math.radians(a)
            p.poly([(cx - 0.012, 0.88), (cx + 0.09 * math.cos(r), 0.88 + 0.1 * math.sin(r)), (cx + 0.012, 0.88)],
                   agave)
    p.line([(0.5, 0.88), (0.505, 0.72)], _hex("6b7a3a"), 0.006)
    for k in range(5):
        p.circle(0.505 + (k - 2) * 0.012, 0.715 - abs(k - 2) * 0.008, 0.012, _hex("f2a33a"))
    _saguaro(p, 0.8, 0.885, 0.2)
    p.caption(CAPTIONS["latin-america"], 0.9, 1.0, _hex("6d2e46"), _hex("fdf0d5"))
    return p


def _big_ben(p: _Pen, cx: float, top: float, foot: float) -> None:
    stone, dark, face = _hex("c9a46a"), _hex("a07c45"), _hex("f6efd9")
    w = 0.05
    spire = top + 0.09
    p.poly([(cx - w * 0.75, spire), (cx, top), (cx + w * 0.75, spire)], _hex("4a5560"))
    for sx in (-1, 1):
        p.poly([(cx + sx * w * 0.9, spire + 0.01), (cx + sx * w * 0.8, spire - 0.04), (cx + sx * w * 0.7, spire + 0.01)],
               _hex("4a5560"))
    p.rect(cx - w * 0.8, spire, cx + w * 0.8, spire + 0.04, dark)
    for k in range(3):
        p.chord(cx - w * 0.45 + k * w * 0.45, spire + 0.03, 0.008, 0.012, 180, 360, _hex("54442e"))
    p.rect(cx - w, spire + 0.04, cx + w, foot, stone)
    p.rect(cx + w * 0.35, spire + 0.04, cx + w, foot, dark)
    # the clock (hands at ten past ten)
    cy = spire + 0.09
    p.rect(cx - w * 1.05, cy - 0.055, cx + w * 1.05, cy + 0.055, dark)
    p.circle(cx, cy, 0.042, face, _hex("3a2e1e"), 0.005)
    p.line([(cx, cy), (cx - 0.018, cy - 0.014)], _hex("1e1e1e"), 0.005)
    p.line([(cx, cy), (cx + 0.024, cy - 0.02)], _hex("1e1e1e"), 0.004)
    # gothic windows (pointed arches) down the tower
    y = cy + 0.08
    while y < foot - 0.06:
        for sx in (-0.022, 0.014):
            p.rect(cx + sx, y, cx + sx + 0.012, y + 0.04, _hex("6e5532"))
            p.poly([(cx + sx, y), (cx + sx + 0.006, y - 0.014), (cx + sx + 0.012, y)], _hex("6e5532"))
        p.rect(cx - w, y + 0.05, cx + w, y + 0.056, dark)
        y += 0.075


def _eiffel(p: _Pen, cx: float, top: float, foot: float) -> None:
    iron, dark = _hex("7b5b43"), _hex("5a4030")
    h = foot - top
    # legs and arch
    p.poly([(cx - 0.2, foot), (cx - 0.07, top + h * 0.6), (cx + 0.07, top + h * 0.6), (cx + 0.2, foot),
            (cx + 0.13, foot), (cx + 0.09, foot - 0.07), (cx, foot - 0.1), (cx - 0.09, foot - 0.07),
            (cx - 0.13, foot)], iron)
    # body to the second platform, then the spire
    p.poly([(cx - 0.07, top + h * 0.6), (cx - 0.03, top + h * 0.3), (cx + 0.03, top + h * 0.3),
            (cx + 0.07, top + h * 0.6)], iron)
    p.poly([(cx - 0.03, top + h * 0.3), (cx - 0.008, top + h * 0.06), (cx + 0.008, top + h * 0.06),
            (cx + 0.03, top + h * 0.3)], iron)
    p.line([(cx, top + h * 0.07), (cx, top)], dark, 0.006)
    # platforms
    for y, w in ((top + h * 0.6, 0.1), (top + h * 0.3, 0.05), (top + h * 0.08, 0.02)):
        p.rect(cx - w, y - 0.012, cx + w, y + 0.004, dark)
    # lattice
    for y0, y1, w0, w1 in ((top + h * 0.6, foot, 0.07, 0.2), (top + h * 0.3, top + h * 0.6, 0.03, 0.07)):
        n = 6
        for k in range(n):
            a = y0 + (y1 - y0) * k / n
            b = y0 + (y1 - y0) * (k + 1) / n
            wa = w0 + (w1 - w0) * k / n
            wb = w0 + (w1 - w0) * (k + 1) / n
            for sx in (-1, 1):
                p.line([(cx + sx * wa * 0.55, a), (cx + sx * wb * 0.9, b)], dark, 0.003)
                p.line([(cx + sx * wa * 0.9, a), (cx + sx * wb * 0.55, b)], dark, 0.003)


def _balloon(p: _Pen, cx: float, cy: float, r: float) -> None:
    """A hot-air balloon: the striped envelope above, the basket hanging under it."""
    colours = [_hex(c) for c in ("e63946", "f1c453", "2a9d8f", "f1c453", "e63946")]
    p.circle(cx, cy, r, colours[0])
    for k, c in enumerate(colours):
        w = r * (1 - abs(k - 2) * 0.33)
        p.ellipse(cx, cy, max(w, r * 0.12), r, c)
    p.poly([(cx - r * 0.95, cy + r * 0.25), (cx - r * 0.3, cy + r * 1.3), (cx + r * 0.3, cy + r * 1.3),
            (cx + r * 0.95, cy + r * 0.25)], colours[2])
    p.poly([(cx - r * 0.55, cy + r * 0.7), (cx - r * 0.3, cy + r * 1.3), (cx + r * 0.3, cy + r * 1.3),
            (cx + r * 0.55, cy + r * 0.7)], colours[1])
    for sx in (-1, 1):
        p.line([(cx + sx * r * 0.3, cy + r * 1.3), (cx + sx * r * 0.2, cy + r * 1.65)], _hex("5a4030"), 0.003)
    p.rect(cx - r * 0.22, cy + r * 1.62, cx + r * 0.22, cy + r * 1.9, _hex("8b5a2b"))


def _bus(p: _Pen, x0: float, foot: float, w: float) -> None:
    red, win = _hex("d62828"), _hex("cfe8f5")
    h = w * 0.62
    p.rect(x0, foot - h, x0 + w, foot - 0.012, red)
    p.chord(x0 + w / 2, foot - h + 0.01, w / 2, 0.015, 180, 360, red)
    for row in (0.18, 0.58):
        k = 0
        while x0 + 0.012 + k * w * 0.2 < x0 + w - 0.02:
            xx = x0 + 0.012 + k * w * 0.2
            p.rect(xx, foot - h + h * row, xx + w * 0.15, foot - h + h * row + h * 0.22, win)
            k += 1
    p.rect(x0, foot - h * 0.52, x0 + w, foot - h * 0.48, _hex("f1f1f1"))
    for wx in (x0 + w * 0.2, x0 + w * 0.8):
        p.circle(wx, foot - 0.01, 0.018, _hex("222222"))
        p.circle(wx, foot - 0.01, 0.007, _hex("aaaaaa"))


def _windmill(p: _Pen, cx: float, foot: float, h: float) -> None:
    body, cap, sail = _hex("8a5a3c"), _hex("4a3328"), _hex("f3ead8")
    p.poly([(cx - h * 0.22, foot), (cx - h * 0.13, foot - h * 0.75), (cx + h * 0.13, foot - h * 0.75),
            (cx + h * 0.22, foot)], body)
    p.poly([(cx - h * 0.16, foot - h * 0.74), (cx, foot - h * 0.92), (cx + h * 0.16, foot - h * 0.74)], cap)
    p.chord(cx, foot, h * 0.06, h * 0.12, 180, 360, _hex("3a2a20"))
    hub = (cx, foot - h * 0.74)
    for a in (35, 125, 215, 305):
        r = math.radians(a)
        tip = (hub[0] + h * 0.55 * math.cos(r), hub[1] + h * 0.55 * math.sin(r))
        p.line([hub, tip], cap, 0.005)
        n = (-math.sin(r) * h * 0.07, math.cos(r) * h * 0.07)
        a1 = (hub[0] + h * 0.15 * math.cos(r), hub[1] + h * 0.15 * math.sin(r))
        p.poly([a1, tip, (tip[0] + n[0], tip[1] + n[1]), (a1[0] + n[0], a1[1] + n[1])], sail)
    p.circle(hub[0], hub[1], 0.01, cap)


def _europe() -> _Pen:
    p = _Pen()
    rng = random.Random(5)
    p.vgrad(0, 0.86, [_hex("3e5c9a"), _hex("7e7fb8"), _hex("e7a3a0"), _hex("f8c99a")])
    _stars(p, rng, 18, 0.12, _hex("f0f0ff"))
    _cloud(p, 0.33, 0.2, 0.13, _hex("f6d3cf"), _hex("d9a9b4"))
    _cloud(p, 0.7, 0.45, 0.12, _hex("fbd9c6"))
    _birds(p, [(0.3, 0.33, 0.018), (0.36, 0.31, 0.014), (0.64, 0.28, 0.016)], _hex("3a3550"))
    _balloon(p, 0.84, 0.12, 0.07)
    # a green hill on the right with the windmill
    p.ellipse(0.86, 0.8, 0.3, 0.2, _hex("6c9a58"))
    _windmill(p, 0.85, 0.66, 0.3)
    # the Houses of Parliament (pinnacles) and Big Ben
    parl = _hex("b8925a")
    p.rect(0, 0.64, 0.36, 0.82, parl)
    for k in range(10):
        x = 0.01 + k * 0.036
        p.rect(x, 0.6, x + 0.012, 0.64, parl)
        p.poly([(x - 0.002, 0.6), (x + 0.006, 0.575), (x + 0.014, 0.6)], _hex("8c6a3c"))
    for k in range(9):
        x = 0.02 + k * 0.037
        p.rect(x, 0.68, x + 0.014, 0.72, _hex("6e5532"))
        p.poly([(x, 0.68), (x + 0.007, 0.665), (x + 0.014, 0.68)], _hex("6e5532"))
    _big_ben(p, 0.17, 0.04, 0.82)
    _eiffel(p, 0.53, 0.06, 0.86)
    # ground: a park with tulips and a road with a London bus
    p.vgrad(0.82, 0.9, [_hex("5f8f4e"), _hex("4e7d40")])
    p.rect(0, 0.855, 1, 0.9, _hex("6b6f78"))
    p.rect(0, 0.875, 1, 0.879, _hex("e8e4d8"))
    _bus(p, 0.03, 0.89, 0.2)
    for k in range(7):
        x = 0.72 + k * 0.04
        p.line([(x, 0.85), (x, 0.8)], _hex("2f6b34"), 0.005)
        p.poly([(x - 0.006, 0.815), (x - 0.005, 0.84), (x - 0.015, 0.825)], _hex("3f8a45"))
        c = _hex(("e63946", "f1c453", "f28482", "e63946", "9b5de5", "f1c453", "f28482")[k])
        p.chord(x, 0.795, 0.014, 0.018, 0, 180, c)
        p.poly([(x - 0.014, 0.796), (x - 0.012, 0.776), (x - 0.004, 0.79), (x, 0.774), (x + 0.004, 0.79),
                (x + 0.012, 0.776), (x + 0.014, 0.796)], c)
    p.caption(CAPTIONS["europe"], 0.9, 1.0, _hex("233d6b"), _hex("fdf3e3"))
    return p


def _acacia(p: _Pen, cx: float, crown: float, foot: float, w: float, colour: Colour) -> None:
    p.poly([(cx - 0.012, foot), (cx - 0.008, crown + 0.05), (cx - 0.06, crown + 0.02), (cx - 0.055, crown + 0.012),
            (cx - 0.002, crown + 0.04), (cx + 0.004, crown + 0.01), (cx + 0.012, crown + 0.01),
            (cx + 0.01, crown + 0.04), (cx + 0.06, crown + 0.015), (cx + 0.062, crown + 0.024),
            (cx + 0.012, crown + 0.06), (cx + 0.014, foot)], colour)
    # the flat umbrella crown: a bumpy top, a flat underside
    p.chord(cx, crown + 0.02, w / 2, 0.05, 180, 360, colour)
    for k in range(7):
        p.circle(cx - w * 0.42 + k * w * 0.14, crown - 0.004 - 0.006 * ((k * 3) % 2), w * 0.09, colour)
    p.rect(cx - w / 2, crown, cx + w / 2, crown + 0.022, colour)


def _giraffe(p: _Pen, cx: float, foot: float, h: float) -> None:
    coat, patch, dark = _hex("e9b04a"), _hex("9c5a25"), _hex("3a2618")
    body_y = foot - h * 0.42
    for dx in (-0.07, -0.045, 0.04, 0.065):
        p.line([(cx + dx, body_y), (cx + dx * 1.05, foot)], coat, 0.011)
        p.rect(cx + dx * 1.05 - 0.007, foot - 0.012, cx + dx * 1.05 + 0.007, foot, dark)
    p.ellipse(cx, body_y - 0.01, 0.085, 0.045, coat)
    # the long neck up to the head with its ossicones
    hx, hy = cx + 0.07, foot - h * 0.98
    p.poly([(cx + 0.03, body_y - 0.04), (hx - 0.012, hy + 0.02), (hx + 0.014, hy + 0.03), (cx + 0.085, body_y - 0.02)],
           coat)
    p.ellipse(hx + 0.02, hy + 0.012, 0.035, 0.017, coat)
    p.line([(hx - 0.005, hy), (hx - 0.01, hy - 0.03)], dark, 0.005)
    p.line([(hx + 0.008, hy), (hx + 0.006, hy - 0.032)], dark, 0.005)
    p.circle(hx - 0.01, hy - 0.032, 0.006, dark)
    p.circle(hx + 0.006, hy - 0.034, 0.006, dark)
    p.poly([(hx - 0.012, hy + 0.0), (hx - 0.035, hy - 0.006), (hx - 0.015, hy + 0.014)], coat)
    p.circle(hx + 0.012, hy + 0.006, 0.004, dark)
    rng = random.Random(7)
    for _ in range(14):
        x = cx - 0.07 + rng.random() * 0.14
        y = body_y - 0.035 + rng.random() * 0.05
        p.circle(x, y, 0.009, patch)
    for k in range(6):
        t = (k + 0.5) / 6
        x = cx + 0.05 + (hx - cx - 0.05) * t
        y = body_y - 0.04 + (hy + 0.02 - body_y + 0.04) * t
        p.circle(x + 0.005, y, 0.007, patch)
    p.line([(cx - 0.085, body_y - 0.02), (cx - 0.1, body_y + 0.06)], coat, 0.004)


def _elephant(p: _Pen, cx: float, foot: float, h: float, colour: Colour) -> None:
    w = h * 1.3
    p.ellipse(cx, foot - h * 0.55, w * 0.5, h * 0.33, colour)
    for dx in (-0.36, -0.18, 0.16, 0.32):
        p.rect(cx + dx * w - w * 0.06, foot - h * 0.45, cx + dx * w + w * 0.06, foot, colour)
    p.circle(cx + w * 0.48, foot - h * 0.7, h * 0.22, colour)
    p.ellipse(cx + w * 0.4, foot - h * 0.62, h * 0.13, h * 0.2, _mix(colour, (0, 0, 0), 0.25))
    p.poly([(cx + w * 0.6, foot - h * 0.7), (cx + w * 0.7, foot - h * 0.45), (cx + w * 0.68, foot - h * 0.15),
            (cx + w * 0.74, foot - h * 0.12), (cx + w * 0.78, foot - h * 0.45), (cx + w * 0.68, foot - h * 0.78)],
           colour)
    p.poly([(cx + w * 0.6, foot - h * 0.55), (cx + w * 0.7, foot - h * 0.5), (cx + w * 0.62, foot - h * 0.5)],
           _hex("f3ead8"))
    p.line([(cx - w * 0.5, foot - h * 0.6), (cx - w * 0.58, foot - h * 0.3)], colour, 0.005)


def _africa() -> _Pen:
    p = _Pen()
    rng = random.Random(6)
    p.vgrad(0, 0.66, [_hex("6a2c5a"), _hex("c2456b"), _hex("f2804a"), _hex("fbc46a")])
    # the setting sun behind the acacia
    p.circle(0.5, 0.4, 0.16, _hex("fde28a"))
    p.circle(0.5, 0.4, 0.13, _hex("fff0b0"))
    _birds(p, [(0.14, 0.16, 0.02), (0.2, 0.13, 0.016), (0.26, 0.17, 0.014), (0.7, 0.1, 0.018),
               (0.76, 0.13, 0.014)], _hex("3a1c2a"))
    # Kilimanjaro, its snowy top flat, far away on the right
    p.poly([(0.6, 0.64), (0.76, 0.47), (0.8, 0.45), (0.9, 0.45), (0.94, 0.47), (1.0, 0.52), (1.0, 0.64)],
           _hex("8a5a7a"))
    p.poly([(0.76, 0.47), (0.8, 0.45), (0.9, 0.45), (0.94, 0.47), (0.92, 0.49), (0.9, 0.475), (0.87, 0.495),
            (0.84, 0.475), (0.81, 0.495), (0.785, 0.48)], _hex("fbeef2"))
    # the pyramids on the horizon, lit on the left
    for px_, w, top in ((0.25, 0.1, 0.52), (0.37, 0.07, 0.56)):
        p.poly([(px_ - w, 0.64), (px_, top), (px_ + w, 0.64)], _hex("d9a05b"))
        p.poly([(px_, top), (px_ + w, 0.64), (px_ + w * 0.15, 0.64)], _hex("a8703a"))
    # the savanna
    p.vgrad(0.63, 0.9, [_hex("c0703a"), _hex("8a4a26"), _hex("5e3019")])
    sil = _hex("2a1610")
    _grass(p, rng, 0.9, 50, sil, 0.035)
    _grass(p, rng, 0.66, 30, _hex("9a5a30"), 0.015)
    # the acacia against the sun
    _acacia(p, 0.5, 0.29, 0.68, 0.4, sil)
    # the baobab on the left: a bottle trunk, short branches up
    p.poly([(0.02, 0.88), (0.05, 0.6), (0.07, 0.42), (0.085, 0.3), (0.175, 0.3), (0.19, 0.42), (0.21, 0.6),
            (0.25, 0.88)], sil)
    for x0, x1, y1 in ((0.09, 0.02, 0.16), (0.1, 0.07, 0.11), (0.125, 0.13, 0.09), (0.15, 0.19, 0.11),
                       (0.165, 0.25, 0.17), (0.1, -0.01, 0.24), (0.17, 0.3, 0.25)):
        mx, my = (x0 + x1) / 2 + (0.012 if x1 > x0 else -0.012), (0.31 + y1) / 2 + 0.01
        p.line([(x0, 0.31), (mx, my), (x1, y1)], sil, 0.016)  # short, thick, crooked branches
        p.line([(mx, my), (mx + (x1 - x0) * 0.5, my - 0.025)], sil, 0.008)
        p.ellipse(x1, y1 - 0.006, 0.032, 0.014, sil)  # a flat tuft of leaves at each tip
    _elephant(p, 0.42, 0.88, 0.13, _hex("3b2a24"))
    _giraffe(p, 0.83, 0.88, 0.7)
    p.caption(CAPTIONS["africa"], 0.9, 1.0, _hex("3a1d12"), _hex("fde6b8"))
    return p


_DRAWERS = {"polar": _polar, "asia": _asia, "north-america": _north_america, "latin-america": _latin_america,
            "europe": _europe, "africa": _africa}


# --- what the renderer uses ---------------------------------------------------------------------------------
def master(name: str) -> Image.Image:
    """The upright photo, ``MASTER`` px square (drawn at twice that and halved), its sign in the language
    being drawn (``i18n.using``)."""
    return _master(name, current())


@lru_cache(maxsize=24)
def _master(name: str, lang: str) -> Image.Image:
    with using(lang):
        pen = _DRAWERS[name]()
    return pen.img.reduce(2)


def photo(name: str, size: int) -> Image.Image:
    """The upright photo ``size`` px square."""
    return _photo(name, size, current())


@lru_cache(maxsize=64)
def _photo(name: str, size: int, lang: str) -> Image.Image:
    img = _master(name, lang)
    return img if size == img.width else img.resize((size, size), Image.Resampling.LANCZOS)


_TURN = {0: None, 1: Image.Transpose.ROTATE_270, 2: Image.Transpose.ROTATE_180, 3: Image.Transpose.ROTATE_90}
"""Quarter turns clockwise as Pillow transposes (ROTATE_90 turns counter-clockwise)."""


@lru_cache(maxsize=1024)
def _upright_tile(name: str, size: int, index: int, lang: str) -> Image.Image:
    big = _master(name, lang)
    step = big.width / 3
    r, c = divmod(index, 3)
    box = (round(c * step), round(r * step), round((c + 1) * step), round((r + 1) * step))
    return big.crop(box).resize((size, size), Image.Resampling.LANCZOS)


def tile(name: str, size: int, index: int, rot: int) -> Image.Image:
    """Tile ``index`` (its own cell in the upright photo, 0-8) of the photo, ``size`` px square, turned ``rot``
    quarter turns clockwise (the resized tile is cached, turning it costs next to nothing)."""
    img = _upright_tile(name, size, index, current())
    turn = _TURN[rot % 4]
    return img if turn is None else img.transpose(turn)
