"""A post's nonce named by what the post is, so a post retried after a crash is made once.

A post that must happen exactly once (the finished day's board, a tournament round, a season's hall of fame) is
claimed in the store, sent, then recorded as sent. A process that dies after Discord made the message but before
the record leaves a claim that is taken again later and would post a second copy. Discord's ``enforce_nonce``
(discord.py sends it with every message) answers a message created by the same author with the same nonce in the
past few minutes instead of creating another: a nonce derived from what the post is, not random, makes the
retry return the first message, as long as the claim is taken again within those minutes (the claim's staleness
is kept under a minute for that).
"""

from __future__ import annotations

import hashlib

LENGTH = 25
"""Discord's longest nonce."""


def once(*what: object) -> str:
    """The nonce of the post named by ``what`` (e.g. ``once("daily", guild_id, day)``): 24 hex characters."""
    return hashlib.blake2b(repr(what).encode(), digest_size=12).hexdigest()
