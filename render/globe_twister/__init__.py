"""The Globe Twister pictures (docs/rendering.md, "Globe Twister"): the public board (every player's scrambled
puzzle, who has locked in, the sand timer; after a stage C each program with the puzzle after it), the
private panel ("My program": the puzzle, the photo to rebuild, the programming frame with the cards placed and
the step in progress, the cards in hand, solo level, par and hints) and, for each program run, an animated GIF.

The photos are drawn by code (``render.globe_twister.photos``): each tile shows by itself which way is up, so a turned tile
reads at a glance. Cards carry their name (G1-G3, B1-B5, R1, R2) and their arrow as well as their colour (green
turns, blue moves, red sends home), so colour is never the only cue. Gold marks what is being chosen (the cell
being programmed, the players still programming, the card acting in an animation); sky blue what the last card
or run changed.

Drawn for the phone (docs/rendering.md, "Legible on a phone"): 600 px wide, a row per player, every label at least
``P_SMALL``, every tile at least 52 px.

The package: ``pieces`` (colours, card chips, arrows, icons, puzzles, the programming frame), ``words`` (the view in
words: the header's status, the winner banner), ``board`` (the public board), ``panel`` (the private panel),
``animation`` (a run's GIF), ``photos`` (the six photos, drawn by code) and ``samples`` (seeded games for tests and
benchmarks).
"""

from render.globe_twister import photos
from render.globe_twister.animation import FIRST_MS, LAST_MS, draw_card, run_frames
from render.globe_twister.board import BLOCK_H, board_height, draw_board
from render.globe_twister.panel import PRIVATE_T, draw_private
from render.globe_twister.pieces import COLOURS, GAME, GAP, HIGHLIGHT, SHORT_NAMES, TITLE
from render.globe_twister.samples import sample_game, sample_states
from render.globe_twister.words import WIDTH, shown_run, winners_of

__all__ = ["BLOCK_H", "COLOURS", "FIRST_MS", "GAME", "GAP", "HIGHLIGHT", "LAST_MS", "PRIVATE_T", "SHORT_NAMES", "TITLE",
           "WIDTH", "board_height", "draw_board", "draw_card", "draw_private", "photos", "run_frames", "sample_game",
           "sample_states", "shown_run", "winners_of"]
