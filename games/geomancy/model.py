"""The casting model of Geomancy (docs/rules/geomancy.md, "The casting model").

At a real table casting is a dexterity act; here each stone's fall is drawn from the game's seeded
:class:`games.core.Rng`, so every cast replays exactly. The caster's skill is the aim (a square); the luck is
the scatter around it, the heading, a stone landing upright or off the board, and knocks.

Coordinates: the board is the square ``[0, 8) x [0, 8)`` measured in squares. ``x`` runs along the files
(a-h), ``y`` along the ranks (1-8). Square ``i`` is file ``i % 8``, rank ``i // 8`` (0 is a1, 63 is h8) and
covers ``[file, file + 1) x [rank, rank + 1)``. Headings are compass bearings in degrees, clockwise from
north (north points towards rank 8).

One stone's throw draws exactly four uniforms, in this order: two for the scatter (Box-Muller), one for the
heading, one for landing upright. Each knock check draws one more. Nothing else touches the generator.
"""

from __future__ import annotations

import math

SIZE = 8
SQUARES = SIZE * SIZE
FILES = "abcdefgh"
HEIGHTS = ("low", "medium", "high")

SCATTER = {"low": 0.45, "medium": 0.8, "high": 1.25}
"""Standard deviation (in squares) of the landing point around the aimed square's centre, per axis."""
UPRIGHT = {"low": 0.05, "medium": 0.08, "high": 0.12}
"""Chance that a stone lands pointing up (it is recast)."""
KNOCK_RADIUS = 0.9
"""A stone on the board whose square's centre lies within this distance (in squares) of a landing point
may be knocked."""
KNOCK_PER_PIP = {"low": 0.05, "medium": 0.08, "high": 0.12}
"""Chance per pip of the landing stone that it knocks one stone within the radius (small / medium / large
stones: 1, 2, 3 times this)."""

DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
"""(file step, rank step) of the eight directions, clockwise from north."""
DIR_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DIR_ARROWS = ("↑", "↗", "→", "↘", "↓", "↙", "←", "↖")


# --- squares and directions -------------------------------------------------------------------------------
def square_name(square: int) -> str:
    """0 -> "a1", 63 -> "h8"."""
    return f"{FILES[square % SIZE]}{square // SIZE + 1}"


SQUARE_NAMES = tuple(square_name(i) for i in range(SQUARES))


def parse_square(name: str) -> int:
    """ "e4" -> 28."""
    name = name.strip().lower()
    if len(name) != 2 or name[0] not in FILES or name[1] not in "12345678":
        raise ValueError(f"not a square: {name!r}")
    return (int(name[1]) - 1) * SIZE + FILES.index(name[0])


def centre(square: int) -> tuple[float, float]:
    return square % SIZE + 0.5, square // SIZE + 0.5


def square_at(x: float, y: float) -> int | None:
    """The square holding the point, or None off the board (a point on a line belongs to the square above
    or to the right of it)."""
    if not (0.0 <= x < SIZE and 0.0 <= y < SIZE):
        return None
    return int(y) * SIZE + int(x)


def _step(square: int, direction: int, k: int) -> int | None:
    dx, dy = DIRECTIONS[direction]
    f, r = square % SIZE + k * dx, square // SIZE + k * dy
    if 0 <= f < SIZE and 0 <= r < SIZE:
        return r * SIZE + f
    return None


STEPS = tuple(tuple(tuple(_step(square, d, k) for k in range(SIZE)) for d in range(len(DIRECTIONS)))
              for square in range(SQUARES))
"""``STEPS[square][direction][k]`` is ``step(square, direction, k)`` for 0 <= k < 8, looked up (the auras
and the computer step along rays in their innermost loops)."""


def step(square: int, direction: int, k: int = 1) -> int | None:
    """The square ``k`` steps from ``square`` in ``direction``, or None off the board."""
    if 0 <= k < SIZE:
        return STEPS[square][direction][k]
    return _step(square, direction, k)


def nearest_direction(heading: float) -> int:
    """The nearest of the eight directions to a bearing (a bearing exactly between two goes clockwise)."""
    return int(((heading + 22.5) % 360.0) // 45.0) % 8


def bearing(dx: float, dy: float) -> float:
    """The compass bearing of a vector (degrees clockwise from north, in [0, 360))."""
    return math.degrees(math.atan2(dx, dy)) % 360.0


# --- one throw --------------------------------------------------------------------------------------------
def gauss_pair(rng) -> tuple[float, float]:
    """Two independent standard normals from two uniforms (Box-Muller)."""
    u1, u2 = rng.uniform(), rng.uniform()
    r = math.sqrt(-2.0 * math.log(1.0 - u1))
    return r * math.cos(2.0 * math.pi * u2), r * math.sin(2.0 * math.pi * u2)


def throw(rng, aim: int, height: str) -> dict:
    """Where one stone aimed at square ``aim`` falls from ``height``: ``{"x", "y", "heading", "upright"}``.
    A point off the board means the stone landed off the board."""
    sigma = SCATTER[height]
    zx, zy = gauss_pair(rng)
    cx, cy = centre(aim)
    heading = rng.uniform() * 360.0
    upright = rng.uniform() < UPRIGHT[height]
    return {"x": cx + sigma * zx, "y": cy + sigma * zy, "heading": heading, "upright": upright}


def knock_chance(height: str, pips: int) -> float:
    return KNOCK_PER_PIP[height] * pips


def knock_candidates(x: float, y: float, squares: list[tuple[int, int]]) -> list[int]:
    """Of ``(stone, square)`` pairs on the board, the stones within the knock radius of the point ``(x, y)``,
    nearest first (then by id)."""
    near = []
    for stone, square in squares:
        cx, cy = centre(square)
        d = math.hypot(cx - x, cy - y)
        if d <= KNOCK_RADIUS:
            near.append((d, stone))
    return [stone for _, stone in sorted(near)]


def knock_direction(x: float, y: float, square: int, heading: float) -> int:
    """A knocked stone slides away from the landing point: the nearest direction from the point to its
    square's centre (a stone hit dead centre slides the way the landing stone points)."""
    cx, cy = centre(square)
    if cx == x and cy == y:
        return nearest_direction(heading)
    return nearest_direction(bearing(cx - x, cy - y))


# --- the figures, analytically (for the documentation and the statistical tests) ----------------------------
def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def _axis(lo: float, hi: float, mean: float, sigma: float) -> float:
    return _phi((hi - mean) / sigma) - _phi((lo - mean) / sigma)


def square_probability(aim: int, target: int, height: str) -> float:
    """The chance that a stone aimed at ``aim`` lands (its point) in ``target``, upright or not."""
    sigma = SCATTER[height]
    cx, cy = centre(aim)
    f, r = target % SIZE, target // SIZE
    return _axis(f, f + 1, cx, sigma) * _axis(r, r + 1, cy, sigma)


def block_probability(aim: int, height: str, radius: int = 1) -> float:
    """The chance that a stone aimed at ``aim`` lands within ``radius`` squares of it (king steps; 1: the
    aimed square or a neighbour), counting only squares on the board."""
    sigma = SCATTER[height]
    cx, cy = centre(aim)
    f, r = aim % SIZE, aim // SIZE
    lo_f, hi_f = max(0, f - radius), min(SIZE, f + radius + 1)
    lo_r, hi_r = max(0, r - radius), min(SIZE, r + radius + 1)
    return _axis(lo_f, hi_f, cx, sigma) * _axis(lo_r, hi_r, cy, sigma)


def off_board_probability(aim: int, height: str) -> float:
    """The chance that a stone aimed at ``aim`` lands off the board."""
    sigma = SCATTER[height]
    cx, cy = centre(aim)
    return 1.0 - _axis(0, SIZE, cx, sigma) * _axis(0, SIZE, cy, sigma)


def within_radius_probability(height: str, radius: float = KNOCK_RADIUS) -> float:
    """The chance that a landing point lies within ``radius`` of the aimed square's centre (Rayleigh)."""
    sigma = SCATTER[height]
    return 1.0 - math.exp(-radius * radius / (2.0 * sigma * sigma))


def expected_distance(height: str) -> float:
    """The mean distance of a landing point from the aimed square's centre (sigma * sqrt(pi / 2))."""
    return SCATTER[height] * math.sqrt(math.pi / 2.0)
