"""GEONEO: add/subtract cards to pick a field, place pieces, then clear away shapes for points
(../shared/rules/geoneo.txt and the GEONEO section of decisions.md).

Fields are numbered ``row * width + col``; the board (numbers per field) is data (data/board.json), any
rectangular board works. Colours: with 2-3 players each seat has its own; with 4, partners (opposite seats,
0+2 and 1+3) share one colour and score as a team. Scores are kept in half points (triangles can score .5).

Phases: ``play`` (a round of cards), ``place`` (a piece on a field of the round's number), ``clear``
(clearing away shapes), ``over``.

Keys: ``c<v>`` first card of a round, ``a<v>`` add, ``s<v>`` subtract, ``d<v>`` put a card away (nothing
fits), ``f<field>`` place on a field, shape keys ``L<a>.<b>`` / ``R<a>.<b>.<c>.<d>`` / ``T<corner>.<a>.<b>``.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from importlib import resources

import i18n
from games.core import (
    SYSTEM,
    Action,
    Engine,
    Event,
    Result,
    Rng,
    State,
    left_the_game,
    rank_by_score,
    register,
    scores_words,
)
from i18n import Text, _, from_data, join, ngettext, pgettext

CARDS = tuple(v for v in range(1, 7) for _ in range(6))
HAND = 9
PIECES = {2: 18, 3: 12, 4: 9}
COLOUR_NAMES = (pgettext("piece colour", "White"), pgettext("piece colour", "Black"), pgettext("piece colour", "Red"))
COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@lru_cache(maxsize=1)
def standard_board() -> tuple[tuple[int, ...], ...]:
    data = json.loads((resources.files("games.geoneo") / "data" / "board.json").read_text(encoding="utf-8"))
    return tuple(tuple(row) for row in data["rows"])


def field_name(field: int, width: int) -> str:
    """Column letter and row number, as printed on the board: field 0 is A1."""
    return f"{COLUMNS[field % width]}{field // width + 1}"


def colour_of(seat: int, players: int) -> int:
    return seat % 2 if players == 4 else seat


def half(points2: int) -> int | float:
    """Half points back to points (4.5 stays 4.5, 8.0 becomes 8)."""
    return points2 // 2 if points2 % 2 == 0 else points2 / 2


def points_text(points: int | float, short: bool = False) -> Text:
    """ "3 points", "4.5 points" ("3 pts" when ``short``)."""
    count = 1 if points == 1 else 2  # (a half point takes the plural)
    if short:
        return ngettext("{points} pt", "{points} pts", count, points=i18n.number(points))
    return ngettext("{points} point", "{points} points", count, points=i18n.number(points))


def seat_ref(seat: int) -> str:
    """The placeholder the table fills with a seat's name."""
    return "{p" + str(seat) + "}"


def team_name(colour: int) -> Text:
    return _("Team {colour}", colour=COLOUR_NAMES[colour])


# --- shapes ------------------------------------------------------------------------------------------------
def shapes(pieces: list[int | None], width: int, colour: int) -> list[tuple[str, int, tuple[int, ...]]]:
    """Every valid shape of ``colour``: (key, points in halves, corner fields), best first, then by key.

    Line: two ends in one row, column or 45-degree diagonal; points = fields from end to end.
    Rectangle: four corners, axis-aligned, at least 2 x 2; points = side x side.
    Right triangle: the right-angle corner shares a row with one corner and a column with the other, legs
    of at least 2 fields; points = leg x leg / 2.
    """
    mine = [i for i, p in enumerate(pieces) if p == colour]
    own = set(mine)
    pos = {i: divmod(i, width) for i in mine}
    found: list[tuple[str, int, tuple[int, ...]]] = []
    by_row: dict[int, list[int]] = {}
    by_col: dict[int, list[int]] = {}
    for i in mine:
        r, c = pos[i]
        by_row.setdefault(r, []).append(i)
        by_col.setdefault(c, []).append(i)
    for x, a in enumerate(mine):
        ra, ca = pos[a]
        for b in mine[x + 1:]:
            rb, cb = pos[b]
            dr, dc = rb - ra, cb - ca
            if dr == 0 or dc == 0 or abs(dr) == abs(dc):
                found.append((f"L{a}.{b}", 2 * (max(abs(dr), abs(dc)) + 1), (a, b)))
            if dr > 0 and dc > 0:  # a is the top-left corner of a rectangle
                c1, c2 = ra * width + cb, rb * width + ca
                if c1 in own and c2 in own:
                    found.append((f"R{a}.{c1}.{c2}.{b}", 2 * (dr + 1) * (dc + 1), (a, c1, c2, b)))
    for corner in mine:
        r, c = pos[corner]
        for a in by_row[r]:
            if a == corner:
                continue
            for b in by_col[c]:
                if b == corner:
                    continue
                legs = (abs(pos[a][1] - c) + 1) * (abs(pos[b][0] - r) + 1)
                found.append((f"T{corner}.{a}.{b}", legs, (corner, a, b)))
    found.sort(key=lambda s: (-s[1], s[0]))
    return found


def shape_fields(key: str, width: int) -> str:
    """The fields that name a shape: its ends or corners ("A1-C3"; a rectangle by two opposite corners)."""
    fields = [field_name(int(f), width) for f in key[1:].split(".")]
    if key[0] == "R":
        fields = [fields[0], fields[3]]  # two opposite corners name it
    return "-".join(fields)


def describe_shape(key: str, width: int) -> Text:
    fields = shape_fields(key, width)
    if key[0] == "L":
        return _("Line {fields}", fields=fields)
    if key[0] == "R":
        return _("Rectangle {fields}", fields=fields)
    return _("Triangle {fields}", fields=fields)


@register
class Geoneo(Engine):
    slug = "geoneo"
    title = "GEONEO"
    accent = 0x0072B2
    min_players = 2
    max_players = 4
    private_label = _("My hand")
    group_noun = _("shape")

    def group_size(self, n: int) -> Text:
        return ngettext("{n} shape", "{n} shapes", n)

    # --- setup ---------------------------------------------------------------------------------------
    def setup(self, players: int, options: dict, state: State) -> None:
        board = standard_board()
        width, height = len(board[0]), len(board)
        rng = Rng(state)
        start = rng.below(players)
        colours = 2 if players == 4 else players
        state.update(
            width=width,
            height=height,
            numbers=[n for row in board for n in row],
            pieces=[None] * (width * height),
            supply=[PIECES[players]] * players,
            hands=[[] for _ in range(players)],
            deck=[],
            away=[],
            round={"start": start, "plays": []},
            place=None,
            phase="play",
            clearer=None,
            scores=[0] * colours,
            cleared=[0] * colours,
            highlight=None,
        )
        self._deal(state)
        events: list[Event] = []
        self._autoplay(state, events)  # a start with no choice is played by the table, like any other step
        state["opening"] = [[e.text.to_data() if isinstance(e.text, Text) else e.text, e.seat] for e in events]

    def opening(self, state: State) -> list[Event]:
        """(States saved before the texts were kept as data hold English strings: shown as they are.)"""
        return [Event(from_data(text), seat) for text, seat in state.get("opening", [])]

    def _deal(self, state: State) -> None:
        cards = list(CARDS)
        Rng(state).shuffle(cards)
        n = state["players"]
        state["hands"] = [sorted(cards[i * HAND:(i + 1) * HAND]) for i in range(n)]
        state["deck"] = cards[n * HAND:]
        state["away"] = []

    # --- helpers -------------------------------------------------------------------------------------
    def _colour(self, state: State, seat: int) -> int:
        return colour_of(seat, state["players"])

    def _result(self, state: State) -> int | None:
        plays = state["round"]["plays"]
        return plays[-1]["result"] if plays else None

    def _round_seat(self, state: State) -> int:
        """The seat to play the next card of the round."""
        r = state["round"]
        return (r["start"] + len(r["plays"])) % state["players"]

    def _free(self, state: State, number: int) -> list[int]:
        return [i for i, n in enumerate(state["numbers"]) if n == number and state["pieces"][i] is None]

    def _supply_seat(self, state: State, seat: int) -> int | None:
        """Whose pieces ``seat`` places: their own, or (4 players) the partner's when theirs are gone."""
        if state["supply"][seat] > 0:
            return seat
        if state["players"] == 4 and state["supply"][(seat + 2) % 4] > 0:
            return (seat + 2) % 4
        return None

    def _colour_done(self, state: State, colour: int) -> bool:
        return all(state["supply"][s] == 0 for s in range(state["players"]) if self._colour(state, s) == colour)

    # --- the protocol --------------------------------------------------------------------------------
    def to_act(self, state: State) -> frozenset[int]:
        phase = state["phase"]
        if phase == "over":
            return frozenset()
        if phase == "play":
            return frozenset({self._round_seat(state)})
        if phase == "place":
            return frozenset({state["place"]["seat"]})
        return frozenset({state["clearer"]})

    def actions(self, state: State, seat: int) -> list[Action]:
        phase = state["phase"]
        if phase == "play":
            return self._card_actions(state, seat)
        if phase == "place":
            number = state["place"]["number"]
            width = state["width"]
            return [Action(f"f{i}", f"{field_name(i, width)} ({number})", "primary", "field")
                    for i in self._free(state, number)]
        width = state["width"]
        return [Action(key, _("{shape}: {points}", shape=describe_shape(key, width),
                              points=points_text(half(pts), short=True)), "primary",
                       field_name(min(corners), width))
                for key, pts, corners in shapes(state["pieces"], width, self._colour(state, seat))]

    def focus(self, state: State, seat: int, group: str) -> dict | None:
        """While a shape is chosen by its first corner (``group``, a field name): that corner and the other
        corners of the shapes it starts, for the board to mark."""
        width = state["width"]
        found = [corners for key, _pts, corners in shapes(state["pieces"], width, self._colour(state, seat))
                 if field_name(min(corners), width) == group]
        if not found:
            return None
        anchor = min(found[0])
        return {"anchor": anchor, "fields": sorted({f for c in found for f in c} - {anchor})}

    def _card_actions(self, state: State, seat: int) -> list[Action]:
        values = sorted(set(state["hands"][seat]))
        result = self._result(state)
        if result is None:
            return [Action(f"c{v}", _("Play {card}", card=v), "primary", "card", secret=True) for v in values]
        last = len(state["round"]["plays"]) == state["players"] - 1
        low = 1 if last else 0
        acts = []
        for v in values:
            if low <= result + v <= 6:
                acts.append(Action(f"a{v}", f"+{v} = {result + v}", "success", "card", secret=True))
            if low <= result - v <= 6:
                acts.append(Action(f"s{v}", f"-{v} = {result - v}", "danger", "card", secret=True))
        if not acts:
            acts = [Action(f"d{v}", _("Put away {card} (nothing fits)", card=v), "secondary", "card", secret=True)
                    for v in values]
        return acts

    def play(self, state: State, seat: int, key: str, events: list[Event]) -> None:
        self._do(state, seat, key, events)
        self._autoplay(state, events)

    def _do(self, state: State, seat: int, key: str, events: list[Event]) -> None:
        kind = key[0]
        if kind in "casd":
            self._play_card(state, seat, kind, int(key[1:]), events)
        elif kind == "f":
            self._place(state, seat, int(key[1:]), events)
        else:
            self._clear(state, seat, key, events)

    # --- cards ---------------------------------------------------------------------------------------
    def _play_card(self, state: State, seat: int, kind: str, value: int, events: list[Event]) -> None:
        state["hands"][seat].remove(value)
        before = self._result(state)
        result = {"c": value, "a": (before or 0) + value, "s": (before or 0) - value, "d": before}[kind]
        op = {"c": "first", "a": "+", "s": "-", "d": "away"}[kind]
        state["round"]["plays"].append({"seat": seat, "card": value, "op": op, "result": result})
        state["highlight"] = None
        who = seat_ref(seat)
        if kind == "c":
            events.append(Event(_("{player} opens the round with a {card}.", player=who, card=value), seat))
        elif kind == "d":
            events.append(Event(_("{player} has no card that fits and puts a {card} away (still {result}).",
                                  player=who, card=value, result=result), seat))
        else:
            events.append(Event(_("{player} plays {sign}{card}: {before} {sign} {card} = {result}.", player=who,
                                  sign=op, card=value, before=before, result=result), seat))
        if len(state["round"]["plays"]) == state["players"]:
            self._end_of_cards(state, events)

    def _end_of_cards(self, state: State, events: list[Event]) -> None:
        plays = state["round"]["plays"]
        final = plays[-1]["result"]
        if final == 0:
            events.append(Event(_("The final result is 0: the round is void, no piece is placed."), SYSTEM))
            self._next_round(state, events)
            return
        # the start player places on the final result; failing that, the last player on the result before
        # their card, then the player before them, and so on
        candidates = [(plays[0]["seat"], final)]
        for k in range(len(plays) - 1, 0, -1):
            candidates.append((plays[k]["seat"], plays[k - 1]["result"]))
        for seat, number in candidates:
            if 1 <= number <= 6 and self._free(state, number) and self._supply_seat(state, seat) is not None:
                state["phase"] = "place"
                state["place"] = {"seat": seat, "number": number}
                return
        events.append(Event(_("No free field fits ({result} or the results before): nobody places.", result=final),
                            SYSTEM))
        self._next_round(state, events)

    def _next_round(self, state: State, events: list[Event]) -> None:
        state["away"].extend(p["card"] for p in state["round"]["plays"])
        state["round"] = {"start": (state["round"]["start"] + 1) % state["players"], "plays": []}
        state["place"] = None
        state["phase"] = "play"
        if not any(state["hands"]):
            self._deal(state)
            events.append(Event(_("All cards are played: the {n} cards are shuffled and dealt again.", n=len(CARDS)),
                                SYSTEM))

    # --- placing -------------------------------------------------------------------------------------
    def _place(self, state: State, seat: int, field: int, events: list[Event]) -> None:
        owner = self._supply_seat(state, seat)
        colour = self._colour(state, owner)
        state["pieces"][field] = colour
        state["supply"][owner] -= 1
        state["highlight"] = [field]
        where = field_name(field, state["width"])
        if owner == seat:
            events.append(Event(_("{player} places on {field}.", player=seat_ref(seat), field=where), seat))
        else:
            events.append(Event(_("{player} places on {field} (a piece of {partner}).", player=seat_ref(seat),
                                  field=where, partner=seat_ref(owner)), seat))
        if self._colour_done(state, colour):
            state["away"].extend(p["card"] for p in state["round"]["plays"])
            state["round"]["plays"] = []
            state["place"] = None
            events.append(Event(_("{player}'s last piece is placed: clearing away begins with them.",
                                  player=seat_ref(seat)), seat))
            self._start_clearing(state, seat, events)
        else:
            self._next_round(state, events)

    # --- clearing away -------------------------------------------------------------------------------
    def _start_clearing(self, state: State, seat: int, events: list[Event]) -> None:
        state["phase"] = "clear"
        self._set_clearer(state, seat, events)

    def _set_clearer(self, state: State, first: int, events: list[Event]) -> None:
        """The first seat from ``first`` on (clockwise) with a shape; the game ends when nobody has one."""
        n = state["players"]
        for step in range(n):
            seat = (first + step) % n
            if shapes(state["pieces"], state["width"], self._colour(state, seat)):
                state["clearer"] = seat
                return
            if not state["left"][seat]:
                events.append(Event(_("{player} has no shape left and is skipped.", player=seat_ref(seat)), seat))
        state["clearer"] = None
        state["phase"] = "over"
        events.append(Event(_("Nobody has a shape left: the game is over."), SYSTEM))

    def _clear(self, state: State, seat: int, key: str, events: list[Event]) -> None:
        colour = self._colour(state, seat)
        shape = next(s for s in shapes(state["pieces"], state["width"], colour) if s[0] == key)
        _key, points2, corners = shape
        for f in corners:
            state["pieces"][f] = None
        state["scores"][colour] += points2
        state["cleared"][colour] += len(corners)
        state["highlight"] = list(corners)
        fields, points, who = shape_fields(key, state["width"]), points_text(half(points2)), seat_ref(seat)
        if key[0] == "L":
            text = _("{player} clears a Line {fields} for {points}.", player=who, fields=fields, points=points)
        elif key[0] == "R":
            text = _("{player} clears a Rectangle {fields} for {points}.", player=who, fields=fields, points=points)
        else:
            text = _("{player} clears a Triangle {fields} for {points}.", player=who, fields=fields, points=points)
        events.append(Event(text, seat))
        self._set_clearer(state, (seat + 1) % state["players"], events)

    # --- absent and departing players ----------------------------------------------------------------
    def _autoplay(self, state: State, events: list[Event]) -> None:
        """The table plays every step that is no choice: seats whose player left (as on a timeout, so rounds
        keep their shape) and a seat with a single legal action (the last card in hand, a card put away, the
        only field, the only shape), each logged; it stops at the first real choice."""
        guard = 0
        while state["phase"] != "over":
            seat = next(iter(self.to_act(state)))
            if state["left"][seat]:
                self._table_move(state, seat, events)
            else:
                only = self.actions(state, seat)
                if len(only) != 1:
                    return
                events.append(Event(_("{player} has a single option; the table plays it.", player=seat_ref(seat)),
                                    SYSTEM))
                self._do(state, seat, only[0].key, events)
            guard += 1
            if guard > 10_000:
                raise RuntimeError("autoplay did not finish")

    def _table_move(self, state: State, seat: int, events: list[Event]) -> None:
        """The first legal option: the lowest card that fits, the first free field, or the best shape."""
        self._do(state, seat, self.actions(state, seat)[0].key, events)

    def on_leave(self, state: State, seat: int, events: list[Event]) -> None:
        # (core's "left the game" first, so a moderator's removal is retold as such)
        events.append(Event(join([left_the_game(seat), _("The table plays their seat from now on.")]), SYSTEM))
        if len(self.remaining(state)) < 2:
            state["phase"] = "over"
            return
        if self._team_gone(state):
            state["phase"] = "over"
            return
        self._autoplay(state, events)

    def _team_gone(self, state: State) -> bool:
        """Four players: a team whose both players left cannot go on."""
        if state["players"] != 4:
            return False
        return any(state["left"][c] and state["left"][c + 2] for c in (0, 1))

    def on_timeout(self, state: State, seat: int, events: list[Event]) -> None:
        """The table plays for the idle player: the first legal option (lowest card that fits, the first
        free field, or the best shape)."""
        events.append(Event(_("{player} ran out of time; the table plays for them.", player=seat_ref(seat)), SYSTEM))
        self._table_move(state, seat, events)
        self._autoplay(state, events)

    # --- what players see ----------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        """Public: board, pieces, supplies, the round's cards, scores, hand sizes. Own hand only to its seat."""
        n = state["players"]
        view = {
            "game": self.slug,
            "players": n,
            "width": state["width"],
            "height": state["height"],
            "numbers": list(state["numbers"]),
            "pieces": list(state["pieces"]),
            "colours": [self._colour(state, s) for s in range(n)],
            "supply": list(state["supply"]),
            "hand_sizes": [len(h) for h in state["hands"]],
            "round": {"start": state["round"]["start"], "plays": [dict(p) for p in state["round"]["plays"]]},
            "result": self._result(state),
            "place": dict(state["place"]) if state["place"] else None,
            "phase": state["phase"],
            "to_act": sorted(self.to_act(state)),
            "scores": [half(s) for s in state["scores"]],
            "highlight": list(state["highlight"]) if state["highlight"] else None,
            "away_count": len(state["away"]),
            "away": sorted(state["away"]),  # played face up: what a player may remember (computers sample from it)
            "left": list(state["left"]),
        }
        if state["phase"] == "over":
            view["winners"] = list(self.result(state).winners)
        if seat is not None and 0 <= seat < n:
            view["hand"] = list(state["hands"][seat])
            view["seat"] = seat
        return view

    def secret_variants(self, state: State, seat: int | None, rng) -> list[State]:
        """Swap a card between two hidden places (another seat's hand or the face-down pile)."""
        hidden = [("hands", s) for s in range(state["players"]) if s != seat and state["hands"][s]]
        if state["deck"]:
            hidden.append(("deck", None))
        variants = []
        for _attempt in range(3):
            if len(hidden) < 2:
                break
            (ka, sa), (kb, sb) = rng.sample(hidden, 2)
            new = copy.deepcopy(state)
            a = new["hands"][sa] if ka == "hands" else new["deck"]
            b = new["hands"][sb] if kb == "hands" else new["deck"]
            i, j = rng.randrange(len(a)), rng.randrange(len(b))
            if a[i] == b[j]:
                continue
            a[i], b[j] = b[j], a[i]
            for h in new["hands"]:
                h.sort()
            variants.append(new)
        return variants

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        n = state["players"]
        scores = list(self.scores_now(state))
        teams = [[0, 2], [1, 3]] if n == 4 else None
        return Result(tuple(scores), rank_by_score(scores, self.remaining(state), teams),
                      {"teams": teams, "team_names": [team_name(c) for c in (0, 1)] if teams else None})

    def scores_now(self, state: State) -> tuple[int | float, ...]:
        """Each seat's colour's points (partners share theirs)."""
        return tuple(half(state["scores"][self._colour(state, s)]) for s in range(state["players"]))

    def teams(self, players: int) -> list[list[int]] | None:
        return [[0, 2], [1, 3]] if players == 4 else None

    def progress(self, state: State) -> Text | None:
        """ "Placing: 14 pieces left", then "Clearing away shapes"."""
        if state["phase"] == "over":
            return None
        if state["phase"] == "clear":
            return _("Clearing away shapes")
        left = sum(state["supply"])
        return ngettext("Placing: {n} piece left", "Placing: {n} pieces left", left)

    def position(self, state: State) -> Text:
        """The scores, each colour's pieces on the board and in supply, the round's cards and its number."""
        n = state["players"]
        said = [scores_words(self.scores_now(state))]
        for seat in range(n):
            colour = self._colour(state, seat)
            said.append(_("{player} ({colour}): {board} on the board, {supply} to place, {cards}.",
                          player=seat_ref(seat), colour=COLOUR_NAMES[colour],
                          board=sum(p == colour for p in state["pieces"]), supply=state["supply"][seat],
                          cards=ngettext("{n} card in hand", "{n} cards in hand", len(state["hands"][seat]))))
        plays, made = state["round"]["plays"], self._result(state)
        if made is not None and state["phase"] in ("play", "place"):
            said.append(_("Cards this round: {cards}, making {number}.",
                          cards=", ".join(str(p["card"]) if p["op"] == "first" else f"{p['op']}{p['card']}"
                                          for p in plays if p["op"] in ("first", "+", "-")),
                          number=made))
        return join(said)

    def seating(self, players: int) -> list[str]:
        """Colours by seat; with 4 players, opposite seats form a team and share a colour."""
        if players == 4:
            return [_("team {colour} (with seat {seat})", colour=COLOUR_NAMES[s % 2], seat=(s + 2) % 4 + 1)
                    for s in range(4)]
        return [COLOUR_NAMES[s] if players <= 3 else "" for s in range(players)]
