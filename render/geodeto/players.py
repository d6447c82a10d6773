"""Geodeto's players' strip: a cell per player, their goals as letter chips, cards in hand or points."""

from __future__ import annotations

from PIL import ImageDraw

from games.geodeto.deck_texts import short_name as card_short_name
from games.geodeto.rules import CONTINENTS as CONTINENT_KEYS
from i18n import N_, Text, _, ngettext, pgettext
from render import common
from render.common import (
    BLACK,
    COMPUTER_MARK_W,
    CURRENT_ROW,
    HIGHLIGHT,
    MUTED,
    P_BODY,
    P_SMALL,
    TEXT,
    name_room,
    played_by_computer,
    player_row,
    star,
    text,
    turn_arrow,
)
from render.geodeto.pieces import (
    BAND_INK,
    CARD,
    CARD_MUTED,
    LETTERS,
    PYRAMID_EDGE,
    PYRAMID_FILL,
    card_continents,
    text_w,
)


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else _("Player {n}", n=seat + 1)


# --- players -------------------------------------------------------------------------------------------------
PLAYER_ROW = 50
PLAYER_ROW_2 = 82
"""A cell of two lines (four to six players, two a row): the name, then the goals and the cards in hand."""
LINE_H = 41
"""The name's line of a two-line cell."""
SECOND_X = 34
"""Where a two-line cell's second line starts (under the seat mark)."""
CHIP = 34
"""A fulfilled goal in the players' strip: a square in the colour of the continent it was formed on, with
that continent's letter (as on its pyramids and its tile)."""
CHIP_GAP = 4
ROBOT_W = COMPUTER_MARK_W * 1.4
"""The robot's head before a computer's name (``player_row`` at ``k`` = 1.4)."""
NAME_MIN = 90
"""A name keeps at least this much room (or its own width) before goals give way to "+N"."""
MARK_W = 73
"""From a player's row to their name: turn arrow and seat mark."""


CHIP_LABELS = {
    "czech-republic": pgettext("goal label", "Czechia"), "great-britain": pgettext("goal label", "Britain"), "eiffel-tower": pgettext("goal label", "Eiffel Tower"),
    "great-wall-of-china": pgettext("goal label", "Great Wall"), "mt-everest": pgettext("goal label", "Everest"), "south-africa": pgettext("goal label", "S. Africa"),
    "victoria-falls": pgettext("goal label", "Victoria Falls"), "pyramids-of-giza": pgettext("goal label", "Giza"), "mt-kilimanjaro": pgettext("goal label", "Kilimanjaro"),
    "statue-of-liberty": pgettext("goal label", "Liberty"), "christ-the-redeemer": pgettext("goal label", "Redeemer"), "new-zealand": pgettext("goal label", "N. Zealand"),
    "papua-new-guinea": pgettext("goal label", "Papua"), "mariana-trench": pgettext("goal label", "Mariana"), "sydney-opera-house": pgettext("goal label", "Opera House"),
    "great-barrier-reef": pgettext("goal label", "Barrier Reef"), "easter-island-moai": pgettext("goal label", "Moai"),
    "amundsen-scott-station": pgettext("goal label", "South Pole"), "halley-research-station": pgettext("goal label", "Halley"),
    "princess-elisabeth-station": pgettext("goal label", "Elisabeth"), "mt-vinson": pgettext("goal label", "Vinson"), "lambert-glacier": pgettext("goal label", "Lambert"),
}
"""A fulfilled goal's label in the players' panel, where its name would be too long (else its short name)."""


def chip_label(card: dict) -> str:
    """A goal's short label (a message: said in the drawing's language)."""
    key = card.get("id", "")
    if key in CHIP_LABELS:
        return CHIP_LABELS[key]
    short = card_short_name(key)
    if short:
        return short
    name = card["name"]  # a card the deck does not know: its name, without " Station"
    return name[: -len(" Station")] if not isinstance(name, Text) and name.endswith(" Station") else name


def _chips(view: dict, seat: int) -> list[tuple[str, int]]:
    """Per goal ``seat`` fulfilled: its label and the continent it was formed on."""
    fulfilled = view.get("fulfilled") or []
    out = []
    for card in fulfilled[seat] if seat < len(fulfilled) else ():
        key = card.get("formed_on")
        c = CONTINENT_KEYS.index(key) if key in CONTINENT_KEYS else card_continents(card)[0]
        out.append((chip_label(card), c))
    return out


NO_GOAL = N_("no goal")


def player_columns(n: int) -> int:
    """Players per row of the strip under the goals: one for 2 and 3 players, two for 4 to 6 (a name, its goals
    and cards in 290 px)."""
    return 1 if n <= 3 else 2


def players_height(n: int) -> int:
    """The players' strip: a row per player for up to three players, a row per two for more (on two lines)."""
    return 8 + _row_h(n) * -(-n // player_columns(n))


def _row_h(n: int) -> int:
    return PLAYER_ROW if player_columns(n) == 1 else PLAYER_ROW_2


def _extras_held(view: dict, seat: int) -> int:
    """How many extra cards (+2 points each) ``seat`` holds."""
    return sum(1 for e in view.get("extras") or () if e.get("holder") == seat)


def chip(d: ImageDraw.ImageDraw, x: float, cy: float, c: int) -> float:
    """A fulfilled goal: the letter of the continent it was formed on, on its colour. Returns its width."""
    d.rounded_rectangle((x, cy - CHIP / 2, x + CHIP, cy + CHIP / 2), radius=5, fill=PYRAMID_FILL[c],
                        outline=PYRAMID_EDGE[c] if c == 5 else BLACK, width=2 if c == 5 else 1)
    text(d, (x + CHIP / 2, cy + 1), LETTERS[c], P_SMALL, BAND_INK[c], anchor="mm", bold=True)
    return CHIP


def _hand_icon(d: ImageDraw.ImageDraw, x: float, cy: float) -> None:
    """Two cards fanned: "cards in hand"."""
    d.rounded_rectangle((x, cy - 12, x + 18, cy + 12), radius=3, fill=CARD_MUTED, outline=BLACK)
    d.rounded_rectangle((x + 7, cy - 15, x + 25, cy + 9), radius=3, fill=CARD, outline=BLACK)


def _goal_item_w(item: tuple[str, object]) -> float:
    kind, value = item
    if kind in ("chip", "count"):
        return CHIP + CHIP_GAP
    return text_w(P_SMALL, str(value)) + 6


def _goals_fitting(chips: list[int], extra: str, room: float) -> list[tuple[str, object]]:
    """What of a player's goals fits in ``room`` beside their name, best first. The extra cards' points ("+4",
    gold) always show, the goals give way around them: every goal's chip; some chips and "+2" for the rest
    (only without extra cards, so two "+" numbers are never side by side); a square with how many goals;
    no goals (only the extra cards' points, even where ``room`` is shorter: the name gives way then)."""
    def w(items):
        return sum(_goal_item_w(i) for i in items)

    kept = [("extra", extra)] if extra else []
    all_chips = [("chip", c) for c in chips]
    tries = [all_chips + kept]
    if not extra:
        tries += [all_chips[:k] + [("more", f"+{len(chips) - k}")] for k in range(len(chips) - 1, 0, -1)]
    if chips:
        tries.append([("count", len(chips))] + kept)
    for items in tries:
        if w(items) <= room:
            return items
    return kept


def _points_words(view: dict, names: list[str], s: int, width: float, winners: list[int], bare: bool) -> str:
    """A player's total at the end: "22 pts", or "22" (``bare``) where a computer's short form needs the room."""
    total = view["score_sheet"]["players"][s]["total"]
    if bare:
        return str(total)
    right = ngettext("{n} pt", "{n} pts", total)
    if played_by_computer(view, s):
        least = name_room(_name(names, s), P_SMALL) + MARK_W + ROBOT_W
        if width - 16 - text_w(P_BODY, right) - (34 if s in winners else 0) < least:
            return str(total)
    return right


def _player_cell(d: ImageDraw.ImageDraw, view: dict, names: list[str], s: int, box, winners: list[int],
                 bare: bool = False, two: bool = False) -> None:
    """One player: turn arrow and gold frame while it is their turn, seat mark, name; their fulfilled goals
    (a letter square each, "+N" when they do not all fit), extra cards' points ("+4", gold), and cards in hand
    (at the end: points, a star for the winners). ``two``: on two lines (four to six players, two a row), the
    name on the first across the cell, the goals and the cards (or points) on the second."""
    x0, y0, x1, y1 = box
    cy = (y0 + y1) / 2
    line = (x0, y0, x1, y0 + LINE_H) if two else box
    over = view["phase"] == "over"
    left = (view.get("left") or [False] * view["players"])[s]
    if left:
        name = (_("{name} (removed)", name=_name(names, s)) if left == "removed"
                else _("{name} (left)", name=_name(names, s)))
    else:
        name = _name(names, s)
    name_w = text_w(P_BODY, name) + 2
    computer = played_by_computer(view, s)
    mark_w = MARK_W + (ROBOT_W if computer else 0)  # from the row's edge to the name
    least = name_room(_name(names, s), P_SMALL) if computer else 0  # a computer's short form (player_row: P_SMALL)
    if over and view.get("score_sheet"):
        right = _points_words(view, names, s, x1 - x0, winners, bare)  # "22", not "22 pts", beside "Normal 2"
        right_w = text_w(P_BODY, right) + (34 if s in winners else 0)
    else:
        right = str(view["hand_sizes"][s] if view.get("hand_sizes") else 0)
        right_w = text_w(P_BODY, right) + 31
    chips = [c for _, c in _chips(view, s)]
    extras = _extras_held(view, s)
    if two:  # the second line, from under the seat mark (after the robot's head: the name takes the first line)
        mark_w, least = MARK_W, 0
        avail = x1 - 8 - right_w - 16 - (x0 + SECOND_X) - (ROBOT_W if computer else 0)
    else:
        avail = x1 - 8 - right_w - 8 - (x0 + mark_w) - max(min(name_w, NAME_MIN), least) - 8  # beside the name
    goals = _goals_fitting(chips, f"+{2 * extras}" if extras else "", avail)
    if least and sum(_goal_item_w(item) for item in goals) > avail:
        goals = []  # a computer's name keeps its short form: the extra cards' points give way here
    if not chips and not extras and text_w(P_SMALL, _(NO_GOAL)) + 2 <= avail:
        goals = [("none", _(NO_GOAL))]
    goals_w = sum(_goal_item_w(item) for item in goals)
    room = x1 - 8 - right_w - 8 - (x0 + mark_w) - goals_w - (8 if goals else 0)
    current = not over and s == view.get("current")
    if two:
        room = x1 - 8 - (x0 + mark_w)
        if current:  # the gold frame round the whole cell, the arrow on the name's line
            d.rounded_rectangle(box, radius=7, fill=CURRENT_ROW, outline=HIGHLIGHT, width=2)
            turn_arrow(d, (x0 + 12 * 1.4, (line[1] + line[3]) / 2), 8 * 1.4)
    player_row(d, line, s, _name(names, s), name_width=mark_w + room, current=current and not two, gone=left,
               size=P_BODY, computer=computer and not two, k=1.4, least=P_SMALL)
    if two:
        cy = (y0 + LINE_H + y1) / 2
        x = x0 + SECOND_X
        if computer:
            common.computer_mark(d, (x + 14, cy + 1), 13, MUTED if left else TEXT)  # (as player_row draws it)
            x += ROBOT_W
    else:
        x = x0 + mark_w + min(name_w, room) + 8
    for kind, value in goals:
        if kind == "chip":
            chip(d, x, cy, value)
        elif kind == "count":  # goals that do not fit as chips: how many
            d.rounded_rectangle((x, cy - CHIP / 2, x + CHIP, cy + CHIP / 2), radius=5, outline=TEXT, width=2)
            text(d, (x + CHIP / 2, cy + 1), str(value), P_SMALL, TEXT, anchor="mm", bold=True)
        else:
            text(d, (x, cy), value, P_SMALL, {"none": MUTED, "extra": HIGHLIGHT, "more": TEXT}[kind], anchor="lm",
                 bold=kind != "none")
        x += _goal_item_w((kind, value))
    if over and view.get("score_sheet"):
        text(d, (x1 - 8, cy), right, P_BODY, HIGHLIGHT if s in winners else TEXT, anchor="rm", bold=True)
        if s in winners:
            star(d, (x1 - 8 - text_w(P_BODY, right) - 18, cy), 13)
    else:
        text(d, (x1 - 8, cy), right, P_BODY, TEXT, anchor="rm", bold=True)
        _hand_icon(d, x1 - 8 - text_w(P_BODY, right) - 30, cy)


def _players(d: ImageDraw.ImageDraw, view: dict, names: list[str], box, winners: list[int]) -> None:
    """The players' strip under the ring: two or three a row (``player_columns``), a cell each."""
    x0, y0, x1, y1 = box
    n = view["players"]
    cols = player_columns(n)
    col_w = (x1 - x0 - 8) / cols
    bare = view["phase"] == "over" and bool(view.get("score_sheet")) and any(  # every total alike
        _points_words(view, names, s, col_w - 4, winners, False) == str(view["score_sheet"]["players"][s]["total"])
        for s in range(n))
    for s in range(n):
        r, k = divmod(s, cols)
        bx = x0 + 4 + k * col_w
        row_h = _row_h(n)
        by = y0 + 4 + r * row_h
        _player_cell(d, view, names, s, (bx + 2, by + 1, bx + col_w - 2, by + row_h - 3), winners, bare,
                     two=cols > 1)


