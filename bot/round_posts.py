"""What the channel sees of a tournament (part of :class:`bot.rounds.Rounds`): a sentence, a round's tables with
their threads, the final standings with the podium (and the standings or bracket image), and the tournament's
own message redrawn."""

from __future__ import annotations

import io
import logging

import discord

from bot.entrants import Snapshot, bracket_data, standings_data
from bot.store.tournaments import RoundRow, TournamentRow
from bot.tournament.pairing import fewest
from bot.ui import tournament as words
from bot.ui.layout import screen
from bot.workers import renderpool
from games import get_engine
from i18n import _, localize

log = logging.getLogger(__name__)

QUIET = discord.AllowedMentions.none()


class Posts:
    """Part of :class:`bot.rounds.Rounds` (its store, service and clock through ``self``)."""

    # --- what the channel sees ----------------------------------------------------------------------------
    async def say(self, t: TournamentRow, text: str, *, nonce: str | None = None) -> int:
        """A sentence in the tournament's channel: its message id (0: the bot may not post there)."""
        channel = self.bot.get_partial_messageable(t.channel_id, guild_id=t.guild_id)
        return await self.send(t, channel, text[:2000], allowed_mentions=QUIET, nonce=nonce)

    @staticmethod
    async def send(t: TournamentRow, channel, *args, **kwargs) -> int:
        """A post that is claimed and recorded (made once): its message id; 0 when the channel refuses it for
        good (gone, no permission: recorded as done, not tried forever). Other errors go up: the claim goes
        stale and the post is tried again."""
        try:
            return (await channel.send(*args, **kwargs)).id
        except (discord.Forbidden, discord.NotFound) as exc:
            log.warning("tournament %s: could not post in its channel (%s)", t.id, exc)
            return 0

    async def image(self, s: Snapshot, lang: str) -> discord.File | None:
        """The standings (Swiss) or the bracket (knockout), drawn by the render workers (None: not drawn, logged)."""
        if not s.rounds:
            return None
        try:
            if s.t.format == "knockout":
                png = await renderpool.bracket(bracket_data(s, lang), locale=lang)
            else:
                png = await renderpool.standings(standings_data(s, lang), locale=lang)
        except Exception:
            log.exception("tournament %s: its standings image", s.t.id)
            return None
        return discord.File(io.BytesIO(png), filename=f"tournament{s.t.id}-{s.t.round}.png")

    async def post_round(self, s: Snapshot, r: RoundRow, lang: str, *, nonce: str | None = None) -> int:
        t, who = s.t, s.who
        threads = {b.board: b.thread_id for b in s.boards if b.round == r.number}
        lines = [localize(_("{n} tables, each in its own thread:", n=len(r.tables)), lang)]
        for i, seats in enumerate(r.tables, 1):
            lines.append(f"<#{threads.get(i)}>: " + " · ".join(who.get(u, "?") for u in seats))
        for u in r.byes:
            lines.append(localize(_("{player} has a bye (counts as a win).", player=who.get(u, "?")), lang))
        if r.due_at is not None:
            lines.append(localize(_("The round ends <t:{at}:R> at the latest.", at=int(r.due_at)), lang))
        title = localize(_("{title}: round {n} of {rounds}", title=words.title(t), n=r.number, rounds=t.rounds), lang)
        file = await self.image(s, lang) if r.number > 1 or t.format == "knockout" else None  # standings so far
        image = (file.filename, localize(_("The standings of {title}.", title=words.title(t)), lang)) if file else None
        channel = self.bot.get_partial_messageable(t.channel_id, guild_id=t.guild_id)
        return await self.send(t, channel, view=screen(title, *lines, accent=get_engine(t.game).accent, image=image),
                               files=[file] if file else [], allowed_mentions=QUIET, nonce=nonce)

    async def post_final(self, s: Snapshot, *, nonce: str | None = None) -> int:
        t, who = s.t, s.who
        lang = await self.service.language(t.guild_id)
        rows = s.standings()
        file = await self.image(s, lang)
        won = words.winners(rows, who)
        shared = sum(1 for x in rows if x.place == 1) > 1
        if t.status != "finished" or not won:
            head = localize(_("{title} was ended: {reason}", title=words.title(t), reason=t.end_reason or "")
                            if t.end_reason else _("{title} was ended.", title=words.title(t)), lang)
        elif shared:
            head = localize(_("{title} is over. {winners} share the first place!", title=words.title(t),
                              winners=won), lang)
        else:
            head = localize(_("{title} is over. {winner} wins!", title=words.title(t), winner=won), lang)
        lines = [*words.podium(rows, who), "", *(localize(x, lang) for x in words.standing_lines(rows, who, t=t))]
        channel = self.bot.get_partial_messageable(t.channel_id, guild_id=t.guild_id)
        view = screen(head, *lines, accent=get_engine(t.game).accent,
                      image=(file.filename, localize(_("The standings of {title}.", title=words.title(t)), lang))
                      if file else None)
        return await self.send(t, channel, view=view, files=[file] if file else [], allowed_mentions=QUIET,
                               nonce=nonce)

    async def refresh(self, s: Snapshot | None) -> None:
        """The tournament's own message, redrawn as the tournament is now."""
        if s is None or not s.t.message_id:
            return
        lang = await self.service.language(s.t.guild_id)
        view = words.message(s.t, s.entries, s.standings() if s.t.status != "signup" else [],
                             fewest(s.t.format, s.t.size), lang)
        channel = self.bot.get_partial_messageable(s.t.channel_id, guild_id=s.t.guild_id)
        try:
            await channel.get_partial_message(s.t.message_id).edit(view=view, allowed_mentions=QUIET)
        except discord.HTTPException as exc:
            log.info("tournament %s: its message could not be edited (%s)", s.t.id, exc)
