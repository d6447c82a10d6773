"""Letting go of what discord.py builds for a message or a click, so that reference counting frees it.

A view and its items refer to each other, and so do an interaction and its response: left as they are, every
board sent and every click handled leave some 55 objects (the clicked message with its embed and components,
the view discord.py rebuilt from it, the member) that only the garbage collector can free, and the collector's
full passes over that heap stopped the event loop for 20-50 ms under load. Emptied and unlinked once used,
they go at once.
"""

from __future__ import annotations

import discord


def spent(view: discord.ui.View | discord.ui.LayoutView | None) -> None:
    """Empties a view once its message is sent (or its click handled), nested containers and rows too. Safe
    because every item of ours is a DynamicItem (bot/ui/items.py): discord.py keeps no such view after sending
    it, it dispatches a click by the custom_id's template and builds a view from the clicked message."""
    if view is None:
        return
    for child in list(view.walk_children()):
        clear = getattr(child, "clear_items", None)
        if clear is not None:
            clear()
    view.clear_items()


def handled(interaction: discord.Interaction, view: discord.ui.View | discord.ui.LayoutView | None) -> None:
    """A click is answered and done with: the view discord.py built from its message is emptied and the
    interaction's response object no longer points back at the interaction. The response stays (its
    ``is_done()`` is still true); only a second answer through it, which nothing of ours sends once a click is
    done, would fail. A kept interaction (a private panel's, edited for 15 minutes) edits through its token,
    not through its response. ``_parent`` is discord.py's own attribute (the lock file pins the version;
    tests/bot/test_spent_views.py fails if it changes)."""
    spent(view)
    response = interaction.response
    if getattr(response, "_parent", None) is interaction:
        response._parent = None
