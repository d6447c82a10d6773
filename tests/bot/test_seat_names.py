"""Seat placeholders filled with the players' names: a computer's name stays a ``Text`` (said in each reader's
language) wherever the engine put the seat, even inside a plain parameter ("{p0}'s") (issue 19)."""

import i18n
from bot.table.words import name_seats
from games.ai import computer_name
from i18n import Text


def test_a_seat_inside_a_plain_parameter_keeps_a_computers_name_translatable():
    text = name_seats(Text("{player} wins.", {"player": "{p0}'s team"}), [computer_name("normal"), "Ana"])
    assert text == "Computer (normal)'s team wins."  # the English as before
    assert i18n.localize(text, "es") == "Ordenador (normal)'s team wins."


def test_a_seat_alone_and_a_persons_name():
    text = name_seats(Text("{a} and {b}", {"a": "{p0}", "b": "{p1}"}), [computer_name("strong", 2), "Ana"])
    assert i18n.localize(text, i18n.PSEUDO) == "Çómpútér 2 (stróñg) áñd Ana"
    assert name_seats("{p1} moves", [computer_name("easy"), "Ana"]) == "Ana moves"  # a plain string stays one
