"""A finished game's replay as an animated GIF: one frame per chosen board (bot/replay.py rebuilds the boards
from the action log and picks them), each drawn as the live board is (``render.draw_board`` from the public
view) and mapped to the game's fixed palette, so every frame shares one global GIF palette and Pillow stores
each frame as the rectangle that changed since the one before (a board's move changes a small part of it).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

MAX_FRAMES = 120
"""At most this many boards in a replay: a longer game is sampled evenly (the first and final boards always)."""
FRAME_MS = 700
FIRST_MS = 1500
LAST_MS = 3000
"""The final board is held that long before the animation loops."""
MAX_BYTES = 6 * 1024 * 1024
"""Well under Discord's 10 MB upload limit: a larger GIF is made again from half the frames."""


@dataclass(frozen=True)
class Frame:
    view: dict
    last: str | None
    focus: dict | None
    names: list[str] | None = None
    """The seats' names at that board (a seat a computer took over later still shows its person); None: the
    names ``animate`` gets."""
    computers: tuple[int, ...] | None = None


def pick(count: int, cap: int = MAX_FRAMES) -> list[int]:
    """Which of ``count`` boards (0: the start, ``count - 1``: the final board) make the frames: all of them,
    or ``cap`` spread evenly, always with the first and the last."""
    if count <= cap:
        return list(range(count))
    if cap < 2:
        return [count - 1]
    return sorted({round(i * (count - 1) / (cap - 1)) for i in range(cap)})


def durations(frames: int) -> list[int]:
    """Milliseconds each frame shows: the first a little longer, the final board held ~3 s."""
    if frames == 1:
        return [LAST_MS]
    return [FIRST_MS] + [FRAME_MS] * (frames - 2) + [LAST_MS]


def animate(game: str, frames: Sequence[Frame], names: list[str], computers: Sequence[int] = (),
            locale: str = "en") -> bytes:
    """The frames as a looping GIF (bytes), in ``locale``'s words. Each is the board ``render.render_board`` would
    draw from the same arguments, with the same palette: the last frame, decoded, is the final board's PNG pixel
    for pixel, and the GIF is the final board's size (a GIF has one size for all its frames: a board of another
    size is fitted into it, ``_fitted``; the games keep one size all game long, so none is)."""
    from render import draw_board, palette
    from render.common import _quantize

    fixed = palette(game)
    images: list[Image.Image] = []
    for frame in frames:
        image = draw_board(game, frame.view, names if frame.names is None else frame.names, frame.last, frame.focus,
                           computers if frame.computers is None else frame.computers, locale)
        image = image if image.mode == "RGB" else image.convert("RGB")
        if fixed is None:  # a game without a learned palette: the first frame's colours for all
            fixed = image.quantize(256, dither=Image.Dither.NONE)
        images.append(_quantize(image, fixed))
    size = images[-1].size
    if any(i.size != size for i in images):
        images = [_fitted(i, size, fixed) for i in images]
    out = io.BytesIO()
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:], duration=durations(len(images)),
                   loop=0, optimize=False, disposal=1)
    return out.getvalue()


def _fitted(image: Image.Image, size: tuple[int, int], palette: Image.Image) -> Image.Image:
    """``image`` (a palette frame) in a frame of ``size``: as it is, or shrunk to fit when larger, centred on the
    boards' background colour."""
    if image.size == size:
        return image
    from render.common import BACKGROUND, _quantize

    board = image.convert("RGB")
    if board.width > size[0] or board.height > size[1]:
        scale = min(size[0] / board.width, size[1] / board.height)
        board = board.resize((max(1, round(board.width * scale)), max(1, round(board.height * scale))),
                             Image.Resampling.LANCZOS)
    canvas = Image.new("RGB", size, BACKGROUND)
    canvas.paste(board, ((size[0] - board.width) // 2, (size[1] - board.height) // 2))
    return _quantize(canvas, palette)
