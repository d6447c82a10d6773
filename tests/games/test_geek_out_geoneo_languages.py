"""Geek Out! Masters and GEONEO speak German and Spanish: every text their engines give a player (events, action
labels, rules errors, option descriptions, seat notes, result details) is a message of the catalogs.

Seeded random games (with timeouts and departures) collect the texts; each is said in the pseudo-language "qps"
(a word of plain ASCII letters left in it was never marked), and in German and Spanish (no word of the English
left, every placeholder filled: a translation that breaks its format falls back to the bare template)."""

import random
import re

import pytest

import i18n
from games.core import SYSTEM, RulesError, get_engine
from i18n import localize

GAMES = ("geek_out", "geoneo")
SEEDS = range(120)
SEAT = re.compile(r"\{p\d+\}")
WORD = re.compile(r"[^\W\d_]{2,}")
SHOWN_IN_QPS = set("aeioucnyAEIOUCNY")
"""The letters the pseudo-language accents: a word without any of them ("pts") looks the same translated or not."""
SAME_IN_EVERY_LANGUAGE = {"Meeple", "TOTAL", "Team", "Pkt"}
"""Words that are the same in English and the translation: a die face's name (Meeple), Spanish "TOTAL", German
"Team", and "Pkt" (which the English "pts" only shares letters with, not a word)."""


@pytest.fixture(scope="module", autouse=True)
def languages():
    """The pseudo-language, and the compiled catalogs as fresh as the .po files (the install compiles them)."""
    from i18n import catalogs

    mos = [i18n.LOCALE_DIR / f"{lang}.mo" for lang in catalogs.TRANSLATED]
    pos = [catalogs.po_path(slug, lang) for slug in GAMES for lang in catalogs.TRANSLATED]
    if not all(m.exists() for m in mos) or max(p.stat().st_mtime for p in pos) > min(m.stat().st_mtime for m in mos):
        catalogs.compile_all()
        for lang in catalogs.TRANSLATED:
            i18n._catalogs.pop(lang, None)
    i18n.install_pseudo()
    yield
    i18n.remove_language(i18n.PSEUDO)


def play_texts(slug: str, seed: int) -> list:
    """Every text a seeded random game shows: events, the labels of the actions on offer, rules errors."""
    engine = get_engine(slug)
    pick = random.Random(seed)
    players = pick.randint(max(engine.min_players, 2 if seed % 3 else engine.min_players), engine.max_players)
    state = engine.new(players, {}, seed)
    texts = [e.text for e in engine.opening(state)]
    texts += list(engine.seating(players))
    for _ in range(400):
        to_act = sorted(engine.to_act(state))
        if not to_act:
            break
        seat = pick.choice(to_act)
        actions = engine.legal_actions(state, seat)
        texts += [a.label for a in actions]
        roll = pick.random()
        if roll < 0.03 and len(engine.remaining(state)) > engine.min_players:
            seat, key = SYSTEM, f"leave:{pick.choice(engine.remaining(state))}"
        elif roll < 0.08:
            seat, key = SYSTEM, f"timeout:{seat}"
        else:
            key = pick.choice(actions).key
        state, events = engine.apply(state, seat, key)
        texts += [e.text for e in events]
    result = engine.result(state)
    if result is not None:
        texts += list(result.detail.get("team_names") or [])
        texts += engine.result_lines(state)
    return texts


def engine_texts(slug: str) -> list:
    engine = get_engine(slug)
    texts = [o.description for o in engine.options]
    texts += [t for t in (engine.private_label, engine.group_noun) if t and t != "choice"]
    if slug == "geek_out":
        for zones in ({"z9": {1: "42"}}, {"active": {1: "f9"}}):
            with pytest.raises(RulesError) as caught:
                engine.arrange(engine.new(2, {}, 0), **zones)
            texts.append(caught.value.args[0])
    return texts


def all_texts(slug: str) -> list:
    texts = engine_texts(slug)
    for seed in SEEDS:
        texts += play_texts(slug, seed)
    unique, seen = [], set()
    for t in texts:
        key = repr(t.to_data()) if isinstance(t, i18n.Text) else t
        if key not in seen:
            seen.add(key)
            unique.append(t)
    return unique


@pytest.fixture(scope="module", params=GAMES)
def game_texts(request):
    return request.param, all_texts(request.param)


def unfilled(said: str) -> list[str]:
    return re.findall(r"\{[^{}]*\}", SEAT.sub("", said))


def test_every_text_is_a_message_with_its_placeholders_filled(game_texts):
    slug, texts = game_texts
    assert len(texts) > 50
    leaks = []
    for t in texts:
        said = localize(t, i18n.PSEUDO)
        plain = [w for w in WORD.findall(SEAT.sub("", said)) if w.isascii() and SHOWN_IN_QPS.intersection(w)]
        if plain or unfilled(said):
            leaks.append((str(t), said))
    assert not leaks, f"{slug}: texts not (wholly) marked: {leaks[:10]}"


@pytest.mark.parametrize("lang", ["de", "es"])
def test_german_and_spanish_leave_no_english_word(game_texts, lang):
    slug, texts = game_texts
    english_left = []
    for t in texts:
        said = localize(t, lang)
        english = {w for w in WORD.findall(SEAT.sub("", str(t))) if len(w) > 2}  # ("no", "in": Spanish, German too)
        kept = [w for w in WORD.findall(SEAT.sub("", said)) if w in english and w not in SAME_IN_EVERY_LANGUAGE]
        if kept or unfilled(said):
            english_left.append((str(t), said))
    assert not english_left, f"{slug} in {lang}: English left or a broken format: {english_left[:10]}"


def test_a_stored_opening_survives_json_and_old_english_openings_still_load():
    import json

    engine = get_engine("geek_out")
    state = json.loads(json.dumps(engine.new(2, {}, 4)))
    opening = engine.opening(state)
    assert opening and localize(opening[0].text, "de") != str(opening[0].text)
    assert localize(opening[0].text, "de").startswith("{p")
    old = dict(state, opening=[["{p0} starts turn 1 and rolls Heart, 42.", 0]])  # a state saved before
    assert [e.text for e in engine.opening(old)] == ["{p0} starts turn 1 and rolls Heart, 42."]
    geoneo = get_engine("geoneo")
    for seed in range(40):
        state = json.loads(json.dumps(geoneo.new(2, {}, seed)))
        for e in geoneo.opening(state):
            assert localize(e.text, "es") != str(e.text)


def test_banked_points_read_as_points_for_dice_not_as_a_product():
    engine = get_engine("geek_out")
    state = engine.arrange(engine.new(2, {}, 0), active={1: "42", 2: "42", 3: "42"}, used={4: "heart"},
                           inactive={5: "42", 6: "42", 7: "42", 8: "42", 9: "42", 10: "42"})
    seat = state["current"]
    _, events = engine.apply(state, seat, "p")
    said = {lang: localize(events[0].text, lang).replace(f"{{p{seat}}}", "Ana") for lang in ("en", "de", "es")}
    assert said == {"en": "Ana passes and banks 6 points for 3 dice showing 42.",
                    "de": "Ana passt und sichert sich 6 Punkte für 3 Würfel mit 42.",
                    "es": "Ana pasa y se anota 6 puntos por 3 dados con 42."}
    assert not any("×" in s or "=" in s for s in said.values())
