"""/privacy: what Geotable keeps about a member in this server, and deleting it (issue 18), for the asker only.

``/privacy show`` lists it (a screen of the house, bot/ui/layout.py): their settings (every server), their ratings here, the games that name them (counts),
the names they have in them, their private panels, and how long this server keeps finished games.
``/privacy delete`` (or the *Delete my data* button under the list) asks once more with a button; confirmed,
``Store.forget_person`` deletes their settings and their ratings and panels in this server, and their seats in
this server's stored games become "Former player": the games stay whole for the others (history, replays,
standings), and they are gone from the leaderboard. Their data in other servers stays until they ask there.
While a lobby or game of this server that is still open names them, nothing is deleted: they are told which
(a game's seats are its players until it ends).
"""

from __future__ import annotations

import time

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.language import member_language
from bot.store import FORMER_PLAYER, PersonTable, StillPlaying
from bot.ui import items, keys
from bot.ui.choices import game_title
from bot.ui.layout import screen
from bot.ui.say import say, think
from i18n import N_, _, ngettext, pgettext

NAMES_SHOWN = 10
"""Names of theirs listed at most (the rest counted)."""



def retention_sentence(days: int | None) -> i18n.Text:
    if not days:
        return _("finished games are kept in this server until its moderators set a limit (`/mod retention`).")
    return ngettext("finished games are kept in this server for {n} day, then deleted with their moves and results.",
                    "finished games are kept in this server for {n} days, then deleted with their moves and results.",
                    days)


def deleting() -> i18n.Text:
    """What ``/privacy delete`` does (the stored games keep the name ``FORMER_PLAYER`` as it is stored)."""
    return _("deletes your settings (in every server) and your ratings here, and replaces your name in this "
             "server's stored games with \"{former}\": the games stay whole for the other players, and you are gone "
             "from the leaderboard. Your data in other servers stays until you ask there. Boards already posted are "
             "Discord messages and stay as they are.", former=FORMER_PLAYER)


def open_tables_sentence(tables: list[PersonTable]) -> i18n.Text:
    where = ", ".join(sorted({f"<#{t.channel_id}>" for t in tables}))
    return _("You are at a lobby or game that is still open here ({where}): nothing was deleted. Leave the lobby, or "
             "wait until the game ends (a game you left still lists you until then), then ask again.", where=where)


LABELS = {"ask": N_("Delete my data…"), "delete": N_("Yes, delete my data"), "keep": N_("Keep it")}
"""The buttons of /privacy (``keys.Privacy``): ``ask`` (under the list: asks to confirm), ``delete`` (confirmed),
``keep`` (cancelled). The user id in the id is the asker's: another member's click (a forged id) changes nothing."""
STYLES = {"ask": "secondary", "delete": "danger", "keep": "secondary"}


def buttons(*steps: str, user: int, locale: str = i18n.DEFAULT) -> list[discord.ui.Item]:
    """The buttons (DynamicItems, answered after a restart too)."""
    return [items.button(keys.Privacy(step, user), i18n.say(locale, LABELS[step]), STYLES[step]) for step in steps]


def answer(text: i18n.Text, lang: str) -> dict:
    """What the confirmation's message becomes (Keep it, or done): its words alone, a screen of the house (a V2
    message's edit, and an old classic one's: its content cleared to become one)."""
    return {"content": None, "embeds": [], "view": screen("", i18n.localize(text, lang))}


class Privacy(commands.Cog):
    privacy = app_commands.Group(name="privacy", description="What Geotable keeps about you here, and deleting it",
                                 guild_only=True)

    def __init__(self, bot):
        self.bot = bot

    @property
    def store(self):
        return self.bot.service.store

    async def click(self, interaction: discord.Interaction, what: keys.Privacy | None) -> None:
        """A click on a /privacy button (``Geotable.on_key``); None: one that is not on its message (forged)."""
        lang = member_language(interaction)
        if what is None:
            await say(interaction, _("This button no longer works: use `/privacy` again."))
        elif interaction.user.id != what.user:
            await say(interaction, _("This button is someone else's: use `/privacy` for your own data."))
        elif interaction.guild_id is None:
            await say(interaction, _("Your data is kept per server: use `/privacy` in the server."))
        elif what.step == "ask":
            await self.ask(interaction)
        elif what.step == "keep":
            await interaction.response.edit_message(**answer(_("Nothing was deleted."), lang))
        else:
            await self.delete_confirmed(interaction)

    @privacy.command(name="show", description="What Geotable keeps about you in this server (only you see it)")
    async def show(self, interaction: discord.Interaction) -> None:
        await think(interaction)  # a big server's games take a moment
        lang = member_language(interaction)
        lines = await self.report(interaction.guild_id, interaction.user)
        title = _("What Geotable keeps about you in this server")  # (not inside say(): Babel reads say's own only)
        view = screen(i18n.localize(title, lang), *(i18n.localize(line, lang) for line in lines),
                      controls=buttons("ask", user=interaction.user.id, locale=lang))
        await say(interaction, None, view=view)

    @privacy.command(name="delete", description="Delete your settings and ratings and remove your name from games here")
    async def delete(self, interaction: discord.Interaction) -> None:
        await self.ask(interaction)

    async def report(self, guild_id: int, user: discord.abc.User) -> list[i18n.Text]:
        """The report's lines (under its title)."""
        store = self.store
        settings = await store.user_settings(user.id)
        stats = await store.stats(guild_id, user.id)
        tables = await store.person_tables(guild_id, user.id, names_of(user))
        panels = await store.panel_count(guild_id, user.id)
        retention = (await self.bot.service.settings(guild_id)).retention_days
        lines = []
        if settings is None:
            lines.append(_("**Settings** (every server): none stored (turn pings on, the default)."))
        elif settings["pings"]:
            lines.append(_("**Settings** (every server): turn pings on."))
        else:
            lines.append(_("**Settings** (every server): turn pings off."))
        rated = []
        for s in stats:
            rating = _("rating {rating}", rating=s.rating) if s.rating is not None else _("no rating yet")
            rated.append(_("{game}: {rating} ({rated} rated, {won} won, {unrated} unrated)", game=game_title(s.game),
                           rating=rating, rated=s.games, won=s.wins, unrated=s.unrated))
        lines.append(_("**Ratings here:** {ratings}.", ratings=i18n.join(rated, "; ") if rated else pgettext("ratings", "none")))
        seated = [t for t in tables if t.seated]
        finished = [t for t in seated if t.status == "finished"]
        per_game: dict[str, int] = {}
        for t in finished:
            per_game[game_title(t.game)] = per_game.get(game_title(t.game), 0) + 1
        games = [_("{n} finished", n=len(finished)) if not per_game else
                 _("{n} finished ({games})", n=len(finished),
                   games=", ".join(f"{g} {n}" for g, n in sorted(per_game.items())))]
        others = [t for t in seated if t.status == "ended"]
        still = [t for t in seated if t.open]
        ended = [t for t in tables if not t.seated]
        games.append(_("{n} closed without a result (lobbies, games ended early)", n=len(others)))
        games.append(_("{n} open now", n=len(still)))
        if ended:
            games.append(_("{n} ended by you as a moderator", n=len(ended)))
        lines.append(_("**Games here that name you:** {games}.", games=i18n.join(games, ", ")))
        names = sorted(set().union(*(t.names for t in tables)))
        shown = ", ".join(names[:NAMES_SHOWN])
        if len(names) > NAMES_SHOWN:
            shown = _("{names} and {n} more", names=shown, n=len(names) - NAMES_SHOWN)
        lines.append(_("**Your names in them:** {names}.", names=shown or pgettext("names", "none")))
        lines.append(_("**Private panels** (to keep your hand's message up to date, 15 minutes): {n}.", n=panels))
        daily = await store.daily_result_count(guild_id, user.id)
        lines.append(ngettext("**Daily puzzle results here:** {n} day (your moves and streaks).",
                              "**Daily puzzle results here:** {n} days (your moves and streaks).", daily))
        lines += await season_lines(store, guild_id, user.id)
        entries = await store.member_entries(guild_id, user.id)
        lines.append(ngettext("**Tournament entries here:** {n} ({list}).", "**Tournament entries here:** {n} ({list}).",
                              len(entries), list=", ".join(f"#{t} {game_title(g)}" for t, g, _s in entries) or "-"))
        lines.append(_("**How long:** {retention}", retention=retention_sentence(retention)))
        lines.append(_("`/privacy delete` {deleting}", deleting=deleting()))
        return lines

    async def ask(self, interaction: discord.Interaction) -> None:
        """The confirmation, or why nothing can be deleted yet."""
        await think(interaction)
        tables = await self.store.person_tables(interaction.guild_id, interaction.user.id, names_of(interaction.user))
        still = [t for t in tables if t.open]
        if still:
            await say(interaction, open_tables_sentence(still))
            return
        lang = member_language(interaction)
        question = _("Delete your data? This {deleting} It cannot be undone.", deleting=deleting())
        view = screen("", i18n.localize(question, lang),
                      controls=buttons("delete", "keep", user=interaction.user.id, locale=lang))
        await say(interaction, None, view=view)

    async def delete_confirmed(self, interaction: discord.Interaction) -> None:
        """The confirmation's "Yes": its message becomes the answer. A second press of it (a double click, or the
        old button pressed again after a restart) is told so in a message of its own and changes nothing: the
        store keeps which confirmations were clicked (``claim_confirmation``), so the first answer stays."""
        message_id, lang = interaction.message.id, member_language(interaction)
        if not await self.store.claim_confirmation(message_id, time.time()):
            await say(interaction, _("You already confirmed this: your data is deleted (or being deleted) with your "
                                     "first click."))
            return
        await interaction.response.defer()  # the confirmation's message is edited below
        try:
            done = await self.store.forget_person(interaction.guild_id, interaction.user.id,
                                                  names_of(interaction.user))
        except StillPlaying as exc:
            await self.store.release_confirmation(message_id)  # nothing deleted: pressed again later, it may be
            text = open_tables_sentence(exc.tables)
        except Exception:
            await self.store.release_confirmation(message_id)  # nothing was done: the button may be tried again
            raise
        else:
            text = _("Done. Your settings and your ratings here ({ratings}) are deleted, and your name is replaced "
                     "with \"{former}\" in {tables} of this server.", former=FORMER_PLAYER,
                     ratings=ngettext("ratings in {n} game", "ratings in {n} games", done.ratings),
                     tables=ngettext("{n} stored table", "{n} stored tables", done.tables))
            if done.seasons:
                text = i18n.join([text, ngettext("Your season rating in {n} game is deleted too, and your hall of fame "
                                                 "places now read \"{former}\".",
                                                 "Your season ratings in {n} games are deleted too, and your hall of "
                                                 "fame places now read \"{former}\".", done.seasons,
                                                 former=FORMER_PLAYER)], " ")
            if done.daily:
                text = i18n.join([text, ngettext("Your daily puzzle result of {n} day is deleted too.",
                                                 "Your daily puzzle results of {n} days are deleted too.",
                                                 done.daily)], " ")
            if done.tournaments:
                text = i18n.join([text, ngettext("You left {n} tournament; its games you played stay, as \"{former}\".",
                                                 "You left {n} tournaments; their games you played stay, as "
                                                 "\"{former}\".", done.tournaments, former=FORMER_PLAYER)], " ")
                await self.bot.get_cog("Tournament").forgotten(interaction.guild_id)
        await interaction.edit_original_response(**answer(text, lang))


async def season_lines(store, guild_id: int, user_id: int) -> list[i18n.Text]:
    """The report's season ratings and hall of fame places (bot/store/seasons.py)."""
    rated, places = await store.person_seasons(guild_id, user_id)
    each = [_("{season}, {game}: rating {rating} ({n} rated)", season=season, game=game_title(game), rating=rating,
              n=games) for season, game, rating, games in rated]
    podium = [_("{season}, {game}: place {place}", season=season, game=game_title(game), place=place)
              for season, game, place in places]
    return [_("**Season ratings here:** {ratings}.", ratings=i18n.join(each, "; ") if each
              else pgettext("ratings", "none")),
            _("**Hall of fame places here:** {places}.", places=i18n.join(podium, "; ") if podium
              else pgettext("places", "none"))]


def names_of(user: discord.abc.User) -> list[str]:
    """The names the bot may have stored for ``user`` (seats take the display name at the time)."""
    return sorted({n for n in (getattr(user, "display_name", None), getattr(user, "global_name", None), user.name)
                   if n})
