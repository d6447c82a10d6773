"""A rematch's seating (bot/table/seating.py, pure): the same seats in the same order (so GEONEO's teams stay), the
asker seated, the other persons' seats kept, computers anew at the same strengths; where a newcomer sits."""

from bot.computers import handed_over, new_computer
from bot.table.seating import free_seat, game_people, rematch_seats, sitting
from games import get_engine

ANA, BO, CY, DEE = ({"id": i, "name": n} for i, n in ((1, "Ana"), (2, "Bo"), (3, "Cy"), (4, "Dee")))


def test_the_same_seats_in_the_same_order_keep_geoneos_teams():
    players = [ANA, BO, CY, DEE]
    seats = rematch_seats(players, {"id": 3, "name": "Cy (new nick)"})
    assert seats == [dict(ANA, invited=True), dict(BO, invited=True), {"id": 3, "name": "Cy (new nick)"},
                     dict(DEE, invited=True)]
    teams = get_engine("geoneo").teams(4)
    assert [[seats[s]["id"] for s in team] for team in teams] == [[p["id"] for p in (players[a], players[b])]
                                                                  for a, b in teams]


def test_computers_come_back_at_their_strength_and_a_taken_over_seat_is_its_persons_again():
    strong = new_computer("strong", [ANA])
    players = [ANA, strong, handed_over(BO, "normal", [ANA, strong])]
    seats = rematch_seats(players, ANA)
    assert seats[0] == ANA and seats[2] == dict(BO, invited=True)
    assert seats[1]["computer"] == "strong" and seats[1]["id"] < 0 and "was" not in seats[1]
    assert game_people(players) == {1: "Ana", 2: "Bo"}  # Bo played it too: he may ask for the rematch
    assert sitting(seats) == seats[:2]


def test_a_newcomer_takes_a_free_seat_then_the_last_kept_one():
    kept = [ANA, dict(BO, invited=True), dict(CY, invited=True)]
    assert free_seat(kept, 4) == 3
    assert free_seat(kept, 3) == 2
    assert free_seat([ANA, BO], 2) is None
