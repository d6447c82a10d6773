"""bot/ names no game (issue 25): what differs per game is the game's own (games/<game>/, its coach, its engine,
render/<game>), and the bot asks it. A game's slug (``globe_twister``, or ``globe-twister`` as /play spells it) in
a string or a name of bot/'s code (a comparison, an option, an import) fails; prose may name games (docstrings
and bare string statements are never run), and so may a sentence by the games' titles (the greeting's "GEONEO":
a slug is lower case). The migrations are left out: they are history.
"""

from __future__ import annotations

import ast
from pathlib import Path

from games.core import all_engines

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"


def slugs() -> set[str]:
    found = {e.slug for e in all_engines()}
    assert {"geek_out", "geoneo", "geodeto", "globe_twister", "geomancy"} <= found
    return found | {s.replace("_", "-") for s in found}


def prose(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are statements of their own (docstrings, attribute docstrings)."""
    return {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)}


def words_in(node: ast.AST) -> list[str]:
    """What of ``node`` could name a game: a string constant, an identifier, an imported module."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.alias):
        return [node.name, node.asname or ""]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    return []


def game_names(source: str, path: str = "<test>") -> list[str]:
    """``line: text`` of each place in ``source``'s code that names a game."""
    tree, names = ast.parse(source, path), slugs()
    skip = prose(tree)
    hits = [(getattr(node, "lineno", 0), word) for node in ast.walk(tree) if id(node) not in skip
            for word in words_in(node) if any(slug in word for slug in names)]
    return [f"{path}:{line}: {word!r}" for line, word in sorted(hits)]


def test_no_module_of_bot_names_a_game():
    files = [p for p in sorted(BOT.rglob("*.py")) if "migrations" not in p.relative_to(BOT).parts]
    assert len(files) > 20
    found = [hit for p in files for hit in game_names(p.read_text(), str(p.relative_to(ROOT)))]
    assert found == [], "\n".join(found)


def test_the_scan_sees_strings_names_and_imports_but_not_prose():
    code = '''
"""A module about globe_twister."""
LEVELS = 1
"""Globe Twister's geek_out levels (prose)."""
def f(game):
    """geomancy, in a docstring."""
    # geodeto in a comment
    if game == "globe_twister":
        return f"{game}-geek-out"
    from games.geoneo import rules
    return state["solo"]
'''
    found = game_names(code)
    assert [hit.split(": ", 1)[1] for hit in found] == ["'globe_twister'", "'-geek-out'", "'games.geoneo'"], found
