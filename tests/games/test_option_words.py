"""A game's options in words (the lobby's "Options:" line, a refused option) say the option's name and value
as /play shows them in the reader's language: the ``commands`` catalog's option and choice names (issue 19)."""

import re

import pytest

import i18n
from games import all_engines, get_engine
from games.core import RulesError

PLAIN_WORD = re.compile(r"\b[A-Za-z]{2,}\b")


def unmarked(text: str) -> list[str]:
    """Words of plain ASCII letters in a qps text (every translated word has an accent)."""
    return [w for w in PLAIN_WORD.findall(text) if i18n.pseudo(w) != w]


@pytest.mark.parametrize("engine", all_engines(), ids=lambda e: e.slug)
def test_the_lobbys_options_are_said_in_the_readers_language(engine):
    options = engine.normalise_options({})
    said = [i18n.localize(line, i18n.PSEUDO) for line in engine.describe_options(options, engine.min_players)]
    assert not [w for line in said for w in unmarked(line)], said


def test_option_words_in_german_and_english_as_play_names_them():
    engine = get_engine("geomancy")
    lines = engine.describe_options(engine.normalise_options({}), 2)
    assert lines == ["height = medium", "knocks = true"]  # the English, as /play names them
    german = i18n.localize(lines, "de")
    assert german[0].startswith("fallhöhe = ") and german[1].startswith("anstoßen = "), german
    assert "true" not in german[1] and "medium" not in german[0], german


def test_a_refused_option_names_it_and_its_choices_in_the_readers_language():
    with pytest.raises(RulesError) as refused:
        get_engine("geomancy").normalise_options({"height": "sky"})
    text = refused.value.args[0]
    assert text == "Option height must be one of low, medium, high."
    assert not unmarked(i18n.localize(text, i18n.PSEUDO)), i18n.localize(text, i18n.PSEUDO)
