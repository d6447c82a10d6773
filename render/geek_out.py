"""The Geek Out! Masters board: whose turn and what they must do, the active dice grouped by face (each group
named), the inactive / used / scored zones, the scoreboard and the last move.

Faces keep the dice's colour pairs (42/Heart red, Meeple/Spaceship green, Superhero/Dragon yellow) and each
has its own icon and its name beneath, so they read without colour. Dice are named by face only (the moves
say "Flip a Dragon"), so the board draws no die numbers. Inactive dice are drawn blank: their face does not
matter until a Heart brings one in and rolls it.
"""

from __future__ import annotations

from collections.abc import Iterator

from PIL import Image, ImageDraw

from games.geek_out.rules import NAMES
from i18n import Text, _, here, ngettext, pgettext
from render.common import (
    BLACK,
    BODY,
    GREEN,
    HEADER_H,
    HIGHLIGHT,
    MARGIN,
    MUTED,
    SMALL,
    STATUS,
    TEXT,
    VERMILLION,
    WHITE,
    WIDTH,
    YELLOW,
    cached,
    canvas,
    fit_name,
    font,
    header,
    join_fit,
    mark,
    panel,
    played_by_computer,
    player_row,
    sprite_label,
    star,
    text,
    top_seats,
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
ACTIVE_H = {True: 140, False: 148}  # by "more than four players" (compact: the board stays 800 x 600)
ZONES_H = {True: 80, False: 116}  # compact: the zones' hints left out (the points at risk on the title line)
ROW_H = {True: 27, False: 38}
SCORES_HEAD = {True: 36, False: 40}


def _icon(d: ImageDraw.ImageDraw, face: str, s: float, ink) -> None:
    """Draws ``face`` in a box of side ``s`` (supersampled coordinates, origin top-left)."""

    def P(points):
        return [(x * s / 100, y * s / 100) for x, y in points]

    def E(x0, y0, x1, y1):
        return (x0 * s / 100, y0 * s / 100, x1 * s / 100, y1 * s / 100)

    if face == "42":
        sprite_label("42", int(s * 0.5) / SS, (round(s / SS), round(s / SS)))
        d.text((s / 2, s / 2), "42", font=font(int(s * 0.5), scale=SS), fill=ink, anchor="mm",
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
    return max(dice, font(SMALL).getlength(here(FACE_NAME[face])) + 6)


def _active_zone(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, box) -> None:
    x0, y0, x1, y1 = box
    groups = _groups(view)
    count = sum(n for _, n, _ in groups)
    panel(d, box, _("ACTIVE"), right=ngettext("{n} die", "{n} dice", count))
    if not groups:
        cy = (y0 + y1) / 2 + 12
        if view["phase"] != "choose":
            text(d, ((x0 + x1) / 2, cy), _("No active dice."), BODY, MUTED, anchor="mm")
            return
        used = sum(1 for die in view["dice"] if die["zone"] == "used")
        lines = (ngettext("Continue: roll the {n} used die again, risking the 42s",
                          "Continue: roll the {n} used dice again, risking the 42s", used),
                 _("Pass: bank {points} now", points=_points(view["at_risk_points"])))
        for k, line in enumerate(lines):
            text(d, (x0 + 24, cy + (k - 0.5) * 34), line, BODY, TEXT, anchor="lm", max_width=x1 - x0 - 48)
        return
    room = x1 - x0 - 24
    for size in (64, 60, 56, 52, 48, 44):
        gap = 22 if size >= 56 else 14
        total = sum(_group_width(f, n, size) for f, n, _ in groups) + gap * (len(groups) - 1)
        if total <= room:
            break
    x = x0 + 12 + (room - total) / 2
    top = y0 + 38 + (64 - size) / 2
    for face, n, selected in groups:
        w = _group_width(face, n, size)
        dice_w = n * size + (n - 1) * 6
        dx = x + (w - dice_w) / 2
        sprite = die_sprite(face, size, selected)
        for k in range(n):
            _paste(img, sprite, dx + k * (size + 6), top)
        label_y = y0 + 38 + 64 + 8
        text(d, (x + w / 2, label_y), FACE_NAME[face], SMALL, HIGHLIGHT if selected else TEXT, anchor="mt",
             bold=selected)
        x += w + gap


def _small_zone(img: Image.Image, d: ImageDraw.ImageDraw, box, title: str, dice: list[str | None],
                note: str | None, note_colour=MUTED, compact: bool = False, scored: bool = False) -> None:
    """A zone's dice under its title and count, its hint under them (``compact``: no hint, but the points at
    risk in the scored zone's title line instead of its count)."""
    x0, y0, x1, y1 = box
    n = len(dice)
    right = str(n) if not scored else f"{n} x 42"
    if compact and scored and note:
        right, note = note, None
    panel(d, box, title, right=right)
    if not dice:
        text(d, (x0 + 12, y0 + 42), _("none"), BODY, MUTED)
    size = 34
    room = x1 - x0 - 24 - size
    step = min(size + 6, room / max(n - 1, 1))
    for k, face in enumerate(dice):
        _paste(img, die_sprite(face, size), x0 + 12 + k * step, y0 + 38)
    if note and not compact:
        text(d, (x0 + 12, y1 - 12), note, SMALL, note_colour, anchor="ls", max_width=x1 - x0 - 24)


# --- the scoreboard ------------------------------------------------------------------------------------
def _scores_height(players: int) -> int:
    return SCORES_HEAD[players > 4] + ROW_H[players > 4] * players + 8


def _scoreboard(d: ImageDraw.ImageDraw, view: dict, names: list[str], top: int, winners: list[int]) -> None:
    players, limit = view["players"], view["turn_limit"]
    over = view["phase"] == "over"
    row_h = ROW_H[players > 4]
    box = (MARGIN, top, WIDTH - MARGIN, top + _scores_height(players))
    panel(d, box, _("SCORES"))
    total_x = WIDTH - MARGIN - 52
    colw = min(58, 420 // max(limit, 1))
    col0 = total_x - 56 - colw * limit
    for t in range(limit):
        text(d, (col0 + t * colw + colw / 2, top + 8), pgettext("a turn's column", "T{n}", n=t + 1), SMALL, MUTED,
             anchor="ma")
    text(d, (total_x, top + 8), _("TOTAL"), SMALL, MUTED, anchor="ma", bold=True)
    size = SMALL if players > 4 else BODY
    for seat in range(players):
        y = top + SCORES_HEAD[players > 4] - 2 + seat * row_h
        cy = y + row_h / 2
        current = seat == view["current"] and not over
        player_row(d, (MARGIN + 4, y + 1, WIDTH - MARGIN - 4, y + row_h - 1), seat, names[seat],
                   name_width=col0 - MARGIN - 12, current=current, gone=view["left"][seat], size=size,
                   computer=played_by_computer(view, seat))
        for t, pts in enumerate(view["scores"][seat]):
            text(d, (col0 + t * colw + colw / 2, cy), str(pts), size, TEXT if pts else MUTED, anchor="mm")
        win = over and seat in winners
        text(d, (total_x, cy), str(view["totals"][seat]), size + 4, HIGHLIGHT if win else TEXT, anchor="mm",
             bold=True)
        if win:
            star(d, (total_x - 40, cy), 11)


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
    room = WIDTH - 2 * MARGIN - 64 - font(STATUS).getlength(here(_("{player}: {task}", player="", task=need)))
    return _("{player}: {task}", player=fit_name(names[cur], STATUS, room), task=need)


def _height(view: dict) -> int:
    """At most 600 (1-8 players): Discord shows the board at 400 x 300 at most, half size. No footer: the message
    above the board says the last move. The same all game long, the end too (it shows the last turn's dice), so a
    replay's frames are all the final board's size (render/replay.py)."""
    compact = view["players"] > 4
    body = ACTIVE_H[compact] + GAP + ZONES_H[compact] + GAP + _scores_height(view["players"])
    return HEADER_H + GAP + body + GAP


def draw_board(view: dict, names: list[str], last: str | None = None, focus: dict | None = None) -> Image.Image:
    """The public board. ``focus`` is unused: every Geek Out choice already shows (the gold-framed die)."""
    over = view["phase"] == "over"
    height = _height(view)
    img, d = canvas(height)
    winners = winners_of(view) if over else []
    if over:
        best = view["totals"][winners[0]] if winners else 0

        def banner(who: str) -> Text:
            if view["players"] == 1:
                return _("{player} scores {points}", player=who, points=_points(best))
            return ngettext("{players} wins with {points}!", "{players} win with {points}!", len(winners),
                            players=who, points=_points(best))

        who = join_fit([names[s] for s in winners], STATUS, WIDTH - 120 - font(STATUS).getlength(here(banner(""))))
        header(d, TITLE, banner(who), right=_("Game over"), winner=True)
    else:
        cur = view["current"]
        turn = min(view["turns"][cur] + 1, view["turn_limit"])
        header(d, TITLE, _status(view, names), right=_("Turn {turn} of {turns}", turn=turn, turns=view["turn_limit"]),
               seat=cur)
    y = HEADER_H + GAP
    compact = view["players"] > 4
    # the dice as the last turn left them at the end (without the hints of a turn in play)
    _active_zone(img, d, view, (MARGIN, y, WIDTH - MARGIN, y + ACTIVE_H[compact]))
    y += ACTIVE_H[compact] + GAP
    zone = {z: [die["face"] for die in view["dice"] if die["zone"] == z] for z in ("inactive", "used", "scored")}
    w = (WIDTH - 2 * MARGIN - 2 * GAP) / 3
    boxes = [(MARGIN + k * (w + GAP), y, MARGIN + k * (w + GAP) + w, y + ZONES_H[compact]) for k in range(3)]
    _small_zone(img, d, boxes[0], _("INACTIVE"), [None] * len(zone["inactive"]),
                None if over else _("a Heart brings one in"), compact=compact)
    _small_zone(img, d, boxes[1], _("USED"), zone["used"], None if over else _("Continue rolls them"),
                compact=compact)
    risk = view["at_risk_points"]
    _small_zone(img, d, boxes[2], _("SCORED"), zone["scored"],
                ngettext("{n} pt at risk", "{n} pts at risk", risk) if zone["scored"] and not over else None,
                HIGHLIGHT, compact=compact, scored=True)
    y += ZONES_H[compact] + GAP
    _scoreboard(d, view, names, y, winners)
    return img


draw = draw_board
"""The old name (benchmarks/__main__.py draws with it)."""


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
