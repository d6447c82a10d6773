"""An 8-player Swiss of Geek Out duels through the loopback Discord (issue 28, "Measured"): two rounds played by
people clicking, with real winners, to the podium. The standings are checked against a computation of this
test's own from the stored results (points, Buchholz, Sonneborn-Berger, shared places: docs/rules/tournaments.md
T3, T6, T8), not through bot/tournament.

Every table's dice are fixed (its seed from a counter) and at every table the stronger player (``STRENGTH``)
plays the engine's best move and passes at the first choice, while the weaker one always rolls on; so each game
has a winner, and the whole tournament is known in advance: round 1 pairs 1-5, 2-6, 3-7, 4-8 (the seeds are
the sign-up order: nobody is rated), round 2 the winners among themselves (1-3, 2-4) and the losers (5-7, 6-8).
"""

from __future__ import annotations

import itertools
import os
import re
import types

from games.geek_out import rules as geek_out
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY, MOD
from tests.bot.test_tournament_e2e import (
    NAMES,
    PLAYERS,
    add_players,
    create,
    sign_up,
    tournament_message,
    wait_round,
)

STRENGTH = [ANA, BO, CY, 111, 112, 115, 113, 114]
"""Who beats whom: at a table the player listed first plays well, the other badly."""


def pinned_seeds(monkeypatch) -> None:
    """The seated tables' games take their seeds from a counter (bot/table/seated.py draws ``secrets.randbits``)."""
    from bot.table import seated
    counter = itertools.count(20261129)
    monkeypatch.setattr(seated, "secrets", types.SimpleNamespace(randbits=lambda bits: next(counter)))


def buttons(board: dict) -> list[str]:
    return [c["label"] for c in sight.components(board) if c["type"] == 2 and c.get("label")
            and c["label"] not in ("Rules", "Choose another die") and not c["label"].startswith("More")]


async def play_duel(fake, runner, thread: int, table_id: int, limit: int = 400) -> None:
    """Plays the duel in ``thread`` to its end: the stronger player clicks the move the engine rates best (read
    from the table's state, as a player who counts well would) and Passes at once; the weaker one Continues."""
    for _ in range(limit):
        boards = sight.boards(fake, thread)
        if not boards:
            await fake.settle()
            continue
        board = boards[-1]
        who = sight.to_act_id(board)
        if who is None:
            return
        seated = [p["id"] for p in (await runner.bot.service.get(table_id)).row.players]
        names = buttons(board)
        strong = min(seated, key=STRENGTH.index) == who
        if not strong:
            pick = next((n for n in names if n.startswith("Continue")), names[0])
        else:
            table = await runner.bot.service.get(table_id)
            state = table.state
            if state["phase"] == "choose":
                pick = next(n for n in names if n.startswith("Pass"))
            else:
                (face, target), _value = table.engine.timeout_move(state)
                if state["phase"] == "act":
                    pick = next(n for n in names if n.startswith(str(geek_out.NAMES[face])))
                else:
                    pick = next(n for n in names if str(geek_out.A_FACE[target]) in n)
        await fake.click(who, board, pick)
    raise AssertionError(f"the table in {thread} did not end")


def expected_standings(boards) -> list[tuple[int, int, float, float, float]]:
    """(place, player, points, Buchholz, Sonneborn-Berger) from the stored results alone (T3, T6, T8)."""
    points = {u: 0.0 for u in PLAYERS}
    games = []  # (player, opponent, what the player scored)
    for b in boards:
        first = b.standings["ranking"][0]
        for seat, u in enumerate(b.seats):
            scored = (1.0 if len(first) == 1 else 0.5) if seat in first else 0.0
            points[u] += scored
            games.append((u, b.seats[1 - seat], scored))
    buchholz = {u: sum(points[o] for p, o, _s in games if p == u) for u in PLAYERS}
    berger = {u: sum(points[o] * s for p, o, s in games if p == u) for u in PLAYERS}
    key = {u: (points[u], buchholz[u], berger[u]) for u in PLAYERS}
    order = sorted(PLAYERS, key=lambda u: key[u], reverse=True)
    return [(1 + sum(key[v] > key[u] for v in PLAYERS), u, *key[u]) for u in order]


async def test_an_eight_player_swiss_of_geek_out_duels_has_real_winners_and_a_podium(fake, runner, monkeypatch):
    pinned_seeds(monkeypatch)
    add_players(fake)
    message = await create(fake, rounds=2, turns=3)
    text = sight.content(message)
    assert "Geek Out! Masters tournament #1" in text and "Swiss, 2 rounds · duels · live" in text, text
    await sign_up(fake, PLAYERS)
    assert "8 players signed up" in sight.content(tournament_message(fake))
    await fake.click(MOD, tournament_message(fake), "Start")
    store = runner.bot.store
    for number in (1, 2):
        threads = await wait_round(fake, number, 4)
        shown = sight.content(tournament_message(fake))
        assert f"Round {number} of 2 is being played." in shown, shown
        if number == 1:  # no result yet: who plays, not eight players sharing the first place with 0 points
            assert "8 players signed up" in shown and " pt" not in shown, shown
        else:
            assert "1. Ana · 1 pt · Buchholz 0 · 1 of 1 won" in shown, shown
        boards = {b.thread_id: b for b in await store.boards(1) if b.round == number}
        for thread in threads:
            await play_duel(fake, runner, thread, boards[thread].table_id)
    await fake.wait_until(lambda: any("tournament #1 is over" in sight.content(m) for m in fake.messages_in(CHANNEL)),
                          what="the podium")
    rounds = await store.rounds(1)
    boards = await store.boards(1)
    assert [r.number for r in rounds] == [1, 2] and all(r.posted for r in rounds) and len(boards) == 8
    assert all(len(b.standings["ranking"][0]) == 1 for b in boards), "every game has a winner"
    # round 1 by seed (sign-up order), 1-5 2-6 3-7 4-8; round 2 winners with winners, losers with losers
    first_round = [set(t) for t in rounds[0].tables]
    assert sorted(map(sorted, first_round)) == sorted(sorted((PLAYERS[i], PLAYERS[i + 4])) for i in range(4))
    won = {b.seats[b.standings["ranking"][0][0]] for b in boards if b.round == 1}
    assert won == {ANA, BO, CY, 111}  # the stronger player won each table
    second_round = [set(t) for t in rounds[1].tables]
    assert all(t <= won or not t & won for t in second_round), second_round
    assert not {frozenset(t) for t in first_round} & {frozenset(t) for t in second_round}  # no repeat
    assert rounds[0].byes == [] and rounds[1].byes == []
    # the standings, by the test's own count, as the bot shows them
    expected = expected_standings(boards)
    assert [(p, u) for p, u, *_ in expected[:3]] == [(1, ANA), (2, BO), (3, 111)], expected
    assert expected[0][2:4] == (2.0, 2.0) and expected[1][2:4] == (2.0, 1.0)  # equal points, Buchholz decides
    bot = runner.bot.get_cog("Tournament").rounds
    rows = (await bot.snapshot(1)).standings()
    assert [(x.place, x.id, x.points, *x.tiebreaks) for x in rows] == expected
    final = next(m for m in fake.messages_in(CHANNEL) if "tournament #1 is over" in sight.content(m))
    text = sight.content(final)
    assert text.split("\n")[0].endswith("is over. Ana wins!"), text
    assert "🥇 Ana" in text and "🥈 Bo" in text and "🥉 P111" in text, text
    shown = re.findall(r"^(\d+)\. (\S+) · (\S+) pts? · Buchholz (\S+) · ", text, re.M)
    assert shown == [(str(p), NAMES[u], f"{pts:g}", f"{b:g}") for p, u, pts, b, _sb in expected], shown
    assert "\n2. Bo · 2 pts · Buchholz 1 · 2 of 2 won\n" in text and "\n3. P111 · 1 pt · Buchholz 3 · 1 of 2 won\n" in text
    assert sight.has_image(final)
    if os.environ.get("TOURNAMENT_IMAGES"):  # to look at it
        with open(f"{os.environ['TOURNAMENT_IMAGES']}/swiss.png", "wb") as out:
            out.write(sight.image(fake, final))
    assert sight.has_image(next(m for m in fake.messages_in(CHANNEL) if "round 2 of 2" in sight.content(m)))
    assert await store.channel_tournament(CHANNEL) is None  # finished: no open tournament left
    assert not fake.rejections
