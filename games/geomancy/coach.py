"""Geomancy coaching, from the normal computer's choice (games/geomancy/ai.py) and the casting model.

- A cast: the chances (from the scatter model, model.square_probability) that a stone lands on the aimed
  square and within one square of it, and what lies there: smaller enemy stones a landing stone captures,
  larger ones it would lose to.
- A turn of a stone (two clicks: the stone, then its new direction): what its aura captures at once, played
  out on a copy of the game (deterministic), with the points it brings.
- A pass: nothing else gains now. A same-colour choice: the stone worth keeping.
The decision is the normal computer's, with a generator fixed by the position, so the advice for a position
never changes.
"""

from __future__ import annotations

from games.ai import decision_rng
from games.coach import Advice, Coach
from games.core import State
from games.geomancy.ai import GeomancyComputer, after_keys, pieces_of, reorient_values
from games.geomancy.model import DIR_ARROWS, SQUARE_NAMES, STEPS, block_probability, square_probability
from games.geomancy.rules import DIRECTION_WORDS, Geomancy, owner_of, size_of
from i18n import Number, _, join, ngettext, percent


def _percent(p: float) -> Number:
    return percent(p)


def _size(pips: int):
    return (_("small stone"), _("medium stone"), _("large stone"))[pips - 1]


class GeomancyCoach(Coach):
    slug = "geomancy"
    goal = _("Score the most points: the pips of your stones on the board and of the enemy stones you "
             "capture. A stone landing on a smaller enemy stone captures it; a stone's aura, reaching out the way "
             "it points, can capture too.")

    def advise(self, engine: Geomancy, state: State, seat: int) -> Advice:
        view = engine.view(state, seat)
        actions = engine.legal_actions(state, seat)
        rng = decision_rng(state["seed"], state["ply"], seat, "coach")
        key = GeomancyComputer().choose(view, seat, actions, "normal", rng)
        if state["phase"] == "choose":
            return self._keep(state, seat, key)
        if state["step"] is not None:
            square = state["step"]["square"]
            choice = _("Choose the new direction of your stone on {square}: its aura reaches as many squares "
                       "that way as it has pips.", square=SQUARE_NAMES[square])
            return self._turn(engine, state, seat, square, key, choice)
        choice = _("Cast all the stones in your hand at one square (they scatter around it), turn one of your "
                   "stones on the board to a new direction, or pass.")
        if key.startswith("c"):
            return self._cast(state, seat, int(key[1:]), choice)
        if key.startswith("r"):
            square = int(key[1:])
            values = reorient_values(state, seat, square, False)
            best = max(values.items(), key=lambda t: (t[1], -t[0]))[0]
            return self._turn(engine, state, seat, square, key, choice, direction=best)
        return Advice(key, choice, _("No cast or turn of a stone gains anything now: passing keeps what you "
                                     "have."), {})

    def weaker(self, engine: Geomancy, state: State, seat: int, key: str):
        """Turning a stone: the points it leaves the learner with, against the suggested direction's."""
        if state["phase"] != "turn" or state["step"] is None or not key.startswith("d"):
            return None
        advice = self.advise(engine, state, seat)
        if key == advice.key or not advice.key.startswith("d"):
            return None
        mine, best = engine.scores(after_keys(state, seat, (key,)))[seat]["total"], advice.facts["after"]
        if mine >= best:
            return None
        return _("Turning your stone {direction} left you {points} points; {best_direction} would have made it "
                 "{best}.", direction=DIRECTION_WORDS[int(key[1:])], points=mine,
                 best_direction=DIRECTION_WORDS[advice.facts["direction"]], best=best)

    def _cast(self, state: State, seat: int, aim: int, choice) -> Advice:
        height = state["options"]["height"]
        exact = square_probability(aim, aim, height)
        near = block_probability(aim, height)
        per = state["per"]
        largest = max(size_of(per, s) for s in Geomancy.castable(state, seat))
        pieces = pieces_of(state)
        around = [aim, *(STEPS[aim][d][1] for d in range(8))]
        prey = [q for q in around if q is not None and q in pieces and pieces[q][1] != seat
                and pieces[q][2] < largest]
        parts = [_("Aimed at {square}, a stone lands on it {exact} of the time and within one square "
                   "{near}.", square=SQUARE_NAMES[aim], exact=_percent(exact), near=_percent(near))]
        if prey:
            parts.append(ngettext("Within one square lies {n} enemy stone smaller than your {size}: landing on "
                                  "it captures it.",
                                  "Within one square lie {n} enemy stones smaller than your {size}: landing on "
                                  "one captures it.", len(prey), size=_size(largest)))
        else:
            parts.append(_("It is the best spot the computer finds for your stones to land safely and spread "
                           "their auras."))
        return Advice(f"c{aim}", choice, join(parts), {"exact": exact, "near": near, "prey": prey})

    def _turn(self, engine: Geomancy, state: State, seat: int, square: int, key: str, choice,
              direction: int | None = None) -> Advice:
        if direction is None:
            direction = int(key[1:])
        keys = (f"d{direction}",) if state["step"] is not None else (f"r{square}", f"d{direction}")
        after = after_keys(state, seat, keys)
        before_score = engine.scores(state)[seat]["total"]
        after_score = engine.scores(after)[seat]["total"]
        taken = len(after["prisoners"][seat]) - len(state["prisoners"][seat])
        stone = state["board"][square][0]
        pointing = state["dirs"][stone]
        pips, was = size_of(state["per"], stone), DIRECTION_WORDS[pointing]
        if taken:
            why = ngettext("Turning your {size} on {square} from {was} to {direction} captures {n} stone with "
                           "its aura: {before} points become {after}.",
                           "Turning your {size} on {square} from {was} to {direction} captures {n} stones with "
                           "its aura: {before} points become {after}.", taken, size=_size(pips),
                           square=SQUARE_NAMES[square], was=was, direction=DIRECTION_WORDS[direction],
                           before=before_score, after=after_score)
        else:
            why = _("Turning your {size} on {square} from {was} to {direction} spreads its aura where it helps "
                    "most: it protects your stones and threatens the others'.", size=_size(pips),
                    square=SQUARE_NAMES[square], was=was, direction=DIRECTION_WORDS[direction])
        return Advice(key, choice, why, {"captured": taken, "before": before_score, "after": after_score,
                                         "direction": direction})

    def _keep(self, state: State, seat: int, key: str) -> Advice:
        choice = _("Two or more of your stones share a square: keep one, the others go back to your hand.")
        per = state["per"]
        stone = int(key[1:])
        pips = size_of(per, stone)
        owner = owner_of(per, stone)
        assert owner == seat
        sizes = {size_of(per, s) for s in state["choices"][0]["stones"]}
        if len(sizes) == 1:
            # stones of one size differ only in where they point: say so, and which way the kept one points
            way = state["dirs"][stone]
            why = _("Your stones here are the same size, so only the direction differs: keep the one pointing "
                    "{arrow} {direction}, where its aura helps you most.", arrow=DIR_ARROWS[way],
                    direction=DIRECTION_WORDS[way])
        else:
            why = _("Keeping the {size} leaves the most of your points and aura on the board.", size=_size(pips))
        return Advice(key, choice, why, {"pips": pips, "direction": state["dirs"][stone]})


COACH = GeomancyCoach
