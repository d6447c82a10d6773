"""Slash commands in German and Spanish, Discord's way: the command sync carries ``name_localizations`` and
``description_localizations`` for commands, groups, options and choices, which Discord's client shows to a
member whose client speaks that language (the interaction still names everything in English, so the bot's
handlers never see a translated name).

The words come from the ``commands`` area of the catalogs (``i18n/locales/commands/<lang>.po``): a message per
English name or description, its context the kind of text (``KINDS``), so "game" the option and "game" the
command may differ. :func:`command_messages` lists them for ``python -m i18n update commands``.

Discord's rules for a localized command or option name are those of the English one: 1-32 characters,
lower case, letters, digits, ``-`` and ``_`` only (``NAME_RULE``), and unique among its siblings; a
description or choice 1-100 characters. A translation that breaks them is left out (the English shows), since
Discord refuses the whole sync for one; :func:`name_problems` (the tests) says which.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import unicodedata
from collections.abc import Iterable, Iterator

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

import i18n

KINDS = {
    Where.command_name: "command name",
    Where.group_name: "command name",
    Where.command_description: "command description",
    Where.group_description: "command description",
    Where.parameter_name: "option name",
    Where.parameter_description: "option description",
    Where.choice_name: "choice name",
}
"""The catalog context of each kind of command text discord.py asks for."""

NAME_RULE = "^[-_\\p{L}\\p{N}]{1,32}$, lower case"
"""Discord's rule for a command or option name in any language: 1-32 letters (of any script), digits, ``-``
or ``_``, and lower case where the letter has a lower case."""

NAMED = ("command name", "option name")


def valid_name(name: str) -> bool:
    """``NAME_RULE``."""
    return (1 <= len(name) <= 32 and name == name.lower()
            and all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name))


class CatalogTranslator(app_commands.Translator):
    """Answers discord.py's questions ("this command's name in de?") from the compiled catalogs; ``None``
    (Discord shows the English) for a language we don't speak, a message not translated, or a translated
    name that breaks Discord's rules."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        return translate(string.message, locale, KINDS.get(context.location))


def translate(english: str, locale: discord.Locale | str, kind: str | None) -> str | None:
    lang = i18n.pick(locale)
    if kind is None or lang == i18n.DEFAULT:
        return None
    said = i18n.catalog(lang).pgettext(kind, english)
    if said == english or (kind in NAMED and not valid_name(said)) or not 1 <= len(said) <= 100:
        return None  # Discord would refuse the whole sync for one bad name or description
    return said


# --- the commands, offline -------------------------------------------------------------------------------------
def all_commands() -> list[app_commands.Command | app_commands.Group]:
    """Every top-level command and group the bot syncs, without a bot: /play (built per game) and the slash
    commands of every cog in ``bot/cogs`` (a new cog is found by itself)."""
    from discord.ext import commands as ext

    import bot.cogs
    from bot.cogs.play import play_group

    async def _never(*_args, **_kwargs) -> None:  # /play's callback is never run offline
        return None

    found: list = [play_group(_never)]
    for info in sorted(pkgutil.iter_modules(bot.cogs.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"bot.cogs.{info.name}")
        for _name, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, ext.Cog) and cls.__module__ == module.__name__:
                found.extend(cls.__cog_app_commands__)
    return found


class _Recorder(app_commands.Translator):
    def __init__(self):
        self.asked: dict[tuple[str, str], None] = {}

    async def translate(self, string, locale, context):
        kind = KINDS.get(context.location)
        if kind is not None:
            self.asked[(kind, string.message)] = None
        return None


def _tree() -> app_commands.CommandTree:
    return app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))


async def payloads(translator: app_commands.Translator | None = None) -> list[dict]:
    """The sync request's body (as ``tree.sync`` builds it) for :func:`all_commands`."""
    tree = _tree()
    translator = translator or CatalogTranslator()
    return [await command.get_translated_payload(tree, translator) for command in all_commands()]


def command_messages() -> Iterator[tuple[str, str]]:
    """(context, English) for every command, group, option and choice name and description: the messages of
    the ``commands`` catalog area (i18n/catalogs.py's ``EXTRA``)."""
    recorder = _Recorder()
    _finish(payloads(recorder))
    yield from recorder.asked


def _finish(coroutine) -> object:
    """Runs a coroutine that never waits (the recorder answers at once) to its end, inside or outside an event
    loop (the catalog tool has none, a test has one)."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value
    coroutine.close()
    raise RuntimeError("the command payloads waited for something")


def name_problems(commands: Iterable[dict]) -> list[str]:
    """What Discord would refuse in a sync payload's localized names: a name breaking ``NAME_RULE``, or two
    siblings (commands, subcommands, options of one command) with the same name in one language."""
    out: list[str] = []

    def check(items: list[dict], where: str) -> None:
        locales = {"en-US", *(loc for item in items for loc in item.get("name_localizations") or {})}
        for locale in sorted(locales):  # a name not localized shows in English in that language too
            seen: dict[str, str] = {}
            for item in items:
                name = (item.get("name_localizations") or {}).get(locale, item["name"])
                if not valid_name(name):
                    out.append(f"{where}{item['name']}: {locale} name {name!r} breaks Discord's rules")
                if name in seen:
                    out.append(f"{where}{item['name']}: {locale} name {name!r} is also {seen[name]}'s")
                seen[name] = item["name"]
        for item in items:
            for locale, text in (item.get("description_localizations") or {}).items():
                if not 1 <= len(text) <= 100:
                    out.append(f"{where}{item['name']}: {locale} description is {len(text)} characters")
            for choice in item.get("choices") or []:
                for locale, text in (choice.get("name_localizations") or {}).items():
                    if not 1 <= len(text) <= 100:
                        out.append(f"{where}{item['name']}: {locale} choice {choice['name']!r} is too long")
            if item.get("options"):
                check(item["options"], f"{where}{item['name']} ")

    check(list(commands), "/")
    return out

