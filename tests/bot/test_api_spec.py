"""What the bot sends keeps to Discord's own API spec (discord/discord-api-spec), which the loopback Discord
checks every request body against (playground/discord_api_schema.json)."""

import io

import discord

import bot.client  # noqa: F401  (its adjustments to discord.py's payloads, bot/patches.py)
from tests.bot.conftest import MOD


def option(command: dict, *path: str) -> dict:
    for name in path:
        command = next(o for o in command["options"] if o["name"] == name)
    return command


async def test_the_channel_option_offers_only_the_kinds_of_channel_the_spec_lists(fake, runner):
    """discord.py offers media channels (16) for a forum option; the spec's ChannelTypes has no 16, and Discord
    refusing the sync would leave the server without commands."""
    offered = option(fake.commands["mod"], "channels", "channel")["channel_types"]
    assert sorted(offered) == [0, 2, 5, 10, 11, 12, 15]  # text, voice, announcement, threads, forum
    await fake.slash(MOD, 600, "mod", "channels", action="allow", channel=700)  # a thread is still offered
    assert not fake.rejections


def test_snowflakes_in_the_payloads_are_strings_as_the_spec_types_them():
    upload = discord.File(io.BytesIO(b"PNG"), filename="board.png")
    assert upload.to_dict(0) == {"id": "0", "filename": "board.png"}
    mentions = discord.AllowedMentions(everyone=False, users=[discord.Object(101)], roles=[discord.Object(7)],
                                       replied_user=False)
    assert mentions.to_dict() == {"parse": [], "users": ["101"], "roles": ["7"]}
    assert discord.AllowedMentions.none().to_dict() == {"parse": []}
