"""/leaderboard, /stats and /history: the server's records of finished games (issue 18, items 2 and 3).

Who sees what: a leaderboard and a member's stats are posted in the channel (a ladder is for the server to see,
and stats are what people show each other); /history answers the asker only (a lookup, often of links to
older boards, that would push the channel's conversation up for everyone). Each answer is a screen of the layout
kit (bot/ui/layout.py): /leaderboard in its game's accent, /stats and /history in the house's; the images sit in
a media gallery with their description in words. The images are drawn in the render
workers (bot/workers/renderpool.py), never on the event loop; the figures come from the store's indexed queries.
"""

from __future__ import annotations

import io
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from bot.computers import display_name
from bot.greeting import command
from bot.language import channel_language, member_language
from bot.ratings import outcome_sentence
from bot.store import FinishedGame, GameStats, Season, Standing
from bot.ui.choices import GAME_CHOICES, game_title
from bot.ui.layout import HOUSE, screen
from bot.ui.say import say
from bot.workers import renderpool
from games import get_engine
from i18n import _, ngettext

TOP = 10
TREND = 20
"""Rated games the trend chart shows (the latest)."""
HISTORY = 10



def _row(s: Standing) -> dict:
    return {"rank": s.rank, "user_id": s.user_id, "name": s.name, "rating": s.rating, "games": s.games,
            "wins": s.wins}


def stats_line(s: GameStats) -> i18n.Text:
    """One game's figures in words: rated games, wins, rating and its trend, best score, unrated games."""
    parts = []
    if s.games:
        games = ngettext("{n} rated game", "{n} rated games", s.games)
        wins = ngettext("{n} win", "{n} wins", s.wins)
        if len(s.trend) >= 2:
            change = s.trend[-1][1] - s.trend[-2][1]
            parts.append(_("rating **{rating}** ({change} last game), {games}, {wins}", rating=s.rating,
                           change=f"{'+' if change >= 0 else ''}{change}", games=games, wins=wins))
        else:
            parts.append(_("rating **{rating}**, {games}, {wins}", rating=s.rating, games=games, wins=wins))
    else:
        parts.append(_("not rated yet"))
    if s.unrated:
        parts.append(ngettext("{n} unrated game (with computers or fewer than two people)",
                              "{n} unrated games (with computers or fewer than two people)", s.unrated))
    if s.best_score is not None:
        parts.append(_("best score {score}", score=i18n.number(s.best_score)))
    return _("**{game}**: {figures}.", game=game_title(s.game), figures=i18n.join(parts, "; "))


HISTORY_ROOM = 3800
"""The characters of /history's lines: a V2 message's 4,000 less its title's (a message's 2,000 held 9 of the
10 lines with their links, or fewer with long names)."""
NAME_CUTS = (None, 20, 12, 8)
"""The longest a name in a /history line may be (None: whole), tried in turn until the lines fit."""


def _cut(name: str, most: int | None) -> str:
    return name if most is None or len(name) <= most else name[:most - 1].rstrip() + "…"


def history_line(game: FinishedGame, with_channel: bool, lang: str, most: int | None = None) -> str:
    """One finished game in /history: its id, when, game, (channel), players and winners (names cut to
    ``most`` characters), a link to its final board."""
    def names(players: list[dict]) -> str:
        return ", ".join(_cut(i18n.localize(display_name(p), lang), most) for p in players)

    winners, departed = game.winners, game.departed
    if departed and winners:  # the game's own winner left: "**Ana** wins: Bo left (a computer played their seat)."
        won = outcome_sentence([f"**{_cut(i18n.localize(display_name(p), lang), most)}**" for p in winners],
                               [_cut(name, most) for name in departed])
    else:
        won = _("won by **{names}**", names=names(winners)) if winners else _("nobody won")
    link = (_(" · [final board]({url})", url=f"https://discord.com/channels/{game.guild_id}/{game.channel_id}/"
                                             f"{game.message_id}") if game.message_id and game.channel_id else "")
    place = _(" in {channel}", channel=f"<#{game.channel_id}>") if with_channel and game.channel_id else ""
    return i18n.localize(_("{id} {when} **{game}**{place}: {people}; {won}{link}", id=f"`#{game.short_id}`",
                           when=f"<t:{int(game.finished_at)}:R>", game=game_title(game.game), place=place,
                           people=names(game.players), won=won, link=link), lang)


def history_text(found: list[FinishedGame], with_channel: bool, lang: str) -> str:
    """The lines of /history, newest first, within ``HISTORY_ROOM``: every game's whole line when they fit, else
    with the names cut shorter (``NAME_CUTS``); only past the shortest cut do the oldest lines give way."""
    for most in NAME_CUTS:
        lines = [history_line(game, with_channel, lang, most) for game in found]
        if len("\n".join(lines)) <= HISTORY_ROOM:
            return "\n".join(lines)
    while len("\n".join(lines)) > HISTORY_ROOM:
        lines.pop()
    return "\n".join(lines)


def _accent(slug: str) -> int:
    try:
        return get_engine(slug).accent
    except KeyError:
        return HOUSE


def leaderboard_words(rows: list[dict], own: dict | None) -> i18n.Text:
    """What the leaderboard's image shows, in words (its description): each row's rank, name and rating."""
    shown = rows + ([own] if own and all(r["user_id"] != own["user_id"] for r in rows) else [])
    each = [_("{rank}. {name} {rating}", rank=r["rank"], name=r["name"], rating=r["rating"]) for r in shown]
    return _("Ranks and ratings: {rows}.", rows=i18n.join(each, "; "))  # (no _() inside _(): Babel misses it)


def trend_words(name: str, found: list[GameStats]) -> i18n.Text:
    """What the rating chart of /stats shows, in words: each game's rating from its first to its latest point."""
    each = [_("{game} from {first} to {last}", game=game_title(s.game), first=s.trend[0][1], last=s.trend[-1][1])
            for s in found if s.trend]
    return _("{name}'s rating over the latest rated games: {trends}.", name=name, trends=i18n.join(each, "; "))


def season_words(season: Season, players: int) -> i18n.Text:
    """Under a season's ladder: how many are rated in it, and until when it runs (or that it ended)."""
    if season.running:
        return ngettext("{n} player is rated in this game in season {season}, which runs until {end}.",
                        "{n} players are rated in this game in season {season}, which runs until {end}.", players,
                        season=season.name, end=f"<t:{int(season.ends_at)}:f>")
    return ngettext("{n} player was rated in this game in season {season}, which ended {end}.",
                    "{n} players were rated in this game in season {season}, which ended {end}.", players,
                    season=season.name, end=f"<t:{int(season.ended_at)}:D>")


class Records(commands.Cog):
    def __init__(self, bot):
        self.bot = bot

    @app_commands.command(name="leaderboard", description="The server's best rated players of a game")
    @app_commands.describe(game="The game whose leaderboard you want to see",
                           season="A season's own ladder (the running one is offered first); left out: all time")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                          season: str | None = None) -> None:
        chosen = None
        if season is not None:  # a name (autocomplete offers the server's seasons), letter case aside
            chosen = await self.bot.store.season_named(interaction.guild_id, " ".join(season.split()))
            if chosen is None:
                await say(interaction, _("This server has no season called **{name}**: `/{leaderboard}` offers "
                                         "its seasons as you type.", name=season[:40], leaderboard=command("leaderboard")))
                return
        await interaction.response.defer(thinking=True)
        if chosen is None:
            board = await self.bot.store.leaderboard(interaction.guild_id, game.value, TOP, interaction.user.id)
        else:
            board = await self.bot.store.season_board(chosen.id, game.value, TOP, interaction.user.id)
        lang = await channel_language(interaction)
        if not board.rows:
            none = (_("Nobody is rated in {game} on this server yet: a game between two or more people, without"
                      " computers, rates its players when it ends.", game=game.name) if chosen is None else
                    _("Nobody is rated in {game} in season {season} yet.", game=game.name, season=chosen.name))
            await interaction.edit_original_response(content=i18n.localize(none, lang))
            return
        rows, own = [_row(r) for r in board.rows], _row(board.own) if board.own else None
        drawn = game.name if chosen is None else f"{game.name} · {chosen.name}"
        image = await renderpool.leaderboard(drawn, rows, own, board.players, interaction.user.id, locale=lang)
        said = [ngettext("{n} player is rated in this game here.", "{n} players are rated in this game here.",
                         board.players) if chosen is None else season_words(chosen, board.players)]
        if not board.own:
            said.append(_("You are not rated in this game yet.") if chosen is None else
                        _("You are not rated in this game in this season."))
        title = (_("{game}: leaderboard", game=game.name) if chosen is None else
                 _("{game}: leaderboard of season {season}", game=game.name, season=chosen.name))
        view = screen(i18n.localize(title, lang),
                      *(i18n.localize(line, lang) for line in said), accent=_accent(game.value),
                      image=("leaderboard.png", i18n.localize(leaderboard_words(rows, own), lang)))
        await interaction.edit_original_response(content=None, view=view,
                                                 attachments=[discord.File(io.BytesIO(image), "leaderboard.png")])

    @leaderboard.autocomplete("season")
    async def season_names(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        """The server's seasons: the running one first (marked), then the ended ones, newest first."""
        lang = member_language(interaction)
        found = await self.bot.store.seasons(interaction.guild_id, 25)
        return [app_commands.Choice(name=i18n.localize(_("{name} (running)", name=s.name), lang)[:100]
                                    if s.running else s.name, value=s.name)
                for s in found if typed.strip().lower() in s.name.lower()]

    @app_commands.command(name="stats", description="A member's games, wins, ratings and rating trend here")
    @app_commands.describe(member="Whose stats (you when left out)")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        who = member or interaction.user
        await interaction.response.defer(thinking=True)
        found = await self.bot.store.stats(interaction.guild_id, who.id, TREND)
        name, lang = who.display_name, await channel_language(interaction)
        if not found:
            await interaction.edit_original_response(content=i18n.localize(
                _("{name} has not finished a game on this server yet.", name=name), lang))
            return
        lines = [i18n.localize(_("- {line}", line=stats_line(s)), lang) for s in found]
        season = await self.season_line(interaction.guild_id, who.id)
        if season is not None:
            lines.append(i18n.localize(season, lang))
        title = i18n.localize(_("{name} on this server", name=name), lang)
        charts = [{"title": game_title(s.game), "points": [p[1] for p in s.trend],
                   "note": _("last {n} rated", n=len(s.trend)) if len(s.trend) > 1 else _("1 rated game")}
                  for s in found if s.trend]
        if not charts:
            await interaction.edit_original_response(content=None, view=screen(title, *lines))
            return
        image = await renderpool.trends(name, charts, locale=lang)
        view = screen(title, *lines, image=("stats.png", i18n.localize(trend_words(name, found), lang)))
        await interaction.edit_original_response(content=None, view=view,
                                                 attachments=[discord.File(io.BytesIO(image), "stats.png")])

    async def season_line(self, guild_id: int, user_id: int) -> i18n.Text | None:
        """/stats: the member's ratings in the running season, if they have any."""
        current = await self.bot.store.current_season(guild_id)
        if current is None:
            return None
        rated, _places = await self.bot.store.person_seasons(guild_id, user_id)
        each = [_("{game} {rating} ({n} rated)", game=game_title(game), rating=rating, n=games)
                for season, game, rating, games in rated if season == current.name]
        if not each:
            return None
        return _("Season **{season}**: {ratings}.", season=current.name, ratings=i18n.join(each, ", "))

    @app_commands.command(name="history", description="Recent finished games of this channel or the server")
    @app_commands.describe(scope="channel (the default): this channel's games; server: every channel's")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction,
                      scope: Literal["channel", "server"] = "channel") -> None:
        channel = interaction.channel_id if scope == "channel" else None
        found = await self.bot.store.history(interaction.guild_id, channel, HISTORY)
        lang = member_language(interaction)
        if not found:
            none = (_("No game has finished in this channel yet.") if channel is not None
                    else _("No game has finished in this server yet."))
            await say(interaction, none)
            return
        title = (_("Finished games in this channel") if channel is not None else _("Finished games in this server"))
        newest = _("Newest first.")  # (not inside say(): Babel reads say's own argument only)
        view = screen(i18n.localize(title, lang), history_text(found, channel is None, lang),
                      small=i18n.localize(newest, lang))
        await say(interaction, None, view=view)
