"""Seeded sample games of Geomancy and the boards the palette is learned from."""

from __future__ import annotations

from collections.abc import Iterator

from PIL import Image

from render.geomancy.board import (
    draw_board,
)


# --- palette samples -----------------------------------------------------------------------------------------
def sample_states(players: int, seed: int) -> Iterator[dict]:
    """Every state of a seeded random game (for the palette and the tests)."""
    import random

    from games.geomancy.rules import Geomancy

    engine = Geomancy()
    state = engine.new(players, {}, seed)
    pick = random.Random(seed)
    while engine.to_act(state):
        yield state
        seat = min(engine.to_act(state))
        state, _ = engine.apply(state, seat, pick.choice(engine.legal_actions(state, seat)).key)
    yield state


def palette_samples() -> Iterator[Image.Image]:
    """Boards from seeded games of 2, 4 and 6 players at every stage (the start, fresh casts with stones upright,
    off the board and knocked aside, captures, a same-colour choice, a stone being turned, the end), with an aim
    rank and the stones to turn (``focus``) and the aura overlay: what ``render.palette`` learns this game's PNG
    palette from."""
    from games.geomancy.rules import Geomancy

    engine = Geomancy()
    names = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay"]
    last = "Ana casts 5 small at d4: small d4 NE; small off the board (recast)."
    for players, seed in ((2, 1), (3, 2), (4, 2), (6, 3)):
        who = names[:players]
        seen: set[str] = set()
        for i, state in enumerate(sample_states(players, seed)):
            view = engine.view(state, None)
            tag = sample_stage(view, i)
            if tag is None or tag in seen:
                continue
            seen.add(tag)
            yield draw_board(view, who, last)
            if tag in ("captures", "knocks", "over"):
                yield draw_board(view, who, None, {"overlay": "auras"})
            if view["phase"] == "turn" and view["to_act"] and not view["step"]:
                seat = view["to_act"][0]
                if engine.castable(state, seat):
                    rank = 1 + len(seen) % 8  # a rank of squares in gold, over the stones there
                    yield draw_board(view, who, None, engine.focus(state, seat, f"Aim at rank {rank}"))
                if tag in ("off", "reorient", "captures"):
                    yield draw_board(view, who, None, engine.focus(state, seat, "Reorient or pass"))


def sample_stage(view: dict, i: int) -> str | None:
    """Which kind of sample board a state (the ``i``-th of its game) is, if any."""
    if i == 0:
        return "start"
    if view["phase"] in ("over", "choose"):
        return view["phase"]
    if view["step"]:
        return "step"
    if len(view["last_captures"]) >= 2:
        return "captures"
    cast = view["last_cast"]
    for result in ("upright", "off"):
        if cast and any(st["result"] == result for st in cast["stones"]):
            return result
    if cast and cast["knocks"]:
        return "knocks"
    if view["last_turn"] and view["last_turn"]["kind"] == "reorient":
        return "reorient"
    return None
