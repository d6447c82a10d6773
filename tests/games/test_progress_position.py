"""``Engine.progress`` (the table header's round/turn) and ``Engine.position`` (the board in words, for screen
readers) on real states of each game, played by random legal moves."""

import random
import re

import i18n
from games import get_engine
from games.core import Engine, State
from games.globe_twister.puzzle import from_pairs, solved_in, to_pairs
from games.rulebook import play_until

NAMES = ["Ana", "Bo", "Cy", "Dee", "Eli", "Fay"]


def said(text, lang: str = "en") -> str:
    """A text as shown, its seats ({p0}) named."""
    return re.sub(r"\{p(\d)\}", lambda m: NAMES[int(m.group(1))], i18n.localize(text, lang))


def until(engine: Engine, state: State, done, seed: int = 1, limit: int = 5000) -> State:
    """Random legal moves from ``state`` until ``done(state)`` (or the game ends)."""
    rng = random.Random(seed)
    for _move in range(limit):
        if done(state) or engine.is_over(state):
            return state
        seat = sorted(engine.to_act(state))[0]
        state, _events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).key)
    raise AssertionError("not reached")


def test_geek_out_counts_the_turns_each_and_says_the_dice_in_play():
    engine = get_engine("geek_out")
    state = engine.new(3, {"turns": 3}, 11)
    assert engine.progress(state) == "Turn 1 of 3 each"
    first = state["current"]
    state = until(engine, state, lambda s: s["current"] == first and s["turns"][first] == 1)
    assert engine.progress(state) == "Turn 2 of 3 each"
    assert i18n.localize(engine.progress(state), "de") == "Zug 2 von 3 je Person"
    words = engine.position(state)
    totals = engine.scores_now(state)
    assert str(words).startswith("Scores: " + ", ".join(f"{{p{s}}} {totals[s]}" for s in range(3)) + ".")
    active = [d["face"] for d in state["dice"] if d["zone"] == "active"]
    faces = {"42": "42", "heart": "Heart", "meeple": "Meeple", "ship": "Spaceship", "hero": "Superhero",
             "dragon": "Dragon"}
    assert f"{{p{first}}}'s turn: active dice " in words and all(faces[f] in words for f in active)
    state = until(engine, state, lambda s: False)
    assert engine.is_over(state) and engine.progress(state) is None and "turn:" not in engine.position(state)


def test_geek_out_says_what_the_scored_dice_are_worth():
    engine = get_engine("geek_out")
    state = engine.new(2, {}, 3)
    state = engine.arrange(state, active={1: "heart", 2: "hero", 3: "ship", 4: "meeple", 5: "dragon"},
                           scored={6: "42", 7: "42"})
    assert len(engine.zones(state)["scored"]) == 2
    assert "2 dice scored this turn, worth 3 points." in engine.position(state)


def test_geodeto_counts_the_goals_fulfilled_and_names_the_public_goals():
    engine = get_engine("geodeto")
    state = engine.new(3, {"goals": 4}, 5)
    assert engine.progress(state) == "0 of 4 goals fulfilled"
    state, _events = play_until(engine, state, lambda s: s["countdown"] < 4, strength="easy")
    done = 4 - state["countdown"]
    assert done >= 1 and engine.progress(state) == f"{done} of 4 goals fulfilled"
    words = str(engine.position(state))
    assert f"{sum(len(f) for f in state['fulfilled'])}" in words
    for seat in range(3):
        n = len(state["fulfilled"][seat])
        assert f"{{p{seat}}}: {n} goal{'s' if n != 1 else ''} fulfilled" in words
    for pile in state["piles"]:
        if pile:
            assert str(i18n.localize(engine_card(pile[-1]), "en")) in words
    ocean = sum(len(t) for t in state["towers"][6])
    assert f"pyramids in the Ocean: {ocean}." in words
    assert i18n.localize(engine.progress(state), "es") == f"{done} de 4 objetivos cumplidos"


def engine_card(card: str):
    from games.geodeto.rules import card_name
    return card_name(card)


def test_geomancy_says_the_round_its_stones_and_where_each_players_stones_lie():
    engine = get_engine("geomancy")
    state = engine.new(2, {}, 7)
    assert engine.progress(state) == "Round 1 of 3 (small stones), turn 1"
    state = until(engine, state, lambda s: s["round"] == 2, seed=3)
    assert str(engine.progress(state)).startswith("Round 2 of 3 (medium stones), turn ")
    assert i18n.localize(engine.progress(state), "de").startswith("Runde 2 von 3 (mittlere Steine), Zug ")
    view = engine.view(state, None)
    words = str(engine.position(state))
    for stone in view["board"]:
        assert stone["name"] in words
    for seat in range(2):
        held = len(state["hands"][seat])
        assert f"{held} stone{'s' if held != 1 else ''} in hand" in words
    assert words.startswith(f"Scores: {{p0}} {view['scores'][0]}, {{p1}} {view['scores'][1]}.")


def test_geoneo_counts_the_pieces_left_then_says_the_clearing():
    engine = get_engine("geoneo")
    state = engine.new(2, {}, 9)
    assert engine.progress(state) == f"Placing: {sum(state['supply'])} pieces left"
    state = until(engine, state, lambda s: s["round"]["plays"] and s["phase"] == "play", seed=4)
    plays = state["round"]["plays"]
    assert f"making {plays[-1]['result']}." in engine.position(state) or plays[-1]["op"] == "away"
    state = until(engine, state, lambda s: s["phase"] == "clear", seed=4)
    assert engine.progress(state) == "Clearing away shapes"
    assert i18n.localize(engine.progress(state), "es") == "Retirada de figuras"
    words = str(engine.position(state))
    assert "Cards this round" not in words and "(White): " in words and "(Black): " in words


def test_globe_twister_says_round_turn_and_the_solo_puzzle():
    engine = get_engine("globe_twister")
    state = engine.new(3, {}, 1)
    assert engine.progress(state) == "Turn 1 of 10"
    log = engine.new(2, {"travel_log": True, "turn_limit": 4}, 2)
    assert engine.progress(log) == "Round 1 of 2, turn 1 of 4"
    later = until(engine, log, lambda s: s["round"] == 1, seed=5)
    if not engine.is_over(later):
        assert str(engine.progress(later)).startswith(("Round 2 of 2, turn ", "Tie-break, turn "))
    solo = engine.new(1, {"puzzle": "tourist", "number": 3}, 4)
    assert engine.progress(solo) == "Tourist ★, puzzle 3 of 10, turn 1 of 10"
    assert i18n.localize(engine.progress(solo), "es").startswith(str(i18n.localize(
        engine.progress(solo).params["level"], "es")) + ", puzle 3 de 10, turno 1 de 10")
    words = str(engine.position(state))
    assert words.count("of 9 tiles in place") == 3 and "9 of 9" not in words  # a scramble is never solved
    solved = dict(state, puzzles=[to_pairs(solved_in(0)), *state["puzzles"][1:]])
    assert from_pairs(solved["puzzles"][0]) == solved_in(0)
    assert "{p0} rebuilds the Polar region photo: 9 of 9 tiles in place, 10 cards left." in engine.position(solved)


def test_every_game_says_its_progress_and_position_in_every_language_without_a_seat_left_unnamed():
    for slug, players in (("geek_out", 5), ("geodeto", 5), ("geomancy", 6), ("geoneo", 4), ("globe_twister", 5)):
        engine = get_engine(slug)
        state = engine.new(players, {}, 21)
        rng = random.Random(slug)
        for _move in range(400):
            for lang in ("en", "de", "es"):
                progress, position = engine.progress(state), engine.position(state)
                if engine.is_over(state):
                    assert progress is None
                else:
                    assert progress and "{" not in said(progress, lang)
                assert position and "{" not in said(position, lang), (slug, said(position, lang))
            if engine.is_over(state):
                break
            seat = sorted(engine.to_act(state))[0]
            state, _events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).key)


def test_the_words_never_tell_a_secret():
    """What a spectator may not see (another's hand, the piles below their top card) changes neither sentence."""
    for slug, players in (("geodeto", 4), ("geoneo", 3), ("globe_twister", 3)):
        engine = get_engine(slug)
        state = engine.new(players, {}, 8)
        rng = random.Random(slug)
        for _move in range(60):
            for variant in engine.secret_variants(state, None, random.Random(1)):
                assert engine.position(variant) == engine.position(state), slug
                assert engine.progress(variant) == engine.progress(state), slug
            if engine.is_over(state):
                break
            seat = sorted(engine.to_act(state))[0]
            state, _events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).key)
