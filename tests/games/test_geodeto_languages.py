"""Geodeto speaks English, German and Spanish (issue 19): every word its engine gives a player (events, action
labels, rule errors, options, result lines, the view's words, the goal deck's texts) is a message.

Seeded random games are played and every text they produce is said in the pseudo-language "qps" (every vowel
accented: a word of plain ASCII letters left in it was never marked) and in German and Spanish (every message
found in the catalog, every placeholder filled)."""

import json
import random
import re
from importlib import resources

import pytest

import i18n
from games.core import SYSTEM, RulesError
from games.geodeto.deck_texts import CARD_TEXTS, SHORT_NAMES
from games.geodeto.rules import Geodeto, deck
from i18n import Text, localize

E = Geodeto()
SEEDS = range(240)
MOST_ACTIONS = 160
"""A game is played this far at most (about half the seeds reach the end before it: the result lines)."""
SEAT = re.compile(r"\{p\d+\}")
ASCII_WORD = re.compile(r"(?<!\w)[A-Za-z]{2,}(?!\w)")
"""A word of two or more plain ASCII letters (not "Čapek", "Jørn" or the "th" of "15th")."""
SEATED = ("event", "result")
"""The kinds of text that name seats as {p0}, {p1}... (the table puts the players' names in)."""
UNITS = {"km", "Mt"}
"""Not words a catalog translates: the units in the geo-tweets ("21,000 km") and "Mt." in a mountain's name."""
SAME_IN_EVERY_LANGUAGE = {"Sir Francis Drake", "Great Barrier Reef"}
"""Proper nouns of three words or more that German or Spanish write as English does."""


@pytest.fixture(autouse=True, scope="module")
def _pseudo():
    i18n.install_pseudo()
    yield
    i18n.remove_language(i18n.PSEUDO)


CARD_WORDS = ("name", "capital", "location", "tweet")


def _view_words(view: dict) -> list:
    """The words of a view a player reads: continents, cards (hand, public goals, fulfilled, claimed), extra
    cards, the score sheet's parts."""
    cards = [*(view.get("hand") or ()), *(g["card"] for g in view["public_goals"] if g["card"]),
             *(c for fs in view["fulfilled"] for c in fs), *(c["card"] for c in view["last_claims"])]
    words = [c["name"] for c in view["continents"]] + [e["name"] for e in view["extras"]]
    words += [card[k] for card in cards for k in CARD_WORDS if card.get(k)]
    words += [part["label"] for part in (view.get("score_sheet") or {}).get("parts", ())]
    return words


def _texts_of(value):
    """Every Text in a state or view (nested dicts and lists)."""
    if isinstance(value, Text):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _texts_of(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _texts_of(v)


def _play(seed: int) -> dict[str, list]:
    """One seeded random game (2-6 players, extra cards or not, now and then a timeout or a departure): what it
    said, by kind."""
    rnd = random.Random(seed)
    players = 2 + seed % 5
    options = {"extras": seed % 3 != 0, "goals": rnd.choice([0, 0, 3, 5])}
    said: dict[str, list] = {"event": [], "label": [], "view": [], "result": [], "error": [], "option": []}
    said["option"] += E.describe_options(E.normalise_options(options), players)
    state = E.new(players, options, seed)
    for _step in range(MOST_ACTIONS):
        to_act = sorted(E.to_act(state))
        if not to_act:
            break
        seat = to_act[0]
        actions = E.legal_actions(state, seat)
        for a in actions:
            said["label"] += [a.label, a.group]
        view = E.view(state, seat)
        said["view"] += _view_words(view)
        roll = rnd.random()
        if roll < 0.02:
            key, actor = f"timeout:{seat}", SYSTEM
        elif roll < 0.025 and players > 2:
            key, actor = f"leave:{rnd.choice([s for s in range(players) if not state['left'][s]])}", SYSTEM
        else:
            key, actor = rnd.choice(actions).key, seat
        if rnd.random() < 0.05:
            for wrong, who in ((key + "x", seat), (key, (seat + 1) % players), ("zz", seat)):
                try:
                    E.apply(state, who, wrong)
                except RulesError as e:
                    said["error"].append(e.args[0])
        before = state
        state, events = E.apply(state, actor, key)
        said["event"] += [e.text for e in events]
        said["event"] += [a["text"] for a in E.announcements(before, state)]
    said["result"] += E.result_lines(state)
    if state["phase"] == "over":
        said["view"] += _view_words(E.view(state, None))
        try:
            E.apply(state, 0, "pass")
        except RulesError as e:
            said["error"].append(e.args[0])
    return said


@pytest.fixture(scope="module")
def games() -> dict[str, list]:
    said: dict[str, list] = {}
    for seed in SEEDS:
        for kind, texts in _play(seed).items():
            said.setdefault(kind, []).extend(texts)
    said["option"] += [o.description for o in E.options] + [E.private_label, E.group_noun]
    return said


def _unique(texts):
    seen = {}
    for t in texts:
        key = json.dumps(t.to_data()) if isinstance(t, Text) else t
        seen.setdefault(key, t)
    return list(seen.values())


def _leaks(shown: str, kind: str) -> list[str]:
    rest = SEAT.sub("", shown) if kind in SEATED else shown
    return [w for w in ASCII_WORD.findall(rest) if w not in UNITS]


def test_the_games_say_every_kind_of_thing(games):
    assert all(games[kind] for kind in ("event", "label", "view", "result", "error", "option"))
    assert any("Pirates" in t for t in games["event"]) and any("Epidemic" in t for t in games["event"])
    assert any("fulfils" in t for t in games["event"]) and any("ran out of time" in t for t in games["event"])


@pytest.mark.parametrize("kind", ["event", "label", "view", "result", "error", "option"])
def test_nothing_a_player_reads_is_left_unmarked(games, kind):
    """In "qps" no word of plain ASCII letters is left (seats' {pN} aside), no placeholder unfilled."""
    bad = []
    for t in _unique(games[kind]):
        assert isinstance(t, Text), f"not a message: {t!r}"
        shown = localize(t, i18n.PSEUDO)
        leaks = _leaks(shown, kind)
        left = SEAT.sub("", shown) if kind in SEATED else shown
        if leaks or "{" in left or "}" in left:
            bad.append((str(t), shown, leaks))
    assert not bad, bad[:10]


def _messages(t):
    """The message and every message among its parameters and parts."""
    if not isinstance(t, Text):
        return
    if t.msgid is not None:
        yield t
    for part in t.parts or ():
        yield from _messages(part)
    for value in t.params.values():
        yield from _messages(value)


def _translated(t: Text, lang: str) -> str | None:
    """The template of ``t`` in ``lang``'s catalog, None when the catalog does not have it."""
    table = i18n.catalog(lang)._catalog
    key = f"{t.context}\x04{t.msgid}" if t.context else t.msgid
    if t.plural is not None:
        return table.get((key, 0))
    return table.get(key)


@pytest.mark.parametrize("lang", ["de", "es"])
@pytest.mark.parametrize("kind", ["event", "label", "view", "result", "option"])
def test_german_and_spanish_say_it_all(games, lang, kind):
    """Every message is in the language's catalog (none falls back to English), a sentence reads differently
    from the English, and every placeholder is filled."""
    missing, english, unfilled = set(), set(), []
    for t in _unique(games[kind]):
        assert isinstance(t, Text), f"not a message: {t!r}"
        for m in _messages(t):
            template = _translated(m, lang)
            if template is None:
                missing.add(m.msgid)
            elif (len(ASCII_WORD.findall(SEAT.sub("", m.msgid))) >= 3 and template == m.msgid
                  and m.msgid not in SAME_IN_EVERY_LANGUAGE):
                english.add(m.msgid)
        shown = localize(t, lang)
        left = SEAT.sub("", shown) if kind in SEATED else shown
        if "{" in left or "}" in left:
            unfilled.append((str(t), shown))
    assert not missing and not english and not unfilled, (sorted(missing)[:10], sorted(english)[:10], unfilled[:5])


def test_the_deck_texts_follow_the_data_file():
    """Every name, capital, location and geo-tweet of data/deck.json is a marked message (deck_texts.py), and
    every research station has its short name."""
    data = json.loads((resources.files("games.geodeto") / "data" / "deck.json").read_text(encoding="utf-8"))
    for card in data["cards"]:
        marked = CARD_TEXTS[card["id"]]
        assert {k: card[k] for k in ("name", "capital", "location", "tweet") if card.get(k)} == marked, card["id"]
        if card["name"].endswith(" Station"):
            assert SHORT_NAMES[card["id"]] == card["name"][: -len(" Station")]
    assert set(CARD_TEXTS) == set(deck())


def test_a_card_in_the_view_is_said_in_the_readers_language():
    state = E.new(3, {"extras": True}, 7)
    view = E.view(state, 0)
    card = view["hand"][0]
    assert isinstance(card["name"], Text) and isinstance(card["tweet"], Text)
    assert localize(view["continents"][0]["name"], "de") == "Europa"
    assert localize(view["continents"][5]["name"], "es") == "África"
    italy = E._card("italy", None)
    assert (localize(italy["name"], "de"), localize(italy["capital"], "es")) == ("Italien", "Roma")
    assert str(italy["name"]) == "Italy" and italy["tweet"] == deck()["italy"]["tweet"]


def test_a_stored_state_of_a_running_game_still_loads():
    """The state keeps no words (card ids, indices), so a game stored before the change plays on: its JSON
    round trip is the state itself."""
    state = E.new(4, {"extras": True}, 3)
    for _step in range(30):
        seat = sorted(E.to_act(state))[0]
        state, _events = E.apply(state, seat, E.legal_actions(state, seat)[0].key)
    stored = json.loads(json.dumps(state))
    assert stored == state
    assert not any(isinstance(t, Text) for t in _texts_of(state))
    seat = sorted(E.to_act(stored))[0]
    assert E.legal_actions(stored, seat)
