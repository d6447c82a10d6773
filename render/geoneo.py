"""The GEONEO board: labelled number fields, pieces (colour plus a mark per colour), the round's cards, scores.

Pieces carry a shape as well as a colour (White: ring, Black: square, Red: triangle), so colour is never the
only cue. The last placement or the cleared shape is outlined in gold.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.geoneo.rules import field_name
from render.common import (
    BLACK,
    HIGHLIGHT,
    MUTED,
    PANEL,
    PANEL_EDGE,
    TEXT,
    VERMILLION,
    WHITE,
    canvas,
    fit_text,
    font,
    panel,
    text_centered,
)

CELL = 72
LEFT, TOP = 14, 96
PIECE_FILL = {0: (245, 245, 240), 1: (30, 30, 34), 2: VERMILLION}
PIECE_NAME = ("White", "Black", "Red")
FIELD_TINT = {1: (74, 80, 96), 2: (66, 84, 92), 3: (70, 90, 80), 4: (88, 84, 70), 5: (92, 76, 76), 6: (82, 74, 92)}


def piece_mark(d: ImageDraw.ImageDraw, cx: float, cy: float, colour: int, r: float) -> None:
    fill = PIECE_FILL[colour]
    edge = BLACK if colour != 1 else WHITE
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=edge, width=3)
    m = r * 0.36
    ink = BLACK if colour == 0 else WHITE
    if colour == 0:
        d.ellipse((cx - m, cy - m, cx + m, cy + m), outline=ink, width=3)
    elif colour == 1:
        d.rectangle((cx - m, cy - m, cx + m, cy + m), fill=ink)
    else:
        d.polygon([(cx, cy - m * 1.1), (cx + m, cy + m * 0.8), (cx - m, cy + m * 0.8)], fill=ink)


@lru_cache(maxsize=4)
def _board_background(numbers: tuple[int, ...], width: int, height: int) -> Image.Image:
    img, d = canvas(TOP + height * CELL + 70)
    d.text((16, 12), "GEONEO", font=font(22), fill=TEXT)
    for i, n in enumerate(numbers):
        r, c = divmod(i, width)
        x, y = LEFT + c * CELL, TOP + r * CELL
        d.rounded_rectangle((x + 2, y + 2, x + CELL - 2, y + CELL - 2), radius=8, fill=FIELD_TINT.get(n, PANEL),
                            outline=PANEL_EDGE)
        text_centered(d, (x + CELL / 2, y + CELL / 2), str(n), 34, (200, 204, 214))
        d.text((x + 7, y + 5), field_name(i, width), font=font(12), fill=MUTED)
    return img


def draw(view: dict, names: list[str], last: str | None = None) -> Image.Image:
    width, height = view["width"], view["height"]
    img = _board_background(tuple(view["numbers"]), width, height).copy()
    d = ImageDraw.Draw(img)
    for i, p in enumerate(view["pieces"]):
        if p is None:
            continue
        r, c = divmod(i, width)
        piece_mark(d, LEFT + c * CELL + CELL / 2, TOP + r * CELL + CELL / 2 + 4, p, CELL * 0.3)
    hl = view.get("highlight") or []
    for i in hl:
        r, c = divmod(i, width)
        x, y = LEFT + c * CELL, TOP + r * CELL
        d.rounded_rectangle((x, y, x + CELL, y + CELL), radius=10, outline=HIGHLIGHT, width=4)
    if len(hl) >= 2:
        pts = [(LEFT + (i % width) * CELL + CELL / 2, TOP + (i // width) * CELL + CELL / 2) for i in hl]
        if len(hl) == 4:
            pts = [pts[0], pts[1], pts[3], pts[2]]
        d.line(pts + [pts[0]] if len(pts) > 2 else pts, fill=HIGHLIGHT, width=3)

    # the round: cards played, each marked as first / added / subtracted / put away, and the result
    x = 16
    if view["phase"] in ("play", "place"):
        d.text((x, 50), "ROUND", font=font(13), fill=MUTED)
    x += 56
    for play in view["round"]["plays"]:
        op = {"first": "", "+": "+", "-": "-", "away": "x"}[play["op"]]
        horizontal = play["op"] == "-"
        w, h = (44, 32) if horizontal else (32, 44)
        y = 44 + (44 - h) // 2
        d.rounded_rectangle((x, y, x + w, y + h), radius=5, fill=WHITE if play["op"] != "away" else MUTED,
                            outline=BLACK, width=2)
        text_centered(d, (x + w / 2, y + h / 2), f"{op}{play['card']}", 18, BLACK)
        x += w + 8
    if view["result"] is not None:
        d.text((x + 4, 54), f"= {view['result']}", font=font(20), fill=HIGHLIGHT)
    status = _status(view, names)
    d.text((784, 18), fit_text(status, 17, 560), font=font(17), fill=HIGHLIGHT, anchor="ra")

    # side panel: colours, pieces left, scores
    sx = LEFT + width * CELL + 10
    panel(d, (sx, TOP, 790, TOP + height * CELL), "SCORES")
    colours = view["colours"]
    y = TOP + 30
    for colour in sorted(set(colours)):
        seats = [s for s in range(view["players"]) if colours[s] == colour]
        piece_mark(d, sx + 18, y + 12, colour, 10)
        d.text((sx + 34, y + 2), f"{view['scores'][colour]} pts", font=font(16), fill=TEXT)
        y += 26
        for s in seats:
            mark = "> " if s in view["to_act"] else "  "
            gone = " (left)" if view["left"][s] else ""
            d.text((sx + 10, y), fit_text(f"{mark}{names[s]}{gone}", 13, 790 - sx - 16), font=font(13),
                   fill=HIGHLIGHT if s in view["to_act"] else TEXT)
            pieces, cards = view["supply"][s], view["hand_sizes"][s]
            d.text((sx + 22, y + 16), f"{pieces} piece{'s' * (pieces != 1)}, {cards} card{'s' * (cards != 1)}",
                   font=font(12), fill=MUTED)
            y += 36
        y += 6

    footer = img.height - 34
    d.rectangle((0, footer - 4, img.width, img.height), fill=PANEL)
    if last:
        d.text((16, footer + 4), fit_text(last, 15, 768), font=font(15), fill=TEXT)
    return img


def _status(view: dict, names: list[str]) -> str:
    phase = view["phase"]
    if phase == "over":
        return "Game over"
    who = ", ".join(names[s] for s in view["to_act"])
    if phase == "play":
        return f"{who} plays a card"
    if phase == "place":
        return f"{who} places a piece on a {view['place']['number']}"
    return f"{who} clears away a shape"


def draw_hand(hand: list[int], name: str) -> Image.Image:
    """The owner's hand as cards, for the ephemeral 'My hand' reply."""
    w = 40 + 64 * max(len(hand), 1)
    img = Image.new("RGB", (max(w, 320), 150), (38, 42, 51))
    d = ImageDraw.Draw(img)
    d.text((16, 10), fit_text(f"{name}'s hand", 16, 300), font=font(16), fill=TEXT)
    for k, v in enumerate(hand):
        x = 20 + 64 * k
        d.rounded_rectangle((x, 40, x + 56, 136), radius=8, fill=WHITE, outline=BLACK, width=2)
        text_centered(d, (x + 28, 88), str(v), 36, BLACK)
    return img
