"""GEONEO computer: shape values by greedy clearing, card choices by sampling hidden hands (docs/ai.md).

A colour's board value is what greedy clearing would score with its pieces now (take the best shape, remove
its corners, again). A field's worth to a colour is how much a piece there adds to that value.

- strong: a board is worth its colour's points and clearing value plus what its next piece can expect
  (``future_value``), against the best other colour's (``board_value``); cards: for each card it may play,
  samples the other hands (consistent with its view: its own hand, the cards played face up, the 36-card
  deck) and plays out the round (the others as normal plays, its own placement as strong places), valuing
  the board; placing: the field whose board is worth most, so it takes a field an opponent needs when that
  lowers what the opponent can expect (blocking); clearing: the exact best set of shapes (``best_clearing``).
- normal: the best immediate score: the card whose result lets its side place best now (or the placer of
  the other side worst), the field that adds most, the biggest shape.
- easy: normal's choice, but a random one a third of the time.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

from games.ai import Computer
from games.core import Action
from games.geoneo.rules import CARDS, colour_of, shapes
from i18n import _

SAMPLES = 12
"""Hidden hands sampled per card choice by strong."""
BLOCK = 0.6
"""Weight of what a field is worth to the opponent who wants it most (the coach's blocking)."""
FUTURE_OWN, FUTURE_OTHERS = 0.5, 1.0
"""Strong's weights of what a colour's next piece is likely to add: its own, and an opponent's."""


def clear_value(pieces: list, width: int, colour: int) -> int:
    """Half points greedy clearing scores with ``colour``'s pieces: the best shape, remove it, again."""
    return _clear_value(tuple(pieces), width, colour)


@lru_cache(maxsize=1 << 12)
def _clear_value(pieces: tuple, width: int, colour: int) -> int:
    """``clear_value``, memoised: a decision values the same boards many times (every sampled deal of a
    round meets the same board until its placement), which made strong's card choice slow. A few thousand
    boards (a few MB) suffice: one card choice values a few hundred."""
    board = list(pieces)
    total = 0
    while True:
        found = best_shape(board, width, colour)
        if found is None:
            return total
        points, corners = found
        total += points
        for f in corners:
            board[f] = None


def best_shape(pieces: list, width: int, colour: int) -> tuple[int, tuple[int, ...]] | None:
    """``rules.shapes(pieces, width, colour)[0]`` as (points in halves, corners), or None: the same shape
    (most points, then the smallest key), found without listing, naming and sorting every shape (the
    computers value thousands of boards a game; a test compares the two)."""
    mine = [i for i, p in enumerate(pieces) if p == colour]
    if len(mine) < 2:
        return None
    own = set(mine)
    pos = {i: divmod(i, width) for i in mine}
    best_points, best_key, best_corners = 0, "", ()

    def offer(points: int, key: str, corners: tuple[int, ...]) -> None:
        nonlocal best_points, best_key, best_corners
        if points > best_points or key < best_key:
            best_points, best_key, best_corners = points, key, corners

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
                points = 2 * (max(abs(dr), abs(dc)) + 1)
                if points >= best_points:
                    offer(points, f"L{a}.{b}", (a, b))
            if dr > 0 and dc > 0:  # a is the top-left corner of a rectangle
                points = 2 * (dr + 1) * (dc + 1)
                if points >= best_points:
                    c1, c2 = ra * width + cb, rb * width + ca
                    if c1 in own and c2 in own:
                        offer(points, f"R{a}.{c1}.{c2}.{b}", (a, c1, c2, b))
    for corner in mine:
        r, c = pos[corner]
        for a in by_row[r]:
            if a == corner:
                continue
            for b in by_col[c]:
                if b == corner:
                    continue
                points = (abs(pos[a][1] - c) + 1) * (abs(pos[b][0] - r) + 1)
                if points >= best_points:
                    offer(points, f"T{corner}.{a}.{b}", (corner, a, b))
    return (best_points, best_corners) if best_points else None


def best_clearing(pieces: list, width: int, colour: int) -> tuple[int, str | None]:
    """The most ``colour``'s pieces can score in the clearing (half points) and the key of a shape to clear
    first for it (None: no shape). Colours never interact (only a shape's corners count, and a player removes
    only their own), so this is the best set of shapes with no corner in common, cleared in any order: an
    exact search over the pieces (the lowest unused piece is left or cleared in one of its shapes),
    memoised on the set of pieces left; a board of 18 pieces takes some 10 ms. Greedy clearing (the biggest
    shape first) often scores several points less."""
    return _best_clearing(tuple(pieces), width, colour)


@lru_cache(maxsize=1 << 10)
def _best_clearing(pieces: tuple, width: int, colour: int) -> tuple[int, str | None]:
    found = shapes(list(pieces), width, colour)
    used = sorted({f for _key, _points, corners in found for f in corners})
    bit = {f: 1 << i for i, f in enumerate(used)}
    by_lowest: dict[int, list[tuple[int, int, str]]] = {}
    for key, points, corners in found:
        mask = sum(bit[f] for f in corners)
        by_lowest.setdefault(mask & -mask, []).append((mask, points, key))
    memo: dict[int, tuple[int, str | None]] = {0: (0, None)}

    def best(left: int) -> tuple[int, str | None]:
        if left in memo:
            return memo[left]
        lowest = left & -left
        top = best(left ^ lowest)  # the lowest piece left unused
        out = (top[0], top[1])
        for mask, points, key in by_lowest.get(lowest, ()):
            if mask & left == mask:
                value = points + best(left ^ mask)[0]
                if value > out[0]:
                    out = (value, key)
        memo[left] = out
        return out

    return best((1 << len(used)) - 1)


def field_gain(pieces: list, width: int, colour: int, field: int, base: int | None = None) -> int:
    """What a piece of ``colour`` on ``field`` adds to its clearing value."""
    if base is None:
        base = clear_value(pieces, width, colour)
    board = list(pieces)
    board[field] = colour
    return clear_value(board, width, colour) - base


def colours_in_play(view: dict) -> list[int]:
    return sorted(set(view["colours"]))


def margin(pieces: list, width: int, mine: int, colours: list[int], scores: list | None = None) -> float:
    """My colour's value (score so far + clearing value) against the best other colour's."""
    def worth(c: int) -> float:
        return (2 * scores[c] if scores else 0) + clear_value(pieces, width, c)
    return worth(mine) - max(worth(c) for c in colours if c != mine)


def best_field(view: dict, fields: list[int], colour: int, block: float = 0.0) -> int:
    """The field adding most for ``colour`` (plus ``block`` times the most it would add for another)."""
    pieces, width = view["pieces"], view["width"]
    base = clear_value(pieces, width, colour)
    others = [c for c in colours_in_play(view) if c != colour]
    other_base = {c: clear_value(pieces, width, c) for c in others} if block else {}

    def worth(f: int) -> float:
        gain = field_gain(pieces, width, colour, f, base)
        if block:
            gain += block * max(field_gain(pieces, width, c, f, other_base[c]) for c in others)
        return gain

    return max(fields, key=lambda f: (worth(f), -f))


def future_value(pieces: list, width: int, numbers: list, colour: int) -> float:
    """What ``colour``'s next piece is likely to add (half points): the mean over the six numbers of the most
    a free field of that number would add to its clearing value (nothing for a number with no free field)."""
    return _future_value(tuple(pieces), width, tuple(numbers), colour)


@lru_cache(maxsize=1 << 12)
def _future_value(pieces: tuple, width: int, numbers: tuple, colour: int) -> float:
    base = clear_value(pieces, width, colour)
    best = [0] * 7
    board = list(pieces)
    for f, piece in enumerate(pieces):
        if piece is None:
            board[f] = colour
            gain = clear_value(board, width, colour) - base
            board[f] = None
            if gain > best[numbers[f]]:
                best[numbers[f]] = gain
    return sum(best) / 6


def board_value(pieces: list, width: int, numbers: list, mine: int, colours: list[int],
                scores: list | None = None) -> float:
    """Strong's measure of a board for ``mine``: its points and clearing value with FUTURE_OWN times what its
    next piece is likely to add, against the best other colour's, whose next piece counts FUTURE_OTHERS: so
    a field an opponent needs is worth taking (blocking) by how much it lowers what that opponent can expect,
    not merely by what it would have added there (an equally good field of the same number leaves nothing
    to block)."""
    def worth(c: int, weight: float) -> float:
        return ((2 * scores[c] if scores else 0) + clear_value(pieces, width, c)
                + weight * future_value(pieces, width, numbers, c))
    return worth(mine, FUTURE_OWN) - max(worth(c, FUTURE_OTHERS) for c in colours if c != mine)


def strong_field(view: dict, fields: list[int], colour: int) -> int:
    """The field whose board is worth most to ``colour`` (``board_value``)."""
    return _strong_field(tuple(view["pieces"]), view["width"], tuple(view["numbers"]), tuple(fields), colour,
                         tuple(colours_in_play(view)))


@lru_cache(maxsize=1 << 10)
def _strong_field(pieces: tuple, width: int, numbers: tuple, fields: tuple, colour: int, colours: tuple) -> int:
    def worth(f: int) -> float:
        board = list(pieces)
        board[f] = colour
        return board_value(board, width, numbers, colour, colours)

    return max(fields, key=lambda f: (worth(f), -f))


def sample_state(view: dict, seat: int, rng: random.Random) -> dict:
    """A full state consistent with ``seat``'s view: the unseen cards (the deck minus its hand, the cards put
    away and the round's cards) dealt at random to the other hands and the face-down pile; re-seeded."""
    from games.geoneo.rules import Geoneo

    n = view["players"]
    state = Geoneo().new(n, {}, rng.randrange(1 << 30))
    unseen = Counter(CARDS)
    unseen.subtract(view["hand"])
    unseen.subtract(view["away"])
    unseen.subtract(p["card"] for p in view["round"]["plays"])
    pool = list(unseen.elements())
    rng.shuffle(pool)
    hands = []
    for s in range(n):
        if s == seat:
            hands.append(sorted(view["hand"]))
        else:
            hands.append(sorted(pool[:view["hand_sizes"][s]]))
            pool = pool[view["hand_sizes"][s]:]
    place = view["place"]
    round_ = view["round"]
    scores = [int(round(2 * x)) for x in view["scores"]]
    state.update(
        pieces=list(view["pieces"]), supply=list(view["supply"]), hands=hands, deck=pool,
        away=list(view["away"]), round={"start": round_["start"], "plays": [dict(p) for p in round_["plays"]]},
        place=dict(place) if place else None, phase=view["phase"], scores=scores, left=list(view["left"]),
        clearer=view["to_act"][0] if view["phase"] == "clear" else None, highlight=None,
    )
    return state


class GeoneoComputer(Computer):
    slug = "geoneo"
    strengths = {
        "easy": _("takes the best card, field or shape it sees now, but a random one a third of the time"),
        "normal": _("takes the card, field and shape worth most right now"),
        "strong": _("samples the hidden hands to play out each card, blocks the others' shapes, plans its clearing"),
    }

    def choose(self, view: dict, seat: int, actions: list[Action], strength: str, rng: random.Random) -> str:
        keys = [a.key for a in actions]
        if strength == "easy" and rng.random() < 1 / 3:
            return rng.choice(keys)
        phase = view["phase"]
        colour = view["colours"][seat]
        if phase == "clear":
            if strength == "strong":
                return self.plan_clearing(view, seat, keys)
            return keys[0]  # shapes come best first
        if phase == "place":
            fields = [int(k[1:]) for k in keys]
            if strength == "strong":
                return f"f{strong_field(view, fields, colour)}"
            return f"f{best_field(view, fields, colour)}"
        if strength == "strong":
            return self.sampled_card(view, seat, keys, rng)
        return immediate_card(view, seat, keys)

    # --- strong ----------------------------------------------------------------------------------------
    def plan_clearing(self, view: dict, seat: int, keys: list[str]) -> str:
        """A shape of the best clearing of its colour (``best_clearing``: the most its pieces can still
        score); the biggest shape when none is offered (never the case: every shape is legal)."""
        _total, key = best_clearing(view["pieces"], view["width"], view["colours"][seat])
        return key if key in keys else keys[0]

    def sampled_card(self, view: dict, seat: int, keys: list[str], rng: random.Random) -> str:
        """The card with the best average board margin over rounds played out on sampled hands."""
        from games.geoneo.rules import Geoneo

        engine = Geoneo()
        colours = colours_in_play(view)
        mine = view["colours"][seat]
        samples = [sample_state(view, seat, rng) for _ in range(SAMPLES)]
        best, best_score = keys[0], None
        for key in keys:
            total = 0.0
            for sample in samples:
                state, _ = engine.apply(sample, seat, key)
                state = finish_round(engine, state, seat, own=True)
                total += board_value(state["pieces"], state["width"], state["numbers"], mine, colours,
                                     [s / 2 for s in state["scores"]])
            if best_score is None or total > best_score:
                best, best_score = key, total
        return best


def finish_round(engine, state: dict, seat: int, own: bool = False) -> dict:
    """Plays the round to its placement (others' cards and the placing as normal plays them; ``own``: a
    placement of ``seat``'s colour as strong places)."""
    for _step in range(12):
        if state["phase"] == "over":
            return state
        actor = next(iter(engine.to_act(state)))
        if state["phase"] == "play" and not state["round"]["plays"]:
            return state  # a new round began: this one is done
        view = engine.view(state, actor)
        keys = [a.key for a in engine.legal_actions(state, actor)]
        if state["phase"] == "place":
            fields = [int(k[1:]) for k in keys]
            colour = view["colours"][actor]
            if own and colour == view["colours"][seat]:
                key = f"f{_strong_field(tuple(view['pieces']), view['width'], tuple(view['numbers']), tuple(fields), colour, tuple(colours_in_play(view)))}"
            else:
                key = f"f{best_field(view, fields, colour)}"
            state, _ = engine.apply(state, actor, key)
            return state
        if state["phase"] == "clear":
            return state
        state, _ = engine.apply(state, actor, immediate_card(view, actor, keys))
    return state


def immediate_card(view: dict, seat: int, keys: list[str]) -> str:
    """Normal's card: the result it makes, taken as the round's final one, and the best placement of the
    round's start player there: good when the placer is on this seat's side, bad when not."""
    n, width, pieces = view["players"], view["width"], view["pieces"]
    plays = view["round"]["plays"]
    result = view["result"] or 0
    mine = view["colours"][seat]
    placer = view["round"]["start"]
    placer_colour = colour_of(placer, n)
    base = clear_value(pieces, width, placer_colour)

    def worth(key: str) -> float:
        kind, value = key[0], int(key[1:])
        number = {"c": value, "a": result + value, "s": result - value, "d": result}[kind]
        if not plays and kind == "c":
            number = value
        free = [f for f, v in enumerate(view["numbers"]) if v == number and pieces[f] is None]
        if not free or number == 0:
            return 0.0
        gain = max(field_gain(pieces, width, placer_colour, f, base) for f in free)
        return gain if placer_colour == mine else -gain

    return max(keys, key=lambda k: (worth(k), -keys.index(k)))


COMPUTER = GeoneoComputer
