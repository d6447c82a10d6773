"""The rule of simultaneous play (bot/table/staleness.py): which clicks on older screens still count."""

from bot.table.staleness import Screens, token


def test_a_token_is_what_a_seat_may_do_not_how_it_is_worded():
    assert token(0, []) == ""
    assert token(0, ["a", "b"]) == token(0, ["a", "b"]) != token(1, ["a", "b"])
    assert token(0, ["a", "b"]) != token(0, ["b", "a"]) and len(token(0, ["a"])) == 6


def test_clicks_made_at_the_same_moment_in_a_simultaneous_stage_all_count():
    screens = Screens(base=10)
    ana, bo = token(0, ["c0", "lock"]), token(1, ["c0", "lock"])
    assert screens.counts(0, 10, ana, 10, ana)  # the current screen
    screens.moved(11, 0)  # Ana's click came first; Bo's choices did not change
    assert screens.counts(1, 10, bo, 11, bo)  # Bo's click on version 10 still plays
    assert not screens.counts(0, 10, ana, 11, ana)  # Ana's second click on her old screen does not


def test_another_seats_move_that_changes_my_choices_makes_my_old_screen_stale():
    screens = Screens(base=3)
    screens.moved(4, 0, changed=[1])  # Ana took the field Bo could also take
    assert not screens.counts(1, 3, token(1, ["x"]), 4, token(1, ["x"]))
    assert screens.counts(1, 4, token(1, ["x"]), 4, token(1, ["x"]))  # his new screen counts


def test_a_changed_token_a_table_event_or_a_screen_from_before_loading_never_count():
    screens = Screens(base=5)
    assert not screens.counts(0, 4, token(0, ["a"]), 5, token(0, ["a"]))  # older than what this process saw
    assert not screens.counts(0, 5, token(0, ["a"]), 6, token(0, ["b"]))  # its choices differ now
    assert not screens.counts(0, 5, "", 6, "")  # a seat with nothing to do
    assert not screens.counts(0, 7, token(0, ["a"]), 6, token(0, ["a"]))  # a version from the future
    screens.moved(6, None)  # a timeout, a timer, a leave: every older screen stops counting
    assert not screens.counts(1, 5, token(1, ["a"]), 6, token(1, ["a"]))
    screens.reset(9)  # read again from the store
    assert screens.base == 9 and not screens.since
