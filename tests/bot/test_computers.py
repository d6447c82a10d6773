"""Computer seats: the pure helpers (bot/computers.py) and the lobby (TableService)."""

import pytest

from bot.computers import computer_seats, handed_over, is_computer, new_computer, strength_lines, strength_of
from bot.store import open_store
from bot.tables import TableService, UserError, is_lobby_key

ANA, BO = {"id": 1, "name": "Ana"}, {"id": 2, "name": "Bo"}


def test_computers_get_unique_negative_ids_and_names():
    players = [ANA]
    for strength in ("strong", "strong", "easy"):
        players.append(new_computer(strength, players))
    assert [p["name"] for p in players] == ["Ana", "Computer (strong)", "Computer 2 (strong)", "Computer (easy)"]
    assert [p["id"] for p in players] == [1, -1, -2, -3]
    assert computer_seats(players) == {1: "strong", 2: "strong", 3: "easy"}
    assert not is_computer(ANA) and strength_of(ANA) is None and strength_of(players[3]) == "easy"
    taken = handed_over(BO, "normal", players)
    assert taken == {"id": -4, "name": "Computer for Bo", "computer": "normal", "was": {"id": 2, "name": "Bo"}}
    with pytest.raises(ValueError):
        new_computer("genius", players)


def test_every_strength_has_a_line_for_every_game():
    from games import all_engines

    for engine in all_engines():
        lines = strength_lines(engine.slug)
        assert list(lines) == ["easy", "normal", "strong"] and all(lines.values())


def test_the_lobby_keys_are_lobby_keys():
    for key in ("computer.easy", "drop.2", "takeover.on", "takeover.off", "partner.-3"):
        assert is_lobby_key(key)


async def test_a_lobby_seats_and_drops_computers_and_sets_the_takeover_option(database):
    service = TableService(await open_store(database))
    try:
        table = await service.open_lobby(1, 10, "geoneo", {}, ANA, computers=["strong"])
        assert [p["name"] for p in table.players] == ["Ana", "Computer (strong)"]
        assert table.row.takeover is True
        change = await service.lobby(table.id, "computer.easy", ANA)
        assert change.text == "Ana added Computer (easy)."
        with pytest.raises(UserError, match="seated player"):
            await service.lobby(table.id, "computer.easy", BO)
        await service.lobby(table.id, "join", BO)
        with pytest.raises(UserError, match="full"):
            await service.lobby(table.id, "computer.normal", BO)
        with pytest.raises(UserError, match="no computer in that seat"):
            await service.lobby(table.id, "drop.3", ANA)  # Bo, a person
        await service.lobby(table.id, "drop.1", BO)
        await service.lobby(table.id, "computer.normal", BO)
        await service.lobby(table.id, "takeover.off", ANA)
        stored = await service.store.get_table(table.id)
        assert [p["name"] for p in stored.players] == ["Ana", "Computer (easy)", "Bo", "Computer (normal)"]
        assert stored.takeover is False
    finally:
        await service.store.close()


async def test_open_lobby_refuses_more_computers_than_seats_and_unknown_strengths(database):
    service = TableService(await open_store(database))
    try:
        with pytest.raises(UserError, match="at most 3 computers"):
            await service.open_lobby(1, 10, "geoneo", {}, ANA, computers=["easy"] * 4)
        with pytest.raises(UserError, match="not 'genius'"):
            await service.open_lobby(1, 10, "geodeto", {}, ANA, computers=["genius"])
        assert await service.store.open_table_in(10) is None
    finally:
        await service.store.close()


async def test_a_lobby_closes_when_its_last_person_leaves_and_the_host_passes_to_a_person(database):
    service = TableService(await open_store(database))
    try:
        table = await service.open_lobby(1, 10, "geodeto", {}, ANA, computers=["easy"])
        await service.lobby(table.id, "join", BO)
        await service.lobby(table.id, "leave", ANA)
        assert table.row.host_id == BO["id"]
        change = await service.lobby(table.id, "leave", BO)
        assert change.closed and (await service.store.get_table(table.id)).status == "ended"
    finally:
        await service.store.close()


async def test_one_person_and_computers_start_a_game(database):
    service = TableService(await open_store(database))
    try:
        table = await service.open_lobby(1, 10, "geodeto", {}, ANA)
        with pytest.raises(UserError, match="at least"):
            await service.lobby(table.id, "start", ANA)
        await service.lobby(table.id, "computer.normal", ANA)
        await service.lobby(table.id, "start", ANA)
        assert table.status == "playing" and table.state["players"] == 2
    finally:
        await service.store.close()
