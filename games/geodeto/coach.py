"""Geodeto coaching, from the computers' measure of a board (games/geodeto/ai.py).

Every action of the turn (each move, draw and action card) is valued as the normal computer values it: the
goal cards claimed, and the cards in hand weighted by how many moves their trios still need (``trio_cost``).
The suggestion is the best; ``why`` names what it does for a goal: the card it fulfils, or the hand card whose
trio it brings nearer (moves needed before and after), or the goal card a draw brings and how near it is.
A two-click action (a pyramid, then where it goes) is explained at both clicks.
"""

from __future__ import annotations

from games.coach import Advice, Coach
from games.core import State
from games.geodeto.ai import (
    PUBLIC_SHARE,
    Evaluator,
    act,
    board_of,
    first_key,
    full_actions,
    locate,
    second_key,
    trio_cost,
)
from games.geodeto.rules import (
    OCEAN,
    Geodeto,
    card_name,
    continent,
    continents_of,
    place_title,
    pname,
    trio_of,
)
from i18n import _, join, ngettext


def _place(place: int):
    """A continent's name, or the Ocean's, as the game says them."""
    return place_title(place) if place == OCEAN else continent(place)


def _trio(card: str):
    bottom, middle, top = trio_of(card)
    return _("{top} on {middle} on {bottom}", top=pname(top), middle=pname(middle), bottom=pname(bottom))


_ACTION_CARDS = (
    ("e", _("Epidemic on a continent: every pyramid there sails to the Ocean as a single, and the continent is "
            "closed until someone takes the card back.")),
    ("h", _("Taking the Epidemic card back opens its continent again.")),
    ("p", _("Pirates take a tower from the Ocean off the board: its pyramids count for no goal until you "
            "return them.")),
    ("r", _("Return puts a pyramid your Pirates took back in the Ocean, in play again.")),
)
"""What each kind of action card does, said when the learner picks how to use one."""


def _moves(n: int):
    return ngettext("{n} move", "{n} moves", n)


class GeodetoCoach(Coach):
    slug = "geodeto"
    goal = _("Fulfil goal cards: build a card's trio of pyramids, in its order, on one of its continents. "
             "A fulfilled goal scores 2 points; a card still in your hand at the end costs 1.")

    def advise(self, engine: Geodeto, state: State, seat: int) -> Advice:
        view = engine.view(state, seat)
        legal = [a.key for a in engine.legal_actions(state, seat)]
        board = board_of(view, seat)
        evaluator = Evaluator(seat, PUBLIC_SHARE["normal"])
        if view["phase"] == "bonus":
            return self._bonus(state["bonus"], seat, legal, board, evaluator)
        step = view["step"]
        if step is None:
            candidates, keyer = full_actions(board, seat, view["forbidden"]), first_key
            choice = _("Your turn: move a pyramid (with whatever stands on it) to a neighbouring continent or the "
                       "Ocean, draw a goal card, or use an action card. A trio built in the right order on a "
                       "continent of a goal card fulfils it.")
        elif step["kind"] == "move":
            p = step["pyramid"]
            candidates = [("m", p, d["place"], d["on"]) for d in step["destinations"]]
            keyer = second_key
            choice = _("Choose where the {pyramid} goes: onto the table or the water, or onto a pyramid at least "
                       "as big.", pyramid=pname(p))
        else:
            candidates = [a for a in full_actions(board, seat, view["forbidden"])
                          if a[0] == step["kind"][0] or (step["kind"] == "action" and a[0] in "ehpr")]
            keyer = second_key
            choice = _("Choose the pile to draw from: you see each pile's top card.")
        candidates = [a for a in candidates if keyer(a) in legal]
        if step is not None and step["kind"] == "action":
            offered = {a[0] for a in candidates}
            choice = join([_("Choose how to use an action card."),
                           *(text for kind, text in _ACTION_CARDS if kind in offered)])
        if not candidates:
            key = next((k for k in legal if k != "back"), legal[0])
            return Advice(key, choice, _("Nothing else is possible."), {})
        base = locate(board.towers)
        scored = []
        for action in candidates:
            after, got = act(board, seat, action)
            scored.append((evaluator.value(after, got, board, locate(after.towers)), action, after, got))
        best = max(scored, key=lambda x: x[0])  # the first of equals
        _value, action, after, got = best
        return Advice(keyer(action), choice, self._why(action, board, base, after, got),
                      {"action": action, "claimed": got, "value": _value})

    def weaker(self, engine: Geodeto, state: State, seat: int, key: str):
        """Where a pyramid goes: a destination that fulfils no goal when the suggested one fulfils some."""
        view = engine.view(state, seat)
        step = view["step"] if view["phase"] == "turn" else None
        if step is None or step["kind"] != "move":
            return None
        advice = self.advise(engine, state, seat)
        claimed = advice.facts.get("claimed")
        if key == advice.key or not claimed:
            return None
        p = step["pyramid"]
        action = next((a for a in (("m", p, d["place"], d["on"]) for d in step["destinations"])
                       if second_key(a) == key), None)
        if action is None or act(board_of(view, seat), seat, action)[1]:
            return None
        suggested = next(a.label for a in engine.legal_actions(state, seat) if a.key == advice.key)
        return _("That move fulfilled no goal; the suggested one ({move}) would have fulfilled {cards}.",
                 move=suggested, cards=join([card_name(c) for c in claimed], ", "))

    def _bonus(self, draws: int, seat, legal, board, evaluator) -> Advice:
        choice = ngettext("A bonus draw for the goal you fulfilled: you may take one more goal card from the top "
                          "of a pile, or none. A fulfilled goal scores 2 points; a card still in your hand at the "
                          "end costs 1.",
                          "Bonus draws for the goals you fulfilled: you may take {n} more goal cards, one at a "
                          "time, from the tops of the piles, or stop. A fulfilled goal scores 2 points; a card "
                          "still in your hand at the end costs 1.", draws)
        stay = evaluator.value(board, [], board)
        options = []
        for key in legal:
            if key.startswith("d"):
                after, got = act(board, seat, ("d", int(key[1:])))
                options.append((evaluator.value(after, got, board), key, after))
        best = max(options, key=lambda x: x[0], default=None)
        if best is None or best[0] <= stay:
            return Advice("skip", choice, _("Each card still in your hand at the end costs a point, and none of "
                                            "the cards on offer is near enough to standing to be worth it."),
                          {"stay": stay})
        card = next(c for c in best[2].hand if c not in board.hand)
        cost = trio_cost(card, best[2].towers, locate(best[2].towers), best[2].closed)
        return Advice(best[1], choice, _("{card} ({trio}) is only about {moves} away from standing.", card=card_name(card),
                                         trio=_trio(card), moves=_moves(cost)), {"card": card, "cost": cost})

    def _why(self, action, board, base, after, got):
        if got:
            names = join([card_name(c) for c in got], ", ")
            return _("This completes a trio: you fulfil {cards}.", cards=names)
        kind = action[0]
        after_loc = locate(after.towers)
        if kind == "d":
            card = next((c for c in after.hand if c not in board.hand), None)
            if card is not None:
                cost = trio_cost(card, after.towers, after_loc, after.closed)
                return _("{card} ({trio}, on {continents}) is about {moves} away from standing: a goal within reach.",
                         card=card_name(card), trio=_trio(card),
                         continents=join([_place(c) for c in continents_of(card)], ", "), moves=_moves(cost))
        progress = []
        for card in board.hand:
            before = trio_cost(card, board.towers, base, board.closed)
            now = trio_cost(card, after.towers, after_loc, after.closed)
            progress.append((before - now, card, before, now))
        gain, card, before, now = max(progress, default=(0, None, 0, 0), key=lambda x: x[0])
        if card is not None and gain > 0:
            return _("It brings {card} ({trio}) nearer: about {after} still needed, {before} before.",
                     card=card_name(card), trio=_trio(card), after=_moves(now), before=_moves(before))
        if kind == "e":
            return _("Closing {continent} with the Epidemic card costs your goals nothing and keeps everyone "
                     "from building there.", continent=_place(action[1]))
        if kind == "m":
            return _("No move brings one of your goals nearer this turn; this one keeps them as near as they are "
                     "and moves the {pyramid} where it is most useful to you later.", pyramid=pname(action[1]))
        return _("No action brings one of your goals nearer this turn; this one keeps them as near as they are.")


COACH = GeodetoCoach
