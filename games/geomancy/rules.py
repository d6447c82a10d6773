"""Geomancy: cast your stones onto a chessboard, reorient them and capture with their auras
(../shared/rules/geomancy.txt, the Geomancy sections of decisions.md, and docs/rules/geomancy.md).

Squares are numbered ``rank * 8 + file`` (0 is a1, 63 is h8; see model.py). Stones are numbered by owner and
size: with ``per`` stones of each size, stone ``i`` belongs to seat ``i // (3 * per)`` and has
``(i % (3 * per)) // per + 1`` pips (1 small, 2 medium, 3 large). Every stone is in exactly one place: its
owner's hand (``hands``), a square of the board (``board``: 64 lists, one stone each after adjudication, more
only while a same-colour choice is pending) with a direction (``dirs``, 0-7 clockwise from north), or the
prisoners of the seat that captured it (``prisoners``).

Phases: ``turn`` (the seat to act casts, reorients or passes; reorienting takes two steps), ``choose`` (a
square holds two or more stones of one colour: their owner keeps one), ``over``.

Keys: ``c<sq>`` cast at square sq, ``r<sq>`` reorient the own stone on sq (first step), ``d<k>`` its new
direction, ``back`` (undo the first step), ``pass``, ``k<stone>`` keep that stone (same-colour choice).
"""

from __future__ import annotations

from games.core import (
    SYSTEM,
    Action,
    Engine,
    Event,
    Option,
    Result,
    Rng,
    State,
    copy_state,
    left_the_game,
    rank_by_score,
    register,
    scores_words,
)
from games.geomancy.model import (
    DIR_ARROWS,
    DIR_NAMES,
    HEIGHTS,
    SQUARE_NAMES,
    SQUARES,
    STEPS,
    centre,
    knock_candidates,
    knock_chance,
    knock_direction,
    nearest_direction,
    parse_square,
    square_at,
    step,
    throw,
)
from i18n import Text, _, join, ngettext, pgettext

STONES_PER_SIZE = {2: 5, 3: 5, 4: 5, 5: 4, 6: 3}
AIM_GROUPS = tuple(_("Aim at rank {rank}", rank=rank + 1) for rank in range(8))
"""The group of each rank's aims (the bot hands the English back to ``focus``, which reads the rank from it)."""
CAST_ACTIONS = tuple(Action(f"c{q}", _("Aim {square}", square=SQUARE_NAMES[q]), "primary", AIM_GROUPS[rank])
                     for rank in range(7, -1, -1) for q in range(rank * 8, rank * 8 + 8))
"""The aims of a cast, from rank 8 down: the same (frozen) actions every time, built once."""
SIZE_NAMES = (pgettext("size", "small"), pgettext("size", "medium"), pgettext("size", "large"))
"""A stone's size as a word (labels, lists); sentences that inflect it name the size in their own words."""
ROUND_NAMES = SIZE_NAMES
ROUND_STONES = (_("small stones"), _("medium stones"), _("large stones"))
"""What each round casts, as the round's announcement names it."""
DIRECTION_WORDS = (pgettext("compass", "N"), pgettext("compass", "NE"), pgettext("compass", "E"),
                   pgettext("compass", "SE"), pgettext("compass", "S"), pgettext("compass", "SW"),
                   pgettext("compass", "W"), pgettext("compass", "NW"))
"""The eight directions as players read them (``model.DIR_NAMES`` are the keys tests and examples use)."""
HEIGHT_WORDS = {"low": pgettext("height", "low"), "medium": pgettext("height", "medium"),
                "high": pgettext("height", "high")}
GROUP_DIRECTION = pgettext("group", "Direction")
GROUP_KEEP = pgettext("group", "Keep")
GROUP_REORIENT = _("Reorient or pass")
"""Every stone the player may reorient (what ``focus`` marks for it; the groups are now by size)."""
REORIENT_GROUPS = (_("Reorient a small stone"), _("Reorient a medium stone"), _("Reorient a large stone"))
"""The group of each size's reorients: at most five stones each (``STONES_PER_SIZE``), so a player with many
stones on the board picks a size, then the stone, instead of reading 15 "Reorient ... on ..." buttons."""
GROUP_PASS = pgettext("button", "Pass")
STALL_LAPS = 3
"""A round also ends after this many laps of the table in a row without a cast or a capture
(docs/rules/geomancy.md, decision 8)."""
ROUND_LAPS = 25
"""No round lasts longer than this many laps of the table (a safety net; docs/rules/geomancy.md, decision 9)."""
REASONS = {
    "upright": _("landed upright"),
    "off": _("landed off the board"),
    "knocked off": _("was knocked off the board"),
    "tie": _("tied for the largest in its square"),
    "choice": _("was not kept by its owner"),
}


# --- stones ------------------------------------------------------------------------------------------------
def owner_of(per: int, stone: int) -> int:
    return stone // (3 * per)


def size_of(per: int, stone: int) -> int:
    """Pips: 1 small, 2 medium, 3 large."""
    return (stone % (3 * per)) // per + 1


def stone_id(per: int, owner: int, size: int, k: int = 0) -> int:
    """The ``k``-th stone of ``size`` pips of ``owner``."""
    return owner * 3 * per + (size - 1) * per + k


def seat_tag(seat: int) -> str:
    """A seat as the table names it later (``{p0}``): a sentence's parameter, never translated."""
    return f"{{p{seat}}}"


def stone_words(per: int, stone: int, role: str = "subject") -> str:
    """ "{p1}'s medium": a stone and its owner, as the subject of a sentence or (``role="object"``) what
    something captures (languages that decline it say it differently)."""
    player, size = seat_tag(owner_of(per, stone)), size_of(per, stone)
    if role == "object":
        if size == 1:
            return pgettext("stone as object", "{player}'s small", player=player)
        if size == 2:
            return pgettext("stone as object", "{player}'s medium", player=player)
        return pgettext("stone as object", "{player}'s large", player=player)
    if size == 1:
        return pgettext("stone as subject", "{player}'s small", player=player)
    if size == 2:
        return pgettext("stone as subject", "{player}'s medium", player=player)
    return pgettext("stone as subject", "{player}'s large", player=player)


def listing(words: list) -> str:
    """ "a", "a and b", "a, b and c"."""
    if len(words) == 1:
        return words[0]
    return _("{items} and {last}", items=join(words[:-1], ", "), last=words[-1])


# --- the rules of a square and of the auras, as pure functions ----------------------------------------------
def fight(stones: list[tuple[int, int, int]]) -> tuple[int | None, list[tuple[int, int]], list[int]]:
    """One square holding ``(stone, owner, pips)`` of different owners (each colour kept one already):
    a single largest captures all the others; a tie for largest recasts every stone of that size and the rest
    fight again (decisions 4 and 9). Returns the survivor (None: the square ends empty), the captured stones
    as ``(stone, captor)``, and the recast stones."""
    left = sorted(stones, key=lambda s: (-s[2], s[0]))
    captured: list[tuple[int, int]] = []
    recast: list[int] = []
    while len(left) > 1:
        top = left[0][2]
        largest = [s for s in left if s[2] == top]
        if len(largest) == 1:
            winner = largest[0]
            captured.extend((s[0], winner[1]) for s in left[1:])
            return winner[0], captured, recast
        recast.extend(s[0] for s in largest)
        left = [s for s in left if s[2] != top]
    return (left[0][0] if left else None), captured, recast


def aura_map(pieces: dict[int, tuple[int, int, int, int]], players: int) -> list[list[int]]:
    """Aura strength per square per colour. ``pieces``: square -> (stone, owner, pips, direction). A stone of
    p pips sends p, p-1, ... 1 into the next p squares along its direction; a ray stops at the first occupied
    square (which still receives it) and is lost off the board; same-colour auras add (decisions 5, 10)."""
    auras = [[0] * players for _square in range(SQUARES)]
    for square, (_stone, owner, pips, direction) in pieces.items():
        ray = STEPS[square][direction]
        for k in range(1, pips + 1):
            target = ray[k]
            if target is None:
                break
            auras[target][owner] += pips - k + 1
            if target in pieces:
                break
    return auras


def capture_pass(pieces: dict[int, tuple[int, int, int, int]], players: int,
                 first: int) -> list[tuple[int, int, int]]:
    """One pass of aura captures on the board as it stands (decision 11): every stone whose square holds more
    of one enemy colour's aura than its pips, as ``(square, captor, strength)``. Two enemies able to take the
    same stone: the larger sum; a tie goes to ``first`` (whose turn just ended), else the next in turn order."""
    auras = aura_map(pieces, players)
    order = [(first + k) % players for k in range(players)]
    found = []
    for square in sorted(pieces):
        _stone, owner, pips, _direction = pieces[square]
        best: tuple[int, int] | None = None
        for colour in order:
            strength = auras[square][colour]
            if colour != owner and strength > pips and (best is None or strength > best[1]):
                best = (colour, strength)
        if best is not None:
            found.append((square, best[0], best[1]))
    return found


def forced(square: str | int, direction: str | int = "N", *, upright: bool = False,
           knocks: tuple[int, ...] = ()) -> dict:
    """A throw that lands at the centre of ``square`` pointing ``direction`` (for tests and examples);
    ``knocks``: the stones on the board it knocks."""
    sq = parse_square(square) if isinstance(square, str) else square
    d = DIR_NAMES.index(direction) if isinstance(direction, str) else direction
    x, y = centre(sq)
    return {"x": x, "y": y, "heading": d * 45.0, "upright": upright, "knocks": list(knocks)}


OFF_BOARD = {"x": -1.0, "y": -1.0, "heading": 0.0, "upright": False}
"""A throw that lands off the board."""


@register
class Geomancy(Engine):
    slug = "geomancy"
    title = "Geomancy"
    accent = 0xCC79A7
    min_players = 2
    max_players = 6
    group_noun = pgettext("group", "choice")
    # the option values (low, medium, high) are keys a player types: they stay in English in every language
    options = (
        Option("height", _("Drop height: how far the stones scatter (low, medium, high)"), "medium",
               choices=HEIGHTS, label=_("Drop height")),
        Option("knocks", _("Landing stones may knock stones already on the board one square aside"), True,
               label=_("Knocks")),
    )

    # --- setup ---------------------------------------------------------------------------------------
    def setup(self, players: int, options: dict, state: State) -> None:
        per = STONES_PER_SIZE[players]
        first = Rng(state).below(players)
        state.update(
            per=per,
            hands=[list(range(s * 3 * per, (s + 1) * 3 * per)) for s in range(players)],
            board=[[] for _square in range(SQUARES)],
            dirs=[None] * (3 * per * players),
            prisoners=[[] for _seat in range(players)],
            round=1,
            start=first,
            current=first,
            phase="turn",
            step=None,
            choices=[],
            actor=None,
            passed=[],
            stall=0,
            round_turns=0,
            round_players=players,
            last_active=None,
            last_turn=None,
            last_cast=None,
            last_reorient=None,
            last_captures=[],
        )

    def opening(self, state: State) -> list[Event]:
        return [Event(_("Round {round} ({stones}): {player} casts first (drawn by lot).", round=1,
                        stones=ROUND_STONES[0], player=seat_tag(state["start"])), SYSTEM)]

    # --- helpers -------------------------------------------------------------------------------------
    @staticmethod
    def castable(state: State, seat: int) -> list[int]:
        """The stones ``seat`` casts now: every stone in hand of the round's size or smaller."""
        per, rnd = state["per"], state["round"]
        return [s for s in state["hands"][seat] if size_of(per, s) <= rnd]

    @staticmethod
    def positions(state: State) -> dict[int, int]:
        """stone -> square, for every stone on the board."""
        return {s: q for q, stones in enumerate(state["board"]) for s in stones}

    def pieces(self, state: State) -> dict[int, tuple[int, int, int, int]]:
        """square -> (stone, owner, pips, direction) (after adjudication: one stone per square)."""
        per = state["per"]
        per3, dirs = 3 * per, state["dirs"]
        out = {}
        for q, ss in enumerate(state["board"]):
            if ss:
                s = ss[0]
                out[q] = (s, s // per3, s % per3 // per + 1, dirs[s])  # owner_of and size_of, inlined
        return out

    def scores(self, state: State) -> list[dict[str, int]]:
        """Per seat: pips on the board, pips of prisoners, and the total (decision 8)."""
        per, n = state["per"], state["players"]
        board = [0] * n
        for stones in state["board"]:
            for s in stones:
                board[owner_of(per, s)] += size_of(per, s)
        prisoners = [sum(size_of(per, s) for s in state["prisoners"][seat]) for seat in range(n)]
        return [{"board": board[s], "prisoners": prisoners[s], "total": board[s] + prisoners[s]} for s in range(n)]

    def _next_seat(self, state: State, after: int) -> int:
        n = state["players"]
        for k in range(1, n + 1):
            seat = (after + k) % n
            if not state["left"][seat]:
                return seat
        return after

    def _to_hand(self, state: State, stone: int, reason: str) -> None:
        """A stone goes back to its owner's hand as a recast (noted on the last cast, if any)."""
        per = state["per"]
        state["dirs"][stone] = None
        hand = state["hands"][owner_of(per, stone)]
        hand.append(stone)
        hand.sort()
        cast = state["last_cast"]
        if cast is not None:
            cast["recasts"].append({"id": stone, "reason": reason})
            for entry in cast["stones"]:
                if entry["id"] == stone:
                    entry["recast"] = reason

    def _take(self, state: State, stone: int, square: int) -> None:
        state["board"][square].remove(stone)

    # --- the protocol --------------------------------------------------------------------------------
    def to_act(self, state: State) -> frozenset[int]:
        phase = state["phase"]
        if phase == "over":
            return frozenset()
        if phase == "choose":
            return frozenset({state["choices"][0]["owner"]})
        return frozenset({state["current"]})

    def actions(self, state: State, seat: int) -> list[Action]:
        per = state["per"]
        if state["phase"] == "choose":
            choice = state["choices"][0]
            where = SQUARE_NAMES[choice["square"]]
            return [Action(f"k{s}", self._keep_label(size_of(per, s), where, state["dirs"][s]), "primary",
                           GROUP_KEEP) for s in choice["stones"]]
        if state["step"] is not None:
            square = state["step"]["square"]
            stone = state["board"][square][0]
            now = state["dirs"][stone]
            acts = [Action(f"d{k}", _("Point {direction}", direction=DIRECTION_WORDS[k]), "primary",
                           GROUP_DIRECTION, emoji=DIR_ARROWS[k]) for k in range(8) if k != now]
            return [*acts, Action("back", _("Choose another move"), "secondary", GROUP_DIRECTION)]
        acts = []
        if self.castable(state, seat):
            acts.extend(CAST_ACTIONS)
        for q, stones in enumerate(state["board"]):
            if stones and owner_of(per, stones[0]) == seat:
                d = state["dirs"][stones[0]]
                size = size_of(per, stones[0])
                acts.append(Action(f"r{q}", self._reorient_label(size, SQUARE_NAMES[q], d), "secondary",
                                   REORIENT_GROUPS[size - 1], emoji=DIR_ARROWS[d]))
        acts.append(Action("pass", pgettext("button", "Pass"), "secondary", GROUP_PASS))
        return acts

    @staticmethod
    def _keep_label(size: int, square: str, direction: int) -> str:
        arrow, word = DIR_ARROWS[direction], DIRECTION_WORDS[direction]
        if size == 1:
            return _("Keep the small on {square} ({arrow} {direction})", square=square, arrow=arrow, direction=word)
        if size == 2:
            return _("Keep the medium on {square} ({arrow} {direction})", square=square, arrow=arrow,
                     direction=word)
        return _("Keep the large on {square} ({arrow} {direction})", square=square, arrow=arrow, direction=word)

    @staticmethod
    def _reorient_label(size: int, square: str, direction: int) -> str:
        word = DIRECTION_WORDS[direction]
        if size == 1:
            return _("Reorient small on {square} ({direction})", square=square, direction=word)
        if size == 2:
            return _("Reorient medium on {square} ({direction})", square=square, direction=word)
        return _("Reorient large on {square} ({direction})", square=square, direction=word)

    def focus(self, state: State, seat: int, group: str) -> dict | None:
        """While a group of a long list is chosen: the squares of that aim rank, or the player's stones that
        may be reoriented (of the group's size; ``GROUP_REORIENT``: all of them)."""
        if group.startswith("Aim at rank "):
            rank = int(group.rsplit(" ", 1)[1]) - 1
            return {"kind": "aim", "rank": rank, "squares": list(range(rank * 8, rank * 8 + 8))}
        if group == GROUP_REORIENT or group in REORIENT_GROUPS:
            per = state["per"]
            sizes = (1, 2, 3) if group == GROUP_REORIENT else (REORIENT_GROUPS.index(group) + 1,)
            return {"kind": "reorient", "squares": [q for q, ss in enumerate(state["board"])
                                                    if ss and owner_of(per, ss[0]) == seat
                                                    and size_of(per, ss[0]) in sizes]}
        return None

    def play(self, state: State, seat: int, key: str, events: list[Event]) -> None:
        if state["phase"] == "choose":
            self._choose(state, int(key[1:]), events)
            self._continue_choices(state, events)
            return
        if key == "back":
            state["step"] = None
            return
        if key[0] == "r":
            state["step"] = {"square": int(key[1:])}
            return
        square = state["step"]["square"] if key[0] == "d" else None
        self._begin_turn(state)
        if key == "pass":
            state["last_turn"] = {"seat": seat, "kind": "pass"}
            events.append(Event(_("{player} passes.", player=seat_tag(seat)), seat))
            self._end_turn(state, seat, events, active=False)
        elif key[0] == "c":
            self._cast(state, seat, int(key[1:]), events)
        else:
            self._reorient(state, seat, square, int(key[1:]), events)

    def _begin_turn(self, state: State) -> None:
        state["step"] = None
        state["last_turn"] = None
        state["last_cast"] = None
        state["last_reorient"] = None
        state["last_captures"] = []

    # --- casting -------------------------------------------------------------------------------------
    def cast(self, state: State, seat: int, aim: int, throws: list[dict] | None = None) -> tuple[State, list[Event]]:
        """A whole cast turn of ``seat`` at ``aim`` with the given throws (one per stone cast, largest first,
        then by id; see ``forced`` and ``OFF_BOARD``) instead of the model's: for tests and examples. The
        state is copied; the generator is not used by forced throws."""
        if self.is_over(state) or state["phase"] != "turn" or seat not in self.to_act(state):
            raise ValueError("not this seat's turn")
        if not self.castable(state, seat):
            raise ValueError("nothing to cast")
        new = copy_state(state)
        events: list[Event] = []
        self._begin_turn(new)
        self._cast(new, seat, aim, events, throws)
        new["ply"] = state["ply"] + 1
        return new, events

    def _cast(self, state: State, seat: int, aim: int, events: list[Event],
              throws: list[dict] | None = None) -> None:
        per, board = state["per"], state["board"]
        height, knocks_on = state["options"]["height"], state["options"]["knocks"]
        stones = sorted(self.castable(state, seat), key=lambda s: (-size_of(per, s), s))
        if throws is not None and len(throws) != len(stones):
            raise ValueError(f"{len(stones)} stones are cast, {len(throws)} throws given")
        state["hands"][seat] = [s for s in state["hands"][seat] if s not in stones]
        rng = Rng(state)
        record = {"seat": seat, "aim": aim, "stones": [], "knocks": [], "recasts": []}
        state["last_cast"] = record
        state["last_turn"] = {"seat": seat, "kind": "cast"}
        state["last_active"] = seat
        where = self.positions(state)
        back: list[tuple[int, str]] = []
        for j, stone in enumerate(stones):
            t = throws[j] if throws is not None else throw(rng, aim, height)
            x, y = t["x"], t["y"]
            square = square_at(x, y)
            entry = {"id": stone, "owner": seat, "size": size_of(per, stone), "x": round(x, 3),
                     "y": round(y, 3), "square": square, "dir": None, "result": "landed", "recast": None}
            record["stones"].append(entry)
            if square is None:
                entry["result"] = "off"
                back.append((stone, "off"))
                continue
            if t["upright"]:
                entry["result"] = "upright"
                back.append((stone, "upright"))
            else:
                entry["dir"] = nearest_direction(t["heading"])
                board[square].append(stone)
                state["dirs"][stone] = entry["dir"]
            if not knocks_on:
                if not t["upright"]:
                    where[stone] = square
                continue
            if throws is not None:
                targets = [s for s in t.get("knocks", ()) if s in where]
            else:
                chance = knock_chance(height, size_of(per, stone))
                candidates = knock_candidates(x, y, sorted(where.items()))
                targets = [s for s in candidates if rng.uniform() < chance]
            for target in targets:
                origin = where.pop(target)
                direction = knock_direction(x, y, origin, t["heading"])
                dest = step(origin, direction)
                board[origin].remove(target)
                record["knocks"].append({"id": target, "from": origin, "to": dest, "by": stone})
                if dest is None:
                    back.append((target, "knocked off"))
                else:
                    board[dest].append(target)
                    where[target] = dest
            if not t["upright"]:
                where[stone] = square
        for stone, reason in back:
            self._to_hand(state, stone, reason)
        events.append(Event(self._cast_words(state, record), seat))
        state["actor"] = seat
        self._start_choices(state, seat, events)

    @staticmethod
    def _counted(size: int, count: int) -> str:
        """ "2 small" (stones of one size, as a cast names them)."""
        if size == 1:
            return ngettext("{n} small", "{n} small", count)
        if size == 2:
            return ngettext("{n} medium", "{n} medium", count)
        return ngettext("{n} large", "{n} large", count)

    def _cast_words(self, state: State, record: dict) -> str:
        per = state["per"]
        seat = record["seat"]
        counts = [0, 0, 0]
        for e in record["stones"]:
            counts[e["size"] - 1] += 1
        what = join([self._counted(i + 1, c) for i, c in enumerate(counts) if c], ", ")
        parts = []
        for e in record["stones"]:
            name = SIZE_NAMES[e["size"] - 1]
            if e["result"] == "off":
                parts.append(_("{size} off the board (recast)", size=name))
            elif e["result"] == "upright":
                parts.append(_("{size} upright on {square} (recast)", size=name, square=SQUARE_NAMES[e["square"]]))
            else:
                parts.append(_("{size} {square} {arrow}", size=name, square=SQUARE_NAMES[e["square"]],
                               arrow=DIR_ARROWS[e["dir"]]))
        sentences = [_("{player} casts {stones} at {square}: {landings}.", player=seat_tag(seat), stones=what,
                       square=SQUARE_NAMES[record["aim"]], landings=join(parts, "; "))]
        for k in record["knocks"]:
            stone, origin = stone_words(per, k["id"]), SQUARE_NAMES[k["from"]]
            if k["to"] is None:
                sentences.append(_("{stone} is knocked from {origin} off the board (recast).", stone=stone,
                                   origin=origin))
            else:
                sentences.append(_("{stone} is knocked from {origin} to {target}.", stone=stone, origin=origin,
                                   target=SQUARE_NAMES[k["to"]]))
        return join(sentences)

    # --- adjudication --------------------------------------------------------------------------------
    def _start_choices(self, state: State, actor: int, events: list[Event]) -> None:
        """Every square with two or more stones of one colour needs its owner's choice (decision 9: once,
        before any fight). Choices go in turn order from the caster, then by square."""
        per, n = state["per"], state["players"]
        choices = []
        for q, stones in enumerate(state["board"]):
            if len(stones) < 2:
                continue
            by_owner: dict[int, list[int]] = {}
            for s in stones:
                by_owner.setdefault(owner_of(per, s), []).append(s)
            for owner, mine in by_owner.items():
                if len(mine) > 1:
                    choices.append({"owner": owner, "square": q, "stones": sorted(mine)})
        choices.sort(key=lambda c: ((c["owner"] - actor) % n, c["square"]))
        state["choices"] = choices
        self._continue_choices(state, events)

    def _default_keep(self, state: State, choice: dict) -> int:
        """On a timeout (or for a player who left) the larger stone stays; equal sizes: the lowest id."""
        per = state["per"]
        return max(choice["stones"], key=lambda s: (size_of(per, s), -s))

    def _continue_choices(self, state: State, events: list[Event]) -> None:
        """Settles choices that need nobody (the owner left, or the stones are alike in size and direction),
        then waits for the next owner, or finishes the turn when none is left."""
        per = state["per"]
        while state["choices"]:
            choice = state["choices"][0]
            alike = len({(size_of(per, s), state["dirs"][s]) for s in choice["stones"]}) == 1
            if state["left"][choice["owner"]] or alike:
                self._choose(state, self._default_keep(state, choice), events, auto=True)
                continue
            state["phase"] = "choose"
            return
        state["phase"] = "turn"
        self._finish_turn(state, state["actor"], events)

    def _choose(self, state: State, keep: int, events: list[Event], auto: bool = False) -> None:
        choice = state["choices"].pop(0)
        per, q = state["per"], choice["square"]
        others = [s for s in choice["stones"] if s != keep]
        for s in others:
            self._take(state, s, q)
            self._to_hand(state, s, "choice")
        owner = choice["owner"]
        events.append(Event(self._keep_words(seat_tag(owner), size_of(per, keep), SQUARE_NAMES[q],
                                             [size_of(per, s) for s in others], auto), owner))

    @staticmethod
    def _keep_words(player: str, size: int, square: str, gone: list[int], auto: bool) -> str:
        """ "{p0} keeps their medium on e4; their small is recast." (``auto``: the table chose for them)."""
        if size == 1:
            kept = pgettext("kept stone", "small")
        elif size == 2:
            kept = pgettext("kept stone", "medium")
        else:
            kept = pgettext("kept stone", "large")
        recast = join([SIZE_NAMES[g - 1] for g in gone], ", ")
        if auto:
            return ngettext("{player} keeps their {kept} on {square} (the table chooses); their {recast} is recast.",
                            "{player} keeps their {kept} on {square} (the table chooses); their {recast} are "
                            "recast.", len(gone), player=player, kept=kept, square=square, recast=recast)
        return ngettext("{player} keeps their {kept} on {square}; their {recast} is recast.",
                        "{player} keeps their {kept} on {square}; their {recast} are recast.", len(gone),
                        player=player, kept=kept, square=square, recast=recast)

    def _finish_turn(self, state: State, actor: int, events: list[Event]) -> None:
        """After a cast (and its choices): shared squares fight, then the auras capture, then the turn ends."""
        self._fights(state, events)
        self._aura_captures(state, actor, events)
        self._end_turn(state, actor, events, active=True)

    def _fights(self, state: State, events: list[Event]) -> None:
        """Every square holding stones of different colours (each colour kept one) is resolved (decision 9)."""
        per = state["per"]
        for q, stones in enumerate(state["board"]):
            if len(stones) < 2:
                continue
            survivor, captured, recast = fight([(s, owner_of(per, s), size_of(per, s)) for s in stones])
            for s in recast:
                self._take(state, s, q)
                self._to_hand(state, s, "tie")
            if recast:
                events.append(Event(_("On {square} {stones} tie for the largest: recast.", square=SQUARE_NAMES[q],
                                      stones=self._listing(per, recast)), SYSTEM))
            for s, captor in captured:
                self._take(state, s, q)
                self._capture(state, s, q, captor, "landing", 0)
            if captured:
                events.append(Event(_("On {square} {stone} captures {stones}.", square=SQUARE_NAMES[q],
                                      stone=stone_words(per, survivor),
                                      stones=self._listing(per, [s for s, _c in captured], "object")),
                                    owner_of(per, survivor)))

    @staticmethod
    def _listing(per: int, stones: list[int], role: str = "subject") -> str:
        return listing([stone_words(per, s, role) for s in stones])

    def _capture(self, state: State, stone: int, square: int, captor: int, how: str, rnd: int,
                 strength: int | None = None) -> None:
        per = state["per"]
        state["dirs"][stone] = None
        state["prisoners"][captor].append(stone)
        state["last_captures"].append({"id": stone, "owner": owner_of(per, stone), "size": size_of(per, stone),
                                       "square": square, "by": captor, "how": how, "pass": rnd,
                                       "strength": strength})

    def _aura_captures(self, state: State, actor: int, events: list[Event]) -> None:
        """Passes of aura captures until none (decisions 6 and 11)."""
        per, n = state["per"], state["players"]
        rnd = 0
        while True:
            found = capture_pass(self.pieces(state), n, actor)
            if not found:
                return
            rnd += 1
            for q, captor, strength in found:
                stone = state["board"][q][0]
                self._take(state, stone, q)
                self._capture(state, stone, q, captor, "aura", rnd, strength)
                events.append(Event(_("{player}'s aura of {strength} captures {stone} on {square}.",
                                      player=seat_tag(captor), strength=strength,
                                      stone=stone_words(per, stone, "object"), square=SQUARE_NAMES[q]), captor))

    # --- reorienting ---------------------------------------------------------------------------------
    def _reorient(self, state: State, seat: int, square: int, direction: int, events: list[Event]) -> None:
        stone = state["board"][square][0]
        before = state["dirs"][stone]
        state["dirs"][stone] = direction
        state["last_reorient"] = {"seat": seat, "square": square, "id": stone, "from": before, "to": direction}
        state["last_turn"] = {"seat": seat, "kind": "reorient"}
        state["last_active"] = seat
        events.append(Event(self._turn_words(seat_tag(seat), size_of(state["per"], stone), SQUARE_NAMES[square],
                                             before, direction), seat))
        self._aura_captures(state, seat, events)
        self._end_turn(state, seat, events, active=True)

    @staticmethod
    def _turn_words(player: str, size: int, square: str, before: int, after: int) -> str:
        """ "{p0} turns their small on e4 from N to E →."."""
        words = {"player": player, "square": square, "before": DIRECTION_WORDS[before],
                 "after": DIRECTION_WORDS[after], "arrow": DIR_ARROWS[after]}
        if size == 1:
            return _("{player} turns their small on {square} from {before} to {after} {arrow}.", **words)
        if size == 2:
            return _("{player} turns their medium on {square} from {before} to {after} {arrow}.", **words)
        return _("{player} turns their large on {square} from {before} to {after} {arrow}.", **words)

    # --- turns and rounds ----------------------------------------------------------------------------
    def _end_turn(self, state: State, actor: int, events: list[Event], active: bool) -> None:
        """Counts passes and the stall, ends the round when it is over (decision 7 and docs decisions 8-9),
        else hands the turn on."""
        state["actor"] = None
        state["choices"] = []
        state["phase"] = "turn"
        state["round_turns"] += 1
        if active:
            state["passed"] = []
        elif actor not in state["passed"]:
            state["passed"].append(actor)
        # only passes (and timeouts) stall a round: a cast, a turned stone or a capture starts the count again
        state["stall"] = 0 if active or state["last_captures"] else state["stall"] + 1
        remaining = self.remaining(state)
        per, rnd = state["per"], state["round"]
        holding = any(size_of(per, s) == rnd for seat in remaining for s in state["hands"][seat])
        laps = self._lap(state)
        if not holding and set(remaining) <= set(state["passed"]):
            events.append(Event(_("Everyone passed: round {round} is over.", round=rnd), SYSTEM))
            self._end_round(state, events)
        elif state["stall"] >= STALL_LAPS * laps:
            events.append(Event(ngettext("{n} lap of passes: round {round} is over.",
                                         "{n} laps of passes: round {round} is over.", STALL_LAPS, round=rnd),
                                SYSTEM))
            self._end_round(state, events)
        elif state["round_turns"] >= ROUND_LAPS * laps:
            events.append(Event(ngettext("Round {round} has lasted {n} lap: it is over.",
                                         "Round {round} has lasted {n} laps: it is over.", ROUND_LAPS, round=rnd),
                                SYSTEM))
            self._end_round(state, events)
        else:
            state["current"] = self._next_seat(state, actor)

    def _lap(self, state: State) -> int:
        """Turns in a lap of the table, as it was when the round began (a departure never shortens a round)."""
        return state.get("round_players") or len(self.remaining(state))

    def notice(self, state: State) -> str | None:
        left = STALL_LAPS * self._lap(state) - state["stall"]
        if state["phase"] != "over" and state["stall"] and left <= self._lap(state):
            return ngettext("Round {round} ends in {n} turn unless someone casts, turns a stone or captures.",
                            "Round {round} ends in {n} turns unless someone casts, turns a stone or captures.", left,
                            round=state["round"])
        return None

    def _end_round(self, state: State, events: list[Event]) -> None:
        if state["round"] == 3:
            self._finish(state, events)
            return
        state["round"] += 1
        last = state["last_active"]
        if last is None:  # nobody has done anything but pass: the round's starter starts again
            start = state["start"] if not state["left"][state["start"]] else self._next_seat(state, state["start"])
        else:
            start = self._next_seat(state, last)
        state.update(start=start, current=start, passed=[], stall=0, round_turns=0, step=None,
                     round_players=len(self.remaining(state)))
        events.append(Event(_("Round {round} ({stones}): {player} starts.", round=state["round"],
                              stones=ROUND_STONES[state["round"] - 1], player=seat_tag(start)), SYSTEM))

    def _finish(self, state: State, events: list[Event]) -> None:
        if state["phase"] == "choose":  # the game ends during a cast's choices: the table completes the cast
            while state["choices"]:
                self._choose(state, self._default_keep(state, state["choices"][0]), events, auto=True)
            self._fights(state, events)
            self._aura_captures(state, state["actor"], events)
            state["actor"] = None
        state["phase"] = "over"
        state["step"] = None
        state["choices"] = []
        events.append(Event(_("The game is over."), SYSTEM))
        events.extend(Event(line, SYSTEM) for line in self.result_lines(state))

    # --- absent and departing players ----------------------------------------------------------------
    def on_leave(self, state: State, seat: int, events: list[Event]) -> None:
        """Their stones stay where they are (on the board they still block, project auras and may be
        captured; in hand they are never cast); their choices are made by the table. Fewer than two players
        left: the game ends."""
        events.append(Event(left_the_game(seat), SYSTEM))
        if len(self.remaining(state)) < 2:
            self._finish(state, events)
            return
        if state["phase"] == "choose":
            self._continue_choices(state, events)
        elif state["current"] == seat:
            self._begin_turn(state)
            state["last_turn"] = {"seat": seat, "kind": "left"}
            self._end_turn(state, seat, events, active=False)

    def on_timeout(self, state: State, seat: int, events: list[Event]) -> None:
        """An idle player passes; an idle owner keeps the larger stone of each of their squares."""
        events.append(Event(_("{player} ran out of time; the table plays for them.", player=seat_tag(seat)), SYSTEM))
        if state["phase"] == "choose":
            while state["choices"] and state["choices"][0]["owner"] == seat:
                self._choose(state, self._default_keep(state, state["choices"][0]), events, auto=True)
            self._continue_choices(state, events)
            return
        self._begin_turn(state)
        state["last_turn"] = {"seat": seat, "kind": "timeout"}
        events.append(Event(_("{player} passes.", player=seat_tag(seat)), seat))
        self._end_turn(state, seat, events, active=False)

    # --- what players see ----------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        """Everything is public (stones in hand lie in front of their owner)."""
        per, n = state["per"], state["players"]
        rnd = state["round"]
        board = [{"square": q, "name": SQUARE_NAMES[q], "id": s, "owner": owner_of(per, s),
                  "size": size_of(per, s), "dir": state["dirs"][s], "dir_name": DIRECTION_WORDS[state["dirs"][s]]}
                 for q, stones in enumerate(state["board"]) for s in stones]
        hands = []
        for s in range(n):
            counts = [0, 0, 0]
            for stone in state["hands"][s]:
                counts[size_of(per, stone) - 1] += 1
            hands.append(counts)
        pieces = self.pieces(state)
        scores = self.scores(state)
        step_view = None
        if state["step"] is not None:
            q = state["step"]["square"]
            step_view = {"square": q, "name": SQUARE_NAMES[q], "id": state["board"][q][0]}
        view = {
            "game": self.slug,
            "players": n,
            "height": state["options"]["height"],
            "knocks": state["options"]["knocks"],
            "stones_per_size": per,
            "round": rnd,
            "round_name": ROUND_NAMES[rnd - 1],
            "start": state["start"],
            "current": state["current"],
            "phase": state["phase"],
            "to_act": sorted(self.to_act(state)),
            "step": step_view,
            "choices": [{**c, "name": SQUARE_NAMES[c["square"]]} for c in state["choices"]],
            "board": board,
            "hands": hands,
            "castable": [len(self.castable(state, s)) for s in range(n)],
            "prisoners": [[{"id": s, "owner": owner_of(per, s), "size": size_of(per, s)}
                           for s in state["prisoners"][seat_]] for seat_ in range(n)],
            "scores": [sc["total"] for sc in scores],
            "score_detail": scores,
            "auras": aura_map(pieces, n),
            "last_turn": dict(state["last_turn"]) if state["last_turn"] else None,
            "last_cast": copy_state(state["last_cast"]) if state["last_cast"] is not None else None,
            "last_reorient": dict(state["last_reorient"]) if state["last_reorient"] else None,
            "last_captures": [dict(c) for c in state["last_captures"]],
            "passed": list(state["passed"]),
            "stall_turns_left": STALL_LAPS * self._lap(state) - state["stall"],
            "left": list(state["left"]),
        }
        if state["phase"] == "over":
            view["winners"] = list(self.result(state).winners)
        if seat is not None and 0 <= seat < n:
            view["seat"] = seat
        return view

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        detail = self.scores(state)
        scores = [d["total"] for d in detail]
        return Result(tuple(scores), rank_by_score(scores, self.remaining(state)), {"scores": detail})

    def scores_now(self, state: State) -> tuple[int, ...]:
        return tuple(d["total"] for d in self.scores(state))

    def progress(self, state: State) -> Text | None:
        """ "Round 2 of 3 (medium stones), turn 4": the round's turns so far, passes included."""
        if state["phase"] == "over":
            return None
        return _("Round {round} of {rounds} ({stones}), turn {turn}", round=state["round"], rounds=3,
                 stones=ROUND_STONES[state["round"] - 1], turn=state["round_turns"] + 1)

    def position(self, state: State) -> Text:
        """The scores, then each player's stones on the board by size (their squares), in hand and captured."""
        per, n = state["per"], state["players"]
        squares: list[list[list[str]]] = [[[], [], []] for _seat in range(n)]
        for q, stones in enumerate(state["board"]):
            for stone in stones:
                squares[owner_of(per, stone)][size_of(per, stone) - 1].append(SQUARE_NAMES[q])
        said = [scores_words(self.scores_now(state))]
        for seat in range(n):
            placed = [_("{size} on {squares}", size=SIZE_NAMES[size], squares=", ".join(where))
                      for size, where in enumerate(squares[seat]) if where]
            said.append(_("{player}: {stones}; {hand}, {prisoners}.", player=seat_tag(seat),
                          stones=join(placed, "; ") if placed else _("no stone on the board"),
                          hand=ngettext("{n} stone in hand", "{n} stones in hand", len(state["hands"][seat])),
                          prisoners=ngettext("{n} prisoner", "{n} prisoners", len(state["prisoners"][seat]))))
        return join(said)

    def result_lines(self, state: State) -> list[str]:
        detail = self.scores(state)
        order = sorted(range(state["players"]), key=lambda s: -detail[s]["total"])
        return [ngettext("{player}: {n} points ({board} on the board, {prisoners} in prisoners)",
                         "{player}: {n} points ({board} on the board, {prisoners} in prisoners)",
                         detail[s]["total"], player=seat_tag(s), board=detail[s]["board"],
                         prisoners=detail[s]["prisoners"]) for s in order]
