"""Tables in threads of their own (issue 27), the pure part: whether /play opens one, and its name. The Discord
side (making the thread, the parent channel's lines, archived and deleted threads) is bot/threads.py."""

from __future__ import annotations

import i18n
from bot.store.records import GuildSettings

DEFAULT_LIVE = False
"""A live table opens in the channel itself unless asked (the game is played now, where people talk)."""
DEFAULT_TURN_BASED = True
"""A turn-based table opens in a thread of its own unless asked: it lasts days, and many can share a channel."""
NAME_LIMIT = 100
"""Discord's longest thread name."""


def wants_thread(settings: GuildSettings, asked: bool | None, turn_based: bool) -> bool:
    """Whether /play opens the table in a new thread: what the player asked (``thread:yes|no``), else the
    server's setting for this pace (``/mod threads``), else the bot's default (threads for turn-based tables)."""
    if asked is not None:
        return asked
    server = settings.threads_turn_based if turn_based else settings.threads_live
    if server is not None:
        return server
    return DEFAULT_TURN_BASED if turn_based else DEFAULT_LIVE


def thread_name(title: str, table_id: int, lang: str = i18n.DEFAULT) -> str:
    """"GEONEO · table 42": the game and the table number, as the board's title says them."""
    return i18n.say(lang, "{game} · table {table}", game=title, table=table_id)[:NAME_LIMIT]


def threads_sentence(settings: GuildSettings) -> i18n.Text:
    """What ``/mod threads`` says: where /play opens live and turn-based tables when the player does not say."""
    live = wants_thread(settings, None, turn_based=False)
    slow = wants_thread(settings, None, turn_based=True)
    if live and slow:
        return i18n._("/play opens every table in a thread of its own unless the player says `thread:no`.")
    if slow:
        return i18n._("/play opens turn-based tables in a thread of their own and live tables in the channel, unless "
                      "the player says `thread:yes` or `thread:no`.")
    if live:
        return i18n._("/play opens live tables in a thread of their own and turn-based tables in the channel, unless "
                      "the player says `thread:yes` or `thread:no`.")
    return i18n._("/play opens every table in the channel itself unless the player says `thread:yes`.")
