"""GEONEO's rule pages (see games/rulebook.py): cards, placing, clearing away, the end."""

from __future__ import annotations

from games.rulebook import Example, Page, engine, play_until
from i18n import _

SEED = 1


def _new():
    return engine("geoneo").new(2, {}, SEED)


def cards() -> Example:
    """The second round: the start player's card and the next player's answer are on the table."""
    state, events = play_until(engine("geoneo"), _new(),
                               lambda s: s["ply"] > 3 and len(s["round"]["plays"]) == 2)
    return Example(state, None, events)


def placing() -> Example:
    """A piece was just placed on a field showing the round's result."""
    state, events = play_until(engine("geoneo"), _new(),
                               lambda s: s["ply"] > 6 and s["phase"] == "play" and s["highlight"] is not None
                               and not s["round"]["plays"])
    return Example(state, None, events)


def clearing() -> Example:
    """The first shape cleared away: its corners are gone and its points scored."""
    state, events = play_until(engine("geoneo"), _new(), lambda s: any(s["scores"]))
    return Example(state, None, events)


def end() -> Example:
    state, events = play_until(engine("geoneo"), _new(), engine("geoneo").is_over)
    return Example(state, None, events[-1:])


PAGES = (
    Page(_("Cards"),
         _("Each round the start player plays a card. Each next player adds or subtracts one of theirs. Every "
           "result must stay between 0 and 6, and the final one between 1 and 6."),
         cards),
    Page(_("Placing"),
         _("The start player puts a piece on a free field showing the final result. If none is free, the last "
           "player places on the result before their card, and so on back. A final 0 voids the round."),
         placing),
    Page(_("Clearing away"),
         _("Once someone has placed all their pieces, clearing begins. In turn, pick a shape whose corners are "
           "all yours: a line (its length), a rectangle (side × side) or a right triangle (leg × leg ÷ 2). "
           "Score those points and remove its corners."),
         clearing),
    Page(_("The end"),
         _("With no shape left you are skipped. When nobody can clear any more, the most points win. With four "
           "players, opposite seats play as a team with one colour."),
         end),
)
