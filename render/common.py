"""The drawing toolkit every board shares: palette, fonts, text, the header bar, player rows, the winner banner,
seat marks and PNG encoding (docs/rendering.md).

Colours come from the Okabe-Ito palette, which stays distinguishable with the common colour-vision
deficiencies; every coloured thing also carries a shape or a label, so colour is never the only cue.
Fonts are Source Sans Pro (Regular, and Semibold for ``bold=True``) from the ``font-source-sans-pro`` package, so
nothing depends on the fonts of the machine or the Docker image; it has the accented letters of every language
we speak ("Brasília", "Größe", "Año").

Legibility: every image is drawn ``PHONE_CANVAS`` (600) px wide for a Components V2 media gallery, which a phone
shows about ``PHONE_WIDTH`` (240) px wide. No label is drawn smaller than ``P_SMALL`` (28 px here, a 7.35 px cap
height there); ``tests/render/test_phone.py`` enforces it through ``record_labels``.
"""

from __future__ import annotations

import io
import math
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache, wraps
from importlib.resources import files
from typing import NamedTuple

from PIL import Image, ImageDraw, ImageFont

from games.ai import is_computer_name, least_computer_name, short_computer_name
from i18n import _, current, here

DISPLAY_WIDTH = 400
"""About how wide Discord showed an 800 px image in an embed (``cap_height``)."""
MIN_CAP_HEIGHT = 7
"""The smallest cap height (px, of "H") any text may have once the image is shown ``DISPLAY_WIDTH`` wide."""

PHONE_WIDTH = 240
"""How wide a 360 px phone shows an image in a Components V2 media gallery inside a container (an estimate:
docs/rendering.md, "Legible on a phone"): the screen less the chat's gutter and avatar, the container's accent bar,
border and padding."""
PHONE_MIN_CAP = 7.2
"""The least cap height (px on the phone) of any label: an 11 px font there (0.66 em), the smallest type iOS
(Caption 2, 11 pt) and Android (Material's Label Small, 11 sp) use for labels; Discord's own timestamps are 12."""
PHONE_MIN_MARK = {"stone": 12, "pyramid": 12, "piece": 12, "die": 12, "tile": 20, "secondary stone": 8}
"""The least size (px on the phone, across its narrower side) of a mark that carries meaning: a piece's shape,
colour and the letter or mark on it (12: half as large again as a minimum label's capital), a photo tile whose
turn must be seen from its picture (20: about an emoji in Discord's text, 22). A "secondary" mark, whose detail
is shown whole elsewhere on the same image (Geomancy: stones sharing a square while a choice is pending, listed
whole under the board; the aura overlay's stones; a captured stone's ghost under its cross), 8: its colour and
place read, its detail is not the point there."""
PHONE_CANVAS = 600
"""The width of an image designed for the phone (``phone_header`` and the sizes below): shown 240 px wide there
(0.4), about 500 on a desktop. Every label on it is at least ``P_SMALL``."""
P_SMALL = 28
"""The least text on a ``PHONE_CANVAS`` image: 28 px there is 11.2 px on the phone, a 7.35 px cap height."""
P_BODY = 30
P_LARGE = 34
P_STATUS = 38
P_HEADER_H = 104
SMALL = 20
"""The sizes of the embed era's 800 px images, still the defaults of ``winner_banner`` and of Globe Twister's pieces."""
BODY = 22
LARGE = 26
STATUS = 30

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
BAR = (28, 31, 38)
PANEL = (52, 57, 69)
PANEL_EDGE = (84, 91, 108)
TEXT = (235, 236, 240)
MUTED = (170, 176, 190)
HIGHLIGHT = (255, 214, 10)
CURRENT_ROW = (74, 68, 36)

PLAYER_COLOURS = (SKY, ORANGE, GREEN, PURPLE, YELLOW, VERMILLION, BLUE, WHITE)
PLAYER_MARKS = ("●", "■", "▲", "◆", "★", "✚", "⬟", "⬢")
"""A distinct mark per seat so a seat is known by shape as well as by colour (drawn by ``seat_mark``)."""
THEME = (ORANGE, SKY, GREEN, YELLOW, BLUE, VERMILLION, PURPLE, BLACK, WHITE,
         BACKGROUND, BAR, PANEL, PANEL_EDGE, TEXT, MUTED, HIGHLIGHT, CURRENT_ROW)
"""Every flat colour of the shared pieces: each game's PNG palette holds them exactly (``learn_palette``)."""

MARGIN = 10
HEADER_H = 86
"""The embed-era top bar's height (``header_height`` of an image not drawn for the phone)."""

# --- fonts and the recorder the legibility test reads -------------------------------------------------
_RECORDER: ContextVar[list[float] | None] = ContextVar("render_font_sizes", default=None)
_TEXTS: ContextVar[list[str] | None] = ContextVar("render_texts", default=None)
_FITS: ContextVar[list[tuple[str, str]] | None] = ContextVar("render_fits", default=None)
_BOXES: ContextVar[list[tuple[str, tuple[int, int, int, int], tuple[int, int]]] | None] = ContextVar(
    "render_boxes", default=None)
_LABELS: ContextVar[list[Label] | None] = ContextVar("render_labels", default=None)
_MARKS: ContextVar[list[Mark] | None] = ContextVar("render_marks", default=None)
_CACHES: list = []


class Label(NamedTuple):
    """One text drawn (``record_labels``): the text as drawn, its font size in px of the final image, its ink box
    and the size of the canvas it was drawn on (the final image's, or a sprite's for text baked into a sprite:
    then ``box`` is in the sprite's pixels and ``canvas`` is the sprite's size)."""
    text: str
    size: float
    box: tuple[int, int, int, int] | None
    canvas: tuple[int, int]


class Mark(NamedTuple):
    """A mark that carries meaning by its shape or the letter/picture on it (a stone, a pyramid, a tile, a die, a
    piece, a card chip), as placed in the final image (``record_labels``): its kind and its size there in px."""
    kind: str
    width: float
    height: float


FONT_FILES = {False: "SourceSansPro-Regular.ttf", True: "SourceSansPro-Semibold.ttf"}
"""The faces, by ``bold``, in the ``font_source_sans_pro`` package's ``files`` folder: Semibold for bold (as
strong as the stroke the old font was thickened with, and only ~3% wider than Regular, so a layout measured in
Regular still holds a bold label; Bold is ~5% wider)."""


def _font_path(bold: bool = False) -> str:
    return str(files("font_source_sans_pro").joinpath("files", FONT_FILES[bold]))


class _Font(ImageFont.FreeTypeFont):
    """Source Sans Pro, measuring each character ``text`` draws as a shape (``DRAWN``: arrows, stars) as wide
    as an "M", the room that shape takes."""

    def getlength(self, text, *args, **kwargs):
        return super().getlength(_stand_in(text), *args, **kwargs)

    def getbbox(self, text, *args, **kwargs):
        return super().getbbox(_stand_in(text), *args, **kwargs)


def _stand_in(text):
    if not isinstance(text, str) or text.isascii():  # (nearly every text: measured as it is)
        return text
    return text.translate(_STAND_IN)


@lru_cache(maxsize=64)
def _font(size: float, bold: bool = False) -> ImageFont.FreeTypeFont:
    return _Font(_font_path(bold), size)


def font(size: float, *, scale: float = 1, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The font at ``size`` px (the Semibold face with ``bold``). Every text of every board goes through here.

    ``scale`` says how much the canvas it is drawn on is bigger than the image it ends up in (a sprite drawn
    at 4x and shrunk passes 4), so the size recorded is the size in the final image.
    """
    sizes = _RECORDER.get()
    if sizes is not None:
        sizes.append(size / scale)
    return _font(size, bold)


def cached(maxsize: int) -> Callable:
    """``lru_cache`` for backgrounds and sprites that ``record_fonts`` can empty (so their text is seen). Keyed
    by the drawing's language as well (``i18n.using``): a background with words on it is drawn per language."""

    def wrap(fn):
        c = lru_cache(maxsize=maxsize)(lambda locale, *args, **kwargs: fn(*args, **kwargs))

        @wraps(fn)
        def call(*args, **kwargs):
            return c(current(), *args, **kwargs)

        call.cache_clear = c.cache_clear
        call.cache_info = c.cache_info
        _CACHES.append(c)
        return call

    return wrap


@contextmanager
def record_fonts() -> Iterator[list[float]]:
    """Collects the size (px in the final image) of every font asked for while drawing inside the block.

    Empties the drawing caches first, so text baked into a cached background or sprite is drawn (and
    recorded) again. Per context (a ``ContextVar``), so renders in other threads are not mixed in.
    """
    for c in _CACHES:
        c.cache_clear()
    sizes: list[float] = []
    token = _RECORDER.set(sizes)
    try:
        yield sizes
    finally:
        _RECORDER.reset(token)


@contextmanager
def record_texts() -> Iterator[list[str]]:
    """Collects every string drawn with ``text`` inside the block (as drawn: clipped, plain), for tests.
    Empties the drawing caches first, like ``record_fonts``."""
    for c in _CACHES:
        c.cache_clear()
    texts: list[str] = []
    token = _TEXTS.set(texts)
    try:
        yield texts
    finally:
        _TEXTS.reset(token)


@contextmanager
def record_layout() -> Iterator[tuple[list[tuple[str, str]], list[tuple[str, tuple[int, int, int, int],
                                                                          tuple[int, int]]]]]:
    """For the language tests (tests/render/test_languages.py): collects ``(fits, boxes)`` while drawing inside
    the block: ``fits``, every ``(asked, drawn)`` of ``fit_text`` (and so of ``wrap_text``'s last line and every
    ``text`` with a ``max_width``; drawn != asked: the text was clipped; ``prose`` left out); ``boxes``, every ``(drawn text, its
    ink box, the image's size)`` of ``text``. Empties the drawing caches first, like ``record_fonts``."""
    for c in _CACHES:
        c.cache_clear()
    fits: list[tuple[str, str]] = []
    boxes: list[tuple[str, tuple[int, int, int, int], tuple[int, int]]] = []
    tokens = _FITS.set(fits), _BOXES.set(boxes)
    try:
        yield fits, boxes
    finally:
        _BOXES.reset(tokens[1])
        _FITS.reset(tokens[0])


@contextmanager
def record_labels() -> Iterator[tuple[list[Label], list[Mark]]]:
    """For the phone legibility test (tests/render/test_phone.py): collects every text drawn (``Label``: by ``text``,
    and by the two sprites that bake a letter or a number in, through ``sprite_label``) and every meaningful mark
    placed (``Mark``, through ``mark``) while drawing inside the block. Empties the drawing caches first, like
    ``record_fonts``, so what is baked into cached sprites and backgrounds is drawn, and recorded, again."""
    for c in _CACHES:
        c.cache_clear()
    labels: list[Label] = []
    marks: list[Mark] = []
    tokens = _LABELS.set(labels), _MARKS.set(marks)
    try:
        yield labels, marks
    finally:
        _MARKS.reset(tokens[1])
        _LABELS.reset(tokens[0])


def sprite_label(s: str, size: float, canvas: tuple[int, int]) -> None:
    """Records a text a sprite draws itself (``size`` in px of the final image; the sprite's ``canvas``)."""
    labels = _LABELS.get()
    if labels is not None:
        labels.append(Label(s, size, None, canvas))


def mark(kind: str, width: float, height: float | None = None) -> None:
    """Records a meaningful mark placed in the final image, ``width`` x ``height`` px (``record_labels``)."""
    marks = _MARKS.get()
    if marks is not None:
        marks.append(Mark(kind, width, width if height is None else height))


@lru_cache(maxsize=1)
def cap_em() -> float:
    """The board font's cap height ("H") per px of font size (0.656 for Source Sans Pro)."""
    box = _font(1000).getbbox("H")
    return (box[3] - box[1]) / 1000


def cap_height(size: float, width: int) -> int:
    """Cap height (px) of text drawn at ``size`` in an image ``width`` wide, once shown DISPLAY_WIDTH wide."""
    box = _font(size * DISPLAY_WIDTH / width).getbbox("H")
    return box[3] - box[1]


# --- text ---------------------------------------------------------------------------------------------
_PLAIN = str.maketrans({"☆": "★"})

ARROW_ANGLES = {"→": 0, "↗": 45, "↑": 90, "↖": 135, "←": 180, "↙": 225, "↓": 270, "↘": 315}
"""Arrows by direction (degrees, counter-clockwise from east)."""
DRAWN = frozenset({*ARROW_ANGLES, "↔", "★"})
"""Characters texts use (moves, directions, solo levels) that ``text`` draws as shapes, each in the room of an
"M" (``_Font`` measures them so), so the board says what the message says: Source Sans Pro lacks the diagonal
arrows, "↔" and "★"; the four straight arrows it has are drawn as shapes too, so all eight look alike."""
_STAND_IN = str.maketrans({ch: "M" for ch in DRAWN})


def plain(text: str) -> str:
    """Swaps the few characters the font lacks for ones it has ("☆" for the drawn "★", a letter from beyond
    the Latin alphabets the font covers for its bare letter); every other character (accented letters, "ß",
    "—", "×") is drawn as it is. Arrows and stars are kept: ``text`` draws them (``DRAWN``)."""
    if text.isascii():
        return text
    return "".join(_plain_char(ch) for ch in text.translate(_PLAIN))


_LETTERS = {"ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L",
            "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "ı": "i"}


@lru_cache(maxsize=1024)
def _plain_char(ch: str) -> str:
    if ch.isascii() or has_glyph(ch):
        return ch
    if ch in _LETTERS:
        return _LETTERS[ch]
    bare = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
    return bare if bare and all(c.isascii() or has_glyph(c) for c in bare) else ch


def has_glyph(ch: str, size: float = 40) -> bool:
    """Whether the font draws ``ch`` itself, rather than its empty-box glyph for a missing character (or ``text``
    draws it as a shape: ``DRAWN``)."""
    return ch in DRAWN or ch == " " or _ink(ch, size) != _ink("\ue000", size)


@lru_cache(maxsize=4096)
def _ink(ch: str, size: float) -> bytes:
    img = Image.new("L", (2 * int(size), 2 * int(size)))
    ImageDraw.Draw(img).text((size / 2, size / 2), ch, font=_font(size), fill=255)
    return img.tobytes()


def _symbol(draw: ImageDraw.ImageDraw, ch: str, x: float, width: float, baseline: float, size: float,
            stroke: int) -> None:
    """A ``DRAWN`` character as a shape centred in its ``width`` (an "M"'s), as high as a capital."""
    cap = size * 0.7
    cx, cy = x + width / 2, baseline - cap / 2
    if ch == "★":
        draw.polygon(_star(cx, cy + cap * 0.06, cap * 0.6, cap * 0.25, 5), fill=255)
        return
    shaft = max(1.5, size * 0.09) + stroke
    half = width * 0.42
    head, spread = cap * 0.42, cap * 0.34
    for angle in ((0, 180) if ch == "↔" else (ARROW_ANGLES[ch],)):
        a = math.radians(angle)
        ux, uy = math.cos(a), -math.sin(a)
        tip = (cx + ux * half, cy + uy * half)
        tail = (cx - ux * half, cy - uy * half) if ch != "↔" else (cx, cy)
        base = (tip[0] - ux * head, tip[1] - uy * head)
        draw.line((tail, base), fill=255, width=round(shaft))
        draw.polygon([tip, (base[0] - uy * spread, base[1] + ux * spread),
                      (base[0] + uy * spread, base[1] - ux * spread)], fill=255)


def fit_text(text: str, size: float, max_width: float, *, bold: bool = False, prose: bool = False) -> str:
    """Shortens ``text`` (in the drawing's language: ``i18n.using``) with an ellipsis until it fits in
    ``max_width`` pixels (and makes it drawable). ``prose``: a running text without a box of its own (the last
    move in the footer), which may end in "…" in any language; a label may not (``record_layout``)."""
    font(size, bold=bold)  # recorded: what is measured at this size is drawn at it
    asked = here(text)
    fitted = _fit(asked, size, max_width, bold)
    fits = _FITS.get()
    if fits is not None and not prose:
        fits.append((asked, fitted))
    return fitted


@lru_cache(maxsize=1024)
def _fit(text: str, size: float, max_width: float, bold: bool = False) -> str:
    text = plain(text)
    f = _font(size, bold)
    if f.getlength(text) <= max_width:
        return text
    lo, hi = 0, len(text)  # the longest prefix that fits with the ellipsis
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if f.getlength(text[:mid].rstrip() + "…") <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def wrap_text(text: str, size: float, max_width: float, lines: int = 2, *, prose: bool = False) -> list[str]:
    """Word-wraps ``text`` into at most ``lines`` lines of ``max_width`` px; the last one is clipped (``prose``:
    as ``fit_text``'s)."""
    f = font(size)
    out: list[str] = []
    words = plain(here(text)).split()
    while words and len(out) < lines - 1:
        line = words.pop(0)
        while words and f.getlength(line + " " + words[0]) <= max_width:
            line += " " + words.pop(0)
        if f.getlength(line) > max_width:  # one very long word
            words.insert(0, line)
            break
        out.append(line)
    if words:
        out.append(fit_text(" ".join(words), size, max_width, prose=prose))
    return out


@lru_cache(maxsize=2048)
def _mask(s: str, size: float, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The text's coverage (an "L" mask) and its offset from the anchor point: rendered once, then reused (keyed
    by the text as drawn, so one language's words never stand in for another's)."""
    f = _font(size, bold)
    left, top, right, bottom = f.getbbox(s, anchor=anchor)
    if not DRAWN.intersection(s):
        mask = Image.new("L", (max(right - left, 1), max(bottom - top, 1)), 0)
        ImageDraw.Draw(mask).text((-left, -top), s, font=f, fill=255, anchor=anchor)
        return mask, left, top
    # arrows and stars: the text around them drawn by the font, each one as a shape in its place
    ls_left, ls_top = f.getbbox(s, anchor="ls")[:2]
    ox, oy = left - ls_left, top - ls_top  # the left end of the baseline, from the anchor
    pad = math.ceil(size * 0.1)  # room for a shape's antialiased edge at either end
    left -= pad
    top = min(top, round(oy - size * 0.7) - 2)  # shapes reach the cap height
    mask = Image.new("L", (max(right + pad - left, 1), max(bottom - top, 1)), 0)
    x0, baseline = ox - left, oy - top
    d = ImageDraw.Draw(mask)
    start = 0
    for i, ch in enumerate(s + "\0"):
        if ch in DRAWN or ch == "\0":
            if s[start:i]:
                d.text((x0 + f.getlength(s[:start]), baseline), s[start:i], font=f, fill=255, anchor="ls")
            if ch != "\0":
                _symbol(d, ch, x0 + f.getlength(s[:i]), f.getlength(ch), baseline, size, 1 if bold else 0)
            start = i + 1
    return mask, left, top


def text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: float, fill=TEXT, *,
         anchor: str = "la", bold: bool = False, max_width: float | None = None) -> float:
    """Draws ``s`` (in the drawing's language, clipped to ``max_width``); ``bold`` in the Semibold face. Returns its
    width.

    Glyph masks are cached, so a label drawn again (names, numbers, titles) costs a paste, not a render."""
    font(size, bold=bold)  # recorded (the legibility tests): the size it is drawn at
    s = fit_text(s, size, max_width, bold=bold) if max_width is not None else plain(here(s))
    texts = _TEXTS.get()
    if texts is not None:
        texts.append(s)
    mask, left, top = _mask(s, size, bold, anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    draw.bitmap((x, y), mask, fill=fill)
    boxes, labels = _BOXES.get(), _LABELS.get()
    if boxes is not None or labels is not None:
        ink = mask.getbbox()
        box = None if ink is None else (x + ink[0], y + ink[1], x + ink[2], y + ink[3])
        if boxes is not None and box is not None:
            boxes.append((s, box, draw.im.size))
        if labels is not None and box is not None:
            labels.append(Label(s, size, box, draw.im.size))
    return measure(s, size, bold)


@lru_cache(maxsize=8192)
def measure(s: str, size: float, bold: bool = False) -> float:
    """The width of ``s`` (as drawn: said, ``plain``) at ``size``: cached, as measuring costs ~50 µs a call (a
    board measures its labels many times while fitting them)."""
    return _font(size, bold).getlength(s)


def text_centered(draw: ImageDraw.ImageDraw, xy: tuple[float, float], s: str, size: float, fill=TEXT, *,
                  bold: bool = False) -> None:
    text(draw, xy, s, size, fill, anchor="mm", bold=bold)


def join_names(names: Sequence[str]) -> str:
    """"Ana", "Ana & Bo", "Ana, Bo & Cy"."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " & " + names[-1]


def join_fit(names: Sequence[str], size: float, max_width: float) -> str:
    """``join_names`` within ``max_width`` px: computers by their ``short_name`` first, then each name clipped to
    its share (``fit_name``, never below ``name_room``: a computer's ``least_name``, six letters of a person's; a
    short name leaves the rest of its share to the others), so none is lost."""
    names = list(names)
    drawn = [plain(here(n)) for n in names]
    joined = join_names(drawn)
    f = font(size)
    if f.getlength(joined) <= max_width or not names:
        return joined
    shorts = [short_name(n) for n in names]
    if f.getlength(join_names(shorts)) <= max_width:
        return join_names(shorts)
    room = max_width - (f.getlength(joined) - sum(f.getlength(n) for n in drawn))
    fitted: dict[int, str] = {}
    for k in sorted(range(len(names)), key=lambda k: f.getlength(shorts[k])):  # the shortest first
        each = room / (len(names) - len(fitted))
        fitted[k] = fit_name(names[k], size, max(each, name_room(names[k], size) - 2))
        room -= f.getlength(fitted[k])
    return join_names([fitted[k] for k in range(len(names))])


def top_seats(scores: Sequence[float], left: Sequence[bool]) -> list[int]:
    """The seats (not left) with the best score: the winners when the view does not name them."""
    alive = [s for s in range(len(scores)) if not left[s]] or list(range(len(scores)))
    best = max(scores[s] for s in alive)
    return [s for s in alive if scores[s] == best]


# --- shapes -------------------------------------------------------------------------------------------
def canvas(height: int, width: int = PHONE_CANVAS) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), BACKGROUND)
    return img, ImageDraw.Draw(img)


def panel(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], title: str | None = None,
          *, outline=PANEL_EDGE, fill=PANEL, right: str | None = None) -> None:
    """A rounded panel with an optional title (top left) and a note (top right), both ``SMALL``."""
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=outline, width=2)
    if title:
        text(draw, (box[0] + 12, box[1] + 8), title, SMALL, MUTED, bold=True)
    if right:
        text(draw, (box[2] - 12, box[1] + 8), right, SMALL, MUTED, anchor="ra")


def badge(draw: ImageDraw.ImageDraw, centre: tuple[float, float], label: str, *, radius: int = 16,
          fill=BLACK, fg=WHITE, size: int = SMALL) -> None:
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=fill, outline=fg, width=2)
    text_centered(draw, (x, y), label, size, fg)


def seat_mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], seat: int, r: int = 11) -> None:
    """The seat's colour in the seat's own shape (circle, square, triangle, diamond, star...)."""
    x, y = centre
    colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
    kind = seat % 8
    edge = dict(fill=colour, outline=BLACK, width=2)
    if kind == 0:
        draw.ellipse((x - r, y - r, x + r, y + r), **edge)
    elif kind == 1:
        draw.rectangle((x - r * 0.9, y - r * 0.9, x + r * 0.9, y + r * 0.9), **edge)
    elif kind == 2:
        draw.polygon([(x, y - r), (x + r * 1.05, y + r * 0.85), (x - r * 1.05, y + r * 0.85)], **edge)
    elif kind == 3:
        draw.polygon([(x, y - r * 1.1), (x + r, y), (x, y + r * 1.1), (x - r, y)], **edge)
    elif kind == 4:  # a five-pointed star
        draw.polygon(_star(x, y, r * 1.15, r * 0.5, 5), **edge)
    elif kind == 5:  # a plus
        t = r * 0.4
        draw.polygon([(x - t, y - r), (x + t, y - r), (x + t, y - t), (x + r, y - t), (x + r, y + t), (x + t, y + t),
                      (x + t, y + r), (x - t, y + r), (x - t, y + t), (x - r, y + t), (x - r, y - t), (x - t, y - t)],
                     **edge)
    else:  # pentagon, hexagon
        draw.regular_polygon((x, y, r + 1), n_sides=kind - 1, **edge)


def _star(x: float, y: float, outer: float, inner: float, points: int) -> list[tuple[float, float]]:
    out = []
    for k in range(points * 2):
        a = -math.pi / 2 + k * math.pi / points
        rad = outer if k % 2 == 0 else inner
        out.append((x + rad * math.cos(a), y + rad * math.sin(a)))
    return out


def star(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float = 11, fill=HIGHLIGHT) -> None:
    """A five-pointed star with a dark edge: marks a winner (next to the gold, so not by colour alone)."""
    draw.polygon(_star(centre[0], centre[1], r, r * 0.45, 5), fill=fill, outline=BLACK)


COMPUTER_MARK_W = 26
"""The room ``computer_mark`` takes before a computer's name in a player row."""


def computer_mark(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float = 10, fill=TEXT) -> None:
    """A robot's head (a square face with two eyes and an antenna): this seat is played by the computer. A
    shape in the text's colour beside the name, the same on every game's board, so it never depends on colour
    (the seat's own mark keeps its colour and shape)."""
    x, y = centre
    top = y - r * 0.45
    draw.line((x, top, x, y - r * 0.95), fill=fill, width=2)  # the antenna
    draw.ellipse((x - 2.5, y - r * 1.1 - 2, x + 2.5, y - r * 1.1 + 3), fill=fill)
    draw.rounded_rectangle((x - r, top, x + r, y + r * 0.95), radius=max(2, r * 0.3), fill=fill)
    eye = max(2.0, r * 0.28)
    for ex in (x - r * 0.45, x + r * 0.45):
        draw.rectangle((ex - eye / 2, y + r * 0.1 - eye / 2, ex + eye / 2, y + r * 0.1 + eye / 2), fill=BAR)
    draw.line((x - r * 0.4, y + r * 0.62, x + r * 0.4, y + r * 0.62), fill=BAR, width=2)  # the mouth


def turn_arrow(draw: ImageDraw.ImageDraw, centre: tuple[float, float], r: float = 9, fill=HIGHLIGHT) -> None:
    """A right-pointing triangle: "this one's turn" without relying on the row's colour."""
    x, y = centre
    draw.polygon([(x - r * 0.7, y - r), (x + r * 0.9, y), (x - r * 0.7, y + r)], fill=fill)


# --- the shared layout pieces -------------------------------------------------------------------------
def header_height(width: int) -> int:
    """The height of the top bar of an image ``width`` wide: ``P_HEADER_H`` drawn for the phone, else ``HEADER_H``."""
    return P_HEADER_H if width == PHONE_CANVAS else HEADER_H


def phone_header(draw: ImageDraw.ImageDraw, title: str, status: str, *, right: str | None = None,
                 seat: int | None = None, mark: Callable[[tuple[float, float]], None] | None = None,
                 arrow: bool = True, winner: bool = False, width: int = PHONE_CANVAS) -> int:
    """``header`` for an image designed for the phone (``PHONE_CANVAS`` wide, ``P_HEADER_H`` tall): the title and
    ``right`` on the first line (``P_SMALL``), the status big (``P_STATUS``, down to ``P_SMALL``) on the second, led
    by the turn arrow and the seat's mark (or ``mark(centre)``); a status too long even at ``P_SMALL`` takes two
    lines of it. ``winner`` draws the status as the gold winner banner (two lines where one is too short). Returns
    the y below the bar."""
    draw.rectangle((0, 0, width, P_HEADER_H - 1), fill=BAR)
    draw.line((0, P_HEADER_H - 1, width, P_HEADER_H - 1), fill=PANEL_EDGE, width=2)
    right_w = text(draw, (width - MARGIN - 4, 4), right, P_SMALL, TEXT, anchor="ra") + 16 if right else 0
    text(draw, (MARGIN + 4, 4), title, P_SMALL, MUTED, max_width=width - 2 * MARGIN - 8 - right_w)
    said = plain(here(status))
    if winner:
        box = (MARGIN - 2, 38, width - MARGIN + 2, P_HEADER_H - 5)
        inner = box[2] - box[0] - 4 * 12 - 44
        if font(P_SMALL, bold=True).getlength(said) <= inner:
            winner_banner(draw, box, status, sizes=(P_STATUS, P_LARGE, P_BODY, P_SMALL), star_r=12)
        else:  # two lines, as wide as Semibold takes them
            winner_banner(draw, box, "", star_r=12)
            lines = wrap_text(said, P_SMALL, inner * 0.96)
            cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
            for k, line in enumerate(lines):
                text(draw, (cx, cy + (k - (len(lines) - 1) / 2) * 29), line, P_SMALL, BLACK, anchor="mm",
                     bold=True, max_width=inner)
        return P_HEADER_H
    x = MARGIN + 4
    box = (MARGIN - 2, 40, width - MARGIN + 2, P_HEADER_H - 6)
    cy = (box[1] + box[3]) / 2
    if seat is not None:
        if arrow:
            turn_arrow(draw, (x + 10, cy), 12)
        if mark is not None:
            mark((x + 42, cy))
        else:
            seat_mark(draw, (x + 42, cy), seat, 16)
        x += 66
    room = width - MARGIN - x
    size = next((s for s in (P_STATUS, P_LARGE, P_BODY, P_SMALL) if font(s, bold=True).getlength(said) <= room), 0)
    if size:
        text(draw, (x, cy), status, size, HIGHLIGHT, anchor="lm", max_width=room, bold=True)
    else:  # two lines
        for k, line in enumerate(wrap_text(said, P_SMALL, room * 0.96)):
            text(draw, (x, cy + (k - 0.5) * 29), line, P_SMALL, HIGHLIGHT, anchor="lm", max_width=room, bold=True)
    return P_HEADER_H


def winner_banner(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], title: str,
                  detail: str | None = None, *, sizes: tuple[int, ...] = (STATUS, LARGE, BODY, SMALL),
                  star_r: float = 13) -> None:
    """Gold banner with stars naming the winner(s); ``detail`` (optional) is a second, smaller line. A title too
    long for the banner at ``STATUS`` size is drawn smaller (down to ``SMALL``) before it is shortened."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=HIGHLIGHT, outline=BLACK, width=2)
    cy = (y0 + y1) / 2
    r = min(star_r, (y1 - y0) / 3)
    for sx in (x0 + 24, x1 - 24):
        draw.polygon(_star(sx, cy, r * 1.2, r * 0.5, 5), fill=BLACK)
    inner = x1 - x0 - 4 * star_r - 44
    if not title:  # (the caller writes it: two lines)
        return
    if detail:
        text(draw, ((x0 + x1) / 2, cy - 4), title, sizes[0], BLACK, anchor="ms", max_width=inner, bold=True)
        text(draw, ((x0 + x1) / 2, cy + 6), detail, sizes[2], BLACK, anchor="mt", max_width=inner)
    else:
        size = next((s for s in sizes[:-1] if font(s, bold=True).getlength(here(title)) <= inner), sizes[-1])
        text(draw, ((x0 + x1) / 2, cy), title, size, BLACK, anchor="mm", max_width=inner, bold=True)


BOT = "'s bot"
"""Ends the English short form of the computer that took a person's seat: "Dee's bot"."""


def short_name(name: str) -> str:
    """The short form of a computer's name (a ``Text`` from games/ai.py) where room is short, in the drawing's
    language: what tells the seats apart, the robot's head beside it saying "computer": "Computer 2 (strong)" ->
    "Strong 2", "Computer for Dee Long" -> "Dee's bot" (``games.ai.short_computer_name``). A person's name is its
    own short form (clipped as ever)."""
    if not is_computer_name(name):
        return plain(here(name))
    return plain(here(short_computer_name(name)))


def least_name(name: str) -> str | None:
    """The least of a computer's name a board may show: its short form, the first name in "Dee's bot" clipped
    to three letters ("Wil…'s bot"); None for a person (clipped as far as room asks)."""
    if not is_computer_name(name):
        return None
    return plain(here(least_computer_name(name)))


def fit_name(name: str, size: float, room: float) -> str:
    """A player's name in ``room`` px: whole when it fits, else a computer's ``short_name`` (in "Dee's bot" the
    first name clipped, never below ``least_name``: the layouts leave room for that, tests/render/test_names.py),
    a person's name clipped."""
    f = font(size)
    whole = plain(here(name))
    if f.getlength(whole) <= room:
        return whole
    least = least_name(name)
    if least is None:
        return fit_text(name, size, room)
    short = short_name(name)
    if f.getlength(short) <= room or least == short:
        return fit_text(short, size, room)
    if f.getlength(least) > room:  # (clipped below its short form: a layout to fix)
        return fit_text(least, size, room)
    for letters in range(len(str(name.params.get("person", ""))), 3, -1):  # the first name clipped as little as
        clipped = plain(here(short_computer_name(name, letters)))  # room asks
        if f.getlength(clipped) <= room:
            return clipped
    return least


def name_room(name: str, size: float) -> float:
    """The px a name needs at least (a computer's ``least_name``; a person's: up to 6 letters): what a layout
    leaves beside other things in a player's row."""
    least = least_name(name)
    if least is None:
        whole = plain(here(name))
        least = whole if len(whole) <= 6 else whole[:6] + "…"
    return font(size).getlength(least) + 2


def played_by_computer(view: dict, seat: int) -> bool:
    """Whether a computer plays ``seat``: ``view["computers"]`` lists those seats (``render.render_board``'s
    ``computers``, from the bot's players; an engine's view never holds it)."""
    return seat in (view.get("computers") or ())


def player_row(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float], seat: int, name: str, *,
               name_width: float, current: bool = False, gone: bool = False, size: int = BODY,
               mark: bool = True, computer: bool = False, k: float = 1, least: int = SMALL) -> float:
    """A player's row: the turn arrow and a gold frame when it is their turn, the seat mark, the robot's head
    (``computer_mark``) when a computer plays the seat, the name (clipped to ``name_width``; "(left)" and muted
    when they left, "(removed)", or "(out)" where that clips the name, when ``gone`` is "removed": a moderator
    took them out). ``k`` scales the marks and gaps (a phone image: ``PHONE_CANVAS``), ``least`` the size a name
    may drop to. Returns the x where the name starts."""
    x0, y0, x1, y1 = box
    cy = (y0 + y1) / 2
    if current:
        draw.rounded_rectangle(box, radius=7, fill=CURRENT_ROW, outline=HIGHLIGHT, width=2)
        turn_arrow(draw, (x0 + 12 * k, cy), 8 * k)
    x = x0 + 24 * k
    if mark:
        seat_mark(draw, (x + 10 * k, cy), seat, round(10 * k))
        x += 28 * k
    if computer:
        computer_mark(draw, (x + 10 * k, cy + 1), (9 if size < BODY else 10) * k, MUTED if gone else TEXT)
        x += COMPUTER_MARK_W * k
    room = name_width - (x - x0)
    shortest = least_name(name) if computer else None
    left = _gone_label("left")
    if shortest and size > least and font(size).getlength(left.format(name=shortest) if gone else shortest) > room:
        size = least  # smaller rather than less than a computer's short form
    if gone:
        label = left
        if gone == "removed":  # "(out)" where "(removed)" would leave too little of the name
            whole = plain(here(name))
            removed, out = _gone_label("removed"), _gone_label("out")
            fits = font(size).getlength(removed.format(name=whole)) <= room
            label = removed if fits or font(size).getlength(out.format(name=whole)) > room else out
        fitted = fit_name(name, size, room - font(size).getlength(label.format(name="")))
        text(draw, (x, cy), label.format(name=fitted), size, MUTED, anchor="lm")
    else:
        text(draw, (x, cy), fit_name(name, size, room), size, TEXT, anchor="lm")
    return x


def _gone_label(how: str) -> str:
    """A gone player's label in the drawing's language, ``{name}`` left to fill: "{name} (left)"."""
    texts = {"left": _("{name} (left)"), "removed": _("{name} (removed)"), "out": _("{name} (out)")}
    return plain(here(texts[how]))


# --- PNG encoding: a fixed palette per game -----------------------------------------------------------
PALETTE_SIZE = 256


@contextmanager
def _unrecorded() -> Iterator[None]:
    """Drawing inside the block is not seen by ``record_fonts`` / ``record_texts`` (palette samples). Inside a
    recording block, the drawing caches are emptied again after it, so what the samples cached (a GEONEO
    background, sprites) is drawn, and recorded, again by the board being recorded."""
    recording = any(v.get() is not None for v in (_RECORDER, _TEXTS, _LABELS))
    fonts, texts, labels, marks = _RECORDER.set(None), _TEXTS.set(None), _LABELS.set(None), _MARKS.set(None)
    try:
        yield
    finally:
        _MARKS.reset(marks)
        _LABELS.reset(labels)
        _TEXTS.reset(texts)
        _RECORDER.reset(fonts)
        if recording:
            for c in _CACHES:
                c.cache_clear()


def _palette_image(colours: Sequence[tuple[int, int, int]]) -> Image.Image:
    img = Image.new("P", (1, 1))
    img.putpalette([v for c in colours for v in c], "RGB")  # exactly len(colours) entries, no black padding
    return img


def _quantize(img: Image.Image, palette: Image.Image) -> Image.Image:
    return img.quantize(palette=palette, dither=Image.Dither.NONE)


def learn_palette(base: Sequence[tuple[int, int, int]], samples: Iterable[Image.Image],
                  size: int = PALETTE_SIZE) -> Image.Image:
    """A fixed palette for one game's images (a "P" image to pass to ``encode_png``), built once.

    ``base``, the game's flat colours (``THEME`` plus its own), is kept exactly. The other entries are learned
    from ``samples`` (boards of every phase, drawn once): their remaining colours, the blends antialiased text
    and LANCZOS-shrunk sprites make, each counted once, are split by maximum coverage (the box spanning the
    most colour space is split first, so a rare gradient, e.g. a white mark's edge on a red piece, gets
    entries as well as the many dark text edges), refined by a few k-means passes. Deterministic: the same
    code and samples give the same palette.

    Pillow finds a pixel's entry from the colour rounded down to a multiple of 4 per channel, so a learned
    entry next to a base colour could take that colour's pixels: such entries are dropped until every base
    colour maps to itself.
    """
    base = list(dict.fromkeys(tuple(c) for c in base))
    known = set(base)
    rest: set[tuple[int, int, int]] = set()
    with _unrecorded():
        for img in samples:
            rgb = img if img.mode == "RGB" else img.convert("RGB")
            rest.update(c for _, c in rgb.getcolors(rgb.width * rgb.height) if c not in known)
    learned: list[tuple[int, int, int]] = []
    room = size - len(base)
    if rest and room > 0:
        spread = Image.frombytes("RGB", (len(rest), 1), b"".join(bytes(c) for c in sorted(rest)))
        flat = spread.quantize(min(room, len(rest)), method=Image.Quantize.MAXCOVERAGE, kmeans=3).getpalette()
        learned = list(dict.fromkeys(tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)))[:room]
    colours = base + [c for c in learned if c not in known]
    while True:
        palette = _palette_image(colours)
        probe = Image.frombytes("RGB", (len(colours), 1), b"".join(bytes(c) for c in colours))
        got = _quantize(probe, palette).tobytes()
        thieves = {got[i] for i in range(len(base)) if got[i] != i and got[i] >= len(base)}
        if not thieves:  # (two base colours this close would be a theme to fix: tests check every one)
            return palette
        colours = [c for i, c in enumerate(colours) if i not in thieves]


def encode_png(img: Image.Image, palette: Image.Image | None = None) -> bytes:
    """PNG at compress level 1 (higher levels cost many times the time for a few percent of size).

    With the game's ``palette`` (``render.palette(game)``, from ``learn_palette``) the image is mapped to it
    without dithering and saved as an 8-bit palette PNG: about 3 times cheaper to encode than RGB and less
    than half the size, the same to the eye (docs/rendering.md). Without one: RGB, as before.
    """
    out = io.BytesIO()
    if palette is not None:
        img = _quantize(img if img.mode == "RGB" else img.convert("RGB"), palette)
    img.save(out, format="PNG", compress_level=1)
    return out.getvalue()
