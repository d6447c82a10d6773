"""Geomancy's computer player: perfect information, random casts.

Nothing is secret, so :func:`sample_state` rebuilds the whole state from the view (stones in hand are those
neither on the board nor prisoners) with a fresh seed from the computer's own generator: sampled casts run
the engine's REAL casting model (``Engine.apply`` of ``c<sq>`` on a copy) without ever touching the game's
own generator, so a sample never carries the true dice to come.

A position is valued per seat as its score (pips on the board and prisoners) plus the stones still in hand
at a discount (they will probably land), and, for the strong player, the best capture a single reorient
would make next (a threat: the opponents' counts against it, its own a little for it). The value of a move is
the computer's own value minus the best opponent's.

Strengths:
- ``easy``: aims by a quick sum over the landing squares' chances (model.square_probability) of what a
  stone gains or risks there, picking among the best few at random (now and then any square); turns a stone
  when that captures at once.
- ``normal``: the best expected immediate gain: the analytic shortlist of aims, each tried with a few sampled
  casts of the real model, against every capturing reorient and passing.
- ``strong``: every aim tried on a few sampled casts, the most promising on many (the same samples for
  every aim), valued with the threats and its exposure (what the opponents' stones in hand would take by
  their best aim, where they land and by one turn after), mean minus a share of the spread (gain most, risk least); every reorient valued the same
  way, so it turns stones to threaten and to stop threats; once nobody holds stones to cast (and for its own
  last cast), every turn and passing valued by the race of best captures played out after it; same-colour
  choices by the value of each outcome.
"""

from __future__ import annotations

import math
import random
from functools import cache

from games.ai import Computer
from games.core import Action, State, copy_state
from games.geomancy.model import SQUARES, STEPS, square_probability
from games.geomancy.rules import STALL_LAPS, Geomancy, aura_map, owner_of, size_of, stone_id
from i18n import _

HAND_WEIGHT = 0.6
"""A stone in hand counts this share of its pips (it will probably land later; nothing after the game)."""
THREAT_OWN = 0.3
THREAT_OTHERS = 0.7
"""Weights of the best single-reorient capture open to the computer and to each opponent (strong)."""
TURN_MARGIN = 0.05
"""A reorient must be worth this much more than passing (no turning stones for nothing)."""
EXPOSURE = 1.0
"""Strong: the weight of its exposure, the most its opponents' stones in hand would gain by their best aim
(``exposure``)."""
TURN_EXPOSURE = 0.5
"""Strong's exposure also counts, at this weight, what an opponent's stone landing on a free square would
capture by one reorient next (``turn_reach``)."""
RISK = 0.25
"""Strong's aim value: mean minus this share of the spread of the sampled outcomes."""
SCREEN_SAMPLES, STRONG_AIMS, STRONG_SAMPLES = 6, 16, 24
"""Strong tries every aim on SCREEN_SAMPLES casts, then its STRONG_AIMS best on STRONG_SAMPLES in all."""
NORMAL_AIMS, NORMAL_SAMPLES = 6, 3
EASY_TOP, EASY_LOOSE = 4, 0.15

ENGINE = Geomancy()


# --- the state behind a view --------------------------------------------------------------------------------
def sample_state(view: dict, seat: int, rng: random.Random) -> State:
    """A full state with the view's position (nothing is hidden in Geomancy) and a seed of the computer's
    own: casts on it follow the real model but never the game's own future draws. Round bookkeeping the view
    does not show (turns played in the round, who acted last) is approximated; it only decides when a round
    ends by the safety net and who starts the next one."""
    n, per = view["players"], view["stones_per_size"]
    board: list[list[int]] = [[] for _square in range(SQUARES)]
    dirs: list[int | None] = [None] * (3 * per * n)
    for entry in view["board"]:
        board[entry["square"]].append(entry["id"])
        dirs[entry["id"]] = entry["dir"]
    prisoners = [[p["id"] for p in held] for held in view["prisoners"]]
    out = {s for stones in board for s in stones} | {s for held in prisoners for s in held}
    hands = [[stone_id(per, owner, size, k) for size in (1, 2, 3) for k in range(per)
              if stone_id(per, owner, size, k) not in out] for owner in range(n)]
    remaining = [s for s in range(n) if not view["left"][s]]
    last = view["last_turn"]
    step_view = view["step"]
    return {
        "game": ENGINE.slug, "schema": ENGINE.schema, "seed": rng.getrandbits(62), "rng": 0, "players": n,
        "options": ENGINE.normalise_options({"height": view["height"], "knocks": view["knocks"]}),
        "left": list(view["left"]), "ply": 0, "per": per, "hands": hands, "board": board, "dirs": dirs,
        "prisoners": prisoners, "round": view["round"], "start": view["start"], "current": view["current"],
        "phase": view["phase"], "step": None if step_view is None else {"square": step_view["square"]},
        "choices": [{"owner": c["owner"], "square": c["square"], "stones": list(c["stones"])}
                    for c in view["choices"]],
        "actor": (last["seat"] if last else view["current"]) if view["phase"] == "choose" else None,
        "passed": list(view["passed"]),
        "stall": STALL_LAPS * len(remaining) - view["stall_turns_left"],
        "round_turns": 0, "round_players": len(remaining),
        "last_active": last["seat"] if last and last["kind"] in ("cast", "reorient") else None,
        "last_turn": dict(last) if last else None,
        "last_cast": copy_state(view["last_cast"]) if view["last_cast"] is not None else None,
        "last_reorient": dict(view["last_reorient"]) if view["last_reorient"] else None,
        "last_captures": [dict(c) for c in view["last_captures"]],
    }


# --- valuing a position ---------------------------------------------------------------------------------
def pieces_of(state: State) -> dict[int, tuple[int, int, int, int]]:
    return ENGINE.pieces(state)


def threats(pieces: dict, players: int, auras: list[list[int]] | None = None) -> list[int]:
    """Per seat, the most pips a single reorient of one of its stones would capture at once (the enemy stone
    its turned ray would reach first, under more of that colour's aura than its pips)."""
    if auras is None:
        auras = aura_map(pieces, players)
    best = [0] * players
    for _square, _d, owner, pips in _captures(pieces, auras):
        best[owner] = max(best[owner], pips)
    return best


def _captures(pieces: dict, auras: list[list[int]], seat: int | None = None):
    """(square, direction, owner, captured pips) of every turn of a stone (of ``seat``, or anyone's) whose
    turned ray's first stone is an enemy under more of the owner's aura than the turned stone's pips."""
    for square, (_stone, owner, pips, direction) in pieces.items():
        if seat is not None and owner != seat:
            continue
        for d in range(8):
            if d == direction:
                continue
            ray = STEPS[square][d]
            for k in range(1, pips + 1):
                target = ray[k]
                if target is None:
                    break
                hit = pieces.get(target)
                if hit is None:
                    continue
                if hit[1] != owner and auras[target][owner] + pips - k + 1 > hit[2]:
                    yield square, d, owner, hit[2]
                break


def seat_values(state: State) -> list[float]:
    """Per seat: score and the stones in hand at a discount (not once the game is over)."""
    n, per = state["players"], state["per"]
    per3 = 3 * per
    values = [0.0] * n
    for stones in state["board"]:
        for s in stones:
            values[s // per3] += s % per3 // per + 1  # owner_of and size_of, inlined
    for seat in range(n):
        values[seat] += sum(size_of(per, s) for s in state["prisoners"][seat])
    if state["phase"] != "over":
        for seat in range(n):
            values[seat] += HAND_WEIGHT * sum(size_of(per, s) for s in state["hands"][seat])
    return values


@cache
def reverse_landing(height: str) -> tuple[tuple[tuple[int, float], ...], ...]:
    """Per target square, the aims from which a stone may land there with their chances."""
    rows: list[list[tuple[int, float]]] = [[] for _square in range(SQUARES)]
    for aim, row in enumerate(landing_table(height)):
        for target, p in row:
            rows[target].append((aim, p))
    return tuple(tuple(r) for r in rows)


def cast_gain(state: State, pieces: dict, auras: list[list[int]], caster: int, victim: int) -> float:
    """What ``caster``'s best aim of the stones it holds to cast would gain against ``victim`` (in the margin
    between them), counted over the landing chances: a smaller stone of the victim's captured (its pips
    twice), a stone landing on a larger one of the victim's, or under more of the victim's aura than its
    pips, lost (1.6 times its pips: it was in hand); with TURN_EXPOSURE, a stone landing on a free square
    from which one reorient would capture the victim's stones (``turn_reach``)."""
    per = state["per"]
    sizes: dict[int, int] = {}
    for s in state["hands"][caster]:
        size = size_of(per, s)
        if size <= state["round"]:
            sizes[size] = sizes.get(size, 0) + 1
    if not sizes:
        return 0.0
    reach = {p: turn_reach(pieces, auras, caster, victim, p) for p in sizes} if TURN_EXPOSURE else {}
    table = reverse_landing(state["options"]["height"])
    gains = [0.0] * SQUARES
    touched = False
    for square in range(SQUARES):
        piece = pieces.get(square)
        aura = auras[square][victim]
        if piece is None:
            worth = []
            for p, k in sizes.items():
                g = -1.6 * p if aura > p else TURN_EXPOSURE * 2.0 * reach[p].get(square, 0) if reach else 0.0
                if g:
                    worth.append((k, g))
        elif piece[1] != victim:
            continue
        else:
            pips = piece[2]
            worth = []
            for p, k in sizes.items():
                g = 2.0 * pips if pips < p else -1.6 * p if pips > p else 0.0
                if aura > p:
                    g -= 1.6 * p
                if g:
                    worth.append((k, g))
        for k, g in worth:
            touched = True
            if k == 1:
                for aim, p in table[square]:
                    gains[aim] += g * p
            else:
                for aim, p in table[square]:
                    gains[aim] += g * (1.0 - (1.0 - p) ** k)
    return max(0.0, max(gains)) if touched else 0.0


def turn_reach(pieces: dict, auras: list[list[int]], caster: int, victim: int, size: int) -> dict[int, float]:
    """Free square -> what a ``caster``'s stone of ``size`` landing there would capture by one reorient: the
    victim's stones whose square it would reach first on a ray, under more of the caster's aura than their
    pips (the best one, the others at half: one is taken a turn)."""
    found: dict[int, list[int]] = {}
    for target, (_stone, owner, pips, _d) in pieces.items():
        if owner != victim:
            continue
        base = auras[target][caster]
        for d in range(8):
            ray = STEPS[target][d]
            for k in range(1, size + 1):
                square = ray[k]
                if square is None or square in pieces:
                    break
                if base + size - k + 1 > pips:
                    found.setdefault(square, []).append(pips)
    return {q: max(v) + 0.5 * (sum(v) - max(v)) for q, v in found.items()}


def value(state: State, seat: int, with_threats: bool) -> float:
    """The seat's value minus the best opponent's (opponents who left count too: their points still rank)."""
    values = seat_values(state)
    if with_threats and state["phase"] != "over":
        pieces = pieces_of(state)
        auras = aura_map(pieces, state["players"])
        found = threats(pieces, state["players"], auras)
        values = [v + (THREAT_OWN if s == seat else THREAT_OTHERS) * found[s] for s, v in enumerate(values)]
        if EXPOSURE:
            for other in range(state["players"]):
                if other != seat and not state["left"][other]:
                    values[seat] -= EXPOSURE * cast_gain(state, pieces, auras, other, seat)
    others = [v for s, v in enumerate(values) if s != seat]
    return values[seat] - max(others)


# --- aims, analytically -----------------------------------------------------------------------------------
@cache
def landing_table(height: str) -> tuple[tuple[tuple[int, float], ...], ...]:
    """Per aim, the squares a stone may land on with their chances (those above one in a thousand)."""
    out = []
    for aim in range(SQUARES):
        row = []
        for target in range(SQUARES):
            p = square_probability(aim, target, height)
            if p > 0.001:
                row.append((target, p))
        out.append(tuple(row))
    return tuple(out)


def aim_scores(state: State, seat: int) -> list[float]:
    """Per aim, the summed worth of where the stones cast now may land: a free square gains the stone's
    discounted pips and the aura it will add; a smaller enemy stone is captured; a larger one, or an enemy
    aura stronger than the stone, loses it; off the board it comes back (nothing)."""
    per, n = state["per"], state["players"]
    sizes = [size_of(per, s) for s in ENGINE.castable(state, seat)]
    pieces = pieces_of(state)
    auras = aura_map(pieces, n)
    worth = {}
    for pips in set(sizes):
        row = []
        for square in range(SQUARES):
            strongest = max((a for c, a in enumerate(auras[square]) if c != seat), default=0)
            piece = pieces.get(square)
            if piece is None:
                gain = (1 - HAND_WEIGHT) * pips if strongest <= pips else -(1 + HAND_WEIGHT) * pips
                # its aura next to enemy stones may capture later
                gain += 0.1 * sum(1 for d in range(8) for k in (1, 2) if (t := STEPS[square][d][k]) is not None
                                  and t in pieces and pieces[t][1] != seat and pieces[t][2] < pips)
            elif piece[1] == seat:
                gain = 0.0
            elif piece[2] < pips:
                gain = (1 - HAND_WEIGHT) * pips + 2 * piece[2]
            elif piece[2] > pips:
                gain = -(1 + HAND_WEIGHT) * pips
            else:
                gain = 0.0
            row.append(gain)
        worth[pips] = row
    table = landing_table(state["options"]["height"])
    scores = []
    for aim in range(SQUARES):
        total = 0.0
        for pips in sizes:
            row = worth[pips]
            total += sum(p * row[t] for t, p in table[aim])
        scores.append(total)
    return scores


def ranked_aims(state: State, seat: int) -> list[int]:
    scores = aim_scores(state, seat)
    return sorted(range(SQUARES), key=lambda q: (-scores[q], q))


# --- trying moves on copies -------------------------------------------------------------------------------
def after_keys(state: State, seat: int, keys: tuple[str, ...]) -> State:
    for key in keys:
        state, _events = ENGINE.apply(state, seat, key)
    return state


def cast_outcomes(state: State, seat: int, aim: int, seeds: list[int], with_threats: bool,
                  racing: bool = False) -> list[float]:
    """The value after casting at ``aim``, one sampled cast of the real model per seed (the same seeds for
    every aim, so aims are compared on the same luck); ``racing``: a cast after which nobody has stones to
    cast is valued by the turning race that follows (``race``)."""
    results = []
    for seed in seeds:
        trial = copy_state(state)
        trial["seed"], trial["rng"] = seed, 0
        after = after_keys(trial, seat, (f"c{aim}",))
        after = settle_choices(after, seat)
        if racing and turning_only(after):
            results.append(race(after, seat) + 0.01 * value(after, seat, True))
        else:
            results.append(value(after, seat, with_threats))
    return results


def mean_spread(results: list[float]) -> tuple[float, float]:
    mean = sum(results) / len(results)
    return mean, math.sqrt(sum((r - mean) ** 2 for r in results) / len(results))


def cast_value(state: State, seat: int, aim: int, seeds: list[int], with_threats: bool) -> tuple[float, float]:
    """Mean and spread of the value after casting at ``aim`` over sampled casts (``cast_outcomes``)."""
    return mean_spread(cast_outcomes(state, seat, aim, seeds, with_threats))


def settle_choices(state: State, seat: int) -> State:
    """A cast that left same-colour choices: the owners keep their larger stone (the table's own default), so
    the sample can be valued."""
    while state["phase"] == "choose":
        choice = state["choices"][0]
        keep = max(choice["stones"], key=lambda s: (size_of(state["per"], s), -s))
        state, _events = ENGINE.apply(state, choice["owner"], f"k{keep}")
    return state


def reorient_values(state: State, seat: int, square: int, with_threats: bool) -> dict[int, float]:
    """The value after turning the stone on ``square`` each new way (deterministic: no draw)."""
    if state["step"] is None:
        state = after_keys(state, seat, (f"r{square}",))
    now = state["dirs"][state["board"][square][0]]
    return {d: value(after_keys(state, seat, (f"d{d}",)), seat, with_threats) for d in range(8) if d != now}


def own_squares(state: State, seat: int) -> list[int]:
    per = state["per"]
    return [q for q, ss in enumerate(state["board"]) if ss and owner_of(per, ss[0]) == seat]


def capturing_squares(state: State, seat: int) -> list[int]:
    """Own stones whose turn would capture at once (a cheap pre-check of the rays)."""
    pieces = pieces_of(state)
    auras = aura_map(pieces, state["players"])
    out = []
    for square in own_squares(state, seat):
        _stone, owner, pips, direction = pieces[square]
        for d in range(8):
            if d == direction:
                continue
            hit_found = False
            for k in range(1, pips + 1):
                target = STEPS[square][d][k]
                if target is None:
                    break
                hit = pieces.get(target)
                if hit is None:
                    continue
                hit_found = hit[1] != owner and auras[target][owner] + pips - k + 1 > hit[2]
                break
            if hit_found:
                out.append(square)
                break
    return out


# --- the turning race: nobody has stones to cast ------------------------------------------------------------
ROLLOUT = True
"""Strong: the turning race below, on (tests may turn it off)."""
ROLLOUT_PLIES = 12
"""Strong, once nobody holds stones to cast: each turn (and passing) valued by a race played out after it, every
player in turn making its best immediate capture (or passing), for at most this many turns."""


RACE_CASTS = True
RACE_AIMS = 8
"""Strong's last cast (nobody else holds stones to cast): its RACE_AIMS best aims valued by the race after
each sampled cast."""


def turning_only(state: State) -> bool:
    """Whether nobody still playing holds a stone to cast (the rest of the round is turning stones)."""
    return all(not ENGINE.castable(state, s) for s in range(state["players"]) if not state["left"][s])


def capturing_turns(state: State, seat: int) -> list[tuple[int, int]]:
    """(square, direction) of every turn of an own stone that would capture at once (its turned ray's first
    stone an enemy under more of the seat's aura than its pips)."""
    pieces = pieces_of(state)
    return [(square, d) for square, d, _owner, _pips in _captures(pieces, aura_map(pieces, state["players"]), seat)]


def best_capture(state: State, seat: int) -> tuple[str, str] | None:
    """The reorient that gains ``seat`` most at once (captures only), or None."""
    best, found = value(state, seat, False), None
    steps: dict[int, State] = {}
    for square, d in capturing_turns(state, seat):
        if square not in steps:
            steps[square] = after_keys(state, seat, (f"r{square}",))
        worth = value(after_keys(steps[square], seat, (f"d{d}",)), seat, False)
        if worth > best:
            best, found = worth, (f"r{square}", f"d{d}")
    return found


def race(state: State, seat: int) -> float:
    """``seat``'s value after the players take turns making their best immediate capture (``best_capture``)
    until the round ends or ROLLOUT_PLIES turns."""
    rnd = state["round"]
    for _turn in range(ROLLOUT_PLIES):
        if state["phase"] != "turn" or state["round"] != rnd:
            break
        mover = state["current"]
        state = after_keys(state, mover, best_capture(state, mover) or ("pass",))
    return value(state, seat, False)


def race_values(state: State, seat: int, squares: list[int]) -> dict[tuple[int, int] | None, float]:
    """(square, direction) -> the race's value after that reorient, None -> after passing; each with a little
    of the position's value with threats (ties go to the better-placed position)."""
    out: dict[tuple[int, int] | None, float] = {}
    if state["step"] is None:
        after = after_keys(state, seat, ("pass",))
        out[None] = race(after, seat) + 0.01 * value(after, seat, True)
    for square in squares:
        step = after_keys(state, seat, (f"r{square}",)) if state["step"] is None else state
        now = step["dirs"][step["board"][square][0]]
        for d in range(8):
            if d != now:
                after = after_keys(step, seat, (f"d{d}",))
                out[(square, d)] = race(after, seat) + 0.01 * value(after, seat, True) - TURN_MARGIN
    return out


class GeomancyComputer(Computer):
    slug = "geomancy"
    strengths = {
        "easy": _("aims by a quick estimate, picking among the good squares at random"),
        "normal": _("tries a few casts at the best-looking squares and takes the best immediate gain"),
        "strong": _("samples many casts of the real model, weighs gain against risk and turns stones to threaten"),
    }

    def choose(self, view: dict, seat: int, actions: list[Action], strength: str, rng: random.Random) -> str:
        legal = [a.key for a in actions]
        state = sample_state(view, seat, rng)
        if state["phase"] == "choose":
            return self._keep(state, seat, legal, strength, rng)
        if state["step"] is not None:
            return self._direction(state, seat, legal, strength, rng)
        if strength == "easy":
            return self._easy_turn(state, seat, legal, rng)
        return self._turn(state, seat, legal, strength, rng)

    # --- sub-steps -----------------------------------------------------------------------------------
    def _keep(self, state: State, seat: int, legal: list[str], strength: str, rng: random.Random) -> str:
        """A same-colour choice: easy keeps the larger stone; the others keep the one whose outcome is worth
        most."""
        per = state["per"]
        if strength == "easy":
            stones = [int(k[1:]) for k in legal]
            top = max(size_of(per, s) for s in stones)
            return f"k{rng.choice([s for s in stones if size_of(per, s) == top])}"
        scored = [(value(settle_choices(after_keys(state, seat, (k,)), seat), seat, strength == "strong"), k)
                  for k in legal]
        return max(scored, key=lambda t: (t[0], -legal.index(t[1])))[1]

    def _direction(self, state: State, seat: int, legal: list[str], strength: str, rng: random.Random) -> str:
        """The second step of a reorient: the way worth most (the same valuation chose the stone)."""
        square = state["step"]["square"]
        if ROLLOUT and strength == "strong" and turning_only(state):
            raced = race_values(state, seat, [square])
            return f"d{max(raced.items(), key=lambda t: (t[1], -t[0][1]))[0][1]}"
        values = reorient_values(state, seat, square, strength == "strong")
        best = max(values.items(), key=lambda t: (t[1], -t[0]))
        if strength == "easy" and best[1] <= value(state, seat, False):
            return rng.choice([k for k in legal if k != "back"])
        return f"d{best[0]}"

    def _easy_turn(self, state: State, seat: int, legal: list[str], rng: random.Random) -> str:
        if any(k.startswith("c") for k in legal):
            if rng.random() < EASY_LOOSE:
                return f"c{rng.randrange(SQUARES)}"
            return f"c{rng.choice(ranked_aims(state, seat)[:EASY_TOP])}"
        capturing = capturing_squares(state, seat)
        if capturing and rng.random() < 0.8:
            return f"r{rng.choice(capturing)}"
        return "pass"

    def _turn(self, state: State, seat: int, legal: list[str], strength: str, rng: random.Random) -> str:
        strong = strength == "strong"
        if ROLLOUT and strong and turning_only(state):
            raced = race_values(state, seat, own_squares(state, seat))
            best = max(raced.items(), key=lambda t: (t[1], t[0] is None))[0]
            return "pass" if best is None else f"r{best[0]}"
        options: list[tuple[float, int, str]] = []  # (value, order, key): the earliest best on ties
        if any(k.startswith("c") for k in legal):
            seeds = [rng.getrandbits(62) for _sample in range(STRONG_SAMPLES if strong else NORMAL_SAMPLES)]
            if strong:
                # every aim on a few casts, then the most promising on all of them (the same casts first)
                first, rest = seeds[:SCREEN_SAMPLES], seeds[SCREEN_SAMPLES:]
                outcomes = {aim: cast_outcomes(state, seat, aim, first, True) for aim in range(SQUARES)}
                risky = {aim: mean_spread(found) for aim, found in outcomes.items()}
                aims = sorted(outcomes, key=lambda q: (-(risky[q][0] - RISK * risky[q][1]), q))[:STRONG_AIMS]
                racing = RACE_CASTS and all(not ENGINE.castable(state, s) for s in range(state["players"])
                                            if s != seat and not state["left"][s])
                if racing:
                    aims = aims[:RACE_AIMS]
                for aim in aims:
                    found = (cast_outcomes(state, seat, aim, seeds, True, True) if racing
                             else outcomes[aim] + cast_outcomes(state, seat, aim, rest, True))
                    mean, spread = mean_spread(found)
                    options.append((mean - RISK * spread, len(options), f"c{aim}"))
            else:
                for aim in ranked_aims(state, seat)[:NORMAL_AIMS]:
                    mean, _spread = cast_value(state, seat, aim, seeds, False)
                    options.append((mean, len(options), f"c{aim}"))
        squares = own_squares(state, seat) if strong else capturing_squares(state, seat)
        for square in squares:
            best = max(reorient_values(state, seat, square, strong).values())
            options.append((best - TURN_MARGIN, len(options), f"r{square}"))
        # passing: the position as it stands (a round may end, which the value does not foresee); it wins
        # ties, so computers do not turn stones back and forth for nothing
        options.append((value(state, seat, strong), -1, "pass"))
        best = max(options, key=lambda o: (o[0], -o[1]))
        return best[2]


COMPUTER = GeomancyComputer
