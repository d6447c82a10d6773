"""The words of every message: lobby, table status, pings, panels, rules (the final standings: bot/ui/final.py).
Limits are Discord's.

Each builder takes ``lang``, the language it speaks (bot/language.py picks it: the server's for what the
channel sees, the member's for what only they see); English by default."""

from __future__ import annotations

import time

import i18n
from bot.computers import (
    ROBOT,
    display_name,
    is_computer,
    strength_lines,
    strength_of,
    strength_word,
)
from bot.table import pace as paces
from bot.table import recent
from bot.table.model import Table
from bot.table.seating import is_invited, sitting
from bot.table.words import end_words, name_seats
from bot.ui.final import winners_sentence
from bot.ui.layout import clip
from i18n import DEFAULT, N_, localize, ngettext, say

YOUR_LABELS = (N_("Your hand"), N_("Your program"), N_("Your goals"), N_("Your view"))
"""What a player's panel is called ("My hand" on the board's button, "Your hand" above the panel)."""


def last_move_line(last: str, lang: str = DEFAULT) -> str:
    """"Last move: ..." or, for the steps since the last board one a line (a computer's turn), "Latest
    moves:" above them."""
    if "\n" in last:
        return say(lang, "Latest moves:") + "\n" + last
    return say(lang, "Last move: {move}", move=last)


def both(items: list[str], lang: str = DEFAULT) -> str:
    """"A and B" (and "A and B and C")."""
    out = items[0] if items else ""
    for item in items[1:]:
        out = say(lang, "{first} and {second}", first=out, second=item)
    return out


def lobby_title(table: Table, lang: str = DEFAULT) -> str:
    if table.status == "lobby":
        return say(lang, "{game} · lobby", game=table.engine.title)
    return say(lang, "{game} · lobby closed", game=table.engine.title)


def seat_lines(table: Table, lang: str = DEFAULT) -> list[str]:
    """A lobby's seats, a line each: "1. <@101> (host)", "2. 🤖 **Computer (strong)**", with the game's note for
    the seat (a team, a colour) once enough are seated."""
    engine = table.engine
    notes = engine.seating(len(table.players)) if len(table.players) >= engine.min_players else [""] * len(
        table.players)
    lines = []
    for i, p in enumerate(table.players):
        line = f"{i + 1}. {seat_words(p, lang)}"
        if p["id"] == table.row.host_id:
            line += " " + say(lang, "(host)")
        if is_invited(p) and table.status == "lobby":
            line += " · " + say(lang, "seat kept: press **Join**")
        if notes[i]:
            line += f" · {localize(notes[i], lang)}"
        lines.append(line)
    return lines


def lobby_words(table: Table, note: str = "", lang: str = DEFAULT) -> str:
    """What a lobby says under its seats: the teams, how many sit and how many it needs, whom a rematch waits
    for, the options in words, and ``note`` (what just happened). What each computer strength does is said
    where the host picks one (the menu), whether a computer takes a leaver's seat on its switch."""
    engine = table.engine
    names = [localize(n, lang) for n in table.names]
    lines = []
    teams = engine.teams(len(table.players))
    if teams and table.status == "lobby":
        lines.append(say(lang, "**Teams**: {teams}", teams=" · ".join(" & ".join(names[s] for s in team)
                                                                    for team in teams))
                     + "\n" + say(lang, "Pick your partner with **Team up with ...** before the start."))
    if table.status == "lobby":
        seated = len(sitting(table.players))
        lines.append(say(lang, "{seated}/{most} seated; {start}", seated=seated, most=engine.max_players,
                         start=start_words(seated, engine.min_players, lang)))
        lines.append(kept_words(table, lang).rstrip("\n"))
    else:
        lines.append(say(lang, "This lobby is closed."))
    options = " · ".join(localize(engine.option_words(_options_shown(table),
                                                       max(len(table.players), engine.min_players)), lang))
    if options:
        lines.append(say(lang, "Options: {options}", options=options))
    lines.append(pace_line(table, lang))
    if note:
        lines.append(localize(note, lang))
    return "\n".join(line for line in lines if line)


def _options_shown(table: Table) -> dict:
    """The lobby's options in words: a turn-based table leaves out the sand timer's seconds (its sand runs a
    fifth of the pace: ``sand_words``)."""
    if table.row.pace is None:
        return table.row.options
    return {name: value for name, value in table.row.options.items() if name != "timer"}


def pace_line(table: Table, lang: str = DEFAULT) -> str:
    """The lobby's pace: "Pace: live" or "Pace: turn-based, 24 h per move · when a move runs out, the table plays
    it"."""
    line = say(lang, "Pace: {pace}", pace=localize(paces.pace_words(table.row.pace), lang))
    if table.row.pace is None:
        return line
    line += " · " + (say(lang, "when a move runs out, a computer takes the seat")
                     if table.row.on_timeout == "computer" else
                     say(lang, "when a move runs out, the table plays it"))
    if "timer" in table.row.options and not table.row.options.get("no_timer"):  # Globe Twister's sand timer
        line += "\n" + sand_words(table.row.pace, lang)
    return line


def sand_words(pace: int, lang: str = DEFAULT) -> str:
    """A turn-based game with a sand timer: how long it runs at this pace (docs/rules/globe-twister.md 7b)."""
    return say(lang, "At this pace the sand timer runs {time}, a fifth of the time per move.",
               time=localize(paces.exact_words(paces.sand_seconds(pace)), lang))


def clock_line(table: Table, now: float, lang: str = DEFAULT) -> str:
    """A turn-based board's clock: the time left in plain words as the board was drawn, and Discord's own
    countdown ("⏳ 24 h per move: 21 h left; time runs out in 21 hours."; a countdown line: a board that is
    no longer current loses it, ``bot.ui.layout.retired``), or "" for a live table."""
    if table.row.pace is None or table.status != "playing" or not table.turn_due:
        return ""
    if not any(not is_computer(table.players[s]) for s in table.to_act()):
        return ""
    return COUNTDOWN + say(lang, "{pace} per move: {left} left; time runs out {when}.",
                      pace=localize(paces.per_move_words(table.row.pace), lang),
                      left=localize(paces.span_words(table.turn_due - now), lang),
                      when=f"<t:{int(table.turn_due)}:R>")


def away_words(until: float, lang: str = DEFAULT) -> str:
    """A seat to act whose player is away: "away until <date>" (Discord shows the date in the reader's time)."""
    return say(lang, "away until {date}", date=f"<t:{int(until)}:f>")


def may_start(table: Table) -> bool:
    """Enough players sit for the host to start."""
    return table.status == "lobby" and len(sitting(table.players)) >= table.engine.min_players


def kept_words(table: Table, lang: str = DEFAULT) -> str:
    """A rematch's lobby: whom it waits for ("Rematch: waiting for Bo, Cy ..."), or nothing."""
    kept = [p for p in table.players if is_invited(p)]
    if not kept:
        return ""
    who = ", ".join(f"<@{p['id']}>" for p in kept)
    return say(lang, "**Rematch**: waiting for {players}: press **Join** to take your seat again. A newcomer takes a "
                     "kept seat only when no other is free; **Start** begins without the seats still kept.",
               players=who) + "\n"


def rematch_reply(table: Table, kept: list[dict], lang: str = DEFAULT) -> str:
    """The ephemeral answer to a Rematch click."""
    text = say(lang, "Rematch! A new {game} lobby is below, with you as the host.", game=table.engine.title)
    if kept:
        text += " " + say(lang, "Seats are kept for {players}.", players=", ".join(p["name"] for p in kept))
    return text


def rematch_call(table: Table, host: str, kept: list[dict], lang: str = DEFAULT) -> str:
    """The one message that calls the people of the last game back to their kept seats."""
    who = " ".join(f"<@{p['id']}>" for p in kept)
    return "🔁 " + say(lang, "{players}: {host} asked for a rematch of **{game}**. Press **Join** to take your seat "
                             "again.", players=who, host=host, game=table.engine.title)


def start_words(seated: int, least: int, lang: str = DEFAULT) -> str:
    """How many players a lobby needs: "at least 2 players to start.", and how many more while too few sit."""
    more = least - seated
    if more > 0:
        return localize(ngettext("at least {n} player to start: {more} more needed.",
                                 "at least {n} players to start: {more} more needed.", least, more=more), lang)
    return localize(ngettext("at least {n} player to start.", "at least {n} players to start.", least), lang)


def seat_words(player: dict, lang: str = DEFAULT) -> str:
    """A seat in the lobby: a person's mention; a computer by its name, which says "computer" and its strength
    or whose seat it took ("Computer 2 (strong)", "Computer for Dee"), the strength added where the name lacks
    it; never a mention: it has no Discord account."""
    if not is_computer(player):
        return f"<@{player['id']}>"
    strength = strength_word(strength_of(player), lang)
    name = localize(display_name(player), lang)
    return f"{ROBOT} **{name}**" + ("" if f"({strength})" in name else f" ({strength})")


def strength_words(game: str, lang: str = DEFAULT) -> str:
    """What each strength does, a line each ("**easy**: ...")."""
    return "\n".join(f"{ROBOT} **{strength_word(s, lang)}**: {localize(line, lang)}"
                     for s, line in strength_lines(game).items())


def in_sentence(group: str, lang: str = DEFAULT) -> str:
    """A group's title inside a sentence: "The Ocean" heads a button, "the Ocean" follows "from"."""
    group = localize(group, lang)
    return "the " + group[4:] if lang == DEFAULT and group.startswith("The ") else group


def acting_computer(name: str, lang: str = DEFAULT) -> str:
    """A computer on the To act line: no mention. (Not nested in the line's own say(): the extractor missed it.)"""
    return f"{ROBOT} " + say(lang, "**{name}** (a computer: it moves by itself)", name=name)


COUNTDOWN = "⏳ "
"""Opens the board's line with the live countdown of a game timer ("Time runs out in 25 seconds.")."""


def table_title(table: Table, lang: str = DEFAULT) -> str:
    """ "Geek Out · table 12 · Turn 3 of 5 each": the game, the table and, while it is played, how far it has come
    (``Engine.progress``)."""
    title = say(lang, "{game} · table {table}", game=table.engine.title, table=table.id)
    progress = progress_words(table, lang)
    return f"{title} · {progress}" if progress else title


def progress_words(table: Table, lang: str = DEFAULT) -> str:
    """How far the game has come ("Round 2 of 3, turn 4": ``Engine.progress``) while it is played, else ""."""
    progress = table.engine.progress(table.state) if table.status == "playing" and table.state else None
    return localize(name_seats(progress, table.names), lang) if progress else ""


def latest_moves(table: Table, lang: str = DEFAULT) -> str:
    """The latest moves under the board: the log lines since the seat to act last had its turn (every step of a
    computer's turn included; ``bot.table.recent.latest``), "Last move: ..." for one; over ``recent.SHOWN`` the
    newest, under a line that counts the earlier ones. A table with no lines kept says
    its last move as stored."""
    if not table.recent:
        last = table.last_move(lang)
        return last_move_line(last, lang) if last else ""
    shown = recent.latest(table.recent, table.to_act() if table.status == "playing" else ())
    lines = [recent.said(line, lang) for line in shown.lines]
    if len(lines) == 1 and not shown.earlier:
        return say(lang, "Last move: {move}", move=lines[0])
    out = [say(lang, "Latest moves:")]
    if shown.beyond:
        out.append("-# … " + say(lang, "more earlier moves not shown"))
    elif shown.earlier:
        out.append("-# … " + localize(ngettext("{n} earlier move not shown", "{n} earlier moves not shown",
                                               shown.earlier), lang))
    return "\n".join([*out, *lines])


def status_lines(table: Table, lang: str = DEFAULT, now: float | None = None) -> list[str]:
    """A board's first lines: whose turn (with their mark, as the lobby noted the seat; "away until ..." for a
    player on vacation), a warning, the live countdown (a game timer's; a turn-based table's clock, read at
    ``now``); or how the game ended."""
    names = [localize(n, lang) for n in table.names]
    lines = []
    if table.status == "playing":
        to_act = table.to_act()
        notes = table.engine.seating(len(table.players))

        def who(s: int) -> str:
            shown = (acting_computer(names[s], lang) if is_computer(table.players[s]) else
                     f"**{names[s]}** (<@{table.players[s]['id']}>)")
            away = table.away.get(table.players[s]["id"])
            shown += f" · {away_words(away, lang)}" if away else ""
            return shown + (f" · {localize(notes[s], lang)}" if s < len(notes) and notes[s] else "")

        lines.append(say(lang, "To act: {players}", players=", ".join(who(s) for s in to_act)))
        notice = table.engine.notice(table.state)
        if notice:
            lines.append(f"⚠️ {localize(notice, lang)}")
        if table.timer_due and table.engine.timer(table.state):
            # Discord counts a relative timestamp down by itself: no edits needed (a board superseded while it
            # runs loses the line: ``bot.ui.layout.retired``)
            lines.append(COUNTDOWN + say(lang, "Time runs out {when}.", when=f"<t:{int(table.timer_due)}:R>"))
        clock = clock_line(table, time.time() if now is None else now, lang)
        if clock:
            lines.append(clock)
    elif table.status == "finished":
        result = table.result()
        over = say(lang, "**Game over.**")
        lines.append(f"{over} {winners_sentence(table, result, lang)}" if result else over)
    elif table.status == "ended":
        lines.append(say(lang, "**Ended:** {reason}", reason=end_words(table.row.end_reason)))
    return lines


def choice_line(table: Table, lang: str = DEFAULT) -> str:
    """The choice in front of the player to act when they picked a group ("Choosing a shape from **the
    Ocean** (Back to pick another)."), else ""."""
    to_act = table.to_act() if table.status == "playing" else ()
    if len(to_act) != 1 or not table.pick_of(to_act[0]):
        return ""
    noun, group = localize(table.engine.group_noun, lang), in_sentence(table.pick_of(to_act[0]), lang)
    if table.engine.group_noun == "choice":  # not "Choosing a choice from Aim at rank 3"
        return say(lang, "Picked **{group}**: choose below (Back to pick another).", group=group)
    return say(lang, "Choosing a {noun} from **{group}** (Back to pick another).", noun=noun, group=group)


def board_words(table: Table, lang: str = DEFAULT) -> str:
    """The board image's description, what a screen reader says of it (no markdown, no mentions; Discord keeps
    1,024 characters: the layout kit clips it): the game, the table, whose turn, how far the game has come and
    the position in words (``Engine.progress``, ``Engine.position``). The latest moves are the text under it."""
    parts = [say(lang, "The board of {game} at table {table}.", game=table.engine.title, table=table.id)]
    if table.status == "playing":
        names = [localize(table.names[s], lang) for s in table.to_act()]
        parts.append(say(lang, "To act: {players}", players=", ".join(names)) + ".")
        progress = progress_words(table, lang)
        if progress:
            parts.append(progress + ".")
    if table.state is not None:
        parts.append(localize(name_seats(table.engine.position(table.state), table.names), lang))
    return " ".join(part for part in parts if part).replace("*", "")


# --- pings and panels ----------------------------------------------------------------------------------------
def ping(table: Table, mention: list[int], timed_out: tuple[int, ...], lang: str = DEFAULT) -> str:
    """The one short ping message of a table: who timed out, and a real mention for whose turn came."""
    parts = []
    if timed_out:
        who = both([f"**{localize(table.names[s], lang)}**" for s in timed_out], lang)
        parts.append("⏰ " + say(lang, "{players} ran out of time; the table played for them.", players=who))
    if mention:
        parts.append(say(lang, "{players}: your turn in **{game}**.", players=" ".join(f"<@{u}>" for u in mention),
                         game=table.engine.title))
        if table.row.pace is not None and table.turn_due:  # turn-based: when it runs out (Discord counts down)
            parts.append(runs_out(table.turn_due, lang))
    return " ".join(parts)


def runs_out(due: float, lang: str = DEFAULT) -> str:
    """"⌛ Time runs out in 3 days." (Discord's relative timestamp: it counts down by itself)."""
    return COUNTDOWN + say(lang, "Time runs out {when}.", when=f"<t:{int(due)}:R>")


def reminder(table: Table, mention: list[int], lang: str = DEFAULT) -> str:
    """A turn-based turn's one reminder, when a fifth of its time is left."""
    return "⌛ " + say(lang, "{players}: a fifth of your time is left in **{game}**; it runs out {when}.",
                      players=" ".join(f"<@{u}>" for u in mention), game=table.engine.title,
                      when=f"<t:{int(table.turn_due or 0)}:R>")


def pings_sentence(enabled: bool, lang: str = DEFAULT) -> str:
    if enabled:
        return say(lang, "I will mention you when your turn comes. (/game pings off to stop.)")
    return say(lang, "I won't mention you when your turn comes any more. (/game pings on to have it back.)")


def panel_text(table: Table, seat: int, note: str = "", lang: str = DEFAULT) -> str:
    """The words above a player's panel: whose turn, what to do, the last move."""
    label = localize(i18n.Text((table.engine.private_label or "My view").replace("My ", "Your ", 1)), lang)
    to_act = table.to_act()
    if seat in to_act:
        doing = say(lang, "**Your move**: choose below.")
        if table.pick_of(seat):
            noun, group = localize(table.engine.group_noun, lang), in_sentence(table.pick_of(seat), lang)
            doing = (say(lang, "**Your move**: picked **{group}**, choose below.", group=group)
                     if table.engine.group_noun == "choice" else
                     say(lang, "**Your move**: choose a {noun} from **{group}**.", noun=noun, group=group))
    else:
        doing = say(lang, "It is not your turn: waiting for {players}.",
                    players=", ".join(localize(table.names[s], lang) for s in to_act))
    lines = [say(lang, "{label} (only you can see this; kept up to date while you play from it). {doing}",
                 label=label, doing=doing)]
    if seat in to_act and table.row.pace is not None and table.turn_due:
        lines.append(runs_out(table.turn_due, lang))
    last = table.last_move(lang)
    if last:
        lines.append(last_move_line(last, lang))
    if note:
        lines.append(f"*{localize(note, lang)}*")
    return clip("\n".join(lines), 2000)


def panel_closed(table: Table, lang: str = DEFAULT) -> str:
    return (say(lang, "This game is over.") if table.status != "playing"
            else say(lang, "You are no longer playing at this table."))
