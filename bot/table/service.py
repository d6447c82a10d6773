"""The table service: everything that happens to one channel's game, with no Discord types.

Every change goes the same way: take the channel's lock, load the table (cache, else the store), check who asks
and whether the screen they clicked is current, let the engine apply the action, commit state, version,
action log and deadline in one transaction, and only then hand back what changed (a :class:`Change`, with its
board already being drawn) so the caller can show it. A failed check raises :class:`Refused` (one of the
kinds of bot/table/refusals.py) and changes nothing.

The facade's calls, and the module each concern lives in:
- ``open_lobby``, ``lobby`` (a lobby's buttons), ``rematch``: bot/table/lobby.py;
- ``act`` (a move), ``pick`` (the first step of a two-step choice): bot/table/moves.py;
- ``leave``, ``hand_over``, ``end``: bot/table/departures.py;
- a turn-based table's pace, reminders and timeouts, ``go_away``, ``come_back``: bot/table/clock.py;
- ``fire_due``, ``next_deadline``, ``sleep_until_woken``: bot/table/timers.py;
- the computers' moves (started by ``fire_due``, shown through ``show``): bot/table/thinking.py;
- ``open_seated`` (a tournament's table, its players seated, no lobby): bot/table/seated.py;
- ``get``, ``in_channel``, ``settings``, ``language``, ``render``: bot/table/core.py.
"""

from __future__ import annotations

from bot.table.clock import Clock
from bot.table.core import TableCore
from bot.table.departures import Departures
from bot.table.lobby import Lobby
from bot.table.model import Change
from bot.table.moves import Moves
from bot.table.refusals import Refusal, Refused
from bot.table.seated import Seated
from bot.table.thinking import Thinking
from bot.table.timers import Timers

__all__ = ["Change", "Refusal", "Refused", "TableService"]


class TableService(Lobby, Seated, Moves, Departures, Timers, Thinking, Clock, TableCore):
    """One object per process; its parts share the core's cache, locks and store."""
