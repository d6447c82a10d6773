"""Worker processes: everything CPU-heavy runs here, never on the bot's event loop.

- ``pool``: the processes and their transport (pickled calls over socket pairs), shared by both kinds;
- ``renderpool``: boards, cards, rule pages, leaderboards and replays (Pillow);
- ``thinkpool``: the computers' decisions and the lessons' coach (games/play.py, games/coach.py).
"""
