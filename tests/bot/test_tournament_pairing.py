"""Worked examples of the tournament rules (docs/rules/tournaments.md), each checked by hand."""

import pytest

from bot.tournament.knockout import Match, bracket, bracket_order
from bot.tournament.model import table_points
from bot.tournament.pairing import (
    Entrant,
    Played,
    champion,
    fewest,
    knockout_round,
    knockout_rounds,
    standings,
    swiss_round,
    table_sizes,
)


def field(n: int) -> list[Entrant]:
    return [Entrant(i, i) for i in range(1, n + 1)]


def pairs(rnd) -> set[frozenset[int]]:
    return {frozenset(t) for t in rnd.tables}


def duel(r: int, a: int, b: int, result: str) -> Played:
    """``result``: "a" (a wins), "b" or "draw"."""
    places = {"a": (1, 2), "b": (2, 1), "draw": (1, 1)}[result]
    return Played(r, (a, b), places)


def by_seed(r: int, table) -> Played:
    """The better seed places better, everyone in order."""
    order = sorted(table)
    return Played(r, tuple(table), tuple(order.index(u) + 1 for u in table))


def test_points_by_place():
    assert table_points((1, 2), 2) == [1.0, 0.0]
    assert table_points((1, 1), 2) == [0.5, 0.5]
    assert table_points((2, 1, 3, 4), 4) == [2.0, 4.0, 1.0, 0.0]
    assert table_points((1, 2, 3), 4) == [4.0, 2.0, 0.0]  # a table of 3 in a tournament of 4s: last gets 0
    assert table_points((1, 1, 3), 3) == [3.0, 3.0, 0.0]  # sharing first: (4 + 2) / 2
    assert table_points((1, 2, 2, 4), 4) == [4.0, 1.5, 1.5, 0.0]  # sharing second: (2 + 1) / 2
    assert table_points((1, 2), 3) == [4.0, 0.0]


def test_an_eight_player_swiss_of_four_rounds_by_hand():
    es = field(8)
    played: list[Played] = []
    # Round 1, Dutch: the top half meets the bottom half
    r1 = swiss_round(es, played, 2, 1)
    assert r1.tables == ((1, 5), (2, 6), (3, 7), (4, 8)) and r1.byes == ()
    played += [duel(1, 1, 5, "a"), duel(1, 2, 6, "b"), duel(1, 3, 7, "draw"), duel(1, 4, 8, "a")]
    # 1 point: 1 4 6; half: 3 7; none: 2 5 8. 1-4 in their group; 6 floats down to meet 3, the best of the
    # half-point group; 7 floats down to meet 2; 5-8.
    r2 = swiss_round(es, played, 2, 2)
    assert pairs(r2) == {frozenset(p) for p in ((1, 4), (6, 3), (7, 2), (5, 8))}
    played += [duel(2, 1, 4, "a"), duel(2, 3, 6, "a"), duel(2, 2, 7, "draw"), duel(2, 5, 8, "a")]
    # 2: 1; 1.5: 3; 1: 4 5 6 7; 0.5: 2; 0: 8. 1 floats to 3 (not met); 4-6 (half the group down), 5-7, 2-8
    r3 = swiss_round(es, played, 2, 3)
    assert pairs(r3) == {frozenset(p) for p in ((1, 3), (4, 6), (5, 7), (2, 8))}
    played += [duel(3, 1, 3, "b"), duel(3, 4, 6, "draw"), duel(3, 5, 7, "b"), duel(3, 2, 8, "a")]
    # 2.5: 3; 2: 1 7; 1.5: 2 4 6; 1: 5; 0: 8. 3 has met 1 and 7: meets 2. 1-7. 4-6 met in round 3, so 4-5,
    # 6-8.
    r4 = swiss_round(es, played, 2, 4)
    assert pairs(r4) == {frozenset(p) for p in ((3, 2), (1, 7), (4, 5), (6, 8))}
    played += [duel(4, 3, 2, "a"), duel(4, 1, 7, "a"), duel(4, 4, 5, "draw"), duel(4, 6, 8, "b")]
    table = standings("swiss", es, played, 2)
    # points 3: 3.5, 1: 3, 4 and 7: 2 (Buchholz 7 and 9.5), 2 5 6: 1.5 (Buchholz 8 each; Sonneborn-Berger
    # 2, 2, 2.5), 8: 1
    assert [(s.id, s.place, s.points) for s in table] == [
        (3, 1, 3.5), (1, 2, 3.0), (7, 3, 2.0), (4, 4, 2.0), (6, 5, 1.5), (2, 6, 1.5), (5, 6, 1.5), (8, 8, 1.0)]
    # 7 met 3 (3.5, drawn), 2 (1.5, drawn), 5 (1.5, beaten), 1 (3, lost): Sonneborn-Berger 1.75 + 0.75 + 1.5
    assert {s.id: s.tiebreaks for s in table}[7] == (9.5, 4.0)
    assert {s.id: s.tiebreaks for s in table}[6] == (8.0, 2.5)
    assert {s.id: (s.played, s.wins) for s in table}[3] == (4, 3)


def test_a_bye_goes_to_the_lowest_without_one_and_counts_a_win():
    es = field(5)
    r1 = swiss_round(es, [], 2, 1)
    assert r1.byes == (5,) and pairs(r1) == {frozenset((1, 3)), frozenset((2, 4))}
    played = [duel(1, 1, 3, "a"), duel(1, 2, 4, "a"), Played(1, (5,), (1,), bye=True)]
    r2 = swiss_round(es, played, 2, 2)
    # 1 point: 1 2 5; 0: 3 4. The lowest is 4 (seed), who has had no bye
    assert r2.byes == (4,)
    top = {s.id: s for s in standings("swiss", es, played, 2)}
    assert top[5].points == 1.0 and top[5].byes == 1 and top[5].played == 0 and top[5].tiebreaks == (0.0, 0.0)


def test_dropped_players_are_not_paired_but_keep_their_standing():
    es = field(6)
    played = [by_seed(1, t) for t in swiss_round(es, [], 2, 1).tables]
    es[0] = Entrant(1, 1, dropped_after=1)
    r2 = swiss_round(es, played, 2, 2)
    assert 1 not in {u for t in r2.tables for u in t} and len(r2.byes) == 1
    row = next(s for s in standings("swiss", es, played, 2) if s.id == 1)
    assert row.dropped and row.points == 1.0 and row.place == 1


def test_the_first_seat_goes_to_who_had_it_less():
    es = field(4)
    r1 = swiss_round(es, [], 2, 1)
    assert r1.tables == ((1, 3), (2, 4))
    played = [duel(1, 1, 3, "b"), duel(1, 2, 4, "a")]
    # 1 point: 2 3; none: 1 4. 3 and 4 sat second in round 1: they sit first now
    assert swiss_round(es, played, 2, 2).tables == ((3, 2), (4, 1))
    played += [duel(2, 3, 2, "a"), duel(2, 4, 1, "a")]
    # 3 (2 points) meets 4 (met 3? no), 2 meets 1; everyone has sat first once: the better ranked first
    assert swiss_round(es, played, 2, 3).tables == ((3, 4), (2, 1))


def test_tables_of_three_nine_players():
    es = field(9)
    played: list[Played] = []
    r1 = swiss_round(es, played, 3, 1)
    assert r1.tables == ((1, 2, 3), (4, 5, 6), (7, 8, 9))
    played += [by_seed(1, t) for t in r1.tables]
    # 4 points: 1 4 7; 2: 2 5 8; 0: 3 6 9. Seated by standings, nobody has met
    r2 = swiss_round(es, played, 3, 2)
    assert pairs(r2) == {frozenset((1, 4, 7)), frozenset((2, 5, 8)), frozenset((3, 6, 9))}
    played += [by_seed(2, t) for t in r2.tables]
    # 8: 1; 6: 2 4; 4: 3 5 7; 2: 6 8; 0: 9. Each has met four of the eight: 1 can only sit with two of 5 6 8 9
    # and 5-6, 5-8 have met, so 1 5 9; then 2 (met 1 3 5 8) with 7 6; 4 3 8 are left and have not met.
    r3 = swiss_round(es, played, 3, 3)
    assert pairs(r3) == {frozenset((1, 5, 9)), frozenset((2, 7, 6)), frozenset((4, 3, 8))}
    played += [by_seed(3, t) for t in r3.tables]
    table = standings("swiss", es, played, 3)
    # 1: 4+4+4; 2: 2+4+4; 3: 0+4+4; 4: 4+2+2; 5: 2+2+2; 6: 0+2+2; 7: 4+0+0; 8: 2+0+0; 9: 0
    assert {s.id: s.points for s in table} == {1: 12, 2: 10, 3: 8, 4: 8, 5: 6, 6: 4, 7: 4, 8: 2, 9: 0}
    # 3 and 4: places 3+1+1 and 1+2+2; opponents' points 12+10+4+0+8+2 and 6+4+12+4+8+2: equal, they share
    # third (listed by seed). 1: opponents 10+8+8+4+6+0; 2: 12+8+6+2+4+4 (this field is that balanced)
    assert [(s.id, s.place, s.tiebreaks) for s in table[:4]] == [
        (1, 1, (3.0, 36.0)), (2, 2, (4.0, 36.0)), (3, 3, (5.0, 36.0)), (4, 3, (5.0, 36.0))]


def test_tables_of_three_ten_players_sit_three_three_two_two():
    es = field(10)
    assert table_sizes(10, 3) == [3, 3, 2, 2] and table_sizes(10, 4) == [4, 3, 3] and table_sizes(5, 4) == [3, 2]
    assert table_sizes(9, 4) == [3, 3, 3] and table_sizes(7, 2) == [2, 2, 2, 1]
    r1 = swiss_round(es, [], 3, 1)
    assert r1.tables == ((1, 2, 3), (4, 5, 6), (7, 8), (9, 10)) and r1.byes == ()
    played = [by_seed(1, t) for t in r1.tables]
    # 4: 1 4 7 9; 2: 2 5; 0: 3 6 8 10
    r2 = swiss_round(es, played, 3, 2)
    assert pairs(r2) == {frozenset((1, 4, 7)), frozenset((9, 2, 5)), frozenset((3, 6)), frozenset((8, 10))}
    table = standings("swiss", es, played, 3)
    # sum of places breaks the tie of 4 points: nobody differs yet but seeds list them
    assert [s.id for s in table[:4]] == [1, 4, 7, 9] and table[0].tiebreaks[0] == 1.0


def test_sum_of_places_breaks_equal_points():
    es = field(8)
    # two rounds of tables of 4: 1 wins once and is last once (4 + 0); 2 is second twice (2 + 2)
    played = [Played(1, (1, 3, 5, 7), (1, 2, 3, 4)), Played(1, (2, 4, 6, 8), (2, 1, 3, 4)),
              Played(2, (1, 4, 6, 8), (4, 1, 2, 3)), Played(2, (2, 3, 5, 7), (2, 1, 3, 4))]
    rows = {s.id: s for s in standings("swiss", es, played, 4)}
    assert rows[1].points == rows[2].points == 4.0
    assert rows[2].tiebreaks[0] == 4.0 and rows[1].tiebreaks[0] == 5.0 and rows[2].place < rows[1].place


@pytest.mark.parametrize(("n", "first", "byes"), [
    (5, ((4, 5),), (1, 2, 3)),
    (6, ((4, 5), (3, 6)), (1, 2)),
    (8, ((1, 8), (4, 5), (2, 7), (3, 6)), ()),
])
def test_knockout_duels_with_byes_to_the_top_seeds(n, first, byes):
    es = field(n)
    r1 = knockout_round(es, [], 2, 1)
    assert r1.tables == first and r1.byes == byes
    played = [by_seed(1, t) for t in r1.tables]
    r2 = knockout_round(es, played, 2, 2)
    assert r2.tables == ((1, 4), (2, 3)) and r2.byes == ()
    played += [duel(2, 1, 4, "b"), duel(2, 2, 3, "draw")]  # 4 knocks 1 out; a shared first: 2, the better seed
    r3 = knockout_round(es, played, 2, 3)
    assert r3.tables == ((4, 2),)
    played.append(duel(3, 4, 2, "a"))
    assert knockout_round(es, played, 2, 4) is None and champion(es, played, 2) == 4
    assert knockout_rounds(n, 2) == 3
    rows = standings("knockout", es, played, 2)
    assert [(s.id, s.place) for s in rows[:4]] == [(4, 1), (2, 2), (1, 3), (3, 3)]
    assert rows[0].eliminated_in is None and rows[1].eliminated_in == 3 and rows[2].eliminated_in == 2


def test_knockout_asks_for_the_unfinished_round():
    es = field(4)
    with pytest.raises(ValueError):
        knockout_round(es, [], 2, 2)
    assert knockout_round(es, [], 2, 1) == knockout_round(es, [], 2, 1)


def test_knockout_in_tables_of_three():
    assert bracket_order(9, 3) == [1, 6, 7, 2, 5, 8, 3, 4, 9]
    es = field(9)
    r1 = knockout_round(es, [], 3, 1)
    assert r1.tables == ((1, 6, 7), (2, 5, 8), (3, 4, 9))
    played = [by_seed(1, t) for t in r1.tables]
    assert knockout_round(es, played, 3, 2).tables == ((1, 2, 3),)
    # ten players: one duel of the two lowest seeds, eight byes; then 9 players in three tables
    es = field(10)
    r1 = knockout_round(es, [], 3, 1)
    assert r1.tables == ((9, 10),) and r1.byes == (1, 2, 3, 4, 5, 6, 7, 8)
    played = [duel(1, 9, 10, "b")]
    assert knockout_round(es, played, 3, 2).tables == ((1, 6, 7), (2, 5, 8), (3, 4, 10))
    assert knockout_rounds(10, 3) == 3 and knockout_rounds(9, 3) == 2 and knockout_rounds(3, 3) == 1
    assert knockout_rounds(16, 4) == 2 and knockout_rounds(17, 4) == 3 and knockout_rounds(1, 2) == 0


def test_a_walkover_when_a_knockout_opponent_dropped():
    es = field(4)
    played = [by_seed(1, t) for t in knockout_round(es, [], 2, 1).tables]
    es[1] = Entrant(2, 2, dropped_after=1)  # won round 1, then left
    final = knockout_round(es, played, 2, 2)
    assert final.tables == () and final.byes == (1,)
    assert knockout_round(es, played, 2, 3) is None and champion(es, played, 2) == 1
    rows = {s.id: s for s in standings("knockout", es, played, 2)}
    assert rows[1].place == 1 and rows[2].eliminated_in == 2 and rows[2].dropped


def test_fewest():
    assert fewest("swiss", 2) == 4 and fewest("swiss", 4) == 8 and fewest("knockout", 2) == 3
    with pytest.raises(ValueError):
        fewest("league", 2)
    with pytest.raises(ValueError):
        swiss_round(field(4), [], 5, 1)


def test_the_bracket_for_the_image():
    es = field(5)
    plan = bracket(es, [], 2)
    assert plan == [[Match((1,), 1, True), Match((4, 5)), Match((2,), 2, True), Match((3,), 3, True)],
                    [Match((1, None)), Match((2, 3))], [Match((None, None))]]
    played = [duel(1, 4, 5, "b"), duel(2, 1, 5, "a")]
    plan = bracket(es, played, 2)
    assert plan[1] == [Match((1, 5), 1), Match((2, 3))] and plan[2] == [Match((1, None))]
    played += [duel(2, 2, 3, "b"), duel(3, 1, 3, "a")]
    assert bracket(es, played, 2)[2] == [Match((1, 3), 1)] and len(bracket(es, played, 2)) == 3


def test_a_swiss_survives_an_entrant_whose_data_was_deleted():
    """Their finished games stay (as "Former player"): their opponents keep the Buchholz they gave."""
    es = field(4)
    played = [duel(1, 1, 3, "a"), duel(1, 2, 4, "a"), duel(2, 1, 2, "a"), duel(2, 3, 4, "b")]
    before = {s.id: s.tiebreaks for s in standings("swiss", es, played, 2)}
    rest = [e for e in es if e.id != 2]
    after = {s.id: s.tiebreaks for s in standings("swiss", rest, played, 2)}
    assert set(after) == {1, 3, 4} and after[1] == before[1]
    got = swiss_round(rest, played, 2, 3)
    assert len(got.tables) == 1 and len(got.byes) == 1
