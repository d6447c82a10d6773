"""Globe Twister: program action cards, all at the same time and in secret, to rebuild a scrambled 3x3 photo
(../shared/rules/globe-twister.txt, the Globe Twister sections of decisions.md, docs/rules/globe-twister.md).

Puzzles and cards are in ``puzzle.py`` (cells 0-8 in reading order, tiles named by their own cell, rotations in
quarter turns clockwise); the solo puzzles, their pars and the hints come from ``solver.py`` and
data/puzzles.json.

Phases: ``side`` (option photo=choose: each player picks the front or the back of their photo), ``program``
(stage B: every player still programming is to act; stage C runs inside the action that ends stage B),
``over``.

Keys (stage B, all but ``lock`` secret): ``c<cell>`` choose a cell of the programming frame, then ``k<card>``
put a card there (``kb1``...), then for B1, B2, B5 ``d<dir>`` its arrow (``dn``, ``dne``...); ``x`` take the
cell's card back, ``back`` one step back, ``clear`` take every card back, ``hint`` (solo) reveal a card of a
known solution, ``lock`` lock in (the first lock-in turns the sand timer). Photo sides: ``front``, ``back``.
The table: ``timer:sand<n>`` (the sand timer of the n-th stage B ran out), ``timeout:<seat>``, ``leave:<seat>``.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from importlib import resources

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
    copy_state,
    left_the_game,
    rank_by_score,
    register,
    scores_words,
)
from games.globe_twister.puzzle import (
    ARROWS,
    CARD_NAMES,
    CARDS,
    CELL_NAMES,
    CELLS,
    DIR_NAMES,
    DIRECTIONS,
    GREEN,
    RED,
    SHORT_NAMES,
    TARGETS_ANY,
    TARGETS_UPRIGHT,
    apply_card,
    defined,
    from_pairs,
    is_solved,
    to_pairs,
)
from games.globe_twister.solver import LEVEL_NAMES, LEVELS, PUZZLES_PER_LEVEL, generate, plan
from i18n import N_, Text, _, from_data, join, ngettext, pgettext

REGIONS = ("asia", "north-america", "latin-america", "europe", "africa")
PHOTOS = ("polar", *REGIONS)
PHOTO_NAMES = {"polar": _("Polar region"), "asia": _("Asia"), "north-america": _("North America"),
               "latin-america": _("Latin America"), "europe": _("Europe"), "africa": _("Africa")}
TIEBREAKS = {"reds": _("most red cards left"), "cards": _("fewest cards in the final turn"),
             "starter": _("turned the sand timer"), "left": _("the others left")}
"""The tiebreakers that can decide a round, as the travel log names them."""
TIMER_NAME = "sand"


@lru_cache(maxsize=1)
def shipped_puzzles() -> dict[str, list[dict]]:
    """The solo puzzles per level (data/puzzles.json, built by ``python -m games.globe_twister.solver``)."""
    text = (resources.files("games.globe_twister") / "data" / "puzzles.json").read_text(encoding="utf-8")
    return json.loads(text)["levels"]


def program_placements(program: list) -> list[tuple[int, str, str | None]]:
    """A programming frame (nine entries: None or [card, direction]) as placements in reading order."""
    return [(cell, entry[0], entry[1]) for cell, entry in enumerate(program) if entry is not None]


def seat_tag(seat: int) -> str:
    """A seat as the table names it later (``{p0}``): a parameter of a sentence, never translated."""
    return f"{{p{seat}}}"


def seats_text(seats) -> str:
    """Seats in a sentence, "{p0}, {p2}" (each a part the table names)."""
    return join([seat_tag(s) for s in seats], ", ")


def placement_text(cell: int, card: str, direction: str | None) -> str:
    arrow = f" {ARROWS[direction]}" if direction else ""
    return _("cell {number} ({cell}): {card}", number=cell + 1, cell=CELL_NAMES[cell],
             card=SHORT_NAMES[card] + arrow)


def tiebreak_text(stored) -> str | None:
    """A travel log's tiebreaker as shown. The state keeps its English words (as states always did: a stored
    game goes on as it was), which name one of ``TIEBREAKS``; a text stored as ``Text.to_data`` reads too."""
    if isinstance(stored, str):
        return next((t for t in TIEBREAKS.values() if t == stored), stored)
    return from_data(stored)


@lru_cache(maxsize=4096)
def _frame_actions(program: tuple, hint: bool, lock_label: str) -> tuple[Action, ...]:
    """The first step: a cell of the frame (showing its card), a hint, clear, lock in."""
    acts = []
    for cell in CELLS:
        entry = program[cell]
        what = entry_text(entry) if entry else pgettext("cell", "empty")
        acts.append(Action(f"c{cell}", _("Cell {number} ({cell}): {card}", number=cell + 1, cell=CELL_NAMES[cell],
                                         card=what), "secondary", "cell", secret=True))
    if hint:
        acts.append(Action("hint", _("Hint: show one card of a solution"), "secondary", "control", secret=True))
    if any(program):
        acts.append(Action("clear", _("Take every card back"), "danger", "control", secret=True))
    acts.append(Action("lock", lock_label, "success", "control"))
    return tuple(acts)


@lru_cache(maxsize=4096)
def _card_actions(program: tuple, cell: int, hand: tuple) -> tuple[Action, ...]:
    """The second step: the cards that may go to ``cell`` (each card once, one red card), take back, back."""
    red_elsewhere = any(e is not None and e[0] in RED and c != cell for c, e in enumerate(program))
    used = {e[0] for c, e in enumerate(program) if e is not None and c != cell}
    current = program[cell][0] if program[cell] else None
    acts = []
    for card in hand:
        if card in used or (card == current and card not in DIRECTIONS) or (card in RED and red_elsewhere):
            continue
        works = any(defined(cell, card, d) for d in DIRECTIONS.get(card, (None,)))
        label = CARD_NAMES[card]
        if not works:
            label = _("{label} (no effect here)", label=label)
        if card == current:
            label = _("{label} (turn its arrow)", label=label)
        style = "success" if card in GREEN else "danger" if card in RED else "primary"
        acts.append(Action(f"k{card}", label, style, "card", secret=True))
    if current is not None:
        acts.append(Action("x", _("Take back {card}", card=SHORT_NAMES[current]), "danger", "control", secret=True))
    acts.append(Action("back", pgettext("button", "Back"), "secondary", "control", secret=True))
    return tuple(acts)


@lru_cache(maxsize=256)
def _direction_actions(cell: int, card: str) -> tuple[Action, ...]:
    """The third step (B1, B2, B5): the arrow's direction, every one offered (an arrow off the grid does
    nothing but the card is used, decision 8)."""
    acts = []
    for d in DIRECTIONS[card]:
        label = join((ARROWS[d], DIR_NAMES[d]))
        if not defined(cell, card, d):
            label = _("{label} (no effect here)", label=label)
        acts.append(Action(f"d{d}", label, "primary", "direction", secret=True))
    acts.append(Action("back", pgettext("button", "Back"), "secondary", "control", secret=True))
    return tuple(acts)


def entry_text(entry) -> str:
    """A frame entry (card, direction) in short: "B1 →"."""
    card, direction = entry
    return SHORT_NAMES[card] + (f" {ARROWS[direction]}" if direction else "")


@register
class GlobeTwister(Engine):
    slug = "globe_twister"
    title = "Globe Twister"
    accent = 0xD55E00
    min_players = 1
    max_players = 5
    private_label = _("My program")
    group_noun = pgettext("group", "cell")

    def group_size(self, n: int) -> Text:
        return ngettext("{n} cell", "{n} cells", n)

    # the option values (polar, back, choose, the regions, random, the levels) are keys a player types: they
    # stay in English in every language
    options = (
        Option("photo", _("Photo: polar (front side), back (each their own region), a region (for all), choose "
                          "(each picks)"), "polar", choices=("polar", "back", "choose", *REGIONS), label=_("Photo")),
        Option("no_red", _("The Long Voyage: play without the red cards"), False, label=_("The Long Voyage")),
        Option("no_timer", _("Immediate Departure: no sand timer, the first lock-in stops everyone"), False,
               label=_("Immediate Departure")),
        Option("timer", _("Seconds of the sand timer turned by the first lock-in"), 30, minimum=5, maximum=300,
               label=_("Sand timer (seconds)")),
        Option("travel_log", _("Complete travel log: as many rounds as players, most round wins"), False,
               label=_("Complete travel log")),
        Option("turn_limit", _("Turns in a round before it ends without a winner"), 10, minimum=1, maximum=50,
               label=_("Turns in a round")),
        Option("puzzle", _("Solo: random scramble or a level (tourist, backpacker, globetrotter, wild)"), "random",
               choices=("random", *LEVELS), label=_("Solo puzzle")),
        Option("number", _("Solo: the level's puzzle number (0: a fresh one made for you)"), 0, minimum=0,
               maximum=PUZZLES_PER_LEVEL, label=_("Puzzle number")),
    )

    # --- options and setup ---------------------------------------------------------------------------
    def check_players(self, players: int, options: dict) -> None:
        super().check_players(players, options)
        if options["puzzle"] != "random" and players > 1:
            raise RulesError(_("Puzzle levels are for solo play (one player)."))
        if options["number"] and options["puzzle"] == "random":
            raise RulesError(_("Choose a level (tourist, backpacker, globetrotter or wild) for a puzzle number."))

    def setup(self, players: int, options: dict, state: State) -> None:
        rng = Rng(state)
        regions = list(REGIONS)
        rng.shuffle(regions)
        sides = {"polar": "front", "choose": None}.get(options["photo"], "back")
        solo = None
        if players == 1:
            solo = {"level": None if options["puzzle"] == "random" else options["puzzle"],
                    "number": options["number"], "par": None, "red": not options["no_red"], "hints": [],
                    "hints_used": 0, "plan": None, "solved": False, "turns": 0, "cards": 0}
        state.update(
            phase="side" if sides is None else "program",
            regions=regions[:players],
            sides=[sides] * players,
            round=0,
            rounds=players if options["travel_log"] and players > 1 else 1,
            active=list(range(players)),
            decider=0,
            turn=1,
            stage=0,
            puzzles=[None] * players,
            hands=[[] for _step in range(players)],
            programs=[[None] * 9 for _step in range(players)],
            steps=[None] * players,
            locked=[False] * players,
            starter=None,
            wins=[0] * players,
            travel_log=[],
            last_run=None,
            solo=solo,
        )
        if sides is not None:
            self._start_round(state, list(range(players)), [])

    def opening(self, state: State) -> list[Event]:
        return [Event(self._round_text(state), SYSTEM)] if state["phase"] == "program" else [
            Event(_("Each player chooses the side of their photo: the polar front or their region's back."), SYSTEM)]

    def _round_text(self, state: State) -> str:
        solo = state["solo"]
        photos = [self.photo_of(state, s) for s in state["active"]]
        if solo is not None:
            where = PHOTO_NAMES[photos[0]]
            if solo["level"] is None:
                return _("Practice: rebuild the scrambled {photo} photo (any turn of the whole photo counts).",
                         photo=where)
            what = _("puzzle {number}", number=solo["number"]) if solo["number"] else _("a fresh puzzle")
            red = _("red cards allowed") if solo["red"] else _("red cards not allowed")
            return _("{level}, {puzzle} ({photo}): par {par}, {red}.", level=LEVEL_NAMES[solo["level"]],
                     puzzle=what, photo=where, par=self._par_text(solo["par"]), red=red)
        if state["decider"]:
            head = _("Tie: {players} play again", players=seats_text(state["active"]))
        elif state["rounds"] > 1:
            head = _("Round {round} of {rounds}", round=state["round"] + 1, rounds=state["rounds"])
        else:
            head = _("The voyage begins")
        if len(set(photos)) == 1:
            return _("{head}: everyone rebuilds the {photo} photo.", head=head, photo=PHOTO_NAMES[photos[0]])
        each = join([_("{player} rebuilds {photo}", player=seat_tag(s), photo=PHOTO_NAMES[p])
                     for s, p in zip(state["active"], photos, strict=True)], ", ")
        return _("{head}: {who}.", head=head, who=each)

    @staticmethod
    def _par_text(par: dict) -> str:
        turns, cards = par["turns"], par["cards"]
        return join((ngettext("{n} turn", "{n} turns", turns), ngettext("{n} card", "{n} cards", cards)), ", ")

    def photo_of(self, state: State, seat: int) -> str:
        """The photo ``seat`` rebuilds this round: the polar front, or the back of the set in front of them
        (the sets move one seat on every round)."""
        side = state["sides"][seat]
        if side != "back":
            return "polar"
        if state["options"]["photo"] in REGIONS:
            return state["options"]["photo"]
        n = state["players"]
        return state["regions"][(seat + state["round"]) % n]

    def _full_hand(self, state: State) -> list[str]:
        red = not state["options"]["no_red"]
        if state["solo"] is not None:
            red = state["solo"]["red"]
        return [c for c in CARDS if red or c not in RED]

    def _start_round(self, state: State, active: list[int], events: list[Event]) -> None:
        """Stage A: a scrambled puzzle and a full hand for every player of the round."""
        rng = Rng(state)
        state["active"] = list(active)
        solo = state["solo"]
        for seat in active:
            if solo is not None and solo["level"] is not None:
                puzzle = self._solo_puzzle(state, rng)
                tiles = puzzle["tiles"]
            else:
                tiles = self._scramble(rng, any_rotation=solo is not None)
            state["puzzles"][seat] = [list(p) for p in tiles]
            state["hands"][seat] = self._full_hand(state)
        state["turn"] = 0
        self._next_turn(state)
        events.append(Event(self._round_text(state), SYSTEM))

    def _solo_puzzle(self, state: State, rng: Rng) -> dict:
        solo = state["solo"]
        if solo["number"]:
            puzzle = shipped_puzzles()[solo["level"]][solo["number"] - 1]
        else:
            puzzle = generate(solo["level"], rng)
        solo["par"] = dict(puzzle["par"])
        solo["red"] = puzzle["red"] and not state["options"]["no_red"]
        solo["plan"] = [[list(p) for p in program] for program in puzzle["solution"]] if solo["red"] or not any(
            p[1] in RED for program in puzzle["solution"] for p in program) else None
        return puzzle

    @staticmethod
    def _scramble(rng: Rng, any_rotation: bool) -> list[list[int]]:
        """Tiles shuffled and turned every which way (never the solved photo)."""
        while True:
            tiles = list(CELLS)
            rng.shuffle(tiles)
            pairs = [[t, rng.below(4)] for t in tiles]
            if not is_solved(from_pairs(pairs), any_rotation):
                return pairs

    def _next_turn(self, state: State) -> None:
        state["turn"] += 1
        state["stage"] += 1
        n = state["players"]
        state["programs"] = [[None] * 9 for _step in range(n)]
        state["steps"] = [None] * n
        state["locked"] = [False] * n
        state["starter"] = None
        if state["solo"] is not None:
            state["solo"]["hints"] = []

    # --- helpers -------------------------------------------------------------------------------------
    def _in_play(self, state: State) -> list[int]:
        return [s for s in state["active"] if not state["left"][s]]

    def _any_rotation(self, state: State) -> bool:
        return state["solo"] is not None

    # --- the protocol --------------------------------------------------------------------------------
    def to_act(self, state: State) -> frozenset[int]:
        phase = state["phase"]
        if phase == "side":
            return frozenset(s for s in range(state["players"]) if not state["left"][s] and state["sides"][s] is None)
        if phase == "program":
            return frozenset(s for s in self._in_play(state) if not state["locked"][s])
        return frozenset()

    def actions(self, state: State, seat: int) -> list[Action]:
        if state["phase"] == "side":
            region = PHOTO_NAMES[state["regions"][seat]]
            return [Action("front", _("Polar region (front)"), "primary", "side"),
                    Action("back", _("{region} (back, fisheye)", region=region), "secondary", "side")]
        program = tuple(None if e is None else tuple(e) for e in state["programs"][seat])
        step = state["steps"][seat]
        if step is None:
            return list(_frame_actions(program, self._hint_available(state), self._lock_label(state)))
        cell = step["cell"]
        if step.get("card") is None:
            return list(_card_actions(program, cell, tuple(state["hands"][seat])))
        return list(_direction_actions(cell, step["card"]))

    def _lock_label(self, state: State) -> str:
        if len(self._in_play(state)) == 1 or state["starter"] is not None:
            return _("Lock in")
        if state["options"]["no_timer"]:
            return _("Lock in: stop everyone")
        if state.get("paced"):  # a turn-based table's sand runs a fifth of its pace (docs/rules 7b)
            return _("Lock in and turn the sand timer")
        return _("Lock in and turn the sand timer ({seconds} s)", seconds=state["options"]["timer"])

    def _hint_available(self, state: State) -> bool:
        solo = state["solo"]
        if solo is None:
            return False
        if solo["plan"] is None:
            return True
        return bool(solo["plan"]) and len(solo["hints"]) < len(solo["plan"][0])

    def play(self, state: State, seat: int, key: str, events: list[Event]) -> None:
        if state["phase"] == "side":
            state["sides"][seat] = key
            if key == "front":
                said = _("{player} takes the polar front.", player=seat_tag(seat))
            else:
                said = _("{player} takes the back.", player=seat_tag(seat))
            events.append(Event(said, seat))
            self._maybe_start(state, events)
            return
        program = state["programs"][seat]
        step = state["steps"][seat]
        if key == "lock":
            self._lock(state, seat, events)
        elif key == "clear":
            state["programs"][seat] = [None] * 9
        elif key == "hint":
            self._hint(state, seat, events)
        elif key == "back":
            state["steps"][seat] = None if step.get("card") is None else {"cell": step["cell"]}
        elif key == "x":
            program[step["cell"]] = None
            state["steps"][seat] = None
        elif key[0] == "c":
            state["steps"][seat] = {"cell": int(key[1:])}
        elif key[0] == "k":
            card = key[1:]
            if card in DIRECTIONS:
                state["steps"][seat] = {"cell": step["cell"], "card": card}
            else:
                program[step["cell"]] = [card, None]
                state["steps"][seat] = None
        elif key[0] == "d":
            program[step["cell"]] = [step["card"], key[1:]]
            state["steps"][seat] = None
        else:  # pragma: no cover - the keys above are all that is offered
            raise RulesError(_("Unknown action."))

    def _maybe_start(self, state: State, events: list[Event]) -> None:
        if state["phase"] == "side" and all(state["sides"][s] is not None or state["left"][s]
                                            for s in range(state["players"])):
            state["phase"] = "program"
            self._start_round(state, self.remaining(state), events)

    # --- stage B ---------------------------------------------------------------------------------------
    def _lock(self, state: State, seat: int, events: list[Event]) -> None:
        state["locked"][seat] = True
        state["steps"][seat] = None
        alone = len(self._in_play(state)) == 1
        if state["starter"] is None:
            state["starter"] = seat
            if alone:
                events.append(Event(_("{player} locks in.", player=seat_tag(seat)), seat))
            elif state["options"]["no_timer"]:
                events.append(Event(_("{player} locks in and shouts \"Stop!\": every program freezes.",
                                      player=seat_tag(seat)), seat))
                self._freeze_all(state)
            elif state.get("paced"):
                events.append(Event(_("{player} locks in and turns the sand timer.", player=seat_tag(seat)), seat))
            else:
                events.append(Event(_("{player} locks in and turns the sand timer ({seconds} s).",
                                      player=seat_tag(seat), seconds=state["options"]["timer"]), seat))
        else:
            events.append(Event(_("{player} locks in.", player=seat_tag(seat)), seat))
        self._maybe_run(state, events)

    def _freeze_all(self, state: State) -> None:
        for s in self._in_play(state):
            state["locked"][s] = True
            state["steps"][s] = None

    def _maybe_run(self, state: State, events: list[Event]) -> None:
        if state["phase"] == "program" and all(state["locked"][s] for s in self._in_play(state)):
            self._reconstruct(state, events)

    def timer(self, state: State) -> tuple[str, float] | None:
        """The sand timer, from the first lock-in until stage B ends (none without a timer)."""
        if (state["phase"] != "program" or state["starter"] is None or state["options"]["no_timer"]
                or not self.to_act(state)):
            return None
        return f"{TIMER_NAME}{state['stage']}", float(state["options"]["timer"])

    def on_timer(self, state: State, name: str, events: list[Event]) -> None:
        events.append(Event(_("The sand runs out: every program freezes."), SYSTEM))
        self._freeze_all(state)
        self._maybe_run(state, events)

    # --- hints (solo) ------------------------------------------------------------------------------------
    def _hint(self, state: State, seat: int, events: list[Event]) -> None:
        solo = state["solo"]
        if solo["plan"] is None:
            arr = from_pairs(state["puzzles"][seat])
            hand = state["hands"][seat]
            found = plan(arr, hand, red=solo["red"], red_left=[c for c in RED if c in hand])
            solo["plan"] = [[list(p) for p in program] for program in found] if found else []
        if not solo["plan"]:
            events.append(Event(_("No hint could be found for this puzzle."), seat))
            return
        cell, card, direction = solo["plan"][0][len(solo["hints"])]
        solo["hints"].append([cell, card, direction])
        solo["hints_used"] += 1
        events.append(Event(_("{player} takes a hint ({n} so far).", player=seat_tag(seat), n=solo["hints_used"]),
                            seat))

    def _advance_plan(self, state: State, seat: int, played: list, before, after) -> None:
        """After a turn: the plan goes on if the turn did what its first program does and its red cards are
        still there; otherwise a new one is found when the next hint is asked."""
        solo = state["solo"]
        if not solo["plan"]:
            solo["plan"] = None
            return
        first = [tuple(p) for p in solo["plan"][0]]
        rest = solo["plan"][1:]
        expected = before
        for cell, card, direction in first:
            expected = apply_card(expected, cell, card, direction)
        hand = state["hands"][seat]
        reds_needed = [p[1] for program in rest for p in program if p[1] in RED]
        if expected == after and all(c in hand for c in reds_needed):
            solo["plan"] = rest or None
        else:
            solo["plan"] = None

    # --- stage C -----------------------------------------------------------------------------------------
    def _reconstruct(self, state: State, events: list[Event]) -> None:
        """Stage C: every program runs, starting with the player who turned the timer, then the assessment."""
        in_play = self._in_play(state)
        n = state["players"]
        first = state["starter"] if state["starter"] in in_play else None
        if first is None:
            first = in_play[0]
        order = [s for s in ((first + i) % n for i in range(n)) if s in in_play]
        runs = []
        any_rotation = self._any_rotation(state)
        for seat in order:
            program = state["programs"][seat]
            before = from_pairs(state["puzzles"][seat])
            arr = before
            steps = []
            texts = []
            for cell, card, direction in program_placements(program):
                after = apply_card(arr, cell, card, direction)
                effect = after != arr
                steps.append({"cell": cell, "card": card, "dir": direction, "effect": effect})
                said = placement_text(cell, card, direction)
                texts.append(said if effect else _("{placement} (no effect)", placement=said))
                arr = after
            solved = is_solved(arr, any_rotation)
            state["puzzles"][seat] = to_pairs(arr)
            played_red = [e[0] for e in program if e is not None and e[0] in RED]
            for card in played_red:
                state["hands"][seat].remove(card)
            run = {"seat": seat, "photo": self.photo_of(state, seat),
                   "program": [None if e is None else {"card": e[0], "dir": e[1]} for e in program],
                   "before": to_pairs(before), "after": to_pairs(arr), "steps": steps,
                   "cards": len(steps), "solved": solved, "red_discarded": played_red}
            runs.append(run)
            what = join(texts, "; ") if texts else _("no card")
            outcome = _("rebuilt!") if solved else _("not yet.")
            events.append(Event(ngettext("{player} runs {n} card ({cards}): {outcome}",
                                         "{player} runs {n} cards ({cards}): {outcome}", len(steps),
                                         player=seat_tag(seat), cards=what, outcome=outcome), seat))
            if state["solo"] is not None:
                solo = state["solo"]
                solo["turns"] += 1
                solo["cards"] += len(steps)
                solo["solved"] = solved
                if not solved:
                    self._advance_plan(state, seat, program_placements(program), before, arr)
        state["last_run"] = {"stage": state["stage"], "round": state["round"] + 1, "turn": state["turn"],
                             "starter": state["starter"], "runs": runs}
        self._assess(state, [r["seat"] for r in runs if r["solved"]], {r["seat"]: r["cards"] for r in runs},
                     events)

    def _assess(self, state: State, solved: list[int], cards: dict[int, int], events: list[Event]) -> None:
        if solved:
            tied, why = self._tiebreak(state, solved, cards)
            if len(tied) == 1:
                self._round_won(state, tied[0], why, events)
            else:
                names = seats_text(tied)
                events.append(Event(_("{players} are still tied after every tiebreaker: they play again.",
                                      players=names), SYSTEM))
                state["decider"] += 1
                self._start_round(state, tied, events)
            return
        if state["turn"] >= state["options"]["turn_limit"]:
            self._round_drawn(state, events)
            return
        self._next_turn(state)
        events.append(Event(_("Nobody has rebuilt their photo: turn {turn} begins (red cards played are gone).",
                              turn=state["turn"]), SYSTEM))

    def _tiebreak(self, state: State, solved: list[int], cards: dict[int, int]) -> tuple[list[int], str | None]:
        """The rules' tiebreakers in order: most red cards left, fewest cards in the final turn, who turned
        the sand timer. Returns the seats still tied and the tiebreaker that decided (None: no tie)."""
        if len(solved) == 1:
            return solved, None
        reds = {s: sum(c in RED for c in state["hands"][s]) for s in solved}
        most = max(reds.values())
        tied = [s for s in solved if reds[s] == most]
        if len(tied) == 1:
            return tied, TIEBREAKS["reds"]
        fewest = min(cards[s] for s in tied)
        tied = [s for s in tied if cards[s] == fewest]
        if len(tied) == 1:
            return tied, TIEBREAKS["cards"]
        if state["starter"] in tied:
            return [state["starter"]], TIEBREAKS["starter"]
        return tied, None

    def _round_won(self, state: State, seat: int, why: str | None, events: list[Event]) -> None:
        state["wins"][seat] += 1
        photo = PHOTO_NAMES[self.photo_of(state, seat)]
        turns = state["turn"]
        if state["solo"] is not None:
            said = ngettext("{player} rebuilds the {photo} photo in {n} turn!",
                            "{player} rebuilds the {photo} photo in {n} turns!", turns, player=seat_tag(seat),
                            photo=photo)
        elif why:
            said = _("{player} rebuilds the {photo} photo first (tiebreaker: {why})!", player=seat_tag(seat),
                     photo=photo, why=why)
        else:
            said = _("{player} rebuilds the {photo} photo first!", player=seat_tag(seat), photo=photo)
        events.append(Event(said, seat))
        self._log_round(state, seat, why)
        self._next_round(state, events)

    def _round_drawn(self, state: State, events: list[Event]) -> None:
        limit = state["options"]["turn_limit"]
        if state["solo"] is not None:
            said = ngettext("Nobody rebuilt their photo in {n} turn: the puzzle stays unsolved.",
                            "Nobody rebuilt their photo in {n} turns: the puzzle stays unsolved.", limit)
        else:
            said = ngettext("Nobody rebuilt their photo in {n} turn: nobody wins this round.",
                            "Nobody rebuilt their photo in {n} turns: nobody wins this round.", limit)
        events.append(Event(said, SYSTEM))
        self._log_round(state, None, None)
        self._next_round(state, events)

    def _log_round(self, state: State, winner: int | None, why: str | None) -> None:
        state["travel_log"].append({
            "round": state["round"] + 1, "winner": winner, "turns": state["turn"],
            "tiebreak": str.__str__(why) if why else None,  # the English words: a key of TIEBREAKS
            "deciders": state["decider"],
            "photos": {str(s): self.photo_of(state, s) for s in state["active"]},
        })

    def _next_round(self, state: State, events: list[Event]) -> None:
        state["round"] += 1
        state["decider"] = 0
        if state["round"] >= state["rounds"] or (state["players"] > 1 and len(self.remaining(state)) < 2):
            self._finish(state, events)
            return
        self._start_round(state, self.remaining(state), events)

    def _finish(self, state: State, events: list[Event]) -> None:
        state["phase"] = "over"
        state["round"] = min(state["round"], state["rounds"] - 1)
        state["programs"] = [[None] * 9 for _step in range(state["players"])]
        state["steps"] = [None] * state["players"]
        events.append(Event(_("The voyage is over."), SYSTEM))

    # --- absent and departing players ----------------------------------------------------------------
    def on_leave(self, state: State, seat: int, events: list[Event]) -> None:
        """The game goes on without them: their program is dropped and they win no more rounds. A multiplayer
        game with one player left ends; a tie-break round with one player left is theirs."""
        events.append(Event(left_the_game(seat), SYSTEM))
        state["programs"][seat] = [None] * 9
        state["steps"][seat] = None
        remaining = self.remaining(state)
        if not remaining or (state["players"] > 1 and len(remaining) < 2):
            self._finish(state, events)
            return
        if state["phase"] == "side":
            self._maybe_start(state, events)
            return
        in_play = self._in_play(state)
        if state["decider"] and len(in_play) == 1:
            self._round_won(state, in_play[0], TIEBREAKS["left"], events)
            return
        if not in_play:
            self._round_drawn(state, events)
            return
        self._maybe_run(state, events)

    def on_timeout(self, state: State, seat: int, events: list[Event]) -> None:
        """The table stops the idle player: a side not chosen is the polar front; in stage B their program is
        locked in as it stands (a card choice in progress is dropped). This does not turn the sand timer; when
        everyone is locked in, stage C runs."""
        events.append(Event(_("{player} ran out of time.", player=seat_tag(seat)), SYSTEM))
        if state["phase"] == "side":
            state["sides"][seat] = "front"
            self._maybe_start(state, events)
            return
        state["locked"][seat] = True
        state["steps"][seat] = None
        self._maybe_run(state, events)

    # --- what players see ----------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict:
        """Public: every puzzle, photo, hand (cards still held), lock-in, the sand timer, the last stage C, the
        travel log. Secret: a player's program and the step in progress, only in their own view."""
        n = state["players"]
        any_rotation = self._any_rotation(state)
        running = self.timer(state)
        view = {
            "game": self.slug,
            "players": n,
            "phase": state["phase"],
            "to_act": sorted(self.to_act(state)),
            "round": state["round"] + 1,
            "rounds": state["rounds"],
            "decider": state["decider"],
            "turn": state["turn"],
            "turn_limit": state["options"]["turn_limit"],
            "active": list(state["active"]),
            "photos": [{"photo": self.photo_of(state, s), "side": state["sides"][s],
                        "name": PHOTO_NAMES[self.photo_of(state, s)]} for s in range(n)],
            "puzzles": [None if p is None else [list(t) for t in p] for p in state["puzzles"]],
            "solved": [p is not None and is_solved(from_pairs(p), any_rotation) for p in state["puzzles"]],
            "any_rotation": any_rotation,
            "hands": [list(h) for h in state["hands"]],
            "red_left": [sum(c in RED for c in h) for h in state["hands"]],
            "locked": list(state["locked"]),
            "starter": state["starter"],
            "timer": {"name": running[0], "seconds": running[1]} if running else None,
            "no_timer": state["options"]["no_timer"],
            "timer_seconds": state["options"]["timer"],
            "paced": bool(state.get("paced")),
            "wins": list(state["wins"]),
            "travel_log": copy_state(state["travel_log"]),
            "last_run": self._last_run_view(state["last_run"]),
            "left": list(state["left"]),
            "solo": None,
        }
        solo = state["solo"]
        if solo is not None:
            view["solo"] = {"level": solo["level"], "level_name": LEVEL_NAMES.get(solo["level"], _("Practice")),
                            "number": solo["number"], "par": dict(solo["par"]) if solo["par"] else None,
                            "red": solo["red"], "hints_used": solo["hints_used"], "turns": solo["turns"],
                            "cards": solo["cards"], "solved": solo["solved"]}
        if state["phase"] == "over":
            view["winners"] = list(self.result(state).winners)
        if seat is not None and 0 <= seat < n:
            view["seat"] = seat
            view["program"] = [None if e is None else {"card": e[0], "dir": e[1]} for e in state["programs"][seat]]
            step = state["steps"][seat]
            view["step"] = dict(step) if step else None
            if solo is not None:
                view["solo"]["hints"] = [{"cell": c, "card": k, "dir": d} for c, k, d in solo["hints"]]
        return view

    @staticmethod
    def _run_view(run: dict) -> dict:
        """A program's run as shown: with ``frames``, the puzzle before and after each card (for an animation)."""
        out = copy_state(run)
        arr = from_pairs(run["before"])
        frames = [to_pairs(arr)]
        for step in run["steps"]:
            arr = apply_card(arr, step["cell"], step["card"], step["dir"])
            frames.append(to_pairs(arr))
        out["frames"] = frames
        return out

    def _last_run_view(self, last: dict | None) -> dict | None:
        if last is None:
            return None
        return {**{k: v for k, v in last.items() if k != "runs"}, "runs": [self._run_view(r) for r in last["runs"]]}

    def announcements(self, before: State, after: State) -> list[dict]:
        """A stage C: one message for every program run, side by side in one animation (the puzzles before and
        after and every step), posted above the board (``before_board``), so the board stays at the bottom."""
        run = after["last_run"]
        if run is None or (before["last_run"] is not None and before["last_run"]["stage"] == run["stage"]):
            return []
        runs = [self._run_view(r) for r in sorted(run["runs"], key=lambda r: r["seat"])]
        said = [ngettext("**Turn {turn}: the program run.**", "**Turn {turn}: the programs run.**", len(runs),
                         turn=run["turn"])]
        for r in sorted(run["runs"], key=lambda r: r["seat"]):
            steps = [placement_text(s["cell"], s["card"], s["dir"]) for s in r["steps"]]
            steps = [p if s["effect"] else _("{placement} (no effect)", placement=p)
                     for p, s in zip(steps, r["steps"], strict=True)]
            cards = join(steps, "; ") if steps else _("no card")
            result = _("rebuilt!") if r["solved"] else _("not yet rebuilt")
            said.append(_("{player}'s program: {cards}. {result}", player=seat_tag(r["seat"]), cards=cards,
                          result=result))
        return [{"text": join(said, "\n"),
                 "card": {"kind": "runs", "stage": run["stage"], "turn": run["turn"], "runs": runs},
                 "before_board": True}]

    def secret_variants(self, state: State, seat: int | None, rng) -> list[State]:
        """Other players' programs (and the choices they are making) replaced by random ones."""
        if state["phase"] != "program":
            return []
        others = [s for s in self._in_play(state) if s != seat]
        if not others:
            return []
        variants = []
        for _step in range(3):
            new = copy.deepcopy(state)
            for s in others:
                hand = list(new["hands"][s])
                rng.shuffle(hand)
                cells = rng.sample(list(CELLS), rng.randrange(0, min(len(hand), 9) + 1))
                program = [None] * 9
                red_used = False
                for cell, card in zip(cells, hand, strict=False):
                    if card in RED:
                        if red_used:
                            continue
                        red_used = True
                    dirs = DIRECTIONS.get(card)
                    program[cell] = [card, rng.choice(dirs) if dirs else None]
                new["programs"][s] = program
                new["steps"][s] = rng.choice([None, {"cell": rng.randrange(9)},
                                              {"cell": rng.randrange(9), "card": "b1"}])
            variants.append(new)
        return variants

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        scores = list(self.scores_now(state))
        detail = {"travel_log": copy.deepcopy(state["travel_log"]), "wins": list(state["wins"])}
        if state["solo"] is not None:
            solo = state["solo"]
            detail["solo"] = {k: solo[k] for k in ("level", "number", "par", "red", "hints_used", "turns", "cards",
                                                   "solved")}
        # nobody won when no photo was rebuilt (solo: the puzzle stays unsolved), not a shared victory; but the
        # one player left when the others left wins
        remaining = self.remaining(state)
        nobody = not any(scores) and (state["solo"] is not None or len(remaining) != 1)
        return Result(tuple(scores), rank_by_score(scores, remaining), detail, no_winner=nobody)

    def scores_now(self, state: State) -> tuple[int, ...]:
        """Photos rebuilt (solo: 1 once the puzzle is solved)."""
        if state["solo"] is not None:
            return (1 if state["solo"]["solved"] else 0,)
        return tuple(state["wins"])

    def progress(self, state: State) -> Text | None:
        """ "Round 2 of 3, turn 4 of 10"; solo: the level and its puzzle ("Tourist ★, puzzle 3 of 10")."""
        if state["phase"] == "over":
            return None
        turn = _("turn {turn} of {limit}", turn=state["turn"], limit=state["options"]["turn_limit"])
        solo = state["solo"]
        if solo is not None:
            if solo["level"] is None:
                return _("Practice, {turn}", turn=turn)
            what = (_("puzzle {number} of {total}", number=solo["number"], total=PUZZLES_PER_LEVEL)
                    if solo["number"] else _("a fresh puzzle"))
            return _("{level}, {puzzle}, {turn}", level=LEVEL_NAMES[solo["level"]], puzzle=what, turn=turn)
        if state["decider"]:
            return _("Tie-break, {turn}", turn=turn)
        if state["rounds"] > 1:
            return _("Round {round} of {rounds}, {turn}", round=state["round"] + 1, rounds=state["rounds"], turn=turn)
        return _("Turn {turn} of {limit}", turn=state["turn"], limit=state["options"]["turn_limit"])

    def position(self, state: State) -> Text:
        """Per player of the round: the photo they rebuild, how many of its nine tiles sit right, the cards
        left in hand and whether they locked in; the rounds won."""
        any_rotation = self._any_rotation(state)
        targets = TARGETS_ANY if any_rotation else TARGETS_UPRIGHT
        said = [] if state["solo"] is not None else [scores_words(self.scores_now(state))]
        for seat in state["active"]:
            if state["puzzles"][seat] is None or state["left"][seat]:
                continue
            tiles = from_pairs(state["puzzles"][seat])
            right = max(sum(a == b for a, b in zip(tiles, target, strict=True)) for target in targets)
            sentence = (N_("{player} rebuilds the {photo} photo: {right} of 9 tiles in place, {cards} left, locked in.")
                        if state["locked"][seat] else
                        N_("{player} rebuilds the {photo} photo: {right} of 9 tiles in place, {cards} left."))
            said.append(_(sentence, player=seat_tag(seat), photo=PHOTO_NAMES[self.photo_of(state, seat)], right=right,
                          cards=ngettext("{n} card", "{n} cards", len(state["hands"][seat]))))
        return join(said)

    def result_lines(self, state: State) -> list[str]:
        if state["phase"] != "over":
            return []
        solo = state["solo"]
        if solo is not None:
            if not solo["solved"]:
                return [_("{player} did not rebuild the photo ({n} turns played).", player=seat_tag(0),
                          n=solo["turns"])]
            said = {"player": seat_tag(0), "turns": ngettext("{n} turn", "{n} turns", solo["turns"]),
                    "cards": ngettext("{n} card", "{n} cards", solo["cards"]),
                    "hints": ngettext("{n} hint", "{n} hints", solo["hints_used"])}
            if solo["par"]:
                par = solo["par"]
                made = solo["turns"] <= par["turns"] and solo["cards"] <= par["cards"]
                said.update(par=self._par_text(par), verdict=_("made it") if made else _("over par"))
                if solo["hints_used"]:
                    return [_("{player} rebuilt the photo in {turns} with {cards} (par {par}: {verdict}), {hints}.",
                              **said)]
                return [_("{player} rebuilt the photo in {turns} with {cards} (par {par}: {verdict}).", **said)]
            if solo["hints_used"]:
                return [_("{player} rebuilt the photo in {turns} with {cards}, {hints}.", **said)]
            return [_("{player} rebuilt the photo in {turns} with {cards}.", **said)]
        lines = []
        for entry in state["travel_log"]:
            if entry["winner"] is None:
                line = _("nobody rebuilt their photo.")
            else:
                photo = PHOTO_NAMES[entry["photos"][str(entry["winner"])]]
                seat = seat_tag(entry["winner"])
                why = tiebreak_text(entry["tiebreak"]) if entry["tiebreak"] else None
                line = _("{player} rebuilt the {photo} photo in turn {turn}, tiebreaker: {why}.", player=seat,
                         photo=photo, turn=entry["turns"], why=why) if why else \
                    _("{player} rebuilt the {photo} photo in turn {turn}.", player=seat, photo=photo,
                      turn=entry["turns"])
            lines.append(_("Round {round}: {result}", round=entry["round"], result=line) if state["rounds"] > 1
                         else line)
        if state["rounds"] > 1:
            wins = join([_("{player} {n}", player=seat_tag(s), n=w) for s, w in enumerate(state["wins"])], ", ")
            lines.append(_("Round wins: {wins}.", wins=wins))
        return lines
