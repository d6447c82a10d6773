"""The public board: a block per player (or the solo puzzle), the header's status and the end banner."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from games.globe_twister.puzzle import (
    RED,
    SHORT_NAMES,
)
from i18n import _, here, ngettext, pgettext
from render.common import (
    BODY,
    COMPUTER_MARK_W,
    FOOTER_H,
    HEADER_H,
    HIGHLIGHT,
    LARGE,
    MARGIN,
    MUTED,
    SKY,
    SMALL,
    STATUS,
    TEXT,
    WIDTH,
    canvas,
    font,
    footer,
    header,
    join_fit,
    join_names,
    name_room,
    panel,
    played_by_computer,
    player_row,
    star,
    text,
    wrap_text,
)
from render.globe_twister.pieces import (
    CELL_FILL,
    GONE,
    TILE_BACK,
    TITLE,
    card_chip,
    draw_frame,
    draw_puzzle,
    frame_size,
    hourglass,
    padlock,
    photo_name_lines,
    puzzle_size,
    thumbnail,
)


def _turns(n: int) -> str:
    return ngettext("{n} turn", "{n} turns", n)


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n)


# --- the view, in words -------------------------------------------------------------------------------------
def _level(view: dict) -> tuple[str, int]:
    """The solo level's name (in the drawing's language) without its stars, and how many stars (drawn, the font
    has none)."""
    solo = view.get("solo") or {}
    name = here(solo.get("level_name") or _("Practice"))
    return name.replace("★", "").strip(), name.count("★")


def _par(par: dict | None) -> str:
    if not par:
        return ""
    return _("par {turns}, {cards}", turns=_turns(par["turns"]), cards=_cards(par["cards"]))


def winners_of(view: dict) -> list[int]:
    if view.get("winners") is not None:
        return list(view["winners"])
    wins = view.get("wins") or []
    if not wins or max(wins) == 0:
        return []
    best = max(w for s, w in enumerate(wins) if not view["left"][s])
    return [s for s, w in enumerate(wins) if w == best and not view["left"][s]]


def _winning_seats(view: dict) -> list[int]:
    """Who won: the engine's winners (nobody when no photo was rebuilt, solo: the puzzle stays unsolved)."""
    if view.get("solo") is not None and view.get("winners") is None:
        return [0] if view["solo"].get("solved") else []
    return winners_of(view)


def _winner_text(view: dict, names: list[str]) -> str:
    solo = view.get("solo")
    if solo is not None:
        if not solo.get("solved"):
            return _("Not rebuilt: nobody won")
        return _("Rebuilt in {turns} with {cards}!", turns=_turns(solo["turns"]), cards=_cards(solo["cards"]))
    seats = _winning_seats(view)
    if not seats:
        return _("Nobody rebuilt a photo: nobody won")

    def said(who: str) -> str:
        if view["rounds"] > 1:
            wins = view["wins"][seats[0]]
            if len(seats) == 1:
                return ngettext("{names} wins with {n} round!", "{names} wins with {n} rounds!", wins, names=who)
            return ngettext("{names} tie with {n} round!", "{names} tie with {n} rounds!", wins, names=who)
        return _("{names} wins!", names=who) if len(seats) == 1 else _("{names} tie!", names=who)

    room = WIDTH - 120 - font(STATUS).getlength(here(said("")))
    return said(join_fit([names[s] for s in seats], STATUS, room))


def _status(view: dict, names: list[str]) -> str:
    phase = view["phase"]
    if phase == "program" and shown_run(view) is not None:
        played = view["last_run"]["turn"]
        if view["players"] > 1:
            return _("Turn {played} played, nobody rebuilt: program turn {turn}", played=played, turn=view["turn"])
        return _("Turn {played} played: program turn {turn}, then lock in", played=played, turn=view["turn"])
    to_act = view["to_act"]
    n = view["players"]
    if phase == "side":
        if len(to_act) <= 2:
            who = _("{names}: choose the polar front or your region's back",
                    names=join_names([here(names[s]) for s in to_act]))
            if font(STATUS).getlength(here(who)) <= WIDTH - 2 * MARGIN - 20:
                return who
            return _("Choose the polar front or your region's back")
        return _("Choose a side: the polar front or your region's back")
    solo = view.get("solo") is not None
    locked = [s for s in view["active"] if view["locked"][s] and not view["left"][s]]
    if view.get("timer"):
        secs = round(view["timer"]["seconds"])
        still = len(to_act)
        return _("Sand timer running ({seconds} s): {n} still programming", seconds=secs, n=still)
    if solo:
        return _("Program your cards, then lock in")
    if view.get("decider"):
        room = WIDTH - 2 * MARGIN - 20 - font(STATUS).getlength(here(_("{names} play again: program, then lock in",
                                                                       names="")))
        return _("{names} play again: program, then lock in",
                 names=join_fit([names[s] for s in view["active"]], STATUS, room))
    if not locked:
        return _("Everyone: program, then lock in") if not view.get("no_timer") else \
            _("Everyone: program; the first lock-in stops all")
    return _("{locked} of {n} locked in", locked=len(locked), n=n)


def _right_note(view: dict) -> str:
    solo = view.get("solo")
    turn = view.get("turn") or 1
    if solo is not None:
        name = _level(view)[0]
        if solo.get("number"):
            return _("{level} #{number} - turn {turn}", level=name, number=solo["number"], turn=turn)
        return _("{level} - turn {turn}", level=name, turn=turn)
    if view["rounds"] > 1:
        if view["phase"] == "side":
            return _("Round {round} of {rounds}", round=view["round"], rounds=view["rounds"])
        return _("Round {round} of {rounds}, turn {turn}", round=view["round"], rounds=view["rounds"], turn=turn)
    return _("Turn {turn}", turn=turn) if view["phase"] != "side" else ""


def shown_run(view: dict) -> dict | None:
    """The last stage C, {seat: run}, when the board should show it: the game is over, or nobody has locked in
    since it ran and the puzzles are still as it left them (not a new round's scramble)."""
    last = view.get("last_run")
    if not last:
        return None
    runs = {r["seat"]: r for r in last["runs"]}
    if view["phase"] == "over":
        return runs
    if view["phase"] != "program" or any(view["locked"]):
        return None
    puzzles = view["puzzles"]
    if all(puzzles[s] is not None and [list(p) for p in puzzles[s]] == [list(p) for p in r["after"]]
           for s, r in runs.items()):
        return runs
    return None


# --- the board ----------------------------------------------------------------------------------------------
LAYOUT = {
    # columns, rows, where a block's details go; stage B: puzzle tile, photo size; a run: puzzle after, frame
    # cell, puzzle before
    2: {"cols": 2, "rows": 1, "mode": "below", "t": 82, "thumb": 96, "rt": 62, "c": 34, "tb": 30},
    3: {"cols": 3, "rows": 1, "mode": "below", "t": 78, "thumb": 90, "rt": 64, "c": 32, "tb": 32},
    4: {"cols": 2, "rows": 2, "mode": "right", "t": 50, "thumb": 70, "rt": 50, "c": 34, "tb": 22},
    5: {"cols": 3, "rows": 2, "mode": "right", "t": 46, "thumb": 62, "rt": 46, "c": 0, "tb": 22},
}
"""Per player count (1 is the solo layout). Every block fits the 800 px width and the board at most 600 tall
(4:3: Discord shows it within 400 x 300, at half size). ``c`` 0: no room for the program's frame after a run
(the run's animation just above shows it), only the puzzle before."""
BOARD_H = 600
NAME_H = 46
"""A block's name row and the gap under it."""


def _block_height(n: int, run: bool) -> int:
    p = LAYOUT[n]
    if p["mode"] == "right":
        return (BOARD_H - HEADER_H - FOOTER_H - 16 - (p["rows"] - 1) * 8) // p["rows"]
    if run:
        return NAME_H + puzzle_size(p["rt"]) + 12 + 26 + max(frame_size(p["c"], 3), puzzle_size(p["tb"])) + 38
    return NAME_H + puzzle_size(p["t"]) + 12 + p["thumb"] + 12


SOLO_H = BOARD_H - HEADER_H - FOOTER_H - 16


def board_height(view: dict) -> int:
    n = view["players"]
    if n == 1:
        return HEADER_H + 8 + (290 if view["phase"] == "side" else SOLO_H) + 8 + FOOTER_H
    p = LAYOUT[min(n, 5)]
    h = _block_height(min(n, 5), shown_run(view) is not None)
    return HEADER_H + 8 + p["rows"] * h + (p["rows"] - 1) * 8 + 8 + FOOTER_H


def _red_chips(d: ImageDraw.ImageDraw, view: dict, seat: int, x: float, cy: float, *, h: int = 28,
               room: float | None = None) -> float:
    """The red cards the seat still holds (R1, R2), a crossed-out grey chip for each one played, within ``room``
    px when given. Returns the right edge."""
    hand = view["hands"][seat]
    reds = [c for c in RED]
    if not any(c in hand for c in reds) and view.get("solo") is not None and not view["solo"].get("red"):
        none = _("no red cards")
        text(d, (x, cy), none, SMALL, MUTED, anchor="lm")
        return x + font(SMALL).getlength(here(none))
    w = 44 if room is None else min(44, (room - 6) / 2)
    for card in reds:
        box = (x, cy - h / 2, x + w, cy + h / 2)
        if card in hand:
            card_chip(d, box, card, size=SMALL, icon=False)
        else:
            d.rounded_rectangle(box, radius=5, fill=CELL_FILL, outline=GONE, width=2)
            text(d, ((box[0] + box[2]) / 2, cy), SHORT_NAMES[card], SMALL, GONE, anchor="mm")
            d.line([(box[0] + 4, box[3] - 4), (box[2] - 4, box[1] + 4)], fill=GONE, width=3)
        x += w + 6
    return x


def _seat_status(view: dict, seat: int, run: dict | None) -> tuple[str, tuple]:
    """The word on a player's row: locked in, programming, rebuilt, left, watching."""
    if view["left"][seat]:
        return "", MUTED
    if view["phase"] == "side":
        side = view["photos"][seat]["side"]
        if side is None:
            return _("choosing a side"), HIGHLIGHT
        return (_("took the front") if side == "front" else _("took the back")), TEXT
    if seat not in view["active"]:
        return _("watching"), MUTED
    if view["phase"] == "over":
        if seat in _winning_seats(view):
            return pgettext("status", "wins"), HIGHLIGHT
        return (_("rebuilt"), TEXT) if view["solved"][seat] else ("", MUTED)
    if run is not None and run.get("solved"):
        return _("rebuilt!"), HIGHLIGHT
    if view["locked"][seat]:
        return _("locked in"), SKY
    return _("programming"), HIGHLIGHT


def _name_row(d: ImageDraw.ImageDraw, view: dict, names: list[str], seat: int, box, run: dict | None) -> None:
    """The shared player row (turn arrow and gold frame while they program), then on the right how they stand:
    "programming", "locked in" (a padlock; the sand timer too for who turned it), "rebuilt!", "wins" (a star),
    "watching", "(left)"; the word left out where it would clip the name below ``name_room``."""
    x0, y0, x1, y1 = box
    word, colour = _seat_status(view, seat, run)
    cy = (y0 + y1) / 2
    icons = []
    if word == "locked in":
        icons.append("lock")
        if view.get("starter") == seat:
            icons.append("timer")
    elif word in ("rebuilt!", "wins"):
        icons.append("star")
    word_w = font(SMALL).getlength(here(word)) + 2 if word else 0
    right = x1 - 8 - word_w - 26 * len(icons)
    least = name_room(names[seat], SMALL) + (COMPUTER_MARK_W if played_by_computer(view, seat) else 0)
    if word and right - x0 - 8 - 52 < least:
        # a narrow column: the name keeps its room; the icons, the gold frame and turn arrow, the header (who
        # plays, who wins) or the sides drawn under it say what the word would
        word, word_w = "", 0
        right = x1 - 8 - 26 * len(icons)
    player_row(d, (x0, y0, x1, y1), seat, names[seat], name_width=right - x0 - 8, current=seat in view["to_act"],
               gone=view["left"][seat], computer=played_by_computer(view, seat))
    if word:
        text(d, (x1 - 8, cy), word, SMALL, colour, anchor="rm", bold=True)
    x = x1 - 8 - word_w
    for icon in icons:
        if icon == "lock":
            padlock(d, (x - 13, cy + 1), 9, SKY)
        elif icon == "timer":
            hourglass(d, (x - 13, cy), 10, SKY, HIGHLIGHT)
        else:
            star(d, (x - 13, cy), 11)
        x -= 26


def _run_words(run: dict) -> str:
    k = run["cards"]
    return ngettext("{n} card played", "{n} cards played", k) if k else _("no card played")


def _block(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, names: list[str], seat: int, box,
           run: dict | None, winners: list[int]) -> None:
    """One player: the name row, the puzzle, and beside or under it the photo to rebuild and the red cards (stage
    B) or the program played and the puzzle before it (after a stage C)."""
    x0, y0, x1, y1 = box
    n = min(view["players"], 5)
    p = LAYOUT[n]
    panel(d, box)
    _name_row(d, view, names, seat, (x0 + 4, y0 + 4, x1 - 4, y0 + 38), run)
    photo = view["photos"][seat]["photo"]
    pairs = run["after"] if run is not None else view["puzzles"][seat]
    solved = bool(run["solved"]) if run is not None else bool(view["solved"][seat])
    top = y0 + NAME_H
    t = p["rt"] if run is not None else p["t"]
    size = puzzle_size(t)
    if p["mode"] == "below":
        px = (x0 + x1 - size) / 2
        draw_puzzle(img, d, (px, top), t, photo, pairs, solved=solved)
        y = top + size + 12
        if run is not None:
            fw, bw = frame_size(p["c"], 3), puzzle_size(p["tb"])
            space = (x1 - x0 - fw - bw) / 3
            fx, bx = x0 + space, x0 + 2 * space + fw
            text(d, (fx + fw / 2, y), pgettext("label", "program"), SMALL, MUTED, anchor="ma")
            text(d, (bx + bw / 2, y), pgettext("label", "before"), SMALL, MUTED, anchor="ma")
            y += 26
            draw_frame(d, (fx, y), p["c"], run["program"], numbers=False, size=SMALL, gap=3)
            draw_puzzle(img, d, (bx, y + 2), p["tb"], photo, run["before"])
            y += max(fw, bw) + 8
            text(d, ((x0 + x1) / 2, y), _run_words(run), SMALL, TEXT, anchor="ma")
            return
        th = p["thumb"]
        thumbnail(img, d, (x0 + 14, y + 2), th, photo)
        tx = x0 + 14 + th + 14
        _details(d, view, seat, tx, y, x1 - 8)
        return
    # "right": the puzzle on the left, the rest in a column beside it
    body = y1 - top - 8
    py = top + (body - size) / 2
    px = x0 + 12
    draw_puzzle(img, d, (px, py), t, photo, pairs, solved=solved)
    cx0, cx1 = px + size + 16, x1 - 10
    y = top - 4
    if run is not None:  # the program (when there is room) and the puzzle before it, side by side
        bw = puzzle_size(p["tb"])
        bx = cx0
        if p["c"]:
            text(d, (cx0, y), pgettext("label", "program"), SMALL, MUTED)
            draw_frame(d, (cx0, y + 24), p["c"], run["program"], numbers=False, size=SMALL, gap=3)
            bx = cx0 + frame_size(p["c"], 3) + 12
        text(d, (bx, y), pgettext("label", "before"), SMALL, MUTED)
        draw_puzzle(img, d, (bx + 2, y + 26), p["tb"], photo, run["before"])
        text(d, (bx, y + 26 + bw + 8), _cards(run["cards"]), SMALL, TEXT, max_width=cx1 - bx)
        return
    th = p["thumb"]
    narrow = cx1 - cx0 - th - 14 < 100
    name = here(view["photos"][seat]["name"])
    if narrow and view["rounds"] > 1 and len(photo_name_lines(photo, name, SMALL, cx1 - cx0 - 2)) > 1:
        th -= 24  # the name on two lines: a smaller photo leaves room for the round wins under it
    thumbnail(img, d, (cx0 + 2, y + 6), th, photo)
    if narrow:  # a narrow column: the details under the photo
        _details(d, view, seat, cx0, y + th + 14, cx1, compact=True)
    else:  # beside it
        _details(d, view, seat, cx0 + th + 14, y + 2, cx1, compact=True)


def _details(d: ImageDraw.ImageDraw, view: dict, seat: int, x: float, y: float, x1: float, *,
             compact: bool = False) -> None:
    """The photo's name, the red cards left, round wins, who turned the timer."""
    if not compact and view["rounds"] > 1:
        y += 2  # the round wins take the place of the "rebuild" label: both would not fit beside the photo
    elif not compact:
        text(d, (x, y), pgettext("label", "rebuild"), SMALL, MUTED)
        y += 24
    name = here(view["photos"][seat]["name"])
    size = BODY if not compact and font(BODY).getlength(name) + 2 <= x1 - x else SMALL
    for line in photo_name_lines(view["photos"][seat]["photo"], name, size, x1 - x - 2):  # a narrow column
        text(d, (x, y), line, size, TEXT, bold=True)
        y += 24 if size == SMALL else 28
    y += 2
    _red_chips(d, view, seat, x, y + 16, room=x1 - x)
    y += 40
    if view["rounds"] > 1:
        wins = view["wins"][seat]
        said = _("wins: {n}", n=wins) if compact else ngettext("{n} round won", "{n} rounds won", wins)
        if font(SMALL).getlength(here(said)) > x1 - x:  # a narrow column: a star and the number
            star(d, (x + 10, y + 12), 10)
            text(d, (x + 26, y), str(wins), SMALL, TEXT, bold=True)
        else:
            text(d, (x, y), said, SMALL, TEXT)


def _key(d: ImageDraw.ImageDraw, view: dict, box) -> None:
    """How a turn works, in three lines, with a card of each colour."""
    x0, y0, x1, y1 = box
    panel(d, box, _("HOW A TURN WORKS"))
    y = y0 + 40
    how = _("Cells run 1 to 9; the first lock-in stops all.") if view.get("no_timer") else \
        _("Cells run 1 to 9; the first lock-in turns the {seconds} s timer.", seconds=view.get("timer_seconds", 30))
    lines = wrap_text(how, SMALL, x1 - x0 - 28, lines=3)
    step = min(34, (y1 - 8 - y - 24 * len(lines)) / 3)  # three lines of words need the rows closer
    for card, words in (("g1", _("turn a tile")), ("b1", _("move tiles")), ("r1", _("send a tile home"))):
        card_chip(d, (x0 + 14, y, x0 + 62, y + 28), card, size=SMALL, icon=False)
        text(d, (x0 + 74, y + 14), words, SMALL, TEXT, anchor="lm", max_width=x1 - x0 - 84)
        y += step
    for line in lines:
        text(d, (x0 + 14, y), line, SMALL, MUTED)
        y += 24


def globe(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, fill, ink) -> None:
    """A globe with meridians and parallels: the back of a photo (a region's fisheye, not known before it is
    chosen)."""
    cx, cy = centre
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=ink, width=3)
    for k in (0.35, 0.75):
        d.ellipse((cx - r * k, cy - r, cx + r * k, cy + r), outline=ink, width=2)
    d.line([(cx, cy - r), (cx, cy + r)], fill=ink, width=2)
    for k in (-0.5, 0, 0.5):
        half = r * math.sqrt(1 - k * k)
        d.line([(cx - half, cy + k * r), (cx + half, cy + k * r)], fill=ink, width=2)


def _side_block(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, names: list[str], seat: int, box) -> None:
    """A player choosing a side (The Shock of Experience): the polar front or their set's back; the one they took
    in gold."""
    x0, y0, x1, y1 = box
    panel(d, box)
    _name_row(d, view, names, seat, (x0 + 4, y0 + 4, x1 - 4, y0 + 38), None)
    side = view["photos"][seat]["side"]
    size = int(min((x1 - x0 - 48) / 2, y1 - y0 - NAME_H - 66, 170))
    _side_options(img, d, (x0, y0 + NAME_H + 6, x1), size, side)


def _side_options(img: Image.Image, d: ImageDraw.ImageDraw, where: tuple[float, float, float], size: int,
                  side: str | None) -> None:
    """The two sides side by side, ``size`` px each, named under them; the one taken framed in gold."""
    x0, y, x1 = where
    gap = (x1 - x0 - 2 * size) / 3
    for k, (which, label) in enumerate((("front", (pgettext("side", "front"), _("Polar region"))),
                                        ("back", (pgettext("side", "back"), _("your region"))))):
        x = x0 + gap + k * (size + gap)
        if which == "front":
            thumbnail(img, d, (x, y), size, "polar")
        else:
            d.rectangle((x - 3, y - 3, x + size + 2, y + size + 2), fill=TILE_BACK)
            d.rectangle((x, y, x + size - 1, y + size - 1), fill=CELL_FILL)
            globe(d, (x + size / 2, y + size / 2), size * 0.36, (40, 70, 100), MUTED)
        if side == which:
            d.rectangle((x - 6, y - 6, x + size + 5, y + size + 5), outline=HIGHLIGHT, width=4)
        for j, line in enumerate(label):
            text(d, (x + size / 2, y + size + 10 + 24 * j), line, SMALL, HIGHLIGHT if side == which else TEXT,
                 anchor="ma", bold=j == 0, max_width=size + gap - 8)


def _solo_block(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, names: list[str], box,
                run: dict | None) -> None:
    """One player alone: the puzzle big, the photo to rebuild, the level and par, the cards (or the last turn's
    program and the puzzle before it)."""
    x0, y0, x1, y1 = box
    seat = 0
    solo = view["solo"]
    photo = view["photos"][seat]["photo"]
    pairs = run["after"] if run is not None else view["puzzles"][seat]
    solved = bool(run["solved"]) if run is not None else bool(view["solved"][seat])
    t = 134
    size = puzzle_size(t)
    px, py = x0 + 8, y0 + (y1 - y0 - size) / 2
    draw_puzzle(img, d, (px, py), t, photo, pairs, solved=solved)
    cx0, cx1 = px + size + 24, x1
    panel(d, (cx0, y0, cx1, y1))
    x = cx0 + 14
    y = y0 + 12
    name, stars = _level(view)
    text(d, (x, y), name, LARGE, TEXT, bold=True)
    sx = x + font(LARGE).getlength(name) + 18
    for k in range(stars):
        star(d, (sx + k * 24, y + 14), 10)
    y += 36
    lines = []
    if solo.get("number"):
        lines.append(_("puzzle {number} of the level", number=solo["number"]))
    if solo.get("par"):
        lines.append(_par(solo["par"]))
    lines.append(_("red cards allowed") if solo.get("red") else _("red cards not allowed"))
    lines.append(_("any turn of the photo counts"))
    for line in lines:
        text(d, (x, y), line, SMALL, TEXT, max_width=cx1 - x - 12)
        y += 26
    over = view["phase"] == "over"
    counts = {"turns": _turns(solo["turns"]), "cards": _cards(solo["cards"]),
              "hints": ngettext("{n} hint", "{n} hints", solo.get("hints_used") or 0)}
    if solo.get("hints_used"):
        played = _("played: {turns}, {cards}, {hints}", **counts) if over else \
            _("so far: {turns}, {cards}, {hints}", **counts)
    else:
        played = _("played: {turns}, {cards}", **counts) if over else _("so far: {turns}, {cards}", **counts)
    text(d, (x, y), played, SMALL, TEXT if over else MUTED, max_width=cx1 - x - 12)
    y += 26
    par = solo.get("par")
    if over and solo.get("solved") and par:
        made = solo["turns"] <= par["turns"] and solo["cards"] <= par["cards"]
        if made:
            star(d, (x + 9, y + 11), 9)
        text(d, (x + (24 if made else 0), y), _("within par!") if made else _("over par"), SMALL,
             HIGHLIGHT if made else TEXT, bold=made)
        y += 26
    y += 8
    if run is not None:
        c, tb = 44, 44
        text(d, (x, y), _("last program"), SMALL, MUTED)
        bx = x + frame_size(c, 3) + 24
        text(d, (bx, y), _("before it"), SMALL, MUTED)
        draw_frame(d, (x, y + 26), c, run["program"], numbers=False, size=SMALL, gap=3)
        draw_puzzle(img, d, (bx + 2, y + 28), tb, photo, run["before"])
        y += 26 + max(frame_size(c, 3), puzzle_size(tb)) + 10
        text(d, (x, y), _("{played}: rebuilt!", played=_run_words(run)) if run["solved"] else _run_words(run), SMALL,
             HIGHLIGHT if run["solved"] else TEXT)
        return
    th = 150
    text(d, (x, y), pgettext("label", "rebuild"), SMALL, MUTED)
    thumbnail(img, d, (x + 2, y + 28), th, photo)
    tx = x + th + 20
    text(d, (tx, y + 28), view["photos"][seat]["name"], BODY, TEXT, bold=True, max_width=cx1 - tx - 10)
    if view["locked"][seat]:
        padlock(d, (tx + 9, y + 72), 9, SKY)
        text(d, (tx + 26, y + 72), _("locked in"), SMALL, SKY, anchor="lm", bold=True)
    _red_chips(d, view, seat, tx, y + 108)


def draw_board(view: dict, names: list[str], last: str | None = None, focus: dict | None = None) -> Image.Image:
    """The public board: each player's puzzle and how they stand (stage B), or each program just run with the
    puzzle before and after (after a stage C, until someone locks in), or the end. ``focus`` is not used."""
    img, d = canvas(board_height(view))
    n = view["players"]
    over = view["phase"] == "over"
    winners = _winning_seats(view) if over else []
    if over:  # the gold banner only when someone won
        header(d, TITLE, _winner_text(view, names), right=_("Game over"), winner=bool(_winning_seats(view)))
    else:
        header(d, TITLE, _status(view, names), right=_right_note(view), seat=None)
    runs = shown_run(view) or {}
    top = HEADER_H + 8
    bottom = img.height - FOOTER_H - 8
    if view["phase"] == "side" and n == 1:
        _side_block(img, d, view, names, 0, (MARGIN, top, WIDTH - MARGIN, bottom))
    elif n == 1:
        _solo_block(img, d, view, names, (MARGIN, top, WIDTH - MARGIN, bottom), runs.get(0))
    else:
        p = LAYOUT[min(n, 5)]
        cols = p["cols"]
        h = _block_height(min(n, 5), bool(runs))
        w = (WIDTH - 2 * MARGIN - (cols - 1) * 8) / cols
        for seat in range(n):
            r, c = divmod(seat, cols)
            x = MARGIN + c * (w + 8)
            y = top + r * (h + 8)
            if view["phase"] == "side":
                _side_block(img, d, view, names, seat, (x, y, x + w, y + h))
            else:
                _block(img, d, view, names, seat, (x, y, x + w, y + h), runs.get(seat), winners)
        if n % cols:  # an empty place in the last row: a key for new players
            x = MARGIN + (n % cols) * (w + 8)
            y = top + (n // cols) * (h + 8)
            _key(d, view, (x, y, WIDTH - MARGIN, y + h))
    footer(d, last, height=img.height)
    return img
