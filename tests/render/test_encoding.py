"""Boards and private images are sent as 8-bit palette PNGs (a fixed palette per game) that look like the RGB
drawing: flat colours exact, antialiased edges within a few levels (docs/rendering.md, "Encoding")."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageStat

import render
from render import (
    common,
    geek_out,
    geodeto,
    geomancy,
    geoneo,
    globe_twister,
    render_board,
    render_card,
    render_private,
    render_score_sheet,
)
from render.common import THEME, encode_png, learn_palette, record_fonts, record_texts
from tests.render.test_legibility import (
    GD,
    GM,
    GN,
    GO,
    GT,
    LAST,
    LONG,
    focus_for,
    geek_out_states,
    geodeto_focus,
    geodeto_states,
    geomancy_focuses,
    geomancy_states,
    geoneo_states,
    globe_twister_states,
)

MEAN = 0.5
"""Largest mean absolute difference per channel between the drawing and the decoded PNG (seen: <= 0.3)."""
MEAN_SHOWN = 0.27
"""The same, once both are shrunk to the 400 px Discord shows (seen: 0.252 on Geodeto's goal hand, whose light
cards carry the most text, with Source Sans Pro)."""
MAX = {"geomancy": 48}
"""Largest difference of any channel of any pixel, per game (default 32; seen: 16; only antialiased edge
pixels differ at all). Geomancy's gold aim marks over six seat colours leave a few isolated edge pixels at
33-37 (47 with Source Sans Pro's edges; mean error still ~0.1): not visible, and not worth more palette
entries."""


def drawings():
    """(what, game, RGB drawing, PNG bytes) for every phase of both games, names the palettes never saw."""
    for what, s in geek_out_states():
        view, who = GO.view(s, None), LONG[: s["players"]]
        yield what, "geek_out", geek_out.draw_board(view, who, LAST), render_board("geek_out", view, who, LAST)
    for what, s in geoneo_states():
        view, who = GN.view(s, None), LONG[: s["players"]]
        yield what, "geoneo", geoneo.draw_board(view, who, LAST), render_board("geoneo", view, who, LAST)
        if s["phase"] == "clear":
            f = focus_for(s)
            yield (what + " focus", "geoneo", geoneo.draw_board(view, who, None, f),
                   render_board("geoneo", view, who, None, f))
        if s["phase"] == "over":
            won = dict(view, winners=[0])
            yield what + " won", "geoneo", geoneo.draw_board(won, who, LAST), render_board("geoneo", won, who, LAST)
        seat = min(GN.to_act(s) or {0})
        mine = GN.view(s, seat)
        yield (f"{what} hand", "geoneo", geoneo.draw_private(mine, LONG[seat]),
               render_private("geoneo", mine, LONG[seat]))
    for what, s in geomancy_states():
        view, who = GM.view(s, None), LONG[: s["players"]]
        yield what, "geomancy", geomancy.draw_board(view, who, LAST), render_board("geomancy", view, who, LAST)
        for focus in geomancy_focuses(s):
            yield (f"{what} {focus}", "geomancy", geomancy.draw_board(view, who, None, focus),
                   render_board("geomancy", view, who, None, focus))
    for what, s in geodeto_states():
        view, who = GD.view(s, None), LONG[: s["players"]]
        yield what, "geodeto", geodeto.draw_board(view, who, LAST), render_board("geodeto", view, who, LAST)
        focus = geodeto_focus(s)
        if focus:
            yield (what + " focus", "geodeto", geodeto.draw_board(view, who, None, focus),
                   render_board("geodeto", view, who, None, focus))
        if s["phase"] == "over":
            yield (what + " score sheet", "geodeto", geodeto.draw_score_sheet(view, who),
                   render_score_sheet("geodeto", view, who))
            card = next(c for cards in view["fulfilled"] for c in cards)
            yield what + " card", "geodeto", geodeto.draw_card(card), render_card("geodeto", card)
        mine = GD.view(s, s["current"])
        yield (f"{what} goals", "geodeto", geodeto.draw_private(mine, LONG[s["current"]]),
               render_private("geodeto", mine, LONG[s["current"]]))


def difference(a: Image.Image, b: Image.Image) -> tuple[float, int]:
    diff = ImageChops.difference(a, b)
    return max(ImageStat.Stat(diff).mean), max(hi for _, hi in diff.getextrema())


def test_boards_and_hands_are_palette_pngs_that_look_like_the_drawing():
    seen = set()
    for what, game, drawn, data in drawings():
        seen.add(game)
        png = Image.open(io.BytesIO(data))
        assert png.format == "PNG" and png.mode == "P", what
        assert len(png.getpalette()) <= 3 * 256, what
        decoded = png.convert("RGB")
        assert decoded.size == drawn.size, what
        mean, worst = difference(drawn, decoded)
        assert mean <= MEAN and worst <= MAX.get(game, 32), f"{what}: mean {mean:.3f}, max {worst}"
        # and where Discord shows it: 400 px wide, downscaled
        small = (400, drawn.height * 400 // drawn.width)
        mean, _ = difference(drawn.resize(small, Image.Resampling.LANCZOS),
                             decoded.resize(small, Image.Resampling.LANCZOS))
        assert mean <= MEAN_SHOWN, f"{what} at 400 px: mean {mean:.3f}"
    assert seen == {"geek_out", "geoneo", "geodeto", "geomancy"}


@pytest.mark.parametrize("game, module", [("geek_out", geek_out), ("geoneo", geoneo), ("geodeto", geodeto),
                                          ("geomancy", geomancy)])
def test_every_flat_colour_is_kept_exactly(game, module):
    """The theme's colours and the game's own map to themselves (Pillow looks a pixel up by its colour rounded
    down to a multiple of 4: ``learn_palette`` drops learned entries that would take a theme colour's pixels).
    With no dithering a pixel's entry depends on its colour only, so this holds on every board."""
    flat = list(dict.fromkeys((*THEME, *module.COLOURS)))
    probe = Image.frombytes("RGB", (len(flat), 1), b"".join(bytes(c) for c in flat))
    decoded = Image.open(io.BytesIO(encode_png(probe, render.palette(game)))).convert("RGB")
    assert decoded.tobytes() == probe.tobytes()


def test_most_of_a_board_is_unchanged():
    s = GN.new(3, {}, 4)
    view = GN.view(s, None)
    drawn = geoneo.draw_board(view, LONG[:3], LAST)
    decoded = Image.open(io.BytesIO(render_board("geoneo", view, LONG[:3], LAST))).convert("RGB")
    changed = ImageChops.difference(drawn, decoded).convert("L").point(lambda v: 255 if v else 0)
    assert changed.histogram()[255] < 0.05 * drawn.width * drawn.height


def test_palettes_are_fixed_and_learned_once():
    for game, module in (("geek_out", geek_out), ("geoneo", geoneo), ("geodeto", geodeto), ("geomancy", geomancy)):
        palette = render.palette(game)
        assert render.palette(game) is palette  # once per process
        again = learn_palette((*THEME, *module.COLOURS), module.palette_samples())
        assert again.getpalette() == palette.getpalette()  # deterministic: every worker has the same one
        assert 3 * 200 <= len(palette.getpalette()) <= 3 * 256


def test_the_same_board_encodes_to_the_same_bytes():
    view = GO.view(GO.new(3, {}, 2), None)
    assert render_board("geek_out", view, LONG[:3]) == render_board("geek_out", view, LONG[:3])


def test_learning_a_palette_is_not_recorded():
    """A process's first board learns the palette, maybe inside ``record_fonts``: the samples are not recorded,
    and what they cached (GEONEO's background, with its field numbers) is drawn and recorded again."""
    with record_texts() as texts, record_fonts() as sizes:
        learn_palette(THEME, geoneo.palette_samples())
        assert texts == [] and sizes == []
        geoneo.draw_board(GN.view(GN.new(2, {}, 1), None), LONG[:2], LAST)
    assert 34 in sizes and "A" in texts  # field numbers and column letters: the cached background's text


def test_without_a_palette_encode_png_stays_rgb():
    img = common.canvas(100)[0]
    assert Image.open(io.BytesIO(encode_png(img))).mode == "RGB"


def test_globe_twister_photos_are_sent_as_rgb():
    """Globe Twister's photos (sky gradients in six pictures) band visibly under a fixed 256-colour palette (a mean
    error of ~2 levels and a maximum of 34, against the other games' 0.3): the game declares no palette samples,
    so its boards and panels are exact RGB PNGs (docs/rendering.md, "Globe Twister")."""
    assert render.palette("globe_twister") is None and not hasattr(globe_twister, "palette_samples")
    for what, s in globe_twister_states()[::4]:
        view, who = GT.view(s, None), LONG[: s["players"]]
        for drawn, data in ((globe_twister.draw_board(view, who, LAST), render_board("globe_twister", view, who, LAST)),
                            (globe_twister.draw_private(GT.view(s, 0), who[0]),
                             render_private("globe_twister", GT.view(s, 0), who[0]))):
            png = Image.open(io.BytesIO(data))
            assert png.format == "PNG" and png.mode == "RGB", what
            assert png.tobytes() == drawn.tobytes(), what
