"""A long list of moves comes group by group: each group's button says how many moves it holds, as a plural
each language forms itself ("Europa · 3 Züge", "Europa · 3 movimientos"; it said "Europa · 3 × Zug")."""

import discord

from bot.store import TableRow
from bot.table.choices import offer, stem
from bot.table.model import Table
from bot.ui import components
from games import get_engine
from games.core import Action
from i18n import _

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


def table_of(slug: str) -> Table:
    engine = get_engine(slug)
    state = engine.new(2, {}, 1)
    row = TableRow(id=1, guild_id=500, channel_id=600, game=slug, options={}, seed=1, status="playing",
                   players=PLAYERS, host_id=101, state=engine.encode(state), version=1, message_id=None,
                   last_move=None, end_reason=None, created_at=0.0, updated_at=0.0)
    return Table(row, engine, state)


def test_near_identical_labels_share_a_stem_in_every_game():
    """Issue 26's near-identical labels (bot.table.choices.stem): the same wording once the targets are out."""
    assert stem(_("Move {pyramid}", pyramid="small blue")) == stem(_("Move {pyramid} (carries {n})",
                                                                      pyramid="large red", n=4)) == "Move"
    assert stem(_("{place}: on the table", place="Europe")) == stem(_("{place}: on {pyramid}", place="Asia",
                                                                      pyramid="medium blue"))
    assert stem(_("Europe")) != stem(_("Asia"))  # places are no targets: "Europe · 3 moves", "Asia · 2 moves"
    assert stem(_("Aim {square}", square="a8")) == stem(_("Aim {square}", square="h1"))
    assert stem(_("Aim {square}", square="a8")) != stem(_("Point {direction}", direction="N"))
    assert stem("D2 (2)") == stem("E4 (2)") == stem("A1") == stem("H6")  # GEONEO's fields and corners
    assert stem("+2 = 6") == stem("-3 = 2") == "#"  # GEONEO's sums: alike
    assert stem(_("{label} (no effect here)", label=_("Blue 4: swap opposite edges"))) == "Blue"
    assert stem(_("Green 1: turn 90° clockwise")) != stem(_("Blue 1: swap with the neighbour"))


def test_more_than_ten_alike_buttons_come_grouped_or_as_a_menu():
    table = table_of("geek_out")  # a game that asks for no groups here (Engine.grouped)
    places = ["Europe", "Asia", "Africa"]
    moves = [Action(f"m{i}", _("Move {pyramid}", pyramid=str(i)), "primary", places[i % 3]) for i in range(12)]
    items = components.action_items(table, moves, seat=0, private=False)
    assert [type(i.item) for i in items] == [discord.ui.Button] * 3  # a place, then its moves
    assert all(i.item.custom_id.split(":")[-1].startswith("pick.") for i in items)
    items = components.action_items(table, moves, "Asia", seat=0, private=False)
    assert len(items) == 5 and items[-1].item.custom_id.endswith("pick.")  # Asia's four moves and Back
    one_group = [Action(a.key, a.label, a.style, "Move") for a in moves]
    items = components.action_items(table, one_group, seat=0, private=False)
    assert [type(i.item) for i in items] == [discord.ui.Select]  # groups cannot help: a menu, one control
    assert len(items[0].item.options) == 12
    few = moves[:10]  # ten alike still fit as buttons
    assert [type(i.item) for i in components.action_items(table, few, seat=0, private=False)] == \
        [discord.ui.Button] * 10


def test_moves_alike_in_every_word_are_one_button_and_each_key_still_plays():
    """Geomancy: three small stones land on e4, two facing east: the keep choice showed two identical "Keep the
    small on e4 (→ E)" buttons. One button now (the first stone's key); the engine still takes the other's key,
    so a stored log that chose it replays."""
    from tests.games.test_geomancy import RED, E, S, act, at, blank, forced, keys, set_hand, sq

    s = blank()
    a, b, c = set_hand(s, RED, S, S, S)
    s, _ = E.cast(s, RED, sq("e4"), [forced("e4", "E"), forced("e4", "E"), forced("e4", "W")])
    assert sorted(keys(s, RED)) == sorted([f"k{a}", f"k{b}", f"k{c}"])
    shown = offer(E.legal_actions(s, RED)).entries
    assert [x.key for x in shown] == [f"k{a}", f"k{c}"]
    assert len({str(x.label) for x in shown}) == 2
    kept, _ = act(s, RED, f"k{b}")  # the twin's key, as an older board offered it
    assert at(kept, "e4") == [b]
