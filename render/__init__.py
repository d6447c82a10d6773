"""Board images drawn from an engine's view. ``render_board`` is the one entry point the bot calls
(from a worker thread: drawing never runs on the event loop)."""

from __future__ import annotations

from render import geek_out
from render.common import encode_png

_BOARDS = {"geek_out": geek_out.draw}


def render_board(game: str, view: dict, names: list[str], last: str | None = None) -> bytes:
    """The public board of ``game`` as PNG bytes."""
    return encode_png(_BOARDS[game](view, names, last))
