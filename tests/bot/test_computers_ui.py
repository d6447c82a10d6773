"""The words about computer seats: the final standings say which seats a computer played (and whose seat it
took over), the To act line names a computer without a mention."""

import random

import i18n
from bot.computers import handed_over, new_computer, strength_lines
from bot.store import TableRow
from bot.table.model import Table
from bot.table.words import name_seats
from bot.ui import components, final, messages, screens
from games import get_engine
from i18n import _
from tests.bot import sight

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
    text = final.standings(table, table.result())
    assert "🤖 **Computer (strong)**" in text, text
    assert "🤖 **Computer for Dee** (took over Dee's seat)" in text, text
    assert "**Ana**" in text and "🤖 **Ana**" not in text
    assert "🤖 Played by a computer: Computer (strong), Computer for Dee (normal)." in text, text


def test_a_game_of_people_has_no_computer_line():
    table = table_of([ANA, DEE], "finished")
    assert "🤖" not in final.standings(table, table.result())


def test_the_to_act_line_names_a_computer_without_a_mention():
    computer = new_computer("easy", [])
    table = table_of([ANA, computer], "playing", seed=1)
    assert table.to_act() == [1]
    line = board_text(table).splitlines()[0]
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


def lobby_text(players: list[dict], takeover: bool = True) -> str:
    table = table_of(players, "lobby")
    table.row.takeover = takeover
    return sight.description(as_sent(screens.lobby(table)))


def as_sent(view) -> dict:
    """A layout as the loopback Discord keeps the message it is sent in."""
    return {"flags": sight.IS_COMPONENTS_V2, "components": view.to_components(), "content": "", "embeds": []}


def board_text(table, lang: str = "en") -> str:
    return sight.description(as_sent(screens.table(table, "board.png", lang)))


def test_the_lobby_names_a_computer_once():
    strong = new_computer("strong", [ANA])
    text = lobby_text([ANA, strong])
    assert "2. 🤖 **Computer (strong)**\n" in text, text
    assert "a computer (strong)" not in text
    took_over = handed_over(DEE, "normal", [ANA])  # (a seat taken over shows in a lobby only if one reopens)
    assert messages.seat_words(took_over) == "🤖 **Computer for Dee** (normal)"


def test_the_lobby_says_how_many_players_start_and_how_many_more_are_needed():
    text = lobby_text([ANA])  # Geek Out may be played alone
    assert "1/8 seated; at least 1 player to start." in text, text
    assert "needed" not in text
    assert messages.start_words(1, 3) == "at least 3 players to start: 2 more needed."
    assert messages.start_words(3, 3) == messages.start_words(4, 3) == "at least 3 players to start."


def test_the_takeover_is_said_on_its_switch_alone():
    """The lobby's words leave the takeover to its switch (issue 26: the sentence buried who is seated)."""
    off = lobby_text([ANA, DEE], takeover=False)
    assert "Taking over" not in off and "leaver" not in off
    table = table_of([ANA, DEE], "lobby")
    labels = [item.item.label for item in components.lobby_view(table).children if hasattr(item.item, "label")]
    assert "Computer takes a leaver's seat: on" in labels


def test_a_computer_named_in_a_move_is_said_in_the_reader_s_language():
    """Geek Out's "{player} starts turn ..." gets its seat as a parameter ("{p1}"): the computer's name there
    follows the language like the rest of the sentence (it said "Computer (normal) empieza el turno 1")."""
    table = table_of([ANA, new_computer("normal", [ANA])], "playing", seed=1)
    text = name_seats(_("{player} starts turn {turn} and rolls {faces}.", player="{p1}", turn=1, faces="42"),
                      table.names)
    assert i18n.localize(text, "es").startswith("Ordenador (normal) empieza el turno 1")
    assert str(text).startswith("Computer (normal) starts turn 1")


def test_the_lobby_says_its_options_in_words():
    """Each option by its label, its value in words, in the reader's language (issue 26: never a raw key; it
    said "Optionen: turns = 1", and before that "knocks = true")."""
    geomancy = get_engine("geomancy")
    said = geomancy.option_words(geomancy.normalise_options({}), 2)
    assert [str(s) for s in said] == ["Drop height: medium", "Knocks: on"]
    assert [i18n.localize(s, "de") for s in said] == ["Fallhöhe: mittel", "Anstoßen: an"]
    assert [i18n.localize(s, "es") for s in said] == ["Altura de caída: media", "Empujones: activado"]
    geodeto = get_engine("geodeto")
    assert [str(s) for s in geodeto.option_words(geodeto.normalise_options({}), 4)] == [
        "Goals: 12 (by the number of players)", "Extra cards: off"]
    table = table_of([ANA, DEE], "lobby")
    shown = sight.description(as_sent(screens.lobby(table, lang="de")))
    assert "Züge: 1" in shown and "=" not in shown, shown


def test_a_moderator_s_end_reason_says_who_in_the_reader_s_language():
    """The reason is stored "<reason> (by <name>)" (the privacy code finds the name there): a German board said
    "Beendet: Test (by Mo)"."""
    table = table_of([ANA, DEE], "ended")
    table.row.end_reason = "zu langsam (by Mo)"
    assert "**Ended:** zu langsam (by Mo)" in board_text(table)
    assert "**Beendet:** zu langsam (von Mo)" in board_text(table, "de")
    table.row.end_reason = "spam (by a former member)"
    assert "**Terminada:** spam (por un antiguo miembro)" in board_text(table, "es")
    assert i18n.localize(table.focus()["closed"], "de") == "Geschlossen: spam (von einem ehemaligen Mitglied)"


def test_every_strength_line_fits_the_lobby_menu_in_every_language():
    """Discord's select options take 100 characters of description: the German Geek Out "easy" line (115) was
    cut mid-word ("bis zu einer zufälligen Zah"). The lines fit; a longer one would end at a word."""
    for game in ("geek_out", "geoneo", "geodeto", "geomancy", "globe_twister"):
        for strength, line in strength_lines(game).items():
            for lang in ("en", "de", "es"):
                assert len(i18n.localize(line, lang)) <= 100, (game, strength, lang, i18n.localize(line, lang))
    table = table_of([ANA], "lobby")
    [menu] = [item.item for item in components.lobby_view(table, "de").children if getattr(item.item, "options", None)
              and item.item.custom_id.endswith(":computer")]  # (beside it: the pace menu)
    assert menu.options[0].description == i18n.localize(strength_lines("geek_out")["easy"], "de")
    assert components.whole_words("bis zu einer zufälligen Zahl", 25) == "bis zu einer zufälligen…"
