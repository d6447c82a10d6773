"""The table: one channel's game, from its lobby to its standings (issue 25 moves the service in here).

- ``words``: what a table says and shows (board views, names, endings), pure;
- ``seating``: who sits where (lobby, rematch), pure.
The service itself (locks, moves, deadlines, computers) is still bot/tables.py.
"""
