"""The words of every message: lobby, table status, final standings, rules. Limits are Discord's."""

from __future__ import annotations

import discord

from bot.tables import Table
from games.core import Result

COLOUR = discord.Colour.from_rgb(86, 180, 233)
ORDINALS = ("1st", "2nd", "3rd") + tuple(f"{n}th" for n in range(4, 21))


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def lobby_embed(table: Table, note: str = "") -> discord.Embed:
    engine = table.engine
    notes = engine.seating(len(table.players)) if len(table.players) >= engine.min_players else [""] * len(
        table.players)
    seats = "\n".join(
        f"{i + 1}. <@{p['id']}>" + (" (host)" if p["id"] == table.row.host_id else "")
        + (f" · {notes[i]}" if notes[i] else "")
        for i, p in enumerate(table.players)
    )
    options = ", ".join(f"{k} = {v}" for k, v in table.row.options.items())
    embed = discord.Embed(
        title=f"{engine.title} · lobby",
        description=_clip(
            f"{seats}\n\n{len(table.players)}/{engine.max_players} seated; "
            f"{engine.min_players} needed to start. The host presses **Start**."
            + (f"\nOptions: {options}" if options else "")
            + (f"\n\n{note}" if note else ""),
            4000,
        ),
        colour=COLOUR,
    )
    embed.set_footer(text=f"Table {table.id}")
    return embed


def table_embed(table: Table, filename: str) -> discord.Embed:
    names = table.names
    lines = []
    if table.status == "playing":
        to_act = table.to_act()
        lines.append("To act: " + ", ".join(f"**{names[s]}** (<@{table.players[s]['id']}>)" for s in to_act))
    elif table.status == "finished":
        lines.append("**Game over.**")
    if table.row.last_move:
        lines.append(f"Last move: {table.row.last_move}")
    embed = discord.Embed(
        title=f"{table.engine.title} · table {table.id}", description=_clip("\n".join(lines), 4000), colour=COLOUR
    )
    embed.set_image(url=f"attachment://{filename}")
    return embed


def standings(table: Table, result: Result) -> str:
    names = table.names
    lines = [f"🏆 **{table.engine.title}: final standings**"]
    place = 0
    for group in result.ranking:
        label = ORDINALS[min(place, len(ORDINALS) - 1)]
        who = " = ".join(f"**{names[s]}**" + (" (left)" if table.state["left"][s] else "") for s in group)
        lines.append(f"{label}: {who}, {result.scores[group[0]]} points")
        place += len(group)
    winners = result.winners
    if len(winners) > 1:
        lines.append("Shared victory: " + ", ".join(names[s] for s in winners) + "!")
    return _clip("\n".join(lines), 2000)


def rules_text(engine) -> str:
    return _clip(engine.rules_text(), 2000)
