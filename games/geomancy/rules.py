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
    rank_by_score,
    register,
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

STONES_PER_SIZE = {2: 5, 3: 5, 4: 5, 5: 4, 6: 3}
CAST_ACTIONS = tuple(Action(f"c{q}", f"Aim {SQUARE_NAMES[q]}", "primary", f"Aim at rank {rank + 1}")
                     for rank in range(7, -1, -1) for q in range(rank * 8, rank * 8 + 8))
"""The aims of a cast, from rank 8 down: the same (frozen) actions every time, built once."""
SIZE_NAMES = ("small", "medium", "large")
ROUND_NAMES = ("small", "medium", "large")
STALL_LAPS = 3
"""A round also ends after this many laps of the table in a row without a cast or a capture
(docs/rules/geomancy.md, decision 8)."""
ROUND_LAPS = 25
"""No round lasts longer than this many laps of the table (a safety net; docs/rules/geomancy.md, decision 9)."""
REASONS = {
    "upright": "landed upright",
    "off": "landed off the board",
    "knocked off": "was knocked off the board",
    "tie": "tied for the largest in its square",
    "choice": "was not kept by its owner",
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


def stone_words(per: int, stone: int) -> str:
    """ "{p1}'s medium"."""
    return f"{{p{owner_of(per, stone)}}}'s {SIZE_NAMES[size_of(per, stone) - 1]}"


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
    auras = [[0] * players for _ in range(SQUARES)]
    for square, (_, owner, pips, direction) in pieces.items():
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
        _, owner, pips, _ = pieces[square]
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
    min_players = 2
    max_players = 6
    group_noun = "choice"
    options = (
        Option("height", "Drop height: how far the stones scatter (low, medium, high)", "medium",
               choices=HEIGHTS),
        Option("knocks", "Landing stones may knock stones already on the board one square aside", True),
    )

    # --- setup ---------------------------------------------------------------------------------------
    def setup(self, players: int, options: dict, state: State) -> None:
        per = STONES_PER_SIZE[players]
        first = Rng(state).below(players)
        state.update(
            per=per,
            hands=[list(range(s * 3 * per, (s + 1) * 3 * per)) for s in range(players)],
            board=[[] for _ in range(SQUARES)],
            dirs=[None] * (3 * per * players),
            prisoners=[[] for _ in range(players)],
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
        return [Event(f"Round 1 (small stones): {{p{state['start']}}} casts first (drawn by lot).", SYSTEM)]

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
            return [Action(f"k{s}", f"Keep the {SIZE_NAMES[size_of(per, s) - 1]} on {where} "
                                    f"({DIR_ARROWS[state['dirs'][s]]} {DIR_NAMES[state['dirs'][s]]})",
                           "primary", "Keep") for s in choice["stones"]]
        if state["step"] is not None:
            square = state["step"]["square"]
            stone = state["board"][square][0]
            now = state["dirs"][stone]
            acts = [Action(f"d{k}", f"Point {DIR_NAMES[k]}", "primary", "Direction", emoji=DIR_ARROWS[k])
                    for k in range(8) if k != now]
            return [*acts, Action("back", "Choose another move", "secondary", "Direction")]
        acts = []
        if self.castable(state, seat):
            acts.extend(CAST_ACTIONS)
        for q, stones in enumerate(state["board"]):
            if stones and owner_of(per, stones[0]) == seat:
                d = state["dirs"][stones[0]]
                acts.append(Action(f"r{q}", f"Reorient {SIZE_NAMES[size_of(per, stones[0]) - 1]} on "
                                            f"{SQUARE_NAMES[q]} ({DIR_NAMES[d]})", "secondary",
                                   "Reorient or pass", emoji=DIR_ARROWS[d]))
        acts.append(Action("pass", "Pass", "secondary", "Reorient or pass"))
        return acts

    def focus(self, state: State, seat: int, group: str) -> dict | None:
        """While a group of a long list is chosen: the squares of that aim rank, or the player's stones that
        may be reoriented."""
        if group.startswith("Aim at rank "):
            rank = int(group.rsplit(" ", 1)[1]) - 1
            return {"kind": "aim", "rank": rank, "squares": list(range(rank * 8, rank * 8 + 8))}
        if group == "Reorient or pass":
            per = state["per"]
            return {"kind": "reorient", "squares": [q for q, ss in enumerate(state["board"])
                                                    if ss and owner_of(per, ss[0]) == seat]}
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
            events.append(Event(f"{{p{seat}}} passes.", seat))
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

    def _cast_words(self, state: State, record: dict) -> str:
        per = state["per"]
        seat = record["seat"]
        counts = [0, 0, 0]
        for e in record["stones"]:
            counts[e["size"] - 1] += 1
        what = ", ".join(f"{c} {SIZE_NAMES[i]}" for i, c in enumerate(counts) if c)
        parts = []
        for e in record["stones"]:
            name = SIZE_NAMES[e["size"] - 1]
            if e["result"] == "off":
                parts.append(f"{name} off the board (recast)")
            elif e["result"] == "upright":
                parts.append(f"{name} upright on {SQUARE_NAMES[e['square']]} (recast)")
            else:
                parts.append(f"{name} {SQUARE_NAMES[e['square']]} {DIR_ARROWS[e['dir']]}")
        text = f"{{p{seat}}} casts {what} at {SQUARE_NAMES[record['aim']]}: {'; '.join(parts)}."
        for k in record["knocks"]:
            dest = "off the board (recast)" if k["to"] is None else f"to {SQUARE_NAMES[k['to']]}"
            text += f" {stone_words(per, k['id'])} is knocked from {SQUARE_NAMES[k['from']]} {dest}."
        return text

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
        gone = ", ".join(SIZE_NAMES[size_of(per, s) - 1] for s in others)
        how = " (the table chooses)" if auto else ""
        events.append(Event(f"{{p{owner}}} keeps their {SIZE_NAMES[size_of(per, keep) - 1]} on {SQUARE_NAMES[q]}"
                            f"{how}; their {gone} {'is' if len(others) == 1 else 'are'} recast.", owner))

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
                events.append(Event(f"On {SQUARE_NAMES[q]} {self._listing(per, recast)} tie for the largest: "
                                    f"recast.", SYSTEM))
            for s, captor in captured:
                self._take(state, s, q)
                self._capture(state, s, q, captor, "landing", 0)
            if captured:
                events.append(Event(f"On {SQUARE_NAMES[q]} {stone_words(per, survivor)} captures "
                                    f"{self._listing(per, [s for s, _ in captured])}.",
                                    owner_of(per, survivor)))

    @staticmethod
    def _listing(per: int, stones: list[int]) -> str:
        words = [stone_words(per, s) for s in stones]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]

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
                events.append(Event(f"{{p{captor}}}'s aura of {strength} captures {stone_words(per, stone)} on "
                                    f"{SQUARE_NAMES[q]}.", captor))

    # --- reorienting ---------------------------------------------------------------------------------
    def _reorient(self, state: State, seat: int, square: int, direction: int, events: list[Event]) -> None:
        stone = state["board"][square][0]
        before = state["dirs"][stone]
        state["dirs"][stone] = direction
        state["last_reorient"] = {"seat": seat, "square": square, "id": stone, "from": before, "to": direction}
        state["last_turn"] = {"seat": seat, "kind": "reorient"}
        state["last_active"] = seat
        events.append(Event(f"{{p{seat}}} turns their {SIZE_NAMES[size_of(state['per'], stone) - 1]} on "
                            f"{SQUARE_NAMES[square]} from {DIR_NAMES[before]} to {DIR_NAMES[direction]} "
                            f"{DIR_ARROWS[direction]}.", seat))
        self._aura_captures(state, seat, events)
        self._end_turn(state, seat, events, active=True)

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
            events.append(Event(f"Everyone passed: round {rnd} is over.", SYSTEM))
            self._end_round(state, events)
        elif state["stall"] >= STALL_LAPS * laps:
            events.append(Event(f"{STALL_LAPS} laps of passes: round {rnd} is over.", SYSTEM))
            self._end_round(state, events)
        elif state["round_turns"] >= ROUND_LAPS * laps:
            events.append(Event(f"Round {rnd} has lasted {ROUND_LAPS} laps: it is over.", SYSTEM))
            self._end_round(state, events)
        else:
            state["current"] = self._next_seat(state, actor)

    def _lap(self, state: State) -> int:
        """Turns in a lap of the table, as it was when the round began (a departure never shortens a round)."""
        return state.get("round_players") or len(self.remaining(state))

    def notice(self, state: State) -> str | None:
        left = STALL_LAPS * self._lap(state) - state["stall"]
        if state["phase"] != "over" and state["stall"] and left <= self._lap(state):
            return (f"Round {state['round']} ends in {left} turn{'s' * (left != 1)} unless someone casts, turns a "
                    "stone or captures.")
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
        events.append(Event(f"Round {state['round']} ({ROUND_NAMES[state['round'] - 1]} stones): {{p{start}}} "
                            f"starts.", SYSTEM))

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
        events.append(Event("The game is over.", SYSTEM))
        events.extend(Event(line, SYSTEM) for line in self.result_lines(state))

    # --- absent and departing players ----------------------------------------------------------------
    def on_leave(self, state: State, seat: int, events: list[Event]) -> None:
        """Their stones stay where they are (on the board they still block, project auras and may be
        captured; in hand they are never cast); their choices are made by the table. Fewer than two players
        left: the game ends."""
        events.append(Event(f"{{p{seat}}} left the game.", SYSTEM))
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
        events.append(Event(f"{{p{seat}}} ran out of time; the table plays for them.", SYSTEM))
        if state["phase"] == "choose":
            while state["choices"] and state["choices"][0]["owner"] == seat:
                self._choose(state, self._default_keep(state, state["choices"][0]), events, auto=True)
            self._continue_choices(state, events)
            return
        self._begin_turn(state)
        state["last_turn"] = {"seat": seat, "kind": "timeout"}
        events.append(Event(f"{{p{seat}}} passes.", seat))
        self._end_turn(state, seat, events, active=False)

    # --- what players see ----------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        """Everything is public (stones in hand lie in front of their owner)."""
        per, n = state["per"], state["players"]
        rnd = state["round"]
        board = [{"square": q, "name": SQUARE_NAMES[q], "id": s, "owner": owner_of(per, s),
                  "size": size_of(per, s), "dir": state["dirs"][s], "dir_name": DIR_NAMES[state["dirs"][s]]}
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

    def result_lines(self, state: State) -> list[str]:
        detail = self.scores(state)
        order = sorted(range(state["players"]), key=lambda s: -detail[s]["total"])
        return [f"{{p{s}}}: {detail[s]['total']} points ({detail[s]['board']} on the board, "
                f"{detail[s]['prisoners']} in prisoners)" for s in order]
