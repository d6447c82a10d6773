"""Board images drawn from an engine's view. The bot calls ``render_board`` and ``render_private`` (from a
worker thread: drawing never runs on the event loop).

Each game's module declares ``GAME = "<slug>"`` and exposes ``draw_board(view, names, last, focus)`` and,
when the game has secrets, ``draw_private(view, name)``; both return a Pillow image. For its PNG palette it
declares ``COLOURS`` (its flat colours beyond ``common.THEME``) and ``palette_samples()`` (boards of every
phase); a game without them is sent as an RGB PNG. A new game only adds its module to ``_MODULES``.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType

from PIL import Image, ImageDraw

from render import geek_out, geodeto, geomancy, geoneo, globe_twister
from render.common import THEME, encode_png, header, learn_palette

_MODULES: tuple[ModuleType, ...] = (geek_out, geoneo, geodeto, geomancy, globe_twister)
_RENDERERS: dict[str, ModuleType] = {m.GAME: m for m in _MODULES}


class NoPrivateImage(KeyError):
    """The game shows every seat the same board: it has no private image."""


@cache
def palette(game: str) -> Image.Image | None:
    """The game's fixed PNG palette (up to 256 colours): ``common.THEME`` and the game's ``COLOURS`` exactly,
    the rest learned once per process from the game's ``palette_samples()`` (docs/rendering.md). None for a
    game without samples (its images are sent as RGB)."""
    module = _RENDERERS[game]
    if not hasattr(module, "palette_samples"):
        return None
    return learn_palette((*THEME, *getattr(module, "COLOURS", ())), module.palette_samples())


def render_board(game: str, view: dict, names: list[str], last: str | None = None,
                 focus: dict | None = None) -> bytes:
    """The public board of ``game`` as PNG bytes (8-bit, the game's ``palette``).

    ``last`` is the last move in words (the footer). ``focus`` marks a choice in progress, per game
    (GEONEO: ``{"anchor": field, "fields": [fields]}`` while a shape is chosen); None when nothing is.
    ``focus={"closed": text}``: the table was closed before its end (a moderator, too few players): the
    board as it was left, its top bar saying so instead of whose turn it was (``"right"``: the bar's corner
    word, "Closed" unless given; a game a departure ended says "Game over" there, not a winner banner).
    """
    module = _RENDERERS[game]
    closed = (focus or {}).get("closed")
    image = module.draw_board(view, names, last, None if closed else focus)
    if closed:
        header(ImageDraw.Draw(image), module.TITLE, closed, right=focus.get("right", "Closed"), width=image.width)
    return encode_png(image, palette(game))


def has_board(game: str) -> bool:
    """Whether ``game`` has a renderer (a game is offered in /play only once its board can be drawn)."""
    return game in _RENDERERS


def has_private(game: str) -> bool:
    """Whether ``game`` draws a private image for each seat (a hand)."""
    return hasattr(_RENDERERS[game], "draw_private")


def render_private(game: str, view: dict, name: str) -> bytes:
    """The seat's private image (GEONEO: its hand) from that seat's own view, as PNG bytes, for an ephemeral
    reply to that player only. Raises ``NoPrivateImage`` for games without one."""
    module = _RENDERERS[game]
    if not hasattr(module, "draw_private"):
        raise NoPrivateImage(f"{game} has no private image")
    return encode_png(module.draw_private(view, name), palette(game))


def has_card(game: str) -> bool:
    """Whether ``game`` draws a single card (Geodeto: a goal card, e.g. when it is fulfilled)."""
    return hasattr(_RENDERERS[game], "draw_card")


def render_card(game: str, card: dict, note: str | None = None) -> bytes:
    """One of the game's cards as image bytes (Geodeto: a goal card from the view, e.g. ``view["last_claims"][i]
    ["card"]``; ``note``, optional, a line on it such as "Ana fulfilled it on Europe"): a PNG, or the bytes a
    module's ``draw_card`` returns already encoded (Globe Twister: an animated GIF of a program's run, "GIF89a").
    Raises ``NoPrivateImage`` (a KeyError) for games without cards."""
    module = _RENDERERS[game]
    if not hasattr(module, "draw_card"):
        raise NoPrivateImage(f"{game} has no card image")
    drawn = module.draw_card(card, note)
    if isinstance(drawn, bytes):
        return drawn
    return encode_png(drawn, palette(game))


def has_score_sheet(game: str) -> bool:
    """Whether ``game`` draws an end score sheet."""
    return hasattr(_RENDERERS[game], "draw_score_sheet")


def render_score_sheet(game: str, view: dict, names: list[str]) -> bytes:
    """The end score sheet (a table: a row per part, a column per player) from the finished game's view, as PNG
    bytes. Raises ``NoPrivateImage`` (a KeyError) for games without one."""
    module = _RENDERERS[game]
    if not hasattr(module, "draw_score_sheet"):
        raise NoPrivateImage(f"{game} has no score sheet image")
    return encode_png(module.draw_score_sheet(view, names), palette(game))


def warm_up() -> None:
    """Loads the fonts every board uses and learns each game's palette (a render worker calls it once, before
    its first board: ~0.3 s for both games)."""
    from render import common

    for size in (common.SMALL, common.BODY, common.LARGE, common.STATUS):
        common.font(size)
    for game in _RENDERERS:
        palette(game)


def overlays(game: str) -> dict[str, str]:
    """Extra ways to draw a game's board on request ({name: button label}, e.g. Geomancy's auras); the board
    is then drawn with ``focus={"overlay": name}``."""
    return dict(getattr(_RENDERERS.get(game), "OVERLAYS", {}))
