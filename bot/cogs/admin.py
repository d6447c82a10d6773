"""Moderator commands: end a game, remove a player, the turn timeout, the channels games may use and how long
finished games are kept.

Hidden from members without the permission (default_permissions) and checked again when run, since
server admins can change who sees a command.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.app_commands.transformers import UnionChannelTransformer
from discord.ext import commands

import i18n
from bot import language as languages
from bot.cogs.play import PACE_CHOICES
from bot.store import GuildSettings
from bot.table import pace as paces
from bot.table.threads import threads_sentence
from bot.table.words import channels_sentence
from bot.ui.say import say
from i18n import _, ngettext

GameChannel = discord.TextChannel | discord.Thread | discord.ForumChannel | discord.VoiceChannel
"""Where a game can be played: text channels (and announcement ones), threads, forums (their posts are
threads) and voice channels' text chat. Discord's picker offers only these."""


class GameChannels(UnionChannelTransformer):
    """The option for a ``GameChannel``, offering the kinds Discord's API spec lists: discord.py would add media
    channels (16) for ``ForumChannel``, a value the spec's ``ChannelTypes`` does not list, and a sync that
    Discord refuses leaves the server with no commands at all."""

    def __init__(self):
        super().__init__(discord.TextChannel, discord.Thread, discord.ForumChannel, discord.VoiceChannel)

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return [kind for kind in super().channel_types if kind is not discord.ChannelType.media]


class Admin(commands.Cog):
    mod = app_commands.Group(
        name="mod", description="Moderate Geotable games", guild_only=True,
        default_permissions=discord.Permissions(manage_messages=True),
    )

    def __init__(self, bot):
        self.bot = bot
        self.service = bot.service

    @property
    def tables(self):
        return self.bot.get_cog("Tables")

    @mod.command(name="end", description="End this channel's game now")
    @app_commands.describe(reason="Why (shown in the channel)")
    @app_commands.checks.has_permissions(manage_messages=True)
    async def end(self, interaction: discord.Interaction, reason: str) -> None:
        table = await self.tables.table_here(interaction)
        change = await self.service.end(table, f"{reason[:300]} (by {interaction.user.display_name})")
        await say(interaction, _("The game is ended."))
        await self.tables.boards.publish(change)

    @mod.command(name="remove", description="Remove a player from this channel's game")
    @app_commands.describe(player="The player to take out of the game (it goes on without them, if it can)")
    @app_commands.checks.has_permissions(manage_messages=True)
    async def remove(self, interaction: discord.Interaction, player: discord.User) -> None:
        table = await self.tables.table_here(interaction)
        change = await self.service.leave(table, player.id, by=interaction.user.display_name)
        await say(interaction, _("{name} was removed.", name=player.display_name))
        await self.tables.boards.publish(change)

    @mod.command(name="computer", description="Hand a player's seat in this channel's game to a computer")
    @app_commands.describe(player="The (idle) player whose seat a computer plays from now on")
    @app_commands.checks.has_permissions(manage_messages=True)
    async def computer(self, interaction: discord.Interaction, player: discord.User) -> None:
        table = await self.tables.table_here(interaction)
        change = await self.service.hand_over(table, player.id, by=interaction.user.display_name)
        said = (_("{name} was the last person at the table, so the game ended.", name=player.display_name)
                if change.closed else _("A computer plays {name}'s seat now.", name=player.display_name))
        await say(interaction, said)
        await self.tables.boards.publish(change)

    @mod.command(name="timeout", description="Set how long a player may think before the table plays for them")
    @app_commands.describe(seconds="30 to 86400; 0: the bot's default; left out: show the setting")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def timeout(self, interaction: discord.Interaction,
                      seconds: app_commands.Range[int, 0, 86400] | None = None) -> None:
        settings = await self.service.settings(interaction.guild_id)
        default = self.service.defaults.turn_timeout
        if seconds is None:  # the bare command looks the setting up, changing nothing
            await say(interaction, timeout_shown_sentence(settings.turn_timeout, default))
            return
        if 0 < seconds < MIN_TURN_TIMEOUT:
            await say(interaction, _("A turn timeout is 30 seconds at least (0: the bot's default)."))
            return
        settings.turn_timeout = seconds or None
        await self.service.save_settings(settings)
        shown = seconds or default
        await say(interaction, ngettext("Turn timeout is now {n} second (from the next move on).",
                                         "Turn timeout is now {n} seconds (from the next move on).", shown,
                                         n=i18n.number(shown)))

    @mod.command(name="pace", description="The pace of new tables here, the longest allowed, and /game away's limit")
    @app_commands.describe(default="The pace a new table gets unless /play says otherwise",
                           longest="The longest time per move a table may have",
                           away_days="The most days a member may be away (/game away), 1 to 60")
    @app_commands.choices(
        default=[app_commands.Choice(name=words, value=name) for name, words in PACE_CHOICES.items()],
        longest=[app_commands.Choice(name=words, value=name) for name, words in PACE_CHOICES.items()
                 if name != "live"])
    @app_commands.checks.has_permissions(manage_guild=True)
    async def pace(self, interaction: discord.Interaction, default: str | None = None, longest: str | None = None,
                   away_days: app_commands.Range[int, 1, paces.AWAY_MOST] | None = None) -> None:
        settings = await self.service.settings(interaction.guild_id)
        if default is not None or longest is not None or away_days is not None:  # bare: shows, changes nothing
            refused = pace_refused(default, longest)
            if refused:
                await say(interaction, refused)
                return
            if longest is not None:
                settings.pace_max = paces.PACE_NAMES[longest]
            if default is not None:
                settings.pace_default = paces.PACE_NAMES[default]
            if (settings.pace_default or 0) > paces.longest(settings):
                await say(interaction, _("The default pace can't be longer than the longest allowed ({time}).",
                                         time=paces.per_move_words(paces.longest(settings))))
                return
            if away_days is not None:
                settings.away_max = away_days
            await self.service.save_settings(settings)
        await say(interaction, pace_sentence(settings))

    @mod.command(name="retention", description="Keep finished games for this many days, then delete them")
    @app_commands.describe(days="1 to 3650 days; 0: keep them until a limit is set; left out: show the setting")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def retention(self, interaction: discord.Interaction,
                        days: app_commands.Range[int, 0, 3650] | None = None) -> None:
        settings = await self.service.settings(interaction.guild_id)
        if days is None:  # the bare command looks the setting up, changing nothing
            await say(interaction, retention_shown_sentence(settings.retention_days))
            return
        settings.retention_days = days or None
        await self.service.save_settings(settings)
        self.bot.wake_pruning()
        await say(interaction, retention_set_sentence(settings.retention_days))

    @mod.command(name="daily", description="When the daily puzzle's day turns and where its board is posted")
    @app_commands.describe(reset="The hour (UTC, 0 to 23) the day turns; left out: as it is",
                           channel="Where each finished day's board is posted",
                           off="True: post no board")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def daily(self, interaction: discord.Interaction, reset: app_commands.Range[int, 0, 23] | None = None,
                    channel: discord.TextChannel | None = None, off: bool = False) -> None:
        await self.bot.get_cog("Daily").moderate(interaction, reset, channel, off)  # bot/cogs/daily.py

    season = app_commands.Group(name="season", description="A season: its own ladder per game, then a hall of fame",
                                parent=mod)

    @season.command(name="start", description="Start a season: rated games count for its own ladder until it ends")
    @app_commands.describe(name="The season's name (shown on its ladder and in the hall of fame)",
                           weeks="How long it runs, 1 to 52 weeks", channel="Where its hall of fame is posted "
                           "(this channel when left out)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def season_start(self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 40],
                           weeks: app_commands.Range[int, 1, 52], channel: discord.TextChannel | None = None) -> None:
        await self.bot.get_cog("Seasons").start(interaction, name, weeks, channel)  # bot/cogs/seasons.py

    @season.command(name="end", description="End the running season now and post its hall of fame")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def season_end(self, interaction: discord.Interaction) -> None:
        await self.bot.get_cog("Seasons").end(interaction)

    @season.command(name="show", description="The running season: its name, its end and its rated games")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def season_show(self, interaction: discord.Interaction) -> None:
        await self.bot.get_cog("Seasons").show(interaction)

    @mod.command(name="language", description="The language of this server's game messages and boards")
    @app_commands.describe(language="The language; left out: show the setting")
    @app_commands.choices(language=[*(app_commands.Choice(name=name, value=code)
                                      for code, name in languages.CHOICES.items()),
                                    app_commands.Choice(name="Follow the server's Discord language",
                                                        value=languages.FOLLOW)])
    @app_commands.checks.has_permissions(manage_guild=True)
    async def language(self, interaction: discord.Interaction,
                       language: app_commands.Choice[str] | None = None) -> None:
        settings = await self.service.settings(interaction.guild_id)
        if language is not None and language.value not in (*languages.CHOICES, languages.FOLLOW):
            await say(interaction, i18n._("I don't speak that language: pick English, Deutsch or Español."))
            return
        if language is not None:  # the bare command looks the setting up, changing nothing
            settings.language = None if language.value == languages.FOLLOW else language.value
            await self.service.save_settings(settings)
        await say(interaction, language_sentence(settings.language, interaction.guild_locale, changed=language is not None))

    @mod.command(name="channels", description="Choose the channels where games may be started")
    @app_commands.describe(
        action="allow: only listed channels; forbid: every channel but these; everywhere; show the rules",
        channel="The channel, thread or forum to allow or forbid (a channel's threads follow it)",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def channels(self, interaction: discord.Interaction,
                       action: Literal["allow", "forbid", "everywhere", "show"],
                       channel: app_commands.Transform[GameChannel, GameChannels] | None = None) -> None:
        settings = await self.service.settings(interaction.guild_id)
        if action in ("allow", "forbid"):
            if channel is None:
                await say(interaction, _("Name the channel, thread or forum to allow.") if action == "allow"
                           else _("Name the channel, thread or forum to forbid."))
                return
            parent_id = getattr(channel, "parent_id", None)
            (allow_channel if action == "allow" else forbid_channel)(settings, channel.id, parent_id)
        elif action == "everywhere":
            settings.allowed_channels, settings.forbidden_channels, settings.also_threads = None, [], []
        if action != "show":
            await self.service.save_settings(settings)
        await say(interaction, channels_sentence(settings))

    @mod.command(name="threads", description="Whether /play opens tables in a thread of their own by default")
    @app_commands.describe(live="Live tables in a thread of their own (default: no)",
                           turn_based="Turn-based tables in a thread of their own (default: yes)")
    @app_commands.rename(turn_based="turn-based")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def threads(self, interaction: discord.Interaction, live: Literal["yes", "no"] | None = None,
                      turn_based: Literal["yes", "no"] | None = None) -> None:
        """Left out, both: shows the setting, changing nothing. /play's ``thread:`` still decides per table."""
        settings = await self.service.settings(interaction.guild_id)
        if live is not None:
            settings.threads_live = live == "yes"
        if turn_based is not None:
            settings.threads_turn_based = turn_based == "yes"
        if live is not None or turn_based is not None:
            await self.service.save_settings(settings)
        await say(interaction, threads_sentence(settings))


def language_sentence(setting: str | None, guild_locale, changed: bool) -> str:
    """What ``/mod language`` says: the server's language for public messages now, and where it comes from."""
    name = i18n.language_name(languages.choose(setting, guild_locale))
    if setting and changed:
        return i18n._("Game messages and boards in this server are now in {language}.", language=name)
    if setting:
        return i18n._("Game messages and boards in this server are in {language} (set with `/mod language`). "
                      "What only one member sees follows their own Discord language.", language=name)
    if changed:
        return i18n._("Game messages and boards in this server now follow its Discord language: {language}.",
                      language=name)
    return i18n._("Game messages and boards in this server follow its Discord language: {language}. "
                  "`/mod language` sets another; what only one member sees follows their own Discord language.",
                  language=name)


def pace_refused(default: str | None, longest: str | None) -> i18n.Text | None:
    """Why ``/mod pace``'s choices can't be used (a value Discord's picker would not send), or None."""
    if default is not None and default not in paces.PACE_NAMES:
        return _("A turn-based table takes 1 h, 12 h, 24 h, 3 days or 7 days per move.")
    if longest is not None and paces.PACE_NAMES.get(longest) is None:
        return _("The longest pace is 1 h, 12 h, 24 h, 3 days or 7 days per move.")
    return None


def pace_sentence(settings: GuildSettings) -> i18n.Text:
    """What ``/mod pace`` says: the default pace of new tables, the longest allowed and /game away's limit."""
    return _("New tables here are {pace} unless /play says otherwise; a move may take at most {longest}; members "
             "may be away for up to {days} days (/game away).", pace=paces.pace_words(settings.pace_default),
             longest=paces.per_move_words(paces.longest(settings)), days=paces.away_days(settings))


MIN_TURN_TIMEOUT = 30
"""The shortest turn timeout a moderator may set (0 asks for the bot's default)."""


def timeout_shown_sentence(seconds: int | None, default: int) -> i18n.Text:
    """What the bare ``/mod timeout`` says: the server's turn timeout and whether it is the bot's default."""
    if not seconds:
        return ngettext("Turn timeout is {n} second, the bot's default. `/mod timeout seconds:` sets another (30 to "
                        "86400).",
                        "Turn timeout is {n} seconds, the bot's default. `/mod timeout seconds:` sets another (30 to "
                        "86400).", default)
    return ngettext("Turn timeout is {n} second in this server. `/mod timeout seconds:0` goes back to the bot's "
                    "default.",
                    "Turn timeout is {n} seconds in this server. `/mod timeout seconds:0` goes back to the bot's "
                    "default.", seconds)


def retention_shown_sentence(days: int | None) -> i18n.Text:
    if not days:
        return _("Finished games are kept in this server until a limit is set. `/mod retention days:` sets one"
                 " (1 to 3650 days).")
    return ngettext("Finished games are kept in this server for {n} day, then deleted. `/mod retention days:0` keeps "
                    "them until a limit is set again.",
                    "Finished games are kept in this server for {n} days, then deleted. `/mod retention days:0` keeps "
                    "them until a limit is set again.", days, n=i18n.number(days))


def retention_set_sentence(days: int | None) -> i18n.Text:
    if not days:
        return _("Finished games are now kept in this server until a limit is set.")
    return ngettext("Finished games are now kept in this server for {n} day: older ones (and closed lobbies) are "
                    "deleted with their moves and results (now, then every hour). Ratings stay.",
                    "Finished games are now kept in this server for {n} days: older ones (and closed lobbies) are "
                    "deleted with their moves and results (now, then every hour). Ratings stay.", days,
                    n=i18n.number(days))


def allow_channel(settings: GuildSettings, channel_id: int, parent_id: int | None) -> None:
    """Games may be started in the channel: no longer forbidden (a thread of a forbidden channel: allowed on
    its own); when games are allowed everywhere and it was not forbidden, allowing it means "only here" (the
    list of allowed channels begins)."""
    was_forbidden = channel_id in settings.forbidden_channels
    settings.forbidden_channels = [c for c in settings.forbidden_channels if c != channel_id]
    if settings.allowed_channels is None:
        if parent_id in settings.forbidden_channels and channel_id not in settings.also_threads:
            settings.also_threads = [*settings.also_threads, channel_id]
        if was_forbidden or parent_id in settings.forbidden_channels:
            return
        settings.allowed_channels, settings.forbidden_channels, settings.also_threads = [], [], []
    if channel_id not in settings.allowed_channels:
        settings.allowed_channels = [*settings.allowed_channels, channel_id]


def forbid_channel(settings: GuildSettings, channel_id: int, parent_id: int | None) -> None:
    """Games may not be started in the channel (nor its threads); every other channel keeps its rule."""
    settings.also_threads = [c for c in settings.also_threads if c != channel_id]
    if settings.allowed_channels is not None:
        settings.allowed_channels = [c for c in settings.allowed_channels if c != channel_id]
    if settings.allows(channel_id, parent_id):  # else it is already out (not listed, or its parent forbidden)
        settings.forbidden_channels = [*settings.forbidden_channels, channel_id]
