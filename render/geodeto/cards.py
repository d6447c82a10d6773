"""Geodeto's goal cards: a player's hand ("My goals") and one card for a claim."""

from __future__ import annotations

from PIL import Image, ImageDraw

from games.geodeto.deck_texts import short_name
from games.geodeto.rules import CONTINENTS as CONTINENT_KEYS
from games.geodeto.rules import GROUP_NAMES, continent
from i18n import _, ngettext
from render.common import (
    BLACK,
    HIGHLIGHT,
    MARGIN,
    MUTED,
    P_HEADER_H,
    P_LARGE,
    P_SMALL,
    canvas,
    fit_name,
    phone_header,
    text,
    wrap_text,
)
from render.common import (
    PHONE_CANVAS as W,
)
from render.geodeto.board import (
    GAP,
    STATUS_ROOM,
    _countdown,
    _name_lines,
)
from render.geodeto.pieces import (
    BAND_INK,
    CARD,
    CARD_EDGE,
    CARD_INK,
    CARD_MUTED,
    PYR_W,
    PYRAMID_FILL,
    TITLE,
    TRIO_H,
    card_continents,
    draw_trio,
    pid,
    text_w,
)
from render.geodeto.players import chip_label

# --- goal cards (hands, claims) ---------------------------------------------------------------------------------
HAND_CARD_W = (W - 2 * MARGIN - GAP) // 2
NAME_LINE = 38
"""A big card's name (``P_LARGE``, bold): two lines when it is too long for one."""
TWEET_LINE = 33
STRIPE_H = 40
"""A big card's stripe, its continent(s) named."""
CARD_TOP = STRIPE_H + 10
"""From a big card's top to its trio's top and its name."""


def _card_lines(card: dict, room: float, compact: bool = False) -> tuple[tuple[str, ...], int]:
    """A big card's name lines and how many lines follow them (capital, or location and group; met / note;
    ``compact``: met / note only)."""
    names = _name_lines(card["name"], room, 2, P_LARGE, short_name(card.get("id", "")) or chip_label(card))
    below = 0 if compact else 1 if card.get("capital") else (1 if card.get("location") else 0) + 1
    return names, below + 1


INFO_LINE = 34
"""A line under a big card's name (capital, location, group, met): its height."""


def _info(card: dict, met: bool | None, note: str | None, compact: bool) -> list[tuple[str, str, bool, tuple]]:
    """The lines under a big card's name, each (kind, text, bold, colour): "line", or "met" (the gold box)."""
    out: list[tuple[str, str, bool, tuple]] = []
    if not compact and card.get("capital"):
        out.append(("line", _("State, capital {capital}", capital=card["capital"]), False, CARD_INK))
    elif not compact:
        if card.get("location"):
            out.append(("line", card["location"], False, CARD_INK))
        group = GROUP_NAMES.get(card.get("group") or "")
        out.append(("line", _("Sight: {group}", group=_(group)) if group else _("Sight"), bool(group), CARD_MUTED))
    if met:
        where = card.get("met_on")
        out.append(("met", _("Met on {continent}!", continent=continent(CONTINENT_KEYS.index(where)))
                    if where in CONTINENT_KEYS else _("Met!"), True, BLACK))
    elif met is not None:
        out.append(("line", _("Not met yet"), False, CARD_MUTED))
    elif note:
        out.append(("line", note, True, CARD_INK))
    return out


def _item_w(kind: str, label: str, bold: bool) -> float:
    return text_w(P_SMALL, label, bold) + (44 if kind == "met" else 2)


def _layout(card: dict, width: float, *, met: bool | None = None, note: str | None = None,
            compact: bool = False) -> tuple[tuple[str, ...], list[tuple[tuple, float, float, float]], int]:
    """Where a big card ``width`` wide puts its words: the name's lines (beside the trio), then each line under
    it as (item, x, y, room) from the card's top left: beside the trio while it fits there, else (and below
    the trio) across the card's whole width, so no word is clipped in any language; and the geo-tweet's top.
    "Met on Oceania!" becomes "Met!" where even the whole width is too narrow (the gold frame says where)."""
    side_x = 12 + PYR_W[2] + 20
    side = width - 12 - side_x
    below_trio = CARD_TOP + TRIO_H + 8
    names, _lines = _card_lines(card, side)
    y = CARD_TOP + NAME_LINE * (len(names) - 1) + 44
    placed = []
    for kind, label, bold, colour in _info(card, met, note, compact):
        if kind == "line" and y < below_trio and _item_w(kind, label, bold) > side + 2:
            y = below_trio  # too long beside the trio: under it, the whole width
        x, room = (side_x, side) if y < below_trio else (12, width - 24)
        if kind == "met" and _item_w(kind, label, bold) > room + 2:
            label = _("Met!")
        if kind == "line" and _item_w(kind, label, bold) > room + 2:  # too long even across the card: 2 lines
            for part in wrap_text(label, P_SMALL, room, lines=2):
                placed.append(((kind, part, bold, colour), x, y, room))
                y += INFO_LINE
            continue
        placed.append(((kind, label, bold, colour), x, y, room))
        y += INFO_LINE
    if met is None and not note:
        y += INFO_LINE  # (the line "met" or a note takes on other cards: the tweets of a row line up)
    return names, placed, max(y + 4, CARD_TOP + TRIO_H + 10)


def _card_top(card: dict, width: float, compact: bool = False) -> int:
    """From a big card's top to its geo-tweet: stripe, name, the lines under it, or the trio when taller."""
    return _layout(card, width, met=bool(card.get("met")) if "met" in card else None, compact=compact)[2]


def _big_card(img: Image.Image, d: ImageDraw.ImageDraw, card: dict, box, *, met: bool | None = None,
              note: str | None = None, tweet_lines: int = 4, top: int | None = None, compact: bool = False) -> None:
    """A goal card: stripe with its continent(s), name (on two lines when long), capital or location, group,
    trio (each pyramid whole, with its letter and pips), geo-tweet from ``top`` down; a gold frame and
    "Met on ..." when ``met`` (its trio stands on the board now). ``compact`` (a big hand): no capital,
    location or group."""
    x0, y0, x1, y1 = box
    conts = card_continents(card)
    d.rounded_rectangle(box, radius=10, fill=CARD, outline=HIGHLIGHT if met else CARD_EDGE, width=5 if met else 2)
    # the stripe: one colour per continent, each named
    sw = (x1 - x0 - 4) / len(conts)
    for k, c in enumerate(conts):
        sx0 = x0 + 2 + k * sw
        d.rectangle((sx0, y0 + 2, sx0 + sw, y0 + STRIPE_H), fill=PYRAMID_FILL[c])
        text(d, (sx0 + 10, y0 + 2 + STRIPE_H / 2), continent(c), P_SMALL, BAND_INK[c], anchor="lm", bold=True,
             max_width=sw - 14)
    if met:
        d.rectangle((x0 + 2, y0 + 2, x1 - 2, y0 + STRIPE_H), outline=HIGHLIGHT, width=3)
    trio = [pid(t) for t in reversed(card["trio"])]
    draw_trio(img, d, trio, x0 + 12 + PYR_W[2] / 2 + 4, y0 + CARD_TOP + TRIO_H)
    names, placed, own_top = _layout(card, x1 - x0, met=met, note=note, compact=compact)
    tx = x0 + 12 + PYR_W[2] + 20
    room = x1 - 12 - tx
    y = y0 + CARD_TOP - 4
    for line in names:
        text(d, (tx, y), line, P_LARGE, CARD_INK, bold=True, max_width=room)
        y += NAME_LINE
    for (kind, label, bold, colour), dx, dy, width in placed:
        x, y = x0 + dx, y0 + dy
        if kind == "met":
            w = min(_item_w(kind, label, bold), width + 2)
            d.rounded_rectangle((x - 2, y - 1, x + w, y + 31), radius=7, fill=HIGHLIGHT, outline=BLACK)
            _check(d, x + 15, y + 15)
            text(d, (x + 34, y + 15), label, P_SMALL, colour, anchor="lm", bold=True, max_width=w - 38)
        else:
            text(d, (x, y), label, P_SMALL, colour, bold=bold, max_width=width)
    ty = y0 + (top if top is not None else own_top)
    tweet = (card.get("tweet") or "") if tweet_lines > 0 else ""
    for k, line in enumerate(wrap_text(tweet, P_SMALL, x1 - x0 - 24, lines=tweet_lines, prose=True) if tweet else ()):
        text(d, (x0 + 12, ty + k * TWEET_LINE), line, P_SMALL, CARD_INK)


def _check(d: ImageDraw.ImageDraw, x: float, y: float) -> None:
    d.line([(x - 9, y), (x - 3, y + 8), (x + 10, y - 9)], fill=BLACK, width=5, joint="curve")


HAND_SHOWN = 10
"""At most this many cards in "My goals" (five rows of two, compact); the status says how many more."""
HAND_TWEET_LINES = 4


def _hand_grid(n: int) -> tuple[int, bool, bool]:
    """Columns, whether the cards are compact and whether they carry their geo-tweet, for a hand of ``n``
    cards drawn for the phone (600 px wide): one a row, whole, up to three; two a row without the tweet up to
    six; then compact (name, trio and "met" only), at most ``HAND_SHOWN``."""
    if n <= 3:
        return 1, False, True
    if n <= 6:
        return 2, False, False
    return 2, True, False


def _tops(shown: list[dict], cols: int, card_w: int, compact: bool) -> list[int]:
    """Per row of cards, where its geo-tweets start (the row's cards' tweets line up)."""
    tops = [max(_card_top(card, card_w, compact) for card in shown[i:i + cols]) for i in range(0, len(shown), cols)]
    return tops or [_card_top({"name": ""}, card_w)]


def draw_private(view: dict, name: str) -> Image.Image:
    """The seat's goal cards ("My goals") drawn for the phone, 600 px wide: one a row with its geo-tweet up to
    three cards, two a row without it up to six, then compact (``_hand_grid``); each marked when its trio
    stands on the board now."""
    hand = list(view.get("hand") or [])
    cols, compact, with_tweet = _hand_grid(len(hand))
    shown = hand[:HAND_SHOWN]
    card_w = (W - 2 * MARGIN - (cols - 1) * GAP) // cols
    tops = _tops(shown, cols, card_w, compact)
    tweet = HAND_TWEET_LINES if with_tweet else 0
    heights = [top + tweet * TWEET_LINE + 8 for top in tops]
    height = P_HEADER_H + GAP + sum(h + GAP for h in heights) + 4
    img, d = canvas(height, W)
    seat = view.get("seat")
    met = sum(1 for c in hand if c.get("met"))
    mine = seat is not None and view.get("current") == seat and view.get("phase") in ("turn", "bonus")
    cards = ngettext("{n} goal card", "{n} goal cards", len(hand))
    def said(who: str) -> str:
        status = _("Your turn - {cards}", cards=cards) if mine else _("{name}: {cards}", name=who, cards=cards)
        if met:
            status = ngettext("{status}, {n} met now", "{status}, {n} met now", met, status=status)
        if len(hand) > len(shown):
            status = _("{status} ({n} not shown)", status=status, n=len(hand) - len(shown))
        return status

    # the name whole where the status fits one line, else as much as leaves the rest on it (a computer's short form
    # at least): a name is never split over the status's two lines
    status = said(fit_name(name, P_SMALL, max(0.0, STATUS_ROOM - text_w(P_SMALL, said("")))))
    right = _countdown(view) if "countdown" in view else None
    room = W - 2 * MARGIN - 8 - (text_w(P_SMALL, right) + 16 if right else 0)
    title = next((t for t in (_("{game} - {name}'s goals", game=TITLE, name=name), _("{game} - your goals", game=TITLE))
                  if text_w(P_SMALL, t) + 2 <= room), TITLE)  # the longest that fits beside the countdown
    phone_header(d, title, status, right=right, seat=seat, arrow=mine)
    if not hand:
        text(d, (W / 2, P_HEADER_H + GAP + heights[0] / 2), _("No goal cards in hand."), P_LARGE, MUTED, anchor="mm")
    for i, card in enumerate(shown):
        col, row = i % cols, i // cols
        x = MARGIN + col * (card_w + GAP)
        y = P_HEADER_H + GAP + sum(h + GAP for h in heights[:row])
        _big_card(img, d, card, (x, y, x + card_w, y + heights[row]), met=bool(card.get("met")),
                  top=tops[row], tweet_lines=tweet, compact=compact)
    return img


def draw_card(card: dict, note: str | None = None) -> Image.Image:
    """One goal card, big, 600 px wide (e.g. for the channel when it is fulfilled): name, capital or location,
    group, trio, the geo-tweet. ``note`` (optional): a line under the group, e.g. "Ana fulfilled it on Europe"."""
    top = _card_top(card, W - 2 * MARGIN)
    height = 2 * MARGIN + top + 4 * TWEET_LINE + 10
    img, d = canvas(height, W)
    _big_card(img, d, card, (MARGIN, MARGIN, W - MARGIN, height - MARGIN), note=note, tweet_lines=4, top=top)
    return img
