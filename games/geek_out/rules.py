"""Geek Out! Masters: push-your-luck dice (../shared/rules/geek-out-masters.txt and decisions.md).

Ten numbered dice (1..10) move between four zones: active, inactive, used and scored. A turn starts with
dice 1-7 rolled active and 8-10 inactive. While an action face is active the player must resolve one (in
any order). When no action face is left, Dragons bust the turn, otherwise the 42s are scored and the player
may Continue (roll the used dice) or Pass.

Dice are identical, so the player chooses faces, not dice: one button per distinct action face, one per
distinct target face. A die whose target face is unique acts at once (no target step), and whenever only one
outcome is possible the table plays it and logs it (docs/rules/geek-out-masters.md, decision 3).

Keys: ``u<die>`` use a die, ``t<die>`` target a die, ``back`` undo the die choice, ``c`` continue, ``p`` pass.
The offered key names the lowest-numbered die of its face; any die showing the same face is accepted too.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from games.core import (
    SYSTEM,
    Action,
    Engine,
    Event,
    Option,
    Result,
    Rng,
    RulesError,
    State,
    left_the_game,
    rank_by_score,
    register,
    scores_words,
)
from i18n import Text, _, from_data, join, ngettext, pgettext

FACES = ("42", "heart", "meeple", "ship", "hero", "dragon")
NAMES = {
    "42": pgettext("die face", "42"),
    "heart": pgettext("die face", "Heart"),
    "meeple": pgettext("die face", "Meeple"),
    "ship": pgettext("die face", "Spaceship"),
    "hero": pgettext("die face", "Superhero"),
    "dragon": pgettext("die face", "Dragon"),
}
A_FACE = {
    "42": pgettext("die face, as the object of a move", "a 42"),
    "heart": pgettext("die face, as the object of a move", "a Heart"),
    "meeple": pgettext("die face, as the object of a move", "a Meeple"),
    "ship": pgettext("die face, as the object of a move", "a Spaceship"),
    "hero": pgettext("die face, as the object of a move", "a Superhero"),
    "dragon": pgettext("die face, as the object of a move", "a Dragon"),
}
"""A die of that face as the object of a move ("Reroll a Dragon"): languages with cases need their own form."""
THE_FACE = {
    "42": pgettext("die face, as the object of a move", "the 42"),
    "heart": pgettext("die face, as the object of a move", "the Heart"),
    "meeple": pgettext("die face, as the object of a move", "the Meeple"),
    "ship": pgettext("die face, as the object of a move", "the Spaceship"),
    "hero": pgettext("die face, as the object of a move", "the Superhero"),
    "dragon": pgettext("die face, as the object of a move", "the Dragon"),
}
"""The only active die of that face, as the object of a move ("Superhero: flip the Heart")."""
A_RESULT = {
    "42": pgettext("die face, what a die became", "a 42"),
    "heart": pgettext("die face, what a die became", "a Heart"),
    "meeple": pgettext("die face, what a die became", "a Meeple"),
    "ship": pgettext("die face, what a die became", "a Spaceship"),
    "hero": pgettext("die face, what a die became", "a Superhero"),
    "dragon": pgettext("die face, what a die became", "a Dragon"),
}
"""What a die became ("rerolled a Dragon into a 42"; "... to a Dragon")."""
OPPOSITE = {
    "42": "heart",
    "heart": "42",
    "meeple": "ship",
    "ship": "meeple",
    "hero": "dragon",
    "dragon": "hero",
}
ACTION_FACES = frozenset({"heart", "meeple", "ship", "hero"})
TARGETED = frozenset({"meeple", "ship", "hero"})
ACT_ORDER = ("heart", "meeple", "hero", "ship")
"""The order of the action buttons (and of the timeout's tie-break)."""
ZONES = ("active", "inactive", "used", "scored")
DICE = 10
START_ACTIVE = 7

Move = tuple[str, str | None]
"""One deduplicated choice: (the face used, the face it targets or None)."""


def points_for(scored: int) -> int:
    """The scoring table: n scored 42s bank n(n+1)/2 points (1, 3, 6, ... 55)."""
    return scored * (scored + 1) // 2


def seat_ref(seat: int) -> str:
    """The placeholder the table fills with a seat's name."""
    return "{p" + str(seat) + "}"


def _points(n: int) -> Text:
    return ngettext("{n} point", "{n} points", n)


def _dice(n: int) -> Text:
    return ngettext("{n} die", "{n} dice", n)


def _faces(faces: list[str]) -> Text:
    return join([NAMES[f] for f in faces], ", ")


# --------------------------------------------------------------------------------------------- choices
def moves(active: tuple[str, ...] | list[str]) -> list[Move]:
    """Every distinct choice the active faces allow, in button order (action faces in ``ACT_ORDER``,
    targets in ``FACES`` order). A targeted face with no other active die appears as ``(face, None)``."""
    out: list[Move] = []
    for face in ACT_ORDER:
        if face not in active:
            continue
        if face == "heart":
            out.append((face, None))
            continue
        others = list(active)
        others.remove(face)
        targets = [t for t in FACES if t in others]
        if targets:
            out.extend((face, t) for t in targets)
        else:
            out.append((face, None))
    return out


# --------------------------------------------------------------------------------------------- the timeout
def _sorted(faces: list[str]) -> tuple[str, ...]:
    return tuple(sorted(faces, key=FACES.index))


@lru_cache(maxsize=1 << 16)
def turn_value(active: tuple[str, ...], inactive: int, scored: int) -> Fraction:
    """Expected points banked by the timeout policy from here: every choice the best one, and a Pass at the
    first Continue/Pass choice. ``active`` is sorted in ``FACES`` order; the number of used dice does not
    matter (a chosen Pass and a forced Pass bank the same)."""
    options = moves(active)
    if not options:
        if "dragon" in active:
            return Fraction(0)
        return Fraction(points_for(scored + active.count("42")))
    return max(move_value(active, inactive, scored, m) for m in options)


def move_value(active: tuple[str, ...], inactive: int, scored: int, move: Move) -> Fraction:
    """Expected points of playing ``move`` now and then following the timeout policy."""
    face, target = move
    rest = list(active)
    rest.remove(face)
    if face == "heart":
        if not inactive:
            return turn_value(_sorted(rest), inactive, scored)
        return sum((turn_value(_sorted([*rest, f]), inactive - 1, scored) for f in FACES), Fraction(0)) / 6
    if target is None:
        return Fraction(0) if face == "ship" else turn_value(_sorted(rest), inactive, scored)
    rest.remove(target)
    if face == "meeple":
        return sum((turn_value(_sorted([*rest, f]), inactive, scored) for f in FACES), Fraction(0)) / 6
    if face == "hero":
        return turn_value(_sorted([*rest, OPPOSITE[target]]), inactive, scored)
    return turn_value(_sorted(rest), inactive + 1, scored)


def best_move(active: tuple[str, ...] | list[str], inactive: int, scored: int) -> tuple[Move, Fraction]:
    """The timeout's choice: the highest expected banked points; ties go to the first in button order."""
    key = _sorted(list(active))
    best: tuple[Move, Fraction] | None = None
    for m in moves(key):
        v = move_value(key, inactive, scored, m)
        if best is None or v > best[1]:
            best = (m, v)
    if best is None:
        raise ValueError("no action face is active")
    return best


@register
class GeekOut(Engine):
    slug = "geek_out"
    title = "Geek Out! Masters"
    accent = 0xE69F00
    min_players = 1
    max_players = 8
    options = (Option("turns", _("Turns each player plays"), 5, minimum=1, maximum=10, label=_("Turns")),)

    # --- setup and turn flow -------------------------------------------------------------------------
    def setup(self, players: int, options: dict, state: State) -> None:
        rng = Rng(state)
        first = rng.below(players)
        state.update(
            first=first,
            current=first,
            turns=[0] * players,
            scores=[[] for _ in range(players)],
            dice=[{"face": "42", "zone": "inactive"} for _ in range(DICE)],
            phase="act",
            selected=None,
        )
        events: list[Event] = []
        self._start_turn(state, events)
        self._settle(state, events)
        # what the table did before anyone clicked (the roll, forced steps): shown as the game's first line
        state["opening"] = [[e.text.to_data() if isinstance(e.text, Text) else e.text, e.seat] for e in events]

    def opening(self, state: State) -> list[Event]:
        """(States saved before the texts were kept as data hold English strings: shown as they are.)"""
        return [Event(from_data(text), seat) for text, seat in state.get("opening", [])]

    def _start_turn(self, state: State, events: list[Event]) -> None:
        """Rolls the turn's seven dice (the caller settles)."""
        rng = Rng(state)
        for i, die in enumerate(state["dice"]):
            if i < START_ACTIVE:
                die.update(zone="active", face=rng.choice(FACES))
            else:
                die.update(zone="inactive")
        state["phase"] = "act"
        state["selected"] = None
        cur = state["current"]
        rolled = _faces([state["dice"][i]["face"] for i in range(START_ACTIVE)])
        events.append(Event(_("{player} starts turn {turn} and rolls {faces}.", player=seat_ref(cur),
                              turn=state["turns"][cur] + 1, faces=rolled), cur))

    def _zone(self, state: State, zone: str) -> list[int]:
        return [i for i, d in enumerate(state["dice"]) if d["zone"] == zone]

    def _faces(self, state: State) -> list[str]:
        return [state["dice"][i]["face"] for i in self._zone(state, "active")]

    def _moves(self, state: State) -> list[Move]:
        return moves(self._faces(state))

    def _settle(self, state: State, events: list[Event]) -> None:
        """Decides what the turn needs next after the dice changed, and plays every forced step itself:
        a lone choice is played (and logged), a bust or a forced pass ends the turn and the next one starts,
        until a player has a real choice or the game is over."""
        while state["phase"] != "over":
            state["selected"] = None
            faces = self._faces(state)
            cur = state["current"]
            options = self._moves(state)
            if options:
                if len({face for face, _target in options}) == 1 and len(options) > 1:
                    # one die face to use but a real choice of target: straight to the target step
                    state["phase"] = "target"
                    state["selected"] = self._first(state, options[0][0])
                    return
                if len(options) == 1:
                    if self._resolve(state, cur, options[0], events):
                        continue
                    self._end_turn(state, 0, events)
                    continue
                state["phase"] = "act"
                return
            if "dragon" in faces:
                n = faces.count("dragon")
                lost = len(self._zone(state, "scored")) + faces.count("42")
                if lost:
                    text = ngettext("A Dragon eats {player}'s {dice} showing 42: 0 points this turn.",
                                    "{n} Dragons eat {player}'s {dice} showing 42: 0 points this turn.", n,
                                    player=seat_ref(cur), dice=_dice(lost))
                else:
                    text = ngettext("A Dragon ends {player}'s turn: 0 points this turn.",
                                    "{n} Dragons end {player}'s turn: 0 points this turn.", n, player=seat_ref(cur))
                events.append(Event(text, cur))
                self._end_turn(state, 0, events)
                continue
            for i in self._zone(state, "active"):
                state["dice"][i]["zone"] = "scored"
            if not self._zone(state, "used"):
                self._bank(state, events, forced=True)
                continue
            state["phase"] = "choose"
            return

    def _bank(self, state: State, events: list[Event], forced: bool = False) -> None:
        cur = state["current"]
        n = len(self._zone(state, "scored"))
        pts = points_for(n)
        if forced:
            text = _("{player} has no used dice to roll and banks {points} for {dice} showing 42.",
                     player=seat_ref(cur), points=_points(pts), dice=_dice(n))
        else:
            text = _("{player} passes and banks {points} for {dice} showing 42.", player=seat_ref(cur),
                     points=_points(pts), dice=_dice(n))
        events.append(Event(text, cur))
        self._end_turn(state, pts, events)

    def _end_turn(self, state: State, points: int, events: list[Event]) -> None:
        """Records the turn and rolls the next player's dice (the caller settles)."""
        cur = state["current"]
        if not state["left"][cur]:
            state["scores"][cur].append(points)
            state["turns"][cur] += 1
        nxt = self._next_seat(state, cur)
        state["selected"] = None
        if nxt is None:
            state["phase"] = "over"
            return
        state["current"] = nxt
        self._start_turn(state, events)

    def _next_seat(self, state: State, after: int) -> int | None:
        n = state["players"]
        limit = state["options"]["turns"]
        alive = self.remaining(state)
        if len(alive) < min(2, n):
            return None
        for step in range(1, n + 1):
            seat = (after + step) % n
            if not state["left"][seat] and state["turns"][seat] < limit:
                return seat
        return None

    # --- dice by face --------------------------------------------------------------------------------
    def _first(self, state: State, face: str, besides: int | None = None) -> int:
        """The lowest-numbered active die showing ``face`` (other than ``besides``)."""
        return next(
            i for i in self._zone(state, "active") if i != besides and state["dice"][i]["face"] == face
        )

    def _count(self, state: State, face: str, besides: int | None = None) -> int:
        return sum(1 for i in self._zone(state, "active") if i != besides and state["dice"][i]["face"] == face)

    def _canonical(self, state: State, seat: int, key: str) -> str:
        """Maps a key naming any die of a face to the offered key of that face (dice are identical, so an
        older button naming another die of the same face still means the same move)."""
        if seat != state.get("current") or not key[1:].isascii() or not key[1:].isdigit() or key[1] == "0":
            return key
        n = int(key[1:]) - 1
        if n >= DICE or state["dice"][n]["zone"] != "active":
            return key
        face = state["dice"][n]["face"]
        if key[0] == "u" and state["phase"] == "act" and face in ACTION_FACES:
            return f"u{self._first(state, face) + 1}"
        sel = state["selected"]
        if key[0] == "t" and state["phase"] == "target" and n != sel:
            return f"t{self._first(state, face, sel) + 1}"
        return key

    def apply(self, state: State, seat: int, key: str) -> tuple[State, list[Event]]:
        """As ``Engine.apply``, after mapping a key that names another die of an offered face to the offered key."""
        if seat != SYSTEM and isinstance(key, str) and state.get("phase") in ("act", "target"):
            key = self._canonical(state, seat, key)
        return super().apply(state, seat, key)

    # --- the protocol --------------------------------------------------------------------------------
    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state["phase"] == "over" else frozenset({state["current"]})

    def actions(self, state: State, seat: int) -> list[Action]:
        phase = state["phase"]
        if phase == "choose":
            at_risk = len(self._zone(state, "scored"))
            used = len(self._zone(state, "used"))
            return [
                Action("c", ngettext("Continue: roll {n} used die", "Continue: roll {n} used dice", used), "primary"),
                Action("p", _("Pass: bank {points}", points=_points(points_for(at_risk))), "success"),
            ]
        options = self._moves(state)
        if phase == "target":
            sel = state["selected"]
            face = state["dice"][sel]["face"]
            acts = [
                Action(f"t{self._first(state, t, sel) + 1}", self._target_label(face, t), "primary", "target")
                for f, t in options
                if f == face and t is not None
            ]
            if len({m[0] for m in options}) > 1:
                acts.append(Action("back", _("Choose another die"), "secondary"))
            return acts
        acts = []
        for face in ACT_ORDER:
            targets = [t for f, t in options if f == face]
            if not targets:
                continue
            i = self._first(state, face)
            style = "danger" if face == "ship" and targets == [None] else "primary"
            acts.append(Action(f"u{i + 1}", self._use_label(state, face, i, targets), style, "use"))
        return acts

    def _use_label(self, state: State, face: str, i: int, targets: list[str | None]) -> Text:
        if face == "heart":
            if self._zone(state, "inactive"):
                return _("Heart: bring in a die")
            return _("Heart: no inactive die, no effect")
        if targets == [None]:
            return {"ship": _("Spaceship: self-destruct, 0 points"),
                    "meeple": _("Meeple: no other die, no effect"),
                    "hero": _("Superhero: no other die, no effect")}[face]
        if len(targets) > 1:
            return {"meeple": _("Meeple: reroll a die"), "hero": _("Superhero: flip a die"),
                    "ship": _("Spaceship: send a die away")}[face]
        t = targets[0]
        the = (THE_FACE if self._count(state, t, i) == 1 else A_FACE)[t]
        if face == "meeple":
            return _("Meeple: reroll {target}", target=the)
        if face == "hero":
            return _("Superhero: flip {target} (to {face})", target=the, face=NAMES[OPPOSITE[t]])
        return _("Spaceship: send {target} away", target=the)

    @staticmethod
    def _target_label(face: str, target: str) -> Text:
        if face == "meeple":
            return _("Reroll {target}", target=A_FACE[target])
        if face == "hero":
            return _("Flip {target} (to {face})", target=A_FACE[target], face=NAMES[OPPOSITE[target]])
        return _("Send {target} away", target=A_FACE[target])

    def play(self, state: State, seat: int, key: str, events: list[Event]) -> None:
        dice = state["dice"]
        if key == "c":
            used = self._zone(state, "used")
            rng = Rng(state)
            for i in used:
                dice[i].update(zone="active", face=rng.choice(FACES))
            rolled = _faces([dice[i]["face"] for i in used])
            events.append(Event(_("{player} continues and rolls {dice}: {faces}.", player=seat_ref(seat),
                                  dice=_dice(len(used)), faces=rolled), seat))
            self._settle(state, events)
        elif key == "p":
            self._bank(state, events)
            self._settle(state, events)
        elif key == "back":
            state["phase"] = "act"
            state["selected"] = None
        elif key.startswith("u"):
            i = int(key[1:]) - 1
            face = dice[i]["face"]
            targets = [t for f, t in self._moves(state) if f == face]
            if len(targets) > 1:
                state["phase"] = "target"
                state["selected"] = i
                return
            self._step(state, seat, (face, targets[0]), events)
        elif key.startswith("t"):
            face = dice[state["selected"]]["face"]
            self._step(state, seat, (face, dice[int(key[1:]) - 1]["face"]), events)

    def _step(self, state: State, seat: int, move: Move, events: list[Event]) -> None:
        """Plays one move and settles what follows."""
        if not self._resolve(state, seat, move, events):
            self._end_turn(state, 0, events)
        self._settle(state, events)

    def _resolve(self, state: State, seat: int, move: Move, events: list[Event]) -> bool:
        """Plays ``move`` with the lowest-numbered dice of its faces (dice are identical). Returns False when
        the turn ends at once (a lone Spaceship self-destructs); the caller ends it and settles."""
        dice = state["dice"]
        face, target = move
        i = self._first(state, face)
        who = seat_ref(seat)
        dice[i]["zone"] = "used"
        state["selected"] = None
        if face == "heart":
            inactive = self._zone(state, "inactive")
            if inactive:
                j = inactive[0]
                dice[j].update(zone="active", face=Rng(state).choice(FACES))
                events.append(Event(_("{player}'s Heart brought in a die: {face}.", player=who,
                                      face=NAMES[dice[j]["face"]]), seat))
            else:
                events.append(Event(_("{player}'s Heart found no inactive die: no effect.", player=who), seat))
            return True
        if target is None:
            if face == "ship":
                lost = len(self._zone(state, "scored"))
                if lost:
                    text = ngettext("{player}'s Spaceship is alone and self-destructs, destroying {n} scored 42: "
                                    "0 points this turn.",
                                    "{player}'s Spaceship is alone and self-destructs, destroying {n} scored 42s: "
                                    "0 points this turn.", lost, player=who)
                else:
                    text = _("{player}'s Spaceship is alone and self-destructs: 0 points this turn.", player=who)
                events.append(Event(text, seat))
                return False
            text = {"meeple": _("{player}'s Meeple had no other die to act on: no effect.", player=who),
                    "hero": _("{player}'s Superhero had no other die to act on: no effect.", player=who)}[face]
            events.append(Event(text, seat))
            return True
        j = self._first(state, target, i)
        if face == "meeple":
            dice[j]["face"] = after = Rng(state).choice(FACES)
            if after == target:
                text = _("{player}'s Meeple rerolled {target}: {result} again.", player=who, target=A_FACE[target],
                         result=A_RESULT[after])
            else:
                text = _("{player}'s Meeple rerolled {target} into {result}.", player=who, target=A_FACE[target],
                         result=A_RESULT[after])
        elif face == "hero":
            dice[j]["face"] = OPPOSITE[target]
            text = _("{player}'s Superhero flipped {target} to {result}.", player=who, target=A_FACE[target],
                     result=A_RESULT[OPPOSITE[target]])
        else:
            dice[j]["zone"] = "inactive"
            text = _("{player}'s Spaceship sent {target} to the inactive zone.", player=who, target=A_FACE[target])
        events.append(Event(text, seat))
        return True

    # --- absent and departing players ----------------------------------------------------------------
    def on_leave(self, state: State, seat: int, events: list[Event]) -> None:
        events.append(Event(left_the_game(seat), SYSTEM))
        if state["phase"] != "over" and state["current"] == seat:
            self._end_turn(state, 0, events)
            self._settle(state, events)
        elif state["phase"] != "over" and len(self.remaining(state)) < min(2, state["players"]):
            state["phase"] = "over"
            state["selected"] = None

    def timeout_move(self, state: State) -> tuple[Move, Fraction]:
        """What the table plays for an idle player now (act or target step) and its expected points."""
        return best_move(self._faces(state), len(self._zone(state, "inactive")), len(self._zone(state, "scored")))

    def on_timeout(self, state: State, seat: int, events: list[Event]) -> None:
        """The table finishes the idle player's turn: each step the move with the highest expected banked
        points (an exact expectimax assuming a Pass at the first choice), then Pass (decision 4)."""
        events.append(Event(_("{player} ran out of time; the table finishes their turn.", player=seat_ref(seat)),
                            SYSTEM))
        turns_before = state["turns"][seat]
        while state["phase"] != "over" and state["current"] == seat and state["turns"][seat] == turns_before:
            if state["phase"] == "choose":
                self.play(state, seat, "p", events)
                continue
            move, _value = self.timeout_move(state)
            self._step(state, seat, move, events)

    # --- what players see ----------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        """Geek Out has no secrets: every seat and spectators see the same."""
        scored = len(self._zone(state, "scored"))
        out = {
            "game": self.slug,
            "players": state["players"],
            "current": state["current"],
            "phase": state["phase"],
            "selected": state["selected"],
            "dice": [dict(d) for d in state["dice"]],
            "scores": [list(s) for s in state["scores"]],
            "totals": [sum(s) for s in state["scores"]],
            "turns": list(state["turns"]),
            "turn_limit": state["options"]["turns"],
            "at_risk": scored,
            "at_risk_points": points_for(scored),
            "left": list(state["left"]),
        }
        result = self.result(state)
        if result is not None:
            out["winners"] = list(result.winners)
        return out

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        totals = self.scores_now(state)
        return Result(totals, rank_by_score(list(totals), self.remaining(state)))

    def scores_now(self, state: State) -> tuple[int, ...]:
        return tuple(sum(s) for s in state["scores"])

    def progress(self, state: State) -> Text | None:
        """ "Turn 3 of 5 each": the turn the player to act is playing."""
        if state["phase"] == "over":
            return None
        return _("Turn {turn} of {turns} each", turn=state["turns"][state["current"]] + 1,
                 turns=state["options"]["turns"])

    def position(self, state: State) -> Text:
        """The scores, then the turn in play: its active faces, how many 42s it has scored (and their worth)."""
        said = [scores_words(self.scores_now(state))]
        if state["phase"] != "over":
            active = sorted(self._faces(state), key=FACES.index)
            scored = len(self._zone(state, "scored"))
            said.append(_("{player}'s turn: active dice {faces}; {scored} scored this turn, worth {points}.",
                          player=seat_ref(state["current"]), faces=_faces(active) if active else "-",
                          scored=_dice(scored), points=_points(points_for(scored))))
        return join(said)

    # --- helpers for tests and the UI ----------------------------------------------------------------
    def zones(self, state: State) -> dict[str, list[int]]:
        """Die numbers (1-based) by zone."""
        return {z: [i + 1 for i in self._zone(state, z)] for z in ZONES}

    def arrange(self, state: State, events: list[Event] | None = None, **zones: dict[int, str]) -> State:
        """Forces an outcome for tests and examples: ``arrange(s, active={1: "42"}, used={2: "hero"})``.

        Dice not named keep their place. The turn is then settled as after any move, so forced steps (a lone
        choice, a bust, scoring, a forced pass) happen at once and are logged in ``events``.
        """
        for zone, faces in zones.items():
            if zone not in ZONES:
                raise RulesError(_("unknown zone {zone}", zone=zone))
            for number, face in faces.items():
                if face not in FACES:
                    raise RulesError(_("unknown face {face}", face=face))
                state["dice"][number - 1].update(face=face, zone=zone)
        self._settle(state, events if events is not None else [])
        return state
