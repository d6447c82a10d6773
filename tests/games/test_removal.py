"""A moderator's removal (``remove:<seat>``) in every game: logged, replayed, told as a removal, and a game
it (or a player leaving) ends says how it ended (issue 16, item 3)."""

import random

import pytest

import games
from games.core import SYSTEM, RulesError, departure, was_removed

ENGINES = games.all_engines()


def midgame(engine, players, seed):
    """A game a few moves in (every game's first moves), with its log."""
    chooser = random.Random(seed)
    state, log = engine.new(players, {}, seed), []
    for _ in range(6):
        to_act = sorted(engine.to_act(state))
        if not to_act:
            break
        seat = chooser.choice(to_act)
        key = chooser.choice(engine.legal_actions(state, seat)).key
        state, _ = engine.apply(state, seat, key)
        log.append((seat, key))
    return state, log


@pytest.mark.parametrize("engine", [e for e in ENGINES if e.max_players >= 3], ids=lambda e: e.slug)
def test_removals_are_told_as_such_and_replay(engine):
    players = 3 if engine.slug != "geoneo" else 4
    for seed in range(8):
        state, log = midgame(engine, players, seed)
        if engine.is_over(state):
            continue
        state, events = engine.apply(state, SYSTEM, "remove:1")
        log.append((SYSTEM, "remove:1"))
        texts = [e.text for e in events]
        assert texts[0].startswith("{p1} was removed by a moderator"), texts
        assert not any("left the game" in t for t in texts), texts
        assert state["left"][1] and was_removed(state, 1) and not was_removed(state, 0)
        with pytest.raises(RulesError, match="already left"):
            engine.apply(state, SYSTEM, "remove:1")
        # the others go until the game ends by departures: the last one ended it
        key = None
        for seat in range(players):
            if engine.is_over(state):
                break
            if not state["left"][seat]:
                key = f"leave:{seat}" if seat % 2 == 0 else f"remove:{seat}"
                state, _ = engine.apply(state, SYSTEM, key)
                log.append((SYSTEM, key))
        assert engine.is_over(state)
        seat, removed = departure(state)
        assert state["ended_by"] == (key or "remove:1") and removed == state["ended_by"].startswith("remove")
        assert engine.encode(engine.replay(players, {}, seed, log)) == engine.encode(state)


@pytest.mark.parametrize("engine", [e for e in ENGINES if e.max_players >= 2], ids=lambda e: e.slug)
def test_a_two_player_game_ended_by_a_removal_says_so(engine):
    state, _ = midgame(engine, 2, 3)
    assert not engine.is_over(state)
    state, events = engine.apply(state, SYSTEM, "remove:0")
    assert engine.is_over(state) and departure(state) == (0, True) and state["removed"] == [0]
    result = engine.result(state)
    assert 0 not in result.winners  # ranked after the one still seated, whatever their score


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_an_ordinary_game_has_no_departure_keys(engine):
    state, _ = midgame(engine, max(engine.min_players, 2), 5)
    assert "removed" not in state and "ended_by" not in state and departure(state) is None
