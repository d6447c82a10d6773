"""Geodeto's computer player: how far each goal card still is from standing, in moves, and search over that.

The heart is :func:`trio_cost`, a quick estimate of the moves a card's trio still needs on one of its
continents: the trio falls into *units* (pyramids already stacked in the right order travel together), the
bottom unit has to reach the continent (0, 1 for a neighbour or from the Ocean, 2 otherwise), each further
unit needs at least one move onto the one below, something sitting on a unit that must be built on costs one
more, a closed continent one more, a pyramid on the Pirates card (or inside a ship, unless the ship carries
the bottom unit) two more. It is exact at 0 (the trio stands), 1 for every trio one action forms (tested),
and close below 3, which is what matters.

A board is then worth, to a player, its goals weighted by how near they are: a card's points (2, +2 for a
continent not yet formed on, about 1 for a sight's group, +1 for the last goal) times a weight falling with
its cost; hand cards fully, public goals by a small share (building one mostly gifts it to the next player);
each card in hand costs a little (it is -1 at the end). A claim counts its points and a bonus draw.

- ``easy``: one action ahead on its own hand cards (public goals a little), with noise and the odd random action.
- ``normal``: every action of the turn (moves, draws, action cards) one ahead, claims included: the best
  immediate progress toward its hand (and a little toward the public goals).
- ``strong``: as normal, then for the best candidates its own best next action too (a two-action plan), and
  minus what the next player could claim with one move afterwards: the public goals within their reach
  and their hand, sampled from the cards this seat has not seen (:func:`deal`, consistent with the hand
  sizes and the piles' sizes and continents). So it moves a pyramid an opponent evidently needs, plays the
  Epidemic card or the Pirates when that breaks a threat, and draws a public goal before another claims it.

The computer never reads other players' hands or the order of the piles: :func:`sample_state` builds full
states from the view alone, with fresh seeds, e.g.::

    >>> from games.core import get_engine
    >>> import random
    >>> engine = get_engine("geodeto")
    >>> state = engine.new(2, {}, 7)
    >>> view = engine.view(state, 0)
    >>> engine.view(sample_state(view, 0, random.Random(1)), 0) == view
    True
"""

from __future__ import annotations

import random
from functools import lru_cache

from games.ai import Computer
from games.core import Action, State
from games.geodeto.rules import (
    CONTINENTS,
    MAX_TOWERS,
    OCEAN,
    STALL_ROUNDS,
    TARGETS,
    _cards,
    continents_of,
    deck,
    trio_of,
)
from i18n import _

WEIGHTS = (1.0, 0.55, 0.3, 0.15, 0.07, 0.03, 0.015, 0.005, 0.0, 0.0)
"""A goal's share of its points by the moves it still needs (index: moves, capped)."""
PUBLIC_SHARE = {"easy": 0.1, "normal": 0.2, "strong": 0.0}
"""A public goal's share of its points before it stands. Building one is mostly a gift to the next player
(measured: a share of 0.5 made normal lose to easy); strong weighs instead what the next player could claim.
Easy counts them a little: a beginner's way to goals it can finish, and gifts to the others."""
EASY_NOISE = 0.3
"""Easy's misjudgement: the spread (in points) of the noise added to each action's value. (At 0.6 it swamped
the gain of a move toward a goal: easy completed no goal in a third of its games against random play.)"""
EASY_LOOSE = 0.1
"""Easy's share of loose moves: an action at random."""
SAMPLES = 6
"""Hands sampled for the next player when strong weighs what they could claim."""
BEAM = 10
"""Strong plans a second action of its own for this many of the best first actions."""
PLAN = {2: 0.5, "more": 0.2}
"""The share of the second action's gain strong counts: the board changes before it comes, the more so the
more players move in between (by players in the game; tuned by self-play)."""
DANGER = {2: 0.8, "more": 0.3}
"""How much strong weighs what the next player could claim with one move: with more players, spoiling the
next one helps the others as much as itself."""


# --- the board in a form quick to copy and change ----------------------------------------------------------
class Board:
    """What the computer tracks while it searches: towers as tuples per place, the action cards, the pile
    tops (None: a card not seen yet, or an empty pile), the searching seat's hand and formed continents."""

    __slots__ = ("towers", "closed", "ep_holder", "pir_holder", "pirates", "tops", "hand", "formed", "countdown")

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.towers = [list(t) for t in self.towers]
        b.closed, b.ep_holder, b.pir_holder = self.closed, self.ep_holder, self.pir_holder
        b.pirates = list(self.pirates)
        b.tops = list(self.tops)
        b.hand = list(self.hand)
        b.formed = set(self.formed)
        b.countdown = self.countdown
        return b


def board_of(view: dict, seat: int) -> Board:
    b = Board.__new__(Board)
    b.towers = [[tuple(p["id"] for p in t) for t in c["towers"]] for c in view["continents"]]
    b.towers.append([tuple(p["id"] for p in t) for t in view["ocean"]])
    b.closed = view["epidemic"]["continent"]
    b.ep_holder = view["epidemic"]["holder"]
    b.pir_holder = view["pirates"]["holder"]
    b.pirates = [p["id"] for p in view["pirates"]["pyramids"]]
    b.tops = [g["card"]["id"] if g["card"] else None for g in view["public_goals"]]
    b.hand = [c["id"] for c in view.get("hand", [])]
    b.formed = {CONTINENTS.index(f["formed_on"]) for f in view["fulfilled"][seat]}
    b.countdown = view["countdown"]
    return b


def locate(towers: list[list[tuple]]) -> dict[int, tuple[int, int, int]]:
    """Pyramid -> (place, tower index, height); captured pyramids are absent."""
    loc = {}
    for place, ts in enumerate(towers):
        for ti, t in enumerate(ts):
            for h, p in enumerate(t):
                loc[p] = (place, ti, h)
    return loc


def _reach(place: int, target: int) -> int:
    """Moves for a unit at ``place`` to arrive at continent ``target`` (0 when there)."""
    if place == target:
        return 0
    if place == OCEAN or (place - target) % 6 in (1, 5):
        return 1
    return 2


def trio_cost(card: str, towers: list[list[tuple]], loc: dict, closed: int | None) -> int:
    """About how many moves the card's trio still needs on the best of its continents (0: it stands)."""
    trio, places = _cards()[card]
    units = []  # (place, tower index, height of the unit's top, extra cost) per unit, bottom first
    i = 0
    while i < 3:
        p = trio[i]
        where = loc.get(p)
        extra = 0
        if where is None:  # on the Pirates card: returned, then moved
            place, ti, h = OCEAN, -1, 0
            extra = 2
        else:
            place, ti, h = where
            if place == OCEAN and h > 0:
                extra = -2  # inside a ship: it sails with the ship; alone only once ships break
        top_h = h
        while i < 2 and where is not None:
            nxt = loc.get(trio[i + 1])
            if nxt is None or nxt[0] != place or nxt[1] != ti or nxt[2] != top_h + 1:
                break
            i += 1
            top_h += 1
        units.append((place, ti, top_h, extra))
        i += 1
    # what does not depend on the target continent, once: the extra moves and the blocked towers
    last = len(units) - 1
    fixed = 0
    for k, (place, ti, top_h, extra) in enumerate(units):
        if extra > 0 or k:
            fixed += abs(extra)
        if k < last and ti >= 0 and len(towers[place][ti]) > top_h + 1:
            fixed += 1  # something sits where the next unit must go
    best = 9
    for target in places:
        cost = fixed + 1 if target == closed else fixed
        for k, (place, _ti, _top_h, _extra) in enumerate(units):
            # _reach inlined: 0 there, 1 from a neighbour or the ocean, else 2
            if place == target:
                reach = 0
            elif place == OCEAN or (place - target) % 6 in (1, 5):
                reach = 1
            else:
                reach = 2
            if k == 0:
                cost += reach
            else:
                cost += 1 if reach == 1 else 2
        if cost < best:
            best = cost
    return best


# --- actions on the board -------------------------------------------------------------------------------
def destinations(b: Board, p: int, source: int) -> list[tuple[int, int | None]]:
    size = p % 3
    out = []
    for place in TARGETS[source]:
        if place == b.closed:
            continue
        ts = b.towers[place]
        if place == OCEAN or len(ts) < MAX_TOWERS:
            out.append((place, None))
        for t in ts:
            if t[-1] % 3 >= size:
                out.append((place, t[-1]))
    return out


def full_actions(b: Board, seat: int, forbidden: int | None, draws: bool = True) -> list[tuple]:
    """Every committed action of a turn: ("m", p, place, on), ("d", pile), ("e", c), ("h",), ("p", q), ("r", q)."""
    out: list[tuple] = []
    for source, ts in enumerate(b.towers):
        for t in ts:
            for p in t[:1] if source == OCEAN else t:
                if p != forbidden:
                    out.extend(("m", p, place, on) for place, on in destinations(b, p, source))
    if draws:
        out.extend(("d", c) for c, top in enumerate(b.tops) if top is not None)
    if b.closed is None and b.ep_holder in (None, seat):
        out.extend(("e", c) for c in range(6))
    if b.closed is not None:
        out.append(("h",))
    if b.pir_holder is None:
        out.extend(("p", t[0]) for t in b.towers[OCEAN])
    elif b.pir_holder == seat:
        out.extend(("r", q) for q in b.pirates)
    return out


def first_key(action: tuple) -> str:
    kind = action[0]
    if kind == "m":
        return f"m{action[1]}"
    return "d" if kind == "d" else "a"


def second_key(action: tuple) -> str:
    kind = action[0]
    if kind == "m":
        return f"t{action[2]}" if action[3] is None else f"o{action[3]}"
    if kind == "h":
        return "h"
    return f"{kind}{action[1]}"


def act(b: Board, seat: int, action: tuple) -> tuple[Board, list[str]]:
    """The board after ``seat``'s action (``b`` is the searching seat's board) and the cards it claims."""
    n = b.copy()
    kind = action[0]
    if kind == "m":
        p, place, on = action[1:]
        for ts in n.towers:
            for ti, t in enumerate(ts):
                if p in t:
                    h = t.index(p)
                    moving = t[h:]
                    if h:
                        ts[ti] = t[:h]
                    else:
                        del ts[ti]
                    break
            else:
                continue
            break
        dest = n.towers[place]
        if on is None:
            dest.append(moving)
        else:
            for ti, t in enumerate(dest):
                if t[-1] == on:
                    dest[ti] = t + moving
                    break
    elif kind == "d":
        n.hand.append(n.tops[action[1]])
        n.tops[action[1]] = None
    elif kind == "e":
        c = action[1]
        sent = [(p,) for t in n.towers[c] for p in reversed(t)]
        n.towers[c] = []
        n.towers[OCEAN].extend(sent)
        n.closed, n.ep_holder = c, None
    elif kind == "h":
        n.closed, n.ep_holder = None, seat
    elif kind == "p":
        ocean = n.towers[OCEAN]
        tower = next(t for t in ocean if t[0] == action[1])
        ocean.remove(tower)
        n.pir_holder = seat
        n.pirates.extend(tower)
    elif kind == "r":
        n.pirates.remove(action[1])
        n.towers[OCEAN].append((action[1],))
    return n, claim(n, seat)


def located_after(base: dict, n: Board, action: tuple, got: list[str]) -> dict | None:
    """``locate(n.towers)`` for the board ``n`` that ``action`` made of a board located as ``base``, found
    from ``base`` when only a move or a draw changed it: a move re-indexes just the place it leaves and the
    place it goes to; a draw moves nothing. None (locate it afresh) for the rest, and once a claim broke the
    ships."""
    if got or action[0] not in "md":
        return None
    if action[0] == "d":
        return base
    loc = dict(base)
    for place in {base[action[1]][0], action[2]}:
        for ti, t in enumerate(n.towers[place]):
            for h, p in enumerate(t):
                loc[p] = (place, ti, h)
    return loc


def stands(card: str, towers: list[list[tuple]]) -> int | None:
    (a, b, c), places = _cards()[card]
    for place in places:
        for t in towers[place]:
            if len(t) > 2 and a in t:  # a pyramid stands in one place only: its one index is the only start
                i = t.index(a)
                if i + 2 < len(t) and t[i + 1] == b and t[i + 2] == c:
                    return place
    return None


def claim(n: Board, seat: int) -> list[str]:
    """Claims the board's met goals of the hand and the pile tops for ``seat`` (in place), as the engine does
    after an action; a pile's next card is unknown to the search."""
    got = []
    for card in list(n.hand):
        place = stands(card, n.towers)
        if place is not None:
            n.hand.remove(card)
            got.append(card)
            n.formed.add(place)
    for pile, card in enumerate(n.tops):
        if card is not None:
            place = stands(card, n.towers)
            if place is not None:
                n.tops[pile] = None
                got.append(card)
                n.formed.add(place)
    if got:
        n.towers[OCEAN] = [(p,) for t in n.towers[OCEAN] for p in t]
        if n.pir_holder == seat:
            n.towers[OCEAN].extend((p,) for p in n.pirates)
            n.pirates, n.pir_holder = [], None
        n.countdown -= len(got)
    return got


# --- what a board is worth -----------------------------------------------------------------------------
def card_points(card: str, formed: set[int], countdown: int) -> float:
    """A goal's points to a player who has formed on ``formed``: 2, +2 for a new continent, about 1 for a
    sight's group, +1 if it would be the last goal."""
    points = 2.0
    if formed.isdisjoint(continents_of(card)):
        points += 2.0
    if card in _grouped():
        points += 1.0
    if countdown <= 1:
        points += 1.0
    return points


@lru_cache(maxsize=1)
def _grouped() -> frozenset[str]:
    """The cards of a sight's group."""
    return frozenset(card for card, data in deck().items() if data.get("group"))


def hand_penalty(countdown: int) -> float:
    """A card in hand is -1 at the end; early on it is mostly a chance."""
    return 1.0 if countdown <= 2 else 0.4


class Evaluator:
    """Scores boards for one seat, caching each card's cost per board."""

    def __init__(self, seat: int, public_share: float):
        self.seat = seat
        self.public_share = public_share
        self.costs: dict[tuple, int] = {}

    def cost(self, card: str, n: Board, loc: dict) -> int:
        """``trio_cost``, memoised for the decision by what it reads: where the trio's pyramids are, how
        tall their towers are and which continent is closed (most actions searched leave a card's trio
        alone, so its cost is looked up, not recomputed)."""
        towers = n.towers
        a, b, c = trio_of(card)
        wa, wb, wc = loc.get(a), loc.get(b), loc.get(c)
        key = (card, n.closed,
               wa, wa and len(towers[wa[0]][wa[1]]),
               wb, wb and len(towers[wb[0]][wb[1]]),
               wc, wc and len(towers[wc[0]][wc[1]]))
        got = self.costs.get(key)
        if got is None:
            got = self.costs[key] = trio_cost(card, towers, loc, n.closed)
        return got

    def _goals(self, n: Board, loc: dict, goals: list[str], total: float, share: float) -> float:
        """``total`` plus, per goal card, ``share`` of its points weighted by its cost: ``card_points`` and
        ``cost`` inlined (every action searched comes through here), the sums made in the same order."""
        towers, closed, costs, cards, grouped = n.towers, n.closed, self.costs, _cards(), _grouped()
        formed, last = n.formed, 1.0 if n.countdown <= 1 else 0.0
        for card in goals:
            (a, b, c), places = cards[card]
            wa, wb, wc = loc.get(a), loc.get(b), loc.get(c)
            key = (card, closed,
                   wa, wa and len(towers[wa[0]][wa[1]]),
                   wb, wb and len(towers[wb[0]][wb[1]]),
                   wc, wc and len(towers[wc[0]][wc[1]]))
            cost = costs.get(key)
            if cost is None:
                cost = costs[key] = trio_cost(card, towers, loc, closed)
            points = 2.0 + (2.0 if formed.isdisjoint(places) else 0.0) + (1.0 if card in grouped else 0.0) + last
            total += share * points * WEIGHTS[cost]  # exactly points * WEIGHTS[cost] for a share of 1
        return total

    def value(self, n: Board, claimed: list[str], before: Board, loc: dict | None = None) -> float:
        loc = loc if loc is not None else locate(n.towers)
        total = 0.0
        formed = set(before.formed)
        countdown = before.countdown
        for card in claimed:
            total += card_points(card, formed, countdown) + 0.6  # and a bonus draw
            formed.update(continents_of(card))
            countdown -= 1
        if n.countdown <= 0:
            return total + 100.0 if claimed else total
        total = self._goals(n, loc, n.hand, total, 1.0)
        total -= hand_penalty(n.countdown) * len(n.hand)
        if self.public_share:
            total = self._goals(n, loc, [card for card in n.tops if card is not None], total, self.public_share)
        return total


def threat(n: Board, loc: dict, hands: list[list[str]], formed: set[int]) -> float:
    """What the next player could claim with their next move, on average over their sampled hands: the best
    card within one move, public or theirs."""
    costs: dict[str, int] = {}

    def near(card: str) -> bool:
        if card not in costs:
            costs[card] = trio_cost(card, n.towers, loc, n.closed)
        return costs[card] <= 1

    public = max((card_points(c, formed, n.countdown) for c in n.tops if c is not None and near(c)), default=0.0)
    if not hands:
        return public
    total = 0.0
    for hand in hands:
        total += max(public, max((card_points(c, formed, n.countdown) + 1 for c in hand if near(c)), default=0.0))
    return total / len(hands)


# --- hidden information --------------------------------------------------------------------------------
def unseen_cards(view: dict, seat: int) -> list[str]:
    """Cards this seat has not seen where they are: in other hands or under the pile tops."""
    seen = {c["id"] for c in view.get("hand", [])}
    seen.update(f["id"] for fs in view["fulfilled"] for f in fs)
    seen.update(g["card"]["id"] for g in view["public_goals"] if g["card"])
    return [c for c in deck() if c not in seen]


def deal(view: dict, seat: int, rng: random.Random) -> tuple[list[list[str]], list[list[str]]]:
    """A random split of the unseen cards into the other hands and under the pile tops, consistent with the
    view: the sizes, and every pile card on a pile of one of its continents (as the setup and a leaving
    player put them)."""
    unseen = unseen_cards(view, seat)
    rng.shuffle(unseen)
    # slots: one per hidden card place, a pile's (its continent's cards only) or another hand's (any card)
    slots = [pile for pile, g in enumerate(view["public_goals"]) for _ in range(max(0, g["count"] - 1))]
    slots += [-1 - s for s, size in enumerate(view["hand_sizes"]) if s != seat for _ in range(size)]
    fits = {card: [i for i, slot in enumerate(slots) if slot < 0 or slot in continents_of(card)] for card in unseen}
    for options in fits.values():
        rng.shuffle(options)
    holder: list[str | None] = [None] * len(slots)

    def place(card: str, tried: set[int]) -> bool:  # an augmenting path (Kuhn's matching)
        for i in fits[card]:
            if i not in tried:
                tried.add(i)
                if holder[i] is None or place(holder[i], tried):
                    holder[i] = card
                    return True
        return False

    for card in unseen:
        place(card, set())
    spare = [card for card in unseen if card not in holder]  # none in a real game: every card fits somewhere
    piles: list[list[str]] = [[] for _ in range(6)]
    hidden_hands: dict[int, list[str]] = {s: [] for s in range(len(view["hand_sizes"]))}
    for slot, card in zip(slots, holder, strict=True):
        card = card if card is not None else spare.pop()
        (piles[slot] if slot >= 0 else hidden_hands[-1 - slot]).append(card)
    hands = [[c["id"] for c in view.get("hand", [])] if s == seat else hidden_hands[s]
             for s in range(len(view["hand_sizes"]))]
    for pile, g in enumerate(view["public_goals"]):
        if g["card"]:
            piles[pile].append(g["card"]["id"])
    return hands, piles


def sample_state(view: dict, seat: int, rng: random.Random) -> State:
    """A full state consistent with ``seat``'s view: unseen cards dealt at random (:func:`deal`), and a fresh
    seed, so the sample never carries the true future."""
    from games.core import get_engine

    engine = get_engine("geodeto")
    players = view["players"]
    hands, piles = deal(view, seat, rng)
    towers = [[[p["id"] for p in t] for t in c["towers"]] for c in view["continents"]]
    towers.append([[p["id"] for p in t] for t in view["ocean"]])
    extras = {e["key"]: e["holder"] for e in view["extras"]}
    last_move = dict(view["last_move"]) if view["last_move"] else None
    step = None
    if view["step"]:
        step = {"kind": view["step"]["kind"]}
        if step["kind"] == "move":
            step["pyramid"] = view["step"]["pyramid"]
    current = view["current"]
    # only the no-takeback rule reads the last pick: the opponent's when a pyramid is forbidden, else ours
    if view["forbidden"] is not None:
        other = next(s for s in range(players) if s != current and not view["left"][s])
        last_pick = [other, view["forbidden"]]
    else:
        last_pick = [current, last_move["pyramid"]] if last_move else None
    remaining = sum(not gone for gone in view["left"])
    last_claims = [{**c, "continent": CONTINENTS.index(c["continent"]), "card": c["card"]["id"]}
                   for c in view["last_claims"]]
    state: State = {
        "game": "geodeto",
        "schema": engine.schema,
        "seed": rng.getrandbits(63),
        "rng": 0,
        "players": players,
        "options": engine.normalise_options({"goals": view["goal"], "extras": bool(view["extras"])}),
        "left": list(view["left"]),
        "ply": 0,
        "towers": towers,
        "piles": piles,
        "hands": hands,
        "fulfilled": [[{"card": f["id"], "continent": CONTINENTS.index(f["formed_on"])} for f in fs]
                      for fs in view["fulfilled"]],
        "epidemic": {"continent": view["epidemic"]["continent"], "holder": view["epidemic"]["holder"]},
        "pirates": {"holder": view["pirates"]["holder"], "pyramids": [p["id"] for p in view["pirates"]["pyramids"]]},
        "extras": extras,
        "goal": view["goal"],
        "countdown": view["countdown"],
        "current": current,
        "phase": view["phase"],
        "step": step,
        "bonus": view["bonus"],
        "last_pick": last_pick,
        "last_move": last_move,
        "last_claims": last_claims,
        "last_claimer": None,
        "dry_turns": STALL_ROUNDS * remaining - view["stall_turns_left"],
    }
    if view["phase"] == "over":
        state["last_claimer"] = next((s for s, row in enumerate(view["score_sheet"]["players"]) if row["last"]), None)
    return state


# --- the player ----------------------------------------------------------------------------------------
class GeodetoComputer(Computer):
    slug = "geodeto"
    strengths = {
        "easy": _("builds toward its own goal cards one move at a time, with the odd loose move"),
        "normal": _("makes the move, draw or action card that brings its goals and the public goals nearest now"),
        "strong": _("plans two actions ahead and spoils the goals the next player could claim"),
    }

    def choose(self, view: dict, seat: int, actions: list[Action], strength: str, rng: random.Random) -> str:
        legal = [a.key for a in actions if a.key != "back"]
        board = board_of(view, seat)
        if view["phase"] == "bonus":
            candidates = [("d", int(k[1:])) for k in legal if k != "skip"]
            scored = self._score(view, seat, board, candidates, strength, rng, bonus=True)
            best = max(scored, key=lambda x: x[0], default=None)
            stay = Evaluator(seat, PUBLIC_SHARE[strength]).value(board, [], board)
            if best is None or best[0] <= stay:
                return "skip"
            return f"d{best[1][1]}"
        step = view["step"]
        if step is None:
            candidates = full_actions(board, seat, view["forbidden"])
            keyer = first_key
        else:
            if step["kind"] == "move":
                p = step["pyramid"]
                candidates = [("m", p, d["place"], d["on"]) for d in step["destinations"]]
            else:
                candidates = [a for a in full_actions(board, seat, view["forbidden"])
                              if a[0] == step["kind"][0] or (step["kind"] == "action" and a[0] in "ehpr")]
            keyer = second_key
        candidates = [a for a in candidates if keyer(a) in legal]
        if not candidates:
            return legal[0] if legal else actions[0].key
        if strength == "easy" and rng.random() < EASY_LOOSE:
            return keyer(rng.choice(candidates))
        scored = self._score(view, seat, board, candidates, strength, rng)
        best = max(s for s, _ in scored)
        ties = [a for s, a in scored if s >= best - 1e-9]
        return keyer(ties[0] if len(ties) == 1 else rng.choice(ties))

    def _score(self, view: dict, seat: int, board: Board, candidates: list[tuple], strength: str,
               rng: random.Random, bonus: bool = False) -> list[tuple[float, tuple]]:
        evaluator = Evaluator(seat, PUBLIC_SHARE[strength])
        scored = []
        base = locate(board.towers)
        for action in candidates:
            after, got = act(board, seat, action)
            value = evaluator.value(after, got, board, located_after(base, after, action, got))
            if strength == "easy":
                value += rng.gauss(0.0, EASY_NOISE)
            scored.append((value, action))
        if strength != "strong":
            return scored
        # the next player's view of the board: their hands sampled from what this seat has not seen
        players = view["players"]
        table = 2 if sum(not gone for gone in view["left"]) <= 2 else "more"
        plan_share, danger_share = PLAN[table], DANGER[table]
        nxt = next((s for k in range(1, players + 1) if not view["left"][(s := (seat + k) % players)]), seat)
        hands = [deal(view, seat, rng)[0][nxt] for _ in range(SAMPLES)] if nxt != seat else []
        their_formed = {CONTINENTS.index(f["formed_on"]) for f in view["fulfilled"][nxt]}
        out = []
        ranked = sorted(range(len(scored)), key=lambda i: -scored[i][0])
        planned = set(ranked[:BEAM])
        for i, (value, action) in enumerate(scored):
            after, got = act(board, seat, action)
            if after.countdown <= 0:
                out.append((value, action))
                continue
            loc = locate(after.towers)
            danger = threat(after, loc, [[c for c in h if c not in after.hand] for h in hands], their_formed)
            plan = value
            if i in planned and not bonus:
                follow = [evaluator.value(n2, g2, after) for a2 in full_actions(after, seat, None, draws=False)
                          for n2, g2 in (act(after, seat, a2),)]
                if follow:
                    plan = value + plan_share * max(0.0, max(follow) - value)
            out.append((plan - danger_share * danger, action))
        return out


COMPUTER = GeodetoComputer
