"""Refusals (bot/table/refusals.py): every kind has words, said in every language; every refusal the bot raises
names its kind; the one handler (bot/ui/refusals.py) finds a refusal inside a command's error."""

import ast
import re
from pathlib import Path

import pytest

import i18n
from bot.table.refusals import Refusal, Refused
from bot.ui.refusals import refusal_in

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"


@pytest.mark.parametrize("lang", ["de", "es"])
@pytest.mark.parametrize("kind", list(Refusal), ids=lambda k: k.name)
def test_every_kind_has_words_translated(kind, lang):
    words = kind.words
    assert isinstance(words, i18n.Text) and words.msgid == str(words)  # a marked message, not a plain str
    said = i18n.catalog(lang).gettext(words.msgid)
    assert said and said != words.msgid, f"{kind.name} has no {lang} translation"
    assert set(re.findall(r"{(\w+)}", said)) == set(re.findall(r"{(\w+)}", words.msgid))


def test_a_refusal_says_its_kinds_words_or_its_own_sentence():
    assert str(Refused(Refusal.GAME_OVER)) == "This game is over."
    assert str(Refused(Refusal.LOBBY_FULL, n=4)) == "The table is full (4 players)."
    full = Refused(Refusal.LOBBY_FULL, n=4).text
    assert i18n.localize(full, "de") == i18n.catalog("de").gettext(full.msgid).format(n=4)
    own = i18n._("This game is already over.")
    refused = Refused(Refusal.GAME_OVER, own)
    assert refused.kind is Refusal.GAME_OVER and refused.text is own


def raises_of_refused(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Refused":
            yield node


def kinds_in(node: ast.expr) -> list[str] | None:
    """The kinds an expression names (``Refusal.X``, or ``Refusal.X if ... else Refusal.Y``); None otherwise."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Refusal":
        return [node.attr]
    if isinstance(node, ast.IfExp):
        body, other = kinds_in(node.body), kinds_in(node.orelse)
        return body + other if body is not None and other is not None else None
    return None


def test_every_refusal_names_its_kind_and_every_kind_is_used():
    used: set[str] = set()
    sites = 0
    for path in sorted(BOT.rglob("*.py")):
        source = path.read_text()
        assert "UserError" not in source, f"{path.relative_to(ROOT)}: refusals are Refused(kind, ...) now"
        tree = ast.parse(source, str(path))
        for call in raises_of_refused(tree):
            where = f"{path.relative_to(ROOT)}:{call.lineno}"
            assert call.args, f"{where}: a refusal without its kind"
            kinds = kinds_in(call.args[0])
            assert kinds, f"{where}: the first argument of Refused is not a Refusal kind"
            unknown = set(kinds) - set(Refusal.__members__)
            assert not unknown, f"{where}: no such kind {unknown}"
            used.update(kinds)
            sites += 1
    assert sites > 40
    assert used == set(Refusal.__members__), f"kinds never raised: {set(Refusal.__members__) - used}"


def test_the_handler_finds_a_refusal_inside_a_commands_error():
    from discord import app_commands

    async def callback(interaction):
        return None

    command = app_commands.Command(name="x", description="x", callback=callback)
    refused = Refused(Refusal.CHANNEL_BUSY)
    assert refusal_in(app_commands.CommandInvokeError(command, refused)) is refused
    assert refusal_in(refused) is refused
    assert refusal_in(app_commands.CommandInvokeError(command, ValueError("x"))) is None
    assert refusal_in(app_commands.CheckFailure()) is None
