"""A one-ply greedy player written from the rules: the benchmarks' yardstick for the computers (docs/ai.md).

It is independent of the computers' evaluation (``games/<game>/ai.py``): it takes the legal action with the
best immediate gain in the points the rules give, its own points minus the best other side's (a capture in
Geomancy counts twice: a prisoner won and a stone lost), and breaks ties with its seeded generator. What
"points now" means is read off each game's scoring:

- Geek Out: the points banked, plus for the player to act the points its 42s would bank now;
- GEONEO: the points cleared, plus while pieces are still placed what clearing alone would score now (the
  best shape by ``rules.shapes``, its corners removed, again), plus the piece the round's cards send to a
  field: the start player places on the round's result (taken as the final one while the round is open) on
  the field that adds most for its colour. In the clearing the points cleared only: the biggest shape;
- Geodeto: the score sheet's total as if the game ended now (``Engine.score_sheet``: goals, groups,
  continents, extras, minus the cards in hand);
- Geomancy: pips on the board plus prisoners (``Engine.scores``);
- Globe Twister: a round is won by rebuilding the photo, so the tiles in their place: it builds its program
  card by card, each the card (cell, direction) that puts most tiles in place, and locks in when no card
  adds one.

An action of several steps (a pyramid and where it goes, a stone and its new direction, a die and its
target) is valued by its best completion. Like the computers it sees only its seat's view: hidden cards
are dealt at random as the view allows (each game's ``sample_state``), and chance (dice, casts) is
averaged over a few draws of its own generator (the same draws for every action), never the game's.
"""

from __future__ import annotations

import random
from functools import lru_cache

from games.core import Engine, State, copy_state

SAMPLES = {"geek_out": 12, "geomancy": 6}
"""Draws of chance per action (the same draws for every action); games without chance need one."""
STEPS = {"geek_out": ("target",), "geodeto": ("step",), "geomancy": ("step",)}
TIE = 1e-9


class Greedy:
    """The greedy player of one game: ``choose(state, seat, rng)`` returns the key it plays."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.slug = engine.slug

    # --- the points the rules give now -----------------------------------------------------------------
    def points(self, state: State) -> list[float]:
        """Per seat, the points it holds now (see the module's docstring)."""
        slug, n = self.slug, state["players"]
        if slug == "geek_out":
            out = [float(sum(s)) for s in state["scores"]]
            if state["phase"] != "over":
                dice = state["dice"]
                showing = sum(1 for d in dice if d["zone"] == "scored" or d["zone"] == "active" and d["face"] == "42")
                out[state["current"]] += showing * (showing + 1) / 2
            return out
        if slug == "geomancy":
            return [float(s["total"]) for s in self.engine.scores(state)]
        if slug == "geodeto":
            return [float(row["total"]) for row in self.engine.score_sheet(state)["players"]]
        if slug == "geoneo":
            per_colour = geoneo_points(state)
            return [per_colour[s % 2 if n == 4 else s] for s in range(n)]
        raise ValueError(slug)

    def margin(self, state: State, seat: int) -> float:
        """Its points minus the best other side's (partners share their points)."""
        points = self.points(state)
        teams = self.engine.teams(state["players"])
        side = next(t for t in teams if seat in t) if teams else [seat]
        return points[seat] - max(p for s, p in enumerate(points) if s not in side)

    # --- choosing --------------------------------------------------------------------------------------
    def choose(self, state: State, seat: int, rng: random.Random) -> str:
        engine = self.engine
        keys = [a.key for a in engine.legal_actions(state, seat)]
        if len(keys) == 1:
            return keys[0]
        if self.slug == "globe_twister":
            return globe_twister_key(engine.view(state, seat), keys, rng)
        bases = self.samples(state, seat, rng)
        values = {k: self.value(bases, seat, k) for k in keys if k != "back"}
        best = max(values.values())
        return rng.choice([k for k, v in values.items() if v >= best - TIE])

    def samples(self, state: State, seat: int, rng: random.Random) -> list[State]:
        """Full states consistent with the seat's view, each with a seed of the greedy's own."""
        view = self.engine.view(state, seat)
        out = []
        for _draw in range(SAMPLES.get(self.slug, 1)):
            if self.slug == "geek_out":  # no secrets but the dice to come
                sample = copy_state(state)
            else:
                from importlib import import_module

                sample = import_module(f"games.{self.slug}.ai").sample_state(view, seat, rng)
            sample["seed"], sample["rng"] = rng.getrandbits(62), 0
            out.append(sample)
        return out

    def value(self, bases: list[State], seat: int, key: str) -> float:
        """The mean gain of ``key`` over the samples, a multi-step action by its best completion."""
        total = 0.0
        for base in bases:
            total += self._after(base, seat, key) - self.margin(base, seat)
        return total / len(bases)

    def _after(self, state: State, seat: int, key: str) -> float:
        after, _events = self.engine.apply(state, seat, key)
        if self._mid_action(after, seat):
            return max(self._after(after, seat, k) for k in (a.key for a in self.engine.legal_actions(after, seat))
                       if k != "back")
        return self.margin(after, seat)

    def _mid_action(self, state: State, seat: int) -> bool:
        """Whether ``seat`` is between the steps of one action (its next key completes it)."""
        if seat not in self.engine.to_act(state):
            return False
        if self.slug == "geek_out":
            return state["phase"] == "target"
        return self.slug in ("geodeto", "geomancy") and state["phase"] != "bonus" and state["step"] is not None


# --- GEONEO ------------------------------------------------------------------------------------------------
@lru_cache(maxsize=1 << 14)
def clearing_alone(pieces: tuple, width: int, colour: int) -> int:
    """Half points clearing would score now for ``colour`` alone: the best shape, its corners removed, again."""
    from games.geoneo.rules import shapes

    board = list(pieces)
    total = 0
    while True:
        found = shapes(board, width, colour)
        if not found:
            return total
        _key, points, corners = found[0]
        total += points
        for f in corners:
            board[f] = None


def geoneo_points(state: State) -> list[float]:
    """Per colour, in half points: cleared, and before the clearing what clearing alone would add now and
    the best field of the piece the round's cards send."""
    from games.geoneo.rules import colour_of

    scores = [float(s) for s in state["scores"]]
    if state["phase"] not in ("play", "place"):
        return scores
    pieces, width = tuple(state["pieces"]), state["width"]
    alone = [clearing_alone(pieces, width, c) for c in range(len(scores))]
    pending = None
    if state["phase"] == "place":
        pending = (state["place"]["seat"], state["place"]["number"])
    elif state["round"]["plays"]:
        pending = (state["round"]["start"], state["round"]["plays"][-1]["result"])
    if pending is not None:
        seat, number = pending
        colour = colour_of(seat, state["players"])
        free = [f for f, v in enumerate(state["numbers"]) if v == number and pieces[f] is None]
        gains = []
        for f in free:
            board = list(pieces)
            board[f] = colour
            gains.append(clearing_alone(tuple(board), width, colour) - alone[colour])
        if gains:
            alone[colour] += max(gains)
    return [s + a for s, a in zip(scores, alone, strict=True)]


# --- Globe Twister -----------------------------------------------------------------------------------------
def in_place(arr: tuple, any_rotation: bool) -> int:
    """Tiles in their place and upright (alone: for the best turn of the whole photo)."""
    from games.globe_twister.puzzle import TARGETS_ANY, TARGETS_UPRIGHT

    return max(sum(a == t for a, t in zip(arr, target, strict=True))
               for target in (TARGETS_ANY if any_rotation else TARGETS_UPRIGHT))


def globe_twister_key(view: dict, keys: list[str], rng: random.Random) -> str:
    """The next key of a program built card by card: the placement that puts most tiles in place now."""
    from games.globe_twister.puzzle import CELLS, DIRECTIONS, RED, from_pairs, run_program

    if view["phase"] == "side":
        return "front"
    seat = view["seat"]
    arr = from_pairs(view["puzzles"][seat])
    program = [None if e is None else (e["card"], e["dir"]) for e in view["program"]]
    any_rotation = view["any_rotation"]

    def tiles(frame: list) -> int:
        frames = run_program(arr, frame)
        return in_place(frames[-1] if frames else arr, any_rotation)

    now = tiles(program)
    used = {e[0] for e in program if e is not None}
    red_used = any(c in RED for c in used)
    step = view["step"]
    options = []  # (tiles, cell, card, direction)
    for cell in CELLS if step is None else (step["cell"],):
        if program[cell] is not None:
            continue
        for card in view["hands"][seat]:
            if card in used or (card in RED and red_used):
                continue
            if step is not None and step.get("card") is not None and card != step["card"]:
                continue
            for direction in DIRECTIONS.get(card, (None,)):
                frame = list(program)
                frame[cell] = (card, direction)
                options.append((tiles(frame), cell, card, direction))
    gaining = [o for o in options if o[0] > now]
    if not gaining:
        return "lock" if "lock" in keys else "back"
    top = max(o[0] for o in gaining)
    _tiles, cell, card, direction = rng.choice([o for o in gaining if o[0] == top])
    if step is None:
        return f"c{cell}"
    if step.get("card") is None:
        return f"k{card}"
    return f"d{direction}"
