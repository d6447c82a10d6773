"""The coach's numbers in the learner's language (issue 24, item 2): Geek Out's averages "im Schnitt 19,1 Punkte",
Geomancy's chances "45 %", Geoneo's half points "3,5 Punkte", never the English decimal point."""

from __future__ import annotations

import random
import re

import pytest

import i18n
from games.coach import advise
from games.core import get_engine

DECIMAL = {"en": re.compile(r"\d\.\d"), "de": re.compile(r"\d,\d"), "es": re.compile(r"\d,\d")}
ENGLISH_DECIMAL = re.compile(r"\d\.\d")


def _advice_texts(slug: str, players: int, seeds, options=None, limit: int = 400):
    """Every advice's words (choice and why) over seeded games that follow the advice."""
    engine = get_engine(slug)
    for seed in seeds:
        state, rng = engine.new(players, options or {}, seed), random.Random(seed)
        for _ in range(limit):
            if not engine.to_act(state):
                break
            seat = min(engine.to_act(state))
            advice = advise(engine, state, seat)
            yield advice.choice, advice.why
            keys = [a.key for a in engine.legal_actions(state, seat)]
            state, _ = engine.apply(state, seat, advice.key if rng.random() < 0.8 else rng.choice(keys))


@pytest.mark.parametrize("slug,players,seeds", [("geek_out", 2, range(2)), ("geoneo", 2, range(6))])
def test_the_coach_writes_decimals_the_learners_way(slug, players, seeds):
    found = 0
    for texts in _advice_texts(slug, players, seeds):
        english = " ".join(i18n.localize(t, "en") for t in texts)
        if not DECIMAL["en"].search(english):
            continue
        found += 1
        for lang in ("de", "es"):
            said = " ".join(i18n.localize(t, lang) for t in texts)
            assert DECIMAL[lang].search(said) and not ENGLISH_DECIMAL.search(said), (lang, said)
    assert found, "no advice with a decimal number: the test saw nothing"


def test_the_geomancy_coach_writes_percents_the_learners_way():
    found = 0
    for texts in _advice_texts("geomancy", 2, range(2), limit=30):
        english = " ".join(i18n.localize(t, "en") for t in texts)
        if "%" not in english:
            continue
        found += 1
        assert re.search(r"\d%", english)
        for lang in ("de", "es"):
            said = " ".join(i18n.localize(t, lang) for t in texts)
            assert re.search(r"\d\u00a0%", said) and not re.search(r"\d%", said), (lang, said)
    assert found


def test_one_point_is_singular_in_every_language():
    """ "Pass banks 1 points" ("Passen sichert 1 Punkte"): the banked points are a plural of their own."""
    wrong, seen = [], 0
    for texts in _advice_texts("geek_out", 2, range(3)):
        for lang, plural in (("en", "points"), ("de", "Punkte"), ("es", "puntos")):
            said = " ".join(i18n.localize(t, lang) for t in texts)
            seen += lang == "en" and bool(re.search(r"(?<![\d,.])1 point\b", said))
            if re.search(rf"(?<![\d,.])1 {plural}\b", said):
                wrong.append(said)
    assert seen and not wrong, wrong[:3]
