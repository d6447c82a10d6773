"""Globe Twister speaks English, German and Spanish (issue 19): every text the engine gives the table (events,
action labels, the run announcements, result lines, rules errors, option descriptions, the words of its views)
is a message said again in the reader's language.

The leak check plays seeded games (tables of 2-5 with every option, solo practice and every level, computers
that rebuild photos, departures, timeouts, the sand timer, the tiebreakers) and says every text in the
pseudo-language "qps" (every vowel accented): a word of plain ASCII letters left in it was never marked. In
German and Spanish every message the texts are made of must have a translation and fill every placeholder."""

from __future__ import annotations

import random
import re

import pytest

import i18n
from games.ai import choose
from games.core import SYSTEM, RulesError
from games.globe_twister.ai import GlobeTwisterComputer
from games.globe_twister.rules import PHOTO_NAMES, GlobeTwister, tiebreak_text
from games.globe_twister.solver import LEVELS
from i18n import Text
from tests.games.test_globe_twister import (
    act,
    game,
    one_move_from_solved,
    place,
    program,
    swapped,
    with_puzzle,
)

E = GlobeTwister()
QPS = i18n.install_pseudo()

SEAT = re.compile(r"\{p\d+\}")
"""A seat the table names later: the one placeholder an event may leave."""
WORD = re.compile(r"[^\W\d_]+")
"""A word (letters, accented or not)."""
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
CODES = re.compile(r"\b[GBR][1-5]\b")
"""The cards' short names (G1, B5, R2) are printed on the cards: the same in every language."""
SAME = {("es", "Asia"), ("es", "{level}, {puzzle} ({photo}): par {par}, {red}.")}
"""Messages whose translation is the English word itself."""


def play(players: int, options: dict, seed: int, *, strength: str | None = "strong", chaos: float = 0.0,
         limit: int = 600) -> list[tuple[str, object]]:
    """Plays a game to its end (computers of ``strength``, else random keys; with ``chaos`` the table now and
    then lets the sand run out, times a player out or sees one leave). Returns every text shown, by kind."""
    rng = random.Random(seed)
    s = E.new(players, options, seed)
    shown: list[tuple[str, object]] = [("event", e.text) for e in E.opening(s)]
    for step in range(limit):
        to_act = sorted(E.to_act(s))
        if not to_act:
            break
        shown += views(s)
        for seat in to_act:
            shown += [("label", a.label) for a in E.legal_actions(s, seat)]
        roll = rng.random()
        if roll < chaos / 3 and E.timer(s):
            seat, key = SYSTEM, f"timer:{E.timer(s)[0]}"
        elif roll < chaos * 2 / 3:
            seat, key = SYSTEM, f"timeout:{rng.choice(to_act)}"
        elif roll < chaos * 0.7 and len(E.remaining(s)) > 1:
            seat, key = SYSTEM, f"leave:{rng.choice(E.remaining(s))}"
        else:
            seat = rng.choice(to_act)
            if strength:
                key = choose(E, s, seat, strength, f"{seed}:{step}")
            else:
                key = rng.choice(E.legal_actions(s, seat)).key
        before = s
        s, events = E.apply(s, seat, key)
        shown += [("event", e.text) for e in events]
        shown += [("announcement", a["text"]) for a in E.announcements(before, s)]
    assert E.is_over(s), f"{players} players {options} seed {seed} did not end"
    shown += views(s)
    shown += [("result", line) for line in E.result_lines(s)]
    return shown


def views(s: dict) -> list[tuple[str, object]]:
    """The words of the public view and each seat's own: the photos' names, the solo level's name."""
    out = []
    for seat in (None, *range(s["players"])):
        view = E.view(s, seat)
        out += [("view", p["name"]) for p in view["photos"]]
        if view["solo"] is not None:
            out.append(("view", view["solo"]["level_name"]))
    return out


def scripted() -> list[tuple[str, object]]:
    """The endings random games rarely reach: each tiebreaker, a tie played again, a tie-break round left."""
    shown = []

    def run(s, *moves):
        for seat, key in moves:
            before = s
            s, events = E.apply(s, seat, key)
            shown.extend(("event", e.text) for e in events)
            shown.extend(("announcement", a["text"]) for a in E.announcements(before, s))
        shown.extend(("result", line) for line in E.result_lines(s))
        return s

    s = one_move_from_solved(one_move_from_solved(game(2, 10), 0), 1)
    s = with_puzzle(s, 1, swapped(tuple(t * 4 for t in range(9)), 0, 8))
    s = place(place(s, 0, 0, "b1", "e"), 1, 0, "r1")
    run(s, (1, "lock"), (0, "lock"))  # most red cards left
    s = one_move_from_solved(one_move_from_solved(game(2, 11), 0), 1)
    s = place(program(s, 0, (0, "b1", "e"), (4, "b3")), 1, 0, "b1", "e")
    run(s, (0, "lock"), (1, "lock"))  # fewest cards
    s = one_move_from_solved(one_move_from_solved(game(2, 11, travel_log=True), 0), 1)
    s = place(place(s, 0, 0, "b1", "e"), 1, 0, "b1", "e")
    run(s, (1, "lock"), (0, "lock"))  # who turned the timer, round 1 of 2
    s = game(3, 12)
    for seat in (0, 1):
        s = place(one_move_from_solved(s, seat), seat, 0, "b1", "e")
    s = run(s, (2, "lock"), (0, "lock"), (1, "lock"))  # still tied: they play again
    shown.extend(("label", a.label) for a in E.legal_actions(s, 0))
    run(s, (SYSTEM, "leave:0"))  # the tie-break round is the other's
    return shown


def everything() -> list[tuple[str, object]]:
    shown: list[tuple[str, object]] = []
    for players, options, seed, strength, chaos in (
            (2, {}, 1, "strong", 0.0),
            (2, {"travel_log": True, "no_red": True}, 2, "strong", 0.0),
            (3, {"photo": "choose", "timer": 20}, 3, "normal", 0.05),
            (3, {"photo": "back", "turn_limit": 2}, 4, None, 0.1),
            (4, {"photo": "europe", "no_timer": True, "turn_limit": 3}, 5, "easy", 0.05),
            (5, {"travel_log": True, "turn_limit": 2}, 6, None, 0.2),
            (1, {}, 7, "strong", 0.0),
            (1, {"photo": "choose", "turn_limit": 1}, 8, None, 0.1),
            (1, {"puzzle": "tourist", "number": 1}, 9, "strong", 0.0),
            (1, {"puzzle": "backpacker", "number": 2}, 10, "normal", 0.0),
            (1, {"puzzle": "globetrotter"}, 11, "strong", 0.0),
            (1, {"puzzle": "wild", "number": 1, "turn_limit": 2}, 12, None, 0.0),
    ):
        shown += play(players, options, seed, strength=strength, chaos=chaos)
    # hints (solo): taken before the computer plays
    s = E.new(1, {"puzzle": "backpacker", "number": 3}, 13)
    for _hint in range(3):
        if "hint" in {a.key for a in E.legal_actions(s, 0)}:
            s, events = E.apply(s, 0, "hint")
            shown += [("event", e.text) for e in events]
    while not E.is_over(s):
        s, events = E.apply(s, 0, choose(E, s, 0, "strong", "hints"))
        shown += [("event", e.text) for e in events]
    shown += [("result", line) for line in E.result_lines(s)]
    shown += scripted()
    shown += [("option", o.description) for o in E.options]
    shown += [("label", E.private_label), ("label", E.group_noun)]
    shown += [("strength", words) for words in GlobeTwisterComputer.strengths.values()]
    shown += [("error", message) for message in errors()]
    return shown


def errors() -> list[str]:
    """The rules errors a Globe Twister table meets: bad options, keys the table never offers (games/core.py
    refuses those before the game sees them), a timer that is not running, a player who already left."""
    out = []
    for players, options in ((2, {"puzzle": "tourist"}), (1, {"number": 3}), (6, {}), (2, {"timer": 2}),
                             (2, {"photo": "mars"}), (2, {"no_red": 1}), (2, {"q1": 1})):
        with pytest.raises(RulesError) as caught:
            E.new(players, options, 1)
        out.append(caught.value.args[0])
    s = E.new(2, {}, 1)
    left, _events = E.apply(s, SYSTEM, "leave:1")
    for state, seat, key in ((s, 0, "k7"), (s, 0, "d"), (s, SYSTEM, "timer:sand9"), (s, 0, "x"),
                             (s, SYSTEM, "timeout:5"), (s, SYSTEM, "shuffle"), (left, SYSTEM, "leave:1")):
        with pytest.raises(RulesError) as caught:
            E.apply(state, seat, key)
        out.append(caught.value.args[0])
    return out


@pytest.fixture(scope="module")
def shown() -> list[tuple[str, object]]:
    return everything()


def messages(value) -> list[Text]:
    """Every message a text is made of (a sentence, its parameters, joined parts)."""
    if not isinstance(value, Text):
        return []
    out = [value] if value.msgid is not None else []
    for part in (*(value.parts or ()), *value.params.values()):
        out += messages(part)
    return out


KEYS = sorted({E.title, *(o.name for o in E.options), *(str(c) for o in E.options for c in o.choices)},
              key=len, reverse=True)
"""What a player types or reads as published in every language: the game's name, the options' names and values
(an error about an option quotes them)."""


def leaks(said: str) -> list[str]:
    """The words of two or more plain ASCII letters (card codes, seat placeholders and option keys aside)."""
    said = SEAT.sub("", CODES.sub("", said))
    for key in KEYS:
        said = re.sub(rf"(?<![\w-]){re.escape(key)}(?![\w-])", " ", said)
    return [w for w in WORD.findall(said) if len(w) >= 2 and w.isascii()]


def test_the_games_reach_every_kind_of_text(shown):
    kinds = {kind for kind, _ in shown}
    assert kinds == {"event", "label", "announcement", "result", "view", "option", "error", "strength"}
    english = {str(v) for _, v in shown}
    for needle in ("tiebreaker: most red cards left", "tiebreaker: fewest cards", "tiebreaker: turned the sand",
                   "still tied", "takes a hint", "ran out of time", "left the game", "The sand runs out",
                   "Nobody rebuilt their photo in", "Round wins:", "par ", "the programs run",
                   "Tourist", "Into the Wild", "Lock in and turn the sand timer", "(no effect here)"):
        assert any(needle in t for t in english), needle


def test_every_text_is_marked_no_english_word_left_in_qps(shown):
    found = {}
    for kind, value in shown:
        said = i18n.localize(value, QPS)
        if leaks(said) or "{" in SEAT.sub("", said):
            found.setdefault(f"{kind}: {said}", str(value))
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", ["de", "es"])
def test_german_and_spanish_fill_every_placeholder_and_translate_every_message(shown, lang):
    untranslated, broken = set(), set()
    for kind, value in shown:
        said = i18n.localize(value, lang)
        if "{" in SEAT.sub("", said) or "}" in SEAT.sub("", said):
            broken.add(f"{kind}: {said}")
        if said == str(value) and leaks(str(value)) and (lang, str(value)) not in SAME:
            untranslated.add(str(value))
        for message in messages(value):
            english = i18n.localize(Text(message.msgid, {}, plural=message.plural, n=message.n,
                                         context=message.context), "en")
            local = i18n.localize(Text(message.msgid, {}, plural=message.plural, n=message.n,
                                       context=message.context), lang)
            if local == english and leaks(PLACEHOLDER.sub("", english)) and (lang, english) not in SAME:
                untranslated.add(english)
    assert not broken, "\n".join(sorted(broken))
    assert not untranslated, "\n".join(sorted(untranslated))


def test_option_descriptions_fit_discord_in_every_language():
    """Discord takes at most 100 characters for a slash command option's description."""
    for option in E.options:
        for lang in ("en", "de", "es"):
            assert len(i18n.localize(option.description, lang)) <= 100, (option.name, lang)


def test_every_level_name_and_photo_name_is_translated():
    for lang in ("de", "es"):
        names = [i18n.localize(E.view(E.new(1, {"puzzle": level}, 1), 0)["solo"]["level_name"], lang)
                 for level in LEVELS]
        english = [E.view(E.new(1, {"puzzle": level}, 1), 0)["solo"]["level_name"] for level in LEVELS]
        assert len(set(names)) == len(LEVELS) and all("★" in n for n in names), names
        assert not set(names) & set(english), names
        photos = {key: i18n.localize(name, lang) for key, name in PHOTO_NAMES.items()}
        assert all(photos[k] != PHOTO_NAMES[k] or (lang, photos[k]) in SAME for k in photos), photos


def test_a_stored_travel_log_of_an_older_game_reads_in_every_language():
    """States store the tiebreaker's English words (as they always did): a game stored before issue 19 goes
    on, and its result lines read in German too."""
    s = one_move_from_solved(one_move_from_solved(game(2, 10), 0), 1)
    s = with_puzzle(s, 1, swapped(tuple(t * 4 for t in range(9)), 0, 8))
    s = act(place(place(s, 0, 0, "b1", "e"), 1, 0, "r1"), 1, "lock")
    s = act(s, 0, "lock")
    assert s["travel_log"][0]["tiebreak"] == "most red cards left"
    [line] = E.result_lines(s)
    assert line == "{p0} rebuilt the Polar region photo in turn 1, tiebreaker: most red cards left."
    assert i18n.localize(line, "de") == ("{p0} hat das Foto Polarregion in Zug 1 zusammengesetzt, Entscheidung: "
                                         "meiste rote Karten übrig.")
    assert i18n.localize(tiebreak_text("turned the sand timer"), "es") == "giró el reloj de arena"
