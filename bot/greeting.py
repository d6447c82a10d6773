"""The hello: what a newcomer needs first (how a game starts, where the rules are). The bot says it when it
joins a server and on /help (bot/cogs/help.py); the playground's page shows it too. Pure (i18n only)."""

from __future__ import annotations

import i18n
from i18n import _


def command(name: str) -> i18n.Text:
    """A slash command's name as members of a language see it in Discord (the ``commands`` catalog)."""
    return i18n.Text(name, context="command name")


def hello() -> i18n.Text:
    return _("Hello! I'm Geotable: I host Geek Out! Masters, GEONEO, Geodeto, Geomancy and Globe Twister here. "
             "Start a game in any channel with `/{play}` (it opens a table others join with a click); `/{rules}` "
             "explains a game and `/{learn}` teaches it step by step. `/{help}` shows this again.",
             play=command("play"), rules=command("rules"), learn=command("learn"), help=command("help"))
