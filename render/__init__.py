"""Board images drawn from an engine's view. The bot calls ``render_board`` and ``render_private`` (from a
worker thread: drawing never runs on the event loop).

Each game's module declares ``GAME = "<slug>"`` and exposes ``draw_board(view, names, last, focus)`` and,
when the game has secrets, ``draw_private(view, name)``; both return a Pillow image. For its PNG palette it
declares ``COLOURS`` (its flat colours beyond ``common.THEME``) and ``palette_samples()`` (boards of every
phase); a game without them is sent as an RGB PNG. A new game only adds its module to ``_MODULES``.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from types import ModuleType

import PIL
from PIL import Image, ImageDraw

import i18n
from i18n import _
from render import geek_out, geodeto, geomancy, geoneo, globe_twister
from render.common import THEME, _palette_image, encode_png, learn_palette, phone_header

_MODULES: tuple[ModuleType, ...] = (geek_out, geoneo, geodeto, geomancy, globe_twister)
_RENDERERS: dict[str, ModuleType] = {m.GAME: m for m in _MODULES}


class NoPrivateImage(KeyError):
    """The game shows every seat the same board: it has no private image."""


_PALETTES: dict[str, Image.Image | None] = {}
_LEARNED_HERE: list[str] = []


def palette(game: str) -> Image.Image | None:
    """The game's fixed PNG palette (up to 256 colours): ``common.THEME`` and the game's ``COLOURS`` exactly,
    the rest learned once per process from the game's ``palette_samples()`` (docs/rendering.md), or handed over
    by ``share_palettes`` (the render pool learns each game's in one worker and gives it to the others). None
    for a game without samples (its images are sent as RGB)."""
    if game not in _PALETTES:
        module = _RENDERERS[game]
        if not hasattr(module, "palette_samples"):
            _PALETTES[game] = None
        elif (kept := _cached_palette(game)) is not None:
            _PALETTES[game] = kept
        else:
            _PALETTES[game] = learn_palette((*THEME, *getattr(module, "COLOURS", ())), module.palette_samples())
            _LEARNED_HERE.append(game)
            _keep_palette(game, _PALETTES[game])
    return _PALETTES[game]


@cache
def _code_key() -> str:
    """What a palette depends on: the renderers' and engines' code (the sample boards), the fonts and Pillow's
    version."""
    from render.common import FONT_FILES, _font_path

    digest = hashlib.sha256(PIL.__version__.encode())
    for bold in sorted(FONT_FILES):
        digest.update(Path(_font_path(bold)).read_bytes())
    root = Path(__file__).parent.parent
    for path in sorted([*root.joinpath("render").rglob("*.py"), *root.joinpath("games").rglob("*.py")]):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _palette_file(game: str) -> Path | None:
    """Where a learned palette is kept between starts: ``GEOTABLE_CACHE_DIR`` (unset or empty: ~/.cache/geotable).
    A palette is learned from the code alone, so the file is only a shortcut: a fresh clone learns it at its
    first start, a changed renderer under a new name. (None: no place to keep it.)"""
    folder = os.environ.get("GEOTABLE_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache", "geotable")
    return Path(folder) / f"palette-{game}-{_code_key()}.rgb" if folder else None


def _cached_palette(game: str) -> Image.Image | None:
    path = _palette_file(game)
    try:
        data = path.read_bytes() if path else b""
    except OSError:
        return None
    if not data or len(data) % 3:
        return None
    return _palette_image([tuple(data[i:i + 3]) for i in range(0, len(data), 3)])


def _keep_palette(game: str, palette: Image.Image) -> None:
    path = _palette_file(game)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.part")
        partial.write_bytes(bytes(palette.getpalette("RGB")))
        os.replace(partial, path)  # whole or not at all, whoever writes it at the same time
    except OSError:
        pass  # a read-only home: learned again at the next start


def palettes_known() -> tuple[list[str], list[str]]:
    """(games whose palette this process has, games whose palette it learned from samples itself): what a
    warm-up did."""
    return sorted(_PALETTES), list(_LEARNED_HERE)


def learned_games() -> list[str]:
    """The games whose palette is learned from samples (the costly part of a warm-up), costliest first."""
    return [g for g in reversed(_RENDERERS) if hasattr(_RENDERERS[g], "palette_samples")]


def share_palettes(palettes: dict[str, Image.Image | None]) -> None:
    """Takes palettes another process learned (the same code learns the same palette: it is deterministic)."""
    _PALETTES.update(palettes)


def with_computers(view: dict, computers: Sequence[int]) -> dict:
    """The view with the seats computers play (``view["computers"]``): their rows get the robot's head
    (``common.computer_mark``) beside the name. The engines know nothing of who plays a seat; the bot does."""
    return dict(view, computers=sorted(computers)) if computers else view


def render_board(game: str, view: dict, names: list[str], last: str | None = None,
                 focus: dict | None = None, computers: Sequence[int] = (), locale: str = "en") -> bytes:
    """The public board of ``game`` as PNG bytes (8-bit, the game's ``palette``), in ``locale``'s words (every
    entry point here takes ``locale``, "en", "de", "es", and draws inside ``i18n.using(locale)``).

    ``computers``: the seats a computer plays (marked beside their names, ``with_computers``).

    ``last`` is the last move in words (the footer). ``focus`` marks a choice in progress, per game
    (GEONEO: ``{"anchor": field, "fields": [fields]}`` while a shape is chosen); None when nothing is.
    ``focus={"closed": text}``: the table was closed before its end (a moderator, too few players): the
    board as it was left, its top bar saying so instead of whose turn it was (``"right"``: the bar's corner
    word, "Closed" unless given; a game a departure ended says "Game over" there, not a winner banner); no
    seat is marked as a winner on it. ``focus={"won": text, "winners": [seats]}``: the game's winner as the bot
    counts it differs from the engine's (a seat a computer took over ranks after the people still playing): the
    winner banner says ``won`` instead of the renderer's words, and only ``winners`` are marked.
    """
    board = draw_board(game, view, names, last, focus, computers, locale)
    return encode_png(board, palette(game))


def draw_board(game: str, view: dict, names: list[str], last: str | None = None,
               focus: dict | None = None, computers: Sequence[int] = (), locale: str | None = None) -> Image.Image:
    """The board ``render_board`` encodes, as a Pillow image (a replay's frame, render/replay.py); ``locale``
    None: the enclosing ``i18n.using`` block's language."""
    if locale is not None:
        with i18n.using(locale):
            return draw_board(game, view, names, last, focus, computers)
    module = _RENDERERS[game]
    view = with_computers(view, computers)
    closed, won = (focus or {}).get("closed"), (focus or {}).get("won")
    if closed:  # nobody is marked a winner on a table that did not reach its end (stars, "wins" words)
        view = dict(view, winners=[])
    elif won:
        view = dict(view, winners=list(focus["winners"]))
    image = module.draw_board(view, names, last, None if closed or won else focus)
    if closed:
        phone_header(ImageDraw.Draw(image), module.TITLE, closed, right=focus.get("right", _("Closed")), width=image.width)
    elif won:
        phone_header(ImageDraw.Draw(image), module.TITLE, won, right=focus.get("right"), winner=True, width=image.width)
    return image


def has_board(game: str) -> bool:
    """Whether ``game`` has a renderer (a game is offered in /play only once its board can be drawn)."""
    return game in _RENDERERS


def has_private(game: str) -> bool:
    """Whether ``game`` draws a private image for each seat (a hand)."""
    return hasattr(_RENDERERS[game], "draw_private")


def render_private(game: str, view: dict, name: str, locale: str = "en") -> bytes:
    """The seat's private image (GEONEO: its hand) from that seat's own view, as PNG bytes, for an ephemeral
    reply to that player only. Raises ``NoPrivateImage`` for games without one."""
    module = _RENDERERS[game]
    if not hasattr(module, "draw_private"):
        raise NoPrivateImage(f"{game} has no private image")
    with i18n.using(locale):
        image = module.draw_private(view, name)
    return encode_png(image, palette(game))


def has_card(game: str) -> bool:
    """Whether ``game`` draws a single card (Geodeto: a goal card, e.g. when it is fulfilled)."""
    return hasattr(_RENDERERS[game], "draw_card")


def render_card(game: str, card: dict, note: str | None = None, locale: str = "en") -> bytes:
    """One of the game's cards as image bytes (Geodeto: a goal card from the view, e.g. ``view["last_claims"][i]
    ["card"]``; ``note``, optional, a line on it such as "Ana fulfilled it on Europe"): a PNG, or the bytes a
    module's ``draw_card`` returns already encoded (Globe Twister: an animated GIF of a program's run, "GIF89a").
    Raises ``NoPrivateImage`` (a KeyError) for games without cards."""
    module = _RENDERERS[game]
    if not hasattr(module, "draw_card"):
        raise NoPrivateImage(f"{game} has no card image")
    with i18n.using(locale):
        drawn = module.draw_card(card, note)
    if isinstance(drawn, bytes):
        return drawn
    return encode_png(drawn, palette(game))


def has_score_sheet(game: str) -> bool:
    """Whether ``game`` draws an end score sheet."""
    return hasattr(_RENDERERS[game], "draw_score_sheet")


def render_score_sheet(game: str, view: dict, names: list[str], computers: Sequence[int] = (),
                       locale: str = "en") -> bytes:
    """The end score sheet (a table: a row per part, a column per player) from the finished game's view, as PNG
    bytes; ``computers`` as for ``render_board``. Raises ``NoPrivateImage`` (a KeyError) for games without one."""
    module = _RENDERERS[game]
    if not hasattr(module, "draw_score_sheet"):
        raise NoPrivateImage(f"{game} has no score sheet image")
    with i18n.using(locale):
        image = module.draw_score_sheet(with_computers(view, computers), names)
    return encode_png(image, palette(game))


def render_points_sheet(view: dict, names: list[str], computers: Sequence[int] = (), locale: str = "en") -> bytes:
    """Geek Out's points turn by turn (``geek_out.draw_points_sheet``: the detail its phone board leaves out), as
    PNG bytes."""
    with i18n.using(locale):
        image = geek_out.draw_points_sheet(with_computers(view, computers), names)
    return encode_png(image, palette("geek_out"))


def warm_up(games: tuple[str, ...] | None = None) -> None:
    """Loads the fonts every board uses, learns each game's palette (all games, or ``games``) and draws each
    game's first board once (its sprites, photos and glyphs cached: a first board would cost ~10-15 ms more).
    The render pool has each worker learn a share of the palettes and hands them to the others
    (bot/workers/renderpool.py), so a start costs the costliest share, not the sum (~1.5 s for all five games), and
    a restart reads them from disk (``_palette_file``)."""
    from games import get_engine
    from render import common

    for size in (common.SMALL, common.BODY, common.LARGE, common.STATUS):
        common.font(size)
    for name in globe_twister.photos.PHOTOS:  # ~50 ms for the six
        globe_twister.photos.master(name)
    for game in _RENDERERS if games is None else games:
        palette(game)
        engine = get_engine(game)
        for players in (2, 1, 3):
            try:
                state = engine.new(players, None, 0)
            except Exception:  # noqa: BLE001 (not a player count this game takes)
                continue
            render_board(game, engine.view(state, None), ["Ana", "Bo", "Cy"][:players])
            break


def overlays(game: str) -> dict[str, str]:
    """Extra ways to draw a game's board on request ({name: button label}, e.g. Geomancy's auras); the board
    is then drawn with ``focus={"overlay": name}``."""
    return dict(getattr(_RENDERERS.get(game), "OVERLAYS", {}))
