"""Geodeto against ../shared/rules/geodeto.txt, the decisions and docs/rules/geodeto.md."""

import json
import random
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.core import SYSTEM, RulesError
from games.geodeto.rules import (
    COLOURS,
    CONTINENTS,
    OCEAN,
    STALL_ROUNDS,
    Geodeto,
    continents_of,
    deck,
    group_points,
    met_on,
    sheet_lines,
    trio_of,
    triples,
)

E = Geodeto()
EU, AS, AM, OC, AN, AF = range(6)
INITIALS = {"B": "blue", "Y": "yellow", "R": "red", "G": "green", "W": "white", "K": "black"}
ALL_CARDS = sorted(deck())
INITIAL_CODES = [size + colour for colour in INITIALS for size in "sml"]


def P(code):
    """'sR' -> small red, 'mB' medium blue, 'lK' large black."""
    return COLOURS.index(INITIALS[code[1]]) * 3 + "sml".index(code[0])


def game(players=2, seed=0, **options):
    return E.new(players, options, seed)


def arrange(s, **places):
    """Sets the towers (lists of pyramid codes, bottom first) of the named places (continent keys, "ocean");
    every other continent is emptied and every pyramid not named goes to the Ocean as a single."""
    towers = [[] for _ in range(7)]
    for name, ts in places.items():
        towers[OCEAN if name == "ocean" else CONTINENTS.index(name)] = [[P(c) for c in t] for t in ts]
    used = {p for place in towers for t in place for p in t} | set(s["pirates"]["pyramids"])
    towers[OCEAN] += [[p] for p in range(18) if p not in used]
    s["towers"] = towers
    found = triples(towers)
    for pile in s["piles"]:  # no public goal is met by accident: such a card goes under its pile
        for _ in range(len(pile)):
            if met_on(pile[-1], found) is None:
                break
            pile.insert(0, pile.pop())
    return s


def take_card(s, card):
    """Removes a card from wherever it is (a hand or a pile)."""
    for h in s["hands"]:
        if card in h:
            h.remove(card)
            return
    for pile in s["piles"]:
        if card in pile:
            pile.remove(card)
            return
    raise AssertionError(card)


def give(s, seat, *cards):
    for card in cards:
        take_card(s, card)
        s["hands"][seat].append(card)
    return s


def set_hand(s, seat, *cards):
    """The seat's hand becomes ``cards``: its old cards go under their piles, the new ones come from wherever
    they are, so every card stays in exactly one place."""
    for card in s["hands"][seat]:
        s["piles"][continents_of(card)[0]].insert(0, card)
    s["hands"][seat] = []
    return give(s, seat, *cards)


def make_public(s, card, pile=None):
    take_card(s, card)
    s["piles"][continents_of(card)[0] if pile is None else pile].append(card)
    return s


def turn(s, seat):
    s["current"] = seat
    s["phase"] = "turn"
    s["step"] = None
    return s


def keys(s, seat=None):
    seat = s["current"] if seat is None else seat
    return [a.key for a in E.legal_actions(s, seat)]


def act(s, *ks, seat=None):
    texts = []
    for k in ks:
        who = s["current"] if seat is None else seat
        s, events = E.apply(s, who, k)
        texts += [e.text for e in events]
    return s, texts


def move(s, pyramid, dest, seat=None):
    """Picks a pyramid (code) and puts it on the table of a place ("ocean" or a continent key) or on top of
    the tower whose top is another pyramid (a code)."""
    if dest == "ocean":
        key = f"t{OCEAN}"
    elif dest in CONTINENTS:
        key = f"t{CONTINENTS.index(dest)}"
    else:
        key = f"o{P(dest)}"
    return act(s, f"m{P(pyramid)}", key, seat=seat)


def destinations(s, pyramid):
    s, _ = act(s, f"m{P(pyramid)}")
    return [k for k in keys(s) if k != "back"]


def where(s, code):
    p = P(code)
    for place, towers in enumerate(s["towers"]):
        for t in towers:
            if p in t:
                return place, t
    return None, None


# --- the deck (data/deck.json) -------------------------------------------------------------------------------
def test_the_copied_deck_file_is_valid():
    data = json.loads((resources.files("games.geodeto") / "data" / "deck.json").read_text(encoding="utf-8"))
    cards = data["cards"]
    assert len(cards) == 47
    assert len({c["id"] for c in cards}) == 47
    kinds = [c["kind"] for c in cards]
    assert set(kinds) == {"state", "sight"} and kinds.count("state") >= 6 and kinds.count("sight") >= 6
    trios = set()
    for c in cards:
        assert c["name"] and c["tweet"] and len(c["tweet"]) <= 140, c["id"]
        assert 1 <= len(c["continents"]) <= 2 and set(c["continents"]) <= set(CONTINENTS), c["id"]
        if c["kind"] == "state":
            assert c["capital"] and "group" not in c
        else:
            assert c["location"] and c["group"] in ("famous", "ancient", "nature", "research")
        trio = c["trio"]
        assert len(trio) == 3
        for t in trio:
            assert t["colour"] in COLOURS and t["size"] in ("small", "medium", "large")
        ids = [P(t["size"][0] + next(k for k, v in INITIALS.items() if v == t["colour"])) for t in trio]
        assert len(set(ids)) == 3, c["id"]  # three different pyramids
        sizes = ["sml".index(t["size"][0]) for t in trio]
        assert sizes == sorted(sizes), c["id"]  # listed top first: never a larger pyramid above a smaller
        trios.add(tuple(ids))
    assert len(trios) == 47  # every trio unique
    by_id = {c["id"]: c for c in cards}
    named = ["tanzania", "usa", "turkey", "italy", "czech-republic", "china", "canada", "brazil", "new-zealand",
             "india", "great-britain", "great-wall-of-china", "mt-everest", "stonehenge", "eiffel-tower",
             "mcmurdo-station", "victoria-falls", "mariana-trench"]
    assert all(n in by_id for n in named)
    assert by_id["tanzania"]["capital"] == "Dodoma"
    assert by_id["usa"]["continents"] == ["america", "oceania"]
    assert by_id["turkey"]["continents"] == ["europe", "asia"]
    assert all(any(by_id[c].get("group") == g for c in by_id) for g in ("famous", "ancient", "nature", "research"))
    shared = Path(__file__).resolve().parents[3] / "shared" / "data" / "geodeto" / "deck.json"
    assert shared.exists(), (f"the shared deck {shared} is missing: the copy in games/geodeto/data cannot be "
                             "compared with it (run the tests in a checkout next to ../shared)")
    assert json.loads(shared.read_text(encoding="utf-8")) == data


def test_trio_is_read_bottom_to_top():
    # Italy: small green on medium white on large red
    assert trio_of("italy") == (P("lR"), P("mW"), P("sG"))


# --- setup ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", range(2, 7))
def test_setup_deals_a_state_and_a_sight_and_builds_six_piles(players):
    s = game(players, seed=players)
    for hand in s["hands"]:
        assert sorted(deck()[c]["kind"] for c in hand) == ["sight", "state"]
    for c, pile in enumerate(s["piles"]):
        assert pile and all(CONTINENTS[c] in deck()[card]["continents"] for card in pile)
    assert sorted(sum(s["hands"], []) + sum(s["piles"], [])) == ALL_CARDS
    # each continent holds its own three pyramids, each standing directly on the card; the Ocean is empty
    assert s["towers"] == [[[3 * c], [3 * c + 1], [3 * c + 2]] for c in range(6)] + [[]]
    assert s["countdown"] == s["goal"] == (10 if players <= 3 else 12)


def test_goal_count_option_and_first_player_random():
    assert game(3, goals=16)["goal"] == 16 and game(5, goals=4)["countdown"] == 4
    with pytest.raises(RulesError):
        game(2, goals=17)
    with pytest.raises(RulesError):
        E.new(7, {}, 1)
    assert len({game(4, seed=seed)["current"] for seed in range(30)}) == 4
    assert game(2)["extras"] == {} and set(game(2, extras=True)["extras"]) == {
        "columbus", "tasman", "da-gama", "drake", "inventors", "team-sports", "expeditions"}


# --- moves: the restrictions, each on its own -----------------------------------------------------------------
def test_a_continent_reaches_its_two_ring_neighbours_and_the_ocean_only():
    s = turn(game(2), 0)
    arrange(s, africa=[["lK"]], america=[["lR"]], asia=[["lY"]], oceania=[["lG"]])
    d = destinations(s, "lK")
    assert [k for k in d if k[0] == "t"] == [f"t{AN}", f"t{EU}", f"t{OCEAN}"]  # not America, Asia, Oceania
    assert all(where(s, {P(c): c for c in INITIAL_CODES}[int(k[1:])])[0] == OCEAN for k in d if k[0] == "o")


def test_from_the_ocean_any_continent():
    s = turn(game(2), 0)
    arrange(s, ocean=[["lK"]])
    assert destinations(s, "lK") == [f"t{c}" for c in range(6)]  # all continents are empty


def test_the_four_routes_from_africa_to_america():
    routes = [
        ["ocean", "america"],
        ["europe", "asia", "america"],
        ["antarctica", "oceania", "america"],
        ["europe", "ocean", "america"],
    ]
    for route in routes:
        s = turn(game(3, seed=2), 0)
        arrange(s, africa=[["sK"]], europe=[], asia=[], america=[], oceania=[], antarctica=[])
        assert f"t{AM}" not in destinations(s, "sK")  # never directly
        for i, stop in enumerate(route):
            s = turn(s, i % 3)
            s, _ = move(s, "sK", stop)
        assert where(s, "sK")[0] == AM


def test_no_nesting_a_larger_pyramid_never_covers_a_smaller_and_equal_sizes_stack():
    s = turn(game(3), 0)
    arrange(s, europe=[["lB"]], asia=[["sY"], ["mY"], ["lY"]])
    d = destinations(s, "lB")
    assert f"o{P('lY')}" in d  # equal size
    assert f"o{P('sY')}" not in d and f"o{P('mY')}" not in d
    s = turn(game(3), 0)
    arrange(s, europe=[["sB"]], asia=[["sY"], ["mY"], ["lY"]])
    assert {f"o{P(c)}" for c in ("sY", "mY", "lY")} <= set(destinations(s, "sB"))
    with pytest.raises(RulesError):
        s = turn(game(3), 0)
        arrange(s, europe=[["lB"]], asia=[["sY"]])
        act(s, f"m{P('lB')}", f"o{P('sY')}")


def test_only_the_picked_pyramid_is_compared_with_the_destination_top():
    s = turn(game(3), 0)
    arrange(s, europe=[["lB", "mB", "sB"]], asia=[["mY"]])
    # the medium blue with the small blue riding may go onto the medium yellow
    assert f"o{P('mY')}" in destinations(s, "mB")
    s, _ = move(s, "mB", "mY")
    assert where(s, "sB")[1] == [P("mY"), P("mB"), P("sB")]
    assert where(s, "lB")[1] == [P("lB")]


def test_at_most_three_towers_directly_on_a_continent_but_stacking_is_always_allowed():
    s = turn(game(3), 0)
    arrange(s, europe=[["mB"]], asia=[["lY"], ["lR"], ["lW"]])
    d = destinations(s, "mB")
    assert f"t{AS}" not in d  # a fourth tower may not stand directly on Asia
    assert {f"o{P(c)}" for c in ("lY", "lR", "lW")} <= set(d)
    s, _ = move(s, "mB", "lR")
    assert len(s["towers"][AS]) == 3
    s = turn(game(3), 0)
    arrange(s, europe=[["mB"]], asia=[["lY"], ["lR"]])
    assert f"t{AS}" in destinations(s, "mB")


def test_the_ocean_has_no_limit():
    s = turn(game(3), 0)
    arrange(s, europe=[["sB"]])  # the other 17 pyramids float in the Ocean as singles
    assert len(s["towers"][OCEAN]) == 17
    assert f"t{OCEAN}" in destinations(s, "sB")


def test_ships_move_only_whole():
    s = turn(game(3), 0)
    arrange(s, ocean=[["lK", "mK", "sK"]], europe=[], asia=[["lY"]])
    picks = keys(s)
    assert f"m{P('lK')}" in picks
    assert f"m{P('mK')}" not in picks and f"m{P('sK')}" not in picks  # don't destroy the ship
    with pytest.raises(RulesError):
        act(s, f"m{P('mK')}")
    s, _ = move(s, "lK", "europe")
    assert s["towers"][EU] == [[P("lK"), P("mK"), P("sK")]]


def test_a_pyramid_may_be_placed_on_top_of_a_ship():
    s = turn(game(3), 0)
    arrange(s, ocean=[["lK", "mK"]], europe=[["sB"]])
    s, _ = move(s, "sB", "mK")
    assert where(s, "sB")[1] == [P("lK"), P("mK"), P("sB")]


def test_a_move_always_changes_place():
    s = turn(game(3), 0)
    arrange(s, europe=[["lB"], ["mB"]], ocean=[["lK"], ["lR"]])
    assert all(not k.startswith(("t0",)) and k not in (f"o{P('mB')}", f"o{P('lB')}")
               for k in destinations(s, "lB"))
    s = turn(s, 0)
    assert f"t{OCEAN}" not in destinations(s, "lK") and f"o{P('lR')}" not in destinations(s, "lK")


def test_a_closed_continent_takes_nothing_and_gives_nothing():
    s = turn(game(3), 0)
    s, text = act(s, "a", f"e{AS}")  # Asia's pyramids sail to the Ocean
    assert s["towers"][AS] == [] and "closed" in text[0]
    assert {P("sY"), P("mY"), P("lY")} <= {t[0] for t in s["towers"][OCEAN]}
    assert all(len(t) == 1 for t in s["towers"][OCEAN])
    s = turn(s, 1)
    for k in keys(s):
        if k.startswith("m"):
            s2, _ = act(s, k)
            assert all(d["place"] != AS for d in E.view(s2, None)["step"]["destinations"])
            assert f"t{AS}" not in keys(s2)
    assert E.view(s, None)["continents"][AS]["closed"]


def test_two_players_the_pyramid_the_opponent_just_picked_cannot_be_picked_but_may_ride():
    s = turn(game(2), 0)
    arrange(s, europe=[["lB"]], asia=[["lY"]], africa=[["mK"]])
    s, _ = move(s, "mK", "lB")  # seat 0 picks the medium black
    assert s["current"] == 1
    assert f"m{P('mK')}" not in keys(s)
    with pytest.raises(RulesError):
        act(s, f"m{P('mK')}")
    # it may still ride on the large blue
    assert f"m{P('lB')}" in keys(s)
    s, _ = move(s, "lB", "ocean")
    assert where(s, "mK")[1] == [P("lB"), P("mK")]
    assert f"m{P('lB')}" not in keys(s)  # now seat 0 may not pick the large blue, seat 1's pick


def test_two_players_no_restriction_after_a_turn_that_was_not_a_move():
    s = turn(game(2), 0)
    arrange(s, europe=[["lB"]], africa=[["mK"]])
    s, _ = move(s, "mK", "lB")
    s, _ = act(s, "d", "d0")  # seat 1 draws
    s, _ = act(s, "d", "d1")  # seat 0 draws
    assert f"m{P('mK')}" in keys(s)


def test_three_players_may_take_back():
    s = turn(game(3), 0)
    arrange(s, europe=[["lB"]], africa=[["mK"]])
    s, _ = move(s, "mK", "lB")
    assert f"m{P('mK')}" in keys(s)


def test_a_step_can_be_taken_back_before_it_is_committed():
    s = turn(game(3), 0)
    before = json.loads(E.encode(s))
    s, _ = act(s, f"m{P('sB')}")
    assert "back" in keys(s) and s["step"] == {"kind": "move", "pyramid": P("sB")}
    s, text = act(s, "back")
    assert text == [] and s["current"] == 0 and s["step"] is None
    after = json.loads(E.encode(s))
    before.pop("ply"), after.pop("ply")
    assert before == after
    for first in ("d", "a"):
        s2, _ = act(s, first)
        s2, _ = act(s2, "back")
        assert s2["step"] is None and s2["current"] == 0


def test_every_step_offers_at_most_twenty_five_and_the_first_at_most_twenty():
    s = turn(game(6), 0)
    s["pirates"] = {"holder": None, "pyramids": []}
    arrange(s, ocean=[[c] for c in ("sB", "mB", "lB", "sY", "mY", "lY", "sR", "mR", "lR", "sG", "mG", "lG", "sW",
                                    "mW", "lW", "sK", "mK", "lK")])
    assert len(keys(s)) == 20  # 18 pyramids, draw, action card
    s2, _ = act(s, "a")
    assert len(keys(s2)) == 6 + 18 + 1  # Epidemic on six continents, Pirates on 18 towers, back


def test_labels_name_pyramids_and_places():
    s = turn(game(3), 0)
    arrange(s, europe=[["lB", "sB"]], ocean=[["lK", "mK"]], asia=[["lY"]])
    acts = E.legal_actions(s, 0)
    labels = {a.key: a.label for a in acts}
    groups = {a.key: a.group for a in acts}
    assert labels[f"m{P('lB')}"] == "Move large blue (carries 1)" and groups[f"m{P('lB')}"] == "Europe"
    assert labels[f"m{P('sB')}"] == "Move small blue" and groups[f"m{P('sB')}"] == "Europe"
    assert labels[f"m{P('lK')}"] == "Move the large black ship of 2" and groups[f"m{P('lK')}"] == "The Ocean"
    assert groups["d"] == "Draw" and groups["a"] == "Action cards"  # one action each: one click
    assert E.grouped(s, 0)  # the first step is offered place by place
    s, _ = act(s, f"m{P('sB')}")
    assert not E.grouped(s, 0)
    labels = {a.key: a.label for a in E.legal_actions(s, 0)}
    assert labels[f"o{P('lY')}"] == "Asia: on large yellow"
    assert labels[f"t{OCEAN}"] == "The Ocean: on the water"
    assert labels[f"o{P('mK')}"] == "The Ocean: on medium black (ship of 2)"  # an Ocean stack is a ship
    assert labels["back"] == "Choose another move"
    s, text = act(s, f"o{P('lY')}")
    assert any("moves small blue from Europe to Asia, onto large yellow." in t for t in text)


def test_the_first_step_groups_pyramids_by_place():
    s = turn(game(3), 0)
    arrange(s, europe=[["lB", "sB"]], asia=[["lY"], ["mY"]], ocean=[["lK", "mK"]])
    by_group: dict[str, list[str]] = {}
    for a in E.legal_actions(s, 0):
        by_group.setdefault(a.group, []).append(a.key)
    assert list(by_group)[:3] == ["Europe", "Asia", "The Ocean"]  # places in board order, then the cards
    assert by_group["Europe"] == [f"m{P('lB')}", f"m{P('sB')}"] and by_group["Draw"] == ["d"]
    assert len(by_group) <= 9  # at most six continents, the Ocean, Draw and Action cards
    assert E.focus(s, 0, "Europe") == {"place": EU, "pyramid": None}
    assert E.focus(s, 0, "The Ocean") == {"place": OCEAN, "pyramid": None}


# --- goals -----------------------------------------------------------------------------------------------------
ITALY = ["lR", "mW", "sG"]  # bottom to top, on Europe


def italy_game(**towers):
    s = turn(game(3, seed=1), 0)
    set_hand(s, 0, "italy")
    arrange(s, **towers)
    return s


def test_a_goal_with_other_pyramids_above_and_below_still_counts():
    s = italy_game(europe=[["lB", "lR", "mW", "sG", "sB"]], asia=[["sY"]])
    s, text = move(s, "sY", "ocean")
    assert s["fulfilled"][0] == [{"card": "italy", "continent": EU}]
    assert any("fulfils Italy on Europe" in t and deck()["italy"]["tweet"] in t for t in text)


def test_a_goal_with_a_foreign_pyramid_between_its_pieces_does_not_count():
    s = italy_game(europe=[["lR", "mW", "mB", "sG"]], asia=[["sY"]])
    s, _ = move(s, "sY", "ocean")
    assert s["fulfilled"][0] == []


def test_a_goal_in_the_wrong_order_does_not_count():
    s = italy_game(europe=[["lR", "mW"], ["sG"]], asia=[["sY"]])
    s, _ = move(s, "sG", "ocean")
    s = turn(s, 0)
    s, _ = move(s, "mW", "ocean")  # medium white with nothing on it
    assert s["fulfilled"][0] == []


def test_a_goal_on_the_wrong_continent_does_not_count():
    s = italy_game(asia=[["lR", "mW", "sG"]], africa=[["sK"]])
    s, _ = move(s, "sK", "ocean")
    assert s["fulfilled"][0] == []
    s = italy_game(ocean=[["lR", "mW", "sG"]], africa=[["sK"]])  # nor in the Ocean
    s, _ = move(s, "sK", "europe")
    assert s["fulfilled"][0] == []


def test_the_move_that_completes_a_goal_claims_it():
    s = italy_game(europe=[["lR", "mW"]], asia=[["sG"]])
    s, _ = move(s, "sG", "mW")
    assert s["fulfilled"][0] == [{"card": "italy", "continent": EU}]
    assert s["countdown"] == s["goal"] - 1


@pytest.mark.parametrize("continent", ["europe", "asia"])
def test_a_two_continent_goal_counts_on_either_continent(continent):
    s = turn(game(3, seed=1), 0)
    set_hand(s, 0, "turkey")  # small white on medium red on large red; Europe or Asia
    arrange(s, **{continent: [["lR", "mR"]]}, africa=[["sW"]])
    s, _ = move(s, "sW", "ocean")  # not yet
    assert s["fulfilled"][0] == []
    s = turn(s, 0)
    s, _ = move(s, "sW", "mR")
    assert s["fulfilled"][0] == [{"card": "turkey", "continent": CONTINENTS.index(continent)}]


def test_public_goals_are_claimed_by_the_active_player_and_the_next_card_shows():
    s = turn(game(3, seed=1), 1)
    set_hand(s, 1)
    take_card(s, "great-britain")
    take_card(s, "italy")
    s["piles"][EU] += ["great-britain", "italy"]  # Italy on top, then Great Britain
    arrange(s, europe=[["lR", "mW"]], asia=[["sG"]])
    s, _ = move(s, "sG", "mW")
    assert [f["card"] for f in s["fulfilled"][1]] == ["italy"]
    assert s["piles"][EU][-1] == "great-britain"
    v = E.view(s, None)
    assert v["public_goals"][EU]["card"]["id"] == "great-britain"
    assert v["last_claims"][0]["card"]["id"] == "italy" and v["last_claims"][0]["public"]


def test_a_revealed_public_goal_that_is_met_is_claimed_too():
    # Italy on top of the Europe pile, the Eiffel Tower under it, already standing on Europe
    s = turn(game(3, seed=1), 0)
    set_hand(s, 0)
    for card in ("eiffel-tower", "italy"):
        take_card(s, card)
        s["piles"][EU].append(card)
    arrange(s, europe=[["lK", "mK", "sY"], ["lR", "mW"]], asia=[["sG"]])
    assert s["piles"][EU][-1] == "italy"
    before = s["countdown"]
    s, _ = move(s, "sG", "mW")
    assert [f["card"] for f in s["fulfilled"][0]] == ["italy", "eiffel-tower"]
    assert s["countdown"] == before - 2
    assert s["phase"] == "bonus" and s["bonus"] == 2  # one draw per goal
    s, _ = act(s, keys(s)[0])
    assert s["phase"] == "bonus" and s["bonus"] == 1 and s["current"] == 0
    s, _ = act(s, "skip")
    assert s["phase"] == "turn" and s["current"] == 1


def test_goals_met_together_are_all_claimed_even_past_the_countdown():
    s = turn(game(3, seed=1), 0)
    set_hand(s, 0, "italy", "japan")  # Japan (small red on medium red on large white, Asia) stands already
    arrange(s, europe=[["lR", "mW"]], asia=[["lW", "mR", "sR"], ["sG"]])
    s["countdown"] = 1
    s, _ = move(s, "sG", "mW")
    assert sorted(f["card"] for f in s["fulfilled"][0]) == ["italy", "japan"]
    assert s["countdown"] == 0 and s["phase"] == "over" and s["last_claimer"] == 0


def test_a_goal_met_on_another_players_turn_is_claimed_after_its_owners_next_action():
    s = turn(game(3, seed=1), 1)
    set_hand(s, 0, "italy")
    set_hand(s, 1)
    arrange(s, europe=[["lR", "mW"]], asia=[["sG"]], africa=[["sK"]])
    s, _ = move(s, "sG", "mW", seat=1)  # seat 1 forms seat 0's goal
    assert s["fulfilled"] == [[], [], []]
    s = turn(s, 0)
    assert E.view(s, 0)["hand"][0]["met"] is True
    s, _ = move(s, "sK", "ocean")  # any action
    assert [f["card"] for f in s["fulfilled"][0]] == ["italy"]


def test_after_a_claim_ships_break_pirates_release_and_a_bonus_draw_is_offered():
    s = italy_game(europe=[["lR", "mW"]], asia=[["sG"]], ocean=[["lK", "mK", "sK"], ["lB", "mB"]])
    s["pirates"] = {"holder": 0, "pyramids": [P("sY"), P("mY")]}
    arrange(s, europe=[["lR", "mW"]], asia=[["sG"]], ocean=[["lK", "mK", "sK"], ["lB", "mB"]])
    s["piles"][AF].append(s["piles"][EU].pop())  # a card to draw on the Africa pile
    before = s["countdown"]
    s, text = move(s, "sG", "mW")
    assert s["countdown"] == before - 1
    assert all(len(t) == 1 for t in s["towers"][OCEAN])
    assert {P("sY"), P("mY")} <= {t[0] for t in s["towers"][OCEAN]}
    assert s["pirates"] == {"holder": None, "pyramids": []}
    assert any("breaks" in t for t in text) and any("release 2 pyramids" in t for t in text)
    assert s["phase"] == "bonus" and s["current"] == 0
    offered = keys(s)
    assert offered[-1] == "skip" and all(k.startswith("d") for k in offered[:-1])
    hand = len(s["hands"][0])
    s, _ = act(s, offered[0])
    assert len(s["hands"][0]) == hand + 1 and s["current"] == 1 and s["phase"] == "turn"


def test_the_bonus_draw_is_optional():
    s = italy_game(europe=[["lR", "mW"]], asia=[["sG"]])
    s, _ = move(s, "sG", "mW")
    hand = list(s["hands"][0])
    s, text = act(s, "skip")
    assert s["hands"][0] == hand and s["current"] == 1 and "no bonus card" in text[0]


def test_the_game_ends_when_the_set_number_of_goals_is_fulfilled():
    s = italy_game(europe=[["lR", "mW"]], asia=[["sG"]])
    s["countdown"] = 1
    s, text = move(s, "sG", "mW")
    assert s["phase"] == "over" and not E.to_act(s)
    assert "fulfilled the last goal" in " ".join(text)
    result = E.result(s)
    sheet = result.detail["score_sheet"]
    assert sheet["players"][0]["last"] == 1 and sheet["players"][0]["fulfilled"] == 2
    with pytest.raises(RulesError):
        E.apply(s, 1, "d")


# --- action cards --------------------------------------------------------------------------------------------
def test_epidemic_is_played_taken_and_then_only_its_holder_plays_it():
    s = turn(game(3), 0)
    arrange(s, europe=[["lB", "mB"], ["sB"]], asia=[["lY"]], ocean=[["lK"]])
    s, _ = act(s, "a", f"e{EU}")
    assert s["epidemic"] == {"continent": EU, "holder": None}
    assert s["towers"][EU] == [] and {P("lB"), P("mB"), P("sB")} <= {t[0] for t in s["towers"][OCEAN]}
    assert all(len(t) == 1 for t in s["towers"][OCEAN])  # one by one, as single pyramids
    # seat 1 takes it: Europe reopens
    s2, _ = act(s, "a")
    assert "h" in keys(s2) and not any(k.startswith("e") for k in keys(s2))
    s, _ = act(s, "a", "h")
    assert s["epidemic"] == {"continent": None, "holder": 1}
    # now only seat 1 may play it
    s2, _ = act(s, "a") if "a" in keys(s) else (s, [])
    assert not any(k.startswith("e") or k == "h" for k in keys(s2))
    s = turn(s, 1)
    s, _ = act(s, "a", f"e{AS}")
    assert s["epidemic"] == {"continent": AS, "holder": None} and s["towers"][AS] == []


def test_pirates_capture_an_ocean_tower_and_only_the_holder_returns_its_pyramids():
    s = turn(game(3), 0)
    arrange(s, ocean=[["lK", "mK", "sK"], ["lB"]], europe=[["sB"]])
    s, text = act(s, "a", f"p{P('lK')}")
    assert s["pirates"] == {"holder": 0, "pyramids": [P("lK"), P("mK"), P("sK")]}
    assert "capture the large black ship of 3" in text[0]
    assert [t for t in s["towers"][OCEAN] if P("lK") in t] == []
    # seat 1 may not use the card (nor the pyramids)
    s2, _ = act(s, "a")
    assert not any(k[0] in "pr" for k in keys(s2))
    # the holder returns one per action, as singles, and keeps the card even when empty
    for q in ("sK", "mK", "lK"):
        s = turn(s, 0)
        s, _ = act(s, "a", f"r{P(q)}")
        assert [P(q)] in s["towers"][OCEAN]
    assert s["pirates"] == {"holder": 0, "pyramids": []}
    s2, _ = act(turn(s, 1), "a")
    assert not any(k[0] in "pr" for k in keys(s2))


def test_the_pirates_holder_captures_no_second_tower_until_the_card_is_back():
    s = turn(game(3), 0)
    arrange(s, ocean=[["lK", "mK", "sK"], ["lB"], ["mG"]], europe=[["sB"]])
    s, _ = act(s, "a", f"p{P('lK')}")
    s2, _ = act(turn(s, 0), "a")  # the card lies near its holder, not by the board: no capture, only returns
    assert [k for k in keys(s2) if k[0] == "p"] == [] and any(k[0] == "r" for k in keys(s2))


def test_pirates_may_take_a_single_pyramid():
    s = turn(game(3), 0)
    arrange(s, ocean=[["mG"]], europe=[["sB"]])
    s, _ = act(s, "a", f"p{P('mG')}")
    assert s["pirates"]["pyramids"] == [P("mG")]


# --- extra cards ---------------------------------------------------------------------------------------------
def claim(s, seat, card, continent):
    """Records a goal as fulfilled earlier (the countdown is not touched)."""
    take_card(s, card)
    s["fulfilled"][seat].append({"card": card, "continent": continent})


def test_extra_cards_go_to_whoever_first_qualifies():
    s = turn(game(3, seed=1, extras=True), 0)
    set_hand(s, 0, "italy")
    claim(s, 0, "usa", AM)  # Inventors already? Only checked on a claim
    claim(s, 1, "canada", AM)
    arrange(s, europe=[["lR", "mW"]], asia=[["sG"]])
    s, text = move(s, "sG", "mW")
    assert s["extras"]["columbus"] == 0 and s["extras"]["inventors"] == 0
    assert s["extras"]["team-sports"] is None  # seat 1 qualified but has not claimed since
    assert any("Columbus" in t for t in text)


def test_expeditions_and_da_gama_and_tasman():
    s = turn(game(3, seed=1, extras=True), 0)
    set_hand(s, 0, "mt-everest")  # small white on medium black on large yellow, Asia
    claim(s, 0, "tanzania", AF)
    claim(s, 0, "mcmurdo-station", AN)
    claim(s, 0, "fiji", OC)
    arrange(s, asia=[["lY", "mK"]], europe=[["sW"]])
    s, _ = move(s, "sW", "mK")
    assert s["extras"]["expeditions"] == 0 and s["extras"]["da-gama"] == 0 and s["extras"]["tasman"] == 0


def test_drake_needs_four_continents_and_more_than_anyone_and_passes_to_whoever_overtakes():
    s = turn(game(3, seed=1, extras=True), 0)
    for c, card in zip((AF, AN, OC), ("tanzania", "mcmurdo-station", "fiji"), strict=True):
        claim(s, 0, card, c)
    for c, card in zip((AF, AN, OC, AM), ("kenya", "vostok-station", "australia", "canada"), strict=True):
        claim(s, 1, card, c)
    s["extras"]["drake"] = 1
    set_hand(s, 0, "italy")
    arrange(s, europe=[["lR", "mW"]], asia=[["sG"]])
    s, _ = move(s, "sG", "mW")  # seat 0 now has 4 continents, as many as seat 1: a tie does not overtake
    assert s["extras"]["drake"] == 1
    set_hand(s, 0, "mt-everest")
    s = turn(s, 0)
    arrange(s, asia=[["lY", "mK"]], europe=[["sW"]])
    s, text = move(s, "sW", "mK")  # 5 continents: overtakes
    assert s["extras"]["drake"] == 0
    assert any("takes Sir Francis Drake from {p1}" in t for t in text)


def test_drake_is_not_taken_with_three_continents():
    s = turn(game(2, seed=1, extras=True), 0)
    claim(s, 0, "tanzania", AF)
    claim(s, 0, "fiji", OC)
    set_hand(s, 0, "italy")
    arrange(s, europe=[["lR", "mW"]], asia=[["sG"]])
    s, _ = move(s, "sG", "mW")
    assert s["extras"]["drake"] is None


# --- scoring -----------------------------------------------------------------------------------------------
def test_the_group_scoring_example_of_the_rule_text():
    a = {"famous": 1, "ancient": 2, "nature": 1}
    b = {"famous": 1, "ancient": 0, "nature": 2}
    c = {"famous": 0, "ancient": 1, "nature": 1}
    points = group_points([a, b, c])
    assert [sum(p.values()) for p in points] == [7, 6, 2]
    assert points[0] == {"famous": 3, "ancient": 3, "nature": 1, "research": 0}
    assert points[1] == {"famous": 3, "ancient": 0, "nature": 3, "research": 0}
    assert points[2] == {"famous": 0, "ancient": 1, "nature": 1, "research": 0}


def test_second_place_is_the_second_highest_distinct_count():
    points = group_points([{"nature": 3}, {"nature": 2}, {"nature": 1}, {"nature": 0}])
    assert [p["nature"] for p in points] == [3, 1, 0, 0]
    points = group_points([{"nature": 2}, {"nature": 2}, {"nature": 1}])
    assert [p["nature"] for p in points] == [3, 3, 1]


def group_example_state():
    """The rule text's players A, B and C as seats 0-2: A famous-ancient-nature 1-2-1, B 1-0-2, C 0-1-1."""
    s = game(3, seed=1, extras=True)
    for seat in range(3):
        set_hand(s, seat)
    claim(s, 0, "eiffel-tower", EU)  # famous
    claim(s, 0, "stonehenge", EU)  # ancient
    claim(s, 0, "colosseum", EU)  # ancient
    claim(s, 0, "mt-everest", AS)  # nature
    claim(s, 1, "taj-mahal", AS)  # famous
    claim(s, 1, "victoria-falls", AF)  # nature
    claim(s, 1, "mariana-trench", OC)  # nature
    claim(s, 2, "machu-picchu", AM)  # ancient
    claim(s, 2, "mt-vinson", AN)  # nature
    return s


def test_every_line_of_the_score_sheet():
    s = group_example_state()
    claim(s, 2, "tanzania", AF)
    give(s, 1, "italy", "japan")  # two cards left in hand: -2
    s["extras"]["columbus"] = 0
    s["extras"]["drake"] = 1
    s["extras"]["expeditions"] = 1
    s["phase"] = "over"
    s["last_claimer"] = 2
    sheet = E.score_sheet(s)
    assert [p["key"] for p in sheet["parts"]] == ["groups", "fulfilled", "hand", "continents", "last", "extras"]
    a, b, c = sheet["players"]
    assert (a["groups"], b["groups"], c["groups"]) == (7, 6, 2)
    assert (a["fulfilled"], b["fulfilled"], c["fulfilled"]) == (8, 6, 6)  # 2 per fulfilled goal
    assert (a["hand"], b["hand"], c["hand"]) == (0, -2, 0)  # -1 per card in hand
    assert (a["continents"], b["continents"], c["continents"]) == (4, 6, 6)  # 2 per continent formed on
    assert a["continent_list"] == ["europe", "asia"]
    assert (a["last"], b["last"], c["last"]) == (0, 0, 1)
    assert (a["extras"], b["extras"], c["extras"]) == (2, 4, 0)
    assert b["extra_cards"] == ["drake", "expeditions"]
    assert (a["total"], b["total"], c["total"]) == (21, 20, 15)
    result = E.result(s)
    assert result.scores == (21, 20, 15) and result.ranking == ((0,), (1,), (2,))
    assert result.detail["score_sheet"] == sheet
    lines = sheet_lines(sheet)
    assert lines[0] == ("{p0}: 21 points (groups +7, fulfilled goals +8, cards in hand +0, continents +4, "
                        "last goal +0, extra cards +2)")
    assert E.view(s, None)["score_sheet"] == sheet and E.view(s, None)["winners"] == [0]


def test_ties_share_the_victory():
    s = game(2, seed=1)
    set_hand(s, 0)
    set_hand(s, 1)
    claim(s, 0, "italy", EU)
    claim(s, 1, "japan", AS)
    s["phase"] = "over"
    result = E.result(s)
    assert result.scores == (4, 4) and result.ranking == ((0, 1),) and result.winners == (0, 1)


# --- the platform: timeouts, leaving, views ------------------------------------------------------------------
def test_timeout_passes_and_touches_nothing_shared():
    s = turn(game(3, seed=4), 0)
    hand, piles, towers = list(s["hands"][0]), json.dumps(s["piles"]), json.dumps(s["towers"])
    s, _ = act(s, f"m{P('sB')}")  # a choice in progress is dropped
    s, text = E.apply(s, SYSTEM, "timeout:0")
    assert s["hands"][0] == hand and json.dumps(s["piles"]) == piles and json.dumps(s["towers"]) == towers
    assert s["current"] == 1 and s["step"] is None
    assert "ran out of time" in text[0].text and "passes" in text[1].text


def test_timeout_with_no_pile_left_passes_and_in_a_bonus_step_declines():
    s = turn(game(3, seed=4), 0)
    for pile in s["piles"]:
        s["hands"][2] += pile
        pile.clear()
    board = json.dumps(s["towers"])
    s, _ = E.apply(s, SYSTEM, "timeout:0")
    assert s["current"] == 1 and json.dumps(s["towers"]) == board
    s = italy_game(europe=[["lR", "mW"]], asia=[["sG"]])
    s, _ = move(s, "sG", "mW")
    assert s["phase"] == "bonus"
    hand = list(s["hands"][0])
    s, _ = E.apply(s, SYSTEM, "timeout:0")
    assert s["hands"][0] == hand and s["current"] == 1


def test_pass_is_offered_only_when_nothing_else_is_possible():
    s = turn(game(2, seed=4), 0)
    assert "pass" not in keys(s)
    for pile in s["piles"]:
        s["hands"][1] += pile
        pile.clear()
    s["pirates"] = {"holder": 1, "pyramids": list(range(18))}
    s["towers"] = [[] for _ in range(7)]
    s["epidemic"] = {"continent": None, "holder": 1}
    assert keys(s) == ["pass"]
    s, text = act(s, "pass")
    assert s["current"] == 1
    # such a turn is no choice: after seat 1's turn the table passes for seat 0, and says so
    s, text = E.apply(s, SYSTEM, "timeout:1")
    texts = [e.text for e in text]
    assert texts[-2:] == ["{p0} can do nothing this turn; the table passes for them.", "{p0} passes."]
    assert s["current"] == 1 and s["phase"] == "turn"


def test_a_player_who_leaves_the_game_goes_on_without_them():
    s = turn(game(3, seed=4), 1)
    hand = list(s["hands"][1])
    s["pirates"] = {"holder": 1, "pyramids": [P("sB")]}
    s["towers"][EU] = [[P("mB")], [P("lB")]]
    s["epidemic"] = {"continent": None, "holder": 1}
    s, _ = act(s, f"m{P('sY')}")
    s, text = E.apply(s, SYSTEM, "leave:1")
    assert s["hands"][1] == [] and all(card in sum(s["piles"], []) for card in hand)
    assert [P("sB")] in s["towers"][OCEAN] and s["pirates"] == {"holder": None, "pyramids": []}
    assert s["epidemic"] == {"continent": None, "holder": None}
    assert s["current"] == 2 and s["step"] is None and E.to_act(s) == {2}
    for _ in range(10):
        seat = next(iter(E.to_act(s)))
        assert seat != 1
        s, _ = E.apply(s, seat, E.legal_actions(s, seat)[0].key)


def test_a_leavers_cards_go_under_their_piles_and_the_public_goals_stay():
    s = turn(game(3, seed=4), 0)
    hand = list(s["hands"][1])
    tops = [pile[-1] if pile else None for pile in s["piles"]]
    s, _ = E.apply(s, SYSTEM, "leave:1")
    assert [pile[-1] if pile else None for pile in s["piles"]] == tops
    for card in hand:
        assert card in s["piles"][continents_of(card)[0]][:len(hand)]  # at the bottom
    assert [g["card"]["id"] if g["card"] else None for g in E.view(s, 0)["public_goals"]] == tops


def test_no_takeback_counts_the_players_still_in():
    s = turn(game(3), 0)
    arrange(s, europe=[["lB"]], asia=[["lY"]], africa=[["mK"]])
    s, _ = E.apply(s, SYSTEM, "leave:2")  # two players are left: the two-player rule applies
    s, _ = move(s, "mK", "lB")
    assert s["current"] == 1
    assert f"m{P('mK')}" not in keys(s)
    with pytest.raises(RulesError):
        act(s, f"m{P('mK')}")


def test_two_players_one_leaves_the_other_wins():
    s = game(2, seed=3)
    s, _ = E.apply(s, SYSTEM, "leave:0")
    assert s["phase"] == "over" and E.result(s).winners == (1,)


def test_a_claiming_turn_starts_the_stall_count_afresh():
    s = italy_game(europe=[["lR", "mW"]], asia=[["sG"]])
    s["dry_turns"] = 17
    s, _ = move(s, "sG", "mW")
    if s["phase"] == "bonus":
        s, _ = act(s, "skip")
    assert s["dry_turns"] == 0


def test_a_long_stall_ends_the_game():
    s = game(2, seed=3)  # each pyramid alone on its continent: the table's draws never meet a goal
    for _ in range(STALL_ROUNDS * 2 - 1):
        s, _ = E.apply(s, SYSTEM, f"timeout:{s['current']}")
        assert s["phase"] != "over" and not s["fulfilled"][0] and not s["fulfilled"][1]
    s, events = E.apply(s, SYSTEM, f"timeout:{s['current']}")
    assert s["phase"] == "over" and "without a fulfilled goal" in " ".join(e.text for e in events)
    assert all(row["last"] == 0 for row in E.result(s).detail["score_sheet"]["players"])


def test_hands_are_seen_only_by_their_owner_each_card_marked_if_met():
    s = italy_game(europe=[["lR", "mW", "sG"]])
    set_hand(s, 1, "japan")
    assert "hand" not in E.view(s, None)
    v0 = E.view(s, 0)
    assert [c["id"] for c in v0["hand"]] == ["italy"] and v0["hand"][0]["met"] and v0["hand"][0]["met_on"] == "europe"
    assert v0["hand"][0]["capital"] == "Rome" and v0["hand"][0]["tweet"]
    assert [c["id"] for c in E.view(s, 1)["hand"]] == ["japan"] and not E.view(s, 1)["hand"][0]["met"]
    assert "japan" not in json.dumps(v0)
    assert v0["hand_sizes"] == [1, 1, len(s["hands"][2])]
    assert all(not a.secret for a in E.legal_actions(s, 0))


def test_view_gives_the_renderer_the_board():
    s = turn(game(3, seed=4, extras=True), 0)
    arrange(s, europe=[["lB", "sB"]], ocean=[["lK", "mK"]])
    s["pirates"] = {"holder": 2, "pyramids": []}
    s, _ = act(s, f"m{P('sB')}")
    v = E.view(s, None)
    assert [c["name"] for c in v["continents"]] == ["Europe", "Asia", "America", "Oceania", "Antarctica", "Africa"]
    assert v["continents"][EU]["towers"] == [[{"id": P("lB"), "colour": "blue", "size": "large"},
                                              {"id": P("sB"), "colour": "blue", "size": "small"}]]
    assert [P("lK"), P("mK")] in [[p["id"] for p in t] for t in v["ocean"]]
    assert v["step"]["pyramid"] == P("sB") and v["step"]["place"] == EU and v["step"]["destinations"]
    assert v["pirates"]["holder"] == 2 and v["epidemic"]["on_board"]
    assert len(v["public_goals"]) == 6 and all(g["card"]["trio"] for g in v["public_goals"])
    assert v["countdown"] == v["goal"] == 10 and v["current"] == 0 and v["fulfilled"] == [[], [], []]
    assert [x["key"] for x in v["extras"]][0] == "columbus"
    assert json.loads(json.dumps(E.view(s, 0))) == E.view(s, 0)  # plain data
    assert E.focus(s, 0, "Ocean") == {"place": OCEAN, "pyramid": P("sB")}
    assert E.focus(s, 0, "nowhere") is None


def test_secret_variants_change_only_what_the_seat_cannot_see():
    s = game(4, seed=9)
    rng = random.Random(1)
    for seat in (None, 0, 3):
        variants = E.secret_variants(s, seat, rng)
        assert variants
        for v in variants:
            assert E.view(v, seat) == E.view(s, seat)
            if seat is not None:
                assert v["hands"][seat] == s["hands"][seat]
            assert sorted(sum(v["hands"], []) + sum(v["piles"], [])) == ALL_CARDS


# --- invariants over random games ------------------------------------------------------------------------------
def claiming_moves(s, seat):
    """(pick key, destination key) of the moves that would complete a goal of ``seat`` (hand or public)."""
    goals = list(s["hands"][seat]) + [p[-1] for p in s["piles"] if p]
    wanted = {}
    for card in goals:
        for c in continents_of(card):
            wanted.setdefault(c, set()).add(trio_of(card))
    out = []
    for p, place, ti, h in E._picks(s, seat):
        moving = s["towers"][place][ti][h:]
        for dest, on in E._destinations(s, p, place):
            if dest not in wanted:
                continue
            base = next(t for t in s["towers"][dest] if t[-1] == on)[-2:] if on is not None else []
            line = base + moving
            if any(tuple(line[i:i + 3]) in wanted[dest] for i in range(len(line) - 2)):
                out.append((f"m{p}", f"t{dest}" if on is None else f"o{on}"))
    return out


def check_invariants(s):
    where_ = [p for place in s["towers"] for t in place for p in t] + s["pirates"]["pyramids"]
    assert sorted(where_) == list(range(18))  # every pyramid somewhere, exactly once
    for place in s["towers"]:
        for t in place:
            assert t, "no empty tower"
            assert all(a % 3 >= b % 3 for a, b in zip(t, t[1:], strict=False))  # no larger on a smaller
    assert all(len(s["towers"][c]) <= 3 for c in range(6))
    if s["epidemic"]["continent"] is not None:
        assert s["towers"][s["epidemic"]["continent"]] == [] and s["epidemic"]["holder"] is None
    if s["pirates"]["pyramids"]:
        assert s["pirates"]["holder"] is not None
    cards = sum(s["hands"], []) + sum(s["piles"], []) + [f["card"] for fs in s["fulfilled"] for f in fs]
    assert sorted(cards) == ALL_CARDS  # the 47 cards, each in exactly one place
    assert s["countdown"] == max(0, s["goal"] - sum(len(f) for f in s["fulfilled"]))


def check_actions(s, acts):
    """A step offers at most 25 choices (the first step at most 20: all buttons), unique, with short labels."""
    assert acts and len(acts) <= 25 and len({a.key for a in acts}) == len(acts)
    if s["phase"] == "turn" and s["step"] is None:
        assert len(acts) <= 20
    assert all(len(a.label) <= 80 and not a.secret for a in acts)


def _where_is(s):
    return {p: (place, ti, h) for place, towers in enumerate(s["towers"]) for ti, t in enumerate(towers)
            for h, p in enumerate(t)}


def _try(s, seat, p, dests):
    """The first of ``dests`` (keys) that pyramid p may legally take now, as (pick key, destination key)."""
    loc = _where_is(s).get(p)
    if loc is None or (loc[0] == OCEAN and loc[2] > 0) or p == E._forbidden(s, seat):
        return None
    legal = {f"t{d}" if on is None else f"o{on}" for d, on in E._destinations(s, p, loc[0])}
    for d in dests:
        if d in legal:
            return f"m{p}", d
    return None


def _bring(s, seat, p, goal_place, onto):
    """One step of bringing p onto pyramid ``onto`` (or anywhere on ``goal_place`` when None)."""
    place = _where_is(s)[p][0]
    if place != goal_place:
        targets = [f"o{onto}"] if onto is not None else [f"t{goal_place}"] + [
            f"o{t[-1]}" for t in s["towers"][goal_place]]
        step = _try(s, seat, p, targets)
        if step:
            return step
    return _try(s, seat, p, [f"t{OCEAN}"] if place != OCEAN else [])


def plan_move(s, seat):
    """A move that builds a goal of ``seat`` one step further (a test player that plans a trio: its bottom
    pyramid to the continent, then the next on top, clearing what is in the way), or None."""
    goals = list(s["hands"][seat]) + [p[-1] for p in s["piles"] if p]
    closed = s["epidemic"]["continent"]
    for card in goals:
        trio = trio_of(card)
        places = [c for c in continents_of(card) if c != closed]
        if not places:
            continue
        loc = _where_is(s)
        goal_place = loc[trio[0]][0] if loc.get(trio[0], (None,))[0] in places else places[0]
        base = loc.get(trio[0])
        if base is None or base[0] != goal_place:
            step = _bring(s, seat, trio[0], goal_place, None) if base else None
        else:
            tower = s["towers"][goal_place][base[1]]
            h = base[2]
            step = None
            for k in (1, 2):
                if h + k < len(tower) and tower[h + k] == trio[k]:
                    continue
                if h + k < len(tower):  # something else is in the way: send it to the Ocean
                    step = _try(s, seat, tower[h + k], [f"t{OCEAN}"])
                elif trio[k] in loc:
                    step = _bring(s, seat, trio[k], goal_place, tower[-1])
                break
        if step:
            return step
    return None


def play_random_game(seed, players, picks, greedy, system=0.0, extras=False):
    """Plays to the end: ``picks`` drive the choices (cycled); a greedy player completes a goal when one move
    can and otherwise mostly follows ``plan_move``; ``system`` is the rate of timeouts (and now and then a
    departure)."""
    s = E.new(players, {"extras": extras}, seed)
    chooser = random.Random(seed)
    bound = (s["goal"] + 1) * STALL_ROUNDS * players * 60  # turns are bounded; steps within one are few
    steps = 0
    while E.to_act(s):
        steps += 1
        assert steps < bound, "the game did not end"
        seat = next(iter(E.to_act(s)))
        pick = picks[steps % len(picks)] if picks else chooser.randrange(1000)
        if system and chooser.random() < system:
            remaining = E.remaining(s)
            if chooser.random() < 0.2 and len(remaining) > 1:
                s, _ = E.apply(s, SYSTEM, f"leave:{chooser.choice(remaining)}")
            else:
                s, _ = E.apply(s, SYSTEM, f"timeout:{seat}")
        else:
            actions = E.legal_actions(s, seat)
            check_actions(s, actions)
            acts = [a.key for a in actions]
            key = acts[pick % len(acts)]
            if greedy and s["phase"] == "turn" and s["step"] is None:
                good = claiming_moves(s, seat) or ([plan_move(s, seat)] if pick % 10 < 8 else [])
                if good and good[0]:
                    s, _ = E.apply(s, seat, good[0][0])
                    check_invariants(s)
                    key = good[0][1]
                elif pick % 10 == 9 and "d" in acts:
                    s, _ = E.apply(s, seat, "d")
                    check_invariants(s)
                    key = next(k for k in E.legal_actions(s, seat)).key
            s, _ = E.apply(s, seat, key)
        check_invariants(s)
    assert E.result(s) is not None
    return s, steps


@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), picks=st.lists(st.integers(0, 999), max_size=40))
def test_invariants_hold_in_random_games_and_every_game_ends(seed, players, picks):
    for n in (players, 2 + (players + 2) % 5):  # two games per example
        play_random_game(seed, n, picks, greedy=False, system=0.03)


@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), extras=st.booleans())
def test_invariants_hold_in_games_where_goals_get_fulfilled(seed, players, extras):
    s, _ = play_random_game(seed, players, [], greedy=True, extras=extras)
    fulfilled = sum(len(f) for f in s["fulfilled"])
    assert s["countdown"] == max(0, s["goal"] - fulfilled), "each fulfilled goal counts down once"
    if s["countdown"] == 0:
        assert s["last_claimer"] is not None, "the countdown ends the game with the last claimer"
    else:
        assert s["dry_turns"] >= STALL_ROUNDS * players, "a game short of its goals ended by the stall"


def test_greedy_games_usually_end_by_the_countdown():
    ends = []
    for seed in range(20):
        s, _ = play_random_game(seed, 2 + seed % 5, [], greedy=True, extras=True)
        ends.append(s["countdown"] == 0)
        if s["countdown"] == 0:
            assert s["last_claimer"] is not None
            assert sum(r["last"] for r in E.result(s).detail["score_sheet"]["players"]) == 1
    assert sum(ends) >= 10
