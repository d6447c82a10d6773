"""The drawing toolkit every board shares: palette, fonts, panels, badges, text and PNG encoding.

Colours come from the Okabe-Ito palette, which stays distinguishable with the common colour-vision
deficiencies; every coloured thing also carries a shape or a label, so colour is never the only cue.
Fonts are Pillow's own scalable default (``ImageFont.load_default(size=...)``), so nothing depends on the
fonts of the machine or the Docker image.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH = 800
"""Boards are drawn about this wide: Discord's inline preview shows them without scaling much."""

# Okabe-Ito, plus neutrals for the table itself
ORANGE = (230, 159, 0)
SKY = (86, 180, 233)
GREEN = (0, 158, 115)
YELLOW = (240, 228, 66)
BLUE = (0, 114, 178)
VERMILLION = (213, 94, 0)
PURPLE = (204, 121, 167)
BLACK = (20, 20, 24)
WHITE = (250, 250, 247)

BACKGROUND = (38, 42, 51)
PANEL = (52, 57, 69)
PANEL_EDGE = (84, 91, 108)
TEXT = (235, 236, 240)
MUTED = (158, 164, 178)
HIGHLIGHT = (255, 214, 10)

PLAYER_COLOURS = (SKY, ORANGE, GREEN, PURPLE, YELLOW, VERMILLION, BLUE, WHITE)
PLAYER_MARKS = ("●", "■", "▲", "◆", "★", "✚", "⬟", "⬢")
"""A distinct mark per seat so a seat is known by shape as well as by colour."""


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def canvas(height: int, width: int = WIDTH) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), BACKGROUND)
    return img, ImageDraw.Draw(img)


def panel(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], title: str | None = None,
          *, outline=PANEL_EDGE, fill=PANEL, title_size: int = 15) -> None:
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=outline, width=2)
    if title:
        draw.text((box[0] + 10, box[1] + 6), title, font=font(title_size), fill=MUTED)


def text_centered(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill=TEXT,
                  *, stroke: int = 0, stroke_fill=BLACK) -> None:
    draw.text(xy, text, font=font(size), fill=fill, anchor="mm", stroke_width=stroke, stroke_fill=stroke_fill)


_PLAIN = str.maketrans({"→": "->", "×": "x", "—": "-", "–": "-", "•": "*"})


def plain(text: str) -> str:
    """Swaps the few typographic characters Pillow's default font lacks for ASCII ones."""
    return text.translate(_PLAIN)


def fit_text(text: str, size: int, max_width: int) -> str:
    """Shortens ``text`` with an ellipsis until it fits in ``max_width`` pixels (and makes it drawable)."""
    text = plain(text)
    f = font(size)
    if f.getlength(text) <= max_width:
        return text
    while text and f.getlength(text + "…") > max_width:
        text = text[:-1]
    return text + "…"


def badge(draw: ImageDraw.ImageDraw, centre: tuple[float, float], label: str, *, radius: int = 11,
          fill=BLACK, fg=WHITE, size: int = 14) -> None:
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill, outline=fg, width=1)
    text_centered(draw, (x, y), label, size, fg)


def seat_mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], seat: int, r: int = 8) -> None:
    """The seat's colour in the seat's own shape (circle, square, triangle, diamond, star...)."""
    x, y = centre
    colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
    kind = seat % 8
    if kind == 0:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=colour, outline=BLACK)
    elif kind == 1:
        draw.rectangle((x - r, y - r, x + r, y + r), fill=colour, outline=BLACK)
    elif kind == 2:
        draw.polygon([(x, y - r), (x + r, y + r), (x - r, y + r)], fill=colour, outline=BLACK)
    elif kind == 3:
        draw.polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)], fill=colour, outline=BLACK)
    else:
        draw.regular_polygon((x, y, r + 1), n_sides=kind + 1, fill=colour, outline=BLACK)


def encode_png(img: Image.Image) -> bytes:
    """PNG at a low compress level: levels past 1-3 cost many times the time for a few percent of size."""
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=1)
    return out.getvalue()
