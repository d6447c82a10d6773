"""A finished game rebuilt from its action log, for /replay (bot/cogs/replay.py): the animation of its boards
and its move list. Pure (no Discord, no database): ``build`` runs in a render worker (bot/workers/renderpool.py
``replay``), never on the event loop: a long game is hundreds of engine steps and dozens of boards.

The game is played again from the start (``engine.new(players, options, seed)``, then each logged
``(seat, action)``), so its final state is the one the engine makes today: an old stored state that lacks a
newer key (``ended_by`` of a game a departure ended) still gets the final board the live table showed.
Boards are drawn from the public view (``board_view``), as the live boards are: secrets stay hidden.
"""

from __future__ import annotations

from dataclasses import dataclass

import i18n
from bot.computers import computer_seats, display_name
from bot.table.recent import seated_at_start, start_text
from bot.table.words import board_view, ending_focus, events_words
from games import get_engine
from games.core import SYSTEM, RulesError
from i18n import _
from render import replay as animation

__all__ = ["Replay", "ReplayError", "build", "final_scores", "seated_at_start", "start_text"]


class ReplayError(Exception):
    """The log does not play back with today's rules (a game stored by an older version of them)."""


@dataclass(frozen=True)
class Replay:
    gif: bytes
    moves: str
    """The move list: a line per logged action (number, who, what)."""
    frames: int
    plies: int


def build(game: str, players: list[dict], options: dict, seed: int, actions: list[tuple[int, str]],
          final_last: str | None = None, heading: str = "", max_frames: int = animation.MAX_FRAMES,
          locale: str = i18n.DEFAULT, paced: bool = False) -> Replay:
    """The replay of a finished game. ``final_last``: the footer the live final board showed (the stored last
    move: a hand-over's words are the bot's, not the engine's); ``heading``: the move list's first lines;
    ``locale``: the language of the move list and the boards (the server's: a replay is posted in the channel);
    ``paced``: a turn-based table's game (``Engine.new``: its words as the table said them)."""
    with i18n.using(locale):
        return _build(game, players, options, seed, actions, final_last, heading, max_frames, locale, paced)


def final_scores(names: list, result, locale: str) -> str:
    """ "Final scores: Ana 61.5, Bo 40" in ``locale`` (its decimal mark), best first."""
    places = ", ".join(f"{i18n.localize(names[s], locale)} {i18n.localize(i18n.number(result.scores[s]), locale)}"
                       for group in result.ranking for s in group)
    return i18n.localize(_("Final scores: {scores}", scores=places), locale)


def _build(game, players, options, seed, actions, final_last, heading, max_frames, locale, paced) -> Replay:
    engine = get_engine(game)
    names, computers = seated_at_start(players)
    state = engine.new(len(players), options, seed, paced=paced)
    states, lasts, seatings = [state], [start_text(engine, state, names)], [(names, computers)]
    lines = [i18n.localize(heading, locale).rstrip("\n"), ""] if heading else []
    lines.append(f"  0. {i18n.localize(lasts[0], locale)}")
    for number, (seat, key) in enumerate(actions, 1):
        try:
            state, events = engine.apply(state, seat, key)
        except RulesError as exc:
            raise ReplayError(f"move {number} ({key}) no longer plays: {exc}") from None
        said = events_words(events, names)  # the names as they were at that move
        who = i18n.localize(_("Table") if seat == SYSTEM else names[seat], locale)  # a computer's name is a Text
        if said:  # a step of a longer choice says nothing of its own: no line
            lines.append(f"{number:3}. {who}: {i18n.localize(said, locale)}")
        if seat == SYSTEM and key.startswith("handover:"):  # from here on the seat is the computer's
            taken = int(key.partition(":")[2])
            names = [*names[:taken], display_name(players[taken]), *names[taken + 1:]]
            computers = tuple(sorted({*computers, taken}))
        states.append(state)
        seatings.append((names, computers))
        lasts.append(said or lasts[-1])  # a step that says nothing keeps the last move on show, as live
    names, computers = [display_name(p) for p in players], tuple(computer_seats(players))
    seatings[-1] = (names, computers)  # the final board as the live table drew it, pixel for pixel
    if final_last:
        lasts[-1] = final_last
    if engine.is_over(state):
        lines += ["", final_scores(names, engine.result(state), locale)]
    over = engine.is_over(state)
    total = len(states) - 1
    chosen = animation.pick(len(states), max_frames)
    frames = []
    for index in chosen:
        final = index == total
        last = lasts[index] if final or index == 0 else _("Move {index} of {total}: {move}", index=index, total=total,
                                                          move=lasts[index])
        focus = ending_focus(states[index], names, players) if final and over else None
        frames.append(animation.Frame(board_view(engine, states[index]), last, focus, *seatings[index]))
    gif = animation.animate(game, frames, names, computers, locale)
    while len(gif) > animation.MAX_BYTES and len(frames) > 2:  # fewer frames, always the first and final
        frames = [frames[i] for i in animation.pick(len(frames), len(frames) // 2)]
        gif = animation.animate(game, frames, names, computers, locale)
    return Replay(gif, "\n".join(lines) + "\n", len(frames), total)
