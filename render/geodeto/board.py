"""The Geodeto board: the ring of continents, the Ocean, the public goals, the players and the marks."""

from __future__ import annotations

from PIL import Image, ImageDraw

from games.geodeto.rules import CONTINENTS as CONTINENT_KEYS
from games.geodeto.rules import OCEAN, continent
from i18n import _, here, ngettext, pgettext
from render.common import (
    BLACK,
    HIGHLIGHT,
    MARGIN,
    MUTED,
    P_BODY,
    P_HEADER_H,
    P_SMALL,
    P_STATUS,
    PANEL_EDGE,
    SKY,
    TEXT,
    VERMILLION,
    WHITE,
    cached,
    canvas,
    computer_mark,
    fit_name,
    fit_text,
    join_fit,
    name_room,
    panel,
    phone_header,
    played_by_computer,
    seat_mark,
    text,
    top_seats,
)
from render.common import (
    PHONE_CANVAS as W,
)
from render.geodeto.pieces import (
    BAND_INK,
    CARD,
    CARD_EDGE,
    CARD_INK,
    CARD_MUTED,
    CLOSED_TILE,
    COLOUR_WORDS,
    CRAMPED_STEP,
    EPIDEMIC,
    HATCH,
    LETTERS,
    MIN_STEP,
    OCEAN_EDGE,
    OCEAN_FILL,
    OCEAN_INK,
    PIRATES,
    PYR_H,
    PYR_W,
    PYRAMID_EDGE,
    PYRAMID_FILL,
    ROUTE,
    TILE,
    TITLE,
    TRIO_H,
    _flag,
    _virus,
    arrow_down,
    draw_tower,
    draw_trio,
    locks_at_once,
    locks_clear_of_letters,
    padlock,
    pid,
    pname,
    put_pyramid,
    text_w,
    tower_height,
)
from render.geodeto.players import (
    _name,
    _players,
    chip_label,
    players_height,
)

# --- layout --------------------------------------------------------------------------------------------------
GAP = 8
TILE_W = 204
X_TILE_L = MARGIN
X_OCEAN = X_TILE_L + TILE_W + 6
X_TILE_R = W - MARGIN - TILE_W
OCEAN_W = X_TILE_R - 6 - X_OCEAN
BAND_H = 36
SLOT = 66
"""Distance between the three spots of a continent (a large pyramid is 64 wide)."""
ROW_H = 170
"""A row of the ring: its band and a tower of three (any sizes) standing unsqueezed (``VISIBLE`` steps)."""
RING_ROWS = ((0, 1), (5, 2), (4, 3))
"""The continents per row (left, right): Europe | Asia, Africa | America, Antarctica | Oceania: going round
Europe -> Asia -> America -> Oceania -> Antarctica -> Africa -> Europe, the World Ocean in the middle."""
RING_TOP = P_HEADER_H + GAP
RING_BOTTOM = RING_TOP + 3 * ROW_H + 2 * GAP
ROUTE_H = 20
"""The strip above and below the Ocean where the routes Europe - Asia and Antarctica - Oceania cross it."""
GOALS_ORDER = (0, 1, 2, 5, 4, 3)
"""The public goals under the ring, three a row, in the ring's order: Europe, Asia, America / Africa,
Antarctica, Oceania (the right column of the ring is America and Oceania, below Asia)."""
CARD_W = (W - 2 * MARGIN - 2 * GAP) // 3
GOAL_H = 36 + 112 + 14
"""A public goal card: its band (the name) and its trio (``TRIO_H``) with room around it."""
LOCK_LINE = 44
"""With two players, the line under the ring that says which pyramid may not be taken back (a padlock)."""


def _place_of_continent(c: int) -> tuple[int, int]:
    for row, (left, right) in enumerate(RING_ROWS):
        if c == left:
            return row, 0
        if c == right:
            return row, 1
    raise ValueError(c)


def _goals_top(view: dict) -> int:
    return RING_BOTTOM + GAP + (LOCK_LINE + GAP if view.get("players") == 2 else 0)


def _card_box(c: int, top: int) -> tuple[int, int, int, int]:
    """Continent ``c``'s public goal card in the strip under the ring (``top``: the strip's top)."""
    row, col = divmod(GOALS_ORDER.index(c), 3)
    x = MARGIN + col * (CARD_W + GAP)
    y = top + row * (GOAL_H + GAP)
    return x, y, x + CARD_W, y + GOAL_H


def _tile_box(c: int, rows: list[tuple[int, int]]) -> tuple[int, int, int, int]:
    row, side = _place_of_continent(c)
    y0, y1 = rows[row]
    x = X_TILE_L if side == 0 else X_TILE_R
    return x, y0, x + TILE_W, y1


def _spot_x(box, i: int) -> float:
    return (box[0] + box[2]) / 2 + (i - 1) * SLOT


def _tower_room(row_h: int) -> float:
    return row_h - BAND_H - 12


ARROW_H = 30
"""The room a gold arrow takes over a tower's top."""


def _rows(view: dict | None = None, players_h: int = 0) -> list[tuple[int, int]]:
    """The ring's three rows (top, bottom), ``ROW_H`` each: a tower of three stands unsqueezed; a tower of four
    or more is squeezed (``CRAMPED_STEP``)."""
    return [(RING_TOP + k * (ROW_H + GAP), RING_TOP + k * (ROW_H + GAP) + ROW_H) for k in range(3)]


def board_height(view: dict) -> int:
    """The board's height: the header, the ring, (with two players) the padlock's line, the public goals (two
    rows of three cards), the players' strip. Fixed for a game: 1046-1156 px for 600 wide."""
    return _goals_top(view) + 2 * GOAL_H + GAP + GAP + players_height(view["players"]) + GAP


# --- the ring ------------------------------------------------------------------------------------------------
def _routes(d: ImageDraw.ImageDraw, rows: list[tuple[int, int]]) -> None:
    """The ring's routes: down each side, across the top (Europe - Asia) and the bottom (Antarctica -
    Oceania), drawn under the tiles."""
    xl = X_TILE_L + TILE_W / 2
    xr = X_TILE_R + TILE_W / 2
    top = rows[0][0] + BAND_H / 2
    bottom = rows[-1][1] - ROUTE_H / 2
    for x in (xl, xr):
        d.line((x, top, x, bottom), fill=ROUTE, width=8)
    d.line((xl, top, xr, top), fill=ROUTE, width=8)
    d.line((xl, bottom, xr, bottom), fill=ROUTE, width=8)


def _tile_frame(img: Image.Image, d: ImageDraw.ImageDraw, c: int, box, closed: bool) -> None:
    """A continent's tile: its coloured band (name, and its pyramids' letter and colour), its three spots; a
    closed continent hatched, with the Epidemic card on it."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=10, fill=CLOSED_TILE if closed else TILE, outline=PANEL_EDGE, width=2)
    d.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y0 + BAND_H), radius=9, fill=PYRAMID_FILL[c])
    d.rectangle((x0 + 2, y0 + BAND_H - 10, x1 - 2, y0 + BAND_H), fill=PYRAMID_FILL[c])
    ink = BAND_INK[c]
    text(d, (x0 + 10, y0 + 2 + (BAND_H - 2) / 2), continent(c), P_BODY, ink, anchor="lm", bold=True)
    legend = _("{letter} = {colour}", letter=LETTERS[c], colour=_(COLOUR_WORDS[c]))
    if text_w(P_BODY, continent(c)) + text_w(P_SMALL, legend) + 26 > x1 - x0:
        legend = LETTERS[c]
    text(d, (x1 - 10, y0 + 2 + (BAND_H - 2) / 2), legend, P_SMALL, ink, anchor="rm", bold=len(legend) == 1)
    if closed:
        body = (x0 + 3, y0 + BAND_H + 1, x1 - 2, y1 - 2)
        img.paste(_hatch(body[2] - body[0], body[3] - body[1]), body[:2])
        d.rounded_rectangle(box, radius=10, outline=PANEL_EDGE, width=2)
        _epidemic_card(d, ((x0 + x1) / 2, (y0 + BAND_H + y1) / 2), pgettext("continent", "Closed"))
        return
    base = y1 - 8
    for i in range(3):  # the three spots a tower may stand on
        sx = _spot_x(box, i)
        d.rounded_rectangle((sx - 31, base - 1, sx + 31, base + 4), radius=3, fill=PANEL_EDGE)


def _tile(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, c: int, box, marks: dict) -> None:
    """A continent's towers (on the cached frame), gold marks where the picked pyramid may go."""
    x0, y0, x1, y1 = box
    cont = view["continents"][c]
    if c in marks["places"]:
        d.rounded_rectangle(box, radius=10, outline=HIGHLIGHT, width=4 if c == marks.get("focus") else 3)
    if cont.get("closed"):
        return
    base = y1 - 8
    towers = [[pid(p) for p in t] for t in cont["towers"]]
    room = _tower_room(y1 - y0)
    for i, t in enumerate(towers):
        sx = _spot_x(box, i)
        top = draw_tower(img, d, t, sx, base, room=room - (ARROW_H if t and t[-1] in marks["onto"] else 0),
                         halos=marks["halos"], locked=marks["locked"], floor=CRAMPED_STEP,
                         bounds=(x0 + 3, y0 + BAND_H, x1 - 3, y1 - 3))
        if t and t[-1] in marks["onto"]:
            arrow_down(d, sx, top - 2)
    if c in marks["table"] and len(towers) < 3 and marks["picked"] is not None:
        put_pyramid(img, d, marks["picked"], _spot_x(box, len(towers)), base, ghost=True)


@cached(maxsize=8)
def _background(rows: tuple[tuple[int, int], ...], closed: int | None, top: int, height: int) -> Image.Image:
    """What changes only with the rows' heights and the closed continent (and the language: ``cached``): the
    routes, the continents' tiles, the players' panel."""
    img, d = canvas(height, W)
    _routes(d, list(rows))
    for c in range(6):
        _tile_frame(img, d, c, _tile_box(c, list(rows)), closed == c)
    panel(d, (MARGIN, top, W - MARGIN, height - GAP))
    return img


@cached(maxsize=4)
def _hatch(w: int, h: int) -> Image.Image:
    """Diagonal stripes over a closed continent."""
    img = Image.new("RGB", (w, h), CLOSED_TILE)
    d = ImageDraw.Draw(img)
    for x in range(-h, w + h, 18):
        d.line((x, h, x + h, 0), fill=HATCH, width=5)
    return img


def _epidemic_card(d: ImageDraw.ImageDraw, centre, label: str) -> None:
    """The Epidemic card lying on a continent: it is closed."""
    x, y = centre
    d.rounded_rectangle((x - 94, y - 42, x + 94, y + 42), radius=8, fill=EPIDEMIC, outline=BLACK, width=2)
    _virus(d, x - 68, y, 13, (220, 150, 200), WHITE)
    text(d, (x + 20, y - 2), _("Epidemic"), P_BODY, WHITE, anchor="ms", bold=True, max_width=140)
    text(d, (x + 20, y + 4), label, P_SMALL, WHITE, anchor="mt", bold=True, max_width=140)


def _goal_card(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, c: int, box, choose: bool = False) -> None:
    """The public goal on top of continent ``c``'s pile: its short name on a band in the continent's colour,
    its trio, how many cards the pile holds ("5 left") and, for a two-continent goal, the other continent
    ("or" and a swatch of its colour with its letter). ``choose``: a gold frame, the player to act is drawing a
    card from a pile top."""
    x0, y0, x1, y1 = box
    entry = view["public_goals"][c]
    card = entry.get("card")
    if not card:
        d.rounded_rectangle(box, radius=8, outline=PANEL_EDGE, width=2)
        text(d, ((x0 + x1) / 2, (y0 + y1) / 2 - 12), _("Pile"), P_SMALL, MUTED, anchor="mm")
        text(d, ((x0 + x1) / 2, (y0 + y1) / 2 + 12), _("empty"), P_SMALL, MUTED, anchor="mm")
        return
    trio = tuple(pid(t) for t in reversed(card["trio"]))  # bottom first
    others = tuple(CONTINENT_KEYS.index(k) for k in card.get("continents", ())
                   if k in CONTINENT_KEYS and CONTINENT_KEYS.index(k) != c)
    sprite = _goal_card_image(c, here(goal_label(card)), trio, others[:1], entry["count"],
                              bool(card.get("met") or choose), x1 - x0, y1 - y0)
    img.paste(sprite, (x0, y0))


def _others(c: int, card: dict) -> tuple[str, ...]:
    """The other continents (names) a goal lying on continent ``c``'s pile may be formed on."""
    return tuple(continent(CONTINENT_KEYS.index(k)) for k in card.get("continents", ())
                 if k in CONTINENT_KEYS and CONTINENT_KEYS.index(k) != c)


def _name_lines(name: str, width: float, lines: int, size: int = P_SMALL, short: str | None = None) -> tuple[str, ...]:
    """A card's name (bold ``size``) wrapped into at most ``lines`` lines of ``width``: a word too long for a
    line is broken after its hyphen ("Amundsen-" / "Scott"); when the whole name does not fit, its short name
    (``short``) is tried ("Princess" / "Elisabeth"), and the last line is clipped only if that does not fit
    either. Names are said in the drawing's language."""
    return _wrapped_name(str.__str__(here(name)), width, lines, size, str.__str__(here(short)) if short else None)


@cached(maxsize=256)
def _wrapped_name(name: str, width: float, lines: int, size: int, short_form: str | None) -> tuple[str, ...]:
    def wrap(s: str) -> tuple[list[str], bool]:
        words: list[str] = []
        for word in s.split():
            if "-" in word and text_w(size, word, True) > width:
                head, tail = word.split("-", 1)
                words += [head + "-", tail]
            else:
                words.append(word)
        out: list[str] = []
        while words and len(out) < lines:
            line = words.pop(0)
            while words and not line.endswith("-") and text_w(size, f"{line} {words[0]}", True) <= width:
                line += " " + words.pop(0)
            out.append(line)
        fits = not words and all(text_w(size, line, True) <= width for line in out)
        if words:
            out[-1] = out[-1] + " " + " ".join(words)
        return out, fits

    out, fits = wrap(name)
    if not fits and short_form and short_form != name:
        short, short_fits = wrap(short_form)
        if short_fits:
            out = short
    return tuple(fit_text(line, size, width, bold=True) for line in out)


GOAL_BAND = 38
"""A public goal card's band in its continent's colour, with the goal's short name."""
TRIO_X = 44
"""The trio's centre on a public goal card (the pile's count and "or" stand right of it)."""


def goal_label(card: dict) -> str:
    """A public goal's name on one line of a card: its chip label ("Redeemer", "South Pole")."""
    return chip_label(card)


def _goal_card_need(c: int, card: dict) -> int:
    """The height a public goal card needs: its band and its trio (``GOAL_H`` is at least this)."""
    return GOAL_BAND + 6 + TRIO_H + 5


@cached(maxsize=32)
def _goal_card_image(c: int, label: str, trio: tuple[int, ...], others: tuple[int, ...], count: int, gold: bool,
                     w: int, h: int) -> Image.Image:
    """A public goal card (``label`` already in the drawing's language)."""
    img, d = canvas(h, w)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=8, fill=CARD, outline=HIGHLIGHT if gold else CARD_EDGE,
                        width=5 if gold else 2)
    d.rounded_rectangle((5, 5, w - 6, GOAL_BAND), radius=6, fill=PYRAMID_FILL[c])
    d.rectangle((5, 16, w - 6, GOAL_BAND), fill=PYRAMID_FILL[c])
    bold = text_w(P_SMALL, label, True) <= w - 12  # (regular where bold is too wide: "Freiheitsstatue")
    text(d, (w / 2, (5 + GOAL_BAND) / 2 + 1), label, P_SMALL, BAND_INK[c], anchor="mm", max_width=w - 12,
         bold=bold)
    spare = max(0, h - 6 - GOAL_BAND - 4 - TRIO_H)
    draw_trio(img, d, trio, TRIO_X, h - 6 - spare // 2)
    rx = (TRIO_X + 36 + w - 6) / 2  # the right column's centre
    top = GOAL_BAND + 4 + spare // 2
    if others:
        top = GOAL_BAND + 2
    text(d, (rx, top + 22), str(count), P_STATUS, CARD_INK, anchor="mm", bold=True)
    text(d, (rx, top + 54), pgettext("cards", "left"), P_SMALL, CARD_MUTED, anchor="mm", max_width=w - 6 - TRIO_X - 36)
    if others:  # "or" and the other continent's colour with its letter
        o = others[0]
        text(d, (rx - 6, h - 28), _("or"), P_SMALL, CARD_MUTED, anchor="rm")
        d.rounded_rectangle((rx, h - 46, rx + 36, h - 10), radius=5, fill=PYRAMID_FILL[o],
                            outline=PYRAMID_EDGE[o] if o == 5 else CARD_EDGE, width=2 if o == 5 else 1)
        text(d, (rx + 18, h - 28), LETTERS[o], P_SMALL, BAND_INK[o], anchor="mm", bold=True)
    return img


OCEAN_SCALES = (1.0, 0.95, 0.9, 0.85)
"""How much smaller a crowded Ocean's pyramids may be drawn (their letters stay as large: the legibility floor),
largest first."""
OCEAN_SQUEEZES = (None, *range(MIN_STEP, CRAMPED_STEP - 1, -1))
"""How far a ship's pyramids may be squeezed at each scale: as tall as they are, then each step down to
``CRAMPED_STEP`` (a letter still shows)."""


OCEAN_PAD = 8
OCEAN_TITLE = 42
"""The Ocean's name over its towers."""
"""The Ocean's towers keep this far from its box's sides: a pyramid's halo (the picked one, the last move) rings
it 8 px wide, and stays inside the box."""


def _ocean_fit(view: dict, marks: dict, room: float) -> tuple[float, float | None]:
    """The scale and squeeze the Ocean's towers are drawn at to fit ``room`` (its box's height): the largest
    pyramids that fit, each no more squeezed than needed; only when even the smallest scale at ``CRAMPED_STEP``
    does not fit (more than the sample games ever hold), steps down to 8 px (lower letters partly covered)."""
    for scale in OCEAN_SCALES:
        for squeeze in OCEAN_SQUEEZES:
            if _ocean_need(view, marks, squeeze, scale) <= room:
                return scale, squeeze
    scale = OCEAN_SCALES[-1]
    return scale, next((f for f in range(CRAMPED_STEP - 1, 7, -1) if _ocean_need(view, marks, f, scale) <= room), 8)


def _ocean(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, box, marks: dict) -> None:
    """The World Ocean: its towers (ships when more than one pyramid) in rows, wrapping; when they would not
    fit, drawn smaller and squeezed as far as needed (``_ocean_fit``), and never beyond the box: what still
    would not fit (far more than a game holds) is cut at its edge rather than drawn over the action cards."""
    x0, y0, x1, y1 = box
    scale, squeeze = _ocean_fit(view, marks, y1 - y0)
    dest = OCEAN in marks["places"]
    d.rounded_rectangle(box, radius=12, fill=OCEAN_FILL, outline=HIGHLIGHT if dest else OCEAN_EDGE,
                        width=4 if marks.get("focus") == OCEAN else (3 if dest else 2))
    text(d, ((x0 + x1) / 2, y0 + 4), _("Ocean"), P_SMALL, OCEAN_INK, anchor="ma", bold=True)
    inner = (x0 + OCEAN_PAD, y0 + OCEAN_TITLE, x1 - OCEAN_PAD, y1 - 6)
    if _ocean_need(view, marks, squeeze, scale) <= y1 - y0:
        _flow(img, d, _ocean_items(view, marks), inner, marks, ships=True, squeeze=squeeze, scale=scale,
              bounds=(x0 + 3, y0 + 3, x1 - 3, y1 - 3))
        return
    water = img.crop(inner)  # the safety net: drawn on a copy of the water, pasted back cut to the box
    with locks_at_once():
        _flow(water, ImageDraw.Draw(water), _ocean_items(view, marks), (0, 0, inner[2] - inner[0],
                                                                           inner[3] - inner[1]),
              marks, ships=True, squeeze=squeeze, scale=scale)
    img.paste(water, inner[:2])


def _ocean_items(view: dict, marks: dict) -> list[tuple[list[int], bool]]:
    """The Ocean's towers, and a ghost of the picked pyramid when it may go on the water."""
    items = [([pid(p) for p in t], False) for t in view["ocean"]]
    if OCEAN in marks["table"] and marks["picked"] is not None:
        items.append(([marks["picked"]], True))
    return items


def _ocean_need(view: dict, marks: dict, squeeze: float | None, scale: float = 1.0) -> float:
    """The height the Ocean's box needs."""
    return OCEAN_TITLE + 6 + _flow_height(_ocean_items(view, marks), OCEAN_W - 2 * OCEAN_PAD, marks["onto"], True, squeeze,
                                 scale)


def _ocean_column(view: dict) -> float:
    """The height of the Ocean's column besides the Ocean's box: the routes above and below, the action
    cards."""
    return 2 * ROUTE_H + 18 + EPIDEMIC_H + 6 + _pirates_height(view)


def _flow_rows(items, width: float, onto: set, ships: bool, squeeze: float | None = None,
               scale: float = 1.0) -> list[tuple[list, float, bool]]:
    """Towers (``items``: (pyramids, ghost)) laid left to right in rows of ``width``: per row its towers with
    their widths, its height and whether a ship's hull is under it. ``squeeze``: every step that tall
    (``MIN_STEP``, or less down to ``CRAMPED_STEP`` when the Ocean holds many ships), None: as tall as they are;
    ``scale``: the pyramids (their hulls, arrows and the gaps) drawn that much smaller."""
    rows: list[list[tuple[list[int], bool, float]]] = [[]]
    used = 0.0
    gap = _gap(scale)
    for t, ghost in items:
        w = max(round(PYR_W[p % 3] * scale) for p in t) + (4 if len(t) > 1 and ships else 0)
        if rows[-1] and used + gap + w > width:
            rows.append([])
            used = 0.0
        used += (gap if rows[-1] else 0) + w
        rows[-1].append((t, ghost, w))
    out = []
    for row in rows:
        if row:
            hull = ships and any(len(t) > 1 for t, _, _ in row)
            h = max(tower_height(t, _room(t, squeeze, scale), squeeze or MIN_STEP * scale, scale) for t, _, _ in row)
            h += _hull_h(scale) if hull else 0
            if any(t[-1] in onto for t, _, _ in row):
                h += 22 * scale
            out.append((row, h, hull))
    return out


def _gap(scale: float) -> float:
    """Between two towers in a row: 6 px, 3 between a crowded Ocean's smaller pyramids (a row holds one more)."""
    return 6 if scale == 1 else 3


def _hull_h(scale: float) -> float:
    return 10 * scale


def _room(tower: list[int], squeeze: float | None, scale: float = 1.0) -> float | None:
    """The height a squeezed tower of the Ocean gets: every step ``squeeze`` tall, so each letter still shows
    (a room of 0 squeezed it below even CRAMPED_STEP, to slivers). None: as tall as it is."""
    return None if squeeze is None else squeeze * (len(tower) - 1) + round(PYR_H[tower[-1] % 3] * scale)


def _flow_height(items, width: float, onto: set, ships: bool, squeeze: float | None = None,
                 scale: float = 1.0) -> float:
    return sum(h + 6 * scale for _, h, _ in _flow_rows(items, width, onto, ships, squeeze, scale))


def _flow(img: Image.Image, d: ImageDraw.ImageDraw, items, box, marks: dict | None = None,
          ships: bool = False, squeeze: float | None = None, scale: float = 1.0,
          bounds: tuple[float, float, float, float] | None = None) -> None:
    """Towers left to right in rows, wrapping (the Ocean, the Pirates card). ``ships``: a tower of more than
    one pyramid (in the Ocean) is a ship, it sails on a hull. ``bounds``: where a padlock may go (else
    ``box``)."""
    x0, y0, x1, y1 = box
    marks = marks or {"halos": {}, "onto": set(), "locked": None}
    y = y0
    gap = _gap(scale)
    for row, h, hull in _flow_rows(items, x1 - x0, marks["onto"], ships, squeeze, scale):
        width = sum(w for _, _, w in row) + gap * (len(row) - 1)
        x = (x0 + x1 - width) / 2
        base = y + h - (_hull_h(scale) if hull else 0)
        for t, ghost, w in row:
            cx = x + w / 2
            if ghost:
                put_pyramid(img, d, t[0], cx, base, ghost=True, scale=scale)
            else:
                if len(t) > 1 and ships:
                    d.polygon([(cx - w / 2 - 3, base + 1), (cx + w / 2 + 3, base + 1),
                               (cx + w / 2 - 6 * scale, base + _hull_h(scale)),
                               (cx - w / 2 + 6 * scale, base + _hull_h(scale))], fill=OCEAN_INK)
                top = draw_tower(img, d, t, cx, base, room=_room(t, squeeze, scale),
                                 floor=squeeze or MIN_STEP * scale, halos=marks["halos"], locked=marks.get("locked"),
                                 scale=scale, bounds=bounds or box)
                if t[-1] in marks["onto"]:
                    arrow_down(d, cx, top - 2 * scale, scale=scale)
            x += w + gap
        y += h + gap


def _cards_panel(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, names: list[str], box,
                 choose: bool = False) -> None:
    """The Epidemic and Pirates cards: where they are, who holds them, what the Pirates captured (``choose``:
    gold frames, the player to act is choosing an action card)."""
    x0, y0, x1, y1 = box
    ep = view.get("epidemic") or {}
    where = ep.get("continent")
    holder = ep.get("holder")
    h = EPIDEMIC_H
    edge = HIGHLIGHT if choose else BLACK
    if where is not None:  # the card lies on the closed continent: only its place is left here
        d.rounded_rectangle((x0, y0, x1, y0 + h), radius=8, outline=PANEL_EDGE, width=2)
        c = where if isinstance(where, int) else CONTINENT_KEYS.index(where)
        text(d, (x0 + 10, y0 + 4), _("Epidemic"), P_BODY, MUTED, bold=True, max_width=x1 - x0 - 16)
        on = _("on {continent}", continent=continent(c))  # "Antarctica" where "on Antarctica" would be clipped
        text(d, (x0 + 10, y0 + 40), on if text_w(P_SMALL, on) + 2 <= x1 - x0 - 20 else continent(c), P_SMALL,
             MUTED, max_width=x1 - x0 - 20)
    else:
        d.rounded_rectangle((x0, y0, x1, y0 + h), radius=8, fill=EPIDEMIC, outline=edge, width=3 if choose else 2)
        if text_w(P_BODY, _("Epidemic")) + 44 < x1 - x0:  # (its sign, where there is room beside its name)
            _virus(d, x1 - 18, y0 + 22, 8, (220, 150, 200), WHITE)
        text(d, (x0 + 10, y0 + 4), _("Epidemic"), P_BODY, WHITE, bold=True, max_width=x1 - x0 - 16)
        state = _("free to play") if holder is None else _held_by(_name(names, holder), x1 - x0 - 20)
        text(d, (x0 + 10, y0 + 40), state, P_SMALL, WHITE, max_width=x1 - x0 - 20)
    y = y0 + h + 6
    pir = view.get("pirates") or {}
    holder = pir.get("holder")
    captured = [pid(p) for p in pir.get("pyramids") or ()]
    d.rounded_rectangle((x0, y, x1, y1), radius=8, fill=PIRATES, outline=HIGHLIGHT if choose else PANEL_EDGE,
                        width=3 if choose else 2)
    if text_w(P_BODY, _("Pirates")) + 44 < x1 - x0:  # (its flag, where there is room beside its name)
        _flag(d, x1 - 20, y + 22, 11, WHITE)
    text(d, (x0 + 10, y + 4), _("Pirates"), P_BODY, WHITE, bold=True, max_width=x1 - x0 - 16)
    state = _("free to use") if holder is None else _held_by(_name(names, holder), x1 - x0 - 20)
    text(d, (x0 + 10, y + 40), state, P_SMALL, MUTED if holder is None else TEXT, max_width=x1 - x0 - 20)
    if captured:
        _flow(img, d, [([p], False) for p in captured], (x0 + 6, y + 78, x1 - 6, y1 - 6))


def _held_by(name: str, width: float) -> str:
    """Who holds an action card, in ``width`` px: "held by Bo", or "with Alice" where that would clip the name, or
    the name alone where even that would clip it below its short form (``fit_name``)."""
    if text_w(P_SMALL, _("held by {name}", name=name)) <= width:
        return _("held by {name}", name=name)
    if text_w(P_SMALL, _("with {name}", name="")) + name_room(name, P_SMALL) <= width:
        return _("with {name}", name=fit_name(name, P_SMALL, width - text_w(P_SMALL, _("with {name}", name=""))))
    return fit_name(name, P_SMALL, width)  # a narrow box: the name alone (it is under the card's name)


COMPACT_CARDS_H = 88
"""The Epidemic and Pirates cards together in one box, a line each, when the Ocean needs their room."""


def _compact_cards(d: ImageDraw.ImageDraw, view: dict, names: list[str], box, choose: bool = False) -> None:
    """The action cards when the Ocean is crowded: a line each, its sign (the virus, the pirate flag) and where
    it is ("free", "on Asia", who holds it; the Pirates' captured pyramids as "+2")."""
    x0, y0, x1, y1 = box
    ep = view.get("epidemic") or {}
    pir = view.get("pirates") or {}
    where = ep.get("continent")
    half = (y1 - y0) / 2
    edge = HIGHLIGHT if choose else PANEL_EDGE
    d.rounded_rectangle((x0, y0, x1, y0 + half - 1), radius=7, outline=edge if where is not None else
                        (HIGHLIGHT if choose else BLACK), fill=None if where is not None else EPIDEMIC,
                        width=3 if choose else 2)
    d.rounded_rectangle((x0, y0 + half + 1, x1, y1), radius=7, fill=PIRATES, outline=edge, width=3 if choose else 2)
    _virus(d, x0 + 18, y0 + half / 2, 8, (220, 150, 200), WHITE)
    if where is not None:
        c = where if isinstance(where, int) else CONTINENT_KEYS.index(where)
    if where is not None or ep.get("holder") is None:
        state, x = (_("on {continent}", continent=continent(c)) if where is not None else _("free")), x0 + 36
        if where is not None and text_w(P_SMALL, state) + 2 > x1 - x - 6:  # "Antarctica" nearer the virus
            state, x = continent(c), x0 + 32
        text(d, (x, y0 + half / 2), state, P_SMALL, MUTED if where is not None else WHITE, anchor="lm",
             bold=True, max_width=x1 - x - 3)
    else:
        _holder(d, view, names, ep["holder"], (x0 + 36, y0 + half / 2), x1 - x0 - 42, "")
    _flag(d, x0 + 18, y0 + half * 1.5 + 1, 9, WHITE)
    captured = len(pir.get("pyramids") or ())
    tail = f" +{captured}" if captured else ""
    if pir.get("holder") is None:
        free = _("free +{n}", n=captured) if captured else _("free")
        text(d, (x0 + 36, y0 + half * 1.5 + 1), free, P_SMALL, WHITE, anchor="lm", bold=True, max_width=x1 - x0 - 42)
    else:
        _holder(d, view, names, pir["holder"], (x0 + 36, y0 + half * 1.5 + 1), x1 - x0 - 42, tail)


def _holder(d: ImageDraw.ImageDraw, view: dict, names: list[str], seat: int, at: tuple[float, float], room: float,
            tail: str) -> None:
    """Who holds an action card on its line in the compact box (then ``tail``, e.g. "+2"): the name; a
    computer whose short form does not fit there by its seat's mark and the robot's head (as in the players'
    strip)."""
    name = _name(names, seat)
    room -= text_w(P_SMALL, tail)
    if played_by_computer(view, seat) and text_w(P_SMALL, fit_name(name, P_SMALL, room)) < name_room(name, P_SMALL) - 2:
        seat_mark(d, (at[0] + 11, at[1]), seat, 11)
        computer_mark(d, (at[0] + 40, at[1] + 1), 11, WHITE)
        if tail:
            text(d, (at[0] + 56, at[1]), tail, P_SMALL, WHITE, anchor="lm", bold=True)
        return
    text(d, at, fit_name(name, P_SMALL, room) + tail, P_SMALL, WHITE, anchor="lm", bold=True)


EPIDEMIC_H = 76


def _pirates_height(view: dict) -> int:
    captured = [([pid(p)], False) for p in (view.get("pirates") or {}).get("pyramids") or ()]
    if not captured:
        return 76
    return int(78 + _flow_height(captured, OCEAN_W - 12, set(), False))


# --- texts ---------------------------------------------------------------------------------------------------
def winners_of(view: dict) -> list[int]:
    if view.get("winners") is not None:
        return list(view["winners"])
    if view.get("score_sheet"):
        totals = [row["total"] for row in view["score_sheet"]["players"]]
        return top_seats(totals, view.get("left") or [False] * len(totals))
    return []


def _winner_text(view: dict, names: list[str], seats: list[int]) -> str:
    if not seats:
        return _("Game over")
    if view.get("score_sheet"):
        best = view["score_sheet"]["players"][seats[0]]["total"]
        said = (ngettext("{names} wins with {n} point!", "{names} wins with {n} points!", best) if len(seats) == 1
                else ngettext("{names} tie with {n} point!", "{names} tie with {n} points!", best))
    else:
        said = _("{names} wins!") if len(seats) == 1 else _("{names} win!")
    room = W - 120 - text_w(P_STATUS, _format_with(said, names=""))
    return _format_with(said, names=join_fit([_name(names, s) for s in seats], P_STATUS, room))


def _format_with(text: str, **params) -> str:
    """A message with more of its placeholders filled (``{names}`` once the names are fitted)."""
    return text.with_params(**params)


STATUS_ROOM = W - 2 * MARGIN - 66
"""The header's status line beside the turn arrow and seat mark (``phone_header``: 38 px down to 28, where it
fits on one line)."""


def _status(view: dict, names: list[str]) -> str:
    seat = view.get("current")
    who = _name(names, seat)
    step = view.get("step")
    if view["phase"] == "bonus":
        n = view.get("bonus") or 1
        need = _("draw a bonus card ({n} left) or stop", n=n) if n > 1 else _("draw a bonus card or stop")
    elif step and step.get("kind") == "move" and step.get("pyramid") is not None:
        p = pid(step["pyramid"])
        riders = _riders(view, p)
        need = _("move the {pyramid} to a gold mark", pyramid=pname(p))
        carried = _("move the {pyramid} (carries {n}) to a gold mark", pyramid=pname(p), n=riders)
        if riders and 1.8 * STATUS_ROOM - text_w(P_SMALL, _("{player}: {need}", player="", need=carried)) \
                >= name_room(who, P_SMALL):  # (on two lines, ``phone_header``)  # the riders' halo shows them where a language needs the room
            need = carried
    elif step and step.get("kind") == "draw":
        need = _("draw the top card of a pile")
    elif step and step.get("kind") == "action":
        need = _("use an action card")
    else:
        need = _turn_need(view)
    room = STATUS_ROOM - text_w(P_SMALL, _("{player}: {need}", player="", need=need))
    if text_w(P_SMALL, who) + 2 > room:  # on two lines (``phone_header``), the name whole where it fits there
        room = 1.8 * STATUS_ROOM - text_w(P_SMALL, _("{player}: {need}", player="", need=need))
    return _("{player}: {need}", player=fit_name(who, P_SMALL, room), need=need)


def _riders(view: dict, p: int) -> int:
    """How many pyramids ride on ``p`` when it moves (those above it; in the Ocean, the rest of its ship)."""
    found = _find(view, p)
    if not found:
        return 0
    place, t = found
    return len(t) - 1 if place == OCEAN else len(t) - t.index(p) - 1


def _turn_need(view: dict) -> str:
    """What the player to act may do at the start of a turn: move, draw (a pile holds cards), play an action
    card (the Epidemic card is free, theirs or on a continent; the Pirates card is free with ships in the
    Ocean, or theirs with captured pyramids)."""
    seat = view.get("current")
    ep = view.get("epidemic") or {}
    pir = view.get("pirates") or {}
    action = (ep.get("continent") is not None or ep.get("holder") in (None, seat)
              or (pir.get("holder") is None and bool(view.get("ocean")))
              or (pir.get("holder") == seat and bool(pir.get("pyramids"))))
    draw = any(g.get("card") for g in view.get("public_goals") or ())
    if action:
        return _("move, draw or play an action card") if draw else _("move or play an action card")
    return _("move a pyramid or draw a card") if draw else _("move a pyramid")


def _countdown(view: dict) -> str:
    left, goal = view.get("countdown"), view.get("goal")
    if left is None:
        return ""
    if view["phase"] == "over":
        return _("Game over")
    if goal:
        return ngettext("{n} goal to go (of {goal})", "{n} goals to go (of {goal})", left, goal=goal)
    return ngettext("{n} goal to go", "{n} goals to go", left)


# --- marks: the step in progress and the last move --------------------------------------------------------------
def _find(view: dict, p: int) -> tuple[int, list[int]] | None:
    """(place, tower) of pyramid ``p`` on the board, None when it is not there (on the Pirates card)."""
    for c, cont in enumerate(view["continents"]):
        for t in cont["towers"]:
            ids = [pid(q) for q in t]
            if p in ids:
                return c, ids
    for t in view["ocean"]:
        ids = [pid(q) for q in t]
        if p in ids:
            return OCEAN, ids
    return None


def _marks(view: dict, focus: dict | None) -> dict:
    """What to draw over the board: haloes (picked: gold; last move: sky blue), destinations ("onto" tower
    tops, "table" places), the places to frame in gold."""
    marks: dict = {"halos": {}, "onto": set(), "table": set(), "places": set(), "picked": None, "focus": None,
                   "locked": pid(view["forbidden"]) if view.get("forbidden") is not None else None}
    last = view.get("last_move")
    if last and last.get("pyramid") is not None:
        found = _find(view, pid(last["pyramid"]))
        if found:
            _place, t = found
            i = t.index(pid(last["pyramid"]))
            for q in t[i:i + max(1, last.get("count") or 1)]:
                marks["halos"][q] = SKY
    step = view.get("step") or {}
    picked = step.get("pyramid") if step.get("kind") == "move" else None
    if picked is None and focus and focus.get("pyramid") is not None:
        picked = focus["pyramid"]
    if picked is not None:
        picked = pid(picked)
        marks["picked"] = picked
        found = _find(view, picked)
        if found:
            place, t = found
            riders = t if place == OCEAN else t[t.index(picked):]
            for q in riders:
                marks["halos"][q] = HIGHLIGHT
        for dest in step.get("destinations") or ():
            marks["places"].add(dest["place"])
            if dest.get("on") is None:
                marks["table"].add(dest["place"])
            else:
                marks["onto"].add(pid(dest["on"]))
    if focus and focus.get("place") is not None:
        marks["focus"] = focus["place"]
    return marks


# --- the board -----------------------------------------------------------------------------------------------
STALL_ROUNDS_SHOWN = 5
"""The warning that the journey ends without a goal shows from this many rounds before that end."""


def stall_warning(view: dict) -> str | None:
    """"Journey ends in 7 turns without a goal" when the stall end (``view["stall_turns_left"]``) is at most
    ``STALL_ROUNDS_SHOWN`` rounds away, else None."""
    turns = view.get("stall_turns_left")
    if turns is None or view["phase"] == "over":
        return None
    left = view.get("left") or [False] * view["players"]
    playing = max(1, sum(1 for gone in left if not gone))
    if turns > STALL_ROUNDS_SHOWN * playing:
        return None
    return ngettext("Ends in {n} turn without a goal", "Ends in {n} turns without a goal", max(1, turns))


def _warning(d: ImageDraw.ImageDraw, label: str) -> float:
    """On the header's first line, right (where the countdown stands otherwise): a vermillion label with a
    warning sign: the journey is about to end. Returns its width."""
    w = text_w(P_SMALL, label) + 2
    x1 = W - MARGIN - 2
    x0 = x1 - w - 52
    d.rounded_rectangle((x0, 2, x1, 38), radius=8, fill=VERMILLION, outline=BLACK, width=2)
    x, cy = x0 + 9, 20
    d.polygon([(x + 15, cy - 13), (x + 29, cy + 11), (x + 1, cy + 11)], fill=BLACK)
    d.line((x + 15, cy - 5, x + 15, cy + 3), fill=VERMILLION, width=4)
    d.ellipse((x + 13, cy + 5, x + 17, cy + 9), fill=VERMILLION)
    text(d, (x0 + 44, cy), label, P_SMALL, BLACK, anchor="lm", bold=True)
    return x1 - x0


def lock_note(view: dict, names: list[str], room: float | None = None) -> str | None:
    """With two players, the pyramid the player to act may not take back: "small red: just picked by Bo"; "small
    red: just picked" where that would not fit ``room`` px (a language's longer words)."""
    p = view.get("forbidden")
    if p is None or view["phase"] == "over":
        return None
    left = view.get("left") or [False] * view["players"]
    others = [s for s in range(view["players"]) if s != view.get("current") and not left[s]]
    bare = _("{pyramid}: just picked", pyramid=pname(pid(p)))
    if len(others) == 1:
        blank = _("{pyramid}: just picked by {name}", pyramid=pname(pid(p)), name="")
        name_w = (room if room is not None else LOCK_ROOM) - text_w(P_SMALL, blank) - 2
        note = _("{pyramid}: just picked by {name}", pyramid=pname(pid(p)),
                 name=fit_name(_name(names, others[0]), P_SMALL, name_w))
        if room is None or text_w(P_SMALL, note) + 2 <= room or text_w(P_SMALL, bare) + 2 > room:
            return note
    return bare


LOCK_ROOM = W - 2 * MARGIN - 70
"""The room of the padlock's note on its line under the ring."""


def _lock_legend(d: ImageDraw.ImageDraw, note: str, top: float) -> None:
    """The padlock and its note on their line under the ring (two players; ``top``: the line's top)."""
    cy = top + LOCK_LINE / 2
    w = min(text_w(P_SMALL, note) + 2, LOCK_ROOM)
    x = (W - w - 44) / 2
    padlock(d, x + 14, cy + 3)
    text(d, (x + 44, cy), note, P_SMALL, TEXT, anchor="lm", max_width=w)


def ocean_column(view: dict, marks: dict, rows: list[tuple[int, int]]) -> tuple[tuple, tuple, bool]:
    """The middle column between the routes: the Ocean's box, the action cards' box below it, and whether the
    cards are compact (one small box, a line each: a crowded Ocean needs their room)."""
    cards_h = EPIDEMIC_H + 6 + _pirates_height(view)
    ocean_top, column_bottom = rows[0][0] + ROUTE_H + 6, rows[-1][1] - ROUTE_H - 6
    compact = _ocean_need(view, marks, MIN_STEP) > column_bottom - 6 - cards_h - ocean_top
    if compact:
        cards_h = COMPACT_CARDS_H
        scale, squeeze = _ocean_fit(view, marks, column_bottom - 6 - cards_h - ocean_top)
        if squeeze is not None and squeeze < CRAMPED_STEP:  # (rare: 9 of 4,882 sample boards) over the routes
            ocean_top, column_bottom = rows[0][0], rows[-1][1]
    ocean_box = (X_OCEAN, ocean_top, X_OCEAN + OCEAN_W, column_bottom - 6 - cards_h)
    return ocean_box, (X_OCEAN, ocean_box[3] + 6, X_OCEAN + OCEAN_W, column_bottom), compact


def draw_board(view: dict, names: list[str], last: str | None = None, focus: dict | None = None) -> Image.Image:
    """The public board, ``PHONE_CANVAS`` (600) x ``board_height`` (the ring, the public goals under it, the
    players). ``focus`` (optional, while a move's destinations are offered place by place): ``{"place": 0-6,
    "pyramid": p}``: that place is framed thicker, the pyramid picked. ``last`` is not drawn: the message above
    the board says the last move, and its pyramids are haloed sky blue."""
    over = view["phase"] == "over"
    marks = _marks(view, focus) if not over else _marks({**view, "step": None, "last_move": None}, None)
    height = board_height(view)
    players_h = players_height(view["players"])
    rows = _rows()
    top = height - GAP - players_h
    closed = next((c for c, cont in enumerate(view["continents"]) if cont.get("closed")), None)
    img = _background(tuple(rows), closed, top, height).copy()
    d = ImageDraw.Draw(img)
    winners = winners_of(view) if over else []
    warning = stall_warning(view)
    if over:
        phone_header(d, TITLE, _winner_text(view, names, winners), right=_countdown(view), winner=True)
    else:
        phone_header(d, TITLE, _status(view, names), right=None if warning else _countdown(view),
                     seat=view.get("current"))
        if warning:
            _warning(d, warning)
        note = lock_note(view, names, LOCK_ROOM)
        if note:
            _lock_legend(d, note, RING_BOTTOM + GAP)
    ocean_box, cards_box, compact = ocean_column(view, marks, rows)
    goals_top = _goals_top(view)
    with locks_clear_of_letters(d):
        _ocean(img, d, view, ocean_box, marks)
        step = (view.get("step") or {}).get("kind") if not over else None
        if compact:
            _compact_cards(d, view, names, cards_box, choose=step == "action")
        else:
            _cards_panel(img, d, view, names, cards_box, choose=step == "action")
        drawing = step == "draw" or view["phase"] == "bonus"
        for c in range(6):
            _tile(img, d, view, c, _tile_box(c, rows), marks)
            _goal_card(img, d, view, c, _card_box(c, goals_top), choose=drawing)
    _players(d, view, names, (MARGIN, top, W - MARGIN, height - GAP), winners)
    return img
