"""One way to say something to a member alone (issue 25): every ephemeral answer goes through bot/ui/say.py
(``say``, after ``think`` when it takes a moment), so the member's language and "already answered?" are decided
in one place. No other module of bot/ sends, follows up or defers with ``ephemeral=True``.

The one exception: a player's private panel (``Boards.open_panel``, bot/boards.py) keeps its interaction (bot/panels.py) and edits
its message for 15 minutes as the table changes; it is a message kept current, not something said once.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
SAY = BOT / "ui" / "say.py"
PANEL = {"open_panel"}
"""The functions that may defer ephemerally themselves: the private panel (see the module's docstring)."""


def ephemeral_calls(source: str, path: str = "<test>") -> list[str]:
    """``path:line: function: call`` of each call with ``ephemeral=True`` outside the allowed functions."""
    tree = ast.parse(source, path)
    found = []

    def visit(node: ast.AST, function: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
        if isinstance(node, ast.Call) and any(k.arg == "ephemeral" and not (isinstance(k.value, ast.Constant)
                                                                              and k.value.value is False)
                                              for k in node.keywords) and function not in PANEL:
            found.append(f"{path}:{node.lineno}: {function}: {ast.unparse(node.func)}")
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, "")
    return found


def test_no_module_of_bot_answers_ephemerally_but_say():
    files = [p for p in sorted(BOT.rglob("*.py")) if p != SAY and "migrations" not in p.parts]
    found = [hit for p in files for hit in ephemeral_calls(p.read_text(), str(p.relative_to(ROOT)))]
    assert found == [], "\n".join(found)


def test_say_itself_answers_ephemerally():
    assert len(ephemeral_calls(SAY.read_text())) == 3  # think's defer, say's followup and first answer


def test_the_scan_sees_sends_followups_and_defers():
    code = '''
async def f(interaction, text):
    await interaction.response.send_message(text, ephemeral=True)
    await interaction.followup.send(text, ephemeral=True)
    await interaction.response.defer(ephemeral=True, thinking=True)
    await interaction.response.defer(ephemeral=False)
    await interaction.response.send_message(text)

async def open_panel(interaction):
    await interaction.response.defer(ephemeral=True, thinking=True)
'''
    assert [hit.rsplit(": ", 1)[1] for hit in ephemeral_calls(code)] == [
        "interaction.response.send_message", "interaction.followup.send", "interaction.response.defer"]
