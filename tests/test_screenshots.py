"""The README's pictures (docs/screenshots, taken by ``python -m playground.screenshots``): every one it shows is
there, is a real PNG of a desktop's or a phone's width, and stays small (the repository carries them)."""

import re
from pathlib import Path

from PIL import Image

from playground.screenshots import GAMES, VIEWPORTS

ROOT = Path(__file__).parents[1]


def test_the_readme_shows_each_games_table_on_a_desktop_and_a_phone():
    shown = set(re.findall(r"\]\((docs/screenshots/[\w-]+\.png)\)", (ROOT / "README.md").read_text()))
    wanted = {f"docs/screenshots/{game}-{size}.png" for game in GAMES for size in VIEWPORTS}
    assert shown == wanted
    for name in sorted(shown):
        path = ROOT / name
        assert path.stat().st_size < 80_000, f"{name} is {path.stat().st_size} bytes"
        with Image.open(path) as image:
            size = name.rsplit("-", 1)[1].removesuffix(".png")
            assert image.format == "PNG" and image.width <= VIEWPORTS[size]["width"]
            assert image.height > 300  # the whole table message, not an empty crop
