"""The table: one channel's game, from its lobby to its standings.

- ``service``: the facade (``TableService``) over the parts below, each owning one concern:
  ``core`` (cache, locks, settings, loading), ``lobby``, ``moves``, ``departures``, ``timers``, ``thinking``
  (the computers' moves);
- ``model``: the table in memory, a ``Change``;
- ``refusals``: why nothing changed, a small set of kinds with their words (``Refusal``, ``Refused``);
- ``staleness``: which clicks on older screens still count (pure);
- ``choices``: how legal moves are offered, buttons or a two-step choice (pure);
- ``seating``: who sits where, lobby and rematch (pure);
- ``words``: board views, seat names and endings in words (pure);
- ``recent``: the log lines a table keeps and the latest moves its message shows (pure).
"""
