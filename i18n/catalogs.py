"""Keeping the catalogs: extraction (Babel), merging into the ``.po`` files, compiling, checking.

A build and development tool (it needs Babel), never imported by the running bot. ``python -m i18n update``
after changing messages; ``python -m i18n compile`` (also run by the install, see setup.py); the test suite's
``tests/test_catalogs.py`` runs :func:`problems`.

Areas (``DOMAINS``) keep the catalogs small and let a game's messages live with the game: each is a list of
source globs, relative to the project's root. A message used by two areas may be in both: when shown, the
translation is the same (the compiled catalog of a language is all areas merged).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from importlib import import_module
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from i18n import DEFAULT, LOCALE_DIR, LOCALES

ROOT = LOCALE_DIR.parent.parent
TRANSLATED = tuple(lang for lang in LOCALES if lang != DEFAULT)

DOMAINS: dict[str, list[str]] = {
    "core": ["i18n/__init__.py", "games/core.py", "games/ai.py", "render/__init__.py", "render/common.py",
             "render/records.py", "render/replay.py", "render/tournament.py"],
    "rulebook": ["games/*/rulebook.py", "bot/cogs/rules.py"],
    "learn": ["games/*/coach.py", "bot/cogs/learn.py"],
    "bot": ["bot/*.py", "bot/cogs/*.py", "bot/ui/*.py", "bot/table/*.py", "bot/workers/*.py"],
    "geek_out": ["games/geek_out/*.py", "render/geek_out.py", "render/geek_out/*.py"],
    "geoneo": ["games/geoneo/*.py", "render/geoneo.py", "render/geoneo/*.py"],
    "geodeto": ["games/geodeto/*.py", "render/geodeto/*.py"],
    "geomancy": ["games/geomancy/*.py", "render/geomancy/*.py"],
    "globe_twister": ["games/globe_twister/*.py", "render/globe_twister/*.py"],
    "playground": ["playground/words.py"],
}
"""Each area's source files (a file belongs to the first area whose globs name it). Messages that are not in source code (slash command names and descriptions) come
from ``EXTRA`` hooks."""

EXTRA: dict[str, str] = {"commands": "bot.translator:command_messages"}
"""Areas whose messages a function lists: ``module:function`` returning ``(context, msgid)`` pairs."""

KEYWORDS = {**DEFAULT_KEYWORDS, "say": (2,)}
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)[^{}]*\}")


def po_path(domain: str, lang: str) -> Path:
    return LOCALE_DIR / domain / f"{lang}.po"


def _files(domain: str) -> Iterator[Path]:
    claimed: set[Path] = set()
    for other, globs in DOMAINS.items():
        for pattern in globs:
            for path in sorted(ROOT.glob(pattern)):
                if path.is_file() and path not in claimed:
                    claimed.add(path)
                    if other == domain:
                        yield path
        if other == domain:
            return


def extract(domain: str) -> Catalog:
    """A fresh template of ``domain``: every message its sources mark."""
    template = Catalog(project="Geotable", locale=None, fuzzy=False, charset="utf-8")
    if domain in EXTRA:
        module, _, function = EXTRA[domain].partition(":")
        for context, msgid in getattr(import_module(module), function)():
            template.add(msgid, context=context, flags=("python-brace-format",) if "{" in msgid else ())
        return template
    for path in _files(domain):
        rel = path.relative_to(ROOT).as_posix()
        for lineno, message, comments, context in extract_from_file("python", path, keywords=KEYWORDS,
                                                                   strip_comment_tags=True):
            msgid = message
            if not msgid or (isinstance(msgid, tuple) and not msgid[0]):
                continue
            text = msgid[0] if isinstance(msgid, tuple) else msgid
            flags = ("python-brace-format",) if "{" in text else ()
            template.add(msgid, locations=[(rel, lineno)], auto_comments=comments, context=context, flags=flags)
    return template


def all_domains() -> list[str]:
    return [*DOMAINS, *EXTRA]


def read(domain: str, lang: str) -> Catalog:
    path = po_path(domain, lang)
    if not path.exists():  # a new area: the language's plural rule is its other areas', not the installed Babel's
        catalog = Catalog(locale=lang, domain=domain, project="Geotable", fuzzy=False)
        others = [other for other in all_domains() if other != domain and po_path(other, lang).exists()]
        if others:
            catalog.mime_headers = [("Plural-Forms", read(others[0], lang).plural_forms)]
        return catalog
    with path.open("rb") as fp:
        return read_po(fp, locale=lang, domain=domain)


def write(catalog: Catalog, domain: str, lang: str) -> None:
    path = po_path(domain, lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fp:
        write_po(fp, catalog, width=110, sort_output=False, include_previous=False)


def update(domains: Iterable[str] | None = None) -> None:
    """Merges a fresh extraction into every language's ``.po`` (new messages empty, gone ones dropped)."""
    for domain in domains or all_domains():
        template = extract(domain)
        for lang in TRANSLATED:
            catalog = read(domain, lang)
            catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
            catalog.obsolete.clear()
            write(catalog, domain, lang)


def compile_all(target: Path = LOCALE_DIR) -> list[Path]:
    """Compiles every language's areas into one ``<target>/<lang>.mo`` (by default ``i18n/locales/``, what the
    bot loads)."""
    written = []
    for lang in TRANSLATED:
        merged = Catalog(locale=lang, domain="geotable", fuzzy=False)
        # The plural rule is the one the translators wrote their forms for (every .po of a language declares
        # the same: `problems` checks it), never the installed Babel's: Babel 2.19 gives Spanish a third form
        # (CLDR's "many"), and a .mo that says nplurals=3 over two-form entries falls back to English.
        merged.mime_headers = [("Plural-Forms", plural_forms(lang))]
        for domain in all_domains():
            for message in read(domain, lang):
                strings = message.string if isinstance(message.string, tuple | list) else [message.string]
                if message.id and all(strings) and not message.fuzzy:
                    merged.add(message.id, message.string, context=message.context)
        path = target / f"{lang}.mo"
        with path.open("wb") as fp:
            write_mo(fp, merged)
        written.append(path)
    return written


def plural_forms(lang: str) -> str:
    """The ``Plural-Forms`` header the ``.po`` files of ``lang`` declare (they must agree)."""
    declared = {read(domain, lang).plural_forms for domain in all_domains() if po_path(domain, lang).exists()}
    if len(declared) != 1:
        raise ValueError(f"the {lang} catalogs declare {len(declared)} plural rules: {sorted(declared)}")
    return declared.pop()


def placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


def problems(domains: Iterable[str] | None = None) -> list[str]:
    """What keeps the catalogs from being complete: a message missing from a ``.po`` or untranslated there, a
    fuzzy or stale entry, a translation whose placeholders differ from the English."""
    out = []
    for domain in domains or all_domains():
        template = extract(domain)
        wanted = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in template if m.id}
        for lang in TRANSLATED:
            catalog = read(domain, lang)
            if catalog.plural_forms != read(all_domains()[0], lang).plural_forms:
                out.append(f"{domain}/{lang}.po declares {catalog.plural_forms!r}, unlike the other {lang} areas")
            have = {}
            for m in catalog:
                if m.id:
                    have[(m.id if isinstance(m.id, str) else m.id[0], m.context)] = m
            for key in sorted(wanted - set(have), key=str):
                out.append(f"{domain}/{lang}.po lacks {key[1] + ': ' if key[1] else ''}{key[0]!r}")
            for key in sorted(set(have) - wanted, key=str):
                out.append(f"{domain}/{lang}.po has a message no source uses: {key[0]!r}")
            for key, m in have.items():
                if key not in wanted:
                    continue
                strings = list(m.string) if isinstance(m.string, tuple | list) else [m.string]
                ids = list(m.id) if isinstance(m.id, tuple | list) else [m.id]
                if m.fuzzy or not all(strings):
                    out.append(f"{domain}/{lang}.po: untranslated {key[0]!r}")
                    continue
                if m.pluralizable and len(strings) != catalog.num_plurals:
                    out.append(f"{domain}/{lang}.po: {key[0]!r} has {len(strings)} plural forms, its header "
                               f"{catalog.num_plurals}")
                want = set().union(*(placeholders(i) for i in ids))
                for s in strings:
                    got = placeholders(s)
                    if got - want or (want - got) - {"n"}:
                        out.append(f"{domain}/{lang}.po: {key[0]!r} -> {s!r} has placeholders {sorted(got)}, "
                                   f"the English {sorted(want)}")
    return out
