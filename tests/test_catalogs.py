"""The catalogs: complete in every language, and no user-visible sentence outside them (issue 19).

The extraction check reads the source (ast): a string literal or f-string with words in it (two words with a
space between) is either marked for the catalogs (an argument of ``_``, ``ngettext``, ``pgettext``, ``N_``,
``say``), or a kind of text players never read: docstrings, log lines, programmers' exceptions, SQL, dict keys
and comparisons (keys, not words), slash commands' texts (the ``commands`` area extracts those from the tree),
the files of ``OPERATORS`` (the operator's console and the developers' tools), or one of ``NOT_SHOWN`` with the
reason. A new sentence a player would read and nobody marked fails here.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from i18n import catalogs

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ["bot", "games", "render", "i18n"]
MARKERS = {"_", "ngettext", "pgettext", "npgettext", "N_", "say"}
LOGGING = {"debug", "info", "warning", "error", "exception", "critical", "log"}
PROGRAMMERS = {"ValueError", "TypeError", "KeyError", "RuntimeError", "AssertionError", "NotImplementedError",
               "LookupError", "IndexError", "SystemExit", "AttributeError", "OSError", "ConnectionError",
               "TimeoutError", "ReplayError", "StoreError", "NoPrivateImage", "NotADatabaseSetting"}
COMMAND_TEXTS = {"command", "describe", "Group", "Choice", "choices", "rename"}
"""discord.py's app_commands declarations: their texts reach players through the ``commands`` area (the
translator), which extracts them from the command tree."""
WORDS = re.compile(r"[A-Za-z]{2,}[,.:;!?']?\s+[A-Za-z]{2,}")
SQL = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|WITH|DROP|PRAGMA|BEGIN|COMMIT|SET)\b", re.I)

OPERATORS = {
    "bot/__main__.py": "the operator's console at start-up",
    "bot/settings.py": "errors in the operator's environment settings",
    "bot/leases.py": "shard leases: the operator's log",
    "bot/store/sqlite.py": "database errors for the operator",
    "bot/store/postgres.py": "database errors for the operator",
    "bot/workers/thinkpool.py": "worker processes: names and logs",
    "bot/workers/renderpool.py": "worker processes: names and logs",
    "bot/workers/pool.py": "worker processes: names and logs",
    "bot/translator.py": "the catalog's contexts and Discord's naming rules, for developers",
    "i18n/catalogs.py": "the catalogs' tool (developers)",
    "i18n/__main__.py": "the catalogs' tool (developers)",
    "games/globe_twister/solver.py": "the puzzle data's build step",
    "games/conformance.py": "the engines' conformance checks (tests)",
    "render/geomancy/samples.py": "sample positions for tests and the docs' pictures",
    "render/geodeto/samples.py": "sample positions for tests and the docs' pictures",
    "render/globe_twister/samples.py": "sample positions for tests and the docs' pictures",
}

GAME_TITLES = {"Geek Out! Masters", "GEONEO", "Geodeto", "Globe Twister", "Geomancy"}
"""Game names stay as published in every language."""

NOT_SHOWN: dict[str, str] = {
    "bot/client.py:discord.py: on_": "discord.py's task names (what a stop waits for)",
    "bot/cogs/play.py:Computer players seated with": "/play's option description (the commands area)",
    "bot/cogs/play.py:How well the computers": "/play's option description (the commands area)",
    "bot/cogs/play.py:Live, or turn-based with": "/play's option description (the commands area)",
    "bot/cogs/play.py:live (the server's turn": "/play's pace choice (the commands area)",
    "bot/cogs/play.py:turn-based: 1 hour per": "/play's pace choice (the commands area)",
    "bot/cogs/play.py:turn-based: 12 hours per": "/play's pace choice (the commands area)",
    "bot/cogs/play.py:turn-based: 24 hours per": "/play's pace choice (the commands area)",
    "bot/cogs/play.py:turn-based: 3 days per": "/play's pace choice (the commands area)",
    "bot/cogs/play.py:turn-based: 7 days per": "/play's pace choice (the commands area)",
    "bot/cogs/play.py:yes: open the table": "/play's option description (the commands area)",
    "bot/table/lobby.py:its thread could not": "the end reason of a lobby whose thread was never made: shown nowhere",
    "bot/greeting.py:command name": "the catalog context of command names",
    "games/core.py:option name": "the catalog context of /play's option names (the lobby's options)",
    "games/core.py:choice name": "the catalog context of /play's choices (the lobby's options)",
    "bot/ui/messages.py:My view": "the fallback panel name, said through YOUR_LABELS",
    "games/geomancy/rules.py:knocked off": "a reason key (REASONS)",
    "render/geomancy/board.py:secondary stone": "a mark's kind for the phone legibility test (render/common.mark)",
    **{f"games/globe_twister/puzzle.py:{w}": "check_program's reasons, for tests (the engine says its own)"
       for w in ("one card per cell", "each card once", "at most one red", "only cards in hand")},
    "bot/store/privacy.py:Former player": "the stored name of an anonymised seat (names are never translated)",
    "bot/store/privacy.py:a former member": "the same, in stored texts",
    "bot/store/errors.py:still at open table(s)": "StillPlaying's message; /privacy says it in words",
    "bot/store/dialects.py:looks like a URL": "a database setting error for the operator",
    "bot/store/dialects.py:the port in is": "a database setting error for the operator",
    "bot/store/privacy.py:Computer for": "a pattern that finds stored names",
    "games/core.py:{p} left the game": "an older state's English event, found and retold",
    "games/core.py:{p} was removed by": "the same, retold",
    "games/geomancy/rules.py:Aim at rank": "the English group key the bot hands back (focus)",
    "render/geek_out.py:Ana's Meeple rerolled a": "a sample footer for the module's own picture check",
    "render/geoneo.py:Ana places on D6:": "a sample footer for the module's own picture check",
}
"""``path:first four words`` -> why the text is not for players (kept short and rare)."""


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _call_name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _exempt(node: ast.AST, parents: dict) -> bool:
    child, up = node, parents.get(node)
    while up is not None:
        if isinstance(up, ast.Call):
            name = _call_name(up)
            if name in MARKERS or name in LOGGING or name in PROGRAMMERS or name in COMMAND_TEXTS:
                return True
            if isinstance(up.func, ast.Attribute) and isinstance(up.func.value, ast.Name) and \
                    up.func.value.id in {"log", "logger", "logging", "parser", "argparse"}:
                return True
        if isinstance(up, ast.Raise) and isinstance(up.exc, ast.Call) and _call_name(up.exc) in PROGRAMMERS:
            return True
        if isinstance(up, ast.Expr) and isinstance(child, ast.Constant):  # a docstring or a bare string
            return True
        if isinstance(up, ast.Dict) and child in up.keys:
            return True
        if isinstance(up, ast.Compare | ast.Assert):
            return True
        child, up = up, parents.get(up)
    return False


def unmarked() -> list[str]:
    found = []
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in OPERATORS:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            parents = _parents(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    if isinstance(parents.get(node), ast.JoinedStr):
                        continue  # judged as part of its f-string
                    value = node.value
                elif isinstance(node, ast.JoinedStr):
                    value = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
                else:
                    continue
                if not WORDS.search(value) or SQL.match(value) or value in GAME_TITLES or _exempt(node, parents):
                    continue
                key = f"{rel}:{' '.join(value.split()[:4])}"
                if key not in NOT_SHOWN and not any(key.startswith(k) for k in NOT_SHOWN):
                    found.append(f"{key}  (line {node.lineno})")
    return found


def test_no_user_visible_sentence_outside_the_catalogs():
    found = unmarked()
    assert not found, "unmarked text (mark it with _() or say why in NOT_SHOWN):\n" + "\n".join(found)


def test_the_check_finds_an_unmarked_sentence(tmp_path, monkeypatch):
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "x.py").write_text('from i18n import _\nA = _("Marked words here")\n'
                                           'B = "Plain words here"\nC = {"dict key": 1}\n')
    for top in SOURCES[1:]:
        (tmp_path / top).mkdir()
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert unmarked() == ["bot/x.py:Plain words here  (line 3)"]


MSGID_ARGUMENT = {"_": 0, "N_": 0, "ngettext": 0, "say": 1, "pgettext": 1, "npgettext": 1}
"""Which positional argument of a marker is the message id (``say(lang, msgid)``, ``pgettext(context, msgid)``)."""


def marked_but_not_extracted() -> list[str]:
    """Literal message ids the code marks that the extractor (babel) did not put in any area's catalog: these
    stay English in every language, although the source looks marked."""
    extracted = {m.id if isinstance(m.id, str) else m.id[0] for area in catalogs.DOMAINS
                 for m in catalogs.extract(area)}
    missed = []
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call) and _call_name(node) in MSGID_ARGUMENT \
                        and len(node.args) > MSGID_ARGUMENT[_call_name(node)]:
                    msgid = node.args[MSGID_ARGUMENT[_call_name(node)]]
                    if isinstance(msgid, ast.Constant) and isinstance(msgid.value, str) \
                            and msgid.value not in extracted:
                        missed.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno}: {msgid.value!r}")
    return missed


def test_every_marked_message_reaches_the_catalogs():
    """A marker nested inside another marker's arguments (``say(lang, "To act: {players}", players=", ".join(
    say(lang, "...") ...))``) was once skipped by the extractor: the German To act line named a computer in
    English."""
    missed = marked_but_not_extracted()
    assert not missed, "marked but never extracted (write the inner call on its own):\n" + "\n".join(missed)


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_a_translation_names_commands_as_the_members_discord_shows_them(lang):
    """A German client shows /spielen, not /play: a translation that writes "/play" sends its reader looking for
    a command they cannot find (the commands area holds each command's name in the language)."""
    def translated(context: str) -> set[str]:
        """The English names of ``context`` that read differently in ``lang``."""
        return {m.id for m in catalogs.read("commands", lang) if m.context == context and m.string != m.id}

    commands, options = translated("command name"), translated("option name")
    wrong = []
    for area in catalogs.all_domains():
        for message in catalogs.read(area, lang):
            for said in message.string if isinstance(message.string, (list, tuple)) else [message.string]:
                for command in re.findall(r"(?<![\w/])/([a-z]+(?: [a-z]+)?)", said or ""):
                    wrong += [f"{area}: /{command} in {said!r}" for word in command.split() if word in commands]
                wrong += [f"{area}: {option}: in {said!r}" for option in re.findall(r"\b([a-z_]+):", said or "")
                          if option in options]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("area", catalogs.all_domains())
def test_every_catalog_is_complete(area):
    assert catalogs.problems([area]) == []


def _translations(lang: str) -> dict[tuple, set]:
    """(context, message id) -> its translations in every area."""
    found: dict[tuple, set] = {}
    for area in catalogs.all_domains():
        for message in catalogs.read(area, lang):
            if message.id and message.string and not message.pluralizable:
                found.setdefault((message.context, message.id), set()).add(message.string)
    return found


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_a_message_shared_by_two_areas_is_said_the_same_in_both(lang):
    """The bot loads one catalog per language: a message id has one translation, whichever area it is in."""
    differing = {key: sorted(said) for key, said in _translations(lang).items() if len(said) > 1}
    assert not differing, differing
    plurals: dict[tuple, set] = {}  # ("{n} move" in Geodeto's buttons and in its lessons: one of them wins)
    for area in catalogs.all_domains():
        for message in catalogs.read(area, lang):
            if message.pluralizable and all(message.string):
                plurals.setdefault((message.context, message.id), set()).add(tuple(message.string))
    differing = {key: sorted(said) for key, said in plurals.items() if len(said) > 1}
    assert not differing, differing


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_every_translation_is_in_the_catalog_the_bot_loads(lang):
    """The compiled catalog (built at install) holds every translation of the .po files: a stale build would
    show English."""
    import i18n

    compiled = i18n.catalog(lang)
    for (context, msgid), said in _translations(lang).items():
        got = compiled.pgettext(context, msgid) if context else compiled.gettext(msgid)
        assert got in said, (lang, context, msgid, got)


PLURAL_COUNTS = (0, 1, 2, 5, 21, 1_000_000)


def _plural_problems(compiled, lang: str) -> list[str]:
    """Every plural message of ``lang`` looked up for each of PLURAL_COUNTS: a result that is not one of its
    translated forms is English (gettext's fallback when the rule names a form the catalog lacks) or missing."""
    out = []
    for area in catalogs.all_domains():
        for message in catalogs.read(area, lang):
            if not message.pluralizable or not message.id:
                continue
            singular, plural = message.id[0], message.id[1]
            forms = set(message.string)
            for n in PLURAL_COUNTS:
                got = (compiled.npgettext(message.context, singular, plural, n) if message.context
                       else compiled.ngettext(singular, plural, n))
                if got not in forms:
                    out.append(f"{area}/{lang}: {singular!r} for n={n} gives {got!r}")
    return out


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_every_plural_form_is_translated_in_the_catalog_the_bot_loads(lang):
    """The catalog the install compiled (with the Babel that is installed) answers every plural message in its
    language for every count: Babel 2.19 gave Spanish a third plural form, which sent 'n >= 2' to English."""
    import i18n

    problems = _plural_problems(i18n.catalog(lang), lang)
    assert not problems, f"{len(problems)} plural look-ups not translated, e.g. {problems[:5]}"


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_a_fresh_compile_keeps_the_plural_rule_of_the_po_files(lang, tmp_path):
    """Compiling now, with the installed Babel, writes the rule the translators wrote their forms for."""
    import gettext

    catalogs.compile_all(tmp_path)
    with (tmp_path / f"{lang}.mo").open("rb") as fp:
        compiled = gettext.GNUTranslations(fp)
    assert compiled.info()["plural-forms"].replace(" ", "") == catalogs.plural_forms(lang).replace(" ", "")
    problems = _plural_problems(compiled, lang)
    assert not problems, f"{len(problems)} plural look-ups not translated, e.g. {problems[:5]}"


def test_the_plural_check_finds_a_rule_with_more_forms_than_the_catalog(tmp_path, monkeypatch):
    """The check itself: a catalog compiled with a three-form rule over two-form entries fails it."""
    import gettext

    monkeypatch.setattr(catalogs, "plural_forms",
                        lambda lang: "nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);")
    catalogs.compile_all(tmp_path)
    with (tmp_path / "es.mo").open("rb") as fp:
        assert _plural_problems(gettext.GNUTranslations(fp), "es")


WORDS_OF = {"de": {"wild", "tourist", "globetrotter", "no"}, "es": set()}  # (German "NO": Nordost)
"""English choice names that are also words of the language (German "wild"): not a leak there."""


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_a_translation_names_option_values_in_its_own_words(lang):
    """No raw value or English key in a translation: "(Standard false)", "(low = niedrig, ...)", "back (each
    their own region)" read as code to a German or Spanish player; /play's choices are named as the reader's
    Discord shows them (the commands area) and yes/no as words."""
    english = {"true", "false"}
    for m in catalogs.read("commands", lang):
        if m.context == "choice name" and m.string and m.string.lower() != m.id.lower() and " " not in m.id:
            english.add(m.id.lower())
    english -= WORDS_OF[lang]
    pattern = re.compile(r"(?<![\w/{-])(" + "|".join(map(re.escape, sorted(english))) + r")(?![\w}:-])", re.I)
    wrong = []
    for area in catalogs.all_domains():
        for m in catalogs.read(area, lang):
            for said in m.string if isinstance(m.string, (list, tuple)) else [m.string]:
                found = pattern.findall(re.sub(r"\{[^{}]*\}", "", said or ""))
                wrong += [f"{area}: {word!r} in {said!r}" for word in found]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_globe_twister_levels_have_one_name_on_boards_in_play_and_in_the_rules(lang):
    """The level a German player picks in /spielen is the one the board and the rule page name: "Urlauber",
    not "tourist" in the picker, "Urlauber ★" on the board and „Tourist“ in the rules."""
    import i18n
    from games.globe_twister.solver import LEVEL_NAMES, LEVELS

    names = [i18n.localize(LEVEL_NAMES[level], lang).rstrip(" ★") for level in LEVELS]
    picked = [i18n.localize(i18n.Text(level, context="choice name"), lang) for level in LEVELS]
    assert picked == names
    rules = [i18n.catalog(lang).gettext(m.id) for m in catalogs.read("rulebook", lang)
             if isinstance(m.id, str) and "from Tourist" in m.id]
    assert rules and all(names[0] in said and names[-1] in said for said in rules), rules
    refusal = [i18n.catalog(lang).gettext(m.id) for m in catalogs.read("globe_twister", lang)
               if isinstance(m.id, str) and m.id.startswith("Choose a level (")]
    assert refusal and all(name in said for said in refusal for name in names), refusal


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_a_computer_s_strength_is_one_word_in_the_lobby_and_in_play(lang):
    """Spanish said "difícil" in the lobby and the computers' names, "fuerte" in /jugar's picker."""
    import i18n
    from games.ai import STRENGTHS, strength_name

    named = [i18n.localize(strength_name(s), lang) for s in STRENGTHS]
    assert named == [i18n.localize(i18n.Text(s, context="choice name"), lang) for s in STRENGTHS]
    described = i18n.catalog(lang).pgettext("option description", "How well the computers play: easy, normal or "
                                            "strong (default: normal; alone: one computer)")
    assert all(word in described for word in named), described


@pytest.mark.parametrize("lang", catalogs.TRANSLATED)
def test_geodeto_s_places_have_the_boards_names_everywhere(lang):
    """The rule pages said "Ozean" and "Antarktis" where the boards (and the rule page's own picture) say
    "Weltmeer" and "Antarktika": every sentence naming the Ocean or Antarctica uses the board's word."""
    import i18n

    wrong = []
    for term in ("Ocean", "Antarctica"):
        word = i18n.catalog(lang).gettext(term)
        pattern = re.compile(rf"\b{term}\b(?! \()")  # (not "Pacific Ocean"; a card's "Antarctica (USA)" is a name)
        for area in ("geodeto", "rulebook", "learn"):
            for m in catalogs.read(area, lang):
                if isinstance(m.id, str) and pattern.search(m.id.replace("Pacific Ocean", "")) and m.string \
                        and word.lower() not in m.string.lower():
                    wrong.append(f"{area}: {m.string!r} (the board: {word})")
    assert not wrong, "\n".join(wrong)


PACE_NAMES = {"de": {"turn-based": "rundenbasiert", "live": "live"}, "es": {"turn-based": "por turnos", "live": "en vivo"}}
"""The one word each language has for a table's pace (issue 27): the same in /play's choices, /mod pace and /mod
threads, the lobby, the board and /game away, so that a member recognises the option they picked."""


@pytest.mark.parametrize("lang", sorted(PACE_NAMES))
def test_a_pace_has_one_name_in_every_message_that_names_it(lang):
    from i18n.catalogs import read

    wrong = []
    for domain in ("bot", "commands"):
        for message in read(domain, lang):
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            said = message.string if isinstance(message.string, tuple) else (message.string,)
            for name, word in PACE_NAMES[lang].items():
                if any(re.search(rf"\b{name}\b tables?|\b{name}\b games?|^{name}\b|{name}[:,] |\b{name}\)",
                                 msgid, re.I) for msgid in ids) and not all(word in s.lower().replace("_", " ") for s in said):
                    wrong.append((domain, ids[0], said[0]))
    assert not wrong, wrong
