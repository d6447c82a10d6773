"""A program's run as an animated GIF (``draw_card``)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageChops, ImageDraw

from games.globe_twister.puzzle import (
    DIR_NAMES,
    DIRECTIONS,
    RED,
    SHORT_NAMES,
    TURN,
    move_of,
)
from i18n import _, here, ngettext, pgettext
from render.common import (
    BAR,
    BLACK,
    HIGHLIGHT,
    MARGIN,
    MUTED,
    P_BODY,
    P_LARGE,
    P_SMALL,
    PANEL,
    PANEL_EDGE,
    PHONE_CANVAS,
    SKY,
    TEXT,
    WHITE,
    canvas,
    computer_mark,
    fit_name,
    font,
    seat_mark,
    star,
    text,
    wrap_text,
)
from render.globe_twister.pieces import (
    CARD_DIM,
    CARD_FILL,
    CARD_WORDS,
    CELL_FILL,
    GOLD_CELL,
    arrow_between,
    card_chip,
    cell_centre,
    draw_frame,
    draw_puzzle,
    frame_size,
    puzzle_size,
    thumbnail,
    turn_icon,
)

# --- the run, animated --------------------------------------------------------------------------------------
GIF_W = 600
GIF_T = 92
"""A single run's tiles (37 px on the phone); the frame's cells ``GIF_C``."""
GIF_C = 62
STEP_MS = 900
DONE_MS = 700
FIRST_MS = 1600
LAST_MS = 3500


def _moved_to(cell: int, card: str, direction: str | None, before: Sequence[Sequence[int]]) -> int | None:
    """Where the card sends the tile in ``cell`` (None: it stays, turning or doing nothing)."""
    if card in RED:
        home = before[cell][0]
        return None if home == cell else home
    perm = move_of(cell, card, direction)
    if perm is None:
        return None
    return perm.index(cell)


def _changed(a: Sequence[Sequence[int]], b: Sequence[Sequence[int]]) -> list[int]:
    return [i for i in range(9) if list(a[i]) != list(b[i])]


CAPTION_H = 3 * 32 + 16
"""The caption band under a single run's puzzle: up to three lines at ``P_SMALL`` (German)."""


def _gif_frame(card: dict, pairs, *, title: str, caption: str, active: int | None = None,
               done: Sequence[int] = (), marks: dict | None = None, move: tuple | None = None,
               turn: tuple | None = None, result: str | None = None) -> Image.Image:
    """One frame of a single program's run, drawn for the phone: the title bar, the puzzle, the frame and the
    photo to rebuild beside it, the caption under them."""
    head = 60
    height = head + 12 + puzzle_size(GIF_T) + 14 + CAPTION_H
    img, d = canvas(height, GIF_W)
    d.rectangle((0, 0, GIF_W, head - 1), fill=BAR)
    seat = card.get("seat")
    x = MARGIN + 4
    if seat is not None:
        seat_mark(d, (x + 14, head / 2), seat, 14)
        x += 38
    turn_no = card.get("turn")
    right_w = text(d, (GIF_W - MARGIN - 4, head / 2), _("turn {turn}", turn=turn_no), P_SMALL, MUTED,
                   anchor="rm") + 16 if turn_no else 0
    text(d, (x, head / 2), title, P_BODY, TEXT, anchor="lm", bold=True, max_width=GIF_W - MARGIN - x - right_w)
    px, py = MARGIN + 2, head + 12
    photo = card["photo"]
    draw_puzzle(img, d, (px, py), GIF_T, photo, pairs, solved=result == "rebuilt", marks=marks)
    if move is not None:
        a, b, double = move
        arrow_between(d, cell_centre((px, py), GIF_T, a), cell_centre((px, py), GIF_T, b), HIGHLIGHT, width=7,
                      head=22, double=double, outline=BLACK)
    if turn is not None:
        cell, which = turn
        cx, cy = cell_centre((px, py), GIF_T, cell)
        d.ellipse((cx - 30, cy - 30, cx + 30, cy + 30), fill=BLACK)
        turn_icon(d, (cx, cy), which, 18, HIGHLIGHT)
    fx = px + puzzle_size(GIF_T) + 20
    text(d, (fx, py - 6), pgettext("label", "program"), P_SMALL, MUTED)
    draw_frame(d, (fx, py + 30), GIF_C, card["program"], active=active, done=done, numbers=False, size=P_BODY,
               gap=4)
    tx = fx + frame_size(GIF_C) + 12
    th = GIF_W - MARGIN - 2 - tx
    if th >= 60:  # the photo to rebuild, small, beside the frame
        thumbnail(img, d, (tx, py + 32), th, photo)
    # the caption under it all
    cy0 = height - CAPTION_H
    d.rectangle((0, cy0, GIF_W, height), fill=HIGHLIGHT if result == "rebuilt" else BAR)
    if result == "rebuilt":
        star(d, (MARGIN + 18, cy0 + CAPTION_H / 2), 14, BLACK)
        text(d, (MARGIN + 42, cy0 + CAPTION_H / 2), caption, P_LARGE, BLACK, anchor="lm", bold=True,
             max_width=GIF_W - MARGIN - 52)
    else:
        lines = wrap_text(caption, P_SMALL, GIF_W - 2 * MARGIN - 8, lines=3)
        top = cy0 + CAPTION_H / 2 - 16 * (len(lines) - 1)
        for k, line in enumerate(lines):
            text(d, (MARGIN + 4, top + 32 * k), line, P_SMALL, TEXT, anchor="lm")
    return img


def _step_words(step: dict, k: int, total: int) -> str:
    cell, card, direction = step["cell"], step["card"], step.get("dir")
    what = CARD_WORDS[card]
    if direction in DIR_NAMES and card in DIRECTIONS:
        what = _("{what} ({direction})", what=what, direction=DIR_NAMES[direction])
    return _("Card {k} of {total}: cell {number}, {card} {what}", k=k, total=total, number=cell + 1,
             card=SHORT_NAMES[card], what=what)


def _done_words(step: dict, before, changed: list[int]) -> str:
    """What a card did, in the past tense."""
    cell, card, direction = step["cell"], step["card"], step.get("dir")
    name = SHORT_NAMES[card]
    if not changed:
        return _("{card}: no effect here, nothing moves (the card is used all the same)", card=name)
    if card == "g1":
        return _("{card}: the tile in cell {number} turned a quarter turn clockwise", card=name, number=cell + 1)
    if card == "g2":
        return _("{card}: the tile in cell {number} turned a quarter turn counter-clockwise", card=name,
                 number=cell + 1)
    if card in TURN:
        return _("{card}: the tile in cell {number} turned a half turn", card=name, number=cell + 1)
    dest = _moved_to(cell, card, direction, before)
    if card in RED:
        if dest is None:
            return _("{card}: the tile was already home; now upright", card=name)
        if card == "r2":
            return _("{card}: the tile went home to cell {number}, upright", card=name, number=dest + 1)
        return _("{card}: the tile went home to cell {number}", card=name, number=dest + 1)
    if card == "b5" and dest is not None:
        return _("{card}: cell {number} moved to cell {to}, the others shifted back", card=name, number=cell + 1,
                 to=dest + 1)
    if dest is not None:
        return _("{card}: cells {number} and {to} swapped", card=name, number=cell + 1, to=dest + 1)
    return _("{card}: done", card=name)


def run_frames(card: dict, title: str | None = None) -> list[tuple[Image.Image, int]]:
    """One program's animation frames (a ``{"kind": "run"}`` card): the puzzle before; for each card, the card
    acting (its cell and card gold, where the tile goes) and what it changed (sky blue); the puzzle after."""
    frames = card.get("frames") or [card["before"]]
    steps = card.get("steps") or []
    total = len(steps)
    title = title or ngettext("The program runs", "The programs run", 1)
    out = [(_gif_frame(card, frames[0], title=title,
                       caption=ngettext("Before: {n} card to play, in reading order",
                                        "Before: {n} cards to play, in reading order", total) if total else
                       _("No card in the frame: nothing moves")), FIRST_MS)]
    done: list[int] = []
    for k, step in enumerate(steps):
        before, after = frames[k], frames[min(k + 1, len(frames) - 1)]
        cell, which, direction = step["cell"], step["card"], step.get("dir")
        words = _step_words(step, k + 1, total)
        move = None
        turn = None
        dest = _moved_to(cell, which, direction, before)
        if which in TURN:
            turn = (cell, which)
        elif dest is not None:
            move = (cell, dest, which not in ("b5",))
        out.append((_gif_frame(card, before, title=title, caption=words, active=cell, done=done,
                               marks={cell: HIGHLIGHT}, move=move, turn=turn), STEP_MS))
        changed = _changed(before, after)
        done.append(cell)
        out.append((_gif_frame(card, after, title=title, caption=_done_words(step, before, changed), done=done,
                               marks={c: SKY for c in changed}), DONE_MS))
    result = "rebuilt" if card.get("solved") else None
    out.append((_gif_frame(card, frames[-1], title=title,
                           caption=_("After: rebuilt!") if result else _("After: not rebuilt yet"), done=done,
                           result=result), LAST_MS))
    return out


# --- every program of a stage, a row each (the channel's one message per run) --------------------------------
RUNS_W = PHONE_CANVAS
"""Drawn for the phone (docs/rendering.md, "Legible on a phone"): 600 px wide, a row per player, every label at
least ``P_SMALL``, every tile at least 52 px (21 px on the phone)."""
RUNS_HEAD = 60
RUNS_T = {1: 76, 2: 60, 3: 60, 4: 52, 5: 52}
"""Players -> the tiles' size (px)."""
RUNS_GAP = 8

_SHORT_ACT = {"g1": _("quarter turn right"), "g2": _("quarter turn left"), "g3": _("half turn"), "b1": _("swap"),
              "b2": _("swap diagonally"), "b3": _("swap corners"), "b4": _("swap edges"), "b5": _("to the line's end"),
              "r1": _("send home"), "r2": _("send home upright")}


def _short_done(step: dict, before, changed: list[int]) -> str:
    cell, card = step["cell"], step["card"]
    if not changed:
        return _("no effect")
    if card in TURN:
        return _("cell {number} turned", number=cell + 1)
    dest = _moved_to(cell, card, step.get("dir"), before)
    if card in RED:
        return _("home to cell {number}", number=dest + 1) if dest is not None else _("turned upright")
    if card == "b5" and dest is not None:
        return _("cell {number} to {to}, line shifted", number=cell + 1, to=dest + 1)
    if dest is not None:
        return _("cells {number} ↔ {to} swapped", number=cell + 1, to=dest + 1)
    return pgettext("card", "done")


def _runs_layout(n: int) -> tuple[list[tuple[int, int, int, int, str, int]], int]:
    """Per block (a row per player): its box, where its words go (always "right" of the puzzle) and the tile
    size; and the image's height (436-1000 px for 1-5 players)."""
    t = RUNS_T[min(max(n, 1), 5)]
    h = puzzle_size(t) + 20
    out = []
    for k in range(n):
        y0 = RUNS_HEAD + RUNS_GAP + k * (h + RUNS_GAP)
        out.append((MARGIN, y0, RUNS_W - MARGIN, y0 + h, "right", t))
    return out, RUNS_HEAD + RUNS_GAP + n * (h + RUNS_GAP)


def _runs_frame(runs: Sequence[dict], names: Sequence[str] | None, turn: int | None, k: int | None,
                phase: str, done: Sequence[Sequence[int]]) -> Image.Image:
    """One frame: ``phase`` "before", "act" (each program's card ``k`` acting), "done" (what card ``k`` did) or
    "after"; ``done[i]``: the cells of run i whose cards have been played."""
    blocks, height = _runs_layout(len(runs))
    img, d = canvas(height, RUNS_W)
    d.rectangle((0, 0, RUNS_W, RUNS_HEAD - 1), fill=BAR)
    most = max((len(r.get("steps") or []) for r in runs), default=0)
    right = {"before": pgettext("label", "before"), "after": pgettext("label", "after")}.get(phase) or \
        _("card {k} of {total}", k=k + 1, total=most)
    right_w = text(d, (RUNS_W - MARGIN - 4, RUNS_HEAD / 2), right, P_SMALL, HIGHLIGHT, anchor="rm", bold=True)
    if turn:
        head = ngettext("Turn {turn}: the program runs", "Turn {turn}: the programs run", len(runs), turn=turn)
    else:
        head = ngettext("The program runs", "The programs run", len(runs))
    room = RUNS_W - 2 * MARGIN - 8 - right_w - 16
    size = next((s for s in (P_BODY, P_SMALL) if font(s, bold=True).getlength(here(head)) <= room), P_SMALL)
    text(d, (MARGIN + 4, RUNS_HEAD / 2), head, size, TEXT, anchor="lm", bold=True, max_width=room)
    for i, (run, (x0, y0, x1, y1, mode, t)) in enumerate(zip(runs, blocks, strict=True)):
        _runs_block(img, d, run, names, (x0, y0, x1, y1), mode, t, k, phase, done[i])
    return img


def _runs_block(img: Image.Image, d: ImageDraw.ImageDraw, run: dict, names, box, mode: str, t: int,
                k: int | None, phase: str, done: Sequence[int]) -> None:
    """A player's row: the puzzle on the left; beside it the name, the card acting (its chip) and what it does
    or did, and the photo to rebuild on the right."""
    x0, y0, x1, y1 = box
    frames = run.get("frames") or [run["before"]]
    steps = run.get("steps") or []
    solved = bool(run.get("solved")) and phase == "after"
    d.rounded_rectangle((x0, y0, x1, y1), radius=10, fill=PANEL, outline=HIGHLIGHT if solved else PANEL_EDGE,
                        width=3 if solved else 2)
    size = puzzle_size(t)
    px, py = x0 + 12, y0 + (y1 - y0 - size) / 2
    acting = phase == "act" and k is not None and k < len(steps)
    shown = k is not None and k < len(steps) and phase in ("act", "done")
    if phase == "before":
        pairs = frames[0]
    elif phase == "after":
        pairs = frames[-1]
    elif acting:
        pairs = frames[k]
    else:
        pairs = frames[min(k + 1, len(frames) - 1)] if k is not None and k < len(steps) else frames[-1]
    marks = None
    if shown:
        step = steps[k]
        changed = _changed(frames[k], frames[min(k + 1, len(frames) - 1)])
        marks = {step["cell"]: HIGHLIGHT} if acting else {c: SKY for c in changed}
    draw_puzzle(img, d, (px, py), t, run["photo"], pairs, solved=solved, marks=marks)
    if acting:
        step = steps[k]
        cell, which = step["cell"], step["card"]
        dest = _moved_to(cell, which, step.get("dir"), frames[k])
        if which in TURN:
            cx, cy = cell_centre((px, py), t, cell)
            r = t * 0.28
            d.ellipse((cx - r - 4, cy - r - 4, cx + r + 4, cy + r + 4), fill=BLACK)
            turn_icon(d, (cx, cy), which, r, HIGHLIGHT)
        elif dest is not None:
            arrow_between(d, cell_centre((px, py), t, cell), cell_centre((px, py), t, dest), HIGHLIGHT,
                          width=max(5, t // 12), head=max(14, t // 4), double=which != "b5", outline=BLACK)
    # the photo to rebuild, on the right
    wx = px + size + 14
    side = min(y1 - y0 - 66, 150, x1 - 22 - wx - 190)  # the words keep 190 px (German "heimschicken")
    photo_x = x1 - 10 - side if side >= 80 else x1 + 2
    if side >= 80:
        thumbnail(img, d, (photo_x, y1 - 10 - side), side, run["photo"])
    # the name, over the words and the photo
    seat = run.get("seat")
    nx, cy = wx, y0 + 26
    if seat is not None:
        seat_mark(d, (nx + 12, cy), seat, 12)
        nx += 32
    if run.get("computer"):
        computer_mark(d, (nx + 12, cy + 1), 12)
        nx += 32
    name = names[seat] if names and seat is not None and seat < len(names) else _("Program")
    text(d, (nx, cy), fit_name(name, P_BODY, x1 - 12 - nx), P_BODY, TEXT, anchor="lm", bold=True)
    # the words: the card acting (its chip) and what it does or did, under the name, beside the photo
    chip_w, chip_h = 60, 44
    wy, room = y0 + 56, photo_x - 12 - wx
    lines: list[tuple[str, tuple]] = []
    if phase == "before":
        lines = [(ngettext("{n} card to play", "{n} cards to play", len(steps)) if steps else _("no card played"),
                  TEXT)]
    elif phase == "after":
        lines = [(_("rebuilt!"), HIGHLIGHT) if run.get("solved") else (_("not rebuilt yet"), MUTED)]
    elif shown:
        step = steps[k]
        card_chip(d, (wx, wy, wx + chip_w, wy + chip_h), step["card"], step.get("dir"), cell=step["cell"],
                  size=P_SMALL, style="full", icon=False)
        wy += chip_h + 6
        if acting:
            lines = [(_("cell {number}: {action}", number=step["cell"] + 1, action=_SHORT_ACT[step["card"]]),
                      HIGHLIGHT)]
        else:
            changed = _changed(frames[k], frames[min(k + 1, len(frames) - 1)])
            lines = [(_short_done(step, frames[k], changed), SKY if changed else MUTED)]
    else:
        lines = [(ngettext("done: {n} card", "done: {n} cards", len(steps)) if steps else _("no card played"),
                  MUTED)]
    most = max(1, int((y1 - 8 - wy) // 30))
    for words, colour in lines:
        for n, line in enumerate(wrap_text(words, P_SMALL, room, lines=most)):
            text(d, (wx, wy + 30 * n), line, P_SMALL, colour, bold=colour == HIGHLIGHT)


def runs_frames(card: dict, names: Sequence[str] | None = None) -> list[tuple[Image.Image, int]]:
    """Every program of a stage C running at once, side by side (a ``{"kind": "runs"}`` card, ``names`` by
    seat): the puzzles before; for each k, every program's card k acting (gold, where the tile goes), then what
    it did (sky blue); the puzzles after (a rebuilt one framed gold)."""
    computers = set(card.get("computers") or ())  # seats a computer plays (the bot adds them): a robot's head
    runs = [dict(r, computer=r.get("seat") in computers)
            for r in sorted(card["runs"], key=lambda r: r.get("seat") or 0)]
    most = max((len(r.get("steps") or []) for r in runs), default=0)
    turn = card.get("turn")
    played: list[list[int]] = [[] for _ in runs]
    out = [(_runs_frame(runs, names, turn, None, "before", played), FIRST_MS)]
    for k in range(most):
        out.append((_runs_frame(runs, names, turn, k, "act", played), STEP_MS))
        for i, run in enumerate(runs):
            if k < len(run.get("steps") or []):
                played[i].append(run["steps"][k]["cell"])
        out.append((_runs_frame(runs, names, turn, k, "done", played), DONE_MS))
    out.append((_runs_frame(runs, names, turn, None, "after", played), LAST_MS))
    return out


def encode_gif(frames: list[tuple[Image.Image, int]]) -> bytes:
    """An animated GIF that loops. Every frame is mapped to one palette (255 colours learned from the first and
    last frames and the marks' colours, no dithering); from the second frame on, the pixels that did not change
    are the transparent 256th colour (each frame is drawn over the one before), so a frame costs little more than
    what changed in it."""
    first, last = frames[0][0], frames[-1][0]
    w, h = first.size
    probe = Image.new("RGB", (w, 2 * h + 8))
    probe.paste(first, (0, 0))
    probe.paste(last, (0, h))
    strip = ImageDraw.Draw(probe)
    for k, colour in enumerate((HIGHLIGHT, SKY, GOLD_CELL, *CARD_FILL.values(), *CARD_DIM.values(), BLACK, WHITE,
                                TEXT, MUTED, BAR, CELL_FILL)):
        strip.rectangle((k * 8, 2 * h, k * 8 + 7, 2 * h + 7), fill=colour)
    pal = probe.quantize(255, method=Image.Quantize.MEDIANCUT)
    colours = (pal.getpalette() or [])[: 3 * 255]
    colours += [0] * (3 * 255 - len(colours)) + [255, 0, 255]  # index 255: transparent
    indexed = [img.quantize(palette=pal, dither=Image.Dither.NONE).tobytes() for img, _ in frames]
    images = []
    previous = None
    for data in indexed:
        layer = Image.frombytes("L", (w, h), data)
        if previous is not None:
            same = ImageChops.difference(layer, previous).point(lambda v: 255 if v == 0 else 0)
            shown = layer.copy()
            shown.paste(255, mask=same)
        else:
            shown = layer
        previous = layer
        frame = Image.frombytes("P", (w, h), shown.tobytes())
        frame.putpalette(colours)
        images.append(frame)
    out = io.BytesIO()
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:], duration=[ms for _, ms in frames],
                   loop=0, optimize=False, disposal=1, transparency=255)
    return out.getvalue()


def draw_card(card: dict, note: str | None = None) -> bytes | Image.Image:
    """A card for the channel, an animated GIF as bytes. ``card["kind"] == "runs"`` (the engine's announcement
    after a stage C): every program of the stage running at once, a row each, 600 px wide; ``card["names"]`` (the bot
    adds them) names the seats, ``card["computers"]`` lists those a computer plays (a robot's head by the name). ``"run"``: one program alone; ``note`` (optional) is its title, e.g. "Ana's
    program"."""
    if card.get("kind") == "runs":
        return encode_gif(runs_frames(card, card.get("names")))
    if card.get("kind") != "run":
        raise KeyError(f"no picture for a {card.get('kind')!r} card")
    return encode_gif(run_frames(card, note))
