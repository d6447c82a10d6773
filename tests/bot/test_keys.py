"""One custom_id grammar (bot/ui/keys.py, issue 25): every id the bot emits reads back to what made it and fits
Discord's 100 characters; a game's action key is only ever a move; ids posted before the grammar read as that
code read them; forged and malformed ids read as nothing."""

from __future__ import annotations

import dataclasses
import random

import discord
import pytest

from bot.cogs import learn, privacy, rules
from bot.computers import new_computer
from bot.store import Lesson, TableRow
from bot.table.model import Table
from bot.ui import components, items, keys
from games import get_engine
from games.core import all_engines
from games.rulebook import pages

BIG = 10**18 - 1
"""The largest table or lesson id the grammar takes (18 digits): the longest ids."""
PLAYERS = [{"id": 101 + n, "name": f"P{n}"} for n in range(12)]


def positions(engine, seeds=4, moves=50):
    """(state, seat) of random positions of every player count: the seats to act at each step of seeded games."""
    for players in range(engine.min_players, engine.max_players + 1):
        for seed in range(seeds):
            rng = random.Random(seed)
            try:
                state = engine.new(players, {}, seed)
            except Exception:  # a count the game takes only with options (a solo level)
                continue
            for _ in range(moves):
                seats = sorted(engine.to_act(state))
                if engine.is_over(state) or not seats:
                    break
                for seat in seats:
                    yield players, state, seat
                seat = rng.choice(seats)
                actions = engine.legal_actions(state, seat)
                if not actions:
                    break
                state, _events = engine.apply(state, seat, rng.choice(actions).key)


def table(engine, players, state, table_id=BIG, version=10**9 - 1) -> Table:
    row = TableRow(id=table_id, guild_id=500, channel_id=600, game=engine.slug, options={}, seed=1,
                   status="playing", players=PLAYERS[:players], host_id=101, state=engine.encode(state),
                   version=version, message_id=None, last_move=None, end_reason=None, created_at=0.0,
                   updated_at=0.0)
    return Table(row, engine, state)


def emitted(view_or_items) -> list[discord.ui.Item]:
    children = view_or_items.children if isinstance(view_or_items, discord.ui.View) else view_or_items
    assert children
    return list(children)


def check(item: discord.ui.Item) -> keys.Key:
    """An emitted item's id: within 100 characters, and read back to the value that made it."""
    custom_id = item.item.custom_id
    assert len(custom_id) <= keys.LIMIT, custom_id
    assert keys.decode(custom_id) == item.value, custom_id
    assert keys.encode(item.value) == custom_id
    assert type(item) is items.ITEMS[keys.prefix_of(custom_id)]  # the DynamicItem that answers it after a restart
    if isinstance(item.value, keys.Menu | keys.LessonMenu):
        for option in item.item.options:
            assert keys.choose(item.value, option.value) is not None, option.value
    return item.value


@pytest.mark.parametrize("slug", [e.slug for e in all_engines()])
def test_every_action_key_of_every_game_is_a_move_and_reads_back(slug):
    """Every legal action of random positions, as the bot offers it (board and panel: buttons, groups, menus,
    with the longest table id and version), reads back to itself; its key is a move and nothing else, and was
    no button of a table's own in the ids of before either (so old boards read it as a move too)."""
    engine = get_engine(slug)
    seen = set()
    for players, state, seat in positions(engine):
        at = table(engine, players, state)
        actions = engine.legal_actions(state, seat)
        for action in actions:
            seen.add(action.key)
            move = keys.Move(BIG, 10**9 - 1, action.key, "0a1b2c")
            assert keys.decode(keys.encode(move)) == move
            assert keys.decode(f"gt:{BIG}:1:{action.key}") == keys.Move(BIG, 1, action.key)  # a legacy board's
            assert not keys.legacy_utility(action.key)
            for menu in (keys.Menu(BIG, 1, "m0", "0a1b2c"), keys.LessonMenu(BIG, 1, "m0")):
                assert isinstance(keys.choose(menu, keys.value(at_move(menu, action.key))), keys.Move | keys.LessonMove)
        for group in ("",) + tuple({a.group for a in actions if a.group}):
            for private in (False, True):
                for item in components.action_items(at, actions, group, seat, private=private):
                    check(item)
        for item in learn_items(engine, state, actions):
            check(item)
    assert seen


def at_move(menu, key):
    return keys.Move(menu.table, menu.version, key) if isinstance(menu, keys.Menu) else \
        keys.LessonMove(menu.lesson, menu.version, key)


def learn_items(engine, state, actions):
    lesson = Lesson(BIG, 101, 500, engine.slug, {}, 1, 2, [], 10**9 - 1)
    return components.chooser(components.LessonControls(lesson), engine, actions, always=True, rows=learn.ROWS, first=1)


def test_every_utility_of_a_table_reads_back():
    """The lobby (every computer strength, Remove, Team up), the board's own buttons (panel, overlays, Rules),
    the ping and the final board's Rematch: each id reads back, within 100 characters."""
    found = set()
    for engine in all_engines():
        players = min(max(engine.min_players, 2), engine.max_players)
        at = table(engine, players, engine.new(players, {}, 1))
        for seated in ([PLAYERS[0]], PLAYERS[:3], PLAYERS[:engine.max_players - 1]):
            lobby = dataclasses.replace(at.row, status="lobby", players=seated + [new_computer("strong", seated)])
            for item in emitted(components.lobby_view(Table(lobby, engine, None))):
                found.add(check(item).name)
        for item in emitted(components.table_view(at)) + emitted(components.ping_view(at)):
            found.add(getattr(check(item), "name", None))
        finished = Table(dataclasses.replace(at.row, status="finished"), engine, at.state)
        [rematch] = emitted(components.table_view(finished))
        assert check(rematch) == keys.Utility(BIG, 10**9 - 1, "rematch")
    assert found >= {"join", "leave", "start", "rules", "takeover", "computer", "drop", "partner", "hand",
                     "overlay", "pings"}


def test_every_rule_page_lesson_and_privacy_button_reads_back():
    for engine in all_engines():
        for page in range(len(pages(engine.slug))):
            for item in emitted(rules.buttons(engine.slug, page, "en")):
                assert isinstance(check(item), keys.RulePage)
    for steps in (("ask",), ("delete", "keep")):
        for item in emitted(privacy.buttons(*steps, user=2**63 - 1)):
            assert isinstance(check(item), keys.Privacy)
    for name in ("leave", "again", "next"):
        check(items.button(keys.LessonUtility(BIG, 10**9 - 1, name), "x"))


def test_the_ids_of_before_the_grammar_read_as_that_code_read_them():
    """Ids as the code before issue 25 wrote them (``gt:``/``gs:``/``gl:``/``gls:``/``gr:``/``gp:``), on boards
    already posted: a table's own key is a utility, any other a move; a menu's value is read the same way."""
    assert keys.decode("gt:7:3:c3") == keys.Move(7, 3, "c3")
    assert keys.decode("gt:7:3:c3/0a1b2c") == keys.Move(7, 3, "c3", "0a1b2c")
    for key, (name, arg) in {"join": ("join", None), "leave": ("leave", None), "start": ("start", None),
                             "rules": ("rules", None), "hand": ("hand", None), "rematch": ("rematch", None),
                             "pings.off": ("pings", "off"), "takeover.on": ("takeover", "on"),
                             "computer.easy": ("computer", "easy"), "drop.2": ("drop", "2"),
                             "partner.-3": ("partner", "-3"), "overlay.auras": ("overlay", "auras"),
                             "pick.Europe": ("pick", "Europe"), "pick.": ("pick", "")}.items():
        assert keys.decode(f"gt:7:3:{key}") == keys.Utility(7, 3, name, arg), key
    assert keys.decode("gt:7:3:pick.Aim_at_rank_8/0a1b2c") == keys.Utility(7, 3, "pick", "Aim_at_rank_8", "0a1b2c")
    assert keys.decode("gt:7:3:pings.on") == keys.Move(7, 3, "pings.on")  # it was no button: a (refused) move
    menu = keys.decode("gs:7:3:m0/0a1b2c")
    assert menu == keys.Menu(7, 3, "m0", "0a1b2c", legacy=True)
    assert keys.choose(menu, "u4") == keys.Move(7, 3, "u4", "0a1b2c")
    assert keys.choose(menu, "pick.Europe") == keys.Utility(7, 3, "pick", "Europe", "0a1b2c")
    assert keys.choose(keys.decode("gs:7:3:computer"), "computer.strong") == keys.Utility(7, 3, "computer", "strong")
    assert keys.decode("gl:9:4:u4") == keys.LessonMove(9, 4, "u4")
    assert keys.decode("gl:9:4:~leave") == keys.LessonUtility(9, 4, "leave")
    assert keys.decode("gl:9:4:~next") == keys.LessonUtility(9, 4, "next")
    assert keys.decode("gl:9:4:pick.Europe") == keys.LessonUtility(9, 4, "pick", "Europe")
    lesson_menu = keys.decode("gls:9:4:m1")
    assert keys.choose(lesson_menu, "c12") == keys.LessonMove(9, 4, "c12")
    assert keys.choose(lesson_menu, "pick.") == keys.LessonUtility(9, 4, "pick", "")
    assert keys.decode("gr:geoneo:2") == keys.RulePage("geoneo", 2)
    assert keys.decode("gp:delete:101") == keys.Privacy("delete", 101)


def test_a_move_keyed_like_a_utility_is_a_move():
    """The flat namespace of before took a move keyed ``start`` or ``rules`` for a lobby button; now the prefix
    says which it is."""
    for key in ("start", "rules", "join", "hand", "rematch", "pick.x", "computer.easy", "pings.off"):
        move = keys.Move(7, 3, key)
        assert keys.decode(keys.encode(move)) == move
        assert keys.choose(keys.Menu(7, 3, "m0"), keys.value(move)) == move
        assert keys.choose(keys.LessonMenu(7, 3, "m0"), key) == keys.LessonMove(7, 3, key)
    assert keys.choose(keys.Menu(7, 3, "m0"), "~pick.x") == keys.Utility(7, 3, "pick", "x")


@pytest.mark.parametrize("custom_id", [
    "", "gt", "gt:", "gt:nonsense", "gt:99999:1:", "gs:1:x", "totally-else", "gt:1:1:" + "z" * 61,
    "g1m:1:1:", "g1m:1:1:a b", "g1m:1:1:c3/xyz", "g1m:x:1:c3", "g1m:1:1:c3:", "g1u:1:1:nonsense", "g1u:1:1:",
    "g1u:1:1:joinx", "g1s:1:1:", "g1l:1:1:~leave", "g1k:1:1:sideways", "g1n:1:1:", "g1r:geoneo", "g1r:geoneo:123",
    "g1r:Chess:1", "g1p:erase:1", "g1p:delete:", "gr:", "gr:geoneo", "gp:delete:x", "gl:nonsense", "gls:1",
    "g2m:1:1:c3", "G1M:1:1:c3", "g1m:1:1:c3\n", "g1m:1234567890123456789:1:c3", "g1m:1:1:" + "a" * 95,
])
def test_forged_and_malformed_ids_read_as_nothing(custom_id):
    assert keys.decode(custom_id) is None


def test_forged_menu_values_read_as_nothing():
    menu, lesson_menu = keys.Menu(7, 3, "m0"), keys.LessonMenu(9, 4, "m0")
    for value in ("", "~", "~join", "~start", "~rules", "a b", "x" * 61):
        assert keys.choose(menu, value) is None, value
        assert keys.choose(lesson_menu, value) is None, value
    for value in ("", "computer.", "easy", "~computer.easy", "drop.1", "join"):
        assert keys.choose(keys.Menu(7, 3, keys.COMPUTER_MENU), value) is None, value


def test_only_the_grammar_writes_ids():
    """A value the grammar cannot write is refused (it would not read back), not truncated."""
    for bad in (keys.Move(7, 3, "a b"), keys.Move(7, 3, "x" * 61), keys.Utility(7, 3, "sideways"),
                keys.Menu(7, 3, "m0", legacy=True), keys.RulePage("geoneo", 100), keys.Move(7, 3, "c3", "nothex")):
        with pytest.raises(ValueError):
            keys.encode(bad)


def test_each_id_has_one_template():
    """discord.py runs every DynamicItem whose template matches: an id of ours matches exactly one."""
    samples = ["g1m:1:2:c3/0a1b2c", "g1u:1:2:pick.x/0a1b2c", "g1s:1:2:m0", "g1l:1:2:u4", "g1k:1:2:leave",
               "g1n:1:2:m0", "g1r:geoneo:1", "g1p:ask:5", "gt:1:2:c3", "gs:1:2:m0", "gl:1:2:~leave",
               "gls:1:2:m0", "gr:geoneo:1", "gp:ask:5"]
    for custom_id in samples:
        matching = [p for p, pattern in keys.PATTERNS.items() if pattern.fullmatch(custom_id)]
        assert matching == [keys.prefix_of(custom_id)], custom_id
