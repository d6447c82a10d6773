"""The engine protocol every game implements, plus the pieces all engines share.

A game is an :class:`Engine` subclass. Its state is plain JSON data (dicts, lists, ints, strings, bools)
so that storing, comparing and replaying it is trivial and exact. Every function is pure: ``apply``
returns a new state and never touches the one it was given.

Seats are the integers ``0 .. players-1`` in turn order as seated. ``SYSTEM`` is the seat that performs
time-driven transitions (a turn timeout) and moderator actions (removing a player); those are logged and
replayed like any other action, so the action log alone rebuilds every game.
"""

from __future__ import annotations

import hashlib
import json
import marshal
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from i18n import Text, _, join, ngettext, number, pgettext

SYSTEM = -1
"""The seat of the table itself: timeouts and moderator removals are actions of this seat."""

State = dict[str, Any]


class RulesError(Exception):
    """An action the rules do not allow. The message is a sentence a player understands."""


@dataclass(frozen=True)
class Action:
    """One legal action of one seat.

    ``key`` is short (it travels inside a Discord custom_id); ``label`` is what the button says.
    ``style`` is a hint for the UI: "primary", "secondary", "success" or "danger".
    ``group`` lets a UI gather many actions into one menu (e.g. "target").
    ``secret`` marks an action whose label reveals hidden information (a card in hand): it is only ever
    offered to its seat in a private (ephemeral) message.
    """

    key: str
    label: str
    style: str = "secondary"
    group: str = ""
    emoji: str = ""
    secret: bool = False


@dataclass(frozen=True)
class Event:
    """Something that happened, for the log line. ``text`` may name seats as ``{p0}``, ``{p1}``..."""

    text: str
    seat: int = SYSTEM


@dataclass(frozen=True)
class Option:
    """A game option chosen at /play time (a variant or a setting)."""

    name: str
    description: str
    default: int | str | bool
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None
    label: str = ""
    """Its short name in the lobby's words ("Turns: 5"; ``Engine.option_words``); none: as /play calls it."""

    def validate(self, value: Any) -> Any:
        name = option_word(self.name)
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise RulesError(_("Option {option} must be true or false.", option=name))
        elif isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(_("Option {option} must be a whole number.", option=name))
            if self.minimum is not None and value < self.minimum:
                raise RulesError(_("Option {option} must be at least {minimum}.", option=name,
                                   minimum=self.minimum))
            if self.maximum is not None and value > self.maximum:
                raise RulesError(_("Option {option} must be at most {maximum}.", option=name,
                                   maximum=self.maximum))
        if self.choices and value not in self.choices:
            raise RulesError(_("Option {option} must be one of {choices}.", option=name,
                               choices=join([option_value(c) for c in self.choices], ", ")))
        return value


def option_word(name: str) -> Text:
    """An option's name as /play shows it in the reader's language (the ``commands`` catalog's)."""
    return Text(name, context="option name")


@dataclass(frozen=True)
class Result:
    """Final standings: ``scores[seat]``, and ``ranking`` as groups of tied seats, best first.

    ``no_winner``: nobody won (Globe Twister: no photo rebuilt); the first group is then only the best placed,
    not winners, and ``winners`` is empty."""

    scores: tuple[int | float, ...]
    ranking: tuple[tuple[int, ...], ...]
    detail: dict = field(default_factory=dict)
    no_winner: bool = False

    @property
    def winners(self) -> tuple[int, ...]:
        return () if self.no_winner or not self.ranking else self.ranking[0]


def rank_by_score(scores: list[int | float], eligible: list[int] | None = None,
                  teams: list[list[int]] | None = None) -> tuple[tuple[int, ...], ...]:
    """Groups seats by score, highest first; equal scores share a place (the rules' shared victory).

    Seats not in ``eligible`` (players who left) are ranked after everyone else, in their own groups. With
    ``teams`` (lists of seats sharing one score) a team ranks as one: it stays in play while any partner
    does, and its seats always share a group.
    """
    units = [tuple(t) for t in teams] if teams else [(s,) for s in range(len(scores))]
    playing = set(range(len(scores)) if eligible is None else eligible)
    groups: list[tuple[int, ...]] = []
    for pool in ([u for u in units if playing & set(u)], [u for u in units if not playing & set(u)]):
        for value in sorted({scores[u[0]] for u in pool}, reverse=True):
            groups.append(tuple(sorted(s for u in pool if scores[u[0]] == value for s in u)))
    return tuple(groups)


# --------------------------------------------------------------------------------------------- randomness
class Rng:
    """A seeded generator whose sequence is defined here, not by Python's ``random`` (which may change).

    The state keeps ``(seed, counter)``; each draw hashes both, so the stream is reproducible forever and
    unaffected by anything else in the process.
    """

    def __init__(self, state: State):
        self._state = state

    def _next64(self) -> int:
        counter = self._state["rng"]
        self._state["rng"] = counter + 1
        digest = hashlib.blake2b(f"{self._state['seed']}:{counter}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling keeps it unbiased)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self._next64()
            if value < limit:
                return value % n

    def choice(self, items: list | tuple):
        return items[self.below(len(items))]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def uniform(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self._next64() >> 11) / float(1 << 53)


# --------------------------------------------------------------------------------------------- engines
def copy_state(state: State) -> State:
    """A deep copy of a state. States are plain data (dicts, lists, strings, numbers, booleans, None), which a
    marshal round trip copies exactly and many times faster than ``copy.deepcopy`` (random playouts in the
    tests apply hundreds of thousands of actions)."""
    return marshal.loads(marshal.dumps(state))


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)



def option_value(value: Any) -> str:
    """An option's value in the lobby's words: yes/no said in the language, a choice as /play names it."""
    if isinstance(value, bool):
        return pgettext("option value", "true") if value else pgettext("option value", "false")
    return Text(value, context="choice name") if isinstance(value, str) else str(value)

def option_state(value: Any) -> str:
    """An option's value in a sentence: a switch on or off, a choice as /play names it, a number."""
    if isinstance(value, bool):
        return pgettext("option value", "on") if value else pgettext("option value", "off")
    return option_value(value)


class Engine(ABC):
    """Base class of every game: subclasses set the class attributes and implement the abstract methods.

    Common mechanics live here so each game writes only its rules: departures, timeouts and timers arrive
    as SYSTEM actions with keys ``leave:<seat>`` (the player left), ``remove:<seat>`` (a moderator removed
    them), ``timeout:<seat>`` and ``timer:<name>``, and are passed to ``on_leave`` (both departures),
    ``on_timeout`` and ``on_timer``. A removal is recorded in ``state["removed"]``, and a departure that ends
    the game in ``state["ended_by"]`` (its key), so the end can say so (keys only present once it happened,
    so states of games without them are unchanged). ``handover:<seat>``: a computer takes the seat over (its
    player left or was removed, and the table hands seats to computers); the game goes on unchanged, the seat
    is recorded in ``state["handed_over"]`` and the bot seats the computer (bot/computers.py).
    """

    slug: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    schema: ClassVar[int] = 1
    private_label: ClassVar[str] = ""
    """Games with secret information name the button that shows a player their own part ("My hand")."""
    accent: ClassVar[int] = 0x56B4E9
    """The game's colour (0xRRGGBB): the stripe beside its table messages (bot/ui/layout.py)."""
    group_noun: ClassVar[str] = "choice"
    """What one action of a group is called when a long list is offered group by group ("shape")."""

    def group_size(self, n: int) -> Text:
        """How many actions a group holds, on its button ("3 choices"): a plural each language forms itself."""
        return ngettext("{n} choice", "{n} choices", n)

    # --- identity and options ------------------------------------------------------------------------
    def normalise_options(self, given: dict | None) -> dict:
        given = dict(given or {})
        unknown = set(given) - {o.name for o in self.options}
        if unknown:
            raise RulesError(_("Unknown option: {options}.", options=", ".join(sorted(unknown))))
        return {o.name: o.validate(given.get(o.name, o.default)) for o in self.options}

    def notice(self, state: State) -> str | None:
        """A warning for the table's status line (e.g. "the round ends in 2 turns unless ..."); None: none."""
        return None

    def describe_options(self, options: dict, players: int) -> list[str]:
        """The options in words for the lobby ("turns = 3"), with defaults resolved for ``players``: each name
        as /play's option is called in the reader's Discord ("züge = 3"), a choice's value as its choice."""
        return [join([Text(k, context="option name"), "=", option_value(v)]) for k, v in options.items()]

    def option_words(self, options: dict, players: int) -> list[Text]:
        """The options as the lobby says them to a reader: each option's label and its value in words ("Turns:
        5", "The Long Voyage: off", a choice as /play names it), the defaults resolved for ``players``."""
        out = []
        for option in self.options:
            if option.name in options:
                out.append(_("{option}: {value}", option=option.label or Text(option.name, context="option name"),
                             value=option_state(options[option.name])))
        return out

    def check_players(self, players: int, options: dict) -> None:
        if not self.min_players <= players <= self.max_players:
            raise RulesError(_("{game} needs {low} to {high} players.", game=self.title, low=self.min_players,
                               high=self.max_players))

    # --- to implement --------------------------------------------------------------------------------
    @abstractmethod
    def setup(self, players: int, options: dict, state: State) -> None:
        """Fill a fresh ``state`` (which already has seed, rng, players, options)."""

    @abstractmethod
    def to_act(self, state: State) -> frozenset[int]:
        """The seats that may act now; empty when the game is over."""

    @abstractmethod
    def actions(self, state: State, seat: int) -> list[Action]:
        """Legal actions of ``seat`` (only called for seats in ``to_act``)."""

    @abstractmethod
    def play(self, state: State, seat: int, key: str, events: list[Event]) -> None:
        """Apply a legal action in place on a copy of the state (``key`` is already known to be legal)."""

    @abstractmethod
    def on_leave(self, state: State, seat: int, events: list[Event]) -> None:
        """``seat`` has left or was removed (already marked in ``state["left"]``): move the game on without
        them. The first event says ``"{pN} left the game"`` (a removal retells it as removed by a moderator)."""

    @abstractmethod
    def on_timeout(self, state: State, seat: int, events: list[Event]) -> None:
        """What a fair table does when ``seat`` sits idle past the turn timeout."""

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict:
        """What ``seat`` may see (``None``: a spectator)."""

    @abstractmethod
    def result(self, state: State) -> Result | None:
        """Final standings once the game is over, else None."""

    def progress(self, state: State) -> Text | None:
        """How far the game has come, for the table's header ("Round 2 of 3, turn 4", "Turn 3 of 5 each"): a
        ``Text`` (its message id and parameters; the bot says it in the reader's language), seats as {p0}...
        None: nothing to say (the game is over, or it keeps no count)."""
        return None

    def position(self, state: State) -> Text:
        """The position in words, for whoever cannot see the board (the board image's description, read by
        screen readers): the scores and the key facts of the board, seats as {p0}... Short: the bot clips it
        to Discord's 1,024 characters. By default the scores as the game keeps them."""
        scores = self.scores_now(state)
        return scores_words(scores) if scores is not None else Text("")

    def scores_now(self, state: State) -> tuple[int | float, ...] | None:
        """Each seat's score as the game stands (once it is over: the result's scores), e.g. what a player who
        leaves mid-game scored themselves before a computer takes their seat over; None: the game keeps none."""
        return None

    def timer(self, state: State) -> tuple[str, float] | None:
        """A timer the table must run now, as (name, seconds), e.g. a sand timer started by the first lock-in.
        The table schedules it when a new name appears (it survives restarts) and, when it runs out, applies
        the SYSTEM action ``timer:<name>`` (see ``on_timer``). A name must be unique within a game (e.g.
        ``"sand3"`` for round 3), so a timer that ended early is never confused with the next one."""
        return None

    def on_timer(self, state: State, name: str, events: list[Event]) -> None:
        """The running timer ``name`` ran out (only called while ``timer(state)`` names it)."""
        raise RulesError(_("This game has no timers."))

    def announcements(self, before: State, after: State) -> list[dict]:
        """What the channel should see on its own after a change, beyond the board (Geodeto: each goal card
        claimed, with its text). Each item: ``{"text": ... (seats as {p0}), "card": ... (for the renderer; the
        bot adds ``"names"``, the players' names by seat), "note": ... (optional, a line for the picture, seats
        as {p0}), "before_board": ... (optional: posted before the board, which is then posted afresh under it,
        so it stays the channel's last message: Globe Twister's run animation)}``."""
        return []

    def result_lines(self, state: State) -> list[str]:
        """The end's details in words (a score sheet), seats as {p0}..., for the final standings message."""
        return []

    def opening(self, state: State) -> list[Event]:
        """What happened while the game was set up, before anyone acted (e.g. forced steps the table played),
        for the first line of the log."""
        return []

    def grouped(self, state: State, seat: int) -> bool:
        """Whether ``seat``'s actions now are offered group by group (``Action.group``: first the group, then
        its actions) even when they would fit as buttons, because one flat list reads badly (Geodeto's first
        step: a place, then its pyramid). Longer lists than fit as buttons are grouped anyway. A group of a
        single action is offered as that action itself."""
        return False

    def focus(self, state: State, seat: int, group: str) -> dict | None:
        """What the board marks while ``seat`` picks among the actions of ``group`` (the UI offers a long list
        of actions in two steps: first their group, then the action). None: nothing to mark."""
        return None

    def seating(self, players: int) -> list[str]:
        """A short note per seat for the lobby (a team, a colour); empty strings when there is nothing to say."""
        return [""] * players

    def teams(self, players: int) -> list[list[int]] | None:
        """The seats that play as partners with ``players`` at the table (GEONEO with 4: [[0, 2], [1, 3]]), or
        None. The lobby lets players pick their partner by moving them to a partner's seat."""
        return None

    def secret_variants(self, state: State, seat: int | None, rng) -> list[State]:
        """States that differ from ``state`` only in what ``seat`` may not see (for the conformance check
        that views hide secrets). Games without secrets have none."""
        return []

    # --- the protocol, shared ------------------------------------------------------------------------
    def new(self, players: int, options: dict | None, seed: int, *, paced: bool = False) -> State:
        """A fresh game. ``paced``: a turn-based table (the bot's pace, hours or days per move) times the game's
        timers itself, so the game's words name no seconds of its options (``state["paced"]``; a live game's
        state has no such key, so the states and logs stored before it read as they did)."""
        opts = self.normalise_options(options)
        self.check_players(players, opts)
        state: State = {
            "game": self.slug,
            "schema": self.schema,
            "seed": int(seed),
            "rng": 0,
            "players": players,
            "options": opts,
            "left": [False] * players,
            "ply": 0,
        }
        if paced:
            state["paced"] = True
        self.setup(players, opts, state)
        return state

    def is_over(self, state: State) -> bool:
        return not self.to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        return self.actions(state, seat)

    def apply(self, state: State, seat: int, key: str) -> tuple[State, list[Event]]:
        """Returns the new state and what happened; raises :class:`RulesError` and leaves ``state`` alone."""
        events: list[Event] = []
        if seat == SYSTEM:
            if self.is_over(state):
                raise RulesError(_("The game is over."))
            new = copy_state(state)
            if key.startswith(("leave:", "remove:")):
                kind, _sep, seat_text = key.partition(":")
                target = _parse_seat(seat_text, state)
                if new["left"][target]:
                    raise RulesError(_("That player has already left."))
                new["left"][target] = True
                if kind == "remove":
                    new["removed"] = sorted([*new.get("removed", []), target])
                self.on_leave(new, target, events)
                if kind == "remove":
                    events[:] = _as_removal(events, target)
                if self.is_over(new):
                    new["ended_by"] = key
            elif key.startswith("handover:"):
                target = _parse_seat(key[9:], state)
                if new["left"][target]:
                    raise RulesError(_("That player has already left."))
                new["handed_over"] = sorted({*new.get("handed_over", []), target})
                events.append(Event(_("A computer takes over {player}'s seat.", player=f"{{p{target}}}")))
            elif key.startswith("timeout:"):
                target = _parse_seat(key[8:], state)
                if target not in self.to_act(state):
                    raise RulesError(_("That player is not the one to act."))
                self.on_timeout(new, target, events)
            elif key.startswith("timer:"):
                running = self.timer(state)
                if running is None or running[0] != key[6:]:
                    raise RulesError(_("No such timer is running."))
                self.on_timer(new, key[6:], events)
            else:
                raise RulesError(_("Unknown table action."))
        else:
            if self.is_over(state):
                raise RulesError(_("The game is over."))
            if seat not in self.to_act(state):
                raise RulesError(_("It is not your turn."))
            if key not in {a.key for a in self.actions(state, seat)}:
                raise RulesError(_("That move is not allowed right now."))
            new = copy_state(state)
            self.play(new, seat, key, events)
        new["ply"] = state["ply"] + 1
        return new, events

    def remaining(self, state: State) -> list[int]:
        return [s for s in range(state["players"]) if not state["left"][s]]

    def encode(self, state: State) -> str:
        return canonical_json(state)

    def decode(self, text: str) -> State:
        state = json.loads(text)
        if state.get("game") != self.slug:
            raise ValueError(f"not a {self.slug} state")
        if state.get("schema") != self.schema:
            raise ValueError(f"{self.slug} state schema {state.get('schema')} is not {self.schema}")
        return state

    def replay(self, players: int, options: dict | None, seed: int, log: list[tuple[int, str]]) -> State:
        state = self.new(players, options, seed)
        for seat, key in log:
            state, _events = self.apply(state, seat, key)
        return state


def scores_words(scores) -> Text:
    """ "Scores: {p0} 12, {p1} 7." (a half point said in the reader's way), for ``Engine.position``."""
    return _("Scores: {scores}.", scores=join([_seat_score(seat, points) for seat, points in enumerate(scores)], ", "))


def _seat_score(seat: int, points) -> Text:
    return _("{player} {points}", player=f"{{p{seat}}}", points=number(points))


def left_the_game(seat: int) -> Text:
    """ "{pN} left the game.": what every engine's ``on_leave`` opens with (alone, or first in an
    ``i18n.join``); a moderator's removal retells it (``_as_removal``)."""
    return _("{player} left the game.", player=f"{{p{seat}}}")


def removed_by_moderator(seat: int) -> Text:
    return _("{player} was removed by a moderator.", player=f"{{p{seat}}}")


def _retold(text: str, seat: int) -> str:
    """``text`` with its "{pN} left the game" told as a removal (the same text when it has none)."""
    left = left_the_game(seat)
    if isinstance(text, Text):
        if text.parts and isinstance(text.parts[0], Text) and text.parts[0].msgid == left.msgid \
                and text.parts[0] == left:
            return Text(None, parts=(removed_by_moderator(seat), *text.parts[1:]), sep=text.sep)
        return removed_by_moderator(seat) if text.msgid == left.msgid and text == left else text
    said = f"{{p{seat}}} left the game"  # (an engine's English not marked yet)
    return text.replace(said, f"{{p{seat}}} was removed by a moderator", 1)


def _as_removal(events: list[Event], seat: int) -> list[Event]:
    """The events of ``on_leave`` told as a moderator's removal: the engine's "{pN} left the game"
    (``left_the_game``: every engine opens its ``on_leave`` with it) becomes "{pN} was removed by a moderator"."""
    told = [Event(_retold(e.text, seat), e.seat) for e in events]
    if not any(e.text != t.text for e, t in zip(events, told, strict=True)):
        told.insert(0, Event(removed_by_moderator(seat), SYSTEM))
    return told


def departure(state: State) -> tuple[int, bool] | None:
    """The seat whose departure ended the game and whether a moderator removed them (``remove:<seat>``), or
    None when the game did not end that way: the end must not read as an ordinary win."""
    kind, _sep, seat = state.get("ended_by", "").partition(":")
    return (int(seat), kind == "remove") if seat else None


def was_removed(state: State, seat: int) -> bool:
    """Whether a moderator removed ``seat`` (rather than the player leaving)."""
    return seat in state.get("removed", ())


def _parse_seat(text: str, state: State) -> int:
    if not text.isdigit() or int(text) >= state["players"]:
        raise RulesError(_("No such seat."))
    return int(text)


# --------------------------------------------------------------------------------------------- registry
_REGISTRY: dict[str, Engine] = {}


def register(engine_cls: type[Engine]) -> type[Engine]:
    _REGISTRY[engine_cls.slug] = engine_cls()
    return engine_cls


def get_engine(slug: str) -> Engine:
    try:
        return _REGISTRY[slug]
    except KeyError:
        raise KeyError(f"no game called {slug!r}") from None


def all_engines() -> list[Engine]:
    return list(_REGISTRY.values())
