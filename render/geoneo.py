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
from i18n import Text, _, here, ngettext, npgettext
from render.common import (
    BLACK,
    CURRENT_ROW,
    HIGHLIGHT,
    MARGIN,
    MUTED,
    P_BODY,
    P_HEADER_H,
    P_LARGE,
    P_SMALL,
    PANEL,
    PANEL_EDGE,
    PHONE_CANVAS,
    SKY,
    TEXT,
    VERMILLION,
    WHITE,
    cached,
    canvas,
    fit_name,
    fit_text,
    font,
    join_fit,
    join_names,
    mark,
    panel,
    phone_header,
    plain,
    played_by_computer,
    player_row,
    text,
    top_seats,
    turn_arrow,
)

GAME = "geoneo"
TITLE = "GEONEO"

WIDTH = PHONE_CANVAS
"""Drawn for the phone (docs/rendering.md, "Legible on a phone"): 600 px wide, every label at least ``P_SMALL``."""
CELL = 68
GAP = 8
LEFT = MARGIN + 32  # room for the row numbers
TOP = P_HEADER_H + GAP + 34  # room for the column letters
ROW = 44
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


def _panel_height(view: dict) -> int:
    return 40 + ROW * view["players"] + 8


def _height(view: dict) -> int:
    """The grid, then the players' panel (a row per player); no footer: the message says the last move."""
    return TOP + view["height"] * CELL + GAP + _panel_height(view) + GAP


@cached(maxsize=4)
def _background(numbers: tuple[int, ...], width: int, height: int, image_h: int) -> Image.Image:
    img, d = canvas(image_h, WIDTH)
    for c in range(width):
        text(d, (LEFT + c * CELL + CELL / 2, TOP - 6), field_name(c, width)[0], P_SMALL, MUTED, anchor="ms",
             bold=True)
    for r in range(height):
        text(d, (LEFT - 8, TOP + r * CELL + CELL / 2), str(r + 1), P_SMALL, MUTED, anchor="rm", bold=True)
    for i, n in enumerate(numbers):
        x0, y0, x1, y1 = _cell(i, width)
        d.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), radius=8, fill=FIELD_TINT.get(n, PANEL),
                            outline=PANEL_EDGE)
        text(d, ((x0 + x1) / 2, (y0 + y1) / 2), str(n), 40, NUMBER_INK, anchor="mm")
    return img


def _option(d: ImageDraw.ImageDraw, i: int, view: dict) -> None:
    """A free field the piece may go to: gold frame, its number and its name."""
    width = view["width"]
    x0, y0, x1, y1 = _cell(i, width)
    cx = (x0 + x1) / 2
    d.rounded_rectangle((x0 + 2, y0 + 2, x1 - 2, y1 - 2), radius=8, fill=GOLD_FIELD, outline=HIGHLIGHT, width=4)
    text(d, (cx, y0 + 22), str(view["numbers"][i]), 32, WHITE, anchor="mm", bold=True)
    text(d, (cx, y1 - 7), field_name(i, width), P_SMALL, HIGHLIGHT, anchor="ms", bold=True)


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


def _points(p: int | float) -> Text:
    return points_text(p, short=True)


def _card_icon(d: ImageDraw.ImageDraw, xy: tuple[float, float]) -> None:
    """A small card (white, a dark edge): "cards in hand" beside a number."""
    x, y = xy
    d.rounded_rectangle((x - 9, y - 13, x + 9, y + 13), radius=3, fill=WHITE, outline=BLACK, width=2)


def _chip(d: ImageDraw.ImageDraw, box, play: dict) -> None:
    """A card played this round, with its sign; put away: grey and struck through."""
    x0, y0, x1, y1 = box
    away = play["op"] == "away"
    sign = {"first": "", "+": "+", "-": "-", "away": ""}[play["op"]]
    d.rounded_rectangle(box, radius=6, fill=MUTED if away else WHITE, outline=BLACK, width=2)
    text(d, ((x0 + x1) / 2, (y0 + y1) / 2), f"{sign}{play['card']}", P_BODY, BLACK, anchor="mm", bold=True)
    if away:
        d.line((x0 + 4, y1 - 4, x1 - 4, y0 + 4), fill=BLACK, width=3)


def _players(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, names: list[str], box,
             winners: list[int]) -> None:
    """A row per player: turn arrow, their pieces' colour, name, pieces left (a piece and the number), cards in
    hand (a card and the number), the card they played this round, and their colour's (team's) points; the
    panel's title line says the round's result. The colours' names are the pieces' marks (ring, square,
    triangle); with 4 players a team's two rows share the piece and the points."""
    x0, y0, x1, y1 = box
    panel(d, box)
    n = view["players"]
    colours = view["colours"]
    to_act = set(view["to_act"])
    over = view["phase"] == "over"
    in_round = view["phase"] in ("play", "place")
    plays = {p["seat"]: p for p in view["round"]["plays"]} if in_round else {}
    score_x, chip_x, cards_x, pieces_x = x1 - 10, x1 - 160, x1 - 226, x1 - 300
    if in_round:
        title = here(_("THIS ROUND"))
        w = text(d, (x0 + 12, y0 + 6), title, P_SMALL, MUTED, bold=True)
        if view["result"] is not None:
            text(d, (x0 + 22 + w, y0 + 6), f"= {view['result']}", P_SMALL, HIGHLIGHT, bold=True)
    elif n == 4:
        text(d, (x0 + 12, y0 + 6), _("TEAMS"), P_SMALL, MUTED, bold=True)
    y = y0 + 40
    order = sorted(range(n), key=lambda s: (colours[s], s))
    for s in order:
        cy = y + ROW / 2
        colour = colours[s]
        row = (x0 + 6, y + 1, pieces_x - 32, y + ROW - 3)
        if s in to_act:
            d.rounded_rectangle((x0 + 6, y + 1, x1 - 6, y + ROW - 3), radius=7, fill=CURRENT_ROW, outline=HIGHLIGHT,
                                width=2)
        put_piece(img, (x0 + 44, cy - 1), colour, 15)
        player_row(d, (row[0] + 40, row[1], row[2], row[3]), s, names[s], name_width=row[2] - row[0] - 40,
                   gone=view["left"][s], size=P_BODY, mark=False, computer=played_by_computer(view, s), k=1.25,
                   least=P_SMALL)
        if s in to_act:
            turn_arrow(d, (x0 + 16, cy - 1), 9)
        put_piece(img, (pieces_x - 18, cy - 1), colour, 15)
        text(d, (pieces_x + 4, cy), str(view["supply"][s]), P_BODY, TEXT, anchor="lm")
        _card_icon(d, (cards_x - 12, cy - 1))
        text(d, (cards_x + 6, cy), str(view["hand_sizes"][s]), P_BODY, TEXT, anchor="lm")
        if s in plays:
            _chip(d, (chip_x - 30, y + 5, chip_x + 30, y + ROW - 7), plays[s])
        won = over and colour in winners
        text(d, (score_x, cy), _points(view["scores"][colour]), P_BODY, HIGHLIGHT if won else TEXT, anchor="rm",
             bold=True)
        y += ROW


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

    # the banner's inside, on two lines if need be (common.phone_header)
    room = 2 * (WIDTH - 2 * MARGIN - 100) * 0.9 - font(P_SMALL, bold=True).getlength(here(banner("")))
    if view["players"] == 4:
        who = join_names([here(team_name(c)) for c in colours])
        members = join_names(names[s] for s in range(4) if view["colours"][s] in colours)
        if font(P_SMALL, bold=True).getlength(f"{who} ({members})") <= room:  # else the teams alone
            who = f"{who} ({members})"
    else:
        tags = [f" ({here(COLOUR_NAMES[view['colours'][s]])})" for s in seats]
        each = (room - sum(font(P_SMALL, bold=True).getlength(t + " & ") for t in tags)) / len(seats)
        who = join_names([fit_name(names[s], P_SMALL, each) + t for s, t in zip(seats, tags, strict=True)])
    return banner(fit_text(who, P_SMALL, room, bold=True))


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
    task = here(_("{player}: {task}", player="", task=need))
    room = WIDTH - 2 * MARGIN - 70 - font(P_SMALL, bold=True).getlength(task)  # the header's least size
    if room < 120:  # (German) the status takes two lines (common.phone_header): the names take the first
        room = WIDTH - 2 * MARGIN - 90
    return _("{player}: {task}", player=join_fit([names[s] for s in to_act], P_SMALL, room), task=need), seat


PHASE_NAME = {"play": _("Playing cards"), "place": _("Placing"), "clear": _("Clearing away"), "over": _("Game over")}


def _piece_colour(view: dict, seat: int) -> int:
    return view["colours"][seat]


def draw_board(view: dict, names: list[str], last: str | None = None, focus: dict | None = None) -> Image.Image:
    """The public board. ``focus`` (optional, while a shape is chosen): ``{"anchor": field, "fields": [...]}``:
    the chosen corner (a gold ring) and the other corners of the shapes on offer (dashed rings, named)."""
    width, height = view["width"], view["height"]
    img = _background(tuple(view["numbers"]), width, height, _height(view)).copy()
    d = ImageDraw.Draw(img)
    over = view["phase"] == "over"
    winners = winners_of(view) if over else []
    if over:
        phone_header(d, TITLE, _winner_text(view, names, winners), right=PHASE_NAME["over"], winner=True)
    else:
        status, seat = _status(view, names, focus)
        # led by the colour of the pieces the player to act plays for
        mark = None if seat is None else lambda c: put_piece(img, c, _piece_colour(view, seat), 15)
        phone_header(d, TITLE, status, right=PHASE_NAME.get(view["phase"]), seat=seat, mark=mark)

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

    top = TOP + height * CELL + GAP
    win_colours = sorted({view["colours"][s] for s in winners})
    _players(img, d, view, names, (MARGIN, top, WIDTH - MARGIN, top + _panel_height(view)), win_colours)
    return img


def draw(view: dict, names: list[str], last: str | None = None) -> Image.Image:
    return draw_board(view, names, last)


# --- the private image: a player's hand ------------------------------------------------------------------
HAND_CARD_W, HAND_CARD_H, HAND_GAP = 58, 96, 6


def draw_private(view: dict, name: str) -> Image.Image:
    """The seat's hand as cards, for the ephemeral "My hand" reply, with what the round needs of them."""
    hand = sorted(view.get("hand") or [])
    height = P_HEADER_H + GAP + HAND_CARD_H + 2 * 12 + GAP
    img, d = canvas(height, WIDTH)
    seat = view.get("seat")
    status = _("{player}: {cards}", player=fit_text(name, P_BODY, 300),
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
            status = _("{player}: the round is at {result}", player=fit_text(name, P_BODY, 260), result=result)
        right = ngettext("{n} piece left", "{n} pieces left", view["supply"][seat])
    mark = None
    if "colours" in view and seat is not None:  # led by the colour of the pieces they play
        colour = view["colours"][seat]
        mark = lambda c: put_piece(img, c, colour, 15)  # noqa: E731
    title = _("{game} - {player}'s hand", game=TITLE, player=name)
    right_w = font(P_SMALL).getlength(plain(here(right))) + 16 if right else 0
    if font(P_SMALL).getlength(plain(here(title))) > WIDTH - 2 * MARGIN - 8 - right_w:
        title = _("{game} - your hand", game=TITLE)
    phone_header(d, title, status, right=right, seat=seat if mark else None, mark=mark, arrow=mine)
    top = P_HEADER_H + GAP + 12
    if not hand:
        text(d, (WIDTH / 2, top + HAND_CARD_H / 2), _("No cards in hand."), P_LARGE, MUTED, anchor="mm")
    total = len(hand) * HAND_CARD_W + (len(hand) - 1) * HAND_GAP
    x = (WIDTH - total) / 2
    for v in hand:
        d.rounded_rectangle((x, top, x + HAND_CARD_W, top + HAND_CARD_H), radius=9, fill=WHITE, outline=BLACK,
                            width=3)
        text(d, (x + HAND_CARD_W / 2, top + HAND_CARD_H / 2 + 2), str(v), 46, BLACK, anchor="mm", bold=True)
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

