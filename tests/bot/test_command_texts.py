"""Every slash command and option, as the bot synced them to the loopback Discord, has a real description
that fits Discord's limits and reads whole (issue 16, item 17); the fake refuses what Discord refuses."""

import re

import pytest

from playground.fake_discord import DiscordError, check_commands

PLACEHOLDERS = {"…", "...", "-", ""}


def walk(options, path):
    """(path, option) for every option and subcommand below a command, depth first."""
    for option in options or []:
        here = f"{path} {option['name']}"
        yield here, option
        yield from walk(option.get("options"), here)


def everything(commands):
    for command in commands.values():
        yield f"/{command['name']}", command
        yield from walk(command.get("options"), f"/{command['name']}")


async def test_every_command_and_option_has_a_real_description_within_limits(fake, runner):
    found = list(everything(fake.commands))
    assert {"/play geek-out", "/play geoneo", "/mod channels channel", "/rules game", "/mod remove player"} <= {
        path for path, _ in found}
    problems = []
    for path, item in found:
        text = item.get("description", "")
        if text.strip() in PLACEHOLDERS or len(text) < 8:
            problems.append(f"{path}: no real description ({text!r})")
        elif len(text) > 100:
            problems.append(f"{path}: {len(text)} characters")
        elif text.endswith(("…", "...")) or text.count("(") != text.count(")"):
            problems.append(f"{path}: cut off ({text!r})")
        for choice in item.get("choices") or []:
            if not 1 <= len(choice["name"]) <= 100:
                problems.append(f"{path}: choice {choice['name']!r}")
    assert not problems, "\n".join(problems)


def test_the_fake_refuses_what_discord_refuses():
    good = {"name": "demo", "description": "A demo command", "options": [
        {"type": 3, "name": "word", "description": "The word to say"}]}
    check_commands([good])
    for bad in (
        dict(good, description="x" * 101),
        dict(good, description=""),
        dict(good, name="Demo Command"),
        dict(good, options=[{"type": 3, "name": "word", "description": "y" * 101}]),
        dict(good, options=[{"type": 3, "name": "word", "description": "w", "choices": [{"name": "z" * 101,
                                                                                           "value": "z"}]}]),
    ):
        with pytest.raises(DiscordError):
            check_commands([bad])


def test_an_option_s_default_is_said_in_words_in_english_too():
    """'(default false)' reads as code in English as in German: a switch's default is yes or no."""
    from bot.cogs.play import option_description
    from bot.ui.choices import playable_engines

    said = [option_description(o) for engine in playable_engines() for o in engine.options]
    assert said and not [s for s in said if re.search(r"\b(true|false)\b", s)], said
    assert any(s.endswith("(default: no)") for s in said)
