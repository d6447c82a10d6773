"""The daily puzzle's game (issue 28 item 3): the bot asks this module, never a game by name (bot/ names no game,
tests/bot/test_no_game_names.py). Today it is Globe Twister's solo puzzle (games/globe_twister/daily.py)."""

from games.globe_twister.daily import GAME, dress, puzzle_of, step

__all__ = ["GAME", "dress", "puzzle_of", "step"]
