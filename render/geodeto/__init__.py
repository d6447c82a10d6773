"""The Geodeto board: the six continents in their ring around the World Ocean (Europe and Asia on top, America and
Oceania down the right, Antarctica and Africa back up the left), every tower as stacked pyramids,
the ships in the Ocean, the Epidemic and Pirates cards, the six public goals beside their continents, the
countdown, each player's cards and fulfilled goals (a chip each, on the colour of the continent it was formed on),
whose turn it is, the pyramid that may not be taken back (a padlock) and, near a stall's end, a warning.

Pyramids keep the game's colours (blue, yellow, red, green, white, black: the colour of their home continent)
and always carry the colour's letter (B, Y, R, G, W, and K for black) and their size in pips (1 small, 2 medium,
3 large, as on the real pieces), so neither colour nor size rests on one cue; size also shows in their width. A
tower covers at most a pyramid's tip, never its letter and pips. A goal's trio is drawn whole, each pyramid at its
true width and all as tall (three mediums look equal). Gold marks what the player to act may choose (the picked
pyramid with its riders, and where it may go: a gold arrow over a tower, a dashed gold pyramid on a free spot);
sky blue haloes the pyramids of the last move.

Also drawn here: a player's goal cards (``draw_private``, "My goals"), one goal card (``draw_card``, for a
claim) and the end score sheet (``draw_score_sheet``).

The package: ``pieces`` (colours, pyramid sprites, towers, trios), ``board`` (``draw_board``), ``players`` (the
players' strip), ``cards`` (``draw_private``, ``draw_card``), ``sheet`` (``draw_score_sheet``) and ``samples``
(seeded games, ``palette_samples``).
"""

from render import common
from render.geodeto.board import (
    CARD_W,
    GAP,
    GOAL_H,
    TITLE,
    _find,
    _goal_card_need,
    _marks,
    _riders,
    _rows,
    _turn_need,
    board_height,
    draw_board,
    goal_label,
    stall_warning,
)
from render.geodeto.cards import HAND_SHOWN, draw_card, draw_private
from render.geodeto.pieces import (
    CARD,
    CARD_PYR_H,
    COLOURS,
    CONTINENT_KEYS,
    GAME,
    HIGHLIGHT,
    LETTERS,
    PIP_R,
    PIP_Y,
    PYR_H,
    PYR_W,
    PYRAMID_FILL,
    PYRAMID_INK,
    TRIO_GAP,
    TRIO_H,
    VISIBLE,
    _steps,
    draw_trio,
    pid,
    pname,
    pyramid_sprite,
    text_w,
)
from render.geodeto.players import (
    NO_GOAL,
    _chips,
    _goal_item_w,
    _goals_fitting,
    chip_label,
    players_height,
)
from render.geodeto.samples import palette_samples, rig_goal, sample_game
from render.geodeto.sheet import draw_score_sheet

SKY = common.SKY
SMALL = common.SMALL

__all__ = [
    "CARD",
    "CARD_PYR_H",
    "CARD_W",
    "COLOURS",
    "CONTINENT_KEYS",
    "GAME",
    "GAP",
    "GOAL_H",
    "HAND_SHOWN",
    "board_height",
    "HIGHLIGHT",
    "LETTERS",
    "NO_GOAL",
    "PIP_R",
    "PIP_Y",
    "PYRAMID_FILL",
    "PYRAMID_INK",
    "PYR_H",
    "PYR_W",
    "SKY",
    "SMALL",
    "TITLE",
    "TRIO_GAP",
    "TRIO_H",
    "VISIBLE",
    "_chips",
    "_find",
    "_goal_card_need",
    "_goal_item_w",
    "_goals_fitting",
    "_marks",
    "_riders",
    "_rows",
    "_steps",
    "_turn_need",
    "chip_label",
    "draw_board",
    "draw_card",
    "draw_private",
    "draw_score_sheet",
    "draw_trio",
    "goal_label",
    "palette_samples",
    "pid",
    "players_height",
    "pname",
    "pyramid_sprite",
    "rig_goal",
    "sample_game",
    "stall_warning",
    "text_w",
]
