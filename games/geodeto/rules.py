"""Geodeto: move pyramids between six continents and the World Ocean to build the trios of your secret goal
cards (../shared/rules/geodeto.txt, the Geodeto sections of decisions.md, and docs/rules/geodeto.md).

Places are numbered 0-5 for the continents in ring order (Europe, Asia, America, Oceania, Antarctica,
Africa) and 6 for the World Ocean. Pyramid ``p`` (0-17) has colour ``p // 3`` (the colour of continent
``p // 3``) and size ``p % 3`` (0 small, 1 medium, 2 large). A place holds towers, each a list of pyramids
from bottom to top. Goal cards are the ids of data/deck.json; a card's ``trio`` is listed top first.

Phases: ``turn`` (the player to act takes one action, maybe in two steps), ``bonus`` (after claiming goals
the same player may draw one card per goal), ``over``.

Keys, first step: ``m<p>`` pick pyramid p to move, ``d`` draw a card, ``a`` play an action card, ``pass``
(only when nothing else is legal). Second steps: ``t<place>`` put the picked pyramid on the table of a
place (the water in the Ocean), ``o<q>`` put it on top of the tower whose top is pyramid q, ``d<pile>`` draw
the top card of a pile (0-5, by continent), ``e<c>`` play the Epidemic card on continent c, ``h`` take the
Epidemic card, ``p<q>`` Pirates take the Ocean tower whose bottom is q, ``r<q>`` return captured pyramid q
to the Ocean, ``back`` undo the first step. Bonus draws: ``d<pile>`` or ``skip``.
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
    State,
    rank_by_score,
    register,
    scores_words,
)
from games.geodeto.deck_texts import card_text
from i18n import N_, Text, _, join, ngettext, pgettext

CONTINENTS = ("europe", "asia", "america", "oceania", "antarctica", "africa")
CONTINENT_NAMES = (N_("Europe"), N_("Asia"), N_("America"), N_("Oceania"), N_("Antarctica"), N_("Africa"))
"""The continents' English names (message ids: ``continent(c)`` says one in the reader's language)."""
COLOURS = ("blue", "yellow", "red", "green", "white", "black")
SIZES = ("small", "medium", "large")
OCEAN = 6
PLACE_NAMES = (*CONTINENT_NAMES, N_("the Ocean"))
PLACE_TITLES = (*CONTINENT_NAMES, N_("The Ocean"))
"""The places as they head a button or a group: the same names, the Ocean's capitalised."""
GROUP_NAMES = {
    "famous": N_("Famous places"),
    "ancient": N_("Ancient objects"),
    "nature": N_("Nature records"),
    "research": N_("Research stations"),
}
GROUPS = tuple(GROUP_NAMES)
PYRAMIDS = 18
MAX_TOWERS = 3
EXTRA_POINTS = 2
EXTRAS = {
    # key: (name, continents formed (all needed), cards fulfilled (any one))
    "columbus": (N_("Columbus"), ("europe", "america"), ()),
    "tasman": (N_("Tasman"), ("oceania", "antarctica"), ()),
    "da-gama": (N_("da Gama"), ("africa", "asia"), ()),
    "drake": (N_("Sir Francis Drake"), (), ()),
    "inventors": (N_("Inventors"), (), ("usa", "italy", "czech-republic", "china")),
    "team-sports": (N_("Team Sports"), (), ("canada", "brazil", "new-zealand", "india")),
    "expeditions": (N_("Expeditions"), (), ("victoria-falls", "mt-everest", "mariana-trench", "mcmurdo-station")),
}
DRAKE_MIN = 4
STALL_ROUNDS = 20
"""The game also ends after this many rounds in a row without a fulfilled goal (docs/rules/geodeto.md)."""
SHEET_PARTS = (
    ("groups", N_("Groups")),
    ("fulfilled", N_("Fulfilled goals")),
    ("hand", N_("Cards in hand")),
    ("continents", N_("Continents")),
    ("last", N_("Last goal")),
    ("extras", N_("Extra cards")),
)
SHEET_WORDS = {
    "groups": N_("groups {points}"),
    "fulfilled": N_("fulfilled goals {points}"),
    "hand": N_("cards in hand {points}"),
    "continents": N_("continents {points}"),
    "last": N_("last goal {points}"),
    "extras": N_("extra cards {points}"),
}
"""The parts as a result line says them (lower case, with their points)."""


# --- data --------------------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def deck() -> dict[str, dict]:
    """The goal cards by id, in file order (data/deck.json)."""
    data = json.loads((resources.files("games.geodeto") / "data" / "deck.json").read_text(encoding="utf-8"))
    return {card["id"]: card for card in data["cards"]}


def pyramid_id(colour: str, size: str) -> int:
    return COLOURS.index(colour) * 3 + SIZES.index(size)


@lru_cache(maxsize=1)
def _cards() -> dict[str, tuple[tuple[int, int, int], tuple[int, ...]]]:
    """Per card: its trio as pyramids from bottom to top, and its continents as indices."""
    out = {}
    for cid, card in deck().items():
        trio = tuple(pyramid_id(t["colour"], t["size"]) for t in reversed(card["trio"]))
        out[cid] = (trio, tuple(CONTINENTS.index(c) for c in card["continents"]))
    return out


def trio_of(card: str) -> tuple[int, int, int]:
    """The card's three pyramids from bottom to top."""
    return _cards()[card][0]


def continents_of(card: str) -> tuple[int, ...]:
    return _cards()[card][1]


PYRAMID_NAMES = (
    N_("small blue"), N_("medium blue"), N_("large blue"),
    N_("small yellow"), N_("medium yellow"), N_("large yellow"),
    N_("small red"), N_("medium red"), N_("large red"),
    N_("small green"), N_("medium green"), N_("large green"),
    N_("small white"), N_("medium white"), N_("large white"),
    N_("small black"), N_("medium black"), N_("large black"),
)
"""Pyramid ``p``'s name (``SIZES[p % 3]`` and ``COLOURS[p // 3]``), one message each: languages order and
inflect size and colour their own way."""


def pname(p: int) -> Text:
    """"small red"."""
    return _(PYRAMID_NAMES[p])


def continent(c: int) -> Text:
    """Continent ``c``'s name in the reader's language."""
    return _(CONTINENT_NAMES[c])


def place_title(place: int) -> Text:
    """A place as it heads a button or a group: a continent's name, "The Ocean"."""
    return _(PLACE_TITLES[place])


def seat_ref(seat: int) -> str:
    """A seat as events name it (``{p0}``: the table puts the player's name in)."""
    return f"{{p{seat}}}"


def _place_name(place: int) -> Text | str:
    """A continent's name in a sentence (the Ocean's sentences name it themselves)."""
    return continent(place) if place != OCEAN else ""


def ship_of(p: int, size: int) -> Text:
    """"the large black ship of 3"."""
    return _("the {pyramid} ship of {n}", pyramid=pname(p), n=size)


def pyramid(p: int) -> dict:
    return {"id": p, "colour": COLOURS[p // 3], "size": SIZES[p % 3]}


def neighbours(c: int) -> tuple[int, int]:
    return (c - 1) % 6, (c + 1) % 6


TARGETS = {**{c: (*neighbours(c), OCEAN) for c in range(6)}, OCEAN: tuple(range(6))}
"""Where a pyramid may travel from each place: a continent's two ring neighbours and the Ocean; from the
Ocean every continent."""


def card_name(card: str) -> Text:
    return card_text(card, "name")


# --- goals on the board --------------------------------------------------------------------------------------
def triples(towers: list[list[list[int]]]) -> list[set[tuple[int, int, int]]]:
    """Per continent, every three consecutive pyramids (bottom to top) of its towers."""
    return [{tuple(t[i:i + 3]) for t in towers[c] for i in range(len(t) - 2)} for c in range(6)]


def met_on(card: str, found: list[set[tuple[int, int, int]]]) -> int | None:
    """The first of the card's continents where its trio stands, else None."""
    trio, places = _cards()[card]
    for c in places:
        if trio in found[c]:
            return c
    return None


def group_points(counts: list[dict[str, int]]) -> list[dict[str, int]]:
    """Per player and sight group: 3 points to every player with the highest count (at least 1), 1 point to
    every player with the second-highest distinct count (at least 1) (decisions 12 and 18)."""
    out = [{g: 0 for g in GROUPS} for _ in counts]
    for g in GROUPS:
        values = sorted({c.get(g, 0) for c in counts if c.get(g, 0) >= 1}, reverse=True)
        for rank, points in zip(values[:2], (3, 1), strict=False):
            for i, c in enumerate(counts):
                if c.get(g, 0) == rank:
                    out[i][g] = points
    return out


def sheet_lines(sheet: dict) -> list[str]:
    """The score sheet in words, one line per player (seats as {p0}, {p1}, ...), best first."""
    lines = []
    rows = sheet["players"]
    for seat in sorted(range(len(rows)), key=lambda s: -rows[s]["total"]):
        row = rows[seat]
        parts = join([_(SHEET_WORDS[key], points=f"{row[key]:+d}") for key, _label in SHEET_PARTS], ", ")
        lines.append(ngettext("{player}: {n} point ({parts})", "{player}: {n} points ({parts})", row["total"],
                              player=seat_ref(seat), parts=parts))
    return lines


@register
class Geodeto(Engine):
    slug = "geodeto"
    title = "Geodeto"
    accent = 0x009E73
    min_players = 2
    max_players = 6
    private_label = _("My goals")
    group_noun = pgettext("noun", "move")

    def group_size(self, n: int) -> Text:
        return ngettext("{n} move", "{n} moves", n)

    options = (
        Option("goals", _("Goals to fulfil before the game ends (0: 10 for 2-3 players, 12 for 4 or more)"), 0,
               minimum=0, maximum=16, label=_("Goals")),
        Option("extras", _("Play with the 7 extra cards (2 points each to whoever qualifies first)"), False,
               label=_("Extra cards")),
    )

    def describe_options(self, options: dict, players: int) -> list[str]:
        goals = options.get("goals") or (10 if players <= 3 else 12)
        said = (_("goals = {n}", n=goals) if options.get("goals")
                else _("goals = {n} (by the number of players)", n=goals))
        return [said, _("extra cards on") if options.get("extras") else _("extra cards off")]

    def option_words(self, options: dict, players: int) -> list[str]:
        words = super().option_words(options, players)
        if not options.get("goals"):  # 0: as many as the players make it
            words[0] = _("Goals: {n} (by the number of players)", n=10 if players <= 3 else 12)
        return words

    # --- setup ---------------------------------------------------------------------------------------
    def setup(self, players: int, options: dict, state: State) -> None:
        rng = Rng(state)
        cards = deck()
        states = [c for c in cards if cards[c]["kind"] == "state"]
        sights = [c for c in cards if cards[c]["kind"] == "sight"]
        rng.shuffle(states)
        rng.shuffle(sights)
        hands = [[states.pop(), sights.pop()] for _ in range(players)]
        rest = states + sights
        rng.shuffle(rest)
        piles: list[list[str]] = [[] for _ in range(6)]
        for card in rest:
            places = continents_of(card)
            piles[places[0] if len(places) == 1 else rng.choice(places)].append(card)
        goal = options["goals"] or (10 if players <= 3 else 12)
        state.update(
            towers=[[[3 * c], [3 * c + 1], [3 * c + 2]] for c in range(6)] + [[]],
            piles=piles,
            hands=hands,
            fulfilled=[[] for _ in range(players)],
            epidemic={"continent": None, "holder": None},
            pirates={"holder": None, "pyramids": []},
            extras={k: None for k in EXTRAS} if options["extras"] else {},
            goal=goal,
            countdown=goal,
            current=rng.below(players),
            phase="turn",
            step=None,
            bonus=0,
            last_pick=None,
            last_move=None,
            last_claims=[],
            last_claimer=None,
            dry_turns=0,
        )

    # --- helpers -------------------------------------------------------------------------------------
    @staticmethod
    def _closed(state: State) -> int | None:
        return state["epidemic"]["continent"]

    def _forbidden(self, state: State, seat: int) -> int | None:
        """With two players, the pyramid the opponent picked on their immediately preceding turn."""
        last = state["last_pick"]
        if last is None or last[0] == seat or state["left"][last[0]] or len(self.remaining(state)) != 2:
            return None
        return last[1]

    @staticmethod
    def _locate(state: State, p: int) -> tuple[int, int, int]:
        """(place, tower index, height) of a pyramid on the board."""
        for place, towers in enumerate(state["towers"]):
            for ti, tower in enumerate(towers):
                if p in tower:
                    return place, ti, tower.index(p)
        raise KeyError(p)

    def _destinations(self, state: State, p: int, source: int) -> list[tuple[int, int | None]]:
        """Where pyramid ``p`` may go from ``source``: (place, None) for the table, (place, q) for on top of
        the tower whose top is ``q`` (decisions 6, 14-16)."""
        closed = state["epidemic"]["continent"]
        size = p % 3
        all_towers = state["towers"]
        out = []
        for place in TARGETS[source]:
            if place == closed:
                continue
            towers = all_towers[place]
            if place == OCEAN or len(towers) < MAX_TOWERS:
                out.append((place, None))
            for t in towers:
                if t[-1] % 3 >= size:
                    out.append((place, t[-1]))
        return out

    def _picks(self, state: State, seat: int) -> list[tuple[int, int, int, int]]:
        """Pickable pyramids with at least one destination: (p, place, tower index, height)."""
        forbidden = self._forbidden(state, seat)
        movable: dict[tuple[int, int], bool] = {}  # destinations depend only on the source and the size
        out = []
        for place, towers in enumerate(state["towers"]):
            for ti, tower in enumerate(towers):
                for h, p in enumerate(tower[:1] if place == OCEAN else tower):
                    if p == forbidden:
                        continue
                    key = (place, p % 3)
                    if key not in movable:
                        movable[key] = bool(self._destinations(state, p, place))
                    if movable[key]:
                        out.append((p, place, ti, h))
        return out

    def _can_epidemic(self, state: State, seat: int) -> bool:
        ep = state["epidemic"]
        return ep["continent"] is None and ep["holder"] in (None, seat)

    def _can_capture(self, state: State, seat: int) -> bool:
        """The Pirates card is used from the board only: its holder keeps it until their next goal."""
        return state["pirates"]["holder"] is None and bool(state["towers"][OCEAN])

    def _action_card_actions(self, state: State, seat: int) -> list[Action]:
        acts = []
        if self._can_epidemic(state, seat):
            acts.extend(Action(f"e{c}", _("Epidemic on {continent}", continent=continent(c)), "danger",
                               _("Epidemic")) for c in range(6))
        if state["epidemic"]["continent"] is not None:
            c = state["epidemic"]["continent"]
            acts.append(Action("h", _("Take the Epidemic card (reopens {continent})", continent=continent(c)),
                               "success", _("Epidemic")))
        if self._can_capture(state, seat):
            for tower in state["towers"][OCEAN]:
                label = (_("Pirates take {pyramid}", pyramid=pname(tower[0])) if len(tower) == 1
                         else _("Pirates take {ship}", ship=ship_of(tower[0], len(tower))))
                acts.append(Action(f"p{tower[0]}", label, "danger", _("Pirates")))
        if state["pirates"]["holder"] == seat:
            acts.extend(Action(f"r{q}", _("Return {pyramid} to the Ocean", pyramid=pname(q)), "primary",
                               _("Pirates")) for q in state["pirates"]["pyramids"])
        return acts

    def _draw_actions(self, state: State, bonus: bool = False) -> list[Action]:
        label = (N_("Bonus: draw {card} ({continent} pile)") if bonus else N_("Draw {card} ({continent} pile)"))
        return [Action(f"d{c}", _(label, card=card_name(pile[-1]), continent=continent(c)), "primary",
                       pgettext("verb", "Draw")) for c, pile in enumerate(state["piles"]) if pile]

    # --- the protocol --------------------------------------------------------------------------------
    def to_act(self, state: State) -> frozenset[int]:
        return frozenset() if state["phase"] == "over" else frozenset({state["current"]})

    def actions(self, state: State, seat: int) -> list[Action]:
        if state["phase"] == "bonus":
            n = state["bonus"]
            skip = _("No card") if n == 1 else _("No more cards ({n} left)", n=n)
            return [*self._draw_actions(state, bonus=True),
                    Action("skip", skip, "secondary", pgettext("verb", "Draw"))]
        step = state["step"]
        back = Action("back", _("Choose another move"), "secondary", _("Back"))
        if step is None:
            # grouped by place (see ``grouped``): a place, then its pyramid; the draw and the action cards
            # are groups of their own, so they stay one click
            acts = []
            for p, place, ti, h in self._picks(state, seat):
                tower = state["towers"][place][ti]
                if place == OCEAN and len(tower) > 1:
                    label = _("Move {ship}", ship=ship_of(p, len(tower)))
                else:
                    carried = len(tower) - h - 1
                    label = (_("Move {pyramid} (carries {n})", pyramid=pname(p), n=carried) if carried
                             else _("Move {pyramid}", pyramid=pname(p)))
                acts.append(Action(f"m{p}", label, "primary", place_title(place)))
            if any(state["piles"]):
                acts.append(Action("d", _("Draw a goal card..."), "success", pgettext("verb", "Draw")))
            if self._can_epidemic(state, seat) or state["epidemic"]["continent"] is not None or (
                    self._can_capture(state, seat) or (state["pirates"]["holder"] == seat and state["pirates"]["pyramids"])):
                acts.append(Action("a", _("Use an action card..."), "danger", _("Action cards")))
            if not acts:
                acts.append(Action("pass", _("Pass (nothing is possible)"), "secondary", pgettext("verb", "Pass")))
            return acts
        if step["kind"] == "move":
            p = step["pyramid"]
            source = self._locate(state, p)[0]
            acts = []
            for place, on in self._destinations(state, p, source):
                name = place_title(place)
                if on is None:
                    label = (_("{place}: on the water", place=name) if place == OCEAN
                             else _("{place}: on the table", place=name))
                    acts.append(Action(f"t{place}", label, "primary", name))
                else:
                    size = len(next(t for t in state["towers"][place] if t[-1] == on))
                    if size <= 1:
                        label = _("{place}: on {pyramid}", place=name, pyramid=pname(on))
                    elif place == OCEAN:
                        label = _("{place}: on {pyramid} (ship of {n})", place=name, pyramid=pname(on), n=size)
                    else:
                        label = _("{place}: on {pyramid} (tower of {n})", place=name, pyramid=pname(on), n=size)
                    acts.append(Action(f"o{on}", label, "primary", name))
            return [*acts, back]
        if step["kind"] == "draw":
            return [*self._draw_actions(state), back]
        return [*self._action_card_actions(state, seat), back]

    def grouped(self, state: State, seat: int) -> bool:
        """The first step of a turn is offered by place (then the pyramid): 15-20 moves in board order are
        hard to scan, a handful of places is not."""
        return state["phase"] == "turn" and state["step"] is None

    def focus(self, state: State, seat: int, group: str) -> dict | None:
        """While a step is offered group by group: the place of the group (the pyramids to pick there, or a
        destination's continent or the Ocean; Pirates: the Ocean), and the picked pyramid."""
        names = {**{n: i for i, n in enumerate(PLACE_TITLES)}, "Ocean": OCEAN, "Pirates": OCEAN}  # English ids
        if group not in names:
            return None
        step = state["step"] or {}
        return {"place": names[group], "pyramid": step.get("pyramid")}

    def play(self, state: State, seat: int, key: str, events: list[Event]) -> None:
        self._play(state, seat, key, events)
        self._forced_passes(state, events)

    def _forced_passes(self, state: State, events: list[Event]) -> None:
        """A turn where nothing but Pass is possible is passed by the table (and logged), as many in a row as
        it takes: nobody clicks what is no choice. The stall count still ends a table where nobody can act."""
        while state["phase"] == "turn" and state["step"] is None:
            seat = state["current"]
            if [a.key for a in self.actions(state, seat)] != ["pass"]:
                return
            events.append(Event(_("{player} can do nothing this turn; the table passes for them.",
                                  player=seat_ref(seat)), SYSTEM))
            state["last_claims"] = []
            self._act(state, seat, "pass", events)
            self._after_action(state, seat, events)

    def _play(self, state: State, seat: int, key: str, events: list[Event]) -> None:
        if state["phase"] == "bonus":
            state["last_claims"] = []
            if key == "skip":
                events.append(Event(_("{player} draws no bonus card.", player=seat_ref(seat)), seat))
                state["bonus"] = 0
                self._end_turn(state, events)
            else:
                state["bonus"] -= 1
                self._draw(state, seat, int(key[1:]), events, bonus=True)
                self._after_action(state, seat, events)
            return
        if key == "back":
            state["step"] = None
        elif key[0] == "m":
            state["step"] = {"kind": "move", "pyramid": int(key[1:])}
        elif key == "d":
            state["step"] = {"kind": "draw"}
        elif key == "a":
            state["step"] = {"kind": "action"}
        else:
            picked = state["step"]["pyramid"] if key[0] in "to" else None
            state["step"] = None
            state["last_claims"] = []
            self._act(state, seat, key, events, picked)
            self._after_action(state, seat, events)

    def _act(self, state: State, seat: int, key: str, events: list[Event], picked: int | None = None) -> None:
        """One committed action of a turn (``picked``: the pyramid of a move's first step)."""
        kind, arg = key[0], key[1:]
        if kind == "t":
            self._move(state, seat, picked, int(arg), None, events)
            return
        if kind == "o":
            place = self._locate(state, int(arg))[0]
            self._move(state, seat, picked, place, int(arg), events)
            return
        state["last_pick"] = None
        state["last_move"] = None
        if key == "pass":
            events.append(Event(_("{player} passes.", player=seat_ref(seat)), seat))
        elif kind == "d":
            self._draw(state, seat, int(arg), events)
        elif kind == "e":
            self._epidemic(state, seat, int(arg), events)
        elif key == "h":
            c = state["epidemic"]["continent"]
            state["epidemic"] = {"continent": None, "holder": seat}
            events.append(Event(_("{player} takes the Epidemic card: {continent} is open again.",
                                  player=seat_ref(seat), continent=continent(c)), seat))
        elif kind == "p":
            self._capture(state, seat, int(arg), events)
        elif kind == "r":
            q = int(arg)
            state["pirates"]["pyramids"].remove(q)
            state["towers"][OCEAN].append([q])
            events.append(Event(_("{player} returns {pyramid} from the Pirates card to the Ocean.",
                                  player=seat_ref(seat), pyramid=pname(q)), seat))

    # --- the actions ---------------------------------------------------------------------------------
    def _move(self, state: State, seat: int, p: int, place: int, on: int | None, events: list[Event]) -> None:
        source, ti, h = self._locate(state, p)
        towers = state["towers"]
        tower = towers[source][ti]
        moving = tower[h:]
        del tower[h:]
        if not tower:
            del towers[source][ti]
        if on is None:
            towers[place].append(moving)
        else:
            next(t for t in towers[place] if t[-1] == on).extend(moving)
        state["last_pick"] = [seat, p]
        state["last_move"] = {"pyramid": p, "from": source, "to": place, "on": on, "count": len(moving)}
        if source == OCEAN and len(moving) > 1:
            what = _("the {pyramid} ship", pyramid=pname(p))
        elif len(moving) > 1:
            what = _("{pyramid} (carrying {n})", pyramid=pname(p), n=len(moving) - 1)
        else:  # the pyramid alone ("moves small blue"; other languages may want an article here)
            what = pgettext("moved pyramid", "{pyramid}", pyramid=pname(p))
        if on is not None:
            where = _("onto {pyramid}", pyramid=pname(on))
        else:
            where = _("on the water") if place == OCEAN else _("on the table")
        if source == OCEAN:
            said = N_("{player} moves {what} from the Ocean to {target}, {where}.")
        elif place == OCEAN:
            said = N_("{player} moves {what} from {source} to the Ocean, {where}.")
        else:
            said = N_("{player} moves {what} from {source} to {target}, {where}.")
        events.append(Event(_(said, player=seat_ref(seat), what=what, where=where, source=_place_name(source),
                              target=_place_name(place)), seat))

    def _draw(self, state: State, seat: int, pile: int, events: list[Event], bonus: bool = False) -> None:
        card = state["piles"][pile].pop()
        state["hands"][seat].append(card)
        top = state["piles"][pile]
        said = (N_("{player} draws a bonus card, {card}, from the {continent} pile.") if bonus
                else N_("{player} draws {card}, from the {continent} pile."))
        after = (_("New public goal: {card}.", card=card_name(top[-1])) if top
                 else _("The {continent} pile is empty.", continent=continent(pile)))
        events.append(Event(join([_(said, player=seat_ref(seat), card=card_name(card), continent=continent(pile)),
                                  after]), seat))

    def _epidemic(self, state: State, seat: int, c: int, events: list[Event]) -> None:
        towers = state["towers"]
        sent = []
        for tower in towers[c]:
            sent.extend(reversed(tower))  # one by one, from the top down
        towers[c] = []
        towers[OCEAN].extend([p] for p in sent)
        state["epidemic"] = {"continent": c, "holder": None}
        count = (ngettext("{n} pyramid sails", "{n} pyramids sail", len(sent)) if sent
                 else _("no pyramid sails"))
        events.append(Event(_("{player} plays the Epidemic card on {continent}: {count} to the Ocean and the "
                              "continent is closed.", player=seat_ref(seat), continent=continent(c), count=count),
                            seat))

    def _capture(self, state: State, seat: int, bottom: int, events: list[Event]) -> None:
        ocean = state["towers"][OCEAN]
        tower = next(t for t in ocean if t[0] == bottom)
        ocean.remove(tower)
        state["pirates"]["holder"] = seat
        state["pirates"]["pyramids"].extend(tower)
        if len(tower) == 1:
            said = _("{player}'s Pirates capture {pyramid}.", player=seat_ref(seat), pyramid=pname(bottom))
        else:
            said = _("{player}'s Pirates capture {ship}.", player=seat_ref(seat), ship=ship_of(bottom, len(tower)))
        events.append(Event(said, seat))

    # --- claims, turns, the end ----------------------------------------------------------------------
    def _after_action(self, state: State, seat: int, events: list[Event]) -> None:
        """Claims every met goal (hand and public goals) of the player who acted, then moves on: the bonus
        draws, the next turn or the end (decision 7)."""
        claims = self._claim(state, seat, events)
        if state["countdown"] <= 0:
            self._finish(state, seat, events)
            return
        if claims:
            state["dry_turns"] = -1  # _end_turn counts this turn: a claiming turn leaves a clean slate
        state["bonus"] += claims
        if state["bonus"] and any(state["piles"]):
            state["phase"] = "bonus"
            return
        state["bonus"] = 0
        self._end_turn(state, events)

    def _end_turn(self, state: State, events: list[Event]) -> None:
        """A turn is over: the next player's turn, or the end after too long a stall."""
        state["dry_turns"] += 1
        if state["dry_turns"] >= STALL_ROUNDS * len(self.remaining(state)):
            events.append(Event(_("{n} rounds in a row without a fulfilled goal: the journey ends here.",
                                  n=STALL_ROUNDS), SYSTEM))
            self._finish(state, None, events)
            return
        self._next_turn(state, events)

    def _claim(self, state: State, seat: int, events: list[Event]) -> int:
        total = 0
        while state["countdown"] > 0:
            found = triples(state["towers"])
            met = []
            for card in state["hands"][seat]:
                c = met_on(card, found)
                if c is not None:
                    met.append((card, c, None))
            for pile, cards in enumerate(state["piles"]):
                if cards:
                    c = met_on(cards[-1], found)
                    if c is not None:
                        met.append((cards[-1], c, pile))
            if not met:
                break
            for card, c, pile in met:
                if pile is None:
                    state["hands"][seat].remove(card)
                else:
                    state["piles"][pile].pop()
                state["fulfilled"][seat].append({"card": card, "continent": c})
                state["countdown"] = max(0, state["countdown"] - 1)
                state["last_claims"].append({"seat": seat, "card": card, "continent": c, "public": pile is not None})
                said = (N_("{player} fulfils {card} on {continent} (a public goal): {tweet}") if pile is not None
                        else N_("{player} fulfils {card} on {continent} (a goal from their hand): {tweet}"))
                events.append(Event(_(said, player=seat_ref(seat), card=card_name(card), continent=continent(c),
                                      tweet=card_text(card, "tweet")), seat))
            total += len(met)
            self._after_claims(state, seat, events)
        return total

    def _after_claims(self, state: State, seat: int, events: list[Event]) -> None:
        """Ships break, the claimer's Pirates are released, extra cards change hands."""
        ocean = state["towers"][OCEAN]
        if any(len(t) > 1 for t in ocean):
            state["towers"][OCEAN] = [[p] for t in ocean for p in t]
            events.append(Event(_("Every ship in the Ocean breaks into single pyramids."), SYSTEM))
        if state["pirates"]["holder"] == seat:
            freed = state["pirates"]["pyramids"]
            state["towers"][OCEAN].extend([p] for p in freed)
            state["pirates"] = {"holder": None, "pyramids": []}
            events.append(Event(ngettext("{player}'s Pirates release {n} pyramid and the card returns to the board.",
                                         "{player}'s Pirates release {n} pyramids and the card returns to the board.",
                                         len(freed), player=seat_ref(seat)), seat))
        self._extras(state, seat, events)
        left = state["countdown"]
        events.append(Event(ngettext("{n} goal to go.", "{n} goals to go.", left) if left
                            else _("The last goal is fulfilled."), SYSTEM))

    def _extras(self, state: State, seat: int, events: list[Event]) -> None:
        extras = state["extras"]
        if not extras:
            return
        mine = state["fulfilled"][seat]
        formed = {CONTINENTS[f["continent"]] for f in mine}
        cards = {f["card"] for f in mine}
        for key, (name, continents, named) in EXTRAS.items():
            if key == "drake" or extras[key] is not None:
                continue
            if (continents and set(continents) <= formed) or (named and cards & set(named)):
                extras[key] = seat
                events.append(Event(_("{player} claims the extra card {card}.", player=seat_ref(seat), card=_(name)),
                                    seat))
        counts = [len({f["continent"] for f in fs}) for fs in state["fulfilled"]]
        holder = extras["drake"]
        if holder != seat and counts[seat] >= DRAKE_MIN and all(
                counts[seat] > counts[s] for s in range(state["players"]) if s != seat):
            extras["drake"] = seat
            if holder is not None:
                said = _("{player} takes Sir Francis Drake from {holder}: goals on {n} continents.",
                         player=seat_ref(seat), holder=seat_ref(holder), n=counts[seat])
            else:
                said = _("{player} takes Sir Francis Drake: goals on {n} continents.", player=seat_ref(seat),
                         n=counts[seat])
            events.append(Event(said, seat))

    def _next_turn(self, state: State, events: list[Event]) -> None:
        state["phase"] = "turn"
        state["step"] = None
        state["bonus"] = 0
        n = state["players"]
        for step in range(1, n + 1):
            seat = (state["current"] + step) % n
            if not state["left"][seat]:
                state["current"] = seat
                return

    def _finish(self, state: State, seat: int | None, events: list[Event]) -> None:
        state["phase"] = "over"
        state["step"] = None
        state["bonus"] = 0
        state["last_claimer"] = seat
        if seat is not None:
            events.append(Event(_("{player} fulfilled the last goal: the game is over.", player=seat_ref(seat)),
                                seat))
        else:
            events.append(Event(_("The game is over."), SYSTEM))
        # the score sheet is posted on its own (result_lines): the log line stays short

    # --- scoring -------------------------------------------------------------------------------------
    def score_sheet(self, state: State) -> dict:
        """Per player, per part (decision 12): groups, fulfilled goals, cards in hand, continents, last goal,
        extras, and the total; with the counts behind each part."""
        cards = deck()
        n = state["players"]
        counts = []
        for fs in state["fulfilled"]:
            c = {g: 0 for g in GROUPS}
            for f in fs:
                group = cards[f["card"]].get("group")
                if group:
                    c[group] += 1
            counts.append(c)
        points = group_points(counts)
        rows = []
        for seat in range(n):
            fs = state["fulfilled"][seat]
            formed = sorted({f["continent"] for f in fs})
            extras = sorted(k for k, holder in state["extras"].items() if holder == seat)
            row = {
                "groups": sum(points[seat].values()),
                "group_counts": counts[seat],
                "group_points": points[seat],
                "fulfilled": 2 * len(fs),
                "fulfilled_count": len(fs),
                "hand": -len(state["hands"][seat]),
                "hand_count": len(state["hands"][seat]),
                "continents": 2 * len(formed),
                "continent_list": [CONTINENTS[c] for c in formed],
                "last": 1 if state["phase"] == "over" and state["last_claimer"] == seat else 0,
                "extras": EXTRA_POINTS * len(extras),
                "extra_cards": extras,
            }
            row["total"] = sum(row[k] for k, _label in SHEET_PARTS)
            rows.append(row)
        return {"parts": [{"key": k, "label": _(label)} for k, label in SHEET_PARTS], "players": rows}

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        sheet = self.score_sheet(state)
        scores = [row["total"] for row in sheet["players"]]
        return Result(tuple(scores), rank_by_score(scores, self.remaining(state)), {"score_sheet": sheet})

    def scores_now(self, state: State) -> tuple[int, ...]:
        """The score sheet's totals as the board stands."""
        return tuple(row["total"] for row in self.score_sheet(state)["players"])

    def progress(self, state: State) -> Text | None:
        """ "3 of 10 goals fulfilled"."""
        if state["phase"] == "over":
            return None
        return ngettext("{done} of {n} goal fulfilled", "{done} of {n} goals fulfilled", state["goal"],
                        done=state["goal"] - state["countdown"])

    def position(self, state: State) -> Text:
        """The scores, each player's fulfilled goals and cards in hand, the towers on each continent, the public
        goals on top of the piles, and who holds the Epidemic (a closed continent) and the Pirates."""
        n = state["players"]
        said = [scores_words(self.scores_now(state)),
                join([_("{player}: {goals}, {cards}.", player=seat_ref(s),
                        goals=ngettext("{n} goal fulfilled", "{n} goals fulfilled", len(state["fulfilled"][s])),
                        cards=ngettext("{n} card in hand", "{n} cards in hand", len(state["hands"][s])))
                      for s in range(n) if not state["left"][s]])]
        towers = [ngettext("{place} {n} tower", "{place} {n} towers", len(state["towers"][c]), place=continent(c))
                  for c in range(6) if state["towers"][c]]
        said.append(_("Towers: {towers}; pyramids in the Ocean: {ocean}.", towers=join(towers, ", ") if towers else "-",
                      ocean=sum(len(t) for t in state["towers"][OCEAN])))
        tops = [card_name(pile[-1]) for pile in state["piles"] if pile]
        if tops:
            said.append(_("Public goals: {cards}.", cards=join(tops, ", ")))
        closed, holder = self._closed(state), state["epidemic"]["holder"]
        if closed is not None:
            said.append(_("The Epidemic closes {continent}.", continent=continent(closed)))
        elif holder is not None:
            said.append(_("{player} holds the Epidemic.", player=seat_ref(holder)))
        if state["pirates"]["holder"] is not None:
            said.append(ngettext("{player}'s Pirates hold {n} pyramid.", "{player}'s Pirates hold {n} pyramids.",
                                 len(state["pirates"]["pyramids"]), player=seat_ref(state["pirates"]["holder"])))
        return join(said)

    # --- absent and departing players ----------------------------------------------------------------
    def on_leave(self, state: State, seat: int, events: list[Event]) -> None:
        """The game goes on without them: their hand goes under the piles of its continents, a held Epidemic
        card returns to the board, their Pirates release. Their fulfilled goals and extra cards stay theirs.
        Fewer than two players left: the game ends."""
        events.append(Event(_("{player} left the game.", player=seat_ref(seat)), SYSTEM))
        for card in state["hands"][seat]:
            state["piles"][continents_of(card)[0]].insert(0, card)
        state["hands"][seat] = []
        if state["epidemic"]["holder"] == seat:
            state["epidemic"]["holder"] = None
        if state["pirates"]["holder"] == seat:
            state["towers"][OCEAN].extend([p] for p in state["pirates"]["pyramids"])
            state["pirates"] = {"holder": None, "pyramids": []}
        if len(self.remaining(state)) < 2:
            self._finish(state, None, events)
            return
        state["step"] = None  # a choice in progress may have lost its ground (released pyramids, no-takeback)
        if state["current"] == seat:
            state["last_claims"] = []
            self._next_turn(state, events)
        self._forced_passes(state, events)

    def on_timeout(self, state: State, seat: int, events: list[Event]) -> None:
        """The table finishes the idle player's turn by passing: a choice in progress is dropped, nothing on
        the board or the piles changes (any move or draw would help or hurt someone), optional bonus draws
        are declined. Goals already met are claimed as after any action."""
        events.append(Event(_("{player} ran out of time; the table passes for them.", player=seat_ref(seat)),
                            SYSTEM))
        if state["phase"] == "bonus":
            self.play(state, seat, "skip", events)
            return
        state["step"] = None
        state["last_claims"] = []
        self._act(state, seat, "pass", events)
        self._after_action(state, seat, events)
        self._forced_passes(state, events)

    # --- what players see ----------------------------------------------------------------------------
    def _card(self, card: str, found: list[set] | None) -> dict:
        """A card's data (trio listed top first) and, given the board's triples, whether it is met now."""
        data = deck()[card]
        out = {k: v for k, v in data.items() if k != "trio"}
        for field in ("name", "capital", "location", "tweet"):  # words to read: said in the reader's language
            if field in out:
                out[field] = card_text(card, field)
        out["trio"] = [dict(t) for t in data["trio"]]
        if found is None:
            return out
        c = met_on(card, found)
        out["met"] = c is not None
        out["met_on"] = CONTINENTS[c] if c is not None else None
        return out

    def announcements(self, before: State, after: State) -> list[dict]:
        """Each goal the change claimed, for the channel to show as a card with its geo-tweet."""
        if after["last_claims"] == before["last_claims"]:
            return []
        out = []
        for claim in after["last_claims"]:
            card = self._card(claim["card"], None)
            out.append({"text": _("{player} fulfils **{card}** on {continent}: {tweet}", player=seat_ref(claim["seat"]),
                                  card=card["name"], continent=continent(claim["continent"]), tweet=card["tweet"]),
                        "card": card})
        return out

    def result_lines(self, state: State) -> list[str]:
        result = self.result(state)
        return sheet_lines(result.detail["score_sheet"]) if result else []

    def view(self, state: State, seat: int | None) -> dict:
        """Everything public, and the seat's own hand (each card marked if it is met right now)."""
        found = triples(state["towers"])
        n = state["players"]
        closed = self._closed(state)
        step = state["step"]
        step_view = None
        if step is not None:
            step_view = {"kind": step["kind"]}
            if step["kind"] == "move":
                p = step["pyramid"]
                source = self._locate(state, p)[0]
                step_view.update(pyramid=p, place=source, destinations=[
                    {"place": place, "on": on} for place, on in self._destinations(state, p, source)])
        view = {
            "game": self.slug,
            "players": n,
            "continents": [
                {"index": c, "key": CONTINENTS[c], "name": continent(c), "colour": COLOURS[c],
                 "closed": closed == c, "towers": [[pyramid(p) for p in t] for t in state["towers"][c]]}
                for c in range(6)
            ],
            "ocean": [[pyramid(p) for p in t] for t in state["towers"][OCEAN]],
            "epidemic": {"continent": closed, "holder": state["epidemic"]["holder"],
                         "on_board": closed is None and state["epidemic"]["holder"] is None},
            "pirates": {"holder": state["pirates"]["holder"],
                        "pyramids": [pyramid(p) for p in state["pirates"]["pyramids"]]},
            "public_goals": [
                {"pile": c, "count": len(pile), "card": self._card(pile[-1], found) if pile else None}
                for c, pile in enumerate(state["piles"])
            ],
            "countdown": state["countdown"],
            "goal": state["goal"],
            "fulfilled": [[{**self._card(f["card"], None), "formed_on": CONTINENTS[f["continent"]]}
                           for f in fs] for fs in state["fulfilled"]],
            "hand_sizes": [len(h) for h in state["hands"]],
            "extras": [{"key": k, "name": _(EXTRAS[k][0]), "holder": h} for k, h in state["extras"].items()],
            "current": state["current"],
            "to_act": sorted(self.to_act(state)),
            "phase": state["phase"],
            "step": step_view,
            "bonus": state["bonus"],
            "forbidden": self._forbidden(state, state["current"]) if state["phase"] != "over" else None,
            "last_move": dict(state["last_move"]) if state["last_move"] else None,
            "last_claims": [{**c, "continent": CONTINENTS[c["continent"]], "card": self._card(c["card"], None)}
                            for c in state["last_claims"]],
            "stall_turns_left": STALL_ROUNDS * len(self.remaining(state)) - state["dry_turns"],
            "left": list(state["left"]),
        }
        if state["phase"] == "over":
            result = self.result(state)
            view["winners"] = list(result.winners)
            view["score_sheet"] = result.detail["score_sheet"]
        if seat is not None and 0 <= seat < n:
            view["seat"] = seat
            view["hand"] = [self._card(card, found) for card in state["hands"][seat]]
        return view

    def secret_variants(self, state: State, seat: int | None, rng) -> list[State]:
        """Swap a card between two hidden places: another seat's hand, or a pile below its top card."""
        hidden: list[tuple[str, int]] = [("hands", s) for s in range(state["players"])
                                         if s != seat and state["hands"][s]]
        hidden += [("piles", c) for c in range(6) if len(state["piles"][c]) > 1]
        variants = []
        for _attempt in range(3):
            if len(hidden) < 2:
                break
            (ka, a), (kb, b) = rng.sample(hidden, 2)
            new = copy.deepcopy(state)
            la, lb = new[ka][a], new[kb][b]
            i = rng.randrange(len(la) - (ka == "piles"))
            j = rng.randrange(len(lb) - (kb == "piles"))
            la[i], lb[j] = lb[j], la[i]
            variants.append(new)
        return variants
