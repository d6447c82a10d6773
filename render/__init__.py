"""Board images drawn from an engine's view. ``render_board`` is the one entry point the bot calls
(from a worker thread: drawing never runs on the event loop)."""

from __future__ import annotations

from render import geek_out, geoneo
from render.common import encode_png

_BOARDS = {"geek_out": geek_out.draw, "geoneo": geoneo.draw}


def render_board(game: str, view: dict, names: list[str], last: str | None = None) -> bytes:
    """The public board of ``game`` as PNG bytes."""
    return encode_png(_BOARDS[game](view, names, last))


def render_hand(game: str, hand: list, name: str) -> bytes:
    """A player's secret hand as PNG bytes, for an ephemeral reply to that player only."""
    if game != "geoneo":
        raise KeyError(f"{game} has no hand to draw")
    return encode_png(geoneo.draw_hand(hand, name))
