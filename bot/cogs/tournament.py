"""/tournament (issue 28 item 1): ``create <game>`` (the game's options as /play offers them, the format, rounds,
table size, pace, sign-up deadline, cap), ``drop``, ``end``, ``role``; and the tournament message's buttons
(Join, Leave, Start, Cancel: ``keys.TournamentButton``, from ``Geotable.on_key``). Who may run tournaments:
Manage Server, or the role a server names (``/tournament role``). What happens after Start is bot/rounds.py's.
Every refusal is one ephemeral sentence and changes nothing."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.play import PACE_CHOICES, command_name, option_annotation, option_description
from bot.rounds import Rounds
from bot.store import TournamentOpen
from bot.table import pace as paces
from bot.table.refusals import Refusal, Refused
from bot.table.words import channels_sentence, rules_words
from bot.tournament.pairing import fewest
from bot.ui import keys
from bot.ui import tournament as words
from bot.ui.choices import playable_engines
from bot.ui.say import say, think
from games.core import Engine, RulesError
from i18n import N_, _, localize

OWN = {"format": (Literal["swiss", "knockout"], N_("swiss: every round paired by points; knockout: single elimination")),
       "rounds": (app_commands.Range[int, 1, 12], N_("Swiss rounds (default: 3)")),
       "size": (app_commands.Range[int, 2, 4], N_("Players at each table (default: 2, a duel)")),
       "pace": (str, N_("Live, or turn-based with a time per move (default: live)")),
       "signup_hours": (app_commands.Range[int, 1, 336], N_("Sign-up closes after this many hours (default: at Start)")),
       "cap": (app_commands.Range[int, 2, 256], N_("At most this many players (default: no limit)"))}
"""/tournament create's own options beside the game's (name: (annotation, description))."""


class Tournament(commands.Cog):
    tournament = app_commands.Group(name="tournament", description="Tournaments of a game in this channel",
                                    guild_only=True)
    create_group = app_commands.Group(name="create", description="Open a tournament's sign-up in this channel",
                                      parent=tournament)

    def __init__(self, bot):
        self.bot = bot
        self.rounds = Rounds(bot)
        self._task: asyncio.Task | None = None

    @property
    def store(self):
        return self.bot.service.store

    async def cog_load(self) -> None:
        self._task = asyncio.create_task(self.rounds.run(), name="geotable-tournaments")
        self.bot.get_cog("Tables").boards.ended.append(self.rounds.table_ended)

    async def cog_unload(self) -> None:
        tables = self.bot.get_cog("Tables")
        if tables is not None and self.rounds.table_ended in tables.boards.ended:
            tables.boards.ended.remove(self.rounds.table_ended)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self.rounds.close()

    # --- who may run one ---------------------------------------------------------------------------------
    async def may_run(self, interaction: discord.Interaction) -> bool:
        if interaction.permissions.manage_guild:
            return True
        role = await self.store.tournament_role(interaction.guild_id)
        return role is not None and any(r.id == role for r in getattr(interaction.user, "roles", []))

    async def _moderator(self, interaction: discord.Interaction) -> None:
        if not await self.may_run(interaction):
            raise Refused(Refusal.NOT_HOST, _("Only a moderator (Manage Server, or the tournament role) can do that."))

    # --- /tournament create <game> (each game's command: ``create_command``) ----------------------------
    async def create(self, interaction: discord.Interaction, engine: Engine, options: dict, *, format=None,
                     rounds=None, size=None, pace=None, signup_hours=None, cap=None) -> None:
        await self._moderator(interaction)
        fmt, size = format or "swiss", size or 2
        if fmt == "knockout" and rounds is not None:
            raise Refused(Refusal.BAD_OPTIONS, _("A knockout plays until one player is left: leave out rounds (they "
                                                 "are for a Swiss)."))
        if not engine.min_players <= size <= engine.max_players:
            raise Refused(Refusal.BAD_OPTIONS, _("{game} is played by {low} to {high} players: pick a table size "
                                                 "among them.", game=engine.title, low=max(engine.min_players, 2),
                                                 high=engine.max_players))
        try:
            options = engine.normalise_options(options)
            for players in range(2, size + 1):  # a round's tables may seat fewer than the size (T10)
                engine.check_players(players, options)
        except RulesError as exc:
            raise Refused(Refusal.BAD_OPTIONS, rules_words(exc)) from None
        if cap is not None and cap < fewest(fmt, size):
            raise Refused(Refusal.BAD_OPTIONS, _("A cap of {cap} is below the {n} players this tournament needs.",
                                                 cap=cap, n=fewest(fmt, size)))
        settings = await self.bot.service.settings(interaction.guild_id)
        seconds = paces.PACE_NAMES.get(pace or "live", -1)
        refused = paces.refused_pace(seconds, settings)
        if refused:
            raise Refused(Refusal.BAD_OPTIONS, refused)
        if not isinstance(interaction.channel, discord.TextChannel):
            raise Refused(Refusal.CHANNEL_NOT_ALLOWED, _("A tournament needs a text channel: its tables open in "
                                                         "threads of it."))
        if not settings.allows(interaction.channel_id):  # its tables are games started here (/mod channels)
            raise Refused(Refusal.CHANNEL_NOT_ALLOWED, rules=channels_sentence(settings))
        have = interaction.app_permissions
        if not (have.create_public_threads and have.send_messages_in_threads):
            raise Refused(Refusal.CHANNEL_NOT_ALLOWED, _("I need the permissions to create threads and send messages "
                                                         "in them here: each table of a tournament gets its own."))
        due = self.bot.service.clock() + signup_hours * 3600 if signup_hours else None
        t = None
        while t is None:
            await self._channel_free(interaction.channel_id)  # the fast path: the channel's open one, read
            try:
                t = await self.store.create_tournament(
                    guild_id=interaction.guild_id, channel_id=interaction.channel_id, game=engine.slug,
                    options=options, fmt=fmt, rounds=(rounds or 3) if fmt == "swiss" else 0, size=size,
                    pace=seconds, signup_due=due, cap=cap, created_by=interaction.user.id)
            except TournamentOpen:  # another create in this channel won the same instant: read it, to name it
                continue
        lang = await self.bot.service.language(interaction.guild_id)
        view = words.message(t, [], [], fewest(fmt, size), lang)
        message = await interaction.channel.send(view=view, allowed_mentions=discord.AllowedMentions.none())
        await self.store.set_tournament_message(t.id, message.id)
        await say(interaction, _("The sign-up of {title} is open below.", title=words.title(t)))
        if due is not None:
            self.rounds.wake()

    async def _channel_free(self, channel_id: int) -> None:
        """Refuses while the channel has a tournament in sign-up or running (T-B6): /tournament drop and end act
        on "this channel's tournament", one at a time."""
        other = await self.store.channel_tournament(channel_id)
        if other is not None:
            raise Refused(Refusal.CHANNEL_BUSY, _("{title} is still open in this channel: end it first, or open "
                                                  "this one in another channel.", title=words.title(other)))

    # --- the message's buttons ---------------------------------------------------------------------------
    async def click(self, interaction: discord.Interaction, what: keys.TournamentButton | None) -> None:
        if what is None:
            await say(interaction, _("This button doesn't belong to any tournament I know."))
            return
        t = await self.store.tournament(what.tournament)
        if t is None or t.guild_id != interaction.guild_id:
            raise Refused(Refusal.NO_GAME, _("There is no such tournament."))
        user, name = interaction.user.id, interaction.user.display_name
        if what.name == "start":
            await self._moderator(interaction)
            await interaction.response.defer()
            await self.rounds.start(t.id, name)
            return
        if what.name == "cancel":
            await self._moderator(interaction)
            reason = localize(_("cancelled by {moderator}", moderator=name), await self.bot.service.language(t.guild_id))
            if t.status != "signup" or not await self.store.close_tournament(t.id, "cancelled", reason,
                                                                               post=False):
                raise Refused(Refusal.LOBBY_CLOSED, _("Only a tournament still in sign-up can be cancelled; "
                                                      "`/tournament end` ends one that started."))
            await say(interaction, _("The tournament is cancelled."))
        elif what.name == "join":
            await self._join(t, user, name)
            await say(interaction, _("You are in. Good luck!"))
        else:
            if t.status != "signup":
                raise Refused(Refusal.LOBBY_CLOSED, _("The tournament has started: to stop playing, leave your table "
                                                      "(that counts as a loss from then on)."))
            if not await self.store.leave_tournament(t.id, user):
                raise Refused(Refusal.NOT_A_PLAYER, _("You are not signed up for this tournament."))
            await say(interaction, _("You are no longer signed up."))
        await self.rounds.refresh(await self.rounds.snapshot(t.id))

    async def _join(self, t, user: int, name: str) -> None:
        if t.status != "signup":
            raise Refused(Refusal.LOBBY_CLOSED, _("This tournament has already started: sign-up is closed.")
                          if t.status == "running" else _("This tournament is over."))
        if await self.store.join_tournament(t.id, user, name):
            return
        entries = await self.store.entries(t.id)
        if any(e.user_id == user for e in entries):
            raise Refused(Refusal.ALREADY_SEATED, _("You are already signed up for this tournament."))
        if t.cap is not None and len(entries) >= t.cap:
            raise Refused(Refusal.LOBBY_FULL, _("This tournament is full: {n} players signed up.", n=t.cap))
        raise Refused(Refusal.LOBBY_CLOSED, _("This tournament has already started: sign-up is closed."))

    async def forgotten(self, guild_id: int) -> None:
        """A member deleted their data (/privacy): the server's open tournaments' messages no longer name them."""
        for t in await self.store.open_tournaments():
            if t.guild_id == guild_id:
                await self.rounds.refresh(await self.rounds.snapshot(t.id))

    # --- moderators -----------------------------------------------------------------------------------
    async def here(self, interaction: discord.Interaction):
        t = await self.store.channel_tournament(interaction.channel_id)
        if t is None:
            raise Refused(Refusal.NO_GAME, _("There is no tournament in this channel."))
        return t

    @tournament.command(name="drop", description="Take a player out of this channel's tournament")
    @app_commands.describe(member="The player (a loss at their table now, not paired again)")
    async def drop(self, interaction: discord.Interaction, member: discord.User) -> None:
        await self._moderator(interaction)
        t = await self.here(interaction)
        if t.status == "signup":
            if not await self.store.leave_tournament(t.id, member.id):
                raise Refused(Refusal.NOT_A_PLAYER, _("{player} is not in this tournament.", player=member.display_name))
        elif not await self.store.drop_entry(t.id, member.id, t.round):
            raise Refused(Refusal.NOT_A_PLAYER, _("{player} is not in this tournament, or was dropped already.",
                                                  player=member.display_name))
        await say(interaction, _("{player} is out of the tournament.", player=member.display_name))
        await self._leave_table(t, member.id, interaction.user.display_name)
        await self.rounds.refresh(await self.rounds.snapshot(t.id))

    async def _leave_table(self, t, user_id: int, by: str) -> None:
        """A dropped player still at a table of the round in play leaves it (a loss there)."""
        for b in await self.store.boards(t.id):
            if b.round == t.round and b.table_id and user_id in b.seats and b.status == "playing":
                table = await self.bot.service.get(b.table_id)
                with contextlib.suppress(Refused):
                    change = await self.bot.service.leave(table, user_id, by=by)
                    await self.bot.get_cog("Tables").boards.publish(change)

    @tournament.command(name="end", description="End this channel's tournament now (results so far are kept)")
    @app_commands.describe(reason="Why (shown in the channel)")
    async def end(self, interaction: discord.Interaction, reason: str) -> None:
        await self._moderator(interaction)
        t = await self.here(interaction)
        await think(interaction)
        await self.rounds.end(t.id, f"{reason[:300]} ({interaction.user.display_name})")
        await say(interaction, _("The tournament is ended."))

    @tournament.command(name="role", description="The role that may run tournaments here (besides Manage Server)")
    @app_commands.describe(role="The role; left out: only Manage Server")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def role(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        await self.store.set_tournament_role(interaction.guild_id, role.id if role else None)
        await say(interaction, _("Members with {role} may run tournaments here.", role=role.mention) if role
                  else _("Only members with Manage Server may run tournaments here."))


def create_command(engine: Engine) -> app_commands.Command:
    """``/tournament create <game>``: the game's options typed as /play types them, then the tournament's own
    (``OWN``). Its callback is the cog's (discord.py binds the cog: hence the method's qualified name)."""
    async def callback(cog, interaction: discord.Interaction, **given):
        own = {name: given.pop(name, None) for name in OWN}
        await cog.create(interaction, engine, {k: v for k, v in given.items() if v is not None}, **own)

    callback.__qualname__ = f"Tournament.create_{engine.slug}"
    params = [inspect.Parameter("cog", inspect.Parameter.POSITIONAL_OR_KEYWORD),
              inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)]
    for option in engine.options:
        params.append(inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=option_annotation(option) | None))
    for name, (annotation, _words) in OWN.items():
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=annotation | None))
    callback.__signature__ = inspect.Signature(params)
    descriptions = {o.name: option_description(o) for o in engine.options}
    descriptions.update({name: text for name, (_annotation, text) in OWN.items()})
    app_commands.describe(**descriptions)(callback)
    app_commands.choices(pace=[app_commands.Choice(name=text, value=name) for name, text in PACE_CHOICES.items()])(
        callback)
    return app_commands.Command(name=command_name(engine), description=f"A {engine.title} tournament"[:100],
                                callback=callback)


for _engine in playable_engines():
    if _engine.max_players >= 2:
        Tournament.create_group.add_command(create_command(_engine))
