"""Refusals: why a click or a command changed nothing, as a small set of kinds (``Refusal``, after
boardgame.io's error kinds), each with its words, and the one exception that carries one (``Refused``).

The table service raises ``Refused``; the bot answers it in one place (bot/ui/refusals.py, called by the
client's click dispatcher and its slash-command error handler), ephemeral, in the member's language. A raise
gives the kind and, where the situation says more than the kind's own words, a sentence of its own (a
``Text``); or parameters for the kind's words (``Refused(Refusal.LOBBY_FULL, n=4)``). No Discord types."""

from __future__ import annotations

import enum

from i18n import Text, _


class Refusal(enum.Enum):
    """The kinds of refusal; each member's value is its words (a ``Text``, placeholders filled by the raise)."""

    NO_GAME = _("This board is gone: there is no such game.")
    """The table the click or command names does not exist (any more)."""
    NOT_STARTED = _("The game has not started yet.")
    """A move, a pick or a hand-over while the table is still a lobby."""
    LOBBY_CLOSED = _("This lobby is closed.")
    """A lobby's button once the lobby started its game or was closed."""
    GAME_OVER = _("This game is over.")
    """The table finished or was closed."""
    STALE = _("This board is out of date; here is the current one.")
    """The click was made on an outdated screen (bot/table/staleness.py): the cog brings the screen up to date."""
    NOT_A_PLAYER = _("You are not playing at this table.")
    """The member (or the one a moderator names) has no seat that may do this."""
    NOT_HOST = _("Only the host can start the game.")
    """A lobby decision that is the host's."""
    NOT_YOUR_TURN = _("It is not your turn: waiting for {players}.")
    """A seated player's move while others are to act (``players``: their names)."""
    ILLEGAL_MOVE = _("That choice is not available now.")
    """The game's rules or the lobby refuse that choice (an engine's ``RulesError`` in its own words)."""
    ALREADY_SEATED = _("You are already seated at this table.")
    LOBBY_FULL = _("The table is full ({n} players).")
    TOO_FEW_PLAYERS = _("{game} needs at least {n} players.")
    BAD_OPTIONS = _("These options can't be used for this game.")
    """/play's options (the game's own, the computers and their strength) make no table."""
    CHANNEL_BUSY = _("A game is already open in this channel.")
    """A channel holds one open table at a time."""
    CHANNEL_NOT_ALLOWED = _("Games can't be started in this channel. {rules}")
    """The server's channel rules (``rules``: where games may be started)."""
    NO_REMATCH = _("This game was closed before its end, so it has no rematch. /play opens a new table.")
    """A rematch of a game that has none (not over, closed early, or a newer game came after it)."""

    @property
    def words(self) -> Text:
        return self.value


class Refused(Exception):
    """A refusal of ``kind``: nothing changed. ``text``: a sentence more specific than the kind's words (a
    ``Text``, said in the member's language when shown); else the kind's words with ``params`` filled."""

    def __init__(self, kind: Refusal, text: str | None = None, **params):
        self.kind = kind
        self.text = text if text is not None else (kind.words.with_params(**params) if params else kind.words)
        super().__init__(self.text)

    def __str__(self) -> str:
        return self.text  # the Text itself (``str(exc)`` keeps it, so it can still be translated)
