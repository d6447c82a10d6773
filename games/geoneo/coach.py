"""GEONEO coaching, from the computers' board values (games/geoneo/ai.py).

- Cards: the result a card makes, and what the round's placer can do with the best free field of that number
  (good for the learner's side, bad for the other): the normal computer's reasoning, shown with its numbers.
- Placing: what a piece on the suggested field adds to what the learner's pieces can clear away now, and how
  much it would have added for the other colour (blocking): the strong computer's choice.
- Clearing: the shape's points, and the final margin when the shapes are played out in turn (the strong
  computer's plan); when it is not the biggest shape, why the plan beats grabbing the biggest first.
Points are in the engine's halves internally and shown as points.
"""

from __future__ import annotations

import i18n
from games.coach import Advice, Coach
from games.core import State
from games.geoneo.ai import (
    BLOCK,
    GeoneoComputer,
    best_field,
    clear_value,
    colours_in_play,
    field_gain,
    immediate_card,
)
from games.geoneo.rules import Geoneo, colour_of, describe_shape, field_name, half, shapes
from i18n import _, join, ngettext


def _pts(halves: int):
    """Half points as "1 point", "3.5 points"."""
    value = half(int(halves))
    return ngettext("{n} point", "{n} points", 1 if value == 1 else 2, n=i18n.number(value))


class GeoneoCoach(Coach):
    slug = "geoneo"
    goal = _("Score the most points. The cards decide which numbered field a piece goes on; your pieces "
             "forming lines, rectangles and right triangles are cleared away for points.")

    def advise(self, engine: Geoneo, state: State, seat: int) -> Advice:
        view = engine.view(state, seat)
        actions = engine.legal_actions(state, seat)
        labels = {a.key: a.label for a in actions}
        keys = list(labels)
        phase = view["phase"]
        if phase == "place":
            return self._place(view, seat, keys, labels)
        if phase == "clear":
            return self._clear(view, seat, keys, labels)
        return self._card(view, seat, keys, labels)

    def weaker(self, engine: Geoneo, state: State, seat: int, key: str):
        """Placing: what the piece adds to the learner's shapes. Clearing: the shape's points."""
        view = engine.view(state, seat)
        if view["phase"] not in ("place", "clear"):
            return None
        advice = self.advise(engine, state, seat)
        if key == advice.key:
            return None
        colour, width, pieces = view["colours"][seat], view["width"], view["pieces"]
        if view["phase"] == "place":
            mine, best = field_gain(pieces, width, colour, int(key[1:])), advice.facts["gain"]
            if mine >= best:
                return None
            return _("Your piece on {field} added {points} to what your pieces can clear away; on {best_field} it "
                     "would have added {best}.", field=field_name(int(key[1:]), width), points=_pts(mine),
                     best_field=field_name(advice.facts["field"], width), best=_pts(best))
        found = {k: p for k, p, _c in shapes(pieces, width, colour)}
        mine, best = found[key], advice.facts["points"]
        if mine >= best:
            return None
        return _("Your shape scored {points}; the suggested one, {shape}, would have scored {best}.",
                 points=_pts(mine), shape=describe_shape(advice.key, width), best=_pts(best))

    def _place(self, view, seat, keys, labels) -> Advice:
        colour = view["colours"][seat]
        fields = [int(k[1:]) for k in keys]
        best = best_field(view, fields, colour, BLOCK)
        pieces, width = view["pieces"], view["width"]
        gain = field_gain(pieces, width, colour, best)
        others = [c for c in colours_in_play(view) if c != colour]
        block = max((field_gain(pieces, width, c, best) for c in others), default=0)
        choice = _("Place a piece on a free field numbered {number}: your pieces will later be cleared away "
                   "in lines, rectangles and right triangles for points.", number=view["place"]["number"])
        parts = []
        field = field_name(best, width)
        if gain > 0:
            parts.append(_("A piece on {field} adds {points} to what your pieces can clear away now.",
                           field=field, points=_pts(gain)))
            if block > 0:
                parts.append(_("It also takes the field from the other side, whose pieces would gain {points} "
                               "there.", points=_pts(block)))
        elif block > 0:
            parts.append(_("No free field adds to your shapes yet, but on {field} the other side's pieces would "
                           "gain {points}: taking it blocks them.", field=field, points=_pts(block)))
        else:
            parts.append(_("No free field adds to anyone's shapes yet; {field} starts a shape with room around "
                           "it.", field=field))
        return Advice(f"f{best}", choice, join(parts), {"gain": gain, "block": block, "field": best})

    def _clear(self, view, seat, keys, labels) -> Advice:
        colour = view["colours"][seat]
        found = {k: (p, c) for k, p, c in shapes(view["pieces"], view["width"], colour)}
        computer = GeoneoComputer()
        key = computer.plan_clearing(view, seat, keys)
        biggest = max(keys, key=lambda k: (found[k][0], -keys.index(k)))
        choice = _("Clear away one of your shapes: its corner pieces leave the board and you score its points. "
                   "Shapes that share corners cannot both be cleared.")
        parts = [_("{shape} scores {points}.", shape=describe_shape(key, view["width"]),
                   points=_pts(found[key][0]))]
        if found[key][0] < found[biggest][0]:
            parts.append(_("It is not your biggest shape, but clearing it first keeps more of your pieces for "
                           "the shapes after it."))
        else:
            parts.append(_("No shape of yours scores more."))  # true also when others score as much
        return Advice(key, choice, join(parts), {"points": found[key][0], "biggest": found[biggest][0]})

    def _card(self, view, seat, keys, labels) -> Advice:
        key = immediate_card(view, seat, keys)
        n, width, pieces = view["players"], view["width"], view["pieces"]
        plays = view["round"]["plays"]
        result = view["result"] or 0
        kind, value = key[0], int(key[1:])
        number = {"c": value, "a": result + value, "s": result - value, "d": result}[kind]
        placer = view["round"]["start"]
        placer_colour = colour_of(placer, n)
        ours = placer_colour == view["colours"][seat]
        free = [f for f, v in enumerate(view["numbers"]) if v == number and pieces[f] is None]
        base = clear_value(pieces, width, placer_colour)
        gain = max((field_gain(pieces, width, placer_colour, f, base) for f in free), default=0)
        if not plays:
            choice = _("You open the round: your card's number is where the round starts. The others add or "
                       "subtract their cards; the final number (1 to 6) is the field number the round's first "
                       "player places on.")
        else:
            choice = _("Add or subtract one of your cards to the result {result}. The final number is the field "
                       "number the round's first player places on.", result=result)
        card = {"c": _("Opening with {value}", value=value), "a": _("Adding {value}", value=value),
                "s": _("Subtracting {value}", value=value), "d": None}[kind]
        if kind == "d":
            why = _("No card fits: you must put one away, and the result stays {number}.", number=number)
        elif not free or (gain <= 0 and ours):
            why = _("{card} makes {number}. No card of yours makes a number whose free fields add to your shapes "
                    "yet: this one is as good as any.", card=card, number=number)
        elif gain <= 0:
            why = _("{card} makes {number}: the other side places this round, and if {number} stays the final "
                    "number, no free field numbered {number} adds to its shapes.", card=card, number=number)
        elif ours:
            why = _("{card} makes {number}: your side places this round, and if {number} stays the final "
                    "number, the best free field numbered {number} adds {points} to your shapes.", card=card, number=number,
                    points=_pts(gain))
        else:
            why = _("{card} makes {number}: the other side places this round, and if {number} stays the final "
                    "number, it gains at most {points} there: the least your cards allow.", card=card,
                    number=number, points=_pts(gain))
        return Advice(key, choice, why, {"number": number, "gain": gain, "ours": ours, "free": free})


COACH = GeoneoCoach
