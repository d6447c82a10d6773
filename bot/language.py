"""Which language a message is in: the one place that decides it.

- What only one member sees (an ephemeral answer, a refusal, their private panel or hand) is in the member's
  own language: their Discord client's (``interaction.locale``), :func:`member_language`.
- What the channel sees (a lobby, a board and its image, standings, timeouts, announcements) is in the
  server's language, :func:`server_language`: the one a moderator chose with ``/mod language``
  (``GuildSettings.language``), else the server's own Discord language (its preferred locale, which Discord
  sends with the guild and with each interaction as ``guild_locale``).

Anything Geotable does not speak is English (``i18n.pick``). The table service (no Discord types) asks
:func:`choose` through ``TableService.language`` for what it stores in words (a table's last move).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import i18n

if TYPE_CHECKING:
    import discord

    from bot.table.service import TableService

CHOICES = {"en": "English", "de": "Deutsch", "es": "Español"}
"""The languages a moderator can choose (each in its own words), besides following the server's."""
FOLLOW = "server"
"""``/mod language``'s choice "follow the server's Discord language" (the setting cleared)."""


def member_language(interaction: discord.Interaction) -> str:
    """The language of what only this member sees: their Discord client's."""
    return i18n.pick(getattr(interaction, "locale", None))


def choose(setting: str | None, discord_locale: object | None) -> str:
    """A server's language from its ``/mod language`` setting (None: not set) and its Discord locale."""
    if setting and setting in i18n.LOCALES:
        return setting
    return i18n.pick(discord_locale)


def guild_locale(guild: discord.Guild | None) -> object | None:
    """The server's own Discord language (its "preferred locale", Community servers choose it)."""
    return getattr(guild, "preferred_locale", None)


async def server_language(service: TableService, guild: discord.Guild | int | None,
                          discord_locale: object | None = None) -> str:
    """The language of what the channel sees in ``guild`` (a guild or its id): the ``/mod language`` setting
    (cached with the server's other settings), else ``discord_locale`` (an interaction's ``guild_locale``)
    or the server's preferred locale as the client knows it."""
    guild_id = getattr(guild, "id", guild)
    if guild_id is None:
        return i18n.pick(discord_locale)
    if discord_locale is None:
        discord_locale = guild_locale(guild) if not isinstance(guild, int) else service.discord_locale(guild_id)
    return choose((await service.settings(guild_id)).language, discord_locale)


async def channel_language(interaction: discord.Interaction) -> str:
    """:func:`server_language` for what the channel sees in answer to ``interaction`` (a public reply, its
    image)."""
    return await server_language(interaction.client.service, interaction.guild_id, interaction.guild_locale)
