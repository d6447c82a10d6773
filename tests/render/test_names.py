"""Computer names read well on every board: whole where they fit, else their short form ("Strong 2", "Dee's
bot", ``render.common.short_name``), never clipped below it (``least_name``), never an ellipsis alone.

Every game is drawn at every player count with the longest realistic names: a long person's name, numbered
computers of every strength, seats computers took over from people with long names. Every text drawn is
recorded (``record_texts``) and read where a name in it was clipped.
"""

from __future__ import annotations

import re

import pytest

from games.ai import computer_name, stand_in_name
from render import render_board, render_card, render_score_sheet
from render.common import BODY, BOT, SMALL, fit_name, join_fit, least_name, record_texts, short_name
from tests.render import test_legibility as legibility

PERSON = "Hildegard von Bingen-Hohenzollern"
STRENGTHS = [PERSON, computer_name("normal", 2), computer_name("strong", 3), stand_in_name("Bartholomew Featherstonehaugh"),
             computer_name("easy", 2), computer_name("normal", 4), computer_name("strong", 5), computer_name("easy", 3)]
HANDED_OVER = [PERSON, stand_in_name("Bartholomew Featherstonehaugh"), stand_in_name("Wilhelmina Cholmondeley-Smythe"),
               computer_name("normal", 2), stand_in_name("Maximilian von Habsburg"), computer_name("strong", 3),
               stand_in_name("Dee"), stand_in_name("Fitzgerald Montgomery")]
"""Seat 0 a person, the others computers: numbered of every strength, or mostly seats taken over (bot/computers.py's
names)."""

BOUNDARY = re.compile(r"^|, | & |: | by |with |… ")
"""Where a name may start inside a drawn text (a list of names, "Bo: move ...", "held by Bo", "with Bo")."""


def misread_names(texts: list[str], names: list[str]) -> list[str]:
    """The texts in which a name is an ellipsis alone, or a computer's name is clipped to less than its short form
    (a person's name may be clipped as far as room asks)."""
    bad = []
    computers = [n for n in names if least_name(n)]
    for t in texts:
        for pos in (m.start() for m in re.finditer("…", t)):
            before = t[:pos]
            start = max(m.end() for m in BOUNDARY.finditer(before))
            chunk, after = before[start:], t[pos + 1:]
            if not chunk:
                bad.append(t)
            for name in computers:
                short, least = short_name(name), least_name(name)
                if name.startswith(chunk) or (short.startswith(chunk) and not short.endswith(BOT)):
                    bad.append(t)  # the whole name or "Strong 2" clipped
                elif short.endswith(BOT) and short.startswith(chunk) and (
                        len(chunk) < len(least) - len(BOT) - 1 or not (after.startswith(BOT) or after == "'s")):
                    bad.append(t)  # "Dee's bot" with less than three letters of the name, or without "'s bot"
                    # (or "'s" ending the line: a score sheet's column splits it, "bot" under it)
    return sorted(set(bad))


def test_the_checker_finds_what_the_playtester_saw():
    names = STRENGTHS[:4]
    assert misread_names(["…", "Ea…", "Computer 3 (st…: move the small green to a gold mark", "Com… +1",
                          "f3: Compu…'s aura 4 took it", "Stron…", "Bar…", "Bartholo…'s b…"], names) == sorted(
        ["…", "Computer 3 (st…: move the small green to a gold mark", "Com… +1", "f3: Compu…'s aura 4 took it",
         "Stron…", "Bar…", "Bartholo…'s b…"])  # not "Ea…": no easy computer sits here
    assert misread_names(["Strong 3", "Normal 2: move", "Bartholomew's bot", "Bar…'s bot", "Hildegard v…",
                          "Hildegard v… & Strong 3 tie", "ran out of tim…"], names) == []


def test_short_forms_tell_the_seats_apart():
    assert short_name(computer_name("strong", 2)) == "Strong 2"
    assert short_name(computer_name("easy")) == "Easy"
    assert short_name(stand_in_name("Bo")) == "Bo's bot"
    assert short_name(stand_in_name("Dee the Magnificent")) == "Dee's bot"
    assert short_name("Ana Smith") == "Ana Smith" and least_name("Ana Smith") is None
    assert least_name(stand_in_name("Wilhelmina")) == "Wil…'s bot"
    assert least_name(stand_in_name("Bo")) == "Bo's bot"
    assert fit_name(computer_name("strong", 2), BODY, 400) == computer_name("strong", 2)  # whole where it fits
    assert fit_name(computer_name("strong", 2), BODY, 100) == "Strong 2"
    assert fit_name(stand_in_name("Wilhelmina Cholmondeley"), SMALL, 120).endswith("…'s bot")
    assert fit_name("Wilhelmina Cholmondeley", SMALL, 120).endswith("…")


def test_a_list_of_names_keeps_every_computer_whole_in_its_short_form():
    assert join_fit([stand_in_name("Bo"), computer_name("strong", 2)], BODY, 250) == "Bo's bot & Strong 2"
    joined = join_fit([PERSON, computer_name("normal", 2)], BODY, 300)
    assert joined.endswith("… & Normal 2") and joined.startswith("Hild")  # the person gets the rest


GAMES = {"geek_out": (legibility.geek_out_states, legibility.GO), "geoneo": (legibility.geoneo_states, legibility.GN),
         "geodeto": (legibility.geodeto_states, legibility.GD),
         "geomancy": (legibility.geomancy_states, legibility.GM),
         "globe_twister": (legibility.globe_twister_states, legibility.GT)}


@pytest.mark.parametrize("names", [STRENGTHS, HANDED_OVER], ids=["strengths", "handed_over"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_computer_names_read_on_every_board(game, names):
    states, engine = GAMES[game]
    counts, misread = set(), {}
    for what, s in states():
        n = s["players"]
        counts.add(n)
        view = engine.view(s, None)
        seats, who = tuple(range(1, n)) or (0,), names[:n]
        with record_texts() as texts:
            render_board(game, view, who, legibility.LAST, None, seats)
            if game == "geodeto" and s["phase"] == "over":
                render_score_sheet(game, view, who, seats)
        misread.update({t: what for t in misread_names(texts, who)})
    assert misread == {}
    assert max(counts) == engine.max_players and min(counts) <= 2


@pytest.mark.parametrize("names", [STRENGTHS, HANDED_OVER], ids=["strengths", "handed_over"])
def test_computer_names_read_in_the_globe_twister_animation(names):
    for what, s in legibility.globe_twister_states():
        last = legibility.GT.view(s, None)["last_run"]
        if not last or not (what.endswith(" run") or what.endswith(" over")):
            continue
        n = s["players"]
        card = {"kind": "runs", "turn": s["turn"], "runs": last["runs"], "names": names[:n],
                "computers": list(range(1, n)) or [0]}
        with record_texts() as texts:
            render_card("globe_twister", card)
        assert misread_names(texts, names[:n]) == [], what
