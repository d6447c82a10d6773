"""What players see of computer players (issue 17), through the real discord.py client and the loopback Discord:
the lobby's menu to add a computer at a strength, its Remove button and the takeover switch, /play's computers
and strength options, the board marking the computer's seat, /rules saying what each strength does."""

import pytest

import render
from bot.computers import strength_lines
from bot.table.words import board_view
from games import get_engine
from games.ai import STRENGTHS
from playground.fake_discord import DiscordError
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY

SPECTATOR = 105


def lobby(fake):
    return sight.lobby(fake, CHANNEL)


def described(message) -> str:
    return sight.description(message)


def labels(message) -> list[str]:
    return sight.labels_or_placeholders(message)


def menu_values(message) -> list[str]:
    return sight.menu_values(message)


def computer_values(message) -> list[str]:
    """The values of the lobby's menu to add a computer (beside it: the pace menu, issue 27)."""
    return [v for v in menu_values(message) if v.startswith("computer.")]


def last_ephemeral(fake, user) -> str:
    return sight.content(fake.ephemerals(user)[-1])


async def stored(runner):
    row = await runner.bot.store.open_table_in(CHANNEL)
    return await runner.bot.store.get_table(row.id)


async def test_a_player_adds_a_computer_from_the_lobby_menu_and_removes_it(fake, runner):
    fake.add_user(SPECTATOR, "Eve")
    await fake.slash(ANA, CHANNEL, "play", "geomancy")
    lob = lobby(fake)
    assert computer_values(lob) == [f"computer.{s}" for s in STRENGTHS]
    menu = fake.find_component(lob, value="computer.strong", kind=3)
    lines = strength_lines("geomancy")
    assert [o["description"] for o in menu["options"]] == [lines[s][:100] for s in STRENGTHS]
    for s in STRENGTHS:  # what each strength does is said in the menu alone (issue 26: it buried the seats)
        assert lines[s][:40] not in described(lob)

    await fake.select(SPECTATOR, lob, "computer.easy")
    assert "seated player" in last_ephemeral(fake, SPECTATOR)
    assert "Computer (easy)" not in described(lobby(fake))

    await fake.select(ANA, lobby(fake), "computer.strong")
    shown = described(lobby(fake))
    assert "2. 🤖 **Computer (strong)**\n" in shown and "a computer (strong)" not in shown, shown
    assert "<@-" not in shown  # a computer has no account to mention
    assert "Ana added Computer (strong)." in shown
    await fake.select(ANA, lobby(fake), "computer.strong")
    assert "3. 🤖 **Computer 2 (strong)**" in described(lobby(fake))
    assert [p.get("computer") for p in (await stored(runner)).players] == [None, "strong", "strong"]

    await fake.click(ANA, lobby(fake), "Remove Computer (strong)")
    assert [p["name"] for p in (await stored(runner)).players] == ["Ana", "Computer 2 (strong)"]
    assert "Remove Computer (strong)" not in labels(lobby(fake))
    assert "Remove Computer 2 (strong)" in labels(lobby(fake))


async def test_only_the_host_adds_or_removes_computers_and_switches_the_takeover(fake, runner):
    await fake.slash(ANA, CHANNEL, "play", "geoneo", computers=1)
    await fake.click(BO, lobby(fake), "Join")
    await fake.select(BO, lobby(fake), "computer.easy")
    assert last_ephemeral(fake, BO) == "Only the host can add or remove computers."
    await fake.click(BO, lobby(fake), "Remove Computer (normal)")
    assert last_ephemeral(fake, BO) == "Only the host can add or remove computers."
    await fake.click(BO, lobby(fake), "Computer takes a leaver's seat: on")
    assert last_ephemeral(fake, BO) == "Only the host can switch whether a computer takes over a seat."
    row = await stored(runner)
    assert [p["name"] for p in row.players] == ["Ana", "Computer (normal)", "Bo"] and row.takeover is True


async def test_the_menu_goes_when_the_table_is_full_and_every_row_fits(fake, runner):
    await fake.slash(ANA, CHANNEL, "play", "geoneo")
    for strength in ("easy", "normal", "strong"):
        await fake.select(ANA, lobby(fake), f"computer.{strength}")
    lob = lobby(fake)  # the fake refuses what Discord would: more than five rows or five in a row
    assert computer_values(lob) == []
    assert [x for x in labels(lob) if x.startswith("Remove")] == [
        "Remove Computer (easy)", "Remove Computer (normal)", "Remove Computer (strong)"]
    assert [x for x in labels(lob) if x.startswith("Team up")] == [
        "Team up with Ana", "Team up with Computer (easy)", "Team up with Computer (normal)",
        "Team up with Computer (strong)"]
    await fake.click(BO, lob, "Join")
    assert last_ephemeral(fake, BO) == "The table is full (4 players)."


async def test_the_takeover_switch_is_on_by_default_and_flips(fake, runner):
    await fake.slash(ANA, CHANNEL, "play", "geek-out")
    assert "Computer takes a leaver's seat: on" in labels(lobby(fake))  # (its switch says it: no sentence)
    await fake.click(ANA, lobby(fake), "Computer takes a leaver's seat: on")
    assert (await stored(runner)).takeover is False
    assert "Computer takes a leaver's seat: off" in labels(lobby(fake))
    await fake.click(ANA, lobby(fake), "Computer takes a leaver's seat: off")
    assert (await stored(runner)).takeover is True


async def test_play_seats_computers_of_the_strength_asked(fake, runner):
    await fake.slash(ANA, CHANNEL, "play", "geek-out", computers=2, strength="strong")
    assert [(p["name"], p.get("computer")) for p in (await stored(runner)).players] == [
        ("Ana", None), ("Computer (strong)", "strong"), ("Computer 2 (strong)", "strong")]
    shown = described(lobby(fake))
    assert "2. 🤖 **Computer (strong)**" in shown and "3. 🤖 **Computer 2 (strong)**" in shown, shown


async def test_play_with_a_strength_alone_seats_one_computer_and_with_no_computers_says_so(fake, runner):
    await fake.slash(ANA, CHANNEL, "play", "geoneo", strength="strong")
    assert [p.get("computer") for p in (await stored(runner)).players] == [None, "strong"]
    assert "A strong computer sits with you" in last_ephemeral(fake, ANA)
    await fake.slash(BO, 601, "play", "geoneo", computers=0, strength="easy")
    row = await runner.bot.store.open_table_in(601)
    assert [p["name"] for p in row.players] == ["Bo"]
    assert last_ephemeral(fake, BO).endswith(
        "The strength applies to computers: add some with computers:N or from the lobby.")


async def test_play_computers_default_to_normal_and_respect_the_player_count(fake, runner):
    await fake.slash(ANA, CHANNEL, "play", "geoneo", computers=1)
    assert [p.get("computer") for p in (await stored(runner)).players] == [None, "normal"]
    with pytest.raises(DiscordError):  # Discord itself refuses a number beyond the option's range
        await fake.slash(BO, 601, "play", "geoneo", computers=4)


async def test_the_board_marks_the_computer_seat_and_never_mentions_it(fake, runner):
    await fake.slash(ANA, CHANNEL, "play", "geek-out")
    await fake.select(ANA, lobby(fake), "computer.strong")
    await fake.click(ANA, lobby(fake), "Start")
    table = await stored(runner)
    engine = get_engine("geek_out")
    state = engine.decode(table.state)
    board = [m for m in fake.messages_in(CHANNEL) if sight.is_board(m)][-1]
    assert "<@-" not in sight.words(board) and "<@-" not in "".join(sight.content(m) or "" for m in
                                                                        fake.messages_in(CHANNEL))
    names = [p["name"] for p in table.players]
    view = board_view(engine, state)
    marked = render.render_board("geek_out", view, names, table.last_move, None, computers=(1,))
    shown = fake.files[int(board["attachments"][0]["id"])]
    assert shown == marked, "the board is drawn with the computer's seat marked"
    assert shown != render.render_board("geek_out", view, names, table.last_move, None)


async def test_rules_say_what_each_strength_does(fake, runner):
    """The rule pages' last page (bot/cogs/rules.py) says what each computer strength does."""
    await fake.slash(CY, CHANNEL, "rules", game="geodeto")
    answer = fake.ephemerals(CY)[-1]
    while sight.footer(answer) != "Page 5 of 5":
        await fake.click(CY, answer, "Next")
        answer = fake.messages[int(answer["id"])]
    title, text, _footer = sight.pages(answer)[1]
    assert title == "Computer players"
    lines = strength_lines("geodeto")
    assert text.splitlines() == [f"🤖 **{s}**: {lines[s]}" for s in STRENGTHS]
    await fake.slash(ANA, CHANNEL, "play", "geodeto")
    await fake.click(BO, lobby(fake), "Rules")
    assert sight.title(fake.ephemerals(BO)[-1]) == "Geodeto: The board"


async def test_a_seat_handed_to_a_computer_reads_as_its_computer_on_the_board(fake, runner):
    """Takeover on (the default): a player who leaves mid-game is replaced by "Computer for Bo", marked as a
    computer on the board and never mentioned."""
    names = {ANA: "Ana", BO: "Bo", CY: "Cy"}
    await fake.slash(ANA, CHANNEL, "play", "geek-out")
    for user in (BO, CY):
        await fake.click(user, lobby(fake), "Join")
    await fake.click(ANA, lobby(fake), "Start")
    table = await stored(runner)
    engine = get_engine("geek_out")
    acting = sorted(engine.to_act(engine.decode(table.state)))[0]
    leaver = next(p for s, p in enumerate(table.players) if s != acting)  # not to act: the board stays put
    seat = table.players.index(leaver)
    await fake.slash(leaver["id"], CHANNEL, "game", "leave")
    table = await stored(runner)
    assert table.players[seat]["name"] == f"Computer for {names[leaver['id']]}"
    board = [m for m in fake.messages_in(CHANNEL) if sight.is_board(m)][-1]
    latest, _earlier = sight.latest_moves(board)
    assert latest[-1] == f"{names[leaver['id']]} left. A computer plays their seat from now on."
    assert "<@-" not in sight.words(board)
    view = board_view(engine, engine.decode(table.state))
    seated = [p["name"] for p in table.players]
    shown = fake.files[int(board["attachments"][0]["id"])]
    assert shown == render.render_board("geek_out", view, seated, table.last_move, None, computers=(seat,))
