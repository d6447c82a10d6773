"""Geomancy speaks English, German and Spanish: every word its engine gives a player (events, action labels and
their groups, notices, result lines, option descriptions, the computers' strengths, the words of its views,
refusals) is a message, said in the pseudo-language "qps" with no plain English word left, and in German and
Spanish with every placeholder filled and nothing left in English."""

import random
import re

import pytest

import i18n
from games.core import SYSTEM, RulesError
from games.geomancy.ai import GeomancyComputer
from games.geomancy.rules import REASONS, Geomancy
from i18n import Text, localize

E = Geomancy()
SEAT = re.compile(r"\{p\d+\}")
SQUARE = re.compile(r"(?<![A-Za-z])[a-hA-H][1-8](?![0-9])")
WORD = re.compile(r"[A-Za-z]{2,}")
MARKABLE = set("aeiouncyAEIOUNCY")
"""The letters the pseudo-language changes: an English word has one of them (a vowel, n, c, y)."""
SAME = {"Auras", "AURAS", "N", "NE", "E", "SE", "S", "SW", "W", "NW"}
"""Messages whose German or Spanish may be the English itself (the compass's letters: "SW" is "SW" in German,
"SE" "SE" in Spanish)."""


@pytest.fixture(scope="module", autouse=True)
def pseudo():
    code = i18n.install_pseudo()
    yield code
    i18n.remove_language(code)


def _texts(value, found):
    """Every Text inside a view (dicts and lists walked)."""
    if isinstance(value, Text):
        found.append(value)
    elif isinstance(value, dict):
        for v in value.values():
            _texts(v, found)
    elif isinstance(value, list | tuple):
        for v in value:
            _texts(v, found)
    return found


def _msgids(text, out):
    if isinstance(text, Text):
        if text.parts is not None:
            for p in text.parts:
                _msgids(p, out)
        else:
            out.add(text.msgid)
            for v in text.params.values():
                _msgids(v, out)
    return out


def play_games():
    """Seeded random games (2 to 6 players, every drop height, knocks on and off, one that passes a lot) with
    timeouts and departures:
    ``(kind, text)`` for everything said, and the refusals of illegal moves."""
    said: list[tuple[str, object]] = []
    refused: list[object] = []
    for players, seed, options, passing in ((2, 1, {}, 0.1), (3, 2, {"height": "high"}, 0.1),
                                            (4, 3, {"height": "low"}, 0.1), (5, 4, {"knocks": False}, 0.1),
                                            (6, 5, {}, 0.1), (2, 6, {"height": "high"}, 0.1), (3, 7, {}, 0.9)):
        state = E.new(players, options, seed)
        said.extend(("event", e.text) for e in E.opening(state))
        pick = random.Random(seed)
        refusals = 0
        while E.to_act(state):
            seat = min(E.to_act(state))
            actions = E.legal_actions(state, seat)
            for a in actions:
                said.append(("label", a.label))
                said.append(("label", a.group))
            notice = E.notice(state)
            if notice:
                said.append(("notice", notice))
            said.extend(("view", t) for t in _texts(E.view(state, None), []))
            if refusals < 3 and pick.random() < 0.02:
                refusals += 1
                for who, key in ((seat, "c99"), ((seat + 1) % players, actions[0].key), (SYSTEM, "timer:x")):
                    with pytest.raises(RulesError) as err:
                        E.apply(state, who, key)
                    refused.append(err.value.args[0])
            roll = pick.random()
            if roll < 0.03:
                state, events = E.apply(state, SYSTEM, f"timeout:{seat}")
            elif roll < 0.035 and len(E.remaining(state)) > 2:
                state, events = E.apply(state, SYSTEM, f"leave:{pick.choice(E.remaining(state))}")
            else:
                keys = [a.key for a in actions]
                casts = [k for k in keys if k[0] == "c"]
                if "pass" in keys and pick.random() < passing:  # (a quiet table: the stall ends rounds)
                    key = "pass"
                else:
                    key = pick.choice(casts) if casts and pick.random() < 0.6 else pick.choice(keys)
                state, events = E.apply(state, seat, key)
            said.extend(("event", e.text) for e in events)
        said.extend(("result", line) for line in E.result_lines(state))
        said.extend(("view", t) for t in _texts(E.view(state, None), []))
        with pytest.raises(RulesError) as err:
            E.apply(state, 0, "pass")
        refused.append(err.value.args[0])
    said.extend(("option", o.description) for o in E.options)
    said.append(("label", E.group_noun))
    said.extend(("strength", s) for s in GeomancyComputer.strengths.values())
    said.extend(("reason", r) for r in REASONS.values())
    return said, refused


@pytest.fixture(scope="module")
def games():
    return play_games()


@pytest.fixture(scope="module")
def said(games):
    return games[0]


def test_refusals_of_illegal_moves_are_said_in_every_language(games, pseudo):
    """What a player is told when a move is refused (the table's words, games/core.py, for every game)."""
    refused = games[1]
    assert len(refused) > 10
    for text in refused:
        assert isinstance(text, Text), text
        assert not _leaks(localize(text, pseudo)), text
        assert localize(text, "de") != str(text) and localize(text, "es") != str(text), text


def test_the_games_say_everything_there_is_to_say(said):
    """The games above reach every kind of message (else the checks below would prove little)."""
    ids = set()
    for _kind, text in said:
        _msgids(text, ids)
    for wanted in ("{player} casts {stones} at {square}: {landings}.", "{stone} is knocked from {origin} to {target}.",
                   "{player}'s aura of {strength} captures {stone} on {square}.", "On {square} {stone} captures {stones}.",
                   "On {square} {stones} tie for the largest: recast.", "{size} upright on {square} (recast)",
                   "{size} off the board (recast)", "{player} passes.", "{player} left the game.",
                   "{player} ran out of time; the table plays for them.", "Round {round} ({stones}): {player} starts.",
                   "Everyone passed: round {round} is over.", "{n} lap of passes: round {round} is over.",
                   "{player} keeps their {kept} on {square}; their {recast} is recast.",
                   "{player} keeps their {kept} on {square} (the table chooses); their {recast} is recast.",
                   "Round {round} ends in {n} turn unless someone casts, turns a stone or captures.",
                   "Keep the small on {square} ({arrow} {direction})", "Point {direction}", "Choose another move",
                   "Reorient small on {square} ({direction})", "Aim {square}", "Aim at rank {rank}",
                   "{player} turns their small on {square} from {before} to {after} {arrow}.",
                   "{player}: {n} points ({board} on the board, {prisoners} in prisoners)"):
        assert wanted in ids, wanted
    assert all(isinstance(text, Text) for _kind, text in said), [t for _k, t in said if not isinstance(t, Text)]


def _leaks(shown: str) -> list[str]:
    rest = SQUARE.sub(" ", SEAT.sub(" ", shown))
    return [w for w in WORD.findall(rest) if MARKABLE & set(w)]


def test_nothing_is_left_in_english_in_the_pseudo_language(said, pseudo):
    problems = []
    for kind, text in said:
        shown = localize(text, pseudo)
        unfilled = SEAT.sub("", shown) if kind in ("event", "result") else shown
        if _leaks(shown) or "{" in unfilled or "}" in unfilled:
            problems.append((kind, str(text), shown))
    assert not problems, problems[:20]


@pytest.mark.parametrize("locale", ["de", "es"])
def test_german_and_spanish_fill_every_placeholder_and_leave_nothing_in_english(said, locale):
    problems = []
    for kind, text in said:
        shown = localize(text, locale)
        unfilled = SEAT.sub("", shown) if kind in ("event", "result") else shown
        english = str(text)
        untranslated = shown == english and WORD.search(SQUARE.sub(" ", SEAT.sub(" ", english)))
        ids = _msgids(text, set())
        if "{" in unfilled or "}" in unfilled or (untranslated and not (ids and ids <= SAME)):
            problems.append((kind, english, shown))
    assert not problems, problems[:20]


def test_a_stone_as_subject_and_as_object_are_said_apart_in_german():
    """German declines the stone that is captured ("den kleinen Stein"), not the one that captures."""
    state = E.new(2, {}, 1)
    from games.geomancy.rules import stone_words

    assert localize(stone_words(state["per"], 0), "de") != localize(stone_words(state["per"], 0, "object"), "de")
    assert str(stone_words(state["per"], 0)) == str(stone_words(state["per"], 0, "object")) == "{p0}'s small"


def test_a_state_keeps_no_words_so_running_games_load_as_they_were():
    """The state holds keys and numbers only (a recast's reason is a key the board words): a game stored before
    the languages goes on unchanged, and the words are said in whichever language shows them."""
    state = E.new(4, {}, 9)
    pick = random.Random(9)
    while E.to_act(state):
        found = _texts(state, [])
        assert not found, found
        assert E.decode(E.encode(state)) == state
        seat = min(E.to_act(state))
        state, _events = E.apply(state, seat, pick.choice(E.legal_actions(state, seat)).key)
