"""A program's run as an animated GIF (``draw_card``)."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageChops, ImageDraw

from games.globe_twister.puzzle import (
    DIRECTIONS,
    RED,
    SHORT_NAMES,
    TURN,
    move_of,
)
from games.globe_twister.rules import PHOTO_NAMES
from render.common import (
    BAR,
    BLACK,
    BODY,
    HIGHLIGHT,
    LARGE,
    MUTED,
    SKY,
    SMALL,
    TEXT,
    WHITE,
    canvas,
    plural,
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
GIF_T = 100
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


def _gif_frame(card: dict, pairs, *, title: str, caption: str, active: int | None = None,
               done: Sequence[int] = (), marks: dict | None = None, move: tuple | None = None,
               turn: tuple | None = None, result: str | None = None) -> Image.Image:
    height = 46 + 12 + puzzle_size(GIF_T) + 14 + 58
    img, d = canvas(height, GIF_W)
    d.rectangle((0, 0, GIF_W, 45), fill=BAR)
    seat = card.get("seat")
    x = 12
    if seat is not None:
        seat_mark(d, (x + 12, 23), seat, 11)
        x += 32
    text(d, (x, 23), title, BODY, TEXT, anchor="lm", bold=True, max_width=GIF_W - x - 150)
    turn_no = card.get("turn")
    if turn_no:
        text(d, (GIF_W - 12, 23), f"turn {turn_no}", SMALL, MUTED, anchor="rm")
    px, py = 12, 58
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
    fx = px + puzzle_size(GIF_T) + 24
    text(d, (fx, py - 4), "program", SMALL, MUTED)
    draw_frame(d, (fx, py + 22), GIF_C, card["program"], active=active, done=done, numbers=False, size=BODY,
               gap=4)
    ty = py + 22 + frame_size(GIF_C) + 12
    th = py + puzzle_size(GIF_T) - ty - 2
    if th >= 60:  # the photo to rebuild, small
        thumbnail(img, d, (fx + 2, ty + 2), th, photo)
        text(d, (fx + th + 16, ty), "rebuild", SMALL, MUTED)
        name = PHOTO_NAMES.get(photo, photo)
        for k, line in enumerate(wrap_text(name, SMALL, GIF_W - fx - th - 28, lines=2)):
            text(d, (fx + th + 16, ty + 26 + 24 * k), line, SMALL, TEXT)
    # the caption under it all
    cy0 = height - 58
    d.rectangle((0, cy0, GIF_W, height), fill=BAR)
    if result == "rebuilt":
        d.rectangle((0, cy0, GIF_W, height), fill=HIGHLIGHT)
        star(d, (24, cy0 + 29), 12, BLACK)
        text(d, (46, cy0 + 29), caption, LARGE, BLACK, anchor="lm", bold=True, max_width=GIF_W - 60)
    else:
        lines = wrap_text(caption, BODY, GIF_W - 28, lines=2)
        top = cy0 + 29 - 13 * len(lines)
        for k, line in enumerate(lines):
            text(d, (14, top + 26 * k + 13), line, BODY, TEXT, anchor="lm")
    return img


def _step_words(step: dict, k: int, total: int) -> str:
    cell, card, direction = step["cell"], step["card"], step.get("dir")
    way = {"n": "up", "e": "right", "s": "down", "w": "left", "ne": "up-right", "se": "down-right",
           "sw": "down-left", "nw": "up-left"}.get(direction or "", "")
    what = CARD_WORDS[card] + (f" ({way})" if way and card in DIRECTIONS else "")
    return f"Card {k} of {total}: cell {cell + 1}, {SHORT_NAMES[card]} {what}"


def _done_words(step: dict, before, changed: list[int]) -> str:
    """What a card did, in the past tense."""
    cell, card, direction = step["cell"], step["card"], step.get("dir")
    name = SHORT_NAMES[card]
    if not changed:
        return f"{name}: no effect here, nothing moves (the card is used all the same)"
    if card in TURN:
        return f"{name}: the tile in cell {cell + 1} turned " + {"g1": "a quarter turn clockwise",
                                                                 "g2": "a quarter turn counter-clockwise",
                                                                 "g3": "a half turn"}[card]
    dest = _moved_to(cell, card, direction, before)
    if card in RED:
        upright = ", upright" if card == "r2" else ""
        return f"{name}: the tile went home to cell {dest + 1}{upright}" if dest is not None else \
            f"{name}: the tile was already home; now upright"
    if card == "b5" and dest is not None:
        return f"{name}: cell {cell + 1} moved to cell {dest + 1}, the others shifted back"
    if dest is not None:
        return f"{name}: cells {cell + 1} and {dest + 1} swapped"
    return f"{name}: done"


def run_frames(card: dict, title: str | None = None) -> list[tuple[Image.Image, int]]:
    """The animation's frames and their durations (ms): the puzzle before; for each card, the card acting (its
    cell and card gold, where the tile goes) and what it changed (sky blue); the puzzle after."""
    frames = card.get("frames") or [card["before"]]
    steps = card.get("steps") or []
    total = len(steps)
    title = title or "The program runs"
    out = [(_gif_frame(card, frames[0], title=title,
                       caption=f"Before: {plural(total, 'card')} to play, in reading order" if total else
                       "No card in the frame: nothing moves"), FIRST_MS)]
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
                           caption="After: rebuilt!" if result else "After: not rebuilt yet", done=done,
                           result=result), LAST_MS))
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
    """A card for the channel. ``card["kind"] == "run"`` (an engine announcement after stage C): an animated GIF
    of the program running, as bytes; ``note`` (optional) is its title, e.g. "Ana's program"."""
    if card.get("kind") != "run":
        raise KeyError(f"no picture for a {card.get('kind')!r} card")
    return encode_gif(run_frames(card, note))
