"""Slash commands in German and Spanish (issue 19): the sync the bot sends Discord carries name and
description localizations for de, es-ES and es-419 on every command, option and choice, and they pass
Discord's rules (names lower case, no spaces, 1-32 letters/digits/-/_, unique among siblings)."""

import discord
import pytest

import i18n
from bot.translator import NAMED, command_messages, name_problems, payloads, translate, valid_name
from playground.fake_discord import DiscordError, check_commands
from tests.bot.harness import BotRunner

LOCALES = ("de", "es-ES", "es-419")
GAMES = {"geek-out", "geodeto", "geomancy", "geoneo", "globe-twister"}
"""/play's subcommands: the games' names, kept as published in every language."""
TITLES = {"Geek Out! Masters", "Geodeto", "Geomancy", "GEONEO", "Globe Twister"}


def same_in(lang: str, kind: str, english: str) -> bool:
    """A word kept as it is (a game's name, "normal", "status" in German): no localization needed."""
    return i18n.catalog(i18n.pick(lang)).pgettext(kind, english) == english


def walk(items, path=""):
    for item in items:
        here = f"{path} {item['name']}".strip()
        yield here, item
        yield from walk(item.get("options") or [], here)


def test_every_translated_name_follows_discords_rules():
    bad = []
    for kind, english in command_messages():
        for lang in ("de", "es"):
            said = i18n.catalog(lang).pgettext(kind, english)
            if kind in NAMED and not valid_name(said):
                bad.append(f"{lang} {kind} {english!r} -> {said!r}")
            if not 1 <= len(said) <= 100:
                bad.append(f"{lang} {kind} {english!r}: {len(said)} characters")
    assert not bad, "\n".join(bad)


def test_the_translator_speaks_german_and_both_spanishes_only():
    assert translate("play", discord.Locale.german, "command name") == "spielen"
    assert translate("play", discord.Locale.spain_spanish, "command name") == "jugar"
    assert translate("play", discord.Locale.latin_american_spanish, "command name") == "jugar"
    assert translate("play", discord.Locale.french, "command name") is None
    assert translate("play", discord.Locale.american_english, "command name") is None
    assert translate("geek-out", discord.Locale.german, "command name") is None  # a game's name stays


def test_a_name_discord_would_refuse_is_left_out(monkeypatch):
    i18n.install_language("de", {("command name", "play"): "Spiel starten", ("option name", "turns"): "x" * 33,
                                 ("command description", "The game in this channel"): "y" * 101})
    try:
        assert translate("play", discord.Locale.german, "command name") is None
        assert translate("turns", discord.Locale.german, "option name") is None
        assert translate("The game in this channel", discord.Locale.german, "command description") is None
    finally:
        i18n.remove_language("de")


async def test_the_payload_passes_discords_validation():
    commands = await payloads()
    assert not name_problems(commands)
    check_commands(commands)  # what the fake (Discord's rules) refuses


def test_siblings_with_one_name_in_a_language_are_refused():
    a = {"name": "status", "description": "A", "name_localizations": {"de": "zeigen"}}
    b = {"name": "show", "description": "B", "name_localizations": {"de": "zeigen"}}
    c = {"name": "zeigen", "description": "C"}  # English, so also its German name
    for pair in ([a, b], [a, c]):
        assert name_problems([{"name": "x", "description": "X", "options": pair}])
        with pytest.raises(DiscordError):
            check_commands([{"name": "x", "description": "X", "options": pair}])
        with pytest.raises(DiscordError):
            check_commands(pair)
    with pytest.raises(DiscordError):
        check_commands([dict(a, name_localizations={"de": "Zeigen Sie"})])
    with pytest.raises(DiscordError):
        check_commands([dict(a, description_localizations={"es-ES": "z" * 101})])


async def test_the_sync_carries_german_and_spanish_names_and_descriptions(fake, tmp_path):
    runner = BotRunner(fake, str(tmp_path / "geotable.db"))
    await runner.start()
    try:
        synced = list(fake.commands.values())
    finally:
        await runner.stop()
    assert {m for m in command_messages() if m[0] in NAMED and m[1] not in GAMES | {"mod", "id"}
            and all(same_in(lang, *m) for lang in LOCALES)} == set()
    assert fake.commands["play"]["name_localizations"] == {"de": "spielen", "es-ES": "jugar", "es-419": "jugar"}
    missing, choices = [], 0

    for path, item in walk(synced):
        names, texts = item.get("name_localizations") or {}, item.get("description_localizations") or {}
        kind = "command name" if item.get("type", 1) in (1, 2) else "option name"
        for locale in LOCALES:
            if locale not in names and not same_in(locale, kind, item["name"]):
                missing.append(f"/{path}: no {locale} name")
            if locale not in texts:
                missing.append(f"/{path}: no {locale} description")
        for choice in item.get("choices") or []:
            choices += 1
            for locale in LOCALES:
                if locale not in (choice.get("name_localizations") or {}) and \
                        not same_in(locale, "choice name", choice["name"]):
                    missing.append(f"/{path}: choice {choice['name']}: no {locale} name")
    assert choices > 20
    assert not missing, "\n".join(missing)
    assert not name_problems(synced)
    geek_out = next(o for o in fake.commands["play"]["options"] if o["name"] == "geek-out")
    strength = next(o for o in geek_out["options"] if o["name"] == "strength")
    assert strength["name_localizations"]["de"] == "stärke"
    assert {c["name"]: (c.get("name_localizations") or {}).get("es-419") for c in strength["choices"]} == {
        "easy": "fácil", "normal": None, "strong": "difícil"}


def test_discords_name_rule():
    assert all(valid_name(n) for n in ("spielen", "züge", "límite_de_turnos", "geek-out", "x" * 32, "ιστορικό"))
    assert not any(valid_name(n) for n in ("spiel starten", "Spielen", "x" * 33, "", "a.b", "¡hola", "kanäle!"))
