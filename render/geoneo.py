"""The GEONEO board: the number fields with their coordinates on the edges, the pieces, the colours (or
teams) with scores, pieces and cards per player, the round's cards with who played them, the last move.

Pieces carry a shape as well as a colour (White: ring, Black: square, Red: triangle) and a contrasting rim,
so colour is never the only cue and black pieces stand out on the fields. Gold marks what the player to act
may choose (free fields while placing; the chosen corner and the corners on offer while choosing a shape,
``focus``); sky blue outlines the last placement or the last cleared shape.
"""

from __future__ import annotations

from collections.abc import Iterator

from PIL import Image, ImageDraw

from games.geoneo.rules import COLOUR_NAMES, field_name, points_text, shapes, team_name
from i18n import Text, _, here, ngettext, npgettext, pgettext
from render.common import (
    BLACK,
    BODY,
    FOOTER_H,
    HEADER_H,
    HIGHLIGHT,
    LARGE,
    MARGIN,
    MUTED,
    PANEL,
    PANEL_EDGE,
    SKY,
    SMALL,
    STATUS,
    TEXT,
    VERMILLION,
    WHITE,
    WIDTH,
    cached,
    canvas,
    fit_name,
    fit_text,
    font,
    footer,
    header,
    join_fit,
    join_names,
    mark,
    panel,
    played_by_computer,
    player_row,
    text,
    top_seats,
)

GAME = "geoneo"
TITLE = "GEONEO"

CELL = 60
GAP = 8
LEFT = MARGIN + 26  # room for the row numbers
TOP = HEADER_H + GAP + 28  # room for the column letters
PIECE_FILL = {0: (246, 246, 240), 1: (16, 16, 20), 2: VERMILLION}
PIECE_RIM = {0: BLACK, 1: WHITE, 2: BLACK}
FIELD_TINT = {1: (78, 86, 104), 2: (66, 90, 100), 3: (70, 96, 84), 4: (96, 90, 70), 5: (100, 78, 78),
              6: (88, 78, 102)}
NUMBER_INK = (222, 226, 234)
GOLD_FIELD = (92, 84, 40)
"""The fill of a field the player to act may choose (a free field while placing, the chosen corner)."""
COLOURS = (*PIECE_FILL.values(), *FIELD_TINT.values(), NUMBER_INK, GOLD_FIELD)
"""The flat colours this board adds to ``common.THEME`` (kept exactly in its PNG palette)."""
SS = 4


# --- pieces ----------------------------------------------------------------------------------------------
@cached(maxsize=16)
def piece_sprite(colour: int, r: int) -> Image.Image:
    """A piece of radius ``r``: its colour, a contrasting rim and its mark (ring, square, triangle)."""
    R = r * SS
    pad = 2 * SS
    size = 2 * (R + pad)
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = size / 2
    rim = max(3, r // 6) * SS
    if colour == 1:  # a white rim outside a dark edge: black pieces never melt into a dark field
        d.ellipse((c - R - pad + SS, c - R - pad + SS, c + R + pad - SS, c + R + pad - SS), fill=WHITE)
        d.ellipse((c - R + rim * 0.4, c - R + rim * 0.4, c + R - rim * 0.4, c + R - rim * 0.4),
                  fill=PIECE_FILL[1])
    else:
        d.ellipse((c - R, c - R, c + R, c + R), fill=PIECE_FILL[colour], outline=PIECE_RIM[colour], width=rim)
    m = R * 0.42
    ink = BLACK if colour == 0 else WHITE
    if colour == 0:
        d.ellipse((c - m, c - m, c + m, c + m), outline=ink, width=int(R * 0.16))
    elif colour == 1:
        d.rectangle((c - m * 0.85, c - m * 0.85, c + m * 0.85, c + m * 0.85), fill=ink)
    else:
        d.polygon([(c, c - m * 1.15), (c + m * 1.05, c + m * 0.8), (c - m * 1.05, c + m * 0.8)], fill=ink)
    return img.resize((size // SS, size // SS), Image.Resampling.LANCZOS)


def put_piece(img: Image.Image, centre: tuple[float, float], colour: int, r: int) -> None:
    sprite = piece_sprite(colour, r)
    mark("piece", 2 * r)
    img.paste(sprite, (round(centre[0] - sprite.width / 2), round(centre[1] - sprite.height / 2)), sprite)


# --- the board -------------------------------------------------------------------------------------------
def _cell(i: int, width: int) -> tuple[int, int, int, int]:
    r, c = divmod(i, width)
    x, y = LEFT + c * CELL, TOP + r * CELL
    return x, y, x + CELL, y + CELL


def _centre(i: int, width: int) -> tuple[float, float]:
    x0, y0, x1, y1 = _cell(i, width)
    return (x0 + x1) / 2, (y0 + y1) / 2


def _height(rows: int) -> int:
    return TOP + rows * CELL + GAP + 4 + FOOTER_H


@cached(maxsize=4)
def _background(numbers: tuple[int, ...], width: int, height: int) -> Image.Image:
    img, d = canvas(_height(height))
    for c in range(width):
        text(d, (LEFT + c * CELL + CELL / 2, TOP - 6), field_name(c, width)[0], BODY, MUTED, anchor="ms", bold=True)
    for r in range(height):
        text(d, (LEFT - 8, TOP + r * CELL + CELL / 2), str(r + 1), BODY, MUTED, anchor="rm", bold=True)
    for i, n in enumerate(numbers):
        x0, y0, x1, y1 = _cell(i, width)
        d.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), radius=8, fill=FIELD_TINT.get(n, PANEL),
                            outline=PANEL_EDGE)
        text(d, ((x0 + x1) / 2, (y0 + y1) / 2), str(n), 34, NUMBER_INK, anchor="mm")
    return img


def _option(d: ImageDraw.ImageDraw, i: int, view: dict) -> None:
    """A free field the piece may go to: gold frame, its number and its name."""
    width = view["width"]
    x0, y0, x1, y1 = _cell(i, width)
    cx = (x0 + x1) / 2
    d.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), radius=8, fill=GOLD_FIELD, outline=HIGHLIGHT, width=4)
    text(d, (cx, y0 + 23), str(view["numbers"][i]), 30, WHITE, anchor="mm", bold=True)
    text(d, (cx, y1 - 6), field_name(i, width), SMALL, HIGHLIGHT, anchor="ms", bold=True)


def _dashed_ring(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, fill, width: int = 4,
                 dashes: int = 10) -> None:
    x, y = centre
    step = 360 / dashes
    for k in range(dashes):
        d.arc((x - r, y - r, x + r, y + r), k * step, k * step + step * 0.55, fill=fill, width=width)


def _last_move(d: ImageDraw.ImageDraw, view: dict) -> None:
    """The last placement or cleared shape: sky-blue frames, the shape's outline joining them."""
    hl = view.get("highlight") or []
    width = view["width"]
    for i in hl:
        x0, y0, x1, y1 = _cell(i, width)
        d.rounded_rectangle((x0, y0, x1, y1), radius=10, outline=SKY, width=4)
    if len(hl) >= 2:
        pts = [_centre(i, width) for i in hl]
        if len(hl) == 4:
            pts = [pts[0], pts[1], pts[3], pts[2]]
        d.line(pts + [pts[0]] if len(pts) > 2 else pts, fill=SKY, width=4, joint="curve")


# --- the side panel --------------------------------------------------------------------------------------
def colour_label(view: dict, colour: int) -> Text:
    return team_name(colour) if view["players"] == 4 else COLOUR_NAMES[colour]


WIDE_SCORE = 88.5
"""A score as wide as scores get (two digits and a half): the side panel's layout is chosen for it, so it stays the
same all game long in a language."""


def _labels(view: dict, width: float) -> tuple[dict[int, Text], bool]:
    """The side panel's name of each colour (``width``: the panel's) and whether the panel's title must say
    "TEAMS": "Team White" when a team's name fits beside a wide score (``WIDE_SCORE``), else (German "Team
    Schwarz", Spanish "Equipo Blanco") the colours alone, under that title, for both teams alike."""
    colours = sorted(set(view["colours"]))
    labels = {c: colour_label(view, c) for c in colours}
    room = width - 52 - font(BODY).getlength(here(_points(WIDE_SCORE))) - 10
    if view["players"] == 4 and any(font(BODY).getlength(here(labels[c])) + 2 > room for c in colours):
        return {c: COLOUR_NAMES[c] for c in colours}, True
    return labels, False


def _columns(x1: float) -> tuple[float, float]:
    """The centres of the side panel's "pieces" and "cards" columns: as far right as their titles allow, 6 px
    apart at least (German and Spanish titles are wider)."""
    pieces_w = font(SMALL).getlength(here(_("pieces")))
    cards_w = font(SMALL).getlength(here(_("cards")))
    col_cards = min(x1 - 32, x1 - 6 - cards_w / 2)
    return min(x1 - 92, col_cards - cards_w / 2 - 6 - pieces_w / 2), col_cards


def _points(p: int | float) -> Text:
    return points_text(p, short=True)


def _side(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, names: list[str], box, winners: list[int]) -> None:
    x0, y0, x1, y1 = box
    panel(d, box)
    n = view["players"]
    colours = view["colours"]
    to_act = set(view["to_act"])
    over = view["phase"] == "over"
    col_pieces, col_cards = _columns(x1)
    labels, titled = _labels(view, x1 - x0)
    if titled:
        text(d, (x0 + 12, y0 + 8), _("TEAMS"), SMALL, MUTED, bold=True,
             max_width=col_pieces - font(SMALL).getlength(here(_("pieces"))) / 2 - x0 - 20)
    text(d, (col_pieces, y0 + 8), _("pieces"), SMALL, MUTED, anchor="ma")
    text(d, (col_cards, y0 + 8), _("cards"), SMALL, MUTED, anchor="ma")
    y = y0 + 34
    row = 29
    for colour in sorted(set(colours)):
        seats = [s for s in range(n) if colours[s] == colour]
        put_piece(img, (x0 + 22, y + row / 2), colour, 11)
        score = view["scores"][colour]
        won = over and colour in winners
        # (the winner's score is gold: the banner names it)
        room = x1 - x0 - 52 - font(BODY).getlength(here(_points(score))) - 10
        text(d, (x0 + 42, y + row / 2), labels[colour], BODY, TEXT, anchor="lm", bold=True, max_width=room)
        text(d, (x1 - 10, y + row / 2), _points(score), BODY, HIGHLIGHT if won else TEXT, anchor="rm", bold=True)
        y += row
        for s in seats:
            player_row(d, (x0 + 6, y, x1 - 6, y + row - 2), s, names[s], name_width=col_pieces - 16 - x0 - 6,
                       current=s in to_act, gone=view["left"][s], size=SMALL, mark=False,
                       computer=played_by_computer(view, s))
            cy = y + row / 2 - 1
            text(d, (col_pieces, cy), str(view["supply"][s]), SMALL, TEXT, anchor="mm")
            text(d, (col_cards, cy), str(view["hand_sizes"][s]), SMALL, TEXT, anchor="mm")
            y += row
        y += 6
    plays = view["round"]["plays"]
    if view["phase"] not in ("play", "place"):
        return
    y += 2
    d.line((x0 + 10, y, x1 - 10, y), fill=PANEL_EDGE, width=2)
    text(d, (x0 + 12, y + 6), _("THIS ROUND"), SMALL, MUTED, bold=True)
    if view["result"] is not None:
        text(d, (x1 - 10, y + 4), f"= {view['result']}", BODY, HIGHLIGHT, anchor="ra", bold=True)
    y += 32
    if not plays:
        text(d, (x0 + 12, y + 2), _("no card yet"), SMALL, MUTED)
    step = min(30, (y1 - 6 - y) / max(len(plays), 1))
    for play in plays:
        _play_row(d, play, names, (x0 + 10, y, x1 - 10, y + step - 3))
        y += step


def _play_row(d: ImageDraw.ImageDraw, play: dict, names: list[str], box) -> None:
    """One card of the round: the card (with its sign), who played it, and the result after it."""
    x0, y0, x1, y1 = box
    cy = (y0 + y1) / 2
    away = play["op"] == "away"
    sign = {"first": "", "+": "+", "-": "-", "away": ""}[play["op"]]
    d.rounded_rectangle((x0, y0, x0 + 46, y1), radius=5, fill=MUTED if away else WHITE, outline=BLACK, width=2)
    text(d, (x0 + 23, cy), f"{sign}{play['card']}", BODY, BLACK, anchor="mm", bold=True)
    after = here(pgettext("a card put away", "away")) if away else f"= {play['result']}"
    after_w = font(SMALL).getlength(after)
    text(d, (x0 + 56, cy), fit_name(names[play["seat"]], SMALL, x1 - x0 - 70 - after_w), SMALL, TEXT, anchor="lm")
    text(d, (x1, cy), after, SMALL, MUTED if away else TEXT, anchor="rm")


# --- texts -----------------------------------------------------------------------------------------------
def winners_of(view: dict) -> list[int]:
    """The winning seats: ``view["winners"]`` when present, else the seats of the best colour(s)."""
    if view.get("winners") is not None:
        return list(view["winners"])
    per_seat = [view["scores"][c] for c in view["colours"]]
    return top_seats(per_seat, view["left"])


def _winner_text(view: dict, names: list[str], seats: list[int]) -> str | Text:
    if not seats:
        return _("Game over")
    colours = sorted({view["colours"][s] for s in seats})
    best = view["scores"][colours[0]]

    def banner(who: str) -> Text:
        return npgettext("GEONEO's winners", "{players} wins with {points}!", "{players} tie with {points}!",
                         len(colours), players=who, points=points_text(best))

    room = WIDTH - 120 - font(STATUS).getlength(here(banner("")))
    if view["players"] == 4:
        who = join_names([here(team_name(c)) for c in colours])
        members = join_names(names[s] for s in range(4) if view["colours"][s] in colours)
        if font(STATUS).getlength(f"{who} ({members})") <= room:  # else the teams alone (the side panel names them)
            who = f"{who} ({members})"
    else:
        tags = [f" ({here(COLOUR_NAMES[view['colours'][s]])})" for s in seats]
        each = (room - sum(font(STATUS).getlength(t + " & ") for t in tags)) / len(seats)
        who = join_names([fit_name(names[s], STATUS, each) + t for s, t in zip(seats, tags, strict=True)])
    return banner(fit_text(who, STATUS, room))


def _status(view: dict, names: list[str], focus: dict | None = None) -> tuple[Text, int | None]:
    """What the header says and whose seat mark leads it."""
    to_act = view["to_act"]
    seat = to_act[0] if to_act else None
    phase = view["phase"]
    if phase == "play":
        need = _("open the round with a card") if view["result"] is None else \
            _("add or subtract a card (now {result})", result=view["result"])
    elif phase == "place":
        need = _("place a piece on a {number}", number=view["place"]["number"])
    elif focus and focus.get("anchor") is not None:
        need = _("pick a shape from {field}", field=field_name(focus["anchor"], view["width"]))
    else:
        need = _("clear away a shape")
    room = WIDTH - 2 * MARGIN - 64 - font(STATUS).getlength(here(_("{player}: {task}", player="", task=need)))
    return _("{player}: {task}", player=join_fit([names[s] for s in to_act], STATUS, room), task=need), seat


PHASE_NAME = {"play": _("Playing cards"), "place": _("Placing"), "clear": _("Clearing away"), "over": _("Game over")}


def _piece_colour(view: dict, seat: int) -> int:
    return view["colours"][seat]


def draw_board(view: dict, names: list[str], last: str | None = None, focus: dict | None = None) -> Image.Image:
    """The public board. ``focus`` (optional, while a shape is chosen): ``{"anchor": field, "fields": [...]}``:
    the chosen corner (a gold ring) and the other corners of the shapes on offer (dashed rings, named)."""
    width, height = view["width"], view["height"]
    img = _background(tuple(view["numbers"]), width, height).copy()
    d = ImageDraw.Draw(img)
    over = view["phase"] == "over"
    winners = winners_of(view) if over else []
    if over:
        header(d, TITLE, _winner_text(view, names, winners), right=PHASE_NAME["over"], winner=True)
    else:
        status, seat = _status(view, names, focus)
        # led by the colour of the pieces the player to act plays for
        mark = None if seat is None else lambda c: put_piece(img, c, _piece_colour(view, seat), 12)
        header(d, TITLE, status, right=PHASE_NAME.get(view["phase"]), seat=seat, mark=mark)

    if view["phase"] == "place" and view.get("place"):
        number = view["place"]["number"]
        for i, n in enumerate(view["numbers"]):
            if n == number and view["pieces"][i] is None:
                _option(d, i, view)
    _last_move(d, view)
    anchor = (focus or {}).get("anchor")
    if anchor is not None:
        x0, y0, x1, y1 = _cell(anchor, width)
        d.rounded_rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), radius=9, fill=GOLD_FIELD, outline=HIGHLIGHT, width=4)
    r = int(CELL * 0.36)
    for i, p in enumerate(view["pieces"]):
        if p is not None:
            put_piece(img, _centre(i, width), p, r)
    if focus:
        for i in focus.get("fields") or []:
            _dashed_ring(d, _centre(i, width), r + 5, HIGHLIGHT, 4)
        if anchor is not None:
            cx, cy = _centre(anchor, width)
            d.ellipse((cx - r - 7, cy - r - 7, cx + r + 7, cy + r + 7), outline=BLACK, width=9)
            d.ellipse((cx - r - 6, cy - r - 6, cx + r + 6, cy + r + 6), outline=HIGHLIGHT, width=6)

    side = (LEFT + width * CELL + 12, HEADER_H + GAP, WIDTH - MARGIN, TOP + height * CELL)
    win_colours = sorted({view["colours"][s] for s in winners})
    _side(img, d, view, names, side, win_colours)
    footer(d, last, height=img.height)
    return img


def draw(view: dict, names: list[str], last: str | None = None) -> Image.Image:
    return draw_board(view, names, last)


# --- the private image: a player's hand ------------------------------------------------------------------
HAND_CARD_W, HAND_CARD_H, HAND_GAP = 74, 108, 10


def draw_private(view: dict, name: str) -> Image.Image:
    """The seat's hand as cards, for the ephemeral "My hand" reply, with what the round needs of them."""
    hand = sorted(view.get("hand") or [])
    height = HEADER_H + GAP + HAND_CARD_H + 2 * 12 + GAP
    img, d = canvas(height)
    seat = view.get("seat")
    status = _("{player}: {cards}", player=fit_text(name, STATUS, 300),
               cards=ngettext("{n} card", "{n} cards", len(hand)))
    right = None
    mine = False
    if "phase" in view and seat is not None:
        mine = seat in view["to_act"]
        result = view.get("result")
        phase = view["phase"]
        if phase == "play" and mine:
            status = _("Your turn: open the round") if result is None else \
                _("Your turn: add or subtract (now {result})", result=result)
        elif phase == "place" and mine and view.get("place"):
            status = _("Your turn: place a piece on a {number}", number=view["place"]["number"])
        elif phase == "clear" and mine:
            status = _("Your turn: clear away a shape")
        elif phase == "play" and result is not None:
            status = _("{player}: the round is at {result}", player=fit_text(name, STATUS, 300), result=result)
        right = ngettext("{n} piece left", "{n} pieces left", view["supply"][seat])
    mark = None
    if "colours" in view and seat is not None:  # led by the colour of the pieces they play
        colour = view["colours"][seat]
        mark = lambda c: put_piece(img, c, colour, 12)  # noqa: E731
    title = _("{game} - {player}'s hand", game=TITLE, player=name) if len(name) <= 24 else \
        _("{game} - your hand", game=TITLE)
    header(d, title, status, right=right, seat=seat if mark else None, mark=mark, arrow=mine)
    top = HEADER_H + GAP + 12
    if not hand:
        text(d, (WIDTH / 2, top + HAND_CARD_H / 2), _("No cards in hand."), LARGE, MUTED, anchor="mm")
    total = len(hand) * HAND_CARD_W + (len(hand) - 1) * HAND_GAP
    x = (WIDTH - total) / 2
    for v in hand:
        d.rounded_rectangle((x, top, x + HAND_CARD_W, top + HAND_CARD_H), radius=9, fill=WHITE, outline=BLACK,
                            width=3)
        text(d, (x + HAND_CARD_W / 2, top + HAND_CARD_H / 2 + 2), str(v), 56, BLACK, anchor="mm", bold=True)
        x += HAND_CARD_W + HAND_GAP
    return img


def draw_hand(hand: list[int], name: str) -> Image.Image:
    """The old entry point: a hand without the rest of the view."""
    return draw_private({"hand": list(hand)}, name)


def palette_samples() -> Iterator[Image.Image]:
    """Boards of every phase for 2, 3 and 4 players (every colour, teams), a shape being chosen (``focus``),
    shapes just cleared, the game won, and hands, from seeded games: what ``render.palette`` learns this
    game's PNG palette from."""
    import random

    from games.geoneo.rules import Geoneo

    engine = Geoneo()
    names = ["Ana", "Bo", "Cy", "Dee"]
    last = "Ana places on D6: 2 points."
    for players in (2, 3, 4):
        seen: set[str] = set()
        cleared = 0
        for seed in range(20):
            state = engine.new(players, {}, seed)
            pick = random.Random(seed)
            while engine.to_act(state):
                phase = state["phase"]
                seat = min(engine.to_act(state))
                view = engine.view(state, None)
                if phase == "play" and "play" not in seen and view["round"]["plays"]:
                    seen.add("play")
                    yield draw_board(view, names[:players], last)
                    yield draw_private(engine.view(state, seat), names[seat])
                elif phase == "place" and "place" not in seen:
                    seen.add("place")
                    yield draw_board(view, names[:players], last)
                elif phase == "clear" and cleared < 3 and len(view["highlight"] or ()) >= 3:
                    cleared += 1  # the last cleared shape, outlined (diagonal strokes, pieces on them)
                    yield draw_board(view, names[:players], last)
                elif phase == "clear" and "clear" not in seen:
                    found = shapes(state["pieces"], state["width"], view["colours"][seat])
                    if found:
                        seen.add("clear")
                        anchor = found[0][2][0]
                        fields = sorted({f for _, _, corners in found if anchor in corners for f in corners
                                         if f != anchor})
                        yield draw_board(view, names[:players], last, {"anchor": anchor, "fields": fields})
                state, _ = engine.apply(state, seat, pick.choice(engine.legal_actions(state, seat)).key)
            if "over" not in seen:
                seen.add("over")
                view = engine.view(state, None)
                yield draw_board(view, names[:players], last)
                yield draw_board(dict(view, winners=[0]), names[:players], None)
            if seen >= {"play", "place", "clear", "over"} and cleared == 3:
                break

