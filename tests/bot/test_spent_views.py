"""A board's view, once sent, is emptied (``bot.boards.spent``): it leaves no cyclic garbage for the collector,
whose full collections stop the event loop."""

import gc

import discord

from bot.boards import spent
from bot.ui import items, keys


def a_board_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for n in range(10):
        view.add_item(items.button(keys.Move(1, 2, f"k{n}"), f"move {n}", "primary"))
    view.add_item(items.button(keys.Utility(1, 2, "rules"), "Rules"))
    return view


def test_every_item_of_a_view_is_a_dynamic_item_so_discord_py_keeps_no_view_after_sending_it():
    assert all(isinstance(item, discord.ui.DynamicItem) for item in a_board_view().children)


def test_a_spent_view_leaves_no_cyclic_garbage():
    gc.collect()
    gc.disable()
    try:
        view = a_board_view()
        view.to_components()  # as sending does
        spent(view)
        del view
        assert gc.collect() == 0
        view = a_board_view()  # not spent: its items and it refer to each other
        del view
        assert gc.collect() > 0
    finally:
        gc.enable()
