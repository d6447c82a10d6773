"""Geodeto's pieces: colours, pyramid sprites (letter and pips), towers, trios and the small signs."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from games.geodeto.rules import COLOURS as COLOUR_NAMES
from games.geodeto.rules import CONTINENTS as CONTINENT_KEYS
from games.geodeto.rules import SIZES as SIZE_NAMES
from games.geodeto.rules import pname as _pyramid_name
from i18n import N_, _, here
from render.common import (
    BLACK,
    GREEN,
    HIGHLIGHT,
    P_SMALL,
    WHITE,
    YELLOW,
    cached,
    font,
    mark,
    plain,
    sprite_label,
)
from render.common import BLUE as _BLUE

GAME = "geodeto"
TITLE = _("Geodeto")
"""The game's name (as published in every language; a message so that it is drawn like every other word)."""

RED = (206, 50, 44)
IVORY = (246, 246, 240)
PYRAMID_FILL = (_BLUE, YELLOW, RED, GREEN, IVORY, BLACK)
"""Per colour (blue, yellow, red, green, white, black: ``rules.COLOURS``), its pyramids' and continent's fill."""
PYRAMID_INK = (WHITE, BLACK, WHITE, BLACK, BLACK, WHITE)
PYRAMID_EDGE = (BLACK, BLACK, BLACK, BLACK, BLACK, (200, 204, 214))
LETTERS = ("B", "Y", "R", "G", "W", "K")
"""The letter on each colour's pyramids (K for black, as in print: B is blue)."""
BAND_INK = (WHITE, BLACK, WHITE, BLACK, BLACK, WHITE)
"""The ink on a continent's coloured band (and a card's stripe)."""

TILE = (50, 56, 68)
CLOSED_TILE = (40, 40, 46)
HATCH = (62, 62, 70)
OCEAN_FILL = (30, 62, 96)
OCEAN_EDGE = (70, 120, 170)
OCEAN_INK = (190, 215, 240)
ROUTE = (96, 106, 126)
CARD = (235, 236, 240)
CARD_EDGE = (150, 156, 170)
CARD_INK = (38, 42, 51)
CARD_MUTED = (96, 102, 116)
EPIDEMIC = (150, 60, 130)
PIRATES = (24, 26, 30)
GOLD_TINT = (92, 84, 40)
SHEET_STRIPE = (58, 64, 78)
COLOURS = (*PYRAMID_FILL, RED, PYRAMID_EDGE[5], TILE, CLOSED_TILE, HATCH, OCEAN_FILL, OCEAN_EDGE, OCEAN_INK,
           ROUTE, CARD, CARD_EDGE, CARD_INK, CARD_MUTED, EPIDEMIC, PIRATES, GOLD_TINT, SHEET_STRIPE)
"""The flat colours this game adds to ``common.THEME`` (kept exactly in its PNG palette)."""

# pyramid sizes (px at 600 wide, drawn for the phone: at 240 px a small one is 17.6 x 14.4): small, medium, large
PYR_W = (44, 54, 64)
PYR_H = (36, 42, 48)
CARD_PYR_H = 36
"""On a goal card every pyramid of the trio is this tall, unoverlapped, at its true width (so three mediums are
visibly equal and small / medium / large are told apart by width and pips, not by a tapering outline)."""
TOP = 0.46
"""A pyramid's flat top, as a share of its base."""
PIP_R = 4.2
PIP_Y = 29
"""The size pips (1 small, 2 medium, 3 large, as on the real pieces): radius and height of their centres above
the base, over the letter."""
LETTER_Y = 3
"""The colour letter's baseline above the base."""
LETTER_TOP = 23
"""How far above the base the letter reaches (``P_SMALL``, bold: a cap of 18.4 px and its stroke)."""
VISIBLE = 34
"""How much of a pyramid (from its base) always shows in a tower: its letter and its pips."""
OVERLAP = 8
"""How far a pyramid covers the tip of the one it stands on (never more than down to ``VISIBLE``)."""
MIN_STEP = VISIBLE
"""The least a pyramid may rise above the one below in a squeezed tower: its letter and pips stay visible."""
CRAMPED_STEP = 24
"""The least a pyramid rises in a tower on a continent when even ``MIN_STEP`` does not fit the board's 600 px (a
tower of four or more): its letter still shows, its size then shows in its width."""
TRIO_GAP = 2
"""The gap between the pyramids of a trio on a card."""
SS = 4


# --- pyramids ----------------------------------------------------------------------------------------------
def pid(p) -> int:
    """A pyramid's id (0-17: colour * 3 + size) from an id, a view's ``{"id", ...}`` or a trio's
    ``{"colour", "size"}``."""
    if isinstance(p, int):
        return p
    if "id" in p:
        return int(p["id"])
    return COLOUR_NAMES.index(p["colour"]) * 3 + SIZE_NAMES.index(p["size"])


COLOUR_WORDS = (N_("blue"), N_("yellow"), N_("red"), N_("green"), N_("white"), N_("black"))
"""The colours' names as the continents' legends say them ("B = blue")."""


def pname(p: int) -> str:
    """"small red" (a message: said in the drawing's language)."""
    return _pyramid_name(p)


def text_w(size: int, s: str, bold: bool = False) -> float:
    """``s``'s width in the font of ``size`` as ``common.text`` draws it: in the drawing's language (``i18n.using``),
    made drawable (``common.plain``); ``bold``: the bold face."""
    return _text_w(size, plain(here(s)), bold)


@cached(maxsize=1024)
def _text_w(size: int, s: str, bold: bool = False) -> float:
    """Measured once: names, labels and chips are measured often (keyed by the words drawn, not the English)."""
    return font(size, bold=bold).getlength(s)


def _trapezoid(x: float, base: float, w: float, h: float, grow: float = 0) -> list[tuple[float, float]]:
    """A pyramid's outline: base centred on ``x`` at ``base``, ``h`` tall (``grow`` widens it all round)."""
    top = w * TOP
    return [(x - w / 2 - grow, base + grow * 0.6), (x + w / 2 + grow, base + grow * 0.6),
            (x + top / 2 + grow * 0.7, base - h - grow), (x - top / 2 - grow * 0.7, base - h - grow)]


def pips(d: ImageDraw.ImageDraw, x: float, y: float, n: int, fill, r: float = PIP_R, scale: float = 1) -> None:
    """``n`` pips in a row centred on (``x``, ``y``): a pyramid's size (1 small, 2 medium, 3 large)."""
    step = 2 * r + 2.4
    for k in range(n):
        cx = x + (k - (n - 1) / 2) * step
        d.ellipse(((cx - r) * scale, (y - r) * scale, (cx + r) * scale, (y + r) * scale), fill=fill)


@cached(maxsize=256)
def pyramid_sprite(p: int, ghost: bool = False, height: int | None = None, scale: float = 1.0) -> Image.Image:
    """Pyramid ``p``: its colour, a contrasting edge, its colour's letter near the base and its size's pips
    (1-3) over the letter; ``ghost``: a dashed gold outline of its shape, where a picked pyramid may go.
    ``height``: drawn this tall instead of its own height (a card's trio). ``scale``: drawn smaller (a crowded
    Ocean, down to ``MIN_SCALE``), its letter as large as ever (the legibility floor), its pips over it."""
    size, colour = p % 3, p // 3
    w, h = _scaled(PYR_W[size], scale), _scaled(height or PYR_H[size], scale)
    pad = 3
    img = Image.new("RGBA", ((w + 2 * pad) * SS, (h + 2 * pad) * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    pts = [(x * SS, y * SS) for x, y in _trapezoid(w / 2 + pad, h + pad, w, h)]
    if ghost:
        d.polygon(pts, fill=(*GOLD_TINT, 255))
        for a, b in zip(pts, pts[1:] + pts[:1], strict=True):
            _dashed_line(d, a, b, HIGHLIGHT, 3 * SS, 6 * SS)
    else:
        d.polygon(pts, fill=PYRAMID_FILL[colour], outline=PYRAMID_EDGE[colour], width=2 * SS)
        r = PIP_R * max(scale, 0.7)
        # a smaller pyramid's pips clear of its letter (15 px tall), at its tip
        pip_y = max(PIP_Y * scale, LETTER_TOP + r) if scale < 1 else PIP_Y
        pips(d, w / 2 + pad, h + pad - pip_y, size + 1, PYRAMID_INK[colour], r=r, scale=SS)
    img = img.resize((img.width // SS, img.height // SS), Image.Resampling.LANCZOS)
    if not ghost:  # its colour's letter, bold, near the base (where a pyramid above never covers it)
        sprite_label(LETTERS[colour], P_SMALL, img.size)
        ImageDraw.Draw(img).text((w / 2 + pad, h + pad - LETTER_Y), LETTERS[colour], font=font(P_SMALL),
                                 fill=PYRAMID_INK[colour], anchor="ms", stroke_width=1,
                                 stroke_fill=PYRAMID_INK[colour])
    return img


def _dashed_line(d: ImageDraw.ImageDraw, a, b, fill, width: float, dash: float) -> None:
    (x0, y0), (x1, y1) = a, b
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    n = max(1, int(length / dash))
    for k in range(0, n, 2):
        t0, t1 = k / n, min(1, (k + 1) / n)
        d.line((x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0, x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1),
               fill=fill, width=int(width))


def put_pyramid(img: Image.Image, d: ImageDraw.ImageDraw, p: int, x: float, base: float, *,
                halo=None, ghost: bool = False, height: int | None = None, scale: float = 1.0) -> None:
    """Pyramid ``p`` with its base centred on (``x``, ``base``), its letter and pips on it; ``halo`` (a colour)
    rings it (the picked pyramid, the last move); ``height``: a card's trio pyramid; ``scale``: a crowded
    Ocean's smaller pyramid."""
    size = p % 3
    w, h = _scaled(PYR_W[size], scale), _scaled(height or PYR_H[size], scale)
    if halo is not None:  # a coloured ring between two dark lines: it shows on a pyramid of its own colour too
        d.polygon(_trapezoid(x, base, w, h, 8), fill=BLACK)
        d.polygon(_trapezoid(x, base, w, h, 6), fill=halo)
    sprite = pyramid_sprite(p, ghost, height, scale) if scale != 1 else pyramid_sprite(p, ghost, height)
    img.paste(sprite, (round(x - sprite.width / 2), round(base + 3 - sprite.height)), sprite)
    mark("pyramid", w, h)
    scene = _SCENE.get()
    if scene is not None and not ghost:
        scene.letters.append(letter_box(p, x, base))


def letter_box(p: int, x: float, base: float) -> tuple[float, float, float, float]:
    """Where the letter of pyramid ``p`` standing at (``x``, ``base``) is drawn (a pixel more all round: the
    sprite's position is rounded)."""
    left, top, right, bottom = font(P_SMALL).getbbox(LETTERS[p // 3], anchor="ms", stroke_width=1)
    y = base - LETTER_Y
    return x + left - 1, y + top - 1, x + right + 1, y + bottom + 1


TRIO_H = 3 * CARD_PYR_H + 2 * TRIO_GAP


def draw_trio(img: Image.Image, d: ImageDraw.ImageDraw, trio: Sequence[int], x: float, base: float) -> float:
    """A goal's trio (bottom first) as the column to build: each pyramid whole (none covers another), at its
    true width, all ``CARD_PYR_H`` tall, ``TRIO_GAP`` apart. Returns the y of its top."""
    y = base
    for p in trio:
        put_pyramid(img, d, p, x, y, height=CARD_PYR_H)
        y -= CARD_PYR_H + TRIO_GAP
    return y + TRIO_GAP


def padlock(d: ImageDraw.ImageDraw, x: float, y: float, k: float = 1.4) -> None:
    """A padlock centred on (``x``, ``y``), white with a dark edge: "this pyramid may not be taken back" (``k``:
    its scale; 1.4 on the phone's 600 px images)."""
    d.arc((x - 7 * k, y - 15 * k, x + 7 * k, y + 1 * k), 180, 360, fill=BLACK, width=round(6 * k))
    d.arc((x - 5 * k, y - 13 * k, x + 5 * k, y - 1 * k), 180, 360, fill=WHITE, width=round(3 * k))
    d.rounded_rectangle((x - 10 * k, y - 6 * k, x + 10 * k, y + 10 * k), radius=3 * k, fill=WHITE, outline=BLACK,
                        width=2)
    d.ellipse((x - 2.5 * k, y - 1 * k, x + 2.5 * k, y + 4 * k), fill=BLACK)
    d.line((x, y + 3 * k, x, y + 7 * k), fill=BLACK, width=round(2 * k))


LOCK_BOX = (-14, -21, 14, 14)
"""What a padlock covers around the point it is drawn at."""


def lock_spots(p: int, x: float, base: float, scale: float = 1.0) -> list[tuple[float, float]]:
    """Where the padlock of pyramid ``p`` standing at (``x``, ``base``) may go, best first: on its right flank
    (a large pyramid has room beside its letter), just right of its letter, the same on the left, then higher
    up its flanks (beside its pips), then outside it."""
    w, h = _scaled(PYR_W[p % 3], scale), _scaled(PYR_H[p % 3], scale)
    left, _top, right, _bottom = letter_box(p, 0, 0)
    low, high = base - 15 * scale, base - h + 6
    flank = w / 2 - 3
    beside_right, beside_left = right - LOCK_BOX[0] + 1, left - LOCK_BOX[2] - 1
    return [(x + max(flank, beside_right), low), (x - max(flank, -beside_left), low),
            (x + flank, high), (x - flank, high),
            (x + w / 2 + LOCK_BOX[2], low), (x - w / 2 - LOCK_BOX[2], low)]


def lock_at(d: ImageDraw.ImageDraw, p: int, x: float, base: float, scale: float = 1.0,
            letters: Sequence[tuple[float, float, float, float]] = (),
            bounds: tuple[float, float, float, float] | None = None) -> None:
    """The padlock on pyramid ``p`` standing at (``x``, ``base``), beside it where it covers none of ``letters``
    (the pyramids' letters drawn around it; its own is kept clear always) and stays inside ``bounds`` (its
    tile, the Ocean): the first such spot of ``lock_spots``, else the one that covers the least."""
    own = letter_box(p, x, base)

    def cost(spot: tuple[float, float]) -> tuple[bool, float, int]:
        box = (spot[0] + LOCK_BOX[0], spot[1] + LOCK_BOX[1], spot[0] + LOCK_BOX[2], spot[1] + LOCK_BOX[3])
        covered = sum(max(0.0, min(box[2], b[2]) - max(box[0], b[0])) * max(0.0, min(box[3], b[3]) - max(box[1], b[1]))
                      for b in (own, *letters))
        outside = bounds is not None and not (bounds[0] <= box[0] and bounds[1] <= box[1] and box[2] <= bounds[2]
                                              and box[3] <= bounds[3])
        return outside or covered > 0, covered, spots.index(spot)

    spots = lock_spots(p, x, base, scale)
    padlock(d, *min(spots, key=cost))


@dataclass
class _Scene:
    letters: list[tuple[float, float, float, float]] = field(default_factory=list)
    locks: list[tuple] = field(default_factory=list)
    """(pyramid, x, base, scale, bounds) of each padlock to draw."""


_SCENE: ContextVar[_Scene | None] = ContextVar("geodeto_scene", default=None)


@contextmanager
def locks_clear_of_letters(d: ImageDraw.ImageDraw) -> Iterator[None]:
    """While a board is drawn inside it, each pyramid notes where its letter is and a tower's padlock waits; at
    its end each padlock is drawn where it covers no letter of the board (``lock_at``)."""
    scene = _Scene()
    token = _SCENE.set(scene)
    try:
        yield
    finally:
        _SCENE.reset(token)
    for p, x, base, scale, bounds in scene.locks:
        lock_at(d, p, x, base, scale, scene.letters, bounds)


@contextmanager
def locks_at_once() -> Iterator[None]:
    """Towers drawn inside it get their padlocks at once (drawn on an image of their own: the board's letters
    are not where they are)."""
    token = _SCENE.set(None)
    try:
        yield
    finally:
        _SCENE.reset(token)


def _scaled(size: int, scale: float) -> int:
    return size if scale == 1 else round(size * scale)


def tower_height(pids: Sequence[int], room: float | None = None, floor: float = MIN_STEP,
                 scale: float = 1.0) -> float:
    """How tall a tower is drawn (squeezed into ``room`` when it can be, each step at least ``floor``;
    ``scale``: its pyramids drawn smaller, a crowded Ocean's)."""
    return sum(_scaled_steps(tuple(pids), room, floor, scale)) + (_scaled(PYR_H[pids[-1] % 3], scale) if pids else 0)


def _scaled_steps(pids: tuple[int, ...], room: float | None, floor: float, scale: float) -> list[float]:
    """``_steps`` of a tower of pyramids drawn ``scale`` times as large: ``room`` and ``floor`` stay in pixels
    (a letter is as tall at any scale)."""
    if scale == 1:
        return _steps(pids, room, floor)
    return [step * scale for step in _steps(pids, None if room is None else room / scale, floor / scale)]


def _steps(pids: tuple[int, ...], room: float | None, floor: float = MIN_STEP) -> list[float]:
    """The rise from each pyramid's base to the next one's (the last has none): the one above covers at most
    the tip, never the letter and pips (``VISIBLE``); squeezed into ``room``, down to ``MIN_STEP`` and then, when
    ``floor`` is lower (``CRAMPED_STEP``), further, evenly, until it fits or reaches ``floor``."""
    steps = [max(PYR_H[p % 3] - OVERLAP, VISIBLE) for p in pids[:-1]]
    if not pids or room is None:
        return steps
    need = sum(steps) + PYR_H[pids[-1] % 3]
    if need > room and steps:
        squeeze = max(0.0, (room - PYR_H[pids[-1] % 3] - MIN_STEP * len(steps)) /
                      max(1e-9, sum(steps) - MIN_STEP * len(steps)))
        steps = [MIN_STEP + (s - MIN_STEP) * min(1.0, squeeze) for s in steps]
        if floor < MIN_STEP and sum(steps) + PYR_H[pids[-1] % 3] > room:
            # down to ``floor``; a tower even taller (seven on a spot) still stays inside its tile, lower letters
            # partly covered, rather than drawn over the continent's name
            step = max(min(floor, 8.0), (room - PYR_H[pids[-1] % 3]) / len(steps))
            steps = [min(s, step) for s in steps]
    return steps


def draw_tower(img: Image.Image, d: ImageDraw.ImageDraw, pids: Sequence[int], x: float, base: float, *,
               room: float | None = None, halos: dict[int, tuple] | None = None, locked: int | None = None,
               floor: float = MIN_STEP, scale: float = 1.0,
               bounds: tuple[float, float, float, float] | None = None) -> float:
    """A tower bottom to top, its base centred on (``x``, ``base``); ``locked``: the pyramid that may not be
    taken back gets a padlock, inside ``bounds`` (``lock_at``). Returns the y of its top."""
    pids = tuple(pids)
    halos = halos or {}
    y = base
    steps = _scaled_steps(pids, room, floor, scale)
    lock = None
    for i, p in enumerate(pids):
        put_pyramid(img, d, p, x, y, halo=halos.get(p), scale=scale)
        if p == locked:
            lock = y
        if i < len(steps):
            y -= steps[i]
    if lock is not None:
        scene = _SCENE.get()
        if scene is not None:  # drawn once the whole board is (``locks_clear_of_letters``)
            scene.locks.append((locked, x, lock, scale, bounds))
        else:
            lock_at(d, locked, x, lock, scale, bounds=bounds)
    return y - (_scaled(PYR_H[pids[-1] % 3], scale) if pids else 0)


ARROW_H = 28
"""How tall the gold arrow over a tower is (the room it takes, a gap included: 29)."""


def arrow_down(d: ImageDraw.ImageDraw, x: float, y: float, fill=HIGHLIGHT, scale: float = 1.0) -> None:
    """A gold arrow pointing down at (``x``, ``y``): "it may go on top of this tower" (``scale``: smaller, over
    a crowded Ocean's smaller pyramids)."""
    d.polygon([(x - 15 * scale, y - 17 * scale), (x + 15 * scale, y - 17 * scale), (x, y)], fill=fill, outline=BLACK)
    d.rectangle((x - 5 * scale, y - ARROW_H * scale, x + 5 * scale, y - 16 * scale), fill=fill, outline=BLACK)


# --- icons ---------------------------------------------------------------------------------------------------
def _virus(d: ImageDraw.ImageDraw, x: float, y: float, r: float, fill, ink) -> None:
    """The Epidemic card's mark: a round body with eight knobbed spikes."""
    for k in range(8):
        a = k * math.pi / 4
        ex, ey = x + math.cos(a) * r * 1.35, y + math.sin(a) * r * 1.35
        d.line((x, y, ex, ey), fill=ink, width=3)
        d.ellipse((ex - 3, ey - 3, ex + 3, ey + 3), fill=ink)
    d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=ink, width=2)


def _flag(d: ImageDraw.ImageDraw, x: float, y: float, r: float, ink) -> None:
    """A pirate flag: a pole and a waving flag with a white dot (the skull)."""
    d.line((x - r * 0.9, y - r, x - r * 0.9, y + r), fill=ink, width=3)
    d.polygon([(x - r * 0.9, y - r), (x + r, y - r * 0.8), (x + r * 0.8, y + r * 0.1), (x - r * 0.9, y)],
              fill=ink)
    d.ellipse((x - r * 0.15, y - r * 0.68, x + r * 0.35, y - r * 0.22), fill=PIRATES)


def card_continents(card: dict) -> list[int]:
    """The continents a goal card names (their indices; Europe when none)."""
    return [CONTINENT_KEYS.index(k) for k in card.get("continents", ()) if k in CONTINENT_KEYS] or [0]
