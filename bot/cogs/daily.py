"""/daily: one Globe Twister puzzle a day, the same everywhere, with its proven par (issue 28 item 3).

The puzzle (games/globe_twister/daily.py) is played privately in one ephemeral message that each click edits, as
/learn's lessons are: the board, the member's program, the engine's own moves as buttons (hints and red cards
are out). The attempt is stored (bot/store/daily.py: the log of keys, compare-and-set on its length), so a
restart or a kill loses nothing; one attempt per member, server and day: a second /daily continues it, or after
it finished shows the result with the share button. Share posts one spoiler-free line in the channel, once.
``/daily show:board`` is the day's results in the server. The server's day turns at its reset hour (``/mod daily``,
default midnight UTC); at each reset the finished day's board is posted where the moderators chose (if they
did), claimed by one statement so it is posted once by one process (``resets``).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import io
import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import nonces
from bot.greeting import command
from bot.language import channel_language, member_language, server_language
from bot.store.daily import DailyResult, DailySettings, day_end, day_of, shift
from bot.table.words import board_view, events_words
from bot.ui import items, keys
from bot.ui.layout import Layout, screen
from bot.ui.say import say, think
from bot.workers import renderpool, thinkpool
from games import daily as puzzles
from games import get_engine
from i18n import _, localize, ngettext

log = logging.getLogger(__name__)

BOARD_ROWS = 25
RESET_POLL = 60.0
"""The reset loop's longest sleep (it also wakes when a setting changes)."""


def compact(day: str) -> str:
    return day.replace("-", "")


def iso(day: str) -> str:
    return f"{day[:4]}-{day[4:6]}-{day[6:]}"


def moves_text(r: DailyResult):
    if not r.solved:
        return _("not solved (par {par})", par=r.par)
    return ngettext("{n} move (par {par})", "{n} moves (par {par})", r.moves, par=r.par)


def share_line(name: str, r: DailyResult):
    """The spoiler-free result line: moves against par, one square per turn, the streak."""
    streak = _("streak {n} 🔥", n=r.streak) if r.streak > 1 else _("streak {n}", n=r.streak)
    return _("**{name}** · Geotable daily {day}: {moves} {grid} · {streak}", name=name, day=r.day,
             moves=moves_text(r), grid=r.grid, streak=streak)


def board_lines(rows: list[DailyResult], finished: int, solved: int) -> list:
    lines = [_("{rank}. <@{user}> · {moves} {grid} · {streak}", rank=i + 1, user=r.user_id, moves=moves_text(r),
               grid=r.grid, streak=_("streak {n}", n=r.streak)) for i, r in enumerate(rows)]
    if finished > len(rows):
        lines.append(ngettext("… and {n} more.", "… and {n} more.", finished - len(rows)))
    lines.append(ngettext("{n} member played, {solved} solved it.", "{n} members played, {solved} solved it.",
                          finished, solved=solved))
    return lines


class Daily(commands.Cog):
    def __init__(self, bot):
        self.bot = bot
        self._task: asyncio.Task | None = None
        self._wake: asyncio.Future | None = None
        self.resets_done = asyncio.Event()
        """Set after each pass of the reset loop (tests wait for it)."""

    @property
    def store(self):
        return self.bot.service.store

    def now(self) -> float:
        return self.bot.service.clock()

    async def today(self, guild_id: int) -> tuple[str, DailySettings]:
        settings = await self.store.daily_settings(guild_id)
        return day_of(self.now(), settings.reset_hour), settings

    async def cog_load(self) -> None:
        self._task = asyncio.create_task(self.resets(), name="geotable-daily-resets")

    async def cog_unload(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    # --- /daily ----------------------------------------------------------------------------------------
    @app_commands.command(name="daily", description="Today's Globe Twister puzzle: one try a day, only you see it")
    @app_commands.describe(show="play (the default): your puzzle; board: today's results in this server")
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction, show: Literal["play", "board"] = "play") -> None:
        await think(interaction)
        lang = member_language(interaction)
        day, _settings = await self.today(interaction.guild_id)
        if show == "board":
            await say(interaction, None, view=await self.board_screen(interaction.guild_id, day, lang))
            return
        puzzle = await thinkpool.pool().run(puzzles.puzzle_of, day)
        result = await self.store.start_daily(interaction.guild_id, day, interaction.user.id, puzzle["par"])
        if result.finished:
            await say(interaction, None, view=self.finished_screen(result, lang))
            return
        step = await thinkpool.pool().run(puzzles.step, day, result.log, None)
        shown = await self.panel(result, step, lang, interaction.user)
        await say(interaction, None, files=shown["attachments"], view=shown["view"])

    async def board_screen(self, guild_id: int, day: str, lang: str) -> discord.ui.LayoutView:
        rows = await self.store.daily_board(guild_id, day, BOARD_ROWS)
        title = localize(_("Daily puzzle {day}: board", day=day), lang)
        if not rows:
            return screen(title, localize(_("Nobody has finished this puzzle in this server yet: play it with "
                                            "`/{daily}`.", daily=command("daily")), lang))
        finished, solved = await self.store.daily_count(guild_id, day)
        return screen(title, *(localize(line, lang) for line in board_lines(rows, finished, solved)),
                      accent=get_engine(puzzles.GAME).accent)

    def finished_screen(self, r: DailyResult, lang: str) -> discord.ui.LayoutView:
        said = (_("You solved today's puzzle: {moves}. A new one comes with the next day.", moves=moves_text(r))
                if r.solved else
                _("You played today's puzzle: {moves}. A new one comes with the next day.", moves=moves_text(r)))
        controls = [] if r.shared else [self.share_button(r, lang)]
        return screen("", localize(said, lang), controls=controls)

    @staticmethod
    def share_button(r: DailyResult, lang: str) -> discord.ui.Item:
        return items.button(keys.DailyUtility(compact(r.day), "share"), localize(_("Share my result"), lang),
                            "success")

    # --- clicks ----------------------------------------------------------------------------------------
    async def click(self, interaction: discord.Interaction, what: keys.DailyMove | keys.DailyUtility | None) -> None:
        """A click on a daily puzzle's button (``Geotable.on_key``); None: an id of ours that reads as nothing."""
        lang = member_language(interaction)
        if what is None or interaction.guild_id is None:
            await say(interaction, _("This button isn't one of your daily puzzle's: play today's with `/{daily}`.",
                                     daily=command("daily")))
            return
        day, _settings = await self.today(interaction.guild_id)
        if iso(what.day) != day:
            if isinstance(what, keys.DailyUtility):
                await say(interaction, _("That day's puzzle is over: its result can no longer be shared."))
            else:
                await say(interaction, _("That day's puzzle is over: play today's with `/{daily}`.",
                                         daily=command("daily")))
            return
        result = await self.store.daily_result(interaction.guild_id, day, interaction.user.id)
        if result is None:
            await say(interaction, _("Play today's puzzle with `/{daily}` first.", daily=command("daily")))
            return
        if isinstance(what, keys.DailyUtility):
            await self.share(interaction, result)
            return
        if result.finished:
            await say(interaction, None, view=self.finished_screen(result, lang))
            return
        if what.version != result.version:
            await say(interaction, _("That is an older step of your puzzle: use its latest message."))
            return
        await interaction.response.defer()
        step = await thinkpool.pool().run(puzzles.step, day, result.log, what.key)
        if step["refused"]:
            await say(interaction, _("That move is not possible now."))
            return
        if step["over"]:
            stored = await self.store.finish_daily(result, step["log"], solved=step["solved"], moves=step["moves"],
                                                   grid=step["grid"])
        else:
            stored = await self.store.advance_daily(result, step["log"])
        if not stored:
            await say(interaction, _("That is an older step of your puzzle: use its latest message."))
            return
        result = await self.store.daily_result(interaction.guild_id, day, interaction.user.id)
        await interaction.edit_original_response(**await self.panel(result, step, lang, interaction.user))

    async def share(self, interaction: discord.Interaction, result: DailyResult) -> None:
        if not result.finished:
            await say(interaction, _("Finish today's puzzle first: then you can share your result."))
            return
        if not await self.store.mark_shared(result.guild_id, result.day, result.user_id):
            await say(interaction, _("You have already shared today's result."))
            return
        lang = await channel_language(interaction)
        name = getattr(interaction.user, "display_name", None) or interaction.user.name
        try:
            await interaction.channel.send(localize(share_line(name, result), lang),
                                           allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            await self.store.unmark_shared(result.guild_id, result.day, result.user_id)
            await say(interaction, _("I couldn't post in this channel: your result was not shared."))
            return
        await say(interaction, _("Shared in the channel."))

    # --- the puzzle's message --------------------------------------------------------------------------------
    async def panel(self, r: DailyResult, step: dict, lang: str, user: discord.abc.User) -> dict:
        engine, state = get_engine(puzzles.GAME), step["state"]
        name = getattr(user, "display_name", None) or user.name
        title = localize(_("Geotable daily {day} · par {par}", day=r.day, par=r.par), lang)
        lines = [f"**{title}**"]
        if not r.log:
            lines.append(localize(_("Rebuild the photo (any turn of the whole photo counts) with as few cards as "
                                    "you can. Par is the fewest cards that can do it, proven by the solver; every "
                                    "card you place counts as a move. One try today."), lang))
        happened = localize(events_words(step["events"], [name]), lang)
        if happened:
            lines.append("> " + happened[-700:])
        controls: list[discord.ui.Item] = []
        if step["over"]:
            lines.append(localize(_("Your result: {moves} {grid}", moves=moves_text(r), grid=r.grid), lang))
            controls.append(self.share_button(r, lang))
        else:
            solo = state["solo"]
            lines.append(localize(_("Turn {turn} of {limit} · {moves} so far", turn=state["turn"],
                                    limit=state["options"]["turn_limit"],
                                    moves=ngettext("{n} card", "{n} cards", solo["cards"])), lang))
            actions = [a for a in engine.legal_actions(state, 0) if a.key != "hint"]
            for i, a in enumerate(actions[:20]):
                controls.append(items.button(keys.DailyMove(compact(r.day), r.version, a.key),
                                             localize(a.label, lang), a.style, row=i // 5, emoji=a.emoji))
        stem = f"daily{compact(r.day)}-{r.version}"
        board = await renderpool.board(puzzles.GAME, puzzles.dress(board_view(engine, state), r.day), [name], None,
                                       None, locale=lang)
        files = [discord.File(io.BytesIO(board), filename=f"{stem}.png")]
        kit = Layout(engine.accent)
        kit.text("\n".join(lines))
        kit.image(files[0].filename, title)
        if not step["over"]:
            mine = await renderpool.private(puzzles.GAME, puzzles.dress(engine.view(state, 0), r.day), name,
                                            locale=lang)
            files.append(discord.File(io.BytesIO(mine), filename=f"{stem}-yours.png"))
            kit.image(files[1].filename, localize(_("Your program."), lang))
        kit.separator()
        kit.controls(controls)
        return {"attachments": files, "view": kit.view}

    # --- the day's reset ---------------------------------------------------------------------------------
    def wake(self) -> None:
        """A setting changed (or a test moved the clock): the reset loop looks again now."""
        if self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    async def resets(self) -> None:
        """Posts each finished day's board where a server asked for it, once: at its reset hour, or at the next
        start when the bot was away then (only the last finished day; a day nobody finished posts nothing)."""
        await self.bot.wait_until_ready()
        while not self.bot.is_closed():
            self.resets_done.clear()
            delay = RESET_POLL
            try:
                for s in await self.store.daily_channels(self.bot.settings.shards):
                    await self.reset(s)
                    delay = min(delay, day_end(day_of(self.now(), s.reset_hour), s.reset_hour) - self.now())
            except Exception:
                log.exception("daily resets")
            self.resets_done.set()
            self._wake = asyncio.get_running_loop().create_future()
            with contextlib.suppress(TimeoutError):  # a plain future: no extra task while it waits
                await asyncio.wait_for(self._wake, max(delay, 0.05))

    async def reset(self, s: DailySettings) -> None:
        finished = shift(day_of(self.now(), s.reset_hour), -1)
        if await self.store.daily_post(s.guild_id, finished) is not None:
            return  # posted already (a read: most passes of the loop write nothing)
        if not await self.store.claim_daily_post(s.guild_id, finished, self.now()):
            return
        if not (await self.store.daily_count(s.guild_id, finished))[0]:
            await self.store.daily_posted(s.guild_id, finished, 0)
            return
        lang = await server_language(self.bot.service, s.guild_id)
        view = await self.board_screen(s.guild_id, finished, lang)
        channel = self.bot.get_partial_messageable(s.channel_id, guild_id=s.guild_id)
        message = await channel.send(view=view, allowed_mentions=discord.AllowedMentions.none(),
                                       nonce=nonces.once("daily", s.guild_id, finished))
        await self.store.daily_posted(s.guild_id, finished, message.id)

    async def moderate(self, interaction: discord.Interaction, reset: int | None,
                       channel: discord.TextChannel | None, off: bool) -> None:
        """``/mod daily``: the reset hour and the board's channel; bare, the settings."""
        s = await self.store.daily_settings(interaction.guild_id)
        me = interaction.guild.me if interaction.guild is not None else None
        if channel is not None and me is not None and not channel.permissions_for(me).send_messages:
            await say(interaction, _("I can't post in <#{channel}>: choose a channel where I may send messages.",
                                     channel=channel.id))
            return
        if reset is not None or channel is not None or off:
            s = DailySettings(s.guild_id, s.reset_hour if reset is None else reset,
                              None if off else (channel.id if channel is not None else s.channel_id))
            await self.store.save_daily_settings(s)
            if s.channel_id is not None:  # the day that just ended is not posted late: from the next reset on
                finished = shift(day_of(self.now(), s.reset_hour), -1)
                if await self.store.claim_daily_post(s.guild_id, finished, self.now()):
                    await self.store.daily_posted(s.guild_id, finished, 0)
            self.wake()
        at = datetime.time(s.reset_hour).strftime("%H:%M")
        where = (_("Each finished day's board is posted in <#{channel}>.", channel=s.channel_id) if s.channel_id
                 else _("The finished day's board is not posted (`/mod daily channel:` chooses a channel)."))
        await say(interaction, _("The daily puzzle's day turns at {time} UTC. {where}", time=at, where=where))
