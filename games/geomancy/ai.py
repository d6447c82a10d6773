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
  every aim), valued with the threats, mean minus a share of the spread (gain most, risk least); passing and
  every reorient valued two plies deep (the next player's worst reply among its capturing turns and a quiet
  one; a pass that ends the game by its score), so it turns stones to capture, to threaten and to stop
  threats; it lets the opponents cast first when playing both orders out says so (the last caster lands on
  the others' stones and aims clear of them); same-colour choices by the value of each outcome.
"""

from __future__ import annotations

import math
import random
from functools import cache

from games.ai import Computer
from games.core import Action, State, copy_state
from games.geomancy.model import SQUARES, STEPS, square_probability
from games.geomancy.rules import STALL_LAPS, Geomancy, aura_map, capture_pass, owner_of, size_of, stone_id
from i18n import _

HAND_WEIGHT = 0.6
"""A stone in hand counts this share of its pips (it will probably land later; nothing after the game)."""
THREAT_OWN = 0.3
THREAT_OTHERS = 0.7
"""Weights of the best single-reorient capture open to the computer and to each opponent (strong)."""
THREAT_OWN_NEXT = 0.7
THREAT_OTHERS_NEXT = 0.3
"""The same weights when the computer is to move (the leaves of strong's two-ply look at turning stones)."""
TURN_MARGIN = 0.05
"""A reorient must be worth this much more than passing (no turning stones for nothing)."""
RISK = 0.25
"""Strong's aim value: mean minus this share of the spread of the sampled outcomes."""
SCREEN_SAMPLES, STRONG_AIMS, STRONG_SAMPLES = 6, 16, 24
"""Strong tries every aim on SCREEN_SAMPLES casts, then its STRONG_AIMS best on STRONG_SAMPLES in all."""
WAIT_SAMPLES, WAIT_AIMS, WAIT_CASTS, WAIT_MARGIN = 12, 4, 4, 0.5
"""Strong's choice to let the opponents cast first (``waiting_pays``): casting now is played out on
WAIT_SAMPLES casts, waiting on half as many casts of the opponents, each followed by its best cast among the
analytic estimate's WAIT_AIMS best aims on WAIT_CASTS casts; waiting must be worth WAIT_MARGIN more."""
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


def threats(pieces: dict, players: int) -> list[int]:
    """Per seat, the most pips a single reorient of one of its stones would capture at once (the enemy stone
    its turned ray would reach first, under more of that colour's aura than its pips)."""
    auras = aura_map(pieces, players)
    best = [0] * players
    for square, (_stone, owner, pips, direction) in pieces.items():
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
                    best[owner] = max(best[owner], hit[2])
                break
    return best


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


def value(state: State, seat: int, with_threats: bool) -> float:
    """The seat's value minus the best opponent's (opponents who left count too: their points still rank)."""
    values = seat_values(state)
    if with_threats and state["phase"] != "over":
        found = threats(pieces_of(state), state["players"])
        values = [v + (THREAT_OWN if s == seat else THREAT_OTHERS) * found[s] for s, v in enumerate(values)]
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


def cast_outcomes(state: State, seat: int, aim: int, seeds: list[int], with_threats: bool) -> list[float]:
    """The value after casting at ``aim``, one sampled cast of the real model per seed (the same seeds for
    every aim, so aims are compared on the same luck)."""
    results = []
    for seed in seeds:
        trial = copy_state(state)
        trial["seed"], trial["rng"] = seed, 0
        after = after_keys(trial, seat, (f"c{aim}",))
        after = settle_choices(after, seat)
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


# --- turning stones, two plies deep ----------------------------------------------------------------------
def turned(pieces: dict, players: int, square: int, direction: int) -> tuple[dict, list[int]]:
    """The stone on ``square`` turned to ``direction``, then the aura captures (decisions 6 and 11, as the
    engine's reorient does them) on a copy: the pieces left and each seat's points won (a prisoner) or lost."""
    pieces = dict(pieces)
    stone, owner, pips, _direction = pieces[square]
    pieces[square] = (stone, owner, pips, direction)
    gains = [0] * players
    while found := capture_pass(pieces, players, owner):
        for q, captor, _strength in found:
            lost = pieces.pop(q)
            gains[captor] += lost[2]
            gains[lost[1]] -= lost[2]
    return pieces, gains


def capturing_turns(pieces: dict, players: int, seat: int) -> list[tuple[int, int]]:
    """``(square, direction)`` of every turn of one of ``seat``'s stones whose ray then captures at once (the
    first stone it reaches is an enemy under more of ``seat``'s aura than its pips)."""
    auras = aura_map(pieces, players)
    out = []
    for square, (_stone, owner, pips, direction) in pieces.items():
        if owner != seat:
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
                if hit[1] != seat and auras[target][seat] + pips - k + 1 > hit[2]:
                    out.append((square, d))
                break
    return out


def game_ends_on_pass(state: State, seat: int, players_passed: set[int]) -> bool:
    """Whether ``seat`` passing now ends the game: round 3, nobody holds a large stone, every other player
    still in the game has passed since the last move."""
    per = state["per"]
    remaining = [s for s in range(state["players"]) if not state["left"][s]]
    return (state["round"] == 3 and not any(size_of(per, x) == 3 for s in remaining for x in state["hands"][s])
            and set(remaining) - {seat} <= players_passed)


def turn_values(state: State, seat: int, only: int | None = None) -> dict[str, float]:
    """Strong's value of passing and of every turn of its stones (``"pass"``, ``"<square>/<direction>"``;
    ``only``: the stone on that square alone), two plies deep: after the computer's move, the reply of the
    next player that is worst for it among passing, turning none (its threats counted) and every turn that
    captures. Leaves are valued with the computer to move: its own best single-turn capture counts
    THREAT_OWN_NEXT, the others' THREAT_OTHERS_NEXT. A pass that ends the game (or lets the reply end it) is
    valued exactly: the score."""
    n = state["players"]
    base = seat_values(state)
    opponent = next((seat + k) % n for k in range(1, n) if not state["left"][(seat + k) % n])

    def leaf(pieces: dict, gains: list[int]) -> float:
        found = threats(pieces, n)
        values = [base[s] + gains[s] + (THREAT_OWN_NEXT if s == seat else THREAT_OTHERS_NEXT) * found[s]
                  for s in range(n)]
        return values[seat] - max(v for s, v in enumerate(values) if s != seat)

    def final(pieces: dict, gains: list[int]) -> float:
        per = state["per"]
        values = [base[s] + gains[s] - HAND_WEIGHT * sum(size_of(per, x) for x in state["hands"][s])
                  for s in range(n)]
        return values[seat] - max(v for s, v in enumerate(values) if s != seat)

    def reply(pieces: dict, gains: list[int], ends: bool) -> float:
        """The worst for the computer among the next player's replies (``ends``: its pass ends the game)."""
        worst = final(pieces, gains) if ends else leaf(pieces, gains)  # its pass (or a quiet turn)
        for square, d in capturing_turns(pieces, n, opponent):
            after, won = turned(pieces, n, square, d)
            worst = min(worst, leaf(after, [g + w for g, w in zip(gains, won, strict=True)]))
        return worst

    pieces = pieces_of(state)
    zero = [0] * n
    passed = set(state["passed"])
    out = {}
    if only is None:
        if game_ends_on_pass(state, seat, passed):
            out["pass"] = final(pieces, zero)
        else:
            out["pass"] = reply(pieces, zero, n == 2 and game_ends_on_pass(state, opponent, passed | {seat}))
    for square, (_stone, owner, _pips, direction) in pieces.items():
        if owner != seat or only not in (None, square):
            continue
        for d in range(8):
            if d != direction:
                after, won = turned(pieces, n, square, d)
                out[f"{square}/{d}"] = reply(after, won, False)
    return out


# --- who casts first -------------------------------------------------------------------------------------
def waiting_for(state: State, seat: int) -> list[int]:
    """The opponents who would cast before ``seat``'s next turn if it waited: those after it in turn order
    who hold stones of the round's size (they must cast them before the round can end). None when waiting
    could stall: an opponent who held such stones did not cast on its last turn (it waits too), or passes
    have begun to count towards the round's end."""
    per, rnd = state["per"], state["round"]
    last = state["last_turn"]
    # (a pass that ended the last round is not waiting: ``passed`` starts empty in each round)
    if state["stall"] or (last and last["seat"] != seat
                          and (last["kind"] == "reorient" or last["seat"] in state["passed"])
                          and any(size_of(per, s) == rnd for s in state["hands"][last["seat"]])):
        return []
    n = state["players"]
    order = [(seat + k) % n for k in range(1, n)]
    return [s for s in order if not state["left"][s] and any(size_of(per, x) == rnd for x in state["hands"][s])]


def cast_by(state: State, caster: int, seed: int | None = None) -> State:
    """``caster`` casts at the aim the analytic estimate likes best (a quick model of an opponent's cast),
    its same-colour choices settled."""
    if seed is not None:
        state = copy_state(state)
        state["seed"], state["rng"] = seed, 0
    state, _events = ENGINE.apply(state, caster, f"c{ranked_aims(state, caster)[0]}")
    return settle_choices(state, caster)


def best_cast(state: State, seat: int, seeds: list[int], again: list[int]) -> float:
    """The value of ``seat``'s best cast among the analytic estimate's few best aims (WAIT_AIMS): the aim
    chosen on ``seeds``, valued on the other casts ``again`` (the best of a few noisy means would flatter it),
    mean minus a share of the spread."""
    def worth(aim: int, on: list[int]) -> float:
        mean, spread = cast_value(state, seat, aim, on, True)
        return mean - RISK * spread

    aim = max(ranked_aims(state, seat)[:WAIT_AIMS], key=lambda q: worth(q, seeds))
    return worth(aim, again)


def waiting_pays(state: State, seat: int, aim: int, rng: random.Random) -> bool:
    """Whether letting the opponents cast first is worth more than casting at ``aim`` now: the one who casts
    last lands on the others' stones (a larger stone captures a smaller one it lands on) and aims clear of
    theirs. Both orders are played out on sampled casts: now, ``aim`` then each opponent's cast; waiting,
    each opponent's cast then the computer's best cast."""
    opponents = waiting_for(state, seat)
    if not opponents:
        return False
    now, later = [], []
    for _sample in range(WAIT_SAMPLES):
        trial = copy_state(state)
        trial["seed"], trial["rng"] = rng.getrandbits(62), 0
        after = settle_choices(after_keys(trial, seat, (f"c{aim}",)), seat)
        for opponent in opponents:
            if ENGINE.is_over(after) or opponent not in ENGINE.to_act(after) or not ENGINE.castable(after, opponent):
                break
            after = cast_by(after, opponent)
        now.append(value(after, seat, True))
    for _sample in range(WAIT_SAMPLES // 2):
        trial = copy_state(state)
        trial["seed"], trial["rng"] = rng.getrandbits(62), 0
        for opponent in opponents:
            trial["current"] = opponent
            trial = cast_by(trial, opponent)
            if ENGINE.is_over(trial):
                break
        if ENGINE.is_over(trial) or trial["phase"] != "turn":
            later.append(value(trial, seat, True))
            continue
        trial["current"] = seat
        later.append(best_cast(trial, seat, [rng.getrandbits(62) for _cast in range(WAIT_CASTS)],
                               [rng.getrandbits(62) for _cast in range(WAIT_CASTS)]))
    return sum(later) / len(later) > sum(now) / len(now) + WAIT_MARGIN


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
        if strength == "strong":
            found = turn_values(state, seat, square)
            best = max(found.items(), key=lambda t: (t[1], -int(t[0].split("/")[1])))
            return f"d{best[0].split('/')[1]}"
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
        options: list[tuple[float, int, str]] = []  # (value, order, key): the earliest best on ties
        if any(k.startswith("c") for k in legal):
            seeds = [rng.getrandbits(62) for _sample in range(STRONG_SAMPLES if strong else NORMAL_SAMPLES)]
            if strong:
                # every aim on a few casts, then the most promising on all of them (the same casts first)
                first, rest = seeds[:SCREEN_SAMPLES], seeds[SCREEN_SAMPLES:]
                outcomes = {aim: cast_outcomes(state, seat, aim, first, True) for aim in range(SQUARES)}
                risky = {aim: mean_spread(found) for aim, found in outcomes.items()}
                aims = sorted(outcomes, key=lambda q: (-(risky[q][0] - RISK * risky[q][1]), q))[:STRONG_AIMS]
                for aim in aims:
                    mean, spread = mean_spread(outcomes[aim] + cast_outcomes(state, seat, aim, rest, True))
                    options.append((mean - RISK * spread, len(options), f"c{aim}"))
            else:
                for aim in ranked_aims(state, seat)[:NORMAL_AIMS]:
                    mean, _spread = cast_value(state, seat, aim, seeds, False)
                    options.append((mean, len(options), f"c{aim}"))
        if strong:
            # passing and turning stones, two plies deep (a pass that ends the game valued exactly)
            found = turn_values(state, seat)
            options.append((found.pop("pass"), -1, "pass"))
            turns: dict[int, float] = {}
            for move, worth in found.items():
                square = int(move.split("/")[0])
                turns[square] = max(turns.get(square, -math.inf), worth)
            options.extend((worth - TURN_MARGIN, len(options) + k, f"r{square}")
                           for k, (square, worth) in enumerate(turns.items()))
        else:
            for square in capturing_squares(state, seat):
                best = max(reorient_values(state, seat, square, False).values())
                options.append((best - TURN_MARGIN, len(options), f"r{square}"))
            # passing: the position as it stands (a round may end, which the value does not foresee)
            options.append((value(state, seat, False), -1, "pass"))
        # passing wins ties, so computers do not turn stones back and forth for nothing
        best = max(options, key=lambda o: (o[0], -o[1]))
        if strong and best[2].startswith("c") and waiting_pays(state, seat, int(best[2][1:]), rng):
            # the others cast first, then it casts onto them: its best move that is not a cast
            best = max((o for o in options if not o[2].startswith("c")), key=lambda o: (o[0], -o[1]))
        return best[2]


COMPUTER = GeomancyComputer
