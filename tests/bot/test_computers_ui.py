"""The words about computer seats: the final standings say which seats a computer played (and whose seat it
took over), the To act line names a computer without a mention."""

import random

from bot.computers import handed_over, new_computer
from bot.store import TableRow
from bot.tables import Table
from bot.ui import components, messages
from games import get_engine

ANA = {"id": 101, "name": "Ana"}
DEE = {"id": 104, "name": "Dee"}


def table_of(players: list[dict], status: str, seed: int = 3) -> Table:
    """A Geek Out table of ``players``, played with random moves to its end (``finished``) or not at all."""
    engine = get_engine("geek_out")
    state = engine.new(len(players), {"turns": 1}, seed)
    rng = random.Random(seed)
    while status == "finished" and engine.to_act(state):
        seat = min(engine.to_act(state))
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).key)
    row = TableRow(id=1, guild_id=500, channel_id=600, game="geek_out", options={"turns": 1}, seed=seed,
                   status=status, players=players, host_id=ANA["id"], state=engine.encode(state), version=5,
                   message_id=None, last_move=None, end_reason=None, created_at=0.0, updated_at=0.0)
    return Table(row, engine, state)


def test_the_standings_say_which_seats_a_computer_played():
    strong = new_computer("strong", [ANA])
    took_over = handed_over(DEE, "normal", [ANA, strong])
    table = table_of([ANA, strong, took_over], "finished")
    text = messages.standings(table, table.result())
    assert "🤖 **Computer (strong)**" in text, text
    assert "🤖 **Computer for Dee** (took over Dee's seat)" in text, text
    assert "**Ana**" in text and "🤖 **Ana**" not in text
    assert "🤖 Played by a computer: Computer (strong), Computer for Dee (normal)." in text, text


def test_a_game_of_people_has_no_computer_line():
    table = table_of([ANA, DEE], "finished")
    assert "🤖" not in messages.standings(table, table.result())


def test_the_to_act_line_names_a_computer_without_a_mention():
    computer = new_computer("easy", [])
    table = table_of([ANA, computer], "playing", seed=1)
    assert table.to_act() == [1]
    line = messages.table_embed(table, "board.png").description.splitlines()[0]
    assert line == "To act: 🤖 **Computer (easy)** (a computer: it moves by itself)"
    assert "<@" not in line


async def test_the_board_offers_no_buttons_for_a_computers_move():
    """Nobody may click a computer's move (the service would refuse it anyway): its turn shows the utility row."""
    computer = new_computer("normal", [ANA])
    table = table_of([ANA, computer], "playing", seed=1)
    assert table.to_act() == [1]
    view = components.table_view(table)
    assert [item.item.label for item in view.children] == ["Rules"]
    table = table_of([computer, ANA], "playing", seed=1)  # the person to act: their moves, as before
    assert len(components.table_view(table).children) > 1
