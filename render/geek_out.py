"""The Geek Out! Masters board: the four dice zones, every die numbered with its face drawn, the scoreboard.

Faces keep the dice's colour pairs (42/Heart red, Meeple/Spaceship green, Superhero/Dragon yellow) and each
has its own icon, so they read without colour. Inactive dice are drawn blank: their face does not matter
until a Heart brings one in and rolls it.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import (
    BLACK,
    GREEN,
    HIGHLIGHT,
    MUTED,
    PANEL,
    TEXT,
    VERMILLION,
    WHITE,
    YELLOW,
    canvas,
    fit_text,
    font,
    panel,
    seat_mark,
    text_centered,
)

FACE_COLOUR = {
    "42": VERMILLION,
    "heart": VERMILLION,
    "meeple": GREEN,
    "ship": GREEN,
    "hero": YELLOW,
    "dragon": YELLOW,
}
FACE_LABEL = {"42": "42", "heart": "HEART", "meeple": "MEEPLE", "ship": "SHIP", "hero": "HERO", "dragon": "DRAGON"}
BLANK = (112, 118, 132)
SS = 4  # supersampling factor for smooth icons


def _icon(d: ImageDraw.ImageDraw, face: str, s: float, ink) -> None:
    """Draws ``face`` in a box of side ``s`` (supersampled coordinates, origin top-left)."""

    def P(points):
        return [(x * s / 100, y * s / 100) for x, y in points]

    def E(x0, y0, x1, y1):
        return (x0 * s / 100, y0 * s / 100, x1 * s / 100, y1 * s / 100)

    if face == "42":
        d.text((s / 2, s / 2), "42", font=font(int(s * 0.5)), fill=ink, anchor="mm",
               stroke_width=int(s * 0.02), stroke_fill=ink)
    elif face == "heart":
        d.ellipse(E(18, 24, 52, 58), fill=ink)
        d.ellipse(E(48, 24, 82, 58), fill=ink)
        d.polygon(P([(19, 48), (81, 48), (50, 84)]), fill=ink)
    elif face == "meeple":
        d.ellipse(E(38, 14, 62, 38), fill=ink)
        d.polygon(P([(40, 36), (60, 36), (86, 50), (84, 60), (64, 58), (76, 86), (56, 86), (50, 72), (44, 86),
                     (24, 86), (36, 58), (16, 60), (14, 50)]), fill=ink)
    elif face == "ship":
        d.polygon(P([(50, 10), (64, 30), (64, 70), (36, 70), (36, 30)]), fill=ink)
        d.polygon(P([(36, 50), (20, 76), (36, 70)]), fill=ink)
        d.polygon(P([(64, 50), (80, 76), (64, 70)]), fill=ink)
        d.polygon(P([(42, 72), (58, 72), (50, 90)]), fill=ink)
        bg = FACE_COLOUR["ship"]
        d.ellipse(E(43, 34, 57, 48), fill=bg)
    elif face == "hero":
        # a domino mask with two eye holes
        d.polygon(P([(10, 38), (30, 30), (50, 36), (70, 30), (90, 38), (86, 58), (68, 68), (56, 60), (50, 56),
                     (44, 60), (32, 68), (14, 58)]), fill=ink)
        bg = FACE_COLOUR["hero"]
        d.ellipse(E(24, 40, 42, 54), fill=bg)
        d.ellipse(E(58, 40, 76, 54), fill=bg)
    elif face == "dragon":
        # a dragon's head in profile: horns, eye, open jaw with teeth
        d.polygon(P([(14, 44), (36, 30), (40, 12), (50, 28), (62, 16), (62, 32), (86, 44), (88, 54), (60, 56),
                     (86, 70), (82, 78), (48, 76), (26, 86), (22, 66)]), fill=ink)
        bg = FACE_COLOUR["dragon"]
        d.ellipse(E(58, 36, 68, 46), fill=bg)
        d.polygon(P([(64, 56), (70, 56), (67, 63)]), fill=bg)
        d.polygon(P([(74, 56), (80, 56), (77, 62)]), fill=bg)


@lru_cache(maxsize=512)
def die_sprite(face: str | None, size: int, number: int, mark: str = "") -> Image.Image:
    """One die: rounded square in the face's colour, its icon, and its number in a corner badge.

    ``face`` None draws a blank (inactive) die. ``mark`` is "" or "selected" (a gold ring).
    """
    big = size * SS
    pad = 3 * SS
    img = Image.new("RGBA", (big + 2 * pad, big + 2 * pad), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    colour = FACE_COLOUR.get(face, BLANK)
    if mark == "selected":
        d.rounded_rectangle((0, 0, big + 2 * pad - 1, big + 2 * pad - 1), radius=big // 5, fill=HIGHLIGHT)
    d.rounded_rectangle((pad, pad, pad + big, pad + big), radius=big // 6, fill=colour,
                        outline=BLACK, width=2 * SS)
    if face is not None:
        ink = BLACK if colour == YELLOW else WHITE
        inner = Image.new("RGBA", (big, big), (0, 0, 0, 0))
        _icon(ImageDraw.Draw(inner), face, big, ink)
        img.alpha_composite(inner, (pad, pad))
    r = int(max(size * 0.19, 10) * SS)
    cx, cy = pad + r + SS, pad + r + SS
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BLACK, outline=WHITE, width=SS)
    d.text((cx, cy), str(number), font=font(int(r * 1.25)), fill=WHITE, anchor="mm")
    return img.resize((img.width // SS, img.height // SS), Image.Resampling.LANCZOS)


def _dice_row(img: Image.Image, dice: list[tuple[int, dict]], box, size: int, *, per_row: int,
              blank: bool = False, selected: int | None = None, labels: bool = False) -> None:
    x0, y0, x1, _ = box
    gap = 8
    step = size + gap
    for k, (i, die) in enumerate(dice):
        row, col = divmod(k, per_row)
        x = x0 + 12 + col * step
        y = y0 + 28 + row * (step + (16 if labels else 0))
        sprite = die_sprite(None if blank else die["face"], size, i + 1, "selected" if i == selected else "")
        img.paste(sprite, (x - 3, y - 3), sprite)
        if labels:
            text_centered(ImageDraw.Draw(img), (x + size / 2, y + size + 10), FACE_LABEL[die["face"]], 12, MUTED)


@lru_cache(maxsize=8)
def _background(rows: int) -> Image.Image:
    height = 374 + 30 + 26 * rows + 44
    img, d = canvas(height)
    d.text((16, 14), "GEEK OUT! MASTERS", font=font(22), fill=TEXT)
    return img


def draw(view: dict, names: list[str], last: str | None = None) -> Image.Image:
    players = view["players"]
    img = _background(players).copy()
    d = ImageDraw.Draw(img)
    dice = list(enumerate(view["dice"]))
    by_zone = {z: [(i, die) for i, die in dice if die["zone"] == z] for z in ("active", "inactive", "used", "scored")}
    cur = view["current"]
    over = view["phase"] == "over"

    # header: whose turn and what they must do
    if over:
        status = "Game over"
    else:
        turn = min(view["turns"][cur] + 1, view["turn_limit"])
        need = {
            "act": "must use an action die",
            "target": f"picks a target for die {(view['selected'] or 0) + 1}",
            "choose": "Continue or Pass?",
        }[view["phase"]]
        status = fit_text(f"{names[cur]} · turn {turn}/{view['turn_limit']} · {need}", 17, 520)
    d.text((784, 18), status, font=font(17), fill=HIGHLIGHT, anchor="ra")

    # active zone, big dice with face names beneath
    active_box = (10, 50, 790, 170)
    panel(d, active_box, f"ACTIVE · {len(by_zone['active'])}")
    _dice_row(img, by_zone["active"], active_box, 60, per_row=10, selected=view["selected"], labels=True)
    if not by_zone["active"]:
        text_centered(d, (400, 110), "no active dice", 16, MUTED)

    # the three small zones
    risk = f"SCORED · {view['at_risk']} x 42 = {view['at_risk_points']} pts at risk"
    for (zone, title), x in zip((("inactive", "INACTIVE"), ("used", "USED"), ("scored", risk)), (10, 270, 530),
                                strict=True):
        box = (x, 180, x + 260, 366)
        panel(d, box, title if zone == "scored" else f"{title} · {len(by_zone[zone])}")
        _dice_row(img, by_zone[zone], box, 40, per_row=5, blank=(zone == "inactive"))
        if not by_zone[zone]:
            text_centered(d, (x + 130, 274), "empty", 15, MUTED)

    # scoreboard: a row per player, a column per turn
    top = 374
    limit = view["turn_limit"]
    panel(d, (10, top, 790, top + 30 + 26 * players + 6), None)
    col0 = 330
    colw = min(60, (700 - col0) // max(limit, 1))
    for t in range(limit):
        text_centered(d, (col0 + t * colw + colw / 2, top + 16), f"T{t + 1}", 13, MUTED)
    text_centered(d, (745, top + 16), "TOTAL", 13, MUTED)
    for seat in range(players):
        y = top + 30 + seat * 26
        if seat == cur and not over:
            d.rounded_rectangle((14, y - 1, 786, y + 23), radius=6, fill=(70, 66, 40), outline=HIGHLIGHT)
        seat_mark(d, (32, y + 11), seat)
        name = names[seat] + (" (left)" if view["left"][seat] else "")
        d.text((48, y + 3), fit_text(name, 16, col0 - 60), font=font(16), fill=MUTED if view["left"][seat] else TEXT)
        for t, pts in enumerate(view["scores"][seat]):
            text_centered(d, (col0 + t * colw + colw / 2, y + 11), str(pts), 16, TEXT if pts else MUTED)
        text_centered(d, (745, y + 11), str(view["totals"][seat]), 18, TEXT)

    # footer: the last move in words
    y = img.height - 34
    d.rectangle((0, y - 4, img.width, img.height), fill=PANEL)
    if last:
        d.text((16, y + 4), fit_text(last, 15, 768), font=font(15), fill=TEXT)
    return img
