"""Board rendering: our Pillow pipeline (draw + quantize to the game's fixed palette + PNG level 1) against
encode-only of the same canvas, the old RGB encoding, and an SVG -> cairosvg pipeline for the same 800 px
board. Every figure is a ratio against a baseline measured in the same run (this machine is noisy; ratios
travel), from medians of many interleaved runs after a warm-up.

    python -m benchmarks.render_bench            (cairosvg: pip install -e .[bench], needs libcairo2)

Exits 1 when the cairosvg pipeline costs less than ``CAIRO_TARGET`` (5) times our render of the same board.

The SVG document of a board is built by tracing the board's own drawing (``board_svg``): every shape the
renderer draws (panels, bars, rows, marks, stars, arrows, field tiles, rings, lines), every text (from its
cached glyph mask: string, size, anchor, bold) and every sprite (dice and pieces, with the shapes of their
icons and marks, defined once and placed with ``<use>`` each time they are pasted) becomes one SVG element,
in the same order, at the same place and size (800 x H). Text is set in DejaVu Sans (Aileron is Pillow's own
font, not the system's), so the result is not pixel-identical, but it draws the same elements. The SVG
pipeline is timed from the finished SVG text to PNG bytes (``cairosvg.svg2png``): building the text is left
out, which favours it.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from PIL import Image, ImageDraw

import render
from games.geek_out.rules import GeekOut
from games.geoneo.rules import Geoneo, shapes
from render import common, geek_out, geoneo
from render.common import encode_png

CAIRO_TARGET = 5.0
"""The issue's target: the cairosvg pipeline costs at least this many times our render of the same board."""
NAMES = ["Ana", "Bo", "Cy", "Dee"]
LAST = "Ana's Meeple rerolled a Dragon -> 42"
SVG_FONT = "DejaVu Sans"


# --- the boards ----------------------------------------------------------------------------------------
def geek_out_boards(n: int = 8) -> list[tuple]:
    """(view, names, last, focus) of 4-player Geek Out boards in play, from seeded games."""
    engine, out, seed = GeekOut(), [], 0
    while len(out) < n:
        state, pick = engine.new(4, {}, seed), random.Random(seed)
        for _ in range(6):
            if not engine.to_act(state):
                break
            out.append((engine.view(state, None), NAMES, LAST, None))
            seat = state["current"]
            state, _ = engine.apply(state, seat, pick.choice(engine.legal_actions(state, seat)).key)
        seed += 1
    return out[:n]


def geoneo_boards(n: int = 8) -> list[tuple]:
    """(view, names, last, focus) of 3-player GEONEO boards well into the game (pieces down, every phase,
    a shape being chosen), from seeded games."""
    engine, out, seed = Geoneo(), [], 0
    while len(out) < n:
        state, pick, step = engine.new(3, {}, seed), random.Random(seed), 0
        while engine.to_act(state) and len(out) < n:
            seat = min(engine.to_act(state))
            view = engine.view(state, None)
            if step >= 40 and step % 9 == 0:
                focus = None
                if state["phase"] == "clear":
                    found = shapes(state["pieces"], state["width"], view["colours"][seat])
                    if found:
                        anchor = found[0][2][0]
                        focus = {"anchor": anchor, "fields": sorted(
                            {f for _, _, corners in found if anchor in corners for f in corners if f != anchor})}
                out.append((view, NAMES[:3], "Ana places on D6.", focus))
            state, _ = engine.apply(state, seat, pick.choice(engine.legal_actions(state, seat)).key)
            step += 1
        seed += 1
    return out


MODULES = {"geek_out": geek_out, "geoneo": geoneo}


# --- the same board as SVG, traced from its drawing -------------------------------------------------------
def _colour(ink) -> tuple[str, str]:
    """(SVG paint, opacity) of a Pillow ink; ("none", "1") for None."""
    if ink is None:
        return "none", "1"
    if isinstance(ink, str):
        return ink, "1"
    if isinstance(ink, int):
        ink = (ink, ink, ink)
    alpha = ink[3] / 255 if len(ink) == 4 else 1
    return f"#{ink[0]:02x}{ink[1]:02x}{ink[2]:02x}", f"{alpha:.3g}"


def _paint(fill=None, outline=None, width: float = 0) -> str:
    f, fo = _colour(fill)
    out = f'fill="{f}"' + (f' fill-opacity="{fo}"' if fo != "1" else "")
    if outline is not None and width:
        s, so = _colour(outline)
        out += f' stroke="{s}" stroke-width="{width:g}"' + (f' stroke-opacity="{so}"' if so != "1" else "")
    return out


def _points(xy) -> list[tuple[float, float]]:
    if isinstance(xy[0], (list, tuple)):
        return [(float(p[0]), float(p[1])) for p in xy]
    return [(float(xy[i]), float(xy[i + 1])) for i in range(0, len(xy), 2)]


def _box(xy) -> tuple[float, float, float, float]:
    (x0, y0), (x1, y1) = _points(xy)[:2]
    return x0, y0, x1, y1


def _inset(xy, width: float, stroked: bool) -> tuple[float, float, float, float]:
    """Pillow draws an outline inside the box; SVG centres the stroke on the path: move it in by half."""
    x0, y0, x1, y1 = _box(xy)
    d = width / 2 if stroked else 0
    return x0 + d, y0 + d, x1 + 1 - d, y1 + 1 - d


def _svg_rect(xy, fill=None, outline=None, width=1, radius=0) -> str:
    x0, y0, x1, y1 = _inset(xy, width, outline is not None)
    r = f' rx="{radius:g}"' if radius else ""
    return (f'<rect x="{x0:g}" y="{y0:g}" width="{x1 - x0:g}" height="{y1 - y0:g}"{r} '
            f'{_paint(fill, outline, width)}/>')


def _svg_ellipse(xy, fill=None, outline=None, width=1) -> str:
    x0, y0, x1, y1 = _inset(xy, width, outline is not None)
    return (f'<ellipse cx="{(x0 + x1) / 2:g}" cy="{(y0 + y1) / 2:g}" rx="{(x1 - x0) / 2:g}" '
            f'ry="{(y1 - y0) / 2:g}" {_paint(fill, outline, width)}/>')


def _svg_polygon(points, fill=None, outline=None, width=1) -> str:
    pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    return f'<polygon points="{pts}" {_paint(fill, outline, width)}/>'


def _svg_line(xy, fill=None, width=1, joint=None) -> str:
    pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in _points(xy))
    s, so = _colour(fill)
    join = ' stroke-linejoin="round"' if joint == "curve" else ""
    return f'<polyline points="{pts}" fill="none" stroke="{s}" stroke-width="{width:g}"{join}/>'


def _svg_arc(xy, start, end, fill=None, width=1) -> str:
    x0, y0, x1, y1 = _inset(xy, width, True)
    cx, cy, rx, ry = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2, (y1 - y0) / 2
    a, b = math.radians(start), math.radians(end)
    large = 1 if (end - start) % 360 > 180 else 0
    s, _ = _colour(fill)
    return (f'<path d="M{cx + rx * math.cos(a):.1f},{cy + ry * math.sin(a):.1f} A{rx:g},{ry:g} 0 {large} 1 '
            f'{cx + rx * math.cos(b):.1f},{cy + ry * math.sin(b):.1f}" fill="none" stroke="{s}" '
            f'stroke-width="{width:g}"/>')


# where a text's anchor point sits, as a fraction of the font size below the SVG baseline position
_BASELINE = {"a": 0.93, "t": 0.72, "m": 0.36, "s": 0.0, "d": -0.21}
_ALIGN = {"l": "start", "m": "middle", "r": "end"}


def _svg_text(x: float, y: float, s: str, size: float, fill, anchor: str | None, bold: bool) -> str:
    anchor = anchor or "la"
    f, _ = _colour(fill)
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:g}" y="{y + _BASELINE.get(anchor[1], 0.93) * size:.1f}" font-family="{SVG_FONT}" '
            f'font-size="{size:g}" text-anchor="{_ALIGN.get(anchor[0], "start")}"{weight} fill="{f}">'
            f"{escape(s)}</text>")


@dataclass
class _Node:
    """An image seen while tracing: the SVG elements drawn on it, and the images placed in it."""

    image: Image.Image
    items: list = field(default_factory=list)  # str (an element) or (node, dx, dy, scale)


class _Tracer:
    def __init__(self) -> None:
        self.nodes: dict[int, _Node] = {}
        self.masks: dict[int, tuple] = {}  # id(glyph mask) -> (text, size, stroke, anchor, left, top)
        self.depth = 0
        self.untraced = 0
        self.elements = 0

    def node(self, img: Image.Image) -> _Node:
        n = self.nodes.get(id(img))
        if n is None or n.image is not img:
            n = self.nodes[id(img)] = _Node(img)
            self.untraced += 1  # an image made some way we do not trace (would be drawn as nothing)
        return n

    def add(self, img: Image.Image, element: str) -> None:
        self.node(img).items.append(element)
        self.elements += 1


@contextmanager
def _tracing() -> Iterator[_Tracer]:
    """Records what the renderers draw (outermost calls only: Pillow's own nested calls are its business)."""
    t = _Tracer()
    D, I = ImageDraw.ImageDraw, Image.Image  # noqa: E741
    saved = {(D, k): getattr(D, k) for k in ("rectangle", "rounded_rectangle", "ellipse", "polygon",
                                               "regular_polygon", "line", "arc", "bitmap", "text")}
    saved.update({(I, k): getattr(I, k) for k in ("paste", "alpha_composite", "resize", "copy")})
    saved[(Image, "new")] = Image.new
    saved[(common, "_mask")] = common._mask

    def outer(key, record):
        original = saved[key]

        def wrapper(*args, **kwargs):
            top = t.depth == 0
            t.depth += 1
            try:
                result = original(*args, **kwargs)
            finally:
                t.depth -= 1
            if top:
                record(result, *args, **kwargs)
            return result

        return wrapper

    def rectangle(_, self, xy, fill=None, outline=None, width=1):
        t.add(self._image, _svg_rect(xy, fill, outline, width))

    def rounded_rectangle(_, self, xy, radius=0, fill=None, outline=None, width=1, **__):
        t.add(self._image, _svg_rect(xy, fill, outline, width, radius))

    def ellipse(_, self, xy, fill=None, outline=None, width=1):
        t.add(self._image, _svg_ellipse(xy, fill, outline, width))

    def polygon(_, self, xy, fill=None, outline=None, width=1):
        t.add(self._image, _svg_polygon(_points(xy), fill, outline, width))

    def regular_polygon(_, self, bounding_circle, n_sides, rotation=0, fill=None, outline=None, width=1):
        pts = ImageDraw._compute_regular_polygon_vertices(bounding_circle, n_sides, rotation)
        t.add(self._image, _svg_polygon(pts, fill, outline, width))

    def line(_, self, xy, fill=None, width=0, joint=None):
        t.add(self._image, _svg_line(xy, fill, width or 1, joint))

    def arc(_, self, xy, start, end, fill=None, width=1):
        t.add(self._image, _svg_arc(xy, start, end, fill, width))

    def bitmap(_, self, xy, mask, fill=None):
        s, size, stroke, anchor, left, top = t.masks[id(mask)]
        t.add(self._image, _svg_text(xy[0] - left, xy[1] - top, s, size, fill, anchor, bool(stroke)))

    def text(_, self, xy, s, fill=None, font=None, anchor=None, *args, stroke_width=0, **kwargs):
        t.add(self._image, _svg_text(xy[0], xy[1], s, font.size, fill, anchor, bool(stroke_width)))

    def paste(_, self, im, box=None, mask=None):
        if isinstance(im, Image.Image):
            x, y = (box or (0, 0))[:2]
            t.node(self).items.append((t.node(im), x, y, 1))

    def alpha_composite(_, self, im, dest=(0, 0), source=(0, 0)):
        t.node(self).items.append((t.node(im), dest[0], dest[1], 1))

    def resize(result, self, size, *args, **kwargs):
        t.nodes[id(result)] = _Node(result, [(t.node(self), 0, 0, size[0] / self.width)])

    def copy(result, self):
        t.nodes[id(result)] = _Node(result, [(t.node(self), 0, 0, 1)])

    def new(result, mode, size, color=0, *args, **kwargs):
        node = t.nodes[id(result)] = _Node(result)
        if mode in ("RGB", "RGBA") and color and not (isinstance(color, tuple) and len(color) == 4 and
                                                      color[3] == 0):
            node.items.append(_svg_rect((0, 0, size[0] - 1, size[1] - 1), color))
            t.elements += 1

    def mask(result, s, size, stroke, anchor):
        t.masks[id(result[0])] = (s, size, stroke, anchor, result[1], result[2])

    records = {"rectangle": rectangle, "rounded_rectangle": rounded_rectangle, "ellipse": ellipse,
               "polygon": polygon, "regular_polygon": regular_polygon, "line": line, "arc": arc,
               "bitmap": bitmap, "text": text, "paste": paste, "alpha_composite": alpha_composite,
               "resize": resize, "copy": copy, "new": new, "_mask": mask}
    for (owner, name) in saved:
        setattr(owner, name, outer((owner, name), records[name]))
    for c in common._CACHES:  # sprites and backgrounds drawn again, so their shapes are seen
        c.cache_clear()
    try:
        yield t
    finally:
        for (owner, name), original in saved.items():
            setattr(owner, name, original)
        for c in common._CACHES:
            c.cache_clear()


def _emit(t: _Tracer, node: _Node, defs: dict[int, str], out: list[str]) -> None:
    for item in node.items:
        if isinstance(item, str):
            out.append(item)
            continue
        child, dx, dy, scale = item
        name = f"i{id(child)}"
        if id(child) not in defs:  # defined once, placed with <use> each time (a sprite pasted 5 times)
            defs[id(child)] = ""
            body: list[str] = []
            _emit(t, child, defs, body)
            defs[id(child)] = f'<g id="{name}">' + "".join(body) + "</g>"
        transform = f"translate({dx:g},{dy:g})" + (f" scale({scale:g})" if scale != 1 else "")
        out.append(f'<use xlink:href="#{name}" transform="{transform}"/>')


def board_svg(game: str, view: dict, names: list[str], last: str | None, focus: dict | None) -> tuple[str, int]:
    """The board as an SVG document (800 x H) with one element per thing the renderer draws, and that count."""
    with _tracing() as t:
        img = MODULES[game].draw_board(view, names, last, focus)
    assert t.untraced == 0, f"{t.untraced} images made in ways the tracer does not follow"
    defs: dict[int, str] = {}
    body: list[str] = []
    _emit(t, t.nodes[id(img)], defs, body)
    return ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{img.width}" height="{img.height}" viewBox="0 0 {img.width} {img.height}">'
            f'<defs>{"".join(defs.values())}</defs>{"".join(body)}</svg>'), t.elements


# --- timing --------------------------------------------------------------------------------------------
def measure(fns: dict[str, Callable[[], object]], rounds: int, per_round: dict[str, int] | int,
            warmup: int = 5) -> dict[str, float]:
    """Median seconds of each function, after ``warmup`` calls of each, over ``rounds`` interleaved rounds
    (each runs every function ``per_round`` times), so a slow spell of the machine hits all of them."""
    counts = per_round if isinstance(per_round, dict) else dict.fromkeys(fns, per_round)
    for fn in fns.values():
        for _ in range(warmup):
            fn()
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            for _ in range(counts[name]):
                t0 = time.perf_counter()
                fn()
                samples[name].append(time.perf_counter() - t0)
    return {name: statistics.median(s) for name, s in samples.items()}


def cycle(items: list) -> Callable[[], object]:
    """The next item each call (the boards change from run to run, as in play)."""
    k = iter(range(10**12))
    return lambda: items[next(k) % len(items)]


def bench_game(game: str, boards: list[tuple], cairosvg) -> dict:
    module = MODULES[game]
    palette = render.palette(game)
    canvases = [module.draw_board(*b) for b in boards]
    nb, nc = cycle(boards), cycle(canvases)
    fns = {
        "render": lambda: render.render_board(game, *nb()),  # draw + quantize + encode
        "encode": lambda: encode_png(nc(), palette),  # quantize + encode of a finished canvas
        "rgb_encode": lambda: encode_png(nc()),  # the old encoding
        "old_render": lambda: encode_png(module.draw_board(*nb())),  # draw + the old encoding
    }
    per_round = {"render": 10, "encode": 10, "rgb_encode": 4, "old_render": 4}
    svgs = []
    if cairosvg is not None:
        svgs = [board_svg(game, *b) for b in boards]
        docs = cycle([s for s, _ in svgs])
        fns["cairosvg"] = lambda: cairosvg.svg2png(bytestring=docs().encode())
        per_round["cairosvg"] = 2
    times = measure(fns, rounds=15, per_round=per_round)
    sizes = {
        "palette": statistics.mean(len(encode_png(c, palette)) for c in canvases),
        "rgb": statistics.mean(len(encode_png(c)) for c in canvases),
    }
    if svgs:
        sizes["cairosvg"] = statistics.mean(len(cairosvg.svg2png(bytestring=s.encode())) for s, _ in svgs)
    return {"times": times, "sizes": sizes, "width": canvases[0].width, "height": canvases[0].height,
            "elements": statistics.mean(n for _, n in svgs) if svgs else None}


def main() -> int:
    try:
        import cairosvg
    except (ImportError, OSError) as e:  # OSError: libcairo2 missing
        print(f"cairosvg unavailable ({e}): pip install -e .[bench] (needs libcairo2); SVG figures skipped")
        cairosvg = None
    render.warm_up()
    figures = []
    for game, boards in (("geek_out", geek_out_boards()), ("geoneo", geoneo_boards())):
        r = bench_game(game, boards, cairosvg)
        t, s = r["times"], r["sizes"]
        print(f"{game}: {r['width']} x {r['height']} px; render {t['render'] * 1e3:.2f} ms (draw + quantize + PNG), "
              f"encode-only {t['encode'] * 1e3:.2f} ms, old RGB encode {t['rgb_encode'] * 1e3:.2f} ms, "
              f"old render {t['old_render'] * 1e3:.2f} ms"
              + (f", cairosvg {t['cairosvg'] * 1e3:.2f} ms ({r['elements']:.0f} SVG elements)" if cairosvg else ""))
        print(f"{'':9} PNG bytes: palette {s['palette']:.0f}, RGB {s['rgb']:.0f}"
              + (f", cairosvg {s['cairosvg']:.0f}" if cairosvg else ""))
        figures.append((f"{game}: render / encode-only of the same canvas", t["render"], t["encode"], None))
        figures.append((f"{game}: old RGB encode / palette encode", t["rgb_encode"], t["encode"], None))
        figures.append((f"{game}: old render (draw + RGB) / render", t["old_render"], t["render"], None))
        if cairosvg is not None:
            figures.append((f"{game}: SVG -> cairosvg / render", t["cairosvg"], t["render"], CAIRO_TARGET))
    print()
    print(f"{'figure':52} {'ratio':>7} {'target':>7}   (measured ms / baseline ms)")
    ok = True
    for name, value, base, target in figures:
        ratio = value / base
        good = target is None or ratio >= target
        ok &= good
        shown = "-" if target is None else f">={target:g}"
        print(f"{name:52} {ratio:7.2f} {shown:>7}   ({value * 1e3:.3f} / {base * 1e3:.3f})"
              + ("" if good else "   BELOW TARGET"))
    print(json.dumps({n: round(v / b, 3) for n, v, b, _ in figures}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
