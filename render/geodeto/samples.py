"""Seeded sample games of Geodeto (goals built as in real play) and the boards the palette is learned from."""

from __future__ import annotations

from collections.abc import Iterator

from PIL import Image

from games.geodeto.rules import OCEAN
from render.common import (
    HIGHLIGHT,
    SKY,
    canvas,
)
from render.geodeto.board import (
    draw_board,
)
from render.geodeto.cards import (
    draw_card,
    draw_private,
)
from render.geodeto.pieces import (
    CARD,
    CARD_PYR_H,
    OCEAN_FILL,
    PIRATES,
    TILE,
    draw_tower,
    put_pyramid,
)
from render.geodeto.sheet import (
    draw_score_sheet,
)


# --- sample games (palette samples, tests) -------------------------------------------------------------------
def rig_goal(state: dict, seat: int) -> bool:
    """Builds one of ``seat``'s goals on the board (its trio moved, as a new tower, onto one of its
    continents), so seeded random games fulfil goals as real ones do: the seat claims it after its next
    action. For sample states only (palette samples, tests); changes ``state`` in place."""
    from games.geodeto.rules import continents_of, trio_of

    towers = state["towers"]
    captured = set(state["pirates"]["pyramids"])
    closed = state["epidemic"]["continent"]
    for card in state["hands"][seat]:
        trio = trio_of(card)
        places = [c for c in continents_of(card) if c != closed]
        if captured & set(trio) or not places:
            continue
        c = places[0]
        for place in range(len(towers)):  # a pyramid taken out of a tower: the ones above sink onto the one below
            towers[place] = [kept for kept in ([p for p in t if p not in trio] for t in towers[place]) if kept]
        if len(towers[c]) >= 3:
            towers[OCEAN].extend([p] for p in towers[c].pop())
        towers[c].append(list(trio))
        return True
    return False


def sample_game(players: int, seed: int, options: dict | None = None, rig: int = 6) -> Iterator[dict]:
    """Every state of a seeded random game (after each action, the last one over), one of the acting seat's
    goals built every ``rig`` actions so goals are fulfilled."""
    import copy
    import random

    from games.geodeto.rules import Geodeto

    engine = Geodeto()
    state = engine.new(players, dict(options or {}), seed)
    pick = random.Random(seed)
    turns = 0
    while engine.to_act(state):
        yield state
        seat = state["current"]
        if state["phase"] == "turn" and state["step"] is None:
            turns += 1
            if rig and turns % rig == 0:
                state = copy.deepcopy(state)
                rig_goal(state, seat)
        state, _ = engine.apply(state, seat, pick.choice(engine.legal_actions(state, seat)).key)
    yield state


# --- palette samples ---------------------------------------------------------------------------------------------
SHEET_W = 800
"""The sprite sheet's width: 18 pyramids a row (a palette sample, never shown)."""


def _sprite_sheet() -> Image.Image:
    """Every pyramid on every ground it lies on (tile, Ocean, card, Pirates card) and on every other colour
    (its edge over their fill): a palette sample, so no pairing is missed by the seeded games."""
    grounds = (TILE, OCEAN_FILL, CARD, PIRATES, TILE, OCEAN_FILL)
    halos = (None, None, None, None, HIGHLIGHT, SKY)
    img, d = canvas(6 * 68 + 6 * 96, SHEET_W)
    for g, ground in enumerate(grounds):
        d.rectangle((0, g * 68, SHEET_W, g * 68 + 67), fill=ground)
        for p in range(18):
            put_pyramid(img, d, p, 30 + p * 43, g * 68 + 60, height=CARD_PYR_H if g == 2 else None, halo=halos[g])
    for lower in range(6):
        y = 6 * 68 + lower * 96 + 90
        for upper in range(6):
            x = 40 + upper * 128
            draw_tower(img, d, [lower * 3 + 2, upper * 3 + 1], x, y, locked=upper * 3 + 1 if upper == lower else None)
            draw_tower(img, d, [lower * 3 + 1, upper * 3], x + 60, y)
    return img


def palette_samples() -> Iterator[Image.Image]:
    """Boards from seeded games (2, 4 and 6 players: the start, a picked pyramid with its destinations, a closed
    continent, Pirates holding pyramids, bonus draws, the end, a stall warning with a locked pyramid), hands (a
    goal met), a card, score sheets and every pyramid on every ground: what ``render.palette`` learns this
    game's PNG palette from."""
    import copy

    from games.geodeto.rules import Geodeto

    engine = Geodeto()
    names = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay"]
    last = "Ana moves medium red (carries 1) from Asia to America, onto large yellow."
    yield _sprite_sheet()
    for players, seed in ((2, 1), (4, 2), (6, 3)):
        who = names[:players]
        seen: set[str] = set()
        for i, state in enumerate(sample_game(players, seed, {"extras": players > 2})):
            tag = _stage(state, i)
            if tag in seen or tag is None:
                continue
            seen.add(tag)
            view = engine.view(state, None)
            yield draw_board(view, who, last)
            if tag == "move" and view["step"]["destinations"]:
                dest = view["step"]["destinations"][0]["place"]
                yield draw_board(view, who, None, {"place": dest, "pyramid": view["step"]["pyramid"]})
            if tag in ("start", "closed", "pirates", "over"):  # hands, one goal met
                mine = copy.deepcopy(state)
                seat = state["current"]
                rig_goal(mine, seat)
                yield draw_private(engine.view(mine, seat), who[seat])
            if players == 2 and view.get("forbidden") is not None and "stall" not in seen:  # locked, a stall
                seen.add("stall")
                stalled = copy.deepcopy(state)
                if "dry_turns" in stalled and view.get("stall_turns_left") is not None:
                    stalled["dry_turns"] += view["stall_turns_left"] - 3
                yield draw_board(engine.view(stalled, None), who, last)
            if tag == "over":
                yield draw_score_sheet(view, who)
                yield draw_card(view["fulfilled"][view["winners"][0]][0], "Ana fulfilled it on Europe")


def _stage(state: dict, i: int) -> str | None:
    """Which kind of sample board a state (the ``i``-th) of a sample game is, if any."""
    step = state.get("step") or {}
    if i == 0:
        return "start"
    if state["phase"] == "over":
        return "over"
    if step.get("kind") == "move" and i > 20:
        return "move"
    if state["phase"] == "bonus":
        return "bonus"
    if step.get("kind") in ("draw", "action"):
        return step["kind"]
    if state["epidemic"]["continent"] is not None and i > 30:
        return "closed"
    if len(state["pirates"]["pyramids"]) >= 2:
        return "pirates"
    return None
