"""A long list of moves comes group by group: each group's button says how many moves it holds, as a plural
each language forms itself ("Europa · 3 Züge", "Europa · 3 movimientos"; it said "Europa · 3 × Zug")."""

from bot.store import TableRow
from bot.table.model import Table
from bot.ui import components
from games import get_engine

PLAYERS = [{"id": 101, "name": "Ana"}, {"id": 102, "name": "Bo"}]


def group_labels(slug: str, lang: str) -> list[str]:
    engine = get_engine(slug)
    state = engine.new(2, {}, 1)
    seat = min(engine.to_act(state))
    row = TableRow(id=1, guild_id=500, channel_id=600, game=slug, options={}, seed=1, status="playing",
                   players=PLAYERS, host_id=101, state=engine.encode(state), version=1, message_id=None,
                   last_move=None, end_reason=None, created_at=0.0, updated_at=0.0)
    table = Table(row, engine, state)
    items = components.action_items(table, engine.legal_actions(state, seat), seat=seat, private=False, lang=lang)
    return [item.item.label for item in items if item.item.custom_id.split(":")[-1].startswith("pick.")]


def test_geodeto_groups_count_their_moves_in_each_language():
    assert "Europe · 3 moves" in group_labels("geodeto", "en")
    assert "Europa · 3 Züge" in group_labels("geodeto", "de")
    assert "Europa · 3 movimientos" in group_labels("geodeto", "es")


def test_geomancy_groups_count_their_choices_in_each_language():
    assert "Aim at rank 8 · 8 choices" in group_labels("geomancy", "en")
    assert all("×" not in label and label.endswith("8 Möglichkeiten") for label in group_labels("geomancy", "de"))
    assert all(label.endswith("8 opciones") for label in group_labels("geomancy", "es"))
