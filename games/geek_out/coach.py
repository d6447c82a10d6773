"""Geek Out! Masters coaching: exact expected points from the computers' turn solver (games/geek_out/ai.py).

Every choice is valued by the points solver (the most expected points per turn, best play after it): the
suggestion is the best, and ``why`` names its expected points beside the next best choice, and what the die
does for the turn (a Dragon left when the actions run out eats the turn, a Heart 42 flipped scores...).
"""

from __future__ import annotations

from games.coach import Advice, Coach
from games.core import State
from games.geek_out.ai import _sorted, points_solver, position
from games.geek_out.rules import DICE, NAMES, GeekOut, Move, moves, points_for
from i18n import Number, _, join, ngettext, number

_REASONS = {
    ("hero", "dragon"): _("A Dragon still showing when the actions run out eats the whole turn; the Superhero "
                          "turns it into a Superhero, one more action for you."),
    ("ship", "dragon"): _("A Dragon still showing when the actions run out eats the whole turn; the Spaceship "
                          "sends it away."),
    ("meeple", "dragon"): _("A Dragon still showing when the actions run out eats the whole turn; the Meeple "
                            "rerolls it, and five times in six it shows something else."),
    ("hero", "heart"): _("Flipping a Heart gives you one more 42 to score."),
    ("heart", None): _("The Heart brings in an inactive die: one more die that can roll a 42."),
    ("hero", "ship"): _("Flipping a Spaceship makes it a Meeple: a reroll instead of a lost die."),
}
_LOSES_A_42 = _("Giving up a 42 hurts, but an action face must act on some die, and no other choice here is "
                "worth more.")
"""Said when the best move sends away, rerolls or flips one of the learner's 42s (a newcomer's surprise)."""


def _points(value: float) -> Number:
    """An average in points, one decimal in the reader's way ("19.1", German "19,1")."""
    return number(value, 1)


class GeekOutCoach(Coach):
    slug = "geek_out"
    goal = _("Score the most points over your turns. Each turn you roll the dice and use the action faces; "
             "the 42s you bank score 1 + 2 + 3… (three 42s: 6 points), but a Dragon left showing when your "
             "actions run out loses the whole turn.")

    def lesson(self, level: int) -> tuple[int, dict]:
        """Two turns each (three made a lesson of about 100 clicks)."""
        return 2, {"turns": 2}

    def advise(self, engine: GeekOut, state: State, seat: int) -> Advice:
        view = engine.view(state, seat)
        active, inactive, scored = position(view)
        solver = points_solver()
        actions = engine.legal_actions(state, seat)
        if state["phase"] == "choose":
            return self._continue_or_pass(actions, scored, inactive, solver)
        # each key valued as if its die were kept: the suggestion is the best move's key
        committed = {a.key: self._value(state, a.key, active, inactive, scored, solver) for a in actions}
        best = max(actions, key=lambda a: committed[a.key] + (1e-9 if a.key == actions[0].key else 0))
        move = self._move(state, best.key, active, inactive, scored, solver)
        if state["phase"] == "target":
            face = state["dice"][state["selected"]]["face"]
            choice = _("Pick the die your {face} acts on.", face=engine_face(face))
        else:
            choice = _("While an action face (Heart, Meeple, Spaceship, Superhero) shows, you must use one: "
                       "pick which die acts first.")
        parts = [_("It is worth {points} points on average this turn (with good play after it).",
                   points=_points(committed[best.key]))]
        stated = [((best.key,), committed[best.key])]
        second = self._second(engine, state, actions, committed, best, move, active, inactive, scored, solver)
        if second is not None:
            label, keys, value = second
            parts.append(_("The next best choice, {move}, is worth {points}.", move=label, points=_points(value)))
            stated.append((keys, value))
        reason = _REASONS.get(move)
        if move[1] == "42" and move[0] in ("ship", "meeple", "hero"):
            reason = _LOSES_A_42
        if reason is not None:
            parts.append(reason)
        facts = {"values": self._worth(state, actions, committed, active, inactive, scored, solver), "stated": stated,
                 "move": move, "scored": scored, "inactive": inactive}
        return Advice(best.key, choice, join(parts), facts)

    def _second(self, engine, state, actions, committed, best, move, active, inactive, scored, solver):
        """The next best choice the advice names: (its name, the keys that play it, its value). While a die is
        picked, the best other target ("Choose another die" only goes back a step: no choice of its own). While
        the dice are picked, the next best *move* (a die and what it acts on), named in full: a die whose target
        comes next is no move yet, and its button can be taken back ("Spaceship: send a die away" is worth what
        its best target is worth, or the best move after going back)."""
        if state["phase"] == "target":
            ranked = sorted(actions, key=lambda a: -committed[a.key])
            second = next((a for a in ranked if a.key not in (best.key, "back")), None)
            return None if second is None else (second.label, (second.key,), committed[second.key])
        options = [m for m in moves(_sorted(active)) if m != move]
        if not options:
            return None
        values = {m: solver.move_value(_sorted(active), inactive, scored, m) for m in options}
        other = max(options, key=lambda m: values[m])
        return move_label(engine, state, other), move_keys(engine, state, other), values[other]

    @staticmethod
    def _worth(state, actions, committed, active, inactive, scored, solver) -> dict:
        """What each key is worth in the engine: the expected points of the turn after it, with the best play
        after. Picking a die whose target comes next commits to nothing (its target step offers "Choose another
        die"), so it is worth the best move of all, as is going back."""
        options = moves(_sorted(active))
        top = max(solver.move_value(_sorted(active), inactive, scored, m) for m in options)
        dice = state["dice"]
        picks = {a.key for a in actions if a.key.startswith("u") and state["phase"] == "act"
                 and sum(1 for m in options if m[0] == dice[int(a.key[1:]) - 1]["face"]) > 1}
        return {a.key: top if a.key == "back" or a.key in picks else committed[a.key] for a in actions}

    def _continue_or_pass(self, actions, scored: int, inactive: int, solver) -> Advice:
        bank = points_for(scored)
        used = DICE - scored - inactive
        roll = solver.cont[(scored, inactive)]
        keys = [a.key for a in actions]
        go = "c" in keys and roll > bank
        banked = ngettext("{n} point", "{n} points", bank)
        if scored == 0:
            choice = ngettext("No 42 is scored yet. Continue rolls the {used} used die again; Pass ends your turn "
                              "with 0 points.",
                              "No 42 is scored yet. Continue rolls the {used} used dice again; Pass ends your turn "
                              "with 0 points.", used, used=used)
        else:
            choice = join([
                ngettext("Your {n} 42 is scored but still at risk.", "Your {n} 42s are scored but still at risk.",
                         scored),
                ngettext("Continue rolls the {used} used die again (keeping the 42s at risk); Pass banks {bank}.",
                         "Continue rolls the {used} used dice again (keeping the 42s at risk); Pass banks {bank}.",
                         used, used=used, bank=banked),
            ])
        if go and scored == 0:
            why = _("With no 42 scored there is nothing to lose: rolling on is worth {roll} points on average "
                    "with good play after it.", roll=_points(roll))
        elif scored == 0:
            why = _("Continue is not possible here: Pass is the only move.")
        elif go:
            why = _("Rolling on is worth {roll} points on average with good play after it, more than the {bank} "
                    "you would bank now: the chance of losing the 42s is worth taking.",
                    roll=_points(roll), bank=banked)
        else:
            why = ngettext("Banking {bank} now beats rolling on, which is worth only {roll} points on average: "
                           "a Dragon you cannot fix would take your 42.",
                           "Banking {bank} now beats rolling on, which is worth only {roll} points on average: "
                           "a Dragon you cannot fix would take all {n} 42s.", scored, bank=banked, roll=_points(roll))
        return Advice("c" if go else "p", choice, why, {"bank": bank, "roll": roll, "used": used})

    def weaker(self, engine: GeekOut, state: State, seat: int, key: str):
        advice = self.advise(engine, state, seat)
        if key == advice.key:
            return None
        facts = advice.facts
        if state["phase"] == "choose":
            bank, roll = facts["bank"], facts["roll"]
            if key == "p" and roll > bank:
                return _("You passed and banked {bank}; rolling on was worth {roll} on average.",
                         bank=ngettext("{n} point", "{n} points", bank), roll=_points(roll))
            if key == "c" and bank > roll:
                return _("You rolled on, worth {roll} points on average; passing would have banked {bank}.",
                         bank=bank, roll=_points(roll))
            return None
        chosen, best = facts["values"][key], facts["values"][advice.key]
        if _points(chosen) == _points(best) or chosen > best:
            return None  # as good, as far as the numbers say
        active, inactive, scored = position(engine.view(state, seat))
        solver = points_solver()
        mine = self._move(state, key, active, inactive, scored, solver)
        return _("Your move ({move}) was worth {chosen} points on average this turn; the suggestion ({suggested}) "
                 "would have given {best}.", move=move_label(engine, state, mine),
                 suggested=move_label(engine, state, facts["move"]), chosen=_points(chosen), best=_points(best))

    @staticmethod
    def _move(state, key, active, inactive, scored, solver):
        """The (face, target) a key plays: the best target when the key only picks a die."""
        dice = state["dice"]
        if key.startswith("t"):
            return dice[state["selected"]]["face"], dice[int(key[1:]) - 1]["face"]
        options = moves(_sorted(active))
        if key == "back":
            face = dice[state["selected"]]["face"]
            options = [m for m in options if m[0] != face]
        else:
            face = dice[int(key[1:]) - 1]["face"]
            options = [m for m in options if m[0] == face]
        return max(options, key=lambda m: solver.move_value(_sorted(active), inactive, scored, m))

    def _value(self, state, key, active, inactive, scored, solver) -> float:
        move = self._move(state, key, active, inactive, scored, solver)
        return solver.move_value(_sorted(active), inactive, scored, move)


def move_label(engine: GeekOut, state: State, move: Move):
    """A move named in full, as the button of a die with that one target says it ("Spaceship: send a Dragon
    away", "Heart: bring in a die")."""
    face, target = move
    return engine._use_label(state, face, engine._first(state, face), [target])


def move_keys(engine: GeekOut, state: State, move: Move) -> tuple[str, ...]:
    """The keys that play ``move`` while the dice are picked: its die, then its target when there is a choice."""
    face, target = move
    i = engine._first(state, face)
    if sum(1 for m in moves(engine._faces(state)) if m[0] == face) == 1:
        return (f"u{i + 1}",)
    return f"u{i + 1}", f"t{engine._first(state, target, i) + 1}"


def engine_face(face: str):
    """The face's name as the engine says it (a Text in the reader's language)."""
    return NAMES[face]


COACH = GeekOutCoach
