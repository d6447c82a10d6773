"""The Geomancy board: the chessboard, stones, the last turn, what the player to act chooses, the aura overlay, the side panel."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from games.geomancy.model import SQUARE_NAMES
from games.geomancy.rules import DIRECTION_WORDS, SIZE_NAMES
from i18n import _, here, join, ngettext, pgettext
from render.common import (
    BLACK,
    CURRENT_ROW,
    HIGHLIGHT,
    MARGIN,
    MUTED,
    P_BODY,
    P_SMALL,
    PANEL_EDGE,
    TEXT,
    WHITE,
    cached,
    canvas,
    fit_name,
    font,
    join_fit,
    mark,
    name_room,
    panel,
    phone_header,
    plain,
    played_by_computer,
    player_row,
    star,
    text,
    top_seats,
    turn_arrow,
    wrap_text,
)
from render.geomancy.pieces import (
    BOARD_B,
    BOARD_EDGE,
    BOARD_R,
    BX,
    BY,
    DARK_SQ,
    GOLD_SQ,
    INK,
    LAST_TURN,
    LIGHT_SQ,
    OVERLAYS,
    PANEL_TOP,
    PANEL_X,
    ROUND_WORDS,
    SS,
    STONE_W,
    TITLE,
    WIDTH,
    S,
    aura_tint,
    draw_mark,
    put_stone,
    seat_colour,
    upright_sprite,
)


# --- the board ---------------------------------------------------------------------------------------------
def square_box(q: int) -> tuple[int, int, int, int]:
    """The pixel box of square ``q`` (0 = a1 at the bottom left)."""
    f, r = q % 8, q // 8
    x, y = BX + f * S, BY + (7 - r) * S
    return x, y, x + S, y + S


def square_centre(q: int) -> tuple[float, float]:
    x0, y0, _, _ = square_box(q)
    return x0 + S / 2, y0 + S / 2


def point_xy(x: float, y: float) -> tuple[float, float]:
    """A point in squares (the model's x along the files, y along the ranks) in pixels."""
    return BX + x * S, BY + (8 - y) * S


@cached(maxsize=16)
def _background(height: int) -> Image.Image:
    img, d = canvas(height, WIDTH)
    d.rectangle((BX - 4, BY - 4, BOARD_R + 3, BOARD_B + 3), fill=BOARD_EDGE)
    for q in range(64):
        f, r = q % 8, q // 8
        x0, y0, x1, y1 = square_box(q)
        d.rectangle((x0, y0, x1 - 1, y1 - 1), fill=LIGHT_SQ if (f + r) % 2 else DARK_SQ)
    for k in range(8):
        text(d, (BX + k * S + S / 2, BOARD_B + 6), "abcdefgh"[k], P_SMALL, MUTED, anchor="ma", bold=True)
        text(d, (BX - 10, BY + (7 - k) * S + S / 2), str(k + 1), P_SMALL, MUTED, anchor="rm", bold=True)
    return img


def _frame(d: ImageDraw.ImageDraw, q: int, colour, width: int = 4, inset: int = 0) -> None:
    x0, y0, x1, y1 = square_box(q)
    d.rectangle((x0 + inset, y0 + inset, x1 - 1 - inset, y1 - 1 - inset), outline=colour, width=width)


def _dashed_frame(d: ImageDraw.ImageDraw, q: int, colour, width: int = 3, dash: int = 8) -> None:
    x0, y0, x1, y1 = square_box(q)
    x1, y1 = x1 - 1, y1 - 1
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        n = max(1, int(math.dist(a, b) / dash))
        for k in range(0, n, 2):
            t0, t1 = k / n, (k + 1) / n
            d.line((a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0,
                    a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1), fill=colour, width=width)


def _arrow(d: ImageDraw.ImageDraw, a, b, colour, width: int = 4, head: float = 12) -> None:
    """A line from ``a`` to ``b`` with a head at ``b``, on a dark outline."""
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    back = (b[0] - head * math.cos(ang), b[1] - head * math.sin(ang))
    wing = [(back[0] + head * 0.6 * math.sin(ang), back[1] - head * 0.6 * math.cos(ang)),
            (back[0] - head * 0.6 * math.sin(ang), back[1] + head * 0.6 * math.cos(ang))]
    d.line((*a, *back), fill=BLACK, width=width + 3)
    d.polygon([b, *wing], fill=BLACK, outline=BLACK, width=3)
    d.line((*a, *back), fill=colour, width=width)
    d.polygon([b, *wing], fill=colour)


def _crosshair(d: ImageDraw.ImageDraw, q: int, colour) -> None:
    """The aimed square: a ring and four ticks."""
    cx, cy = square_centre(q)
    r = S * 0.4
    d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=3)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        d.line((cx + dx * (r - 7), cy + dy * (r - 7), cx + dx * (r + 7), cy + dy * (r + 7)), fill=colour, width=3)


def _spots(n: int) -> list[tuple[float, float, int]]:
    """Where ``n`` stones sharing a square sit (offsets in px from its centre) and their scale in percent."""
    if n <= 1:
        return [(0, 0, 100)]
    if n == 2:
        return [(-S * 0.24, 0, 72), (S * 0.24, 0, 72)]
    return [(dx * S * 0.24, dy * S * 0.24, 64) for dy in (-1, 1) for dx in (-1, 1)][:n]


def _off_board_mark(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    """A stone that landed off the board: an arrow across the board's edge pointing where it flew."""
    cx, cy = min(max(x, 0.0), 8.0), min(max(y, 0.0), 8.0)
    px, py = point_xy(cx, cy)
    dx, dy = x - cx, -(y - cy)
    n = math.hypot(dx, dy) or 1.0
    dx, dy = dx / n, dy / n
    _arrow(d, (px - dx * 22, py - dy * 22), (px + dx * 12, py + dy * 12), LAST_TURN, 5, 16)


def _stones_by_square(view: dict) -> dict[int, list[dict]]:
    by_square: dict[int, list[dict]] = {}
    for stone in view["board"]:
        by_square.setdefault(stone["square"], []).append(stone)
    return by_square


def _draw_stones(img: Image.Image, view: dict, scale: int = 100, lift: float = 0) -> None:
    """Every stone on its square (two to four sharing a square, while a choice is pending, side by side and
    smaller); ``scale`` and ``lift`` (px up) make room for the aura chips."""
    for q, stones in _stones_by_square(view).items():
        cx, cy = square_centre(q)
        kind = "stone" if len(stones) == 1 and scale == 100 else "secondary stone"
        for (dx, dy, sc), st in zip(_spots(len(stones)), stones, strict=False):
            put_stone(img, st["owner"], st["size"], st["dir"], cx + dx, cy + dy - lift,
                      sc * scale // 100 if len(stones) == 1 else sc, kind=kind)  # (shared: as small as need be)


def _last_turn_marks(img: Image.Image, d: ImageDraw.ImageDraw, view: dict) -> None:
    """Under the stones, in the last turn's colour (``LAST_TURN``): the aimed square, the squares the cast
    stones lie on, knocks; the turned stone's square."""
    cast = view.get("last_cast")
    where = {st["id"]: st["square"] for st in view["board"]}
    if cast:
        _crosshair(d, cast["aim"], LAST_TURN)
        for st in cast["stones"]:
            if st["result"] == "landed" and where.get(st["id"]) is not None:
                _frame(d, where[st["id"]], LAST_TURN, 4)
        for k in cast["knocks"]:
            if k["to"] is not None:
                a, b = square_centre(k["from"]), square_centre(k["to"])
                _arrow(d, a, ((a[0] + b[0] * 2) / 3, (a[1] + b[1] * 2) / 3), LAST_TURN, 4, 12)
    rot = view.get("last_reorient")
    if rot:
        _frame(d, rot["square"], LAST_TURN, 4)


def _last_turn_overlays(img: Image.Image, d: ImageDraw.ImageDraw, view: dict) -> None:
    """Over the stones: stones that landed upright (where they stood), off-board arrows, captured stones as
    pale ghosts under a cross."""
    cast = view.get("last_cast")
    if cast:
        for st in cast["stones"]:
            if st["result"] == "upright":
                px, py = point_xy(st["x"], st["y"])
                sprite = upright_sprite(st["owner"], st["size"])
                img.paste(sprite, (round(px - sprite.width / 2), round(py - sprite.height / 2)), sprite)
            elif st["result"] == "off":
                _off_board_mark(d, st["x"], st["y"])
        for k in cast["knocks"]:
            if k["to"] is None:
                cx, cy = square_centre(k["from"])
                f, r = k["from"] % 8, k["from"] // 8
                dx = -1 if f == 0 else 1 if f == 7 else 0
                dy = -1 if r == 7 else 1 if r == 0 else 0
                _arrow(d, (cx, cy), (cx + dx * S * 0.7, cy + dy * S * 0.7), LAST_TURN, 4, 14)
    occupied = {st["square"] for st in view["board"]}
    for cap in view.get("last_captures") or ():
        q = cap["square"]
        x0, y0, x1, y1 = square_box(q)
        if q in occupied:  # taken on landing: the winner stands there, the ghost sits in the corner
            gx, gy, sc = x0 + 21, y0 + 21, 66
        else:
            gx, gy, sc = (x0 + x1) / 2, (y0 + y1) / 2, 100
        put_stone(img, cap["owner"], cap["size"], 0, gx, gy, sc, ghost=True, kind="secondary stone")
        r = 9 if sc < 100 else 13
        for w, col in ((8, BLACK), (4, WHITE)):
            d.line((gx - r, gy - r, gx + r, gy + r), fill=col, width=w)
            d.line((gx - r, gy + r, gx + r, gy - r), fill=col, width=w)
        _dashed_frame(d, q, LAST_TURN, 3)


def _focus_marks(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, focus: dict | None) -> None:
    """Gold fills under the stones: the square of a same-colour choice, the aim rank."""
    squares = []
    if view["phase"] == "choose" and view.get("choices"):
        squares.append(view["choices"][0]["square"])
    if focus and focus.get("kind") == "aim":
        squares.extend(focus.get("squares") or ())
    for q in squares:
        x0, y0, x1, y1 = square_box(q)
        d.rectangle((x0, y0, x1 - 1, y1 - 1), fill=GOLD_SQ)


def _focus_frames(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, focus: dict | None) -> None:
    """Gold over the stones: the choice's square, the aim squares (named), the stones that may be turned, the
    stone being turned with an arrowhead for each new direction."""
    if view["phase"] == "choose" and view.get("choices"):
        _frame(d, view["choices"][0]["square"], HIGHLIGHT, 5)
    if focus and focus.get("kind") == "aim":
        for q in focus.get("squares") or ():
            x0, y0, x1, y1 = square_box(q)
            _frame(d, q, HIGHLIGHT, 2)
            text(d, (x0 + 4, y1 - 3), SQUARE_NAMES[q], P_SMALL, HIGHLIGHT, anchor="ld", bold=True)
    if focus and focus.get("kind") == "reorient":
        for q in focus.get("squares") or ():
            _frame(d, q, HIGHLIGHT, 4)
    step = view.get("step")
    if step:
        q = step["square"]
        _frame(d, q, HIGHLIGHT, 4)
        now = next((st["dir"] for st in view["board"] if st["id"] == step["id"]), None)
        cx, cy = square_centre(q)
        for k in range(8):
            if k == now:
                continue
            a = math.radians(45 * k)
            ux, uy = math.sin(a), -math.cos(a)
            edge = S / 2 / max(abs(ux), abs(uy))  # the square's edge (a corner on the diagonals)
            _arrow(d, (cx + ux * (edge - 10), cy + uy * (edge - 10)), (cx + ux * (edge + 9), cy + uy * (edge + 9)),
                   HIGHLIGHT, 4, 15)


# --- the aura overlay ----------------------------------------------------------------------------------
CHIP_H = 32
CHIP_W = 33
"""A one-digit aura chip (two fit side by side on a square); a two-digit one is a digit wider."""
AURA_LIFT = 12
"""How far stones rise (and shrink, ``AURA_SCALE``) in the aura overlay, over the chips along the bottom."""
AURA_SCALE = 72


def _chip_width(value: int) -> int:
    return round(CHIP_W - font(P_SMALL, bold=True).getlength("0") + font(P_SMALL, bold=True).getlength(str(value)))


def _aura_chips(img: Image.Image, d: ImageDraw.ImageDraw, view: dict) -> None:
    """Along the bottom of each square, the auras of its strongest two colours (as many as fit: two with one
    digit each): a chip in the seat's colour with its mark and the strength."""
    for q, strengths in enumerate(view["auras"]):
        ranked = sorted((-v, s) for s, v in enumerate(strengths) if v > 0)
        if not ranked:
            continue
        x0, y0, x1, y1 = square_box(q)
        chips = [(s, -v) for v, s in ranked[:2]]
        while len(chips) > 1 and 1 + sum(_chip_width(v) for _, v in chips) + len(chips) - 1 > S:
            chips.pop()
        x = x0 + 1
        for s, v in chips:
            chip = _chip(s, v)
            img.paste(chip, (x, y1 - CHIP_H - 2), chip)
            x += chip.width + 1


@cached(maxsize=128)
def _chip(seat: int, value: int) -> Image.Image:
    """An aura chip: the seat's colour, its mark and the strength."""
    w, h = _chip_width(value), CHIP_H + 1
    big = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius=6 * SS, fill=BLACK)
    d.rounded_rectangle((2 * SS, 2 * SS, (w - 2) * SS - 1, (h - 2) * SS - 1), radius=4 * SS, fill=seat_colour(seat))
    draw_mark(d, seat, 8 * SS, (CHIP_H + 1) / 2 * SS, 5 * SS, fill=INK)
    img = big.reduce(SS)
    text(ImageDraw.Draw(img), (13.5, (CHIP_H + 1) / 2), str(value), P_SMALL, INK, anchor="lm", bold=True)
    return img


def _aura_tints(d: ImageDraw.ImageDraw, view: dict) -> None:
    """A square where one colour's aura is the strongest is tinted with that colour."""
    for q, strengths in enumerate(view["auras"]):
        best = max(strengths) if strengths else 0
        if best <= 0:
            continue
        tops = [s for s, v in enumerate(strengths) if v == best]
        if len(tops) != 1:
            continue
        x0, y0, x1, y1 = square_box(q)
        base = LIGHT_SQ if ((q % 8) + (q // 8)) % 2 else DARK_SQ
        d.rectangle((x0, y0, x1 - 1, y1 - 1), fill=aura_tint(base, tops[0]))


# --- the panel under the board -------------------------------------------------------------------------------
ROW = 52
"""A player's cell (two a row): mark, name, the stones of the round left in hand, points."""
LINE = 58
"""A line of the last turn: its stones (at least 30 px across) and words."""
LINES = 4
"""At most this many lines of the last turn (the last one says how many more there are)."""


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else here(_("Player {number}", number=seat + 1))


def _with_name(message, name: str, size: float, room: float, bold: bool = False) -> str:
    """``message(name)`` (a sentence naming a player) within ``room`` px: the name clipped (``fit_name``) to
    what the rest of the sentence, in the drawing's language, leaves."""
    return _fitted(message, lambda avail: fit_name(name, size, avail), size, room, bold)


def _fitted(message, fit, size: float, room: float, bold: bool = False) -> str:
    """``message(fit(avail))`` within ``room`` px in the drawing's language: ``fit`` shortens the names to
    ``avail`` px (measured in the regular face: a bold line gives the names what its wider letters take)."""
    f = font(size, bold=bold)
    avail = room - f.getlength(plain(here(message(""))))
    for _attempt in range(8):
        said = message(fit(avail))
        over = f.getlength(plain(here(said))) - room
        if over <= 0:
            break
        avail -= max(over, 2)
    return said


def _columns(view: dict) -> int:
    """Two players a row from four players on (while playing), else a row each."""
    return 2 if view["phase"] != "over" and view["players"] >= 4 else 1


def _two_lines(view: dict) -> bool:
    """Whether a player's cell takes two lines: two cells a row (the name needs the first line's room) or the
    end (the points' detail takes the second)."""
    return _columns(view) == 2 or view["phase"] == "over"


def _players_height(view: dict) -> int:
    return (ROW2 if _two_lines(view) else ROW) * math.ceil(view["players"] / _columns(view))


ROW2 = 82


def _prisoner_icon(d: ImageDraw.ImageDraw, centre: tuple[float, float]) -> None:
    """Prisoners, where two players share a row: a grey stone under the white cross the board marks a captured
    stone with (the last turn's lines say "took it")."""
    x, y = centre
    d.polygon([(x, y - 17), (x + 14, y + 15), (x - 14, y + 15)], fill=MUTED, outline=BLACK, width=2)
    for w, col in ((8, BLACK), (4, WHITE)):
        d.line((x - 11, y - 9, x + 11, y + 13), fill=col, width=w)
        d.line((x - 11, y + 13, x + 11, y - 9), fill=col, width=w)


def _players(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, names: list[str], x0: float, x1: float,
             y: float, winners: list[int]) -> float:
    """A cell per player: the shared row (turn arrow, mark, name, "(left)") and their points; the stones of this
    round's size they hold (one stone, pointing up, and how many) or "passed"; at the end their points on the
    board and from prisoners. Up to three players a line each; from four, two cells a row, each on two lines."""
    n = view["players"]
    to_act = set(view["to_act"])
    over = view["phase"] == "over"
    left = view.get("left") or [False] * n
    passed = set(view.get("passed") or ())
    cols = _columns(view)
    two = _two_lines(view)
    h = ROW2 if two else ROW
    w = (x1 - x0) / cols
    rnd = min(max(view["round"], 1), 3)
    for s in range(n):
        c, r = s % cols, s // cols
        cx0, cy0 = x0 + c * w, y + r * h
        cx1 = cx0 + w - 4
        cy = cy0 + ROW / 2
        cy2 = cy0 + ROW + (ROW2 - ROW) / 2 - 6 if two else cy  # the second line's (or the only line's) middle
        pts = ngettext("{n} pt", "{n} pts", view["scores"][s])
        won = s in winners
        pts_w = font(P_BODY, bold=True).getlength(here(pts))
        pts_y = cy2 if cols == 2 else cy  # two a row: the points on the second line, the name has the first
        name_right = cx1 - 8 if cols == 2 else cx1 - 8 - pts_w - (26 if won else 0) - 8
        x2 = cx0 + 24 * (1.2 if cols == 1 else 1) if two else None  # the second line starts under the mark
        right = name_right if not two else cx1 - 8
        current = not over and s in to_act
        if current and two:  # the gold frame round the whole cell
            d.rounded_rectangle((cx0, cy0 + 3, cx1, cy0 + h - 3), radius=7, fill=CURRENT_ROW, outline=HIGHLIGHT,
                                width=2)
        if over:
            detail = (view.get("score_detail") or [{}] * n)[s]
            words = _("board {board} + prisoners {prisoners}", board=detail.get("board", 0),
                      prisoners=detail.get("prisoners", 0))
            text(d, (x2, cy2), words, P_SMALL, MUTED, anchor="lm", max_width=right - x2)
        else:
            held = view["hands"][s][rnd - 1]
            if s in passed and not left[s]:
                if two:
                    text(d, (x2, cy2), pgettext("player", "passed"), P_SMALL, MUTED, anchor="lm")
                else:
                    name_right -= text(d, (name_right, cy), pgettext("player", "passed"), P_SMALL, MUTED,
                                       anchor="rm") + 12
            else:  # this round's stones in hand: one of them (as wide whatever the round) and how many
                sw = STONE_W[0]
                if two:
                    put_stone(img, s, rnd, 0, x2 + sw / 2, cy2, (100, 80, 66)[rnd - 1])
                    x3 = x2 + sw + 8 + text(d, (x2 + sw + 8, cy2), str(held), P_BODY, TEXT if held else MUTED,
                                            anchor="lm")
                    if caught := len(view["prisoners"][s]):  # prisoners: a captured stone's cross and how many
                        _prisoner_icon(d, (x3 + 34, cy2))
                        text(d, (x3 + 56, cy2), str(caught), P_BODY, TEXT, anchor="lm")
                else:
                    label_w = text(d, (name_right, cy), str(held), P_BODY, TEXT if held else MUTED, anchor="rm")
                    put_stone(img, s, rnd, 0, name_right - 6 - label_w - sw / 2, cy, (100, 80, 66)[rnd - 1])
                    name_right -= label_w + sw + 18
                    if caught := len(view["prisoners"][s]):
                        note = ngettext("{n} prisoner", "{n} prisoners", caught)
                        room = name_right - cx0 - 94 - name_room(_name(names, s), P_SMALL)
                        if font(P_SMALL).getlength(here(note)) > room:
                            note = ngettext("{n} caught", "{n} caught", caught)
                        name_right -= text(d, (name_right - 4, cy), note, P_SMALL, TEXT, anchor="rm") + 16
        player_row(d, (cx0, cy0 + 3, cx1, cy0 + ROW - 3), s, _name(names, s), name_width=name_right - cx0,
                   current=current and not two, gone=left[s], size=P_BODY,
                   computer=played_by_computer(view, s), k=1.2 if cols == 1 else 1, least=P_SMALL)
        if current and two:
            turn_arrow(d, (cx0 + 12, cy), 8)
        text(d, (cx1 - 8, pts_y), pts, P_BODY, HIGHLIGHT if won else TEXT, anchor="rm", bold=True)
        if won:
            star(d, (cx1 - 8 - pts_w - 14, pts_y), 11)
    return y + _players_height(view)


def _stone_line(img: Image.Image, d: ImageDraw.ImageDraw, stones: list[dict], words: str, x0: float, x1: float,
                y: float, colour=TEXT) -> None:
    """A line of the last turn: the stones (their owner and size; at least 30 px across) and what happened."""
    x = x0
    cy = y + LINE / 2
    for st in stones[:3]:
        w = STONE_W[st["size"] - 1]
        if st.get("upright"):
            sprite = upright_sprite(st["owner"], st["size"], 94)
            img.paste(sprite, (round(x + w / 2 - sprite.width / 2), round(cy - sprite.height / 2)), sprite)
            mark("stone", w * 0.94)
        else:
            put_stone(img, st["owner"], st["size"], 0, x + w / 2, cy, 94)
        x += w * 0.94 + 4
    if len(stones) > 3:
        x += text(d, (x + 2, cy), f"+{len(stones) - 3}", P_SMALL, MUTED, anchor="lm") + 2
    text(d, (x + 8, cy), words, P_SMALL, colour, anchor="lm", max_width=x1 - x - 8)


REASON_WORDS = {"upright": pgettext("recast", "upright"), "off": pgettext("recast", "off the board"),
                "knocked off": pgettext("recast", "knocked off"), "tie": pgettext("recast", "a tie"),
                "choice": pgettext("recast", "not kept")}
"""Why a stone came back to hand (``rules.REASONS``), short: "recast: upright"."""


def _last_lines(view: dict, names: list[str], room: float) -> list[tuple[list[dict], str, tuple]]:
    """What the last turn did, a line each: (stones to draw, words, colour)."""
    lines: list[tuple[list[dict], str, tuple]] = []
    turn = view.get("last_turn")
    cast = view.get("last_cast")
    per = view.get("stones_per_size") or 5
    if cast:
        stones = {st["id"]: st for st in cast["stones"]}
        landed = [st for st in cast["stones"] if st["recast"] is None]
        if landed:
            lines.append((landed, pgettext("stones", "landed"), TEXT))
        by_reason: dict[str, list[dict]] = {}
        for rc in cast["recasts"]:
            st = stones.get(rc["id"]) or _stone_of(per, rc["id"])
            by_reason.setdefault(rc["reason"], []).append(st)
        for reason, sts in by_reason.items():
            if reason == "upright":  # drawn standing, as on the board
                sts = [dict(st, upright=True) for st in sts]
            lines.append((sts, _("recast: {reason}", reason=REASON_WORDS.get(reason, reason)), LAST_TURN))
        for k in cast["knocks"]:  # (knocked off the board: a recast line says so)
            if k["to"] is not None:
                lines.append(([_stone_of(per, k["id"])], _("knocked {origin} → {target}",
                                                           origin=SQUARE_NAMES[k["from"]],
                                                           target=SQUARE_NAMES[k["to"]]), TEXT))
    elif turn and turn.get("kind") == "reorient" and view.get("last_reorient"):
        rot = view["last_reorient"]
        lines.append(([_stone_of(per, rot["id"])], join((f"{SQUARE_NAMES[rot['square']]}:",
                                                         DIRECTION_WORDS[rot["from"]], "→",
                                                         DIRECTION_WORDS[rot["to"]])), TEXT))
    for cap in view.get("last_captures") or ():
        lines.append(([cap], _capture_words(cap, _name(names, cap["by"]), room - 30), LAST_TURN))
    return lines


def _capture_words(cap: dict, name: str, room: float) -> str:
    """ "e4: Ana's aura 3 took it": who captured the stone and how, the shorter words where the longer would
    clip the name below its short form."""
    where, strength = SQUARE_NAMES[cap["square"]], cap["strength"]
    if cap["how"] == "aura":
        forms = (lambda who: _("{square}: {name}'s aura {strength} took it", square=where, name=who,
                               strength=strength),
                 lambda who: _("{square}: {name}'s aura {strength}", square=where, name=who, strength=strength))
    else:
        forms = (lambda who: _("{square}: {name} landed on it", square=where, name=who),
                 lambda who: _("{square}: {name} landed", square=where, name=who))
    for form in forms:
        avail = room - font(P_SMALL).getlength(here(form("")))
        if avail >= name_room(name, P_SMALL):
            break
    return form(fit_name(name, P_SMALL, avail))


def _stone_of(per: int, stone: int) -> dict:
    return {"id": stone, "owner": stone // (3 * per), "size": (stone % (3 * per)) // per + 1}


def _last_title(view: dict, names: list[str], room: float) -> str | None:
    turn = view.get("last_turn")
    if not turn:
        return None
    kind = turn["kind"]
    cast = view.get("last_cast")
    if kind == "cast" and not cast or kind not in ("cast", "reorient", "pass", "timeout", "left"):
        return None

    def message(who: str) -> str:
        if kind == "cast":
            return ngettext("{name} cast {n} at {square}", "{name} cast {n} at {square}", len(cast["stones"]),
                            name=who, square=SQUARE_NAMES[cast["aim"]])
        if kind == "reorient":
            return _("{name} turned a stone", name=who)
        if kind == "pass":
            return _("{name} passed", name=who)
        if kind == "timeout":
            return _("{name} ran out of time", name=who)
        return _("{name} left", name=who)
    return _with_name(message, _name(names, turn["seat"]), P_SMALL, room, bold=True)


def _choice_stones(view: dict) -> list[dict]:
    if view["phase"] != "choose" or not view.get("choices"):
        return []
    ids = set(view["choices"][0]["stones"])
    return [st for st in view["board"] if st["id"] in ids]


SECTION = 44
CHOICE_ROW = 64
STONES_W = 3 * 45 + 8
"""Room for a last-turn line's stones (three and "+2"), before its words."""


TALLEST = 1250
"""The tallest board: the last turn's lines give way ("+2 more") where they would make it taller."""


def _line_cap(view: dict) -> int:
    """How many lines of the last turn the panel shows: at most ``LINES``, none at the end (the standings say
    it), fewer where more would make the board taller than ``TALLEST``."""
    if view["phase"] == "over":
        return 0
    rest = PANEL_TOP + 8 + _players_height(view) + 6 + SECTION + 6 + 8
    choice = _choice_stones(view)
    if choice:
        rest += SECTION + len(choice) * CHOICE_ROW
    return max(1, min(LINES, (TALLEST - rest) // LINE))


def _panel_height(view: dict, names: list[str] | None = None) -> int:
    """The panel under the board: the players, then a same-colour choice (every stone whole, in words), then the
    last turn (its title and at most ``LINES`` lines), or the aura overlay's key."""
    n = view["players"]
    h = 8 + _players_height(view) + 6
    choice = _choice_stones(view)
    if choice:
        h += SECTION + len(choice) * CHOICE_ROW
    if view.get("last_turn") and _line_cap(view):
        lines = len(_last_lines(view, names or [""] * n, WIDTH - 2 * MARGIN - 24 - STONES_W))
        h += SECTION + min(lines, _line_cap(view)) * LINE
    return h + 6


def _overlay_lines(width: float) -> list[str]:
    return wrap_text(_("Each chip: a colour's aura on that square (the strongest two). A stone falls to an enemy aura "
                       "stronger than its pips: small 1, medium 2, large 3. One colour's auras add up; colours never "
                       "combine."), P_SMALL, width, lines=8)


def _section(d: ImageDraw.ImageDraw, x0: float, x1: float, y: float, title: str, colour=MUTED) -> float:
    d.line((x0 + 10, y + 2, x1 - 10, y + 2), fill=PANEL_EDGE, width=2)
    text(d, (x0 + 12, y + 8), title, P_SMALL, colour, bold=True, max_width=x1 - x0 - 24)
    return y + SECTION


def _side(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, names: list[str], box, winners: list[int],
          overlay: str | None) -> None:
    x0, y0, x1, y1 = box
    panel(d, box)
    choice = _choice_stones(view)
    shown = dict(view, phase="overlay") if overlay == "auras" else view
    y = _players(img, d, shown, names, x0 + 6, x1 - 6, y0 + 8, winners) + 6
    if overlay == "auras":
        y = _section(d, x0, x1, y, _("AURAS"))
        for line in _overlay_lines(x1 - x0 - 24):
            text(d, (x0 + 12, y), line, P_SMALL, TEXT)
            y += 32
        return
    if choice:
        q = view["choices"][0]["square"]
        y = _section(d, x0, x1, y, _("KEEP ONE ON {square}", square=SQUARE_NAMES[q].upper()), HIGHLIGHT)
        for st in choice:
            put_stone(img, st["owner"], st["size"], st["dir"], x0 + 44, y + CHOICE_ROW / 2 - 2)
            text(d, (x0 + 84, y + CHOICE_ROW / 2 - 2), _("{size}, facing {direction}", size=SIZE_NAMES[st["size"] - 1],
                                                                    direction=DIRECTION_WORDS[st["dir"]]),
                 P_SMALL, TEXT, anchor="lm", max_width=x1 - x0 - 96)
            y += CHOICE_ROW
    title = _last_title(view, names, x1 - x0 - 24)
    cap = _line_cap(view)
    if title is None or not cap:
        return
    y = _section(d, x0, x1, y, title)
    lines = _last_lines(view, names, x1 - x0 - 24 - STONES_W)
    if len(lines) > cap:  # the last line says how many more there are (the message's log has them all)
        lines = lines[:cap - 1] + [([], _("+{n} more", n=len(lines) - cap + 1), MUTED)]
    for stones, words, colour in lines:
        _stone_line(img, d, stones, words, x0 + 12, x1 - 10, y, colour)
        y += LINE


# --- texts -------------------------------------------------------------------------------------------------
def winners_of(view: dict) -> list[int]:
    if view.get("winners") is not None:
        return list(view["winners"])
    return top_seats(view["scores"], view.get("left") or [False] * view["players"])


def _winner_text(view: dict, names: list[str], seats: list[int]) -> str:
    if not seats:
        return _("Game over")
    best = view["scores"][seats[0]]
    if len(seats) == 1:
        def message(who):
            return ngettext("{names} wins with {n} point!", "{names} wins with {n} points!", best, names=who)
    else:
        def message(who):
            return ngettext("{names} tie with {n} point!", "{names} tie with {n} points!", best, names=who)
    return _fitted(message, lambda avail: join_fit([_name(names, s) for s in seats], P_SMALL, avail), P_SMALL,
                   2 * (WIDTH - 2 * MARGIN - 100) * 0.9, bold=True)  # (two lines if need be: common.phone_header)


def _status(view: dict, names: list[str], focus: dict | None) -> tuple[str, int | None]:
    to_act = view["to_act"]
    seat = to_act[0] if to_act else None
    if seat is None:
        return "", None
    kind = (focus or {}).get("kind")
    if view["phase"] == "choose" and view.get("choices"):
        need = _("keep one of your stones on {square}", square=SQUARE_NAMES[view["choices"][0]["square"]])
    elif view.get("step"):
        step = view["step"]
        size = next((st["size"] for st in view["board"] if st["id"] == step["id"]), 1)
        need = _point_words(size, SQUARE_NAMES[step["square"]])
    elif kind == "aim":
        need = _("aim at a square of rank {rank}", rank=focus["rank"] + 1)
    elif kind == "reorient":
        need = _("pick a stone to turn, or pass")
    else:
        k = view["castable"][seat]
        need = (ngettext("cast {n} stone, turn one or pass", "cast {n} stones, turn one or pass", k) if k else
                _("turn a stone or pass"))

    def message(who):
        return _("{name}: {task}", name=who, task=need)
    room = WIDTH - 2 * MARGIN - 70
    if font(P_SMALL, bold=True).getlength(plain(here(message("")))) + name_room(_name(names, seat), P_SMALL) * 1.1 > room:
        room *= 1.8  # two lines (common.phone_header)
    return _with_name(message, _name(names, seat), P_SMALL, room, bold=True), seat


def _point_words(size: int, square: str) -> str:
    if size == 1:
        return _("point the small on {square} a new way", square=square)
    if size == 2:
        return _("point the medium on {square} a new way", square=square)
    return _("point the large on {square} a new way", square=square)


def _round_note(view: dict) -> str:
    if view["phase"] == "over":
        return _("Game over")
    return _("Round {round} of 3: {stones}", round=view["round"], stones=ROUND_WORDS[view["round"] - 1])


# --- the board image -----------------------------------------------------------------------------------------
def board_height(view: dict, overlay: str | None = None) -> int:
    """The board (8 x 68 px squares) and the panel under it: its height follows the players, a pending choice and
    the last turn's lines (at most ``LINES``). No footer: the message above the board says the last move."""
    if overlay == "auras":  # (the players as in play, the end's detail left out: the overlay is about auras)
        panel_h = 8 + _players_height(dict(view, phase="overlay")) + 12 + SECTION + 32 * len(_overlay_lines(WIDTH - 2 * MARGIN - 24))
    else:
        panel_h = _panel_height(view)
    return PANEL_TOP + panel_h + 8


def draw_board(view: dict, names: list[str], last: str | None = None, focus: dict | None = None) -> Image.Image:
    """The public board. ``focus`` (optional): ``{"kind": "aim", "rank", "squares"}`` while an aim rank is
    chosen (its squares gold and named), ``{"kind": "reorient", "squares"}`` while a stone to turn is chosen
    (their squares framed in gold), ``{"overlay": "auras"}`` for the aura overlay (``OVERLAYS``)."""
    overlay = (focus or {}).get("overlay")
    if overlay is not None:  # (an overlay this board does not know: the plain board)
        focus = None
        overlay = overlay if overlay in OVERLAYS else None
    height = board_height(view, overlay)
    img = _background(height).copy()
    d = ImageDraw.Draw(img)
    over = view["phase"] == "over"
    winners = winners_of(view) if over else []
    if over:
        phone_header(d, TITLE, _winner_text(view, names, winners), right=_round_note(view), winner=True)
    elif overlay == "auras":
        phone_header(d, TITLE, _("Auras: their strength on each square"), right=_round_note(view))
    else:
        status, seat = _status(view, names, focus)
        phone_header(d, TITLE, status, right=_round_note(view), seat=seat)
    if overlay == "auras":
        _aura_tints(d, view)
        _draw_stones(img, view, AURA_SCALE, AURA_LIFT)
        _aura_chips(img, d, view)
    else:
        _focus_marks(img, d, view, focus)
        _last_turn_marks(img, d, view)
        _draw_stones(img, view)
        _last_turn_overlays(img, d, view)
        _focus_frames(img, d, view, focus)
    side = (PANEL_X, PANEL_TOP, WIDTH - MARGIN, height - 8)  # under the board
    _side(img, d, view, names, side, winners, overlay)
    return img


