"""/play <game>: one subcommand per game, its options typed from the engine's option list, plus /play's own
(how many computers sit down, how strong). The callback hands the options to ``Tables.open_table``."""

from __future__ import annotations

import inspect
from typing import Literal

import discord
from discord import app_commands

from bot.ui.choices import playable_engines
from games.ai import STRENGTHS, strength_name
from games.core import Engine, Option
from i18n import _


def option_annotation(option: Option):
    """The type Discord offers and checks for an engine's option (/play's and /tournament create's)."""
    if isinstance(option.default, bool):
        return bool
    if option.choices:
        return Literal.__getitem__(tuple(option.choices))
    if isinstance(option.default, int):
        if option.minimum is not None or option.maximum is not None:
            return app_commands.Range[int, option.minimum, option.maximum]
        return int
    return str


def option_description(option: Option) -> str:
    """The option's words in Discord's picker, its default added when it fits Discord's 100 characters (a
    description is never cut: one too long is a mistake to fix in the engine)."""
    if len(option.description) > 100:
        raise ValueError(f"option {option.name}: description longer than Discord's 100 characters")
    default = ("yes" if option.default else "no") if isinstance(option.default, bool) else option.default
    full = f"{option.description} (default: {default})"
    return full if len(full) <= 100 else option.description


def command_name(engine: Engine) -> str:
    return engine.slug.replace("_", "-")


def play_group(open_table) -> app_commands.Group:
    """``/play geek-out turns:3``, ``/play geoneo computers:1 strength:strong``...: Discord offers and checks
    each game's options and /play's own (``computer_options``). ``open_table(interaction, slug, options,
    computers)`` is called with the options the user gave and a strength per computer seat."""
    group = app_commands.Group(name="play", description="Open a table for a game in this channel", guild_only=True)
    for engine in playable_engines():
        group.add_command(_play_command(engine, open_table))
    return group


COMPUTERS_OPTION = "computers"
STRENGTH_OPTION = "strength"


def computer_options(engine: Engine) -> dict[str, tuple[object, str]]:
    """/play's own options beside the game's: how many computers sit down with the host, and how strong
    they play ({name: (annotation, description)}); none for a game that seats one player only."""
    if engine.max_players < 2:
        return {}
    return {
        COMPUTERS_OPTION: (app_commands.Range[int, 0, engine.max_players - 1],
                           f"Computer players seated with you, 0-{engine.max_players - 1} (default: 0)"),
        STRENGTH_OPTION: (Literal.__getitem__(STRENGTHS),
                          "How well the computers play: easy, normal or strong (default: normal; alone: one computer)"),
    }


PACE_OPTION = "pace"
PACE_CHOICES = {"live": "live (the server's turn timeout)", "1h": "turn-based: 1 hour per move",
                "12h": "turn-based: 12 hours per move", "24h": "turn-based: 24 hours per move",
                "3d": "turn-based: 3 days per move", "7d": "turn-based: 7 days per move"}
"""/play's pace choices (bot/table/pace.py's names) in words for Discord's picker."""


def pace_options(engine: Engine) -> dict[str, tuple[object, str]]:
    """/play's own option beside the game's and the computers': the table's pace, live or turn-based with a
    time per move ({name: (annotation, description)}; its choices in words: ``PACE_CHOICES``)."""
    return {PACE_OPTION: (str, "Live, or turn-based with a time per move (default: the server's)")}


THREAD_OPTION = "thread"


def thread_options() -> dict[str, tuple[object, str]]:
    """/play's own option of every game: the table in a new thread of the channel (bot/threads.py), or not;
    left out, the server's default for the table's pace (``/mod threads``)."""
    return {THREAD_OPTION: (Literal["yes", "no"],
                            "yes: open the table in a thread of its own; no: in this channel (default: the server's)")}


def thread_asked(value: str | None) -> bool | None:
    return None if value is None else value == "yes"


def computers_asked(count: int | None, strength: str | None) -> tuple[int, str]:
    """How many computers /play seats, and what the reply adds: a strength without ``computers`` seats one
    computer of that strength (the player asked for a computer); with ``computers:0`` it seats none, and the
    reply says the strength had nothing to apply to."""
    if count is None and strength:
        return 1, _("A {strength} computer sits with you (strength alone seats one; more with computers:N).",
                    strength=strength_name(strength) if strength in STRENGTHS else strength)
    if not count and strength:
        return 0, _("The strength applies to computers: add some with computers:N or from the lobby.")
    return count or 0, ""


def _play_command(engine: Engine, open_table) -> app_commands.Command:
    async def callback(interaction: discord.Interaction, **given):
        count, strength = given.pop(COMPUTERS_OPTION, None), given.pop(STRENGTH_OPTION, None)
        pace = given.pop(PACE_OPTION, None)
        thread = thread_asked(given.pop(THREAD_OPTION, None))
        count, note = computers_asked(count, strength)
        await open_table(interaction, engine.slug, {k: v for k, v in given.items() if v is not None},
                         [strength or "normal"] * count, note=note, thread=thread,
                         **({"pace": pace} if pace is not None else {}))

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=discord.Interaction)]
    for option in engine.options:
        if option.name in (COMPUTERS_OPTION, STRENGTH_OPTION, PACE_OPTION, THREAD_OPTION):
            raise ValueError(f"{engine.slug}: the option {option.name} is /play's own")
        params.append(inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=option_annotation(option) | None))
    extra = computer_options(engine) | pace_options(engine) | thread_options()
    for name, (annotation, _words) in extra.items():
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=annotation | None))
    callback.__signature__ = inspect.Signature(params)
    descriptions = {o.name: option_description(o) for o in engine.options}
    descriptions.update({name: words for name, (_annotation, words) in extra.items()})
    if descriptions:
        app_commands.describe(**descriptions)(callback)
    app_commands.choices(**{PACE_OPTION: [app_commands.Choice(name=words, value=name)
                                          for name, words in PACE_CHOICES.items()]})(callback)
    players = (f"{engine.min_players}-{engine.max_players} players" if engine.min_players != engine.max_players
               else f"{engine.min_players} players")
    return app_commands.Command(name=command_name(engine), description=f"{engine.title} ({players})"[:100],
                                callback=callback)

