"""Every word a player reads, in English, German or Spanish: the one place that picks a message's language.

Code marks a user-visible sentence with ``_("{player} rolls {dice}.", player=..., dice=...)`` (``ngettext`` for
a count, ``pgettext`` where a short English word means two things). That returns a :class:`Text`: a ``str`` that
*is* the English sentence (so logs, tests and any code that just wants English keep working) and remembers its
message id and parameters, so :func:`localize` can say it again in another language at the moment it is shown.
Why lazy: an engine describes a move once, but the public board shows it in the server's language while a
player's private panel shows it in the player's own. Parameters may themselves be ``Text`` (a die face's name)
and are localized with the sentence. Placeholders the caller did not fill (``{p0}``, a seat the table names
later) are left as they are.

Catalogs are gettext ``.po`` files, one per area (``DOMAINS``) and language, in ``i18n/locales/<domain>/<lang>.po``;
``python -m i18n update`` extracts the messages (Babel) and merges them into every ``.po``; the install (setup.py's
build step) compiles each language's files into ``i18n/locales/<lang>.mo``, which is never committed.

Engines import this module (it is pure: the standard library only), so the rule of "no Discord, database or
Pillow in games/" holds. A number in a sentence is :func:`number` (or :func:`percent`): written the English way
at once, and the reader's way (61,5 in German) when the sentence is localized; only that moment, outside the
engines, asks Babel (a dependency of the bot) for the language's decimal mark and grouping.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

LOCALES = ("en", "de", "es")
"""The languages Geotable speaks; English is the source language (message ids are English)."""
DEFAULT = "en"
HERE = Path(__file__).resolve().parent
LOCALE_DIR = HERE / "locales"

_LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "es": "Español"}


def language_name(locale: str) -> str:
    """A language's name in that language (what a picker shows)."""
    return _LANGUAGE_NAMES.get(locale, locale)


def pick(locale: object | None) -> str:
    """Our language for a Discord locale (``discord.Locale`` or its value: "de", "es-ES", "es-419", "en-US"...)
    or one of ours; anything else is English."""
    if locale is None:
        return DEFAULT
    value = str(getattr(locale, "value", locale)).strip().lower().replace("_", "-")
    if value in _extra:
        return value
    base = value.split("-", 1)[0]
    return base if base in LOCALES else DEFAULT


# --- the lazy text ----------------------------------------------------------------------------------------------
class _Keep(dict):
    """format_map's mapping: a placeholder the caller did not fill stays in the text (``{p0}``)."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _format(template: str, params: dict[str, Any]) -> str:
    """``template`` with its named placeholders filled (unfilled ones kept); a broken template (a translation
    with a stray brace, a positional field) comes back as it is. ``str.format_map`` (C) rather than
    ``string.Formatter`` (Python, 6x slower): every ``_()`` formats its English, every text on a board its
    translation (benchmarks/languages.py)."""
    if not params and "{" not in template:
        return template
    try:
        return template.format_map(_Keep(params))
    except (ValueError, IndexError, KeyError, AttributeError, TypeError):  # a broken translation: shown as it is
        return template


class Text(str):
    """An English sentence that can be said again in another language (what ``_`` returns).

    It is a ``str`` (the English), so it can go anywhere a string goes; but ``+``, ``%`` and f-strings make a
    plain English ``str`` of it: build a sentence with parameters, or join pieces with :func:`join`."""

    __slots__ = ("msgid", "plural", "n", "context", "params", "parts", "sep")

    msgid: str | None
    plural: str | None
    n: int | None
    context: str | None
    params: dict[str, Any]
    parts: tuple | None
    sep: str

    def __new__(cls, msgid: str | None, params: dict[str, Any] | None = None, *, plural: str | None = None,
                n: int | None = None, context: str | None = None, parts: tuple | None = None, sep: str = " "):
        params = params or {}
        if parts is not None:
            english = sep.join(localize(p, DEFAULT) for p in parts)
        else:
            english = _render(msgid, plural, n, context, params, DEFAULT)
        self = super().__new__(cls, english)
        self.msgid, self.plural, self.n, self.context, self.params = msgid, plural, n, context, params
        self.parts, self.sep = parts, sep
        return self

    def __reduce__(self):  # pickles as what it is (the render and thinking workers get Text, not English)
        return (_rebuild, (self.to_data(),))

    def with_params(self, **params: Any) -> Text:
        """The same message with more (or other) parameters filled (e.g. ``{names}`` once fitted)."""
        return Text(self.msgid, {**self.params, **params}, plural=self.plural, n=self.n, context=self.context)

    def to_data(self) -> list:
        """A JSON-safe form (for game states and stored rows); :func:`from_data` makes the Text again."""
        if self.parts is not None:
            return ["J", self.sep, [_data(p) for p in self.parts]]
        return ["T", self.msgid, {k: _data(v) for k, v in self.params.items()}, self.plural, self.n, self.context]


def _data(value: Any) -> Any:
    return value.to_data() if isinstance(value, Text | Number) else value


def localize_data(data: Any, locale: str | None = None) -> Any:
    """``localize(from_data(data), locale)`` without building the Texts on the way (a table keeps its latest
    log lines in this form: one string, nothing for the garbage collector to walk; bot/table/recent.py)."""
    locale = locale or _current.get()
    if isinstance(data, list) and data and data[0] == "T" and len(data) == 6:
        _tag, msgid, params, plural, n, context = data
        return _render(msgid, plural, n, context, {k: localize_data(v, locale) for k, v in params.items()}, locale)
    if isinstance(data, list) and data and data[0] == "J" and len(data) == 3:
        return data[1].join(localize_data(p, locale) for p in data[2])
    if isinstance(data, list) and data and data[0] == "N" and len(data) == 4:
        return Number(data[1], data[2], percent=data[3]).said(locale)
    return localize(data, locale)


def _rebuild(data: list) -> Text:
    return from_data(data)


def from_data(data: Any) -> Any:
    """The inverse of :meth:`Text.to_data`; anything else comes back as it is."""
    if isinstance(data, list) and data and data[0] == "T" and len(data) == 6:
        _tag, msgid, params, plural, n, context = data
        return Text(msgid, {k: from_data(v) for k, v in params.items()}, plural=plural, n=n, context=context)
    if isinstance(data, list) and data and data[0] == "J" and len(data) == 3:
        return Text(None, parts=tuple(from_data(p) for p in data[2]), sep=data[1])
    if isinstance(data, list) and data and data[0] == "N" and len(data) == 4:
        return Number(data[1], data[2], percent=data[3])
    return data


def _(msgid: str, **params: Any) -> Text:
    """Marks ``msgid`` (English, ``{name}`` placeholders) as a message; extracted into the catalogs."""
    return Text(msgid, params)


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> Text:
    """A message that depends on a count ``n`` (which picks the plural form); ``{n}`` in it is the count
    unless ``params`` gives ``n`` itself (e.g. "3.5 points" picked by 2)."""
    params.setdefault("n", n)
    return Text(singular, params, plural=plural, n=n)


def pgettext(context: str, msgid: str, **params: Any) -> Text:
    """``_`` for a short English word that means two things ("Pass" the verb, "Pass" a card's name)."""
    return Text(msgid, params, context=context)


def npgettext(context: str, singular: str, plural: str, n: int, /, **params: Any) -> Text:
    """``ngettext`` with a context (two areas share an English singular but want different words)."""
    params.setdefault("n", n)
    return Text(singular, params, plural=plural, n=n, context=context)


def N_(msgid: str) -> str:
    """Marks a constant for extraction where the sentence is built later (``_(CONSTANT)`` at display time)."""
    return msgid


def join(parts, sep: str = " ") -> Text:
    """Sentences (``Text`` or plain strings) joined by ``sep``, each localized in its own language when shown."""
    parts = tuple(p for p in parts if p)
    return Text(None, parts=parts, sep=sep)


# --- numbers ----------------------------------------------------------------------------------------------------
class Number(str):
    """A number in a sentence (what :func:`number` and :func:`percent` return): a ``str`` that is the number
    written the English way ("61.5", "1,000,000", "45%"), said again the reader's way when the sentence is
    localized ("61,5", "1.000.000", "45 %" in German). The value is rounded once, here, so every language
    shows the same digits."""

    __slots__ = ("value", "places", "percent")

    value: int | float
    places: int | None
    percent: bool

    def __new__(cls, value: int | float, places: int | None = None, *, percent: bool = False):
        if percent:
            value = round(100 * value)  # whole percents
        elif places is not None:
            value = round(value, places)
        elif isinstance(value, float) and value.is_integer():
            value = int(value)  # 8.0 points are 8 points
        english = f"{value}%" if percent else _english_number(value, places)
        self = super().__new__(cls, english)
        self.value, self.places, self.percent = value, places, percent
        return self

    def __reduce__(self):
        return (_rebuild, (self.to_data(),))

    def to_data(self) -> list:
        return ["N", self.value, self.places, self.percent]

    def said(self, locale: str) -> str:
        """The number in ``locale``: Babel's decimal mark and grouping for a language Geotable speaks; a test
        language (``qps``) writes it the English way."""
        if locale == DEFAULT or locale not in LOCALES:
            return str.__str__(self)
        from babel.numbers import format_decimal, format_percent  # only when shown, never in an engine's move

        if self.percent:
            return format_percent(self.value / 100, locale=locale)
        if self.places is None:
            return format_decimal(self.value, locale=locale)  # (up to three decimals: "#,##0.###")
        return format_decimal(self.value, format="#,##0." + "0" * self.places if self.places else "#,##0",
                              locale=locale)


def _english_number(value: int | float, places: int | None) -> str:
    """``value`` as Babel writes it in English: grouped thousands; ``places`` decimals, else up to three."""
    if places is not None:
        return f"{value:,.{places}f}"
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.3f}".rstrip("0").rstrip(".")


def number(value: int | float, places: int | None = None) -> Number:
    """A number for a sentence's parameter, in the reader's language when shown: ``number(61.5)`` is "61.5"
    in English and "61,5" in German; ``places`` fixes the decimals (``number(20, 1)``: "20.0", "20,0")."""
    return Number(value, places)


def percent(share: float) -> Number:
    """A share (0.45) as whole percents in the reader's language: "45%", German and Spanish "45 %"."""
    return Number(share, percent=True)


# --- saying it in a language ------------------------------------------------------------------------------------
_catalogs: dict[str, _gettext.NullTranslations] = {}
_extra: dict[str, dict] = {}


def catalog(locale: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``locale`` (English needs none: its messages are their own ids)."""
    found = _catalogs.get(locale)
    if found is None:
        if locale in _extra:
            found = _DictTranslations(_extra[locale])
        elif locale == DEFAULT or locale not in LOCALES:
            found = _gettext.NullTranslations()
        else:
            path = LOCALE_DIR / f"{locale}.mo"
            if not path.exists():
                raise RuntimeError(f"{path} is missing: the catalogs are compiled at install "
                                   f"(`pip install -e .`, or `python -m i18n compile`).")
            with path.open("rb") as fp:
                found = _gettext.GNUTranslations(fp)
        _catalogs[locale] = found
    return found


class _DictTranslations(_gettext.NullTranslations):
    """A catalog given as a dict (tests' pseudo-language): ``{msgid: str}``, ``{(ctx, msgid): str}``,
    ``{(msgid, plural): [forms...]}``; a callable value is called with the message id."""

    def __init__(self, table: dict):
        super().__init__()
        self.table = table

    def gettext(self, message):
        return self._get(message, message)

    def pgettext(self, context, message):
        return self._get((context, message), message)

    def ngettext(self, msgid1, msgid2, n):
        return self._get((msgid1, msgid2), msgid1 if n == 1 else msgid2)

    def npgettext(self, context, msgid1, msgid2, n):
        return self._get((context, msgid1, msgid2), msgid1 if n == 1 else msgid2)

    def _get(self, key, english):
        if "*" in self.table:
            return self.table["*"](english)
        return self.table.get(key, english)


def install_language(code: str, table: dict) -> None:
    """Adds a language from a dict (tests: a pseudo-language that marks every translated word)."""
    _extra[code] = table
    _catalogs.pop(code, None)


def remove_language(code: str) -> None:
    if code == PSEUDO:  # always there (see install_pseudo): one test's clean-up must not take it from another's
        return
    _extra.pop(code, None)
    _catalogs.pop(code, None)


def _render(msgid: str | None, plural: str | None, n: int | None, context: str | None, params: dict,
            locale: str) -> str:
    cat = catalog(locale)
    if plural is not None:
        template = (cat.npgettext(context, msgid, plural, n) if context else cat.ngettext(msgid, plural, n))
    elif context:
        template = cat.pgettext(context, msgid)
    else:
        template = cat.gettext(msgid)
    if locale != DEFAULT:
        params = {k: localize(v, locale) for k, v in params.items()}
    return _format(template, params)


def localize(value: Any, locale: str | None = None) -> Any:
    """``value`` in ``locale`` (default: the one :func:`using` set): a Text is translated, a :class:`Number`
    written the language's way, a plain string (a name) stays as it is, a list or tuple is localized item by
    item."""
    locale = locale or _current.get()
    if isinstance(value, Number):
        return value.said(locale)
    if isinstance(value, Text):
        if locale == DEFAULT:
            return str.__str__(value)
        if value.parts is not None:
            return value.sep.join(localize(p, locale) for p in value.parts)
        return _render(value.msgid, value.plural, value.n, value.context, value.params, locale)
    if isinstance(value, list | tuple):
        return type(value)(localize(v, locale) for v in value)
    return value


def say(locale: str, msgid: str, **params: Any) -> str:
    """``_`` said at once in ``locale`` (for a message built and sent right away)."""
    return localize(Text(msgid, params), locale)


_current: ContextVar[str] = ContextVar("geotable_locale", default=DEFAULT)


@contextmanager
def using(locale: str | None) -> Iterator[str]:
    """Within the block, :func:`localize` without a locale (and so every board drawn) speaks ``locale``."""
    token = _current.set(pick(locale))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def current() -> str:
    return _current.get()


def here(value: Any) -> Any:
    """``value`` in the language of the enclosing :func:`using` block: what renderers call on every text."""
    return localize(value, _current.get())


# --- a pseudo-language for tests -----------------------------------------------------------------------------------
PSEUDO = "qps"
_ACCENTED = str.maketrans("aeiouncyAEIOUNCY", "áéíóúñçýÁÉÍÓÚÑÇÝ")


def pseudo(english: str) -> str:
    """English with its vowels accented ("Páss"), placeholders kept: a word of plain ASCII letters on a board
    or in a message drawn in ``PSEUDO`` was never translated (a test's leak check), and every accent shows
    whether the fonts have the glyph."""
    out, depth = [], 0
    for ch in english:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
        out.append(ch if depth or ch == "}" else ch.translate(_ACCENTED))
    return "".join(out)


def install_pseudo() -> str:
    """Makes ``PSEUDO`` a language (every message through :func:`pseudo`); returns its code. It is installed
    when this module loads (Discord never sends it as a member's locale, so players never see it)."""
    install_language(PSEUDO, {"*": pseudo})
    return PSEUDO


install_pseudo()
