"""The games as the slash commands offer them (/play, /rules, /learn, /leaderboard, /stats)."""

from __future__ import annotations

from discord import app_commands

from games import all_engines, get_engine
from games.core import Engine
from render import has_board


def playable_engines() -> list[Engine]:
    """The games offered: every engine whose board can be drawn."""
    return [e for e in all_engines() if has_board(e.slug)]


GAME_CHOICES = [app_commands.Choice(name=e.title, value=e.slug) for e in playable_engines()]


def game_title(slug: str) -> str:
    """A game's name as players know it; a game no longer offered (an old result, a season's podium): its slug."""
    try:
        return get_engine(slug).title
    except KeyError:
        return slug
