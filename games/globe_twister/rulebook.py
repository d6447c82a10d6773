"""Globe Twister's rule pages (see games/rulebook.py): the photo, programming and the sand timer, the run,
winning, solo levels."""

from __future__ import annotations

from games.rulebook import Example, Page, engine, play_until
from i18n import _

SEED = 1
LEVEL = {"puzzle": "tourist", "number": 1}
"""The solo page's puzzle: the first Tourist level (par: 1 turn, 3 cards)."""


def _new():
    return engine("globe_twister").new(2, {}, SEED)


def photo() -> Example:
    return Example(_new())


def programming() -> Example:
    """The first lock-in of the game: the sand timer runs for the other player."""
    state, events = play_until(engine("globe_twister"), _new(), lambda s: s["starter"] is not None)
    return Example(state, None, events)


def run() -> Example:
    """The first stage C: both programs have run."""
    state, events = play_until(engine("globe_twister"), _new(), lambda s: s["last_run"] is not None)
    return Example(state, None, events[-1:])


def win() -> Example:
    state, events = play_until(engine("globe_twister"), _new(), engine("globe_twister").is_over)
    return Example(state, None, events[-2:-1])


def solo() -> Example:
    """A Tourist level solved in one turn."""
    e = engine("globe_twister")
    state, events = play_until(e, e.new(1, LEVEL, SEED), e.is_over)
    return Example(state, None, events[-2:-1])


PAGES = (
    Page(_("The photo"),
         _("Your souvenir photo is cut into 9 tiles, scrambled and turned. Program your action cards to "
           "rebuild it before the others do."),
         photo),
    Page(_("Programming"),
         _("Everyone at once, in secret: put cards in your 3x3 frame, one per cell, each card once, at most "
           "one red card. The first to lock in turns the sand timer; when it runs out every program freezes."),
         programming),
    Page(_("The run"),
         _("Programs run in reading order, each card on the tile in its cell at that moment. Green cards turn "
           "a tile, blue cards swap or move tiles, red cards send a tile home or upright."),
         run),
    Page(_("Winning"),
         _("A rebuilt photo wins. Ties go to the most red cards left, then the fewest cards. Otherwise take "
           "your cards back (red cards played are gone) and program again."),
         win),
    Page(_("Solo levels"),
         _("Alone you solve a random scramble or a puzzle of a level, from Tourist to Into the Wild, against "
           "its par. Any of the four turns of the whole photo counts as rebuilt."),
         solo),
)
