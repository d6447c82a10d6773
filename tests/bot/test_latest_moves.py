"""The latest moves a table message shows (bot/table/recent.py, bot/ui/messages.py ``latest_moves``), pure: which
log lines since the acting seat's previous turn, the cut and its count, and the lines rebuilt from the action log
being the ones the live table kept."""

import gc
import random

import i18n
from bot import computers
from bot.computers import new_computer
from bot.store import TableRow
from bot.table import recent
from bot.table.model import Table
from bot.table.recent import KEEP, SHOWN, Entry, kept, latest, rebuild, said
from bot.table.words import events_words
from bot.ui import messages
from games import get_engine
from games.core import SYSTEM

ANA = {"id": 101, "name": "Ana"}
BO = {"id": 102, "name": "Bo"}


def entries(*seats: int) -> list[Entry]:
    return [Entry(seat, f"line {i} by {seat}") for i, seat in enumerate(seats)]


def test_the_steps_of_the_others_since_the_acting_seats_previous_turn():
    log = entries(SYSTEM, 0, 1, 1, 1)
    shown = latest(log, {0})
    assert shown.lines == ("line 2 by 1", "line 3 by 1", "line 4 by 1")
    assert (shown.earlier, shown.beyond) == (0, False)


def test_a_turn_in_progress_shows_its_own_steps_after_the_others():
    log = entries(SYSTEM, 0, 0, 1, 1, 0, 0)
    assert latest(log, {0}).lines == ("line 3 by 1", "line 4 by 1", "line 5 by 0", "line 6 by 0")


def test_table_events_count_as_the_others():
    log = entries(0, 1, SYSTEM, 1)
    assert latest(log, {0}).lines == ("line 1 by 1", "line 2 by -1", "line 3 by 1")


def test_more_than_shown_keeps_the_newest_and_counts_the_rest():
    log = entries(0, *[1] * 9)
    shown = latest(log, {0})
    assert len(shown.lines) == SHOWN and shown.lines[-1] == "line 9 by 1" and shown.lines[0] == "line 4 by 1"
    assert shown.earlier == 9 - SHOWN and not shown.beyond


def test_a_first_turn_shows_everything_from_the_start():
    log = entries(SYSTEM, 1, 2)
    assert latest(log, {0}).lines == ("line 0 by -1", "line 1 by 1", "line 2 by 2")


def test_a_game_over_shows_the_last_movers_round():
    log = entries(0, 1, 2, 0, 1, 2, SYSTEM)
    assert latest(log, ()).lines == ("line 3 by 0", "line 4 by 1", "line 5 by 2", "line 6 by -1")


def test_a_simultaneous_stage_shows_since_the_earliest_of_their_turns():
    log = entries(0, 1, SYSTEM, 2)
    assert latest(log, {0, 1}).lines == ("line 2 by -1", "line 3 by 2")


def test_a_turn_older_than_the_kept_lines_is_said_to_be_beyond_them():
    log = kept(entries(0), None)
    for i in range(KEEP + 5):
        log = kept(log, Entry(1, f"step {i}"))
    assert len(log) == KEEP and [words for _seat, words in log[-SHOWN:]] == [f"step {i}" for i in range(KEEP - SHOWN + 5, KEEP + 5)]
    assert not any(words for _seat, words in log[:-SHOWN])
    shown = latest(log, {0})
    assert shown.beyond and shown.earlier == KEEP - SHOWN
    assert shown.lines == tuple(f"step {i}" for i in range(KEEP - SHOWN + 5, KEEP + 5))


def tracked_below(root) -> int:
    """The objects the garbage collector tracks that ``root`` holds (itself included), shared ones once; classes
    (and what they hold) not counted."""
    seen, todo = set(), [root]
    while todo:
        item = todo.pop()
        if id(item) in seen or not gc.is_tracked(item) or isinstance(item, type):
            continue
        seen.add(id(item))
        todo.extend(gc.get_referents(item))
    return len(seen)


def test_a_tables_lines_stop_growing_once_it_has_shown_a_screenful():
    """The older lines keep only their seat, in a tuple shared by all tables, the shown ones their words as one
    string, in plain tuples the collector stops tracking: a table's kept
    lines weigh the same after a few moves as after hundreds (they were the bot's growth per move, and what a
    full collection walked with thousands of tables open)."""
    def line(i: int) -> Entry:
        return Entry(i % 3, i18n.join([i18n._("{player} rolls {n}.", player=f"P{i % 3}", n=i), i18n._("Done.")]))

    log, weights = [], {}
    for i in range(400):
        log = kept(log, line(i))
        if i in (2 * SHOWN, KEEP, 399):
            gc.collect()  # a plain tuple of an int and a str is no longer tracked after the collector's pass
            weights[i] = tracked_below(log)
    assert weights[2 * SHOWN] == weights[KEEP] == weights[399]
    assert sum(1 for _seat, words in log if words) == SHOWN and len(log) == KEEP
    assert len({id(e) for e in log[:-SHOWN]}) == 3  # one shared line per seat
    assert weights[399] == 1  # the list: its lines are plain tuples of an int and a string
    assert [said(w, "en") for w in latest(log, {1}).lines] == [line(i).words for i in range(398, 400)]


def test_kept_words_say_what_their_text_says_in_every_language():
    """The shown lines keep their words as one string (``compact``): said in any language as the ``Text`` was
    (every game's lines, names and computer names in them, numbers, joins)."""
    bot = new_computer("strong", [ANA, BO])
    for game, seed, plies in (("geek_out", 4, 120), ("geodeto", 2, 90), ("geoneo", 3, 60), ("geomancy", 5, 80),
                              ("globe_twister", 6, 40)):
        engine, rng = get_engine(game), random.Random(seed)
        state = engine.new(2, None, seed)
        names = [ANA["name"], computers.display_name(bot)]
        for _ply in range(plies):
            if engine.is_over(state):
                break
            seat = sorted(engine.to_act(state))[0]
            state, events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).key)
            words = events_words(events, names)
            for lang in ("en", "de", "es"):
                assert said(recent.compact(words), lang) == i18n.localize(words, lang), (game, lang, words)
                again = recent.text(recent.compact(words))  # a board's words, drawn in a worker
                assert isinstance(again, i18n.Text) or not words
                assert i18n.localize(again, lang) == i18n.localize(words, lang)


def test_a_move_that_says_nothing_adds_no_line():
    assert kept(entries(0), Entry(1, "")) == entries(0)


def live_lines(game: str, players: list[dict], seed: int, plies: int) -> tuple[list[Entry], list[tuple[int, str]]]:
    """A game played by random legal moves, its lines kept as the live table keeps them (moves.py)."""
    engine, rng = get_engine(game), random.Random(seed)
    state = engine.new(len(players), None, seed)
    names = [p["name"] for p in players]
    log, lines = [], [Entry(SYSTEM, recent.start_text(engine, state, names))]
    while not engine.is_over(state) and len(log) < plies:
        seat = sorted(engine.to_act(state))[0]
        key = rng.choice(engine.legal_actions(state, seat)).key
        state, events = engine.apply(state, seat, key)
        log.append((seat, key))
        lines = kept(lines, Entry(seat, events_words(events, names)))
    return lines, log


def test_the_lines_rebuilt_from_the_action_log_are_the_ones_kept_live():
    for game, seed, plies in (("geek_out", 4, 40), ("geek_out", 7, 400), ("geodeto", 2, 90), ("geoneo", 3, 60),
                              ("geomancy", 5, 80), ("globe_twister", 6, 40)):
        players = [ANA, BO]
        live, log = live_lines(game, players, seed, plies)
        again = rebuild(get_engine(game), players, {}, seed, log)
        assert [(seat, said(words, "en")) for seat, words in again] == [(seat, said(words, "en")) for seat, words in live], game
        assert [said(words, "de") for _seat, words in again] == [said(words, "de") for _seat, words in live]


def test_a_seat_a_computer_took_over_keeps_its_persons_name_before_the_hand_over():
    engine = get_engine("geek_out")
    bo_was = dict(new_computer("strong", [ANA, BO]), was=BO)
    _lines, log = live_lines("geek_out", [ANA, BO], 4, 10)
    log = [*log, (SYSTEM, "handover:1")]
    lines = rebuild(engine, [ANA, bo_was], {}, 4, log)
    assert any("Bo" in said(words, "en") for _seat, words in lines[:-1])
    assert "Computer" in said(lines[-1][1], "en") or "Bo" in said(lines[-1][1], "en")


def table(game: str, players: list[dict], seed: int, plies: int) -> Table:
    lines, log = live_lines(game, players, seed, plies)
    engine = get_engine(game)
    state = engine.replay(len(players), {}, seed, log)
    row = TableRow(id=7, guild_id=500, channel_id=600, game=game, options={}, seed=seed,
                   status="finished" if engine.is_over(state) else "playing", players=players, host_id=ANA["id"],
                   state=engine.encode(state), version=len(log), message_id=None, last_move=None, end_reason=None,
                   created_at=0.0, updated_at=0.0)
    return Table(row, engine, state, recent=lines)


def test_the_message_says_one_line_as_the_last_move_and_several_under_latest_moves():
    one = table("geek_out", [ANA, BO], 4, 0)
    assert messages.latest_moves(one, "en").startswith("Last move: The game begins.")
    acting = one.to_act()[0]
    other = 1 - acting
    several = Table(one.row, one.engine, one.state, recent=entries(acting, *[other] * 9))
    words = messages.latest_moves(several, "en").split("\n")
    assert words[0] == "Latest moves:" and words[1] == "-# … 3 earlier moves not shown"
    assert words[2:] == [f"line {i} by {other}" for i in range(4, 10)]
    german = messages.latest_moves(several, "de").split("\n")
    assert german[2:] == words[2:] and german[1] != words[1] and "3" in german[1]
    one_more = Table(one.row, one.engine, one.state, recent=entries(acting, *[other] * 7))
    assert messages.latest_moves(one_more, "en").split("\n")[1] == "-# … 1 earlier move not shown"


def test_the_board_description_says_the_position_and_stays_within_discords_limit():
    game = table("geodeto", [ANA, BO, {"id": 103, "name": "Cy"}], 3, 70)
    words = messages.board_words(game, "en")
    assert "Scores: Ana" in words and "goals fulfilled" in words and "{p" not in words
    assert messages.table_title(game, "en").endswith("of 10 goals fulfilled")
    spanish = messages.board_words(game, "es")
    assert "Ana" in spanish and "Scores" not in spanish
