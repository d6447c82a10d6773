"""Who won a game a person left while a computer played their seat on: the ratings rank the person's departure
last (docs/rules/ratings.md, 6), so a computer that outscored the others is no winner; the board, the standings,
/history, /replay and /stats say so alike: "Ana wins: Bo left (a computer played their seat)." (The board said
"Computer for Bo wins" while the ratings counted Ana's win.)"""

import random
import secrets

import pytest

import render
from bot.cogs.records import history_line
from bot.cogs.replay import summary
from bot.database import open_store
from bot.replay import build
from bot.table.model import Defaults
from bot.table.service import TableService
from bot.table.words import board_view
from bot.ui.final import standings, winners_sentence
from render.common import record_texts
from tests.bot.test_computers import PAUSE, Clock, play_with_computers

ANA, BO = {"id": 1, "name": "Ana"}, {"id": 2, "name": "Bo"}
SAID = "Ana wins: Bo left (a computer played their seat)."


async def a_game_bos_computer_outscores_ana(service, clock, monkeypatch):
    """Geek Out between Ana and Bo; Bo leaves at once (a computer plays his seat) and the computer ends with
    more points than Ana (the first of these seeds where it does)."""
    for seed in range(60):
        monkeypatch.setattr(secrets, "randbits", lambda bits, seed=seed: seed)
        table = await service.open_lobby(1, 10 + seed, "geek_out", {"turns": 2}, ANA)
        await service.lobby(table.id, "join", BO)
        await service.lobby(table.id, "start", ANA)
        await service.leave(table, BO["id"])
        await play_with_computers(service, clock, table.id, random.Random(seed))
        table = await service.get(table.id)
        result = table.result()
        if result.scores[1] > result.scores[0]:
            return table, result
    raise AssertionError("no seed where the computer outscored Ana")


async def test_a_computer_that_outscored_the_people_is_said_to_be_no_winner_everywhere(database, monkeypatch):
    clock = Clock()
    service = TableService(await open_store(database), Defaults(computer_pause=PAUSE), clock=clock)
    try:
        table, result = await a_game_bos_computer_outscores_ana(service, clock, monkeypatch)
        assert result.ranking[0] == (1,)  # the game's own ranking: the computer's seat first

        # the standings and the table's message
        assert winners_sentence(table, result) == SAID.replace("Ana", "**Ana**")
        lines = standings(table, result).splitlines()
        assert lines[1].startswith("1st: **Ana**") and lines[2].startswith("2nd: 🤖 **Computer for Bo**"), lines

        # the board: its banner names Ana and why, and no star marks the computer's seat
        with record_texts() as drawn:
            render.render_board("geek_out", board_view(table.engine, table.state), table.names, None, table.focus(),
                                (1,))
        assert SAID in " ".join(drawn), drawn  # (the phone's banner takes it on two lines)
        assert not any("Computer for Bo" in t and "win" in t for t in drawn), drawn

        # /history, /replay, /stats
        [game] = await service.store.history(1, table.row.channel_id)
        assert SAID.replace("Ana", "**Ana**") in history_line(game, False, "en"), history_line(game, False, "en")
        assert SAID in summary(game, 10, 10)
        [ana] = await service.store.stats(1, ANA["id"])
        [bo] = await service.store.stats(1, BO["id"])
        assert (ana.wins, bo.wins) == (1, 0)

        # the replay ends on that board too
        row = await service.store.get_table(table.id)
        made = build("geek_out", row.players, row.options, row.seed, await service.store.actions(table.id),
                     row.last_move)
        with record_texts() as drawn:
            build("geek_out", row.players, row.options, row.seed, await service.store.actions(table.id),
                  row.last_move, max_frames=2)
        assert SAID in " ".join(drawn) and made.frames > 2
    finally:
        await service.stop_computers()
        await service.store.close()


@pytest.mark.parametrize("departed", [[1], [0, 1]])
def test_the_outcome_ranks_a_seat_handed_to_a_computer_after_the_people_still_playing(departed):
    from bot.ratings import outcome

    players = [{"id": 1, "name": "Ana"}, {"id": 2, "name": "Bo"}, {"id": 3, "name": "Cy"}]
    for s in departed:
        players[s] = {"id": -1 - s, "name": f"Computer for {players[s]['name']}", "computer": "normal",
                      "was": players[s]}
    found = outcome("geek_out", players, [[0, 1], [2]])
    staying = [s for s in range(3) if s not in departed]
    assert found.winners == tuple(s for s in (0, 1) if s in staying) or found.winners == (2,)
    assert found.overtaken == tuple(s for s in (0, 1) if s in departed)
    assert [s for group in found.ranking for s in group][-len(departed):] == departed
