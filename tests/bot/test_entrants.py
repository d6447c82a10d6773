"""The places a tournament reads from its boards (bot/entrants.py, docs/rules/tournaments.md T-B1)."""

from bot.entrants import places
from bot.store.tournaments import Board


def board(status, players, standings=None, left=None):
    return Board(1, 1, [p["id"] for p in players], 9, 5, status, players, standings, left)


ANA, BO, CY = {"id": 1, "name": "Ana"}, {"id": 2, "name": "Bo"}, {"id": 3, "name": "Cy"}


def test_a_finished_game_gives_its_ranking_as_places():
    assert places("geek_out", board("finished", [ANA, BO], {"ranking": [[1], [0]], "scores": [1, 5]})) == (2, 1)
    assert places("geek_out", board("finished", [ANA, BO, CY], {"ranking": [[0, 2], [1]]})) == (1, 3, 1)


def test_a_seat_a_computer_took_over_comes_after_the_people():
    taken = {"id": -5, "name": "Computer for Ana", "computer": "normal", "was": {"id": 1, "name": "Ana"}}
    assert places("geek_out", board("finished", [taken, BO], {"ranking": [[0], [1]]})) == (2, 1)


def test_an_ended_table_is_shared_first_and_who_left_is_last():
    assert places("geek_out", board("ended", [ANA, BO])) == (1, 1)
    assert places("geek_out", board("ended", [ANA, BO, CY], left=[False, True, False])) == (1, 3, 1)
