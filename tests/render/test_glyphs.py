"""Every character any game puts on an image is one the font draws (or one ``text`` draws as a shape): nothing
comes out as the font's empty box for a missing glyph ("Tourist ☒" for a star, arrows as "->" or "v").

The strings are collected as drawn (``record_texts``) from seeded random games of all five games: every board
with each move's words in its footer, every seat's private image, each announcement's card (Globe Twister's
run animations), the end's score sheet; plus the games' result lines and option words."""

from __future__ import annotations

import random
import re

import pytest

import render
from games import get_engine
from games.core import RulesError
from render.common import has_glyph, record_texts

NAMES = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay"]
GAMES = {
    "geek_out": [(1, {}, 2), (3, {}, 2)],
    "geoneo": [(2, {}, 2), (4, {}, 1)],
    "geodeto": [(2, {}, 1), (4, {}, 1)],
    "geomancy": [(2, {}, 2), (3, {}, 1), (6, {}, 1)],
    "globe_twister": [(1, {"puzzle": level, "turn_limit": 3}, 1) for level in ("tourist", "backpacker", "wild")]
    + [(3, {"turn_limit": 3}, 2), (2, {"travel_log": True, "turn_limit": 2}, 1)],
}
"""Per game: (players, options, seeds)."""
MAX_MOVES = 120


def named(text: str, names: list[str]) -> str:
    return re.sub(r"\{p(\d+)\}", lambda m: names[int(m.group(1))], text)


def random_game(game: str, players: int, options: dict, seed: int):
    """(state, who moved, the move's words, the announcements it made) after each move of a seeded random
    game (who moved: None at the start)."""
    engine = get_engine(game)
    rng = random.Random(seed)
    state = engine.new(players, options, seed)
    yield state, None, " ".join(e.text for e in engine.opening(state)), []
    for _ in range(MAX_MOVES):
        seats = sorted(engine.to_act(state))
        if not seats:
            return
        seat = rng.choice(seats)
        actions = engine.legal_actions(state, seat)
        if not actions:
            return
        try:
            after, events = engine.apply(state, seat, rng.choice(actions).key)
        except RulesError:
            continue
        yield after, seat, " ".join(e.text for e in events), engine.announcements(state, after)
        state = after


def drawn_strings(game: str) -> set[str]:
    engine, module = get_engine(game), render._RENDERERS[game]
    out: set[str] = set()
    for players, options, seeds in GAMES[game]:
        names = NAMES[:players]
        for seed in range(seeds):
            with record_texts() as texts:  # drawn, not encoded (the words are what counts here)
                for state, mover, words, announced in random_game(game, players, options, seed):
                    module.draw_board(engine.view(state, None), names, named(words, names) or None, None)
                    if render.has_private(game):  # the mover's (every seat's at the start)
                        for seat in range(players) if mover is None else (mover,):
                            module.draw_private(engine.view(state, seat), names[seat])
                    for item in announced:
                        if item.get("card") is not None and render.has_card(game):
                            render.render_card(game, {**item["card"], "names": names},
                                               named(item.get("note") or "", names) or None)
                    if engine.is_over(state) and render.has_score_sheet(game):
                        render.render_score_sheet(game, engine.view(state, None), names)
                    out.update(named(line, names) for line in engine.result_lines(state))
            out.update(texts)
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_character_a_game_draws_is_in_the_font(game):
    strings = drawn_strings(game)
    assert len(strings) > 50  # the games were played: boards, footers, panels
    missing = {ch: s for s in strings for ch in s if not has_glyph(ch)}
    assert not missing, f"no glyph for {sorted(missing)}: e.g. {list(missing.values())[:3]}"


def test_the_check_knows_a_missing_glyph():
    assert has_glyph("A") and has_glyph("→") and has_glyph("★")
    assert not has_glyph("☒") and not has_glyph("\ue000")
