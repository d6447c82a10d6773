"""bot/ratings.py against OpenSkill's own Plackett-Luce calculations on known cases: two players, four
players, GEONEO's teams, shared places; and which games are rated (docs/rules/ratings.md)."""

import random

import pytest
from openskill.models import PlackettLuce

import games  # noqa: F401
from bot.ratings import MU, SIGMA, Skill, displayed, plan
from games.core import SYSTEM, get_engine

LIBRARY = PlackettLuce()  # the library's defaults, built here on its own


def people(n: int) -> list[dict]:
    return [{"id": 100 + s, "name": f"P{s}"} for s in range(n)]


def standings(players, ranking, scores=None, **extra) -> dict:
    return {"scores": scores or [0] * len(players), "ranking": ranking, "players": players, "detail": {}} | extra


def by_user(rows) -> dict[int, dict]:
    return {r["user_id"]: r for r in rows}


def test_two_players_from_scratch_match_the_library_and_its_published_figures():
    rows = by_user(plan("geek_out", standings(people(2), [[1], [0]], [3, 10])).rows({}))
    (loser,), (winner,) = LIBRARY.rate([[LIBRARY.rating()], [LIBRARY.rating()]], ranks=[2.0, 1.0])
    assert (rows[101]["mu"], rows[101]["sigma"]) == (winner.mu, winner.sigma)
    assert (rows[100]["mu"], rows[100]["sigma"]) == (loser.mu, loser.sigma)
    # the figures openskill 6 gives for this case (a change of the library's defaults must be noticed)
    assert rows[101]["mu"] == pytest.approx(27.635389, abs=1e-5)
    assert rows[100]["mu"] == pytest.approx(22.364611, abs=1e-5)
    assert rows[100]["sigma"] == rows[101]["sigma"] == pytest.approx(8.065901, abs=1e-5)
    assert (rows[101]["won"], rows[100]["won"], rows[101]["place"], rows[100]["place"]) == (1, 0, 1, 2)
    assert rows[101]["rating"] == displayed(winner.mu, winner.sigma) > 1000 > rows[100]["rating"]
    assert rows[101]["games"] == rows[100]["games"] == 1


def test_four_players_with_earlier_ratings_match_the_library():
    rnd = random.Random(4)
    current = {100 + s: Skill(rnd.uniform(15, 35), rnd.uniform(1, 8), rnd.randrange(1, 40)) for s in range(4)}
    ranking = [[2], [0], [3], [1]]
    rows = by_user(plan("geodeto", standings(people(4), ranking, [9, 2, 14, 5])).rows(current))
    teams = [[LIBRARY.rating(mu=current[100 + s].mu, sigma=current[100 + s].sigma)] for s in range(4)]
    expected = LIBRARY.rate(teams, ranks=[2.0, 4.0, 1.0, 3.0])
    for s in range(4):
        row = rows[100 + s]
        assert (row["mu"], row["sigma"]) == (expected[s][0].mu, expected[s][0].sigma)
        assert row["games"] == current[100 + s].games + 1
    assert [rows[100 + s]["place"] for s in range(4)] == [2, 4, 1, 3]
    assert [rows[100 + s]["won"] for s in range(4)] == [0, 0, 1, 0]


def test_geoneo_teams_of_two_are_rated_as_teams():
    current = {100: Skill(30, 4, 12), 101: Skill(22, 6, 3), 102: Skill(20, 7, 2), 103: Skill(27, 3, 30)}
    # seats 0 and 2 are partners (Engine.teams) and share the first place
    rows = by_user(plan("geoneo", standings(people(4), [[0, 2], [1, 3]], [20, 12, 20, 12])).rows(current))
    r = {u: LIBRARY.rating(mu=s.mu, sigma=s.sigma) for u, s in current.items()}
    (a, c), (b, d) = LIBRARY.rate([[r[100], r[102]], [r[101], r[103]]], ranks=[1.0, 2.0])
    for user, after in ((100, a), (102, c), (101, b), (103, d)):
        assert (rows[user]["mu"], rows[user]["sigma"]) == (after.mu, after.sigma)
    assert [rows[100 + s]["place"] for s in range(4)] == [1, 2, 1, 2]
    assert [rows[100 + s]["won"] for s in range(4)] == [1, 0, 1, 0]
    # not the same as rating four single players
    (solo,), *_ = LIBRARY.rate([[r[100]], [r[101]], [r[102]], [r[103]]], ranks=[1.0, 2.0, 1.0, 2.0])
    assert rows[100]["mu"] != solo.mu


def test_shared_places_are_ties_for_the_library():
    ranking = [[0, 2], [1]]  # seats 0 and 2 share the victory
    rows = by_user(plan("geek_out", standings(people(3), ranking, [7, 3, 7])).rows({}))
    fresh = [[LIBRARY.rating()] for _ in range(3)]
    (a,), (b,), (c,) = LIBRARY.rate(fresh, ranks=[1.0, 3.0, 1.0])
    assert (rows[100]["mu"], rows[101]["mu"], rows[102]["mu"]) == (a.mu, b.mu, c.mu)
    assert rows[100]["mu"] == rows[102]["mu"] > MU > rows[101]["mu"]
    assert [rows[100 + s]["place"] for s in range(3)] == [1, 3, 1]
    assert [rows[100 + s]["won"] for s in range(3)] == [1, 0, 1]
    # everyone tied: nobody's mu moves, everyone grows more certain
    tied = by_user(plan("geek_out", standings(people(2), [[0, 1]])).rows({}))
    assert tied[100]["mu"] == tied[101]["mu"] == pytest.approx(MU)
    assert tied[100]["sigma"] < SIGMA


def test_no_winner_ranks_but_counts_no_win():
    rows = by_user(plan("globe_twister", standings(people(2), [[1], [0]], no_winner=True)).rows({}))
    assert rows[101]["mu"] > rows[100]["mu"]
    assert rows[101]["won"] == rows[100]["won"] == 0


@pytest.mark.parametrize("players, why", [
    ([{"id": 100, "name": "Ana"}, {"id": -1, "name": "Computer (easy)", "computer": "easy"}],
     "a computer played in it"),
    ([{"id": 100, "name": "Ana"}, {"id": -1, "name": "Computer (easy)", "computer": "easy"},
      {"id": -2, "name": "Computer for Cy", "computer": "normal", "was": {"id": 102, "name": "Cy"}}],
     "a computer played in it"),
    ([{"id": 100, "name": "Ana"}], "fewer than two people played it"),
])
def test_games_with_computers_or_fewer_than_two_people_are_not_rated(players, why):
    p = plan("geek_out", standings(players, [[s] for s in range(len(players))]))
    assert (p.rated, p.why_not) == (False, why)
    rows = p.rows({})
    assert all(r["rated"] == 0 and r["rating"] is None and r["games"] == 0 for r in rows)
    # every person still gets a row (history, stats), the one a computer took over from too
    assert [r["user_id"] for r in rows] == [q.get("was", q)["id"] for q in players if q["id"] > 0 or "was" in q]


def finished(engine, state) -> dict:
    """The standings as TableService._apply stores them."""
    result = engine.result(state)
    return standings(people(state["players"]), [list(g) for g in result.ranking], list(result.scores))


def test_a_player_who_leaves_is_rated_last_whether_the_game_ends_then_or_goes_on():
    engine = get_engine("geek_out")
    state, _ = engine.apply(engine.new(2, {}, 1), SYSTEM, "leave:0")  # the game ends: seat 1 wins by default
    assert state["ended_by"] == "leave:0"
    p = plan("geek_out", finished(engine, state))
    rows = by_user(p.rows({}))
    assert p.rated and (rows[101]["place"], rows[100]["place"]) == (1, 2) and rows[101]["won"] == 1
    state, _ = engine.apply(engine.new(3, {}, 2), SYSTEM, "remove:0")  # goes on between the other two
    while not engine.is_over(state):
        seat = min(engine.to_act(state))
        state, _ = engine.apply(state, seat, engine.legal_actions(state, seat)[0].key)
    rows = by_user(plan("geek_out", finished(engine, state)).rows({}))
    assert rows[100]["place"] == 3 and rows[100]["mu"] < min(rows[101]["mu"], rows[102]["mu"])


def test_a_person_in_two_seats_gets_one_row_and_no_rating():
    p = plan("geek_out", standings([{"id": 100, "name": "Ana"}, {"id": 100, "name": "Ana"}], [[0], [1]]))
    assert (p.rated, p.why_not, [r["seat"] for r in p.rows({})]) == (False, "a person held two seats", [0])


def test_a_seat_a_computer_took_over_is_its_persons_departure_and_the_game_stays_rated():
    """Leaving with the takeover option on is no way out of a rated loss: the game started between people, so
    it is rated, the person who left is ranked after everyone still playing (even when their computer won)."""
    players = [{"id": 100, "name": "Ana"}, {"id": 101, "name": "Bo"},
               {"id": -1, "name": "Computer for Cy", "computer": "normal", "was": {"id": 102, "name": "Cy", "score": 5}}]
    p = plan("geek_out", standings(players, [[2], [0], [1]], [8, 3, 12]))
    assert p.rated and p.why_not == ""
    rows = by_user(p.rows({}))
    assert [(rows[u]["place"], rows[u]["won"]) for u in (100, 101, 102)] == [(1, 1), (2, 0), (3, 0)]
    assert rows[102]["rated"] == 1 and rows[102]["mu"] < rows[101]["mu"] < rows[100]["mu"]
    expected = LIBRARY.rate([[LIBRARY.rating()] for _ in range(3)], ranks=[1.0, 2.0, 3.0])
    assert [rows[u]["mu"] for u in (100, 101, 102)] == [team[0].mu for team in expected]


def test_a_person_whose_seat_a_computer_took_over_scored_only_what_they_had_when_they_left():
    """Their row's score (history, and their best score in /stats) is what the seat had at the hand-over
    (``was["score"]``), not what the computer made of it after they left (12 here; it was counted); a seat
    handed over before scores were kept at the hand-over counts none."""
    players = [{"id": 100, "name": "Ana"}, {"id": 101, "name": "Bo"},
               {"id": -1, "name": "Computer for Cy", "computer": "normal", "was": {"id": 102, "name": "Cy", "score": 5}}]
    rows = by_user(plan("geek_out", standings(players, [[2], [0], [1]], [8, 3, 12])).rows({}))
    assert [rows[u]["score"] for u in (100, 101, 102)] == [8, 3, 5]
    players[2] = dict(players[2], was={"id": 102, "name": "Cy"})
    rows = by_user(plan("geek_out", standings(players, [[2], [0], [1]], [8, 3, 12])).rows({}))
    assert rows[102]["score"] is None


def test_two_people_handed_over_keep_their_order_after_the_one_still_playing():
    players = [{"id": -1, "name": "Computer for Ana", "computer": "normal", "was": {"id": 100, "name": "Ana"}},
               {"id": 101, "name": "Bo"},
               {"id": -2, "name": "Computer for Cy", "computer": "normal", "was": {"id": 102, "name": "Cy"}}]
    rows = by_user(plan("geek_out", standings(players, [[0, 2], [1]], [9, 4, 9])).rows({}))
    assert [(rows[u]["place"], rows[u]["won"]) for u in (101, 100, 102)] == [(1, 1), (2, 0), (2, 0)]


def test_geoneo_a_team_with_a_partner_still_playing_keeps_its_place():
    players = people(4)
    players[0] = {"id": -1, "name": "Computer for P0", "computer": "normal", "was": {"id": 100, "name": "P0"}}
    teams = get_engine("geoneo").teams(4)
    first = sorted(teams[0])
    p = plan("geoneo", standings(players, [first, sorted(teams[1])]))
    assert p.rated
    rows = by_user(p.rows({}))
    assert all(rows[people(4)[s]["id"]]["place"] == 1 for s in first)
