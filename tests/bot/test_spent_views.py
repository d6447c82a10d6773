"""What discord.py builds for a board and a click is let go of once used (bot/ui/cycles.py): a board's view
once sent, and the view and response of a handled click, leave no cyclic garbage for the collector, whose
full collections stop the event loop."""

import collections
import gc

import discord

from bot.ui import items, keys
from bot.ui.cycles import spent
from tests.bot.test_geek_out_e2e import CHANNEL, play_one, start_game


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


def test_a_spent_layout_view_leaves_no_cyclic_garbage_in_its_containers():
    gc.collect()
    gc.disable()
    try:
        view = discord.ui.LayoutView(timeout=None)
        row = discord.ui.ActionRow(*(items.button(keys.Move(1, 2, f"k{n}"), f"move {n}") for n in range(3)))
        view.add_item(discord.ui.Container(discord.ui.TextDisplay("a board"), row))
        view.to_components()
        spent(view)
        del view, row
        assert gc.collect() == 0
    finally:
        gc.enable()


async def test_a_handled_click_leaves_nothing_for_the_collector(fake, runner):
    await start_game(fake)
    await play_one(fake, prefer=("Pass", "Continue"))
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        clicks = 0
        while clicks < 12 and not any("final standings" in m["content"] for m in fake.messages_in(CHANNEL)):
            await play_one(fake, prefer=("Pass", "Continue"))
            clicks += 1
        gc.collect()
        ours = collections.Counter(
            f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage
            if not isinstance(o, type | tuple)  # the loopback Discord's email header classes, made per upload
            and not type(o).__module__.startswith(("email", "aiohttp", "multidict", "yarl", "playground")))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert clicks >= 5
    assert sum(ours.values()) <= clicks, ours.most_common(10)  # was some 55 objects a click
    assert not [t for t in ours if t.startswith("discord.")], ours.most_common(10)
