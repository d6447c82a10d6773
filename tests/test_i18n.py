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


def test_a_number_is_written_the_readers_way_when_shown():
    """One Text, shown in several languages: its numbers take each language's decimal mark and grouping."""
    t = ngettext("{n} point", "{n} points", 2, n=i18n.number(61.5))
    assert t == "61.5 points"
    assert localize(t, "de") == "61,5 Punkte" and localize(t, "es") == "61,5 puntos"
    assert localize(t, "qps") == "61.5 póíñts"  # a test language writes numbers the English way
    assert [localize(i18n.number(1_000_000), lang) for lang in ("en", "de")] == ["1,000,000", "1.000.000"]
    fixed = i18n.number(20, 1)
    assert (fixed, localize(fixed, "de"), localize(i18n.number(19.06, 1), "es")) == ("20.0", "20,0", "19,1")
    assert i18n.number(8.0) == "8" and i18n.number(2.25, 1) == "2.2"  # rounded once, alike in every language
    share = i18n.percent(0.456)
    assert (share, localize(share, "de"), localize(share, "es")) == ("46%", "46\u00a0%", "46\u00a0%")


def test_a_number_survives_pickle_and_json():
    t = _("{who} scores {points}.", who="Ann", points=i18n.number(4.5))
    for again in (pickle.loads(pickle.dumps(t)), from_data(json.loads(json.dumps(t.to_data())))):
        assert again == t and localize(again, "de") == localize(t, "de")
        assert "4,5" in localize(again, "de")
    assert localize(pickle.loads(pickle.dumps(i18n.number(4.5))), "es") == "4,5"
