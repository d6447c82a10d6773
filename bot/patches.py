"""What Geotable changes in discord.py, once, when bot/client.py is imported: a yield between two gateway
events, snowflakes sent as strings (as Discord's API spec types them), no voice-library warnings."""

from __future__ import annotations

import asyncio

import discord
import discord.gateway

_poll_event = discord.gateway.DiscordWebSocket.poll_event


async def _poll_event_then_yield(self) -> None:
    """discord.py reads gateway events back to back while frames are buffered, never giving the loop back: a
    burst of 200 clicks held it 60 ms (measured; a bare discord.py bot too). One yield per event lets
    acknowledgements and heartbeats through between them."""
    await _poll_event(self)
    await asyncio.sleep(0)


discord.gateway.DiscordWebSocket.poll_event = _poll_event_then_yield

# Discord's API spec (discord/discord-api-spec) types every snowflake in a request as a string; discord.py sends
# an upload's attachment id and allowed_mentions' users and roles as numbers, which Discord accepts today but
# its spec refuses. Strings are right by both (the loopback Discord checks the spec).
_file_to_dict, _mentions_to_dict = discord.File.to_dict, discord.AllowedMentions.to_dict


def _file_with_a_string_id(self, index: int) -> dict:
    return {**_file_to_dict(self, index), "id": str(index)}


def _mentions_with_string_ids(self) -> dict:
    data = _mentions_to_dict(self)
    return data | {key: [str(i) for i in data[key]] for key in ("users", "roles") if key in data}


discord.File.to_dict = _file_with_a_string_id
discord.AllowedMentions.to_dict = _mentions_with_string_ids
# Geotable never joins a voice channel: discord.py's warnings about missing voice libraries are noise in its log
discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
