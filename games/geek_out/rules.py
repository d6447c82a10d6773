"""Geek Out! Masters: push-your-luck dice (../shared/rules/geek-out-masters.txt and decisions.md).

Ten numbered dice (1..10) move between four zones: active, inactive, used and scored. A turn starts with
dice 1-7 rolled active and 8-10 inactive. While an action face is active the player must resolve one (in
any order); choosing a die that needs a target opens a target step. When no action face is left, Dragons
bust the turn, otherwise the 42s are scored and the player may Continue (roll the used dice) or Pass.

Keys: ``u<die>`` use a die, ``t<die>`` target a die, ``back`` undo the die choice, ``c`` continue, ``p`` pass.
"""

from __future__ import annotations

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
    rank_by_score,
    register,
)

FACES = ("42", "heart", "meeple", "ship", "hero", "dragon")
NAMES = {
    "42": "42",
    "heart": "Heart",
    "meeple": "Meeple",
    "ship": "Spaceship",
    "hero": "Superhero",
    "dragon": "Dragon",
}
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
ZONES = ("active", "inactive", "used", "scored")
DICE = 10
START_ACTIVE = 7


def points_for(scored: int) -> int:
    """The scoring table: n scored 42s bank n(n+1)/2 points (1, 3, 6, ... 55)."""
    return scored * (scored + 1) // 2


@register
class GeekOut(Engine):
    slug = "geek_out"
    title = "Geek Out! Masters"
    min_players = 1
    max_players = 8
    options = (Option("turns", "Turns each player plays", 5, minimum=1, maximum=10),)
    summary = (
        "**Geek Out! Masters**: push-your-luck dice. Each turn you roll 7 of the 10 dice (3 wait inactive).\n"
        "• While any action face is active you **must** use one, in the order you choose; the used die goes to "
        "the used zone.\n"
        "  - **Meeple**: reroll another active die.  **Superhero**: flip another active die to its opposite "
        "(42↔Heart, Meeple↔Spaceship, Superhero↔Dragon).\n"
        "  - **Spaceship**: send another active die to inactive; alone, it self-destructs and you score 0.\n"
        "  - **Heart**: bring an inactive die in and roll it (none left: no effect).\n"
        "• With no action left: any **Dragon** eats your turn (0 points). Otherwise your 42s are scored and you "
        "**Continue** (roll the used dice again, keeping the 42s at risk) or **Pass** to bank "
        "n(n+1)/2 points for n 42s: 1, 3, 6, 10, 15, 21, 28, 36, 45, 55. No used dice: you must pass.\n"
        "• Everyone plays 5 turns; the highest total wins, ties share the victory.\n"
        "• If you time out, the table finishes your turn for you: it resolves the dice (aiming Meeples, "
        "Superheroes and Spaceships at Dragons first) and passes at the first chance."
    )

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
        self._start_turn(state, [])

    def _start_turn(self, state: State, events: list[Event]) -> None:
        rng = Rng(state)
        for i, die in enumerate(state["dice"]):
            if i < START_ACTIVE:
                die.update(zone="active", face=rng.choice(FACES))
            else:
                die.update(zone="inactive")
        state["selected"] = None
        cur = state["current"]
        rolled = ", ".join(NAMES[state["dice"][i]["face"]] for i in range(START_ACTIVE))
        events.append(Event(f"{{p{cur}}} starts turn {state['turns'][cur] + 1} and rolls {rolled}.", cur))
        self._settle(state, events)

    def _zone(self, state: State, zone: str) -> list[int]:
        return [i for i, d in enumerate(state["dice"]) if d["zone"] == zone]

    def _settle(self, state: State, events: list[Event]) -> None:
        """Decides what the turn needs next, after the dice changed."""
        state["selected"] = None
        active = self._zone(state, "active")
        faces = [state["dice"][i]["face"] for i in active]
        cur = state["current"]
        if any(f in ACTION_FACES for f in faces):
            state["phase"] = "act"
            return
        if "dragon" in faces:
            n = faces.count("dragon")
            lost = len(self._zone(state, "scored")) + faces.count("42")
            what = "the Dragon eats" if n == 1 else f"{n} Dragons eat"
            events.append(Event(f"{{p{cur}}} is stuck with {what} {lost} × 42: 0 points this turn.", cur))
            self._end_turn(state, 0, events)
            return
        for i in active:
            state["dice"][i]["zone"] = "scored"
        if not self._zone(state, "used"):
            self._bank(state, events, forced=True)
            return
        state["phase"] = "choose"

    def _bank(self, state: State, events: list[Event], forced: bool = False) -> None:
        cur = state["current"]
        n = len(self._zone(state, "scored"))
        pts = points_for(n)
        why = " (no used dice left to roll)" if forced else ""
        events.append(Event(f"{{p{cur}}} passes{why} and banks {n} × 42 = {pts} points.", cur))
        self._end_turn(state, pts, events)

    def _end_turn(self, state: State, points: int, events: list[Event]) -> None:
        cur = state["current"]
        if not state["left"][cur]:
            state["scores"][cur].append(points)
            state["turns"][cur] += 1
        nxt = self._next_seat(state, cur)
        if nxt is None:
            state["phase"] = "over"
            state["selected"] = None
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

    # --- the protocol --------------------------------------------------------------------------------
    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state["phase"] == "over" else frozenset({state["current"]})

    def actions(self, state: State, seat: int) -> list[Action]:
        dice = state["dice"]
        phase = state["phase"]
        if phase == "choose":
            at_risk = len(self._zone(state, "scored"))
            used = len(self._zone(state, "used"))
            return [
                Action("c", f"Continue: roll {used} used {'die' if used == 1 else 'dice'}", "primary"),
                Action("p", f"Pass: bank {points_for(at_risk)} points", "success"),
            ]
        active = self._zone(state, "active")
        if phase == "target":
            sel = state["selected"]
            verb = {"meeple": "Reroll", "hero": "Flip", "ship": "Send away"}[dice[sel]["face"]]
            acts = [
                Action(f"t{j + 1}", f"{verb} die {j + 1} ({NAMES[dice[j]['face']]})", "primary", "target")
                for j in active
                if j != sel
            ]
            acts.append(Action("back", "Choose another die", "secondary"))
            return acts
        acts = []
        inactive = bool(self._zone(state, "inactive"))
        for i in active:
            face = dice[i]["face"]
            if face not in ACTION_FACES:
                continue
            alone = len(active) == 1
            if face == "heart":
                what = "bring in a die" if inactive else "no inactive die: no effect"
            elif face == "ship" and alone:
                what = "self-destruct, 0 points"
            elif alone:
                what = "no other die: no effect"
            else:
                what = {"meeple": "reroll a die", "hero": "flip a die", "ship": "send a die away"}[face]
            style = "danger" if face == "ship" and alone else "primary"
            acts.append(Action(f"u{i + 1}", f"Die {i + 1} {NAMES[face]}: {what}", style, "use"))
        return acts

    def play(self, state: State, seat: int, key: str, events: list[Event]) -> None:
        dice = state["dice"]
        if key == "c":
            used = self._zone(state, "used")
            rng = Rng(state)
            for i in used:
                dice[i].update(zone="active", face=rng.choice(FACES))
            rolled = ", ".join(f"{i + 1}: {NAMES[dice[i]['face']]}" for i in used)
            events.append(Event(f"{{p{seat}}} continues and rolls {len(used)} dice ({rolled}).", seat))
            self._settle(state, events)
        elif key == "p":
            self._bank(state, events)
        elif key == "back":
            state["phase"] = "act"
            state["selected"] = None
        elif key.startswith("u"):
            self._use(state, seat, int(key[1:]) - 1, events)
        elif key.startswith("t"):
            self._target(state, seat, state["selected"], int(key[1:]) - 1, events)

    def _use(self, state: State, seat: int, i: int, events: list[Event]) -> None:
        dice = state["dice"]
        face = dice[i]["face"]
        others = [j for j in self._zone(state, "active") if j != i]
        if face in TARGETED and others:
            state["phase"] = "target"
            state["selected"] = i
            return
        dice[i]["zone"] = "used"
        if face == "heart":
            inactive = self._zone(state, "inactive")
            if inactive:
                j = inactive[0]
                dice[j].update(zone="active", face=Rng(state).choice(FACES))
                events.append(
                    Event(f"{{p{seat}}}'s Heart brought in die {j + 1}: {NAMES[dice[j]['face']]}.", seat)
                )
            else:
                events.append(Event(f"{{p{seat}}}'s Heart found no inactive die: no effect.", seat))
        elif face == "ship":
            lost = len(self._zone(state, "scored"))
            events.append(
                Event(f"{{p{seat}}}'s lone Spaceship self-destructs, taking {lost} × 42: 0 points this turn.", seat)
            )
            self._end_turn(state, 0, events)
            return
        else:
            events.append(Event(f"{{p{seat}}}'s {NAMES[face]} had no other die to act on: no effect.", seat))
        self._settle(state, events)

    def _target(self, state: State, seat: int, i: int, j: int, events: list[Event]) -> None:
        dice = state["dice"]
        face = dice[i]["face"]
        before = NAMES[dice[j]["face"]]
        if face == "meeple":
            dice[j]["face"] = Rng(state).choice(FACES)
            text = f"rerolled die {j + 1}: {before} → {NAMES[dice[j]['face']]}"
        elif face == "hero":
            dice[j]["face"] = OPPOSITE[dice[j]["face"]]
            text = f"flipped die {j + 1}: {before} → {NAMES[dice[j]['face']]}"
        else:
            dice[j]["zone"] = "inactive"
            text = f"sent die {j + 1} ({before}) to the inactive zone"
        dice[i]["zone"] = "used"
        events.append(Event(f"{{p{seat}}}'s {NAMES[face]} {text}.", seat))
        self._settle(state, events)

    # --- absent and departing players ----------------------------------------------------------------
    def on_leave(self, state: State, seat: int, events: list[Event]) -> None:
        events.append(Event(f"{{p{seat}}} left the game.", SYSTEM))
        if state["phase"] != "over" and state["current"] == seat:
            self._end_turn(state, 0, events)
        elif state["phase"] != "over" and len(self.remaining(state)) < min(2, state["players"]):
            state["phase"] = "over"

    def on_timeout(self, state: State, seat: int, events: list[Event]) -> None:
        """The table finishes the idle player's turn: dice resolved (Dragons targeted first), then Pass."""
        events.append(Event(f"{{p{seat}}} ran out of time; the table finishes their turn.", SYSTEM))
        turns_before = state["turns"][seat]
        while state["phase"] != "over" and state["current"] == seat and state["turns"][seat] == turns_before:
            if state["phase"] == "choose":
                self.play(state, seat, "p", events)
                continue
            acts = self.actions(state, seat)
            if state["phase"] == "target":
                dragons = [a for a in acts if a.key.startswith("t") and "(Dragon)" in a.label]
                pick = dragons[0] if dragons else acts[0]
            else:
                pick = acts[0]
            self.play(state, seat, pick.key, events)

    # --- what players see ----------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        """Geek Out has no secrets: every seat and spectators see the same."""
        scored = len(self._zone(state, "scored"))
        return {
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

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        totals = [sum(s) for s in state["scores"]]
        return Result(tuple(totals), rank_by_score(totals, self.remaining(state)))

    # --- helpers for tests and the UI ----------------------------------------------------------------
    def zones(self, state: State) -> dict[str, list[int]]:
        """Die numbers (1-based) by zone."""
        return {z: [i + 1 for i in self._zone(state, z)] for z in ZONES}

    def arrange(self, state: State, events: list[Event] | None = None, **zones: dict[int, str]) -> State:
        """Forces an outcome for tests and examples: ``arrange(s, active={1: "42"}, used={2: "hero"})``.

        Dice not named keep their place. The turn is then settled as after any move, so forced end-of-action
        cases (bust, scoring, forced pass) happen at once.
        """
        for zone, faces in zones.items():
            if zone not in ZONES:
                raise RulesError(f"unknown zone {zone}")
            for number, face in faces.items():
                if face not in FACES:
                    raise RulesError(f"unknown face {face}")
                state["dice"][number - 1].update(face=face, zone=zone)
        self._settle(state, events if events is not None else [])
        return state

