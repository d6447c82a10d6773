"""The one answer to a refusal (``Refused``, bot/table/refusals.py): its sentence, ephemeral, in the member's
language. ``Geotable.on_key`` (a click) and ``Geotable.on_app_command_error`` (a slash command) call it; a cog
answers a refusal itself only where it must do more (an outdated board brought up to date: bot/cogs/tables.py)."""

from __future__ import annotations

import logging

import discord

from bot.table.refusals import Refused
from bot.ui.say import say

log = logging.getLogger(__name__)


def refusal_in(error: BaseException) -> Refused | None:
    """The refusal ``error`` is or wraps (discord.py wraps a command's exception in ``CommandInvokeError``)."""
    if isinstance(error, Refused):
        return error
    original = getattr(error, "original", None)
    return original if isinstance(original, Refused) else None


async def answer(interaction: discord.Interaction, refusal: Refused) -> None:
    """Says why nothing happened (whether or not the interaction was already acknowledged)."""
    try:
        await say(interaction, refusal.text)
    except discord.HTTPException as exc:  # the interaction expired or is gone: nothing was changed anyway
        log.info("refusal %s not said: %s", refusal.kind.name, exc)
