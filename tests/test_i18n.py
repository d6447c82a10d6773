"""The lazy message and the one place that picks a language (i18n/__init__.py)."""

import json
import pickle

import i18n
from i18n import _, from_data, join, localize, ngettext, pgettext


def setup_module():
    i18n.install_pseudo()


def test_a_text_is_its_english_and_remembers_how_it_was_made():
    t = _("{player} rolls {dice}.", player="{p0}", dice=ngettext("{n} die", "{n} dice", 3))
    assert t == "{p0} rolls 3 dice." and isinstance(t, str)
    assert localize(t, "qps") == "{p0} rólls 3 díçé."
    assert localize(ngettext("{n} die", "{n} dice", 1), "qps") == "1 díé"


def test_a_text_survives_pickle_and_json():
    t = join([_("{who} passes.", who="Ann"), pgettext("button", "Pass")])
    again = pickle.loads(pickle.dumps(t))
    assert isinstance(again, i18n.Text) and localize(again, "qps") == localize(t, "qps") == "Ann pássés. Páss"
    stored = from_data(json.loads(json.dumps(t.to_data())))
    assert localize(stored, "qps") == localize(t, "qps")


def test_names_and_plain_strings_are_never_translated():
    assert localize("Ann", "qps") == "Ann"
    assert localize(_("{who} passes.", who="Ann"), "qps") == "Ann pássés."


def test_using_sets_the_language_of_everything_drawn_inside():
    t = _("Round {n}", n=2)
    with i18n.using("qps"):
        assert i18n.here(t) == "Róúñd 2"
        with i18n.using("en"):
            assert i18n.here(t) == "Round 2"
    assert i18n.here(t) == "Round 2"


def test_discord_locales_map_to_ours():
    assert [i18n.pick(x) for x in ("de", "es-ES", "es-419", "en-US", "fr", None)] == ["de", "es", "es", "en", "en", "en"]


def test_german_and_spanish_catalogs_load():
    for lang in ("de", "es"):
        assert i18n.catalog(lang) is not None


def test_formatting_keeps_unfilled_placeholders_and_survives_a_broken_template():
    """What ``_format`` promises whatever does the formatting: named placeholders filled, ``{p0}`` left for the
    table, ``{{`` an escaped brace, and a template it cannot fill (a stray brace, a positional field, a format
    spec on a missing value) given back as it is rather than breaking a board."""
    assert _("{who} has {n:.1f} points, {p0} too.", who="Ann", n=2.25) == "Ann has 2.2 points, {p0} too."
    assert _("{{literal}} {who}", who="Ann") == "{literal} Ann"
    for broken in ("{who} {", "{0} {who}", "{who.nope} x", "{missing:.1f} {who}", "{who:d}"):
        assert _(broken, who="Ann") == broken
    assert localize(_("{who}: {what}", who="Ann", what=pgettext("button", "Pass")), "qps") == "Ann: Páss"
