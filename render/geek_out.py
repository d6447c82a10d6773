"""The Geek Out! Masters board: whose turn and what they must do, the active dice grouped by face (each group
named), the inactive / used / scored zones, the scoreboard and the last move.

Faces keep the dice's colour pairs (42/Heart red, Meeple/Spaceship green, Superhero/Dragon yellow) and each
has its own icon and its name beneath, so they read without colour. Dice are named by face only (the moves
say "Flip a Dragon"), so the board draws no die numbers. Inactive dice are drawn blank: their face does not
matter until a Heart brings one in and rolls it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from PIL import Image, ImageDraw

from games.geek_out.rules import NAMES
from i18n import Text, _, here, ngettext, pgettext
from render.common import (
    BLACK,
    GREEN,
    HIGHLIGHT,
    MARGIN,
    MUTED,
    P_BODY,
    P_HEADER_H,
    P_LARGE,
    P_SMALL,
    PANEL,
    PANEL_EDGE,
    PHONE_CANVAS,
    TEXT,
    VERMILLION,
    WHITE,
    YELLOW,
    cached,
    canvas,
    fit_name,
    font,
    join_fit,
    mark,
    measure,
    phone_header,
    plain,
    played_by_computer,
    player_row,
    sprite_label,
    star,
    text,
    top_seats,
    wrap_text,
)

GAME = "geek_out"
TITLE = "Geek Out! Masters"

FACE_COLOUR = {
    "42": VERMILLION,
    "heart": VERMILLION,
    "meeple": GREEN,
    "ship": GREEN,
    "hero": YELLOW,
    "dragon": YELLOW,
}
FACE_NAME = NAMES
FACE_ORDER = ("heart", "meeple", "ship", "hero", "42", "dragon")
"""Active dice are grouped in this order: the four action faces first, then 42s and Dragons."""
PICK_TARGET = {"meeple": _("pick a die to reroll"), "hero": _("pick a die to flip"),
               "ship": _("pick a die to send away")}
BLANK = (112, 118, 132)
COLOURS = (BLANK,)
"""The flat colours this board adds to ``common.THEME`` (kept exactly in its PNG palette)."""
SS = 4  # supersampling factor for smooth icons

GAP = 8
WIDTH = PHONE_CANVAS
"""Drawn for the phone (docs/rendering.md, "Legible on a phone"): 600 px wide, shown 240 px wide on a 360 px
phone, every label at least ``P_SMALL`` (28 px), every die at least 44 px (18 px there)."""
ACTIVE_H = 36 + 2 * 102  # the title and two rows of groups (dice over their face's name), always: the same height
GROUP_ROW = 102
ZONES_H = 128
ROW_H = 46
DIE_SIZES = (64, 56, 48)
ZONE_DIE = 44


def _icon(d: ImageDraw.ImageDraw, face: str, s: float, ink) -> None:
    """Draws ``face`` in a box of side ``s`` (supersampled coordinates, origin top-left)."""

    def P(points):
        return [(x * s / 100, y * s / 100) for x, y in points]

    def E(x0, y0, x1, y1):
        return (x0 * s / 100, y0 * s / 100, x1 * s / 100, y1 * s / 100)

    if face == "42":
        sprite_label("42", int(s * 0.64) / SS, (round(s / SS), round(s / SS)))
        d.text((s / 2, s / 2), "42", font=font(int(s * 0.64), scale=SS), fill=ink, anchor="mm",
               stroke_width=int(s * 0.025), stroke_fill=ink)
    elif face == "heart":
        d.ellipse(E(16, 22, 52, 58), fill=ink)
        d.ellipse(E(48, 22, 84, 58), fill=ink)
        d.polygon(P([(17, 47), (83, 47), (50, 86)]), fill=ink)
    elif face == "meeple":
        d.ellipse(E(37, 12, 63, 38), fill=ink)
        d.polygon(P([(40, 36), (60, 36), (88, 50), (86, 61), (64, 58), (78, 88), (56, 88), (50, 73), (44, 88),
                     (22, 88), (36, 58), (14, 61), (12, 50)]), fill=ink)
    elif face == "ship":
        d.polygon(P([(50, 8), (65, 30), (65, 70), (35, 70), (35, 30)]), fill=ink)
        d.polygon(P([(35, 48), (17, 78), (35, 70)]), fill=ink)
        d.polygon(P([(65, 48), (83, 78), (65, 70)]), fill=ink)
        d.polygon(P([(41, 72), (59, 72), (50, 92)]), fill=ink)
        d.ellipse(E(42, 32, 58, 48), fill=FACE_COLOUR["ship"])
    elif face == "hero":
        # a domino mask with two eye holes
        d.polygon(P([(8, 36), (30, 28), (50, 34), (70, 28), (92, 36), (88, 58), (68, 70), (56, 61), (50, 57),
                     (44, 61), (32, 70), (12, 58)]), fill=ink)
        d.ellipse(E(23, 39, 42, 54), fill=FACE_COLOUR["hero"])
        d.ellipse(E(58, 39, 77, 54), fill=FACE_COLOUR["hero"])
    elif face == "dragon":
        # a dragon's head in profile: horns, eye, open jaw with teeth
        d.polygon(P([(12, 44), (36, 28), (40, 8), (51, 26), (64, 12), (63, 31), (88, 43), (90, 54), (60, 56),
                     (88, 70), (84, 80), (48, 78), (24, 90), (20, 66)]), fill=ink)
        d.ellipse(E(57, 35, 69, 47), fill=FACE_COLOUR["dragon"])
        d.polygon(P([(64, 56), (71, 56), (67.5, 64)]), fill=FACE_COLOUR["dragon"])
        d.polygon(P([(75, 57), (82, 58), (78, 64)]), fill=FACE_COLOUR["dragon"])


@cached(maxsize=128)
def die_sprite(face: str | None, size: int, selected: bool = False) -> Image.Image:
    """One die: a rounded square in the face's colour with its icon; ``face`` None draws a blank (inactive)
    die; ``selected`` adds a gold frame (the die whose action is being used). ``size`` + 6 px square."""
    big = size * SS
    pad = 3 * SS
    img = Image.new("RGBA", (big + 2 * pad, big + 2 * pad), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    colour = FACE_COLOUR.get(face, BLANK)
    if selected:
        d.rounded_rectangle((0, 0, big + 2 * pad - 1, big + 2 * pad - 1), radius=big // 5, fill=HIGHLIGHT)
    d.rounded_rectangle((pad, pad, pad + big, pad + big), radius=big // 6, fill=colour, outline=BLACK,
                        width=max(2, size // 16) * SS)
    if face is not None:
        ink = BLACK if colour == YELLOW else WHITE
        inner = Image.new("RGBA", (big, big), (0, 0, 0, 0))
        _icon(ImageDraw.Draw(inner), face, big, ink)
        img.alpha_composite(inner, (pad, pad))
    return img.resize((img.width // SS, img.height // SS), Image.Resampling.LANCZOS)


def _paste(img: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
    """Pastes a die sprite with its die's top-left corner at (x, y)."""
    img.paste(sprite, (int(x) - 3, int(y) - 3), sprite)
    mark("die", sprite.width - 6, sprite.height - 6)


# --- the active zone: dice grouped by face, each group named ----------------------------------------------
def _groups(view: dict) -> list[tuple[str, int, bool]]:
    """(face, count, selected) in FACE_ORDER; the die being used (target step) is its own first group."""
    active = [(i, d["face"]) for i, d in enumerate(view["dice"]) if d["zone"] == "active"]
    sel = view["selected"]
    out = []
    if sel is not None and any(i == sel for i, _ in active):
        out.append((view["dice"][sel]["face"], 1, True))
    for face in FACE_ORDER:
        n = sum(1 for i, f in active if f == face and i != sel)
        if n:
            out.append((face, n, False))
    return out


def _group_width(face: str, n: int, size: int) -> float:
    dice = n * size + (n - 1) * 6
    return max(dice, measure(plain(here(FACE_NAME[face])), P_SMALL, True) + 8)


def _rows_of_groups(groups: list[tuple[str, int, bool]], room: float) -> tuple[int, int, list[list]]:
    """The largest die size (``DIE_SIZES``) at which the groups fit in one row, else in two; (size, gap, rows)."""
    for rows_max in (1, 2):
        for size in DIE_SIZES:
            gap = 20 if size >= 56 else 12
            rows: list[list] = [[]]
            used = 0.0
            for g in groups:
                w = _group_width(g[0], g[1], size)
                if rows[-1] and used + gap + w > room:
                    rows.append([])
                    used = 0.0
                used += (gap if rows[-1] else 0) + w
                rows[-1].append(g)
            if len(rows) <= rows_max and all(sum(_group_width(f, n, size) for f, n, _ in r) + gap * (len(r) - 1)
                                              <= room for r in rows):
                return size, gap, rows
    return DIE_SIZES[-1], 8, rows


def _active_zone(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, box) -> None:
    x0, y0, x1, y1 = box
    groups = _groups(view)
    count = sum(n for _, n, _ in groups)
    _panel(d, box, _("ACTIVE"), ngettext("{n} die", "{n} dice", count))
    if not groups:
        if view["phase"] != "choose":
            text(d, ((x0 + x1) / 2, (y0 + y1) / 2 + 18), _("No active dice."), P_BODY, MUTED, anchor="mm")
            return
        used = sum(1 for die in view["dice"] if die["zone"] == "used")
        lines = (ngettext("Continue: roll the {n} used die again, risking the 42s",
                          "Continue: roll the {n} used dice again, risking the 42s", used),
                 _("Pass: bank {points} now", points=_points(view["at_risk_points"])))
        y = y0 + 52
        for line in lines:
            for part in wrap_text(line, P_BODY, x1 - x0 - 32):
                text(d, (x0 + 16, y), part, P_BODY, TEXT)
                y += 36
            y += 10
        return
    room = x1 - x0 - 24
    size, gap, rows = _rows_of_groups(groups, room)
    top = y0 + 40 + (GROUP_ROW * (2 - len(rows))) / 2
    for row in rows:
        total = sum(_group_width(f, n, size) for f, n, _ in row) + gap * (len(row) - 1)
        x = x0 + 12 + (room - total) / 2
        dice_top = top + (64 - size) / 2
        for face, n, selected in row:
            w = _group_width(face, n, size)
            dice_w = n * size + (n - 1) * 6
            dx = x + (w - dice_w) / 2
            sprite = die_sprite(face, size, selected)
            for k in range(n):
                _paste(img, sprite, dx + k * (size + 6), dice_top)
            text(d, (x + w / 2, top + 64 + 4), FACE_NAME[face], P_SMALL, HIGHLIGHT if selected else TEXT,
                 anchor="mt", bold=True)
            x += w + gap
        top += GROUP_ROW


def _panel(d: ImageDraw.ImageDraw, box, title: str, right: str | None = None) -> None:
    """A panel with its title (and ``right``) at ``P_SMALL``."""
    d.rounded_rectangle(box, radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    right_w = text(d, (box[2] - 12, box[1] + 4), right, P_SMALL, TEXT, anchor="ra") + 10 if right else 0
    text(d, (box[0] + 12, box[1] + 4), title, P_SMALL, MUTED, bold=True, max_width=box[2] - box[0] - 24 - right_w)


def _small_zone(img: Image.Image, d: ImageDraw.ImageDraw, box, title: str, face: str | None, n: int,
                note: str | None = None) -> None:
    """A zone: its title, one die of what it holds and how many ("× 3"), and ``note`` (the points at risk)."""
    x0, y0, x1, y1 = box
    _panel(d, box, title)
    cy = y0 + 40 + ZONE_DIE / 2
    if not n:
        text(d, (x0 + 12, cy), _("none"), P_BODY, MUTED, anchor="lm")
    else:
        _paste(img, die_sprite(face, ZONE_DIE), x0 + 12, cy - ZONE_DIE / 2)
        text(d, (x0 + 12 + ZONE_DIE + 10, cy), f"× {n}", P_LARGE, TEXT, anchor="lm", bold=True)
    if note:
        text(d, (x0 + 12, y1 - 8), note, P_SMALL, HIGHLIGHT, anchor="ls", max_width=x1 - x0 - 24)


# --- the scoreboard ------------------------------------------------------------------------------------
def _columns(players: int) -> int:
    return 1 if players <= 4 else 2


def _scores_height(players: int) -> int:
    return 40 + ROW_H * math.ceil(players / _columns(players)) + 8


def _scoreboard(d: ImageDraw.ImageDraw, view: dict, names: list[str], top: int, winners: list[int]) -> None:
    """Each player's row: mark, name and total (a star for the winners); their points per turn are the score
    sheet's (``draw_score_sheet``), a detail the phone has no room for on the board."""
    players, limit = view["players"], view["turn_limit"]
    over = view["phase"] == "over"
    box = (MARGIN, top, WIDTH - MARGIN, top + _scores_height(players))
    _panel(d, box, _("SCORES"))
    cols = _columns(players)
    per = math.ceil(players / cols)
    col_w = (WIDTH - 2 * MARGIN - 8) / cols
    for seat in range(players):
        c, r = divmod(seat, per)
        x0 = MARGIN + 4 + c * col_w
        y = top + 38 + r * ROW_H
        cy = y + ROW_H / 2
        current = seat == view["current"] and not over
        total = str(view["totals"][seat])
        total_w = font(P_LARGE, bold=True).getlength(total)
        win = over and seat in winners
        player_row(d, (x0, y + 2, x0 + col_w - 4, y + ROW_H - 2), seat, names[seat],
                   name_width=col_w - 22 - total_w - (30 if win else 0), current=current, gone=view["left"][seat],
                   size=P_BODY, computer=played_by_computer(view, seat), k=1.25 if cols == 1 else 1,
                   least=P_SMALL)
        text(d, (x0 + col_w - 14, cy), total, P_LARGE, HIGHLIGHT if win else TEXT, anchor="rm", bold=True)
        if win:
            star(d, (x0 + col_w - 24 - total_w, cy), 12)
    del limit


def winners_of(view: dict) -> list[int]:
    """The winning seats: ``view["winners"]`` when the view names them, else the best totals of seats still in."""
    if view.get("winners") is not None:
        return list(view["winners"])
    return top_seats(view["totals"], view["left"])


def _points(n: int) -> Text:
    return ngettext("{n} point", "{n} points", n)


def _status(view: dict, names: list[str]) -> Text:
    cur = view["current"]
    phase = view["phase"]
    if phase == "act":
        need = _("use an action die")
    elif phase == "target":
        face = view["dice"][view["selected"]]["face"] if view["selected"] is not None else "meeple"
        need = PICK_TARGET.get(face, _("pick a die to target"))
    else:
        need = _("Continue or Pass?")
    task = here(_("{player}: {task}", player="", task=need))
    room = WIDTH - 2 * MARGIN - 70 - font(P_SMALL, bold=True).getlength(task)  # the header's least size
    size = P_BODY if font(P_BODY, bold=True).getlength(task) + 120 <= room else P_SMALL
    return _("{player}: {task}", player=fit_name(names[cur], size, room), task=need)


def _height(view: dict) -> int:
    """Depends on the number of players only (two rows of dice groups are always kept), so a game's boards, the
    end's too, are all one size (render/replay.py). No footer: the message above the board says the last move."""
    return P_HEADER_H + GAP + ACTIVE_H + GAP + ZONES_H + GAP + _scores_height(view["players"]) + GAP


def draw_board(view: dict, names: list[str], last: str | None = None, focus: dict | None = None) -> Image.Image:
    """The public board. ``focus`` is unused: every Geek Out choice already shows (the gold-framed die)."""
    over = view["phase"] == "over"
    height = _height(view)
    img, d = canvas(height, WIDTH)
    winners = winners_of(view) if over else []
    if over:
        best = view["totals"][winners[0]] if winners else 0

        def banner(who: str) -> Text:
            if view["players"] == 1:
                return _("{player} scores {points}", player=who, points=_points(best))
            return ngettext("{players} wins with {points}!", "{players} win with {points}!", len(winners),
                            players=who, points=_points(best))

        room = WIDTH - 2 * MARGIN - 120 - font(P_BODY, bold=True).getlength(here(banner("")))  # the banner's inside
        who = join_fit([names[s] for s in winners], P_BODY, room)
        phone_header(d, TITLE, banner(who), right=_("Game over"), winner=True)
    else:
        cur = view["current"]
        turn = min(view["turns"][cur] + 1, view["turn_limit"])
        phone_header(d, TITLE, _status(view, names),
                     right=_("Turn {turn} of {turns}", turn=turn, turns=view["turn_limit"]), seat=cur)
    y = P_HEADER_H + GAP
    # the dice as the last turn left them at the end (without the points at risk)
    _active_zone(img, d, view, (MARGIN, y, WIDTH - MARGIN, y + ACTIVE_H))
    y += ACTIVE_H + GAP
    zone = {z: [die["face"] for die in view["dice"] if die["zone"] == z] for z in ("inactive", "used", "scored")}
    w = (WIDTH - 2 * MARGIN - 2 * GAP - 96) / 3  # the scored zone 96 px wider: the points at risk under its dice
    boxes = [(MARGIN, y, MARGIN + w, y + ZONES_H), (MARGIN + w + GAP, y, MARGIN + 2 * w + GAP, y + ZONES_H),
             (MARGIN + 2 * (w + GAP), y, WIDTH - MARGIN, y + ZONES_H)]
    _small_zone(img, d, boxes[0], _("INACTIVE"), None, len(zone["inactive"]))
    _small_zone(img, d, boxes[1], _("USED"), None, len(zone["used"]))
    risk = view["at_risk_points"]
    _small_zone(img, d, boxes[2], _("SCORED"), "42", len(zone["scored"]),
                ngettext("{n} pt at risk", "{n} pts at risk", risk) if zone["scored"] and not over else None)
    y += ZONES_H + GAP
    _scoreboard(d, view, names, y, winners)
    return img


def draw_points_sheet(view: dict, names: list[str]) -> Image.Image:
    """Each player's points turn by turn and their total, the detail the phone board has no room for (it shows the
    totals only). A row per player, a column per turn. It is the game's score sheet (``draw_score_sheet``, which
    the bot posts with the final standings); ``render.render_points_sheet`` draws it too."""
    players, limit = view["players"], view["turn_limit"]
    winners = winners_of(view)
    height = P_HEADER_H + GAP + 44 + ROW_H * players + 12
    img, d = canvas(height, WIDTH)
    phone_header(d, TITLE, _("Points turn by turn"), arrow=False)
    total_x = WIDTH - MARGIN - 12
    total_w = max(font(P_SMALL, bold=True).getlength(here(_("TOTAL"))), 56)
    colw = min(48, (WIDTH - 2 * MARGIN - 190 - total_w) / max(limit, 1))
    col0 = total_x - total_w - 12 - colw * limit
    top = P_HEADER_H + GAP
    d.rounded_rectangle((MARGIN, top, WIDTH - MARGIN, height - 6), radius=10, fill=PANEL, outline=PANEL_EDGE, width=2)
    for t in range(limit):
        text(d, (col0 + t * colw + colw / 2, top + 6), pgettext("a turn's column", "T{n}", n=t + 1), P_SMALL, MUTED,
             anchor="ma")
    text(d, (total_x, top + 6), _("TOTAL"), P_SMALL, MUTED, anchor="ra", bold=True)
    for seat in range(players):
        y = top + 42 + seat * ROW_H
        cy = y + ROW_H / 2
        win = seat in winners
        player_row(d, (MARGIN + 4, y + 2, col0 - 4, y + ROW_H - 2), seat, names[seat], name_width=col0 - MARGIN - 8,
                   gone=view["left"][seat], size=P_BODY, computer=played_by_computer(view, seat), k=1.25,
                   least=P_SMALL)
        for t, pts in enumerate(view["scores"][seat]):
            text(d, (col0 + t * colw + colw / 2, cy), str(pts), P_SMALL, TEXT if pts else MUTED, anchor="mm")
        total = str(view["totals"][seat])
        text(d, (total_x, cy), total, P_LARGE, HIGHLIGHT if win else TEXT, anchor="rm", bold=True)
        if win:
            star(d, (total_x - font(P_LARGE, bold=True).getlength(total) - 18, cy), 12)
    return img


draw = draw_board
"""The old name (benchmarks/__main__.py draws with it)."""


draw_score_sheet = draw_points_sheet
"""The sheet the bot shows with the final standings (``render.has_score_sheet``)."""


def palette_samples() -> Iterator[Image.Image]:
    """Boards of every phase (8 players: every seat's colour and mark; 3 players, one who left, played to the
    end: the game won) from seeded games: what ``render.palette`` learns this game's PNG palette from."""
    import random

    from games.geek_out.rules import GeekOut

    engine = GeekOut()
    names = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    last = "Ana's Meeple rerolled a Dragon -> 42"
    for players in (8, 3):
        seen: set[str] = set()
        for seed in range(20):
            state = engine.new(players, {}, seed)
            if players == 3:
                state, _ = engine.apply(state, -1, "leave:1")
            pick = random.Random(seed)
            while engine.to_act(state) and (players == 3 or len(seen) < 3):
                if state["phase"] not in seen:
                    seen.add(state["phase"])
                    yield draw_board(engine.view(state, None), names[:players], last)
                seat = state["current"]
                state, _ = engine.apply(state, seat, pick.choice(engine.legal_actions(state, seat)).key)
            if not engine.to_act(state) and "over" not in seen:
                seen.add("over")
                view = engine.view(state, None)
                yield draw_board(view, names[:players], last)
                yield draw_board(dict(view, winners=list(range(players))), names[:players], None)
            if len(seen) >= (3 if players == 8 else 4):
                break
