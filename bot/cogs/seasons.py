"""Seasons and the hall of fame (issue 28 item 2): ``/mod season start|end|show`` (the commands live in
bot/cogs/admin.py's /mod group and come here), ``/halloffame``, and each season's end: at its end time by itself or
earlier by a moderator, once.

A season's ladder is OpenSkill from a fresh start (docs/rules/ratings.md), written by the move that ends each
rated game in the same transaction as the all-time ratings (bot/store/moves.py). Its end is one transaction
that sets ``ended_at`` (only one caller wins, in any process) and keeps the top three places per game in the hall
of fame; the post of the hall of fame in the season's channel is then claimed by one statement (a claim never
posted, a crash mid-post, is taken again after 45 s: bot/store/seasons.py POST_STALE), as /daily's board is. The
loop here (a plain future, woken by the commands) looks at the seasons of its shards' servers that are not ended or
not posted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot import nonces
from bot.greeting import command
from bot.language import channel_language, server_language
from bot.store import Podium, Season
from bot.ui.choices import GAME_CHOICES, game_title
from bot.ui.layout import screen
from bot.ui.say import say, think
from i18n import _, ngettext

log = logging.getLogger(__name__)

POLL = 60.0
"""The loop's longest sleep (it also wakes when a moderator starts or ends a season)."""
WEEK = 7 * 86400
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
HALL_SEASONS = 10
"""Seasons /halloffame shows (the latest)."""
NAME_MOST = 40
"""A season name's most characters (/mod season start's ``name`` option says so to Discord, which checks it)."""
ROOM = 3800
"""The characters of /halloffame's lines (a V2 message's 4,000 less its title)."""



def when(ts: float, style: str = "f") -> str:
    return f"<t:{int(ts)}:{style}>"


def podium_line(p: Podium) -> i18n.Text:
    """"**Geek Out! Masters**: 🥇 Ana 1123 · 🥈 Bo 1050 · 🥉 Cy 990" (shared places share their medal)."""
    each = [_("{medal} {name} {rating}", medal=MEDALS.get(place, f"{place}."), name=name, rating=rating)
            for place, _user, name, rating, _games in p.rows]
    return _("**{game}**: {podium}", game=game_title(p.game), podium=i18n.join(each, " · "))


def season_heading(s: Season) -> i18n.Text:
    games = ngettext("{n} rated game", "{n} rated games", s.games)
    if s.ended_early:
        return _("Season **{name}** ({start} to {end}, ended by a moderator; {games})", name=s.name,
                 start=when(s.started_at, "D"), end=when(s.ended_at, "D"), games=games)
    return _("Season **{name}** ({start} to {end}; {games})", name=s.name, start=when(s.started_at, "D"),
             end=when(s.ended_at, "D"), games=games)


def running_sentence(s: Season) -> i18n.Text:
    return ngettext("Season **{name}** runs until {end} ({left}): {n} rated game so far. `/{leaderboard}` with "
                    "`season:` shows its ladder.",
                    "Season **{name}** runs until {end} ({left}): {n} rated games so far. `/{leaderboard}` with "
                    "`season:` shows its ladder.", s.games, name=s.name, end=when(s.ends_at), left=when(s.ends_at, "R"),
                    leaderboard=command("leaderboard"))


class Seasons(commands.Cog):
    def __init__(self, bot):
        self.bot = bot
        self._task: asyncio.Task | None = None
        self._wake: asyncio.Future | None = None
        self.passes = asyncio.Event()
        """Set after each pass of the loop (tests wait for it)."""

    @property
    def store(self):
        return self.bot.service.store

    def now(self) -> float:
        return self.bot.service.clock()

    async def cog_load(self) -> None:
        self._task = asyncio.create_task(self.closings(), name="geotable-seasons")

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    # --- /mod season (bot/cogs/admin.py) ------------------------------------------------------------------
    async def start(self, interaction: discord.Interaction, name: str, weeks: int,
                    channel: discord.TextChannel | None) -> None:
        name = " ".join(name.split())
        me = interaction.guild.me if interaction.guild is not None else None
        if channel is not None and me is not None and not channel.permissions_for(me).send_messages:
            await say(interaction, _("I can't post in <#{channel}>: choose a channel where I may send messages.",
                                     channel=channel.id))
            return
        if not name:
            await say(interaction, _("A season needs a name."))
            return
        if len(name) > NAME_MOST:
            await say(interaction, ngettext("A season's name has at most {n} character: choose a shorter one.",
                                            "A season's name has at most {n} characters: choose a shorter one.",
                                            NAME_MOST))
            return
        current = await self.overdue_closed(interaction.guild_id)
        if current is not None:
            await say(interaction, _("Season **{name}** is still running (until {end}): end it with `/mod season "
                                     "end` first.", name=current.name, end=when(current.ends_at)))
            return
        if await self.store.season_named(interaction.guild_id, name) is not None:  # (letter case aside)
            await say(interaction, _("This server already had a season called **{name}**: choose another name.",
                                     name=name))
            return
        now = self.now()
        where = channel.id if channel is not None else interaction.channel_id
        season = await self.store.start_season(interaction.guild_id, name, where, now, now + weeks * WEEK)
        if season is None:  # a moderator started one meanwhile, or the name was used
            current = await self.store.current_season(interaction.guild_id)
            await say(interaction, _("Season **{name}** is still running (until {end}): end it with `/mod season "
                                     "end` first.", name=current.name, end=when(current.ends_at)) if current else
                      _("This server already had a season called **{name}**: choose another name.", name=name))
            return
        self.wake()
        await say(interaction, _("Season **{name}** has started: every rated game counts for its own ladder, from a "
                                 "fresh start, until {end}. Its hall of fame will be posted in <#{channel}>.",
                                 name=season.name, end=when(season.ends_at), channel=where))

    async def end(self, interaction: discord.Interaction) -> None:
        current = await self.store.current_season(interaction.guild_id)
        if current is None:
            await say(interaction, _("No season is running here: `/mod season start` starts one."))
            return
        await think(interaction)
        overdue = current.ends_at <= self.now()
        if not await self.store.end_season(current.id, current.ends_at if overdue else self.now(), not overdue):
            await say(interaction, _("Season **{name}** has already ended.", name=current.name))
            return
        self.wake()
        await say(interaction, _("Season **{name}** has ended: its hall of fame is posted in <#{channel}>.",
                                 name=current.name, channel=current.channel_id))
        await self.announce(current)

    async def show(self, interaction: discord.Interaction) -> None:
        current = await self.overdue_closed(interaction.guild_id)
        if current is None:
            await say(interaction, _("No season is running here: `/mod season start` starts one."))
            return
        await say(interaction, running_sentence(current))

    async def overdue_closed(self, guild_id: int) -> Season | None:
        """The server's running season, after ending one past its end time (the loop would in a moment)."""
        current = await self.store.current_season(guild_id)
        if current is not None and current.ends_at <= self.now():
            await self.close(current)
            return None
        return current

    # --- the end, once -------------------------------------------------------------------------------------
    def wake(self) -> None:
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    async def closings(self) -> None:
        """Ends each season of this process's servers at its end time (or at the next start when the bot was away
        then) and posts its hall of fame, once."""
        await self.bot.wait_until_ready()
        while not self.bot.is_closed():
            self.passes.clear()
            delay = POLL
            try:
                for s in await self.store.seasons_to_close(self.bot.settings.shards):
                    if s.running and s.ends_at > self.now():
                        delay = min(delay, s.ends_at - self.now())
                    else:
                        await self.close(s)
            except Exception:
                log.exception("season ends")
            self.passes.set()
            self._wake = asyncio.get_running_loop().create_future()
            with contextlib.suppress(TimeoutError):  # a plain future: no extra task while it waits
                await asyncio.wait_for(self._wake, max(delay, 0.05))

    async def close(self, s: Season) -> None:
        """Ends ``s`` at its end time (if nobody did) and posts its hall of fame (if nobody does)."""
        if s.running:
            await self.store.end_season(s.id, s.ends_at, early=False)
        await self.announce(s)

    async def announce(self, s: Season) -> None:
        """Posts the hall of fame of the ended season ``s`` in its channel, if this process claims the post."""
        if not await self.store.claim_season_post(s.id, self.now()):
            return
        ended = await self.store.season_named(s.guild_id, s.name)
        lang = await server_language(self.bot.service, s.guild_id)
        view = screen(i18n.localize(_("Season {name} is over: hall of fame", name=s.name), lang),
                      *(i18n.localize(line, lang) for line in await self.hall_lines(ended)))
        channel = self.bot.get_partial_messageable(s.channel_id, guild_id=s.guild_id)
        try:
            message = await channel.send(view=view, allowed_mentions=discord.AllowedMentions.none(),
                                         nonce=nonces.once("season", s.id))
        except (discord.Forbidden, discord.NotFound):
            log.warning("season %s: its channel %s takes no post; the hall of fame is kept", s.id, s.channel_id)
            await self.store.season_posted(s.id, 0)
            return
        await self.store.season_posted(s.id, message.id)

    async def hall_lines(self, s: Season) -> list[i18n.Text]:
        podiums = await self.store.podiums(s.guild_id, season_id=s.id)
        lines = [season_heading(s)]
        lines += [podium_line(p) for p in podiums] or [_("No rated game was played in this season.")]
        lines.append(_("`/{halloffame}` shows every season's podiums.", halloffame=command("halloffame")))
        return lines

    # --- /halloffame -------------------------------------------------------------------------------------
    @app_commands.command(name="halloffame", description="The podiums of this server's past seasons, newest first")
    @app_commands.describe(game="Only this game's podiums")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def halloffame(self, interaction: discord.Interaction,
                         game: app_commands.Choice[str] | None = None) -> None:
        """In the channel, as /leaderboard: a ladder of honour is for the server to see."""
        await self.hall(interaction, game.value if game is not None else None)

    async def hall(self, interaction: discord.Interaction, game: str | None) -> None:
        """``/halloffame [game]``: past seasons' podiums, newest first, in the channel (without ``game``, a season
        that ended with no rated game is listed too, with a sentence that says so)."""
        await interaction.response.defer(thinking=True)
        lang = await channel_language(interaction)
        podiums = await self.store.podiums(interaction.guild_id, game, HALL_SEASONS)
        ended = [] if game else [s for s in await self.store.seasons(interaction.guild_id, HALL_SEASONS + 1)
                                 if not s.running][:HALL_SEASONS]
        title = game_title(game) if game else ""
        if not podiums and not ended:
            running = None if game else await self.store.current_season(interaction.guild_id)
            if game:
                none = _("No season has ended here with rated games of {game} yet.", game=title)
            elif running is not None:
                none = _("No season has ended here yet: the first, **{name}**, runs until {end}.", name=running.name,
                         end=when(running.ends_at))
            else:
                none = _("No season has ended here yet: `/mod season start` starts one.")
            await interaction.edit_original_response(content=i18n.localize(none, lang))
            return
        seasons = {s.id: s for s in ended} | {p.season.id: p.season for p in podiums}
        blocks = []  # per season, newest first: its heading and its podiums
        for season in sorted(seasons.values(), key=lambda s: (s.ended_at, s.id), reverse=True):
            found = [podium_line(p) for p in podiums if p.season.id == season.id]
            lines = [season_heading(season), *(found or [_("No rated game was played in this season.")])]
            blocks.append("\n".join(i18n.localize(line, lang) for line in lines))
        shown = blocks[:1]  # the newest season whole; older ones while they fit
        for block in blocks[1:]:
            if len("\n\n".join([*shown, block])) > ROOM:
                break
            shown.append(block)
        heading = _("Hall of fame: {game}", game=title) if game else _("Hall of fame")
        view = screen(i18n.localize(heading, lang), "\n\n".join(shown)[:ROOM],
                      small=i18n.localize(_("Newest season first."), lang))
        await interaction.edit_original_response(content=None, view=view,
                                                 allowed_mentions=discord.AllowedMentions.none())  # (names)
