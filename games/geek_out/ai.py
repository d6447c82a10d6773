"""Geek Out! Masters computer: exact dynamic programming over the dice of a turn (docs/ai.md).

A turn's position is (active faces, inactive count, scored count); the used count follows (ten dice in all).
``TurnSolver`` values every position for a utility of the banked 42s (``utility[n]`` for n scored 42s, a bust
counting as n = 0): every die choice and target is the best, and at each Continue/Pass choice it continues
exactly when rolling the used dice is worth more than banking. Continue can come back to a position with the
same scored count (a roll with no 42 and no bust), so each scored level is solved by value iteration, from
10 scored 42s down to none.

- strong: the solver for the points (the most expected points per turn) on every turn but its last; on its
  last turn, the solver for the chance to win, given the totals and the turns the others have left (their
  turns modelled by the points distribution of the same optimal play).
- normal: the engine's timeout expectimax for the dice (``rules.best_move``: best moves, pass at the next
  choice) and a one-step look-ahead for Continue: continue when one more roll, then a pass, is worth more
  on average than banking now.
- easy: mostly normal's dice, now and then a rule of thumb (act on Dragons and Spaceships first); it rolls
  on to a random number of 42s at risk, blind to how many dice are left.
"""

from __future__ import annotations

import random
from array import array
from functools import cache, lru_cache
from itertools import combinations_with_replacement
from math import factorial

from games.ai import Computer
from games.core import Action
from games.geek_out.rules import ACT_ORDER, DICE, FACES, OPPOSITE, Move, moves, points_for
from i18n import _

Position = tuple[tuple[str, ...], int, int]
"""(active faces sorted in ``FACES`` order, inactive count, scored count)."""


ORDER = {face: i for i, face in enumerate(FACES)}


def _sorted(faces) -> tuple[str, ...]:
    return tuple(sorted(faces, key=ORDER.__getitem__))


moves_of = cache(moves)


@cache
def after(active: tuple[str, ...], move: Move, any_inactive: bool) -> tuple[tuple[tuple[str, ...], ...] | None, int]:
    """What ``move`` leads to: the equally likely active faces after it (one, or six for a roll) and the
    change of the inactive count; None for a self-destruct. Memoised: the solver asks for each many times."""
    face, target = move
    rest = list(active)
    rest.remove(face)
    if face == "heart":
        if not any_inactive:
            return (_sorted(rest),), 0
        return tuple(_sorted([*rest, f]) for f in FACES), -1
    if target is None:
        return (None, 0) if face == "ship" else ((_sorted(rest),), 0)
    rest.remove(target)
    if face == "meeple":
        return tuple(_sorted([*rest, f]) for f in FACES), 0
    if face == "hero":
        return (_sorted([*rest, OPPOSITE[target]]),), 0
    return (_sorted(rest),), 1
"""The engine's choices of a sorted set of active faces, memoised (the solver asks for each many times)."""


@cache
def rolls(n: int) -> tuple[tuple[tuple[str, ...], float], ...]:
    """Every outcome of rolling ``n`` dice as (sorted faces, probability)."""
    out = []
    for combo in combinations_with_replacement(FACES, n):
        ways = factorial(n)
        for face in FACES:
            ways //= factorial(combo.count(face))
        out.append((combo, ways / 6**n))
    return tuple(out)


class TurnSolver:
    """Optimal play of one turn for ``utility`` (a value per number of 42s banked, index 0..10)."""

    def __init__(self, utility: tuple[float, ...], cont: dict[tuple[int, int], float] | None = None,
                 tolerance: float = 1e-10, max_sweeps: int = 1000) -> None:
        self.utility = utility
        self.tolerance = tolerance
        self.max_sweeps = max_sweeps
        self.level: list[dict[Position, float]] = [{} for _ in range(DICE + 1)]  # memo by scored count
        self.sweeps = 0
        if cont is not None:  # already solved (the points table below): positions are valued on demand
            self.cont = dict(cont)
            return
        self.cont: dict[tuple[int, int], float] = {}  # (scored, inactive) -> value of Continue
        for scored in range(DICE, -1, -1):
            self._solve_level(scored)

    def _solve_level(self, scored: int) -> None:
        """Value iteration on the Continue values of one scored level (Gauss-Seidel), from the pass value
        (a lower bound, so the values rise to the fixed point)."""
        keys = [k for k in range(DICE - scored + 1) if DICE - scored - k > 0]
        for k in keys:
            self.cont[(scored, k)] = self.start_cont(scored)
        if self.start_cont(scored) >= max(self.utility):
            return  # banking now is as good as it gets: Continue is never better
        for _sweep in range(self.max_sweeps):
            self.level[scored] = {}
            change = 0.0
            for k in keys:
                new = sum(p * self.value(roll, k, scored) for roll, p in rolls(DICE - scored - k))
                change = max(change, abs(new - self.cont[(scored, k)]))
                self.cont[(scored, k)] = new
            self.sweeps += 1
            if change < self.tolerance:
                return

    def start_cont(self, scored: int) -> float:
        return self.utility[scored]

    def choice_value(self, scored: int, inactive: int) -> float:
        """The value at a Continue/Pass choice with ``scored`` 42s at risk (or at a forced pass)."""
        bank = self.utility[scored]
        if DICE - scored - inactive == 0:
            return bank
        return max(bank, self.cont[(scored, inactive)])

    def continues(self, scored: int, inactive: int) -> bool:
        return DICE - scored - inactive > 0 and self.cont[(scored, inactive)] > self.utility[scored]

    def value(self, active: tuple[str, ...], inactive: int, scored: int) -> float:
        memo = self.level[scored]
        pos = (active, inactive)
        got = memo.get(pos)
        if got is not None:
            return got
        options = moves_of(active)
        if not options:
            if "dragon" in active:
                got = self.utility[0]
            else:
                got = self.choice_value(scored + len(active), inactive)
        else:
            got = self.moves_value(active, inactive, scored, options)
        memo[pos] = got
        return got

    def moves_value(self, active: tuple[str, ...], inactive: int, scored: int, options: list[Move]) -> float:
        """What the dice ``active`` are worth with these ``options`` to use one: the best of them."""
        return max(self.move_value(active, inactive, scored, m) for m in options)

    def move_value(self, active: tuple[str, ...], inactive: int, scored: int, move: Move) -> float:
        outcomes, change = after(active, move, inactive > 0)
        if outcomes is None:
            return self.utility[0]  # a lone Spaceship self-destructs
        value = self.value
        if len(outcomes) == 1:
            return value(outcomes[0], inactive + change, scored)
        return sum(value(o, inactive + change, scored) for o in outcomes) / 6

    def best(self, active, inactive: int, scored: int) -> Move:
        """The best move (ties to the first in button order)."""
        key = _sorted(active)
        best: tuple[Move, float] | None = None
        for m in moves_of(key):
            v = self.move_value(key, inactive, scored, m)
            if best is None or v > best[1] + 1e-12:
                best = (m, v)
        return best[0]

    def turn_start(self) -> float:
        """The value of a fresh turn: seven dice rolled, three inactive."""
        return sum(p * self.value(roll, DICE - 7, 0) for roll, p in rolls(7))


POINTS = tuple(float(points_for(n)) for n in range(DICE + 1))


POINTS_CONTINUE = {
    (0, 0): 21.016509099443606, (0, 1): 20.639918867117327, (0, 2): 20.08215774039873, (0, 3): 19.056559944958796,
    (0, 4): 17.14009938326328, (0, 5): 13.879894580743427, (0, 6): 9.441445635936333, (0, 7): 4.982764902957672,
    (0, 8): 1.9946296857082513, (0, 9): 0.5919986272467197, (1, 0): 21.051911837767076, (1, 1): 20.437180043433504,
    (1, 2): 19.46992268694577, (1, 3): 17.676667442761058, (1, 4): 14.509015503681466, (1, 5): 10.08147496525216,
    (1, 6): 5.571486764743097, (1, 7): 2.5538251580960645, (1, 8): 1.2312998859179294, (2, 0): 21.12016557317543,
    (2, 1): 20.12430831262231, (2, 2): 18.48720747256468, (2, 3): 15.524877864895439, (2, 4): 11.167270209577449,
    (2, 5): 6.617463427002251, (2, 6): 3.6491384730898706, (2, 7): 2.4892652053754754, (3, 0): 21.26615666079909,
    (3, 1): 19.689124748754057, (3, 2): 17.039166561782903, (3, 3): 12.915925496955206, (3, 4): 8.434855874751788,
    (3, 5): 5.67818393153077, (3, 6): 4.438878862651474, (4, 0): 21.63986421010167, (4, 1): 19.234745892814225,
    (4, 2): 15.62248048402322, (4, 3): 11.429728966926238, (4, 4): 8.618507295957523, (4, 5): 7.026098754410013,
    (5, 0): 22.585913146667732, (5, 1): 19.378650994886186, (5, 2): 15.350211521024878, (5, 3): 12.289543406312884,
    (5, 4): 10.21397742464125, (6, 0): 24.37167312124448, (6, 1): 20.24188204544239, (6, 2): 16.78102324117376,
    (6, 3): 14.013206033459626, (7, 0): 26.30401234567902, (7, 1): 22.24074074074074, (7, 2): 18.444444444444443,
    (8, 0): 29.48611111111111, (8, 1): 23.75, (9, 0): 31.666666666666664,
}
"""The Continue values of the points solver, (scored, inactive) -> expected points of rolling the used dice:
the fixed point ``TurnSolver(POINTS)`` computes (about half a minute of value iteration, so it is kept here;
tests/games/test_ai_geek_out.py checks that one more sweep leaves it unchanged). (0, 3) is a fresh turn."""

TURN_DISTRIBUTION = (
    0.25497741969560045,
    1.225973083348446e-05,
    0.0012879806488479055,
    0.0069724796762864,
    0.009063738354317735,
    0.0218004617771614,
    0.2737023183988982,
    0.3485607764828443,
    0.07558597913246878,
    0.007735335726267793,
    0.00030125037622779,
)
"""Chance of banking n 42s (index n; 0 includes a bust) in a turn of the points solver's play, computed by
``PolicyValue`` with one-hot utilities (slow: kept here; the test checks its total and its mean)."""


@lru_cache(maxsize=1)
def points_solver() -> TurnSolver:
    """The solver for the most expected points per turn (its Continue values from the table above)."""
    return TurnSolver(POINTS, POINTS_CONTINUE)


def exact_turn_distribution() -> tuple[float, ...]:
    """Chance of banking n 42s (index n; 0 includes a bust) in a turn played by ``points_solver``: the chance
    of each outcome under that fixed play, by the same recursion with one-hot utilities on its choices."""
    solver = points_solver()
    out = []
    for n in range(DICE + 1):
        onehot = tuple(1.0 if i == n else 0.0 for i in range(DICE + 1))
        out.append(PolicyValue(solver, onehot).turn_start())
    return tuple(out)


class PolicyValue(TurnSolver):
    """The value for ``utility`` of playing as ``guide`` plays (its moves and its Continue/Pass choices)."""

    def __init__(self, guide: TurnSolver, utility: tuple[float, ...]) -> None:
        self.guide = guide
        super().__init__(utility)

    def choice_value(self, scored: int, inactive: int) -> float:
        if self.guide.continues(scored, inactive):
            return self.cont[(scored, inactive)]
        return self.utility[scored]

    def start_cont(self, scored: int) -> float:
        return 0.0

    def moves_value(self, active, inactive, scored, options):
        """Worth as much as the move ``guide`` makes."""
        return self.move_value(active, inactive, scored, self.guide.best(active, inactive, scored))


def _added(dist: tuple[float, ...], turns: int) -> dict[int, float]:
    """Distribution of the points added by ``turns`` turns of the optimal play."""
    out = {0: 1.0}
    for _turn in range(turns):
        nxt: dict[int, float] = {}
        for total, p in out.items():
            for n, q in enumerate(dist):
                if q:
                    nxt[total + points_for(n)] = nxt.get(total + points_for(n), 0.0) + p * q
        out = nxt
    return out


def win_utility(mine: int, others: list[tuple[int, int]]) -> tuple[float, ...]:
    """Chance to win (a tie counting half) for each number of 42s banked now, on the last turn, when the
    others have (total, turns left) ``others`` and play their turns for points."""
    dist = TURN_DISTRIBUTION
    spreads = [(total, _added(dist, left)) for total, left in others]
    out = []
    for n in range(DICE + 1):
        final = mine + points_for(n)
        chance = 1.0
        for total, spread in spreads:
            chance *= sum(p * (1.0 if total + x < final else 0.5 if total + x == final else 0.0)
                          for x, p in spread.items())
        out.append(round(chance, 9))
    return tuple(out)


@lru_cache(maxsize=1)
def dice_graph() -> tuple[dict[tuple[int, ...], int], list[list[tuple]], list[int]]:
    """Every position of a turn (active multiset, inactive count; at most ten dice) with where each of its
    moves leads, as flat indices, for ``SweptSolver``'s tight loop: (the index of a multiset of active faces,
    given as counts in ``FACES`` order; the positions grouped by active + inactive dice, a move taking one
    die out of play; by n, how many position indices have at most n dice in play). The same moves as
    ``rules.moves`` and ``after`` (a test compares the values); built once per process in about 0.1 s."""
    faces = len(FACES)
    face = {f: i for i, f in enumerate(FACES)}
    heart, meeple, ship, hero, dragon = (face[f] for f in ("heart", "meeple", "ship", "hero", "dragon"))
    act = [face[f] for f in ACT_ORDER]
    opposite = [face[OPPOSITE[f]] for f in FACES]
    index: dict[tuple[int, ...], int] = {}
    multisets: list[tuple[int, ...]] = []
    for n in range(DICE + 1):
        for combo in combinations_with_replacement(range(faces), n):
            counts = [0] * faces
            for f in combo:
                counts[f] += 1
            index[tuple(counts)] = len(multisets)
            multisets.append(tuple(counts))
    width = DICE + 1  # a position's index: multiset * width + inactive
    layers: list[list[tuple]] = [[] for _ in range(DICE + 1)]
    for mid, counts in enumerate(multisets):
        size = sum(counts)
        usable = [f for f in act if counts[f]]
        if not usable:  # the dice are done: a bust with a Dragon, else a Continue/Pass choice
            for inactive in range(DICE + 1 - size):
                layers[size + inactive].append((mid * width + inactive, None, None, counts[dragon] > 0,
                                                counts[0]))
            continue
        singles: list[tuple[int, int]] = []  # (multiset after, change of the inactive count)
        groups: list[tuple[tuple[int, ...], int]] = []  # six equally likely multisets after (a reroll)
        bust = has_heart = False
        for f in usable:
            rest = list(counts)
            rest[f] -= 1
            if f == heart:
                has_heart = True
                heart_rest = tuple(rest)
                continue
            targets = [t for t in range(faces) if rest[t]]
            if not targets:
                if f == ship:
                    bust = True  # a lone Spaceship self-destructs
                else:
                    singles.append((index[tuple(rest)], 0))
            for t in targets:
                left = list(rest)
                left[t] -= 1
                if f == meeple:
                    groups.append((tuple(index[tuple(left[:g] + [left[g] + 1] + left[g + 1:])]
                                         for g in range(faces)), 0))
                elif f == hero:
                    left[opposite[t]] += 1
                    singles.append((index[tuple(left)], 0))
                else:
                    singles.append((index[tuple(left)], 1))
        if has_heart:
            rolled = tuple(index[heart_rest[:g] + (heart_rest[g] + 1,) + heart_rest[g + 1:]] for g in range(faces))
        for inactive in range(DICE + 1 - size):
            to_one = [m * width + inactive + change for m, change in singles]
            to_six = [tuple(m * width + inactive + change for m in group) for group, change in groups]
            if has_heart:
                if inactive:
                    to_six.append(tuple(m * width + inactive - 1 for m in rolled))
                else:
                    to_one.append(index[heart_rest] * width)
            layers[size + inactive].append((mid * width + inactive, tuple(to_one), tuple(to_six), bust, 0))
    sizes = [sum(1 for counts in multisets if sum(counts) <= n) * width for n in range(DICE + 1)]
    return index, layers, sizes


def _counts(active) -> tuple[int, ...]:
    return tuple(active.count(f) for f in FACES)


class SweptSolver(TurnSolver):
    """``TurnSolver`` for any utility, fast: each scored level is valued by whole sweeps over ``dice_graph``
    (every position at once, in flat lists) followed by an update of its Continue values, at most
    ``max_sweeps`` sweeps a level (stopping earlier below ``tolerance``): a fixed amount of work, so the
    same play on any machine. Six sweeps come within about 0.001 of the exact chance to win; a whole
    last-turn table takes about a third of a second on one core (the pure recursion took 1.5 s)."""

    def __init__(self, utility: tuple[float, ...], tolerance: float = 1e-6, max_sweeps: int = 6) -> None:
        self.utility = utility
        self.tolerance = tolerance
        self.max_sweeps = max_sweeps
        self.sweeps = 0
        self.cont = {}
        self.values: list[array] = [array("d") for _ in range(DICE + 1)]
        self.index, self.layers, sizes = dice_graph()
        width = DICE + 1
        top = max(utility)
        u0 = utility[0]
        choice = [[0.0] * width for _ in range(DICE + 1)]  # choice[scored][inactive]: bank or roll on
        for scored in range(DICE, -1, -1):
            dice = DICE - scored
            keys = [k for k in range(dice) if dice - k > 0]
            for k in range(dice + 1):
                choice[scored][k] = utility[scored]
                if k in keys:
                    self.cont[(scored, k)] = utility[scored]
            val = [0.0] * sizes[dice]
            for _sweep in range(self.max_sweeps):
                for layer in self.layers[:dice + 1]:
                    for pid, to_one, to_six, bust, fours in layer:
                        if to_one is None:
                            val[pid] = u0 if bust else choice[scored + fours][pid % width]
                            continue
                        best = u0 if bust else -1.0
                        for x in to_one:
                            if val[x] > best:
                                best = val[x]
                        for a, b, c, d, e, f in to_six:
                            v = (val[a] + val[b] + val[c] + val[d] + val[e] + val[f]) / 6
                            if v > best:
                                best = v
                        val[pid] = best
                self.sweeps += 1
                if utility[scored] >= top:
                    break  # banking now is as good as it gets: Continue is never better
                change = 0.0
                for k in keys:
                    new = sum(p * val[self.index[_counts(roll)] * width + k] for roll, p in rolls(dice - k))
                    change = max(change, abs(new - self.cont[(scored, k)]))
                    self.cont[(scored, k)] = new
                    choice[scored][k] = max(utility[scored], new)
                if change < self.tolerance:
                    break
            self.values[scored] = array("d", val)  # compact: the solver is memoised

    def value(self, active: tuple[str, ...], inactive: int, scored: int) -> float:
        return self.values[scored][self.index[_counts(active)] * (DICE + 1) + inactive]


@lru_cache(maxsize=4)
def win_solver(utility: tuple[float, ...]) -> TurnSolver:
    """The last turn's solver (``SweptSolver``: at most six sweeps per scored level, within the time budget
    also in a fresh process); memoised, as every decision of the turn asks for it."""
    return SweptSolver(utility)


def position(view: dict) -> Position:
    dice = view["dice"]
    active = _sorted(d["face"] for d in dice if d["zone"] == "active")
    inactive = sum(1 for d in dice if d["zone"] == "inactive")
    scored = sum(1 for d in dice if d["zone"] == "scored")
    return active, inactive, scored


class GeekOutComputer(Computer):
    slug = "geek_out"
    strengths = {
        "easy": _("plays most dice well, some loosely, and pushes its luck to a random number of 42s"),
        "normal": _("plays each die for the most points and rolls again when one more roll pays on average"),
        "strong": _("plays every turn exactly for the most points, and its last turn for the best chance to win"),
    }

    def solver(self, view: dict, seat: int) -> TurnSolver:
        """Strong's solver for this turn: points, or on its last turn the chance to win."""
        if view["turns"][seat] < view["turn_limit"] - 1 or view["players"] == 1:
            return points_solver()
        others = [(view["totals"][s], view["turn_limit"] - view["turns"][s] - (1 if s == seat else 0))
                  for s in range(view["players"]) if s != seat and not view["left"][s]]
        if not others:
            return points_solver()
        return win_solver(win_utility(view["totals"][seat], others))

    def choose(self, view: dict, seat: int, actions: list[Action], strength: str, rng: random.Random) -> str:
        active, inactive, scored = position(view)
        keys = [a.key for a in actions]
        if view["phase"] == "choose":
            if strength == "strong":
                go = self.solver(view, seat).continues(scored, inactive)
            elif strength == "normal":
                go = normal_rolls_on(inactive, scored)
            else:
                go = scored < rng.choice((2, 3, 3, 4)) and DICE - scored - inactive >= 2
            return "c" if go and "c" in keys else "p"
        if strength == "strong":
            move = self.solver(view, seat).best(active, inactive, scored)
        elif strength == "normal":
            move = timeout_play().best(active, inactive, scored)
        else:  # easy: mostly normal's die, now and then a rule of thumb's
            move = timeout_play().best(active, inactive, scored) if rng.random() < EASY_GOOD_DICE else (
                rule_of_thumb(active, rng))
            if view["phase"] == "target":  # easy keeps the die it picked
                face = view["dice"][view["selected"]]["face"]
                if move[0] != face:
                    move = rng.choice([m for m in moves(active) if m[0] == face])
        return key_for(view, keys, move)


class TimeoutPlay(TurnSolver):
    """The engine's timeout play (``rules.turn_value``) in floats: every die the best for points, and a pass
    at the next Continue/Pass choice. Normal's dice; memoised across decisions (``timeout_play``)."""

    def __init__(self) -> None:
        super().__init__(POINTS, cont={})

    def choice_value(self, scored: int, inactive: int) -> float:
        return self.utility[scored]


@lru_cache(maxsize=1)
def timeout_play() -> TimeoutPlay:
    return TimeoutPlay()


def one_more_roll_pays(inactive: int, scored: int) -> bool:
    """Whether one roll of the used dice followed by the timeout's play (a pass at the next choice) beats
    banking now on average: the rule behind ``NORMAL_ROLLS_ON`` (slow for many dice: the table is kept)."""
    used = DICE - scored - inactive
    if used <= 0:
        return False
    roll_then_pass = sum(p * timeout_play().value(roll, inactive, scored) for roll, p in rolls(used))
    return roll_then_pass > points_for(scored)


NORMAL_ROLLS_ON = {0: 9, 1: 7, 2: 5, 3: 4, 4: 3, 5: 1, 6: 0}
"""Normal's Continue rule, ``one_more_roll_pays`` as a table: with n 42s at risk it rolls on while at most
``NORMAL_ROLLS_ON[n]`` dice are inactive (never from seven 42s on); a test recomputes it."""


def normal_rolls_on(inactive: int, scored: int) -> bool:
    return DICE - scored - inactive > 0 and inactive <= NORMAL_ROLLS_ON.get(scored, -1)


EASY_GOOD_DICE = 0.9
"""Easy's share of dice played as normal plays them; the rest by ``rule_of_thumb``. (The rule of thumb alone
scored 2.4 points a turn, random play 0.5: a wreck, not a beginner. Easy's mistakes are its pushing its luck
to a random number of 42s, blind to the dice left, and the odd loose die.)"""


def rule_of_thumb(active: tuple[str, ...], rng: random.Random) -> Move:
    """Easy's dice: fix a Dragon or a Spaceship if it can, else bring in a die, else a random move."""
    options = moves(active)
    for wanted in (("hero", "dragon"), ("ship", "dragon"), ("meeple", "dragon"), ("hero", "ship"),
                   ("meeple", "ship"), ("heart", None)):
        if wanted in options and rng.random() < 0.85:
            return wanted
    safe = [m for m in options if m[1] != "42" and m != ("ship", None)] or options
    return rng.choice(safe)


def key_for(view: dict, keys: list[str], move: Move) -> str:
    """The action key that plays ``move`` now: the die of its face, its target, or ``back`` when a die of
    another face was chosen."""
    dice = view["dice"]
    face, target = move
    if view["phase"] == "target":
        if dice[view["selected"]]["face"] != face:
            if "back" in keys:
                return "back"
            target = None  # no way back: the best target of this die
        for k in keys:
            if k.startswith("t") and dice[int(k[1:]) - 1]["face"] == target:
                return k
        return next(k for k in keys if k.startswith("t"))
    for k in keys:
        if k.startswith("u") and dice[int(k[1:]) - 1]["face"] == face:
            return k
    return keys[0]


COMPUTER = GeekOutComputer
