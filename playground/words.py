"""The playground page's own words (its welcome, hints and status line, and the Discord client's words around the
messages), in the catalogs' ``playground`` area like every word a player reads. The server sends them in every
language with its hello (server.py); the page says them in the language picked above (static/app.js ``t``),
filling each ``{placeholder}`` with a name, a command as the page's Discord names it, or a button."""

from __future__ import annotations

import i18n
from i18n import N_

WORDS = (
    # the welcome at the top of every channel
    N_("Welcome to #{channel}!"),
    N_("New here? A first game in three steps:"),
    N_("You play as {me}. Type {play} in the message box below, pick it with Enter and press Enter again: a "
       "lobby opens."),
    N_("The other members under {play_as} ({others}) are the other players: click one to play as them and press "
       "{join} on the lobby. Back as {host}, press {start}."),
    N_("Take each turn with the board's buttons, as whoever is to act (the board says who)."),
    N_("How a game is played: {rules}. Every command: type {slash}. {spectators} only watches; {moderators} is a "
       "moderator ({mod})."),
    N_("a member"),
    N_("the host"),
    N_("Put it in the message box"),
    # the page around the channel
    N_("Play as"),
    N_("player"),
    N_("spectator"),
    N_("moderator"),
    N_("The real Geotable bot, against a loopback Discord. Type {slash} for its commands."),
    N_("The language of every member's Discord and of the server: the bot answers in it"),
    N_("Restart bot"),
    N_("Stop the bot process and start it again on the same database"),
    N_("{bot} online"),
    N_("starting…"),
    N_("restarting…"),
    N_("bot offline"),
    N_("playground stopped"),
    N_("The playground is not running; this page reconnects when it is back."),
    # the message box
    N_("Message #{channel} (type / for commands)"),
    N_("Commands: {bot}"),
    N_("Enter to send, Esc to cancel"),
    N_("Cancel"),
    N_("Fill in {options} first."),
    N_("No command of the bot is called that: type / to see them all."),
    N_("The bot has not registered any command yet."),
    N_("True"),
    N_("False"),
    # what Discord's client writes around a message
    N_("{member} used {command}"),
    N_("{member} clicked on {message}"),
    N_("a message"),
    N_("Today at {time}"),
    N_("{bot} is thinking"),
    N_("(edited)"),
    N_("Only you can see this"),
    N_("Dismiss message"),
    N_("This interaction failed"),
    N_("This interaction failed: {error}"),
    N_("Make a selection"),
    N_("Done"),
)
BUTTONS = {"join": "Join", "start": "Start"}
"""The lobby's buttons the welcome names, as the bot labels them (their translations are the bot's)."""


def words(locale: str) -> dict[str, str]:
    """Every word of the page in ``locale`` (English: their own), placeholders kept for the page to fill; the
    lobby's buttons under ``button:join`` and ``button:start``."""
    said = {w: i18n.localize(i18n.Text(w), locale) for w in WORDS}
    said.update({f"button:{key}": i18n.localize(i18n.pgettext("button", label), locale)
                 for key, label in BUTTONS.items()})
    return said
