"""The Geodeto board: the ring of continents, the Ocean, the public goals, the players and the marks."""

from __future__ import annotations

from PIL import Image, ImageDraw

from games.geodeto.rules import COLOURS as COLOUR_NAMES
from games.geodeto.rules import CONTINENT_NAMES, OCEAN
from games.geodeto.rules import CONTINENTS as CONTINENT_KEYS
from render.common import (
    BLACK,
    BODY,
    CURRENT_ROW,
    FOOTER_H,
    HEADER_H,
    HIGHLIGHT,
    MARGIN,
    MUTED,
    PANEL_EDGE,
    SKY,
    SMALL,
    STATUS,
    TEXT,
    VERMILLION,
    WHITE,
    WIDTH,
    cached,
    canvas,
    fit_text,
    footer,
    header,
    join_fit,
    panel,
    player_row,
    plural,
    star,
    text,
    top_seats,
    turn_arrow,
)
from render.geodeto.pieces import (
    BAND_INK,
    CARD,
    CARD_EDGE,
    CARD_INK,
    CARD_MUTED,
    CLOSED_TILE,
    EPIDEMIC,
    HATCH,
    LETTERS,
    OCEAN_EDGE,
    OCEAN_FILL,
    OCEAN_INK,
    PIRATES,
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
    card_continents,
    draw_tower,
    draw_trio,
    padlock,
    pid,
    pname,
    put_pyramid,
    text_w,
    tower_height,
)

# --- layout --------------------------------------------------------------------------------------------------
GAP = 8
CARD_W = 120
TILE_W = 186
X_CARD_L = MARGIN
X_TILE_L = X_CARD_L + CARD_W + 6
X_OCEAN = X_TILE_L + TILE_W + GAP
X_TILE_R = WIDTH - MARGIN - CARD_W - 6 - TILE_W
X_CARD_R = WIDTH - MARGIN - CARD_W
OCEAN_W = X_TILE_R - GAP - X_OCEAN
ROW_H = 168
BAND_H = 28
SLOT = 60
"""Distance between the three spots of a continent (a large pyramid is 56 wide)."""
RING_ROWS = ((0, 1), (5, 2), (4, 3))
"""The continents per row (left, right): Europe | Asia, Africa | America, Antarctica | Oceania: going round
Europe -> Asia -> America -> Oceania -> Antarctica -> Africa -> Europe, the World Ocean in the middle."""
RING_TOP = HEADER_H + GAP
ROUTE_H = 26
"""The strip above and below the Ocean where the routes Europe - Asia and Antarctica - Oceania cross it."""


def _place_of_continent(c: int) -> tuple[int, int]:
    for row, (left, right) in enumerate(RING_ROWS):
        if c == left:
            return row, 0
        if c == right:
            return row, 1
    raise ValueError(c)


def _card_box(c: int, rows: list[tuple[int, int]]) -> tuple[int, int, int, int]:
    row, side = _place_of_continent(c)
    y0, y1 = rows[row]
    x = X_CARD_L if side == 0 else X_CARD_R
    return x, y0, x + CARD_W, y1


def _tile_box(c: int, rows: list[tuple[int, int]]) -> tuple[int, int, int, int]:
    row, side = _place_of_continent(c)
    y0, y1 = rows[row]
    x = X_TILE_L if side == 0 else X_TILE_R
    return x, y0, x + TILE_W, y1


def _spot_x(box, i: int) -> float:
    return (box[0] + box[2]) / 2 + (i - 1) * SLOT


def _tower_room(row_h: int) -> float:
    return row_h - BAND_H - 14


ARROW_H = 24
"""The room a gold arrow takes over a tower's top."""


def _row_heights(view: dict, onto: set | frozenset = frozenset()) -> list[int]:
    """Each ring row is ``ROW_H`` tall, more when a tower needs it even squeezed (with a gold arrow over it when
    its top is in ``onto``) or a public goal card needs it (a name on three lines)."""
    out = []
    for left, right in RING_ROWS:
        need = ROW_H
        for c in (left, right):
            for t in view["continents"][c]["towers"]:
                if t:
                    ids = [pid(p) for p in t]
                    need = max(need, BAND_H + 14 + tower_height(ids, 0) + (ARROW_H if ids[-1] in onto else 0))
            card = view["public_goals"][c].get("card")
            if card:
                need = max(need, _goal_card_need(c, card))
        out.append(int(need))
    return out


def _rows(view: dict, marks: dict) -> list[tuple[int, int]]:
    """The ring's rows (top, bottom); the middle one taller when the Ocean's column needs it."""
    heights = _row_heights(view, marks["onto"])
    ring = sum(heights) + GAP * (len(heights) - 1)
    column = _ocean_column(view) + _ocean_need(view, marks, _ocean_squeezed(view, marks, ring))
    heights[1] += max(0, int(column - ring))
    y = RING_TOP
    rows = []
    for h in heights:
        rows.append((y, y + h))
        y += h + GAP
    return rows


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
    text(d, (x0 + 10, y0 + 2 + (BAND_H - 2) / 2), CONTINENT_NAMES[c], BODY, ink, anchor="lm", bold=True)
    legend = f"{LETTERS[c]} = {COLOUR_NAMES[c]}"
    if text_w(BODY, CONTINENT_NAMES[c]) + text_w(SMALL, legend) + 34 > x1 - x0:
        legend = LETTERS[c]
    text(d, (x1 - 10, y0 + 2 + (BAND_H - 2) / 2), legend, SMALL, ink, anchor="rm", bold=len(legend) == 1)
    if closed:
        body = (x0 + 3, y0 + BAND_H + 1, x1 - 2, y1 - 2)
        img.paste(_hatch(body[2] - body[0], body[3] - body[1]), body[:2])
        d.rounded_rectangle(box, radius=10, outline=PANEL_EDGE, width=2)
        _epidemic_card(d, ((x0 + x1) / 2, (y0 + BAND_H + y1) / 2), "Closed")
        return
    base = y1 - 10
    for i in range(3):  # the three spots a tower may stand on
        sx = _spot_x(box, i)
        d.rounded_rectangle((sx - 28, base - 1, sx + 28, base + 5), radius=3, fill=PANEL_EDGE)


def _tile(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, c: int, box, marks: dict) -> None:
    """A continent's towers (on the cached frame), gold marks where the picked pyramid may go."""
    x0, y0, x1, y1 = box
    cont = view["continents"][c]
    if c in marks["places"]:
        d.rounded_rectangle(box, radius=10, outline=HIGHLIGHT, width=4 if c == marks.get("focus") else 3)
    if cont.get("closed"):
        return
    base = y1 - 10
    towers = [[pid(p) for p in t] for t in cont["towers"]]
    room = _tower_room(y1 - y0)
    for i, t in enumerate(towers):
        sx = _spot_x(box, i)
        top = draw_tower(img, d, t, sx, base, room=room - (ARROW_H if t and t[-1] in marks["onto"] else 0), halos=marks["halos"], locked=marks["locked"])
        if t and t[-1] in marks["onto"]:
            arrow_down(d, sx, top - 2)
    if c in marks["table"] and len(towers) < 3 and marks["picked"] is not None:
        put_pyramid(img, d, marks["picked"], _spot_x(box, len(towers)), base, ghost=True)


@cached(maxsize=8)
def _background(rows: tuple[tuple[int, int], ...], closed: int | None, top: int, height: int) -> Image.Image:
    """What changes only with the rows' heights and the closed continent: the routes, the continents' tiles,
    the players' panel."""
    img, d = canvas(height)
    _routes(d, list(rows))
    for c in range(6):
        _tile_frame(img, d, c, _tile_box(c, list(rows)), closed == c)
    panel(d, (MARGIN, top, WIDTH - MARGIN, height - FOOTER_H - GAP))
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
    d.rounded_rectangle((x - 80, y - 38, x + 80, y + 38), radius=8, fill=EPIDEMIC, outline=BLACK, width=2)
    _virus(d, x - 56, y, 11, (220, 150, 200), WHITE)
    text(d, (x + 16, y - 3), "Epidemic", BODY, WHITE, anchor="ms", bold=True)
    text(d, (x + 16, y + 5), label, SMALL, WHITE, anchor="mt", bold=True)


def _goal_card(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, c: int, box, choose: bool = False) -> None:
    """The public goal on top of continent ``c``'s pile: its stripe (how many cards the pile holds), its name
    (and the other continent of a two-continent goal) and its trio. ``choose``: a gold frame, the player to
    act is drawing a card from a pile top."""
    x0, y0, x1, y1 = box
    entry = view["public_goals"][c]
    card = entry.get("card")
    if not card:
        d.rounded_rectangle(box, radius=8, outline=PANEL_EDGE, width=2)
        text(d, ((x0 + x1) / 2, (y0 + y1) / 2 - 12), "Pile", SMALL, MUTED, anchor="mm")
        text(d, ((x0 + x1) / 2, (y0 + y1) / 2 + 12), "empty", SMALL, MUTED, anchor="mm")
        return
    trio = tuple(pid(t) for t in reversed(card["trio"]))  # bottom first
    sprite = _goal_card_image(c, card["name"], trio, _others(c, card)[:1], entry["count"],
                              bool(card.get("met") or choose), x1 - x0, y1 - y0)
    img.paste(sprite, (x0, y0))


def _others(c: int, card: dict) -> tuple[str, ...]:
    """The other continents (names) a goal lying on continent ``c``'s pile may be formed on."""
    return tuple(CONTINENT_NAMES[CONTINENT_KEYS.index(k)] for k in card.get("continents", ())
                 if k in CONTINENT_KEYS and CONTINENT_KEYS.index(k) != c)


def short_name(name: str) -> str:
    """A card's name without " Station" ("Amundsen-Scott", "Princess Elisabeth"): where room is short."""
    return name[: -len(" Station")] if name.endswith(" Station") else name


@cached(maxsize=256)
def _name_lines(name: str, width: float, lines: int, size: int = SMALL) -> tuple[str, ...]:
    """A card's name (bold ``size``) wrapped into at most ``lines`` lines of ``width``: a word too long for a
    line is broken after its hyphen ("Amundsen-" / "Scott"); when the whole name does not fit, its short name
    is tried ("Princess" / "Elisabeth"), and the last line is clipped only if that does not fit either."""
    def wrap(s: str) -> tuple[list[str], bool]:
        words: list[str] = []
        for word in s.split():
            if "-" in word and text_w(size, word) + 2 > width:
                head, tail = word.split("-", 1)
                words += [head + "-", tail]
            else:
                words.append(word)
        out: list[str] = []
        while words and len(out) < lines:
            line = words.pop(0)
            while words and not line.endswith("-") and text_w(size, f"{line} {words[0]}") + 2 <= width:
                line += " " + words.pop(0)
            out.append(line)
        fits = not words and all(text_w(size, line) + 2 <= width for line in out)
        if words:
            out[-1] = out[-1] + " " + " ".join(words)
        return out, fits

    out, fits = wrap(name)
    if not fits and short_name(name) != name:
        short, short_fits = wrap(short_name(name))
        if short_fits:
            out = short
    return tuple(fit_text(line, size, width - 2) for line in out)


GOAL_STRIPE = 25
"""A public goal card's coloured stripe ("5 in pile")."""
GOAL_LINE = 20
"""From one line of a public goal card's name to the next (baselines; the first ``GOAL_STRIPE + 18``)."""


def _goal_name(name: str, others: bool) -> tuple[str, ...]:
    """A public goal card's name lines: one over "or Asia", else two (three only for a name that two would
    clip, e.g. "Sydney" / "Opera" / "House")."""
    if others:
        return _name_lines(name, CARD_W - 8, 1)
    lines = _name_lines(name, CARD_W - 8, 2)
    return _name_lines(name, CARD_W - 8, 3) if lines[-1].endswith("…") else lines


def _goal_card_need(c: int, card: dict) -> int:
    """The height a public goal card needs: stripe, name and "or Asia" lines, the trio."""
    others = _others(c, card)
    lines = len(_goal_name(card["name"], bool(others))) + (1 if others else 0)
    return GOAL_STRIPE + 18 + (lines - 1) * GOAL_LINE + 6 + TRIO_H + 5


@cached(maxsize=32)
def _goal_card_image(c: int, name: str, trio: tuple[int, ...], others: tuple[str, ...], count: int, gold: bool,
                     w: int, h: int) -> Image.Image:
    img, d = canvas(h, w)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=8, fill=CARD, outline=HIGHLIGHT if gold else CARD_EDGE,
                        width=4 if gold else 2)
    d.rounded_rectangle((4, 4, w - 5, GOAL_STRIPE), radius=6, fill=PYRAMID_FILL[c])
    d.rectangle((4, 16, w - 5, GOAL_STRIPE), fill=PYRAMID_FILL[c])
    text(d, (w / 2, (4 + GOAL_STRIPE) / 2 + 1), f"{count} in pile", SMALL, BAND_INK[c], anchor="mm")
    inner = w - 8
    y = GOAL_STRIPE + 18  # baselines
    for line in _goal_name(name, bool(others)):
        text(d, (w / 2, y), line, SMALL, CARD_INK, anchor="ms", bold=True)
        y += GOAL_LINE
    if others:
        text(d, (w / 2, y), "or " + others[0], SMALL, CARD_MUTED, anchor="ms", max_width=inner)
        y += GOAL_LINE
    y += 6 - GOAL_LINE  # under the last line's descenders
    spare = max(0, h - 5 - y - TRIO_H)
    draw_trio(img, d, trio, w / 2, h - 5 - spare // 2)
    return img


def _ocean(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, box, marks: dict) -> None:
    """The World Ocean: its towers (ships when more than one pyramid) in rows, wrapping; squeezed (as tall
    towers are) when they would not fit."""
    x0, y0, x1, y1 = box
    squeeze = _ocean_need(view, marks, False) > y1 - y0
    dest = OCEAN in marks["places"]
    d.rounded_rectangle(box, radius=12, fill=OCEAN_FILL, outline=HIGHLIGHT if dest else OCEAN_EDGE,
                        width=4 if marks.get("focus") == OCEAN else (3 if dest else 2))
    text(d, ((x0 + x1) / 2, y0 + 8), "World Ocean", BODY, OCEAN_INK, anchor="ma", bold=True)
    _flow(img, d, _ocean_items(view, marks), (x0 + 6, y0 + 38, x1 - 6, y1 - 6), marks, ships=True,
          squeeze=squeeze)


def _ocean_items(view: dict, marks: dict) -> list[tuple[list[int], bool]]:
    """The Ocean's towers, and a ghost of the picked pyramid when it may go on the water."""
    items = [([pid(p) for p in t], False) for t in view["ocean"]]
    if OCEAN in marks["table"] and marks["picked"] is not None:
        items.append(([marks["picked"]], True))
    return items


def _ocean_need(view: dict, marks: dict, squeeze: bool) -> float:
    """The height the Ocean's box needs."""
    return 38 + 6 + _flow_height(_ocean_items(view, marks), OCEAN_W - 12, marks["onto"], True, squeeze)


def _ocean_column(view: dict) -> float:
    """The height of the Ocean's column besides the Ocean's box: the routes above and below, the action
    cards."""
    return 2 * ROUTE_H + 18 + EPIDEMIC_H + 6 + _pirates_height(view)


def _ocean_squeezed(view: dict, marks: dict, ring: float) -> bool:
    """Whether the Ocean's towers are squeezed to fit the ring's height (``ring``)."""
    return _ocean_column(view) + _ocean_need(view, marks, False) > ring


def _flow_rows(items, width: float, onto: set, ships: bool, squeeze: bool = False) -> list[tuple[list, float, bool]]:
    """Towers (``items``: (pyramids, ghost)) laid left to right in rows of ``width``: per row its towers with
    their widths, its height and whether a ship's hull is under it. ``squeeze``: every step ``MIN_STEP``."""
    rows: list[list[tuple[list[int], bool, float]]] = [[]]
    used = 0.0
    for t, ghost in items:
        w = max(PYR_W[p % 3] for p in t) + (4 if len(t) > 1 and ships else 0)
        if rows[-1] and used + 6 + w > width:
            rows.append([])
            used = 0.0
        used += (6 if rows[-1] else 0) + w
        rows[-1].append((t, ghost, w))
    out = []
    for row in rows:
        if row:
            hull = ships and any(len(t) > 1 for t, _, _ in row)
            h = max(tower_height(t, 0 if squeeze else None) for t, _, _ in row) + (10 if hull else 0)
            if any(t[-1] in onto for t, _, _ in row):
                h += 22
            out.append((row, h, hull))
    return out


def _flow_height(items, width: float, onto: set, ships: bool, squeeze: bool = False) -> float:
    return sum(h + 8 for _, h, _ in _flow_rows(items, width, onto, ships, squeeze))


def _flow(img: Image.Image, d: ImageDraw.ImageDraw, items, box, marks: dict | None = None,
          ships: bool = False, squeeze: bool = False) -> None:
    """Towers left to right in rows, wrapping (the Ocean, the Pirates card). ``ships``: a tower of more than
    one pyramid (in the Ocean) is a ship, it sails on a hull."""
    x0, y0, x1, y1 = box
    marks = marks or {"halos": {}, "onto": set(), "locked": None}
    y = y0
    for row, h, hull in _flow_rows(items, x1 - x0, marks["onto"], ships, squeeze):
        width = sum(w for _, _, w in row) + 6 * (len(row) - 1)
        x = (x0 + x1 - width) / 2
        base = y + h - (10 if hull else 0)
        for t, ghost, w in row:
            cx = x + w / 2
            if ghost:
                put_pyramid(img, d, t[0], cx, base, ghost=True)
            else:
                if len(t) > 1 and ships:
                    d.polygon([(cx - w / 2 - 3, base + 1), (cx + w / 2 + 3, base + 1), (cx + w / 2 - 6, base + 10),
                               (cx - w / 2 + 6, base + 10)], fill=OCEAN_INK)
                top = draw_tower(img, d, t, cx, base, room=0 if squeeze else None, halos=marks["halos"],
                                 locked=marks.get("locked"))
                if t[-1] in marks["onto"]:
                    arrow_down(d, cx, top - 2)
            x += w + 6
        y += h + 8


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
        text(d, (x0 + 12, y0 + 8), "Epidemic", BODY, MUTED, bold=True)
        text(d, (x0 + 12, y0 + 34), f"on {CONTINENT_NAMES[c]}", SMALL, MUTED, max_width=x1 - x0 - 20)
    else:
        d.rounded_rectangle((x0, y0, x1, y0 + h), radius=8, fill=EPIDEMIC, outline=edge, width=3 if choose else 2)
        _virus(d, x1 - 15, y0 + 20, 6, (220, 150, 200), WHITE)
        text(d, (x0 + 12, y0 + 8), "Epidemic", BODY, WHITE, bold=True)
        state = "free to play" if holder is None else f"held by {_name(names, holder)}"
        text(d, (x0 + 12, y0 + 34), state, SMALL, WHITE, max_width=x1 - x0 - 20)
    y = y0 + h + 6
    pir = view.get("pirates") or {}
    holder = pir.get("holder")
    captured = [pid(p) for p in pir.get("pyramids") or ()]
    d.rounded_rectangle((x0, y, x1, y1), radius=8, fill=PIRATES, outline=HIGHLIGHT if choose else PANEL_EDGE,
                        width=3 if choose else 2)
    _flag(d, x1 - 18, y + 20, 9, WHITE)
    text(d, (x0 + 12, y + 8), "Pirates", BODY, WHITE, bold=True)
    state = "free to use" if holder is None else f"held by {_name(names, holder)}"
    text(d, (x0 + 12, y + 34), state, SMALL, MUTED if holder is None else TEXT, max_width=x1 - x0 - 20)
    if captured:
        _flow(img, d, [([p], False) for p in captured], (x0 + 6, y + 64, x1 - 6, y1 - 6))


EPIDEMIC_H = 62


def _pirates_height(view: dict) -> int:
    captured = [([pid(p)], False) for p in (view.get("pirates") or {}).get("pyramids") or ()]
    if not captured:
        return 62
    return int(64 + _flow_height(captured, OCEAN_W - 12, set(), False))


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"


# --- players -------------------------------------------------------------------------------------------------
PLAYER_ROW = 34
CHIP_ROW = 30
"""A second line under a row of players, for fulfilled goals that do not fit beside the names."""
CHIP_H = 24
CHIP_GAP = 4
NAME_MIN = 100
"""A name keeps at least this much room (or its own width) before its goals move to the line below."""
MARK_W = 52
"""From a player's row to their name: turn arrow and seat mark."""


CHIP_LABELS = {
    "czech-republic": "Czechia", "great-britain": "Britain", "eiffel-tower": "Eiffel Tower",
    "great-wall-of-china": "Great Wall", "mt-everest": "Everest", "south-africa": "S. Africa",
    "victoria-falls": "Victoria Falls", "pyramids-of-giza": "Giza", "mt-kilimanjaro": "Kilimanjaro",
    "statue-of-liberty": "Liberty", "christ-the-redeemer": "Redeemer", "new-zealand": "N. Zealand",
    "papua-new-guinea": "Papua", "mariana-trench": "Mariana", "sydney-opera-house": "Opera House",
    "great-barrier-reef": "Barrier Reef", "easter-island-moai": "Moai", "amundsen-scott-station": "South Pole",
    "halley-research-station": "Halley", "princess-elisabeth-station": "Elisabeth", "mt-vinson": "Vinson",
    "lambert-glacier": "Lambert",
}
"""A fulfilled goal's label in the players' panel, where its name would be too long (else its short name)."""


def chip_label(card: dict) -> str:
    return CHIP_LABELS.get(card.get("id", ""), short_name(card["name"]))


def _chips(view: dict, seat: int) -> list[tuple[str, int]]:
    """Per goal ``seat`` fulfilled: its label and the continent it was formed on."""
    fulfilled = view.get("fulfilled") or []
    out = []
    for card in fulfilled[seat] if seat < len(fulfilled) else ():
        key = card.get("formed_on")
        c = CONTINENT_KEYS.index(key) if key in CONTINENT_KEYS else card_continents(card)[0]
        out.append((chip_label(card), c))
    return out


def _chip_w(label: str) -> float:
    return text_w(SMALL, label) + 12


def _chips_w(chips: list[tuple[str, int]]) -> float:
    return sum(_chip_w(label) for label, _ in chips) + CHIP_GAP * max(0, len(chips) - 1)


NO_GOAL = "no goal yet"


def _player_cell(view: dict, names: list[str], seat: int, width: float, totals: list[int] | None,
          winners: list[int]) -> dict:
    """How a player's cell (``width`` wide) is laid out: the room for the name, the right-hand label (cards in
    hand, or points at the end) and whether their goals fit beside the name or go on a line below."""
    left = (view.get("left") or [False] * view["players"])[seat]
    name = _name(names, seat) + (" (left)" if left else "")
    name_w = text_w(BODY, name) + 2
    if totals is not None:
        right = plural(totals[seat], "pt")
        right_w = text_w(BODY, right) + (28 if seat in winners else 0) + 2
    else:
        hand = view["hand_sizes"][seat] if view.get("hand_sizes") else 0
        right = f"{hand} in hand"
        right_w = text_w(SMALL, right) + 2
    chips = _chips(view, seat)
    need = _chips_w(chips) if chips else text_w(SMALL, NO_GOAL)
    room = width - MARK_W - 8 - right_w - 8 - need - 10
    if room >= min(name_w, NAME_MIN):
        return {"name_w": min(name_w, room), "right": right, "chips": chips, "below": []}
    return {"name_w": min(name_w, width - MARK_W - 16 - right_w - 8), "right": right, "chips": chips,
            "below": _chip_lines(chips, width - CHIP_X - 8)}


CHIP_X = 28
"""Where goals on the line(s) below a name start, from the row's left."""


def _chip_lines(chips: list[tuple[str, int]], room: float) -> list[list[tuple[str, int]]]:
    """Goals wrapped into lines of ``room`` (a goal wider than a line is clipped to it)."""
    lines: list[list[tuple[str, int]]] = [[]]
    for chip_ in chips:
        if lines[-1] and _chips_w([*lines[-1], chip_]) > room:
            lines.append([])
        lines[-1].append(chip_)
    return lines


def _player_rows(view: dict, names: list[str] | None) -> tuple[int, list[tuple[list[dict], int]]]:
    """The players two a row, or one a row when that is lower (many goals beside short rows): the number of
    columns, and per row its cells and its height (a line more per line of goals below a name)."""
    n = view["players"]
    names = names or []
    totals = None
    if view["phase"] == "over" and view.get("score_sheet"):
        totals = [row["total"] for row in view["score_sheet"]["players"]]
    winners = winners_of(view) if view["phase"] == "over" else []
    best: tuple[int, list[tuple[list[dict], int]]] | None = None
    for cols in (2, 1):
        col_w = (WIDTH - 2 * MARGIN - 12) / cols
        rows = []
        for first in range(0, n, cols):
            cells = [_player_cell(view, names, s, col_w - 6, totals, winners)
                     for s in range(first, min(n, first + cols))]
            rows.append((cells, PLAYER_ROW + CHIP_ROW * max(len(c["below"]) for c in cells)))
        if best is None or sum(h for _, h in rows) < sum(h for _, h in best[1]):
            best = (cols, rows)
    assert best is not None
    return best


def _players_height(view: dict, layout: tuple[int, list[tuple[list[dict], int]]]) -> int:
    """The players' panel: its rows (``_player_rows``), the extra cards' line."""
    h = 10 + sum(h for _, h in layout[1])
    if _extras_line(view, None):
        h += 28
    return h


def _extras_line(view: dict, names: list[str] | None) -> str | None:
    """The extra cards (when in play) by holder: "Extra cards (+2): Ana: Columbus, Drake; Bo: Tasman; 4 left"."""
    extras = view.get("extras") or []
    if not extras:
        return None
    if names is None:
        return "x"
    by_holder: dict[int, list[str]] = {}
    for e in extras:
        if e.get("holder") is not None:
            by_holder.setdefault(e["holder"], []).append(e["name"].replace("Sir Francis ", ""))
    parts = [f"{fit_text(_name(names, seat), SMALL, 120)}: {', '.join(cards)}" for seat, cards in by_holder.items()]
    free = sum(1 for e in extras if e.get("holder") is None)
    if free:
        parts.append(f"{free} left" if by_holder else f"{free} to claim")
    return "Extra cards (+2 each): " + "; ".join(parts)


def chip(d: ImageDraw.ImageDraw, x: float, cy: float, label: str, c: int, width: float | None = None) -> float:
    """A fulfilled goal: its (short) name on the colour of the continent it was formed on. Returns its width."""
    w = width if width is not None else _chip_w(label)
    d.rounded_rectangle((x, cy - CHIP_H / 2, x + w, cy + CHIP_H / 2), radius=6, fill=PYRAMID_FILL[c],
                        outline=PYRAMID_EDGE[c] if c == 5 else BLACK, width=2 if c == 5 else 1)
    text(d, (x + w / 2, cy + 1), label, SMALL, BAND_INK[c], anchor="mm", bold=True, max_width=w - 8)
    return w


def _chip_row(d: ImageDraw.ImageDraw, chips: list[tuple[str, int]], x: float, cy: float, room: float) -> None:
    """A player's goals left to right from ``x`` within ``room``: clipped to an equal share when they do not
    fit, and "+N" for those left over when even that is too narrow."""
    if not chips:
        text(d, (x, cy), NO_GOAL, SMALL, MUTED, anchor="lm")
        return
    if _chips_w(chips) <= room:
        for label, c in chips:
            x += chip(d, x, cy, label, c) + CHIP_GAP
        return
    shown = len(chips)
    more_w = text_w(SMALL, f"+{len(chips)}") + 8
    while shown > 1 and (room - (more_w if shown < len(chips) else 0)) / shown - CHIP_GAP < 56:
        shown -= 1
    share = (room - (more_w if shown < len(chips) else 0)) / shown - CHIP_GAP
    for label, c in chips[:shown]:
        x += chip(d, x, cy, label, c, min(share, _chip_w(label))) + CHIP_GAP
    if shown < len(chips):
        text(d, (x, cy), f"+{len(chips) - shown}", SMALL, TEXT, anchor="lm", bold=True)


def _players(d: ImageDraw.ImageDraw, view: dict, names: list[str], box, winners: list[int],
             layout: tuple[int, list[tuple[list[dict], int]]]) -> None:
    """Two players a row (one when that is lower): the turn arrow and gold frame for the player to act, seat mark, name, their
    fulfilled goals as chips (the short name on the colour of the continent each was formed on: beside the
    name, or on a line below when they do not fit) and cards in hand (at the end: points, a star for the
    winners); the extra cards' holders under them."""
    x0, y0, x1, y1 = box
    over = view["phase"] == "over"
    left = view.get("left") or [False] * view["players"]
    cols, rows = layout
    col_w = (x1 - x0 - 12) / cols
    by = y0 + 5
    for r, (cells, row_h) in enumerate(rows):
        for k, cell in enumerate(cells):
            s = cols * r + k
            bx = x0 + 6 + k * col_w
            rb = (bx + 2, by + 1, bx + col_w - 4, by + row_h - 3)
            line = (rb[0], rb[1], rb[2], rb[1] + PLAYER_ROW - 4)
            current = not over and s == view.get("current")
            if current and row_h > PLAYER_ROW:  # the frame holds the line below too
                d.rounded_rectangle(rb, radius=7, fill=CURRENT_ROW, outline=HIGHLIGHT, width=2)
                turn_arrow(d, (rb[0] + 12, (line[1] + line[3]) / 2), 8)
            player_row(d, line if row_h > PLAYER_ROW else rb, s, _name(names, s),
                       name_width=MARK_W + cell["name_w"], current=current and row_h == PLAYER_ROW,
                       gone=left[s], size=BODY)
            cy = (line[1] + line[3]) / 2
            if over and view.get("score_sheet"):
                text(d, (rb[2] - 8, cy), cell["right"], BODY, HIGHLIGHT if s in winners else TEXT, anchor="rm",
                     bold=True)
                if s in winners:
                    star(d, (rb[2] - 8 - text_w(BODY, cell["right"]) - 16, cy), 10)
                right_w = text_w(BODY, cell["right"]) + (28 if s in winners else 0) + 2
            else:
                right_w = text(d, (rb[2] - 8, cy), cell["right"], SMALL, TEXT, anchor="rm")
            if cell["below"]:
                for k_line, chips in enumerate(cell["below"]):
                    _chip_row(d, chips, rb[0] + CHIP_X, cy + CHIP_ROW - 1 + k_line * CHIP_ROW,
                              rb[2] - 8 - rb[0] - CHIP_X)
            else:
                cx = rb[0] + MARK_W + cell["name_w"] + 10
                _chip_row(d, cell["chips"], cx, cy, rb[2] - 8 - right_w - 8 - cx)
        by += row_h
    line = _extras_line(view, names)
    if line:
        text(d, (x0 + 12, y1 - 16), line, SMALL, MUTED, anchor="lm", max_width=x1 - x0 - 24)


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
        return "Game over"
    tail = ""
    if view.get("score_sheet"):
        best = view["score_sheet"]["players"][seats[0]]["total"]
        tail = f" {'wins' if len(seats) == 1 else 'tie'} with {plural(best, 'point')}!"
    else:
        tail = " wins!" if len(seats) == 1 else " win!"
    room = WIDTH - 120 - text_w(STATUS, tail)
    return join_fit([_name(names, s) for s in seats], STATUS, room) + tail


def _status(view: dict, names: list[str]) -> str:
    seat = view.get("current")
    who = _name(names, seat)
    step = view.get("step")
    if view["phase"] == "bonus":
        n = view.get("bonus") or 1
        need = f"draw a bonus card ({n} left) or stop" if n > 1 else "draw a bonus card or stop"
    elif step and step.get("kind") == "move" and step.get("pyramid") is not None:
        p = pid(step["pyramid"])
        riders = _riders(view, p)
        need = f"move the {pname(p)}{f' (carries {riders})' if riders else ''} to a gold mark"
    elif step and step.get("kind") == "draw":
        need = "draw the top card of a pile"
    elif step and step.get("kind") == "action":
        need = "use an action card"
    else:
        need = _turn_need(view)
    room = WIDTH - 2 * MARGIN - 64 - text_w(STATUS, f": {need}")
    return f"{fit_text(who, STATUS, room)}: {need}"


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
        return "move, draw or play an action card" if draw else "move or play an action card"
    return "move a pyramid or draw a card" if draw else "move a pyramid"


def _countdown(view: dict) -> str:
    left, goal = view.get("countdown"), view.get("goal")
    if left is None:
        return ""
    if view["phase"] == "over":
        return "Game over"
    return f"{plural(left, 'goal')} to go (of {goal})" if goal else f"{plural(left, 'goal')} to go"


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
            _, t = found
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
WARN_H = 34


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
    return f"Journey ends in {plural(max(1, turns), 'turn')} without a goal"


def _warning(d: ImageDraw.ImageDraw, box, label: str) -> None:
    """A vermillion strip across the board with a warning sign: the journey is about to end."""
    x0, y0, x1, y1 = box
    d.rounded_rectangle(box, radius=8, fill=VERMILLION, outline=BLACK, width=2)
    cy = (y0 + y1) / 2
    w = text_w(BODY, label) + 2
    x = (x0 + x1 - w - 34) / 2
    d.polygon([(x + 12, cy - 12), (x + 25, cy + 11), (x - 1, cy + 11)], fill=BLACK)
    d.line((x + 12, cy - 4, x + 12, cy + 3), fill=VERMILLION, width=3)
    d.ellipse((x + 10.5, cy + 5.5, x + 13.5, cy + 8.5), fill=VERMILLION)
    text(d, (x + 34, cy), label, BODY, BLACK, anchor="lm", bold=True, max_width=x1 - x - 44)


def lock_note(view: dict, names: list[str]) -> str | None:
    """With two players, the pyramid the player to act may not take back: "small red: just picked by Bo"."""
    p = view.get("forbidden")
    if p is None or view["phase"] == "over":
        return None
    left = view.get("left") or [False] * view["players"]
    others = [s for s in range(view["players"]) if s != view.get("current") and not left[s]]
    by = f" by {fit_text(_name(names, others[0]), SMALL, 140)}" if len(others) == 1 else ""
    return f"{pname(pid(p))}: just picked{by}"


def _lock_legend(d: ImageDraw.ImageDraw, view: dict, note: str) -> None:
    """The padlock and its note on the header's first line, between the title and the countdown."""
    x0 = MARGIN + 4 + text_w(BODY, TITLE) + 24
    x1 = WIDTH - MARGIN - 4 - text_w(BODY, _countdown(view)) - 20
    w = min(text_w(SMALL, note) + 2, x1 - x0 - 30)
    x = (x0 + x1 - w - 30) / 2
    padlock(d, x + 10, 20)
    text(d, (x + 30, 19), note, SMALL, TEXT, anchor="lm", max_width=w)


def draw_board(view: dict, names: list[str], last: str | None = None, focus: dict | None = None) -> Image.Image:
    """The public board. ``focus`` (optional, while a move's destinations are offered place by place):
    ``{"place": 0-6, "pyramid": p}``: that place is framed thicker, the pyramid picked."""
    over = view["phase"] == "over"
    marks = _marks(view, focus) if not over else _marks({**view, "step": None, "last_move": None}, None)
    rows = _rows(view, marks)
    warning = stall_warning(view)
    top = rows[-1][1] + GAP + (WARN_H + GAP if warning else 0)
    layout = _player_rows(view, names)
    players_h = _players_height(view, layout)
    height = top + players_h + GAP + FOOTER_H
    closed = next((c for c, cont in enumerate(view["continents"]) if cont.get("closed")), None)
    img = _background(tuple(rows), closed, top, height).copy()
    d = ImageDraw.Draw(img)
    winners = winners_of(view) if over else []
    if over:
        header(d, TITLE, _winner_text(view, names, winners), right=_countdown(view), winner=True)
    else:
        header(d, TITLE, _status(view, names), right=_countdown(view), seat=view.get("current"))
        note = lock_note(view, names)
        if note:
            _lock_legend(d, view, note)
    cards_h = EPIDEMIC_H + 6 + _pirates_height(view)
    ocean_box = (X_OCEAN, rows[0][0] + ROUTE_H + 6, X_OCEAN + OCEAN_W, rows[-1][1] - ROUTE_H - 12 - cards_h)
    _ocean(img, d, view, ocean_box, marks)
    step = (view.get("step") or {}).get("kind") if not over else None
    _cards_panel(img, d, view, names, (X_OCEAN, ocean_box[3] + 6, X_OCEAN + OCEAN_W, rows[-1][1] - ROUTE_H - 6),
                 choose=step == "action")
    drawing = step == "draw" or view["phase"] == "bonus"
    for c in range(6):
        _tile(img, d, view, c, _tile_box(c, rows), marks)
        _goal_card(img, d, view, c, _card_box(c, rows), choose=drawing)
    if warning:
        y = rows[-1][1] + GAP
        _warning(d, (MARGIN, y, WIDTH - MARGIN, y + WARN_H), warning)
    _players(d, view, names, (MARGIN, top, WIDTH - MARGIN, top + players_h), winners, layout)
    footer(d, last, height=height)
    return img


