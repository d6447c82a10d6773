"""The words of every message: lobby, table status, pings, panels, final standings, rules. Limits are Discord's."""

from __future__ import annotations

import discord

from bot.computers import HANDOVER_STRENGTH, computer_seats, is_computer, strength_lines, strength_of
from bot.tables import Table, departure_words, is_invited, name_seats, sitting
from games.core import Result, was_removed

COLOUR = discord.Colour.from_rgb(86, 180, 233)
ORDINALS = ("1st", "2nd", "3rd") + tuple(f"{n}th" for n in range(4, 21))


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def lobby_embed(table: Table, note: str = "") -> discord.Embed:
    engine = table.engine
    notes = engine.seating(len(table.players)) if len(table.players) >= engine.min_players else [""] * len(
        table.players)
    seats = "\n".join(
        f"{i + 1}. {seat_words(p)}" + (" (host)" if p["id"] == table.row.host_id else "")
        + (" · seat kept: press **Join**" if is_invited(p) and table.status == "lobby" else "")
        + (f" · {notes[i]}" if notes[i] else "")
        for i, p in enumerate(table.players)
    )
    teams = engine.teams(len(table.players))
    if teams and table.status == "lobby":
        seats += ("\n\n**Teams**: " + " · ".join(" & ".join(table.names[s] for s in team) for team in teams)
                  + "\nPick your partner with **Team up with ...** before the start.")
    options = ", ".join(engine.describe_options(table.row.options, max(len(table.players), engine.min_players)))
    if table.status == "lobby":
        seated = len(sitting(table.players))
        how = (f"{seated}/{engine.max_players} seated; {start_words(seated, engine.min_players)} "
               "Press **Join** to take a seat, or add a computer from the menu; the host presses **Start**.\n"
               + kept_words(table) + computers_words(table))
        title = f"{engine.title} · lobby"
    else:
        how = "This lobby is closed."
        title = f"{engine.title} · lobby closed"
    embed = discord.Embed(
        title=title,
        description=_clip(f"{seats}\n\n{how}" + (f"\nOptions: {options}" if options else "")
                          + (f"\n\n{note}" if note else ""), 4000),
        colour=COLOUR,
    )
    embed.set_footer(text=f"Table {table.id}")
    return embed


def kept_words(table: Table) -> str:
    """A rematch's lobby: whom it waits for ("Rematch: waiting for Bo, Cy ..."), or nothing."""
    kept = [p for p in table.players if is_invited(p)]
    if not kept:
        return ""
    who = ", ".join(f"<@{p['id']}>" for p in kept)
    return (f"**Rematch**: waiting for {who}: press **Join** to take your seat again. A newcomer takes a kept "
            "seat only when no other is free; **Start** begins without the seats still kept.\n")


def rematch_reply(table: Table, kept: list[dict]) -> str:
    """The ephemeral answer to a Rematch click."""
    waiting = f" Seats are kept for {', '.join(p['name'] for p in kept)}." if kept else ""
    return f"Rematch! A new {table.engine.title} lobby is below, with you as the host.{waiting}"


def rematch_call(table: Table, host: str, kept: list[dict]) -> str:
    """The one message that calls the people of the last game back to their kept seats."""
    who = " ".join(f"<@{p['id']}>" for p in kept)
    return f"🔁 {who}: {host} asked for a rematch of **{table.engine.title}**. Press **Join** to take your seat again."


ROBOT = "🤖"
"""Marks a computer's seat in words, as the robot's head does on the boards."""


def start_words(seated: int, least: int) -> str:
    """How many players a lobby needs: "at least 2 players to start.", and how many more while too few sit."""
    more = least - seated
    return f"at least {least} player{'' if least == 1 else 's'} to start" + (
        f": {more} more needed." if more > 0 else ".")


def seat_words(player: dict) -> str:
    """A seat in the lobby: a person's mention; a computer by its name, which says "computer" and its strength
    or whose seat it took ("Computer 2 (strong)", "Computer for Dee"), the strength added where the name lacks
    it; never a mention: it has no Discord account."""
    if not is_computer(player):
        return f"<@{player['id']}>"
    strength = strength_of(player)
    return f"{ROBOT} **{player['name']}**" + ("" if f"({strength})" in player["name"] else f" ({strength})")


def strength_words(game: str) -> str:
    """What each strength does, a line each ("**easy**: ...")."""
    return "\n".join(f"{ROBOT} **{s}**: {line}" for s, line in strength_lines(game).items())


def computers_words(table: Table) -> str:
    takeover = (f"on: a computer ({HANDOVER_STRENGTH}) takes the seat of a player who leaves or is removed, so the "
                "game goes on"
                if table.row.takeover else "off: the seat of a player who leaves during the game stays empty")
    return f"**Computer players**\n{strength_words(table.row.game)}\nTaking over a leaver's seat: {takeover}."


def in_sentence(group: str) -> str:
    """A group's title inside a sentence: "The Ocean" heads a button, "the Ocean" follows "from"."""
    return "the " + group[4:] if group.startswith("The ") else group


def table_embed(table: Table, filename: str) -> discord.Embed:
    names = table.names
    lines = []
    if table.status == "playing":
        to_act = table.to_act()
        lines.append("To act: " + ", ".join(
            f"{ROBOT} **{names[s]}** (a computer: it moves by itself)" if is_computer(table.players[s]) else
            f"**{names[s]}** (<@{table.players[s]['id']}>)" for s in to_act))
        notice = table.engine.notice(table.state)
        if notice:
            lines.append(f"⚠️ {notice}")
        if table.timer_due and table.engine.timer(table.state):
            # Discord counts a relative timestamp down by itself: no edits needed
            lines.append(f"⏳ Time runs out <t:{int(table.timer_due)}:R>.")
        if len(to_act) == 1 and table.pick_of(to_act[0]):
            noun, group = table.engine.group_noun, in_sentence(table.pick_of(to_act[0]))
            if noun == "choice":  # not "Choosing a choice from Aim at rank 3"
                lines.append(f"Picked **{group}**: choose below (Back to pick another).")
            else:
                lines.append(f"Choosing a {noun} from **{group}** (Back to pick another).")
    elif table.status == "finished":
        result = table.result()
        lines.append(f"**Game over.** {winners_sentence(table, result)}" if result else "**Game over.**")
    elif table.status == "ended":
        lines.append(f"**Ended:** {table.row.end_reason}")
    if table.row.last_move:
        lines.append(f"Last move: {table.row.last_move}")
    embed = discord.Embed(
        title=f"{table.engine.title} · table {table.id}", description=_clip("\n".join(lines), 4000), colour=COLOUR
    )
    embed.set_image(url=f"attachment://{filename}")
    return embed


# --- pings and panels ----------------------------------------------------------------------------------------
def ping(table: Table, mention: list[int], timed_out: tuple[int, ...]) -> str:
    """The one short ping message of a table: who timed out, and a real mention for whose turn came."""
    parts = []
    if timed_out:
        who = " and ".join(f"**{table.names[s]}**" for s in timed_out)
        parts.append(f"⏰ {who} ran out of time; the table played for them.")
    if mention:
        parts.append(" ".join(f"<@{u}>" for u in mention) + f": your turn in **{table.engine.title}**.")
    return " ".join(parts)


def pings_sentence(enabled: bool) -> str:
    if enabled:
        return "I will mention you when your turn comes. (/game pings off to stop.)"
    return "I won't mention you when your turn comes any more. (/game pings on to have it back.)"


def panel_text(table: Table, seat: int, note: str = "") -> str:
    """The words above a player's panel: whose turn, what to do, the last move."""
    label = (table.engine.private_label or "My view").replace("My ", "Your ", 1)
    to_act = table.to_act()
    if seat in to_act:
        doing = "**Your move**: choose below."
        if table.pick_of(seat):
            noun, group = table.engine.group_noun, in_sentence(table.pick_of(seat))
            doing = (f"**Your move**: picked **{group}**, choose below." if noun == "choice" else
                     f"**Your move**: choose a {noun} from **{group}**.")
    else:
        doing = "It is not your turn: waiting for " + ", ".join(table.names[s] for s in to_act) + "."
    lines = [f"{label} (only you can see this; kept up to date while you play from it). {doing}"]
    if table.row.last_move:
        lines.append(f"Last move: {table.row.last_move}")
    if note:
        lines.append(f"*{note}*")
    return _clip("\n".join(lines), 2000)


def panel_closed(table: Table) -> str:
    return "This game is over." if table.status != "playing" else "You are no longer playing at this table."


# --- the end ---------------------------------------------------------------------------------------------------
def _entries(table: Table, result: Result, group: tuple[int, ...]) -> list[str]:
    """The names in one ranking group: a team as one entry ("Team White (Ana & Cy)"), else each player."""
    names, left = table.names, table.state["left"]

    def who(s: int) -> str:
        gone = " (removed by a moderator)" if was_removed(table.state, s) else " (left)"
        return played_by(table.players[s], names[s]) + (gone if left[s] else "")

    teams = result.detail.get("teams") if result.detail else None
    if not teams:
        return [who(s) for s in group]
    team_names = result.detail.get("team_names") or [f"Team {i + 1}" for i in range(len(teams))]
    out = []
    for i, team in enumerate(teams):
        if set(team) & set(group):
            out.append(f"**{team_names[i]}** (" + " & ".join(who(s) for s in team) + ")")
    return out


def played_by(player: dict, name: str) -> str:
    """A name in the standings: a computer's marked, one that took a person's seat says whose."""
    if not is_computer(player):
        return f"**{name}**"
    was = player.get("was")
    return f"{ROBOT} **{name}**" + (f" (took over {was['name']}'s seat)" if was else "")


def winners_sentence(table: Table, result: Result) -> str:
    if result.no_winner:
        return "Nobody won."
    entries = _entries(table, result, result.winners)
    gone = departure_words(table.state, table.names)
    if gone:  # not an ordinary win: the others' departures ended the game
        rest = f" {', '.join(entries)} {'finishes' if len(entries) == 1 else 'finish'} first by default." if entries else ""
        return f"The game ended early: {gone}.{rest}"
    if len(entries) > 1:
        return "Shared victory: " + ", ".join(entries) + "!"
    return f"{entries[0]} wins!" if entries else ""


def standings(table: Table, result: Result) -> str:
    lines = [f"🏆 **{table.engine.title}: final standings**"]
    place = 0
    for group in () if result.no_winner else result.ranking:  # no places when nobody won
        entries = _entries(table, result, group)
        score = result.scores[group[0]]
        lines.append(f"{ORDINALS[min(place, len(ORDINALS) - 1)]}: {' = '.join(entries)}, "
                     f"{score} point{'' if score == 1 else 's'}")
        place += len(entries)
    lines.append(winners_sentence(table, result))
    computers = [table.names[s] + ("" if f"({strength})" in table.names[s] else f" ({strength})")
                 for s, strength in computer_seats(table.players).items()]
    if computers:
        lines.append(f"{ROBOT} Played by a computer: {', '.join(computers)}.")
    details = [name_seats(line, table.names) for line in table.engine.result_lines(table.state)]
    if details:
        lines += ["", "**Score sheet**", *details]
    return _clip("\n".join(lines), 2000)


