"""The Geomancy board: the 8x8 chessboard with its coordinates, every stone seen from above as a pyramid lying
on its side and pointing in its direction, the last cast (where each stone landed, which came back to hand and
why, the stones it knocked aside), the last captures, and a side panel with each player's hand, prisoners and
points, the round and whose turn it is.

A stone is a triangle pointing its way (its tip is where its aura goes), lit from the top left so its ridge
shows. Its size shows in its footprint (small, medium, large: 34, 44, 54 px long on a 60 px square), its owner
in its colour (``common.PLAYER_COLOURS``) and in the seat's mark drawn on it (``common.PLAYER_MARKS``: circle,
square, triangle, diamond, star, plus), so colour is never the only cue. Gold marks what the player to act
may choose (the aim rank's squares, their stones to reorient, the stone being turned and its new directions,
the square of a same-colour choice); sky blue marks the last turn (the aimed square, the squares stones
landed on, knocks, stones that landed upright or off the board, captures).

``focus={"overlay": "auras"}`` draws the same board with the auras (``OVERLAYS``): on each square the strength
of the two strongest colours, each as a chip in the seat's colour with its mark (docs/rendering.md, "Geomancy").

The package: ``pieces`` (measures, colours, marks, stone sprites), ``board`` (``draw_board``) and ``samples``
(seeded games, ``palette_samples``).
"""

from games.geomancy.model import SQUARE_NAMES
from render.geomancy.board import (
    board_height,
    draw_board,
    square_box,
)
from render.geomancy.pieces import (
    COLOURS,
    DARK_SQ,
    GAME,
    GOLD_SQ,
    INK,
    LAST_TURN,
    LIGHT_SQ,
    OVERLAYS,
    STONE_L,
    STONE_W,
    TITLE,
    aura_tint,
    face_colours,
    stone_sprite,
)
from render.geomancy.samples import (
    palette_samples,
    sample_states,
)

__all__ = [
    "COLOURS",
    "DARK_SQ",
    "GAME",
    "GOLD_SQ",
    "INK",
    "LAST_TURN",
    "LIGHT_SQ",
    "OVERLAYS",
    "SQUARE_NAMES",
    "STONE_L",
    "STONE_W",
    "TITLE",
    "aura_tint",
    "board_height",
    "draw_board",
    "face_colours",
    "palette_samples",
    "sample_states",
    "square_box",
    "stone_sprite",
]
