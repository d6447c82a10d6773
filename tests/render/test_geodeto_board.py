"""The Geodeto pictures: the board (ring, towers, Ocean, action cards, public goals, players, the step in
progress), "My goals", a goal card and the score sheet (docs/rendering.md, "Geodeto")."""

from __future__ import annotations

import copy
import io

import pytest
from PIL import Image, ImageChops, ImageDraw

import render
from games.geodeto.rules import CONTINENT_NAMES, Geodeto, deck
from render import (
    NoPrivateImage,
    has_card,
    has_score_sheet,
    render_board,
    render_card,
    render_private,
    render_score_sheet,
)
from render import geodeto as gd
from render.common import P_SMALL, record_texts

E = Geodeto()
NAMES = ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay"]


def drawn(fn, *args) -> list[str]:
    with record_texts() as texts:
        fn(*args)
    return texts


def board_texts(view: dict, names=NAMES, last=None, focus=None) -> list[str]:
    return drawn(render_board, "geodeto", view, names[: view["players"]], last, focus)


def reach(players: int, found, seeds=range(40), options=None) -> dict:
    """The first state of a sample game (goals fulfilled as in real play) for which ``found(state)`` holds."""
    for seed in seeds:
        for s in gd.sample_game(players, seed, options or {}):
            if found(s):
                return s
    raise AssertionError("no such state")


def png(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


# --- the registry ----------------------------------------------------------------------------------------
def test_geodeto_is_registered_with_every_picture():
    assert render.has_board("geodeto") and render.has_private("geodeto")
    assert has_card("geodeto") and has_score_sheet("geodeto")
    assert has_score_sheet("geek_out")  # its points turn by turn (render/geek_out.py)
    for game in ("geek_out", "geoneo"):
        assert not has_card(game)
        with pytest.raises(NoPrivateImage):
            render_card(game, {"name": "x"})
    assert not has_score_sheet("geoneo")
    with pytest.raises(KeyError):  # NoPrivateImage is a KeyError
        render_score_sheet("geoneo", {}, [])


# --- the board -------------------------------------------------------------------------------------------
def test_the_board_names_the_ring_the_ocean_the_cards_and_the_countdown():
    s = E.new(3, {}, 1)
    view = E.view(s, None)
    texts = board_texts(view)
    for name in (*CONTINENT_NAMES, "Ocean", "Epidemic", "Pirates", "free to play", "free to use"):
        assert name in texts, name
    assert "10 goals to go (of 10)" in texts
    assert f"{NAMES[view['current']]}: move, draw or play an action card" in texts  # the Epidemic card is free
    assert "K = black" in texts and "Y = yellow" in texts and "B" in texts  # the letters, explained where they fit
    for goal in view["public_goals"]:
        assert gd.goal_label(goal["card"]) in texts, goal["card"]["name"]
        assert str(goal["count"]) in texts
    assert texts.count("left") == 6  # "5" / "left": the cards in each pile
    for seat in range(3):
        assert NAMES[seat] in texts
    assert texts.count("2") >= 3 and texts.count(gd.NO_GOAL) == 3  # two cards in each hand, no goal yet
    assert not any(t.startswith("Ends in") for t in texts)


def ink_runs(sprite: Image.Image, y: int, ink, fill) -> int:
    """How many separate runs of ``ink`` (nearer to it than to ``fill``) row ``y`` of a sprite crosses inside
    the pyramid (between its first and last pixel of ``fill``: its edges may be ink-coloured too)."""
    def dist(c, to) -> int:
        return sum((u - v) ** 2 for u, v in zip(c, to, strict=True))

    row = [sprite.getpixel((x, y)) for x in range(sprite.width)]
    filled = [x for x, (r, g, b, a) in enumerate(row) if a > 200 and dist((r, g, b), fill) < dist((r, g, b), ink)]
    runs, inside = 0, False
    for r, g, b, _ in row[filled[0]:filled[-1] + 1]:
        near = dist((r, g, b), ink) < dist((r, g, b), fill)
        runs += near and not inside
        inside = near
    return runs


def test_every_pyramid_carries_its_colour_letter_and_its_size_in_pips():
    """The letter and the pips (1 small, 2 medium, 3 large) are drawn into each pyramid's sprite, in the part
    a pyramid above never covers; sizes also differ in width and height."""
    assert gd.PYR_W[0] < gd.PYR_W[1] < gd.PYR_W[2] and gd.PYR_H[0] < gd.PYR_H[1] < gd.PYR_H[2]
    assert gd.LETTERS == ("B", "Y", "R", "G", "W", "K")
    assert gd.PIP_Y + gd.PIP_R < gd.VISIBLE <= min(gd.PYR_H) and gd.VISIBLE <= gd.CARD_PYR_H
    for height in (None, gd.CARD_PYR_H):
        for p in range(18):
            sprite = gd.pyramid_sprite(p, False, height)
            ink, fill = gd.PYRAMID_INK[p // 3], gd.PYRAMID_FILL[p // 3]
            colours = {c[:3] for _, c in sprite.getcolors(sprite.width * sprite.height)}
            assert ink in colours and fill in colours, p
            base = sprite.height - 3  # the sprite's padding under the base
            assert ink_runs(sprite, round(base - gd.PIP_Y), ink, fill) == p % 3 + 1, (p, height)
    assert gd.pid(5) == 5 and gd.pid({"id": 7, "colour": "red", "size": "medium"}) == 7
    assert gd.pid({"colour": "black", "size": "large"}) == 17


def test_a_tower_never_covers_a_letter_or_its_pips():
    for pids in ([2, 1, 0], [0, 0, 0], [2, 2, 2, 2, 2, 2, 2]):
        assert all(step >= gd.VISIBLE for step in gd._steps(tuple(pids), None))
        assert all(step >= gd.VISIBLE for step in gd._steps(tuple(pids), 0))  # squeezed as far as it goes


def trio_widths(trio: list[int]) -> list[int]:
    """The drawn width of each pyramid of a trio (bottom first), measured row by row at each one's base."""
    img = Image.new("RGB", (120, 140), gd.CARD)
    d = ImageDraw.Draw(img)
    top = gd.draw_trio(img, d, trio, 60, 130)
    assert 130 - top == gd.TRIO_H
    widths = []
    for k in range(3):
        y = 130 - k * (gd.CARD_PYR_H + gd.TRIO_GAP) - 1
        xs = [x for x in range(120)
              if sum(abs(u - v) for u, v in zip(img.getpixel((x, y)), gd.CARD, strict=True)) > 60]
        widths.append(max(xs) - min(xs) + 1)
    return widths


def test_a_trio_shows_each_pyramid_whole_at_its_true_width():
    """Egypt (three mediums) is three equal pyramids; Nigeria (small, medium, large) is not: on a card every
    pyramid is drawn whole, none covering another, at its own width, all as tall."""
    egypt = [gd.pid(t) for t in reversed(deck()["egypt"]["trio"])]
    nigeria = [gd.pid(t) for t in reversed(deck()["nigeria"]["trio"])]
    russia = [gd.pid(t) for t in reversed(deck()["russia"]["trio"])]
    for same in (trio_widths(egypt), trio_widths(russia)):
        assert max(same) - min(same) <= 1, same  # (edges antialiased)
    assert trio_widths(egypt)[0] + 8 < trio_widths(russia)[0]
    bottom, middle, top = trio_widths(nigeria)
    assert bottom > middle + 8 > top + 16


def test_each_player_shows_the_goals_they_fulfilled():
    """A chip per fulfilled goal: the letter of the continent it was formed on, on that continent's colour
    (as on its pyramids and its tile); "no goal yet" for the others."""
    s = reach(4, lambda s: sum(len(f) for f in s["fulfilled"]) >= 3 and s["phase"] == "turn")
    view = E.view(s, None)
    texts = board_texts(view)
    assert texts.count(gd.NO_GOAL) == sum(1 for cards in view["fulfilled"] if not cards)
    plain = board_texts(dict(view, fulfilled=[[] for _ in view["fulfilled"]]))
    chips = [gd.LETTERS[c] for seat in range(4) for _, c in gd._chips(view, seat)]
    assert len(chips) >= 3
    for letter in set(chips):  # each chip's letter drawn once more than on the board without them
        assert texts.count(letter) - plain.count(letter) == chips.count(letter), letter
    assert gd.chip_label({"id": "amundsen-scott-station", "name": "Amundsen-Scott Station"}) == "South Pole"
    assert gd.chip_label({"id": "x", "name": "Vostok Station"}) == "Vostok"


def test_many_goals_are_counted_when_they_do_not_fit():
    """Goals that do not fit beside a name give way whole, never clipped: some chips and "+2" for the rest, or
    a square with how many; the extra cards' points ("+4") always show, the goals give way to them."""
    chips = [0, 2, 5, 1]
    for extra in ("", "+4"):
        seen = set()
        for room in range(0, 200):
            items = gd._goals_fitting(chips, extra, room)
            kinds = [k for k, _ in items]
            assert sum(gd._goal_item_w(i) for i in items) <= room or kinds == ["extra"]
            assert (("extra", extra) in items) == bool(extra)  # held extra cards always show
            shown = kinds.count("chip")
            if "more" in kinds:
                assert items == [("chip", c) for c in chips[:shown]] + [("more", f"+{len(chips) - shown}")]
                assert not extra  # never two "+" numbers side by side
            elif "count" in kinds:
                assert items == [("count", 4)] + ([("extra", extra)] if extra else [])
            elif "chip" in kinds:
                assert shown == 4
            seen.add(tuple(kinds))
        tail = ("extra",) if extra else ()
        assert ("chip",) * 4 + tail in seen and ("count",) + tail in seen and tail in seen
        assert (("chip", "chip", "more") in seen) == (not extra)
    s = reach(3, lambda s: s["phase"] == "over")
    view = E.view(s, None)
    texts = board_texts(view, ["Bartholomew Featherstonehaugh", "Wilhelmina Cholmondeley-Smythe", "Cy"])
    # (seven letters and "…" at least: Source Sans Pro's "…" is 2 px wider than Aileron's)
    assert any(t.startswith("Barthol") for t in texts) and any(t.startswith("Wilhel") for t in texts)


def test_every_players_extra_cards_and_hand_show_however_many_goals_they_fulfilled():
    """A player with more goals than fit beside their name still shows their extra cards' points ("+4", gold)
    and their cards in hand: the goals give way (a square with how many), never the extra cards."""
    for players in (2, 3, 6):
        s = reach(players, lambda s: s["phase"] == "turn" and s["step"] is None, options={"extras": True})
        view = E.view(s, None)
        many = list(deck().values())[:12]
        view["fulfilled"] = [many for _ in range(players)]
        held = view["extras"]
        assert held, "the game has extra cards"
        view["extras"] = [dict(held[k % len(held)], holder=k % players) for k in range(2 * players)]
        texts = board_texts(view)
        for seat in range(players):
            count = sum(1 for e in view["extras"] if e["holder"] == seat)
            assert f"+{2 * count}" in texts, (players, seat, texts)
        assert texts.count("12") >= players  # every player's goals, counted in a square
        for size in view["hand_sizes"]:
            assert str(size) in texts


def test_the_pyramid_that_may_not_be_taken_back_is_locked():
    s = reach(2, lambda s: s["step"] is None and s["phase"] == "turn"
              and E.view(s, None)["forbidden"] is not None)
    view = E.view(s, None)
    p = view["forbidden"]
    other = 1 - view["current"]
    assert f"{gd.pname(p)}: just picked by {NAMES[other]}" in board_texts(view)
    assert gd._marks(view, None)["locked"] == p
    free = dict(view, forbidden=None)
    assert not any("just picked" in t for t in board_texts(free))
    assert render_board("geodeto", view, NAMES[:2]) != render_board("geodeto", free, NAMES[:2])


def test_a_warning_before_the_journey_ends_without_a_goal():
    s = copy.deepcopy(E.new(3, {}, 1))
    view = E.view(s, None)
    assert gd.stall_warning(view) is None
    assert gd.stall_warning(dict(view, stall_turns_left=16)) is None
    assert gd.stall_warning(dict(view, stall_turns_left=15)) == "Ends in 15 turns without a goal"
    assert gd.stall_warning(dict(view, stall_turns_left=1)) == "Ends in 1 turn without a goal"
    gone = dict(view, stall_turns_left=12, left=[False, True, False])  # 5 rounds of the 2 still in: 10 turns
    assert gd.stall_warning(gone) is None and gd.stall_warning(dict(gone, stall_turns_left=10))
    s["dry_turns"] = view["stall_turns_left"] + s["dry_turns"] - 7
    near = E.view(s, None)
    assert near["stall_turns_left"] == 7
    texts = board_texts(near)
    assert "Ends in 7 turns without a goal" in texts and "10 goals to go (of 10)" not in texts  # in its place
    assert png(render_board("geodeto", near, NAMES[:3])).size == (600, gd.board_height(near))


def test_the_status_names_every_kind_of_action():
    view = E.view(E.new(2, {}, 1), None)
    assert gd._turn_need(view) == "move, draw or play an action card"
    held = dict(view, epidemic={"continent": None, "holder": 1 - view["current"], "on_board": False},
                pirates={"holder": 1 - view["current"], "pyramids": []})
    assert gd._turn_need(held) == "move a pyramid or draw a card"
    s = reach(3, lambda s: s["step"] is not None and s["step"]["kind"] == "move"
              and gd._riders(E.view(s, None), s["step"]["pyramid"]) >= 1)
    view = E.view(s, None)
    riders = gd._riders(view, view["step"]["pyramid"])
    assert f"(carries {riders}) to a gold mark" in " ".join(board_texts(view))


def test_a_closed_continent_and_the_pirates_holder():
    s = reach(4, lambda s: s["epidemic"]["continent"] is not None and s["pirates"]["holder"] is not None
              and s["pirates"]["pyramids"])
    view = E.view(s, None)
    texts = board_texts(view)
    closed = CONTINENT_NAMES[view["epidemic"]["continent"]]
    assert "Closed" in texts and f"on {closed}" in texts
    assert f"held by {NAMES[view['pirates']['holder']]}" in texts


def test_the_picked_pyramid_and_its_destinations_are_marked():
    s = reach(2, lambda s: s["step"] is not None and s["step"]["kind"] == "move")
    view = E.view(s, None)
    step = view["step"]
    texts = board_texts(view)
    assert f"{NAMES[view['current']]}: move the {gd.pname(step['pyramid'])} to a gold mark" in texts
    plain = render_board("geodeto", dict(view, step=None), NAMES[:2])
    marked = render_board("geodeto", view, NAMES[:2])
    place = step["destinations"][0]["place"]
    focus = E.focus(s, s["current"], "Ocean" if place == 6 else CONTINENT_NAMES[place])
    assert focus == {"place": place, "pyramid": step["pyramid"]}
    focused = render_board("geodeto", view, NAMES[:2], None, focus)
    assert len({plain, marked, focused}) == 3
    assert render_board("geodeto", view, NAMES[:2], None, None) == marked


def test_the_marks_follow_the_view():
    s = reach(3, lambda s: s["step"] is not None and s["step"]["kind"] == "move" and s["last_move"])
    view = E.view(s, None)
    marks = gd._marks(view, None)
    step = view["step"]
    assert marks["picked"] == step["pyramid"]
    assert marks["halos"][step["pyramid"]] == gd.HIGHLIGHT
    assert marks["places"] == {d["place"] for d in step["destinations"]}
    assert marks["onto"] == {d["on"] for d in step["destinations"] if d["on"] is not None}
    assert marks["table"] == {d["place"] for d in step["destinations"] if d["on"] is None}
    moved = view["last_move"]["pyramid"]
    assert moved != step["pyramid"] and gd._find(view, moved)  # (the state reached: another pyramid moved last)
    assert marks["halos"][moved] == gd.SKY


def test_drawing_a_card_and_bonus_draws_frame_the_piles_in_gold():
    s = reach(3, lambda s: s["step"] is not None and s["step"]["kind"] == "draw")
    view = E.view(s, None)
    assert "draw the top card of a pile" in " ".join(board_texts(view))
    assert render_board("geodeto", view, NAMES[:3]) != render_board("geodeto", dict(view, step=None), NAMES[:3])
    s = reach(4, lambda s: s["phase"] == "bonus")
    assert "draw a bonus card" in " ".join(board_texts(E.view(s, None)))


def test_the_public_board_is_drawn_from_a_view_without_hands():
    s = reach(3, lambda s: all(len(h) >= 2 for h in s["hands"]) and s["step"] is None and s["ply"] > 10)
    view = E.view(s, None)
    assert "hand" not in view
    before = render_board("geodeto", view, NAMES[:3])
    s = copy.deepcopy(s)
    a, b = s["hands"][0], s["hands"][1]
    a[0], b[0] = b[0], a[0]  # one card changes hands: sizes stay, nothing public changes
    assert render_board("geodeto", E.view(s, None), NAMES[:3]) == before


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_board_is_600_wide_for_the_phone_and_keeps_its_size_all_game(players):
    """Drawn for the phone (docs/rendering.md, "Legible on a phone"): 600 px wide, and as tall all game (the
    message does not jump); towers and crowds of ships squeeze to fit."""
    sizes = set()
    for i, s in enumerate(gd.sample_game(players, 7, {"extras": True})):
        if i % 10 == 0 or not E.to_act(s):
            sizes.add(png(render_board("geodeto", E.view(s, None), NAMES[:players], "Ana moves.")).size)
    assert len(sizes) == 1 and next(iter(sizes))[0] == 600 and 1000 < next(iter(sizes))[1] <= 1250, sizes


def test_game_over_names_the_winner_and_every_total():
    s = reach(3, lambda s: s["phase"] == "over")
    view = E.view(s, None)
    totals = [row["total"] for row in view["score_sheet"]["players"]]
    texts = board_texts(view)
    best = max(totals)
    won = [seat for seat in range(3) if totals[seat] == best]
    assert view["winners"] == won
    assert any(t.endswith(f"with {best} points!") or t.endswith(f"with {best} point!") for t in texts)
    for seat in range(3):
        assert f"{totals[seat]} pts" in texts or f"{totals[seat]} pt" in texts


# --- "My goals", a card, the score sheet -----------------------------------------------------------------------
def test_my_goals_show_every_card_and_which_are_met():
    s = reach(4, lambda s: len(s["hands"][s["current"]]) >= 3 and s["phase"] == "turn" and s["step"] is None)
    s = copy.deepcopy(s)
    seat = (s["current"] + 1) % 4
    assert gd.rig_goal(s, seat)
    view = E.view(s, seat)
    met = [c for c in view["hand"] if c["met"]]
    assert met
    texts = drawn(render_private, "geodeto", view, "Bo")
    for card in view["hand"]:
        assert card["name"] in texts or card["name"] in " ".join(texts)  # a long name on two lines
        assert card["tweet"].split()[0] in " ".join(texts)
    for card in met:
        assert f"Met on {CONTINENT_NAMES[gd.CONTINENT_KEYS.index(card['met_on'])]}!" in texts
    assert texts.count("Not met yet") == len(view["hand"]) - len(met)
    assert f"Bo: {len(view['hand'])} goal cards, {len(met)} met now" in texts
    img = png(render_private("geodeto", view, "Bo"))
    assert img.width == 600
    mine = E.view(s, s["current"])
    assert "Your turn - " in " ".join(drawn(render_private, "geodeto", mine, "Ana"))


def test_a_goal_card():
    for cid in ("usa", "stonehenge", "princess-elisabeth-station"):
        card = E._card(cid, None) if hasattr(E, "_card") else deck()[cid]
        texts = drawn(render_card, "geodeto", card, "Ana fulfilled it on Europe")
        assert card["name"] in " ".join(texts) and "Ana fulfilled it on Europe" in texts
        assert any(t.startswith("Sight: ") or t.startswith("State, capital ") for t in texts)
        assert png(render_card("geodeto", card)).width == 600


def test_long_card_names_wrap_instead_of_being_cut():
    """On a hand's card and a claimed card a long name takes two lines; on a public goal card, its short name
    on one line ("Elisabeth", "Opera House"), every one of them whole."""
    hand = [E._card(cid, None) for cid in ("amundsen-scott-station", "princess-elisabeth-station")]
    for card in hand:
        card.update(met=False, met_on=None)
    texts = drawn(render_private, "geodeto", {"hand": hand, "seat": 0, "current": 1, "phase": "turn"}, "Ana")
    words = " ".join(texts)  # whole on one line, or over two (Source Sans Pro fits "Amundsen-Scott Station")
    assert words.count("Amundsen-Scott Station") >= 1 and words.count("Princess Elisabeth Station") >= 1
    assert not any(t.endswith("…") for t in texts if t.startswith(("Amundsen", "Princess")))
    assert gd.goal_label(deck()["princess-elisabeth-station"]) == "Elisabeth"
    assert gd.goal_label(deck()["sydney-opera-house"]) == "Opera House"
    for card in deck().values():
        assert gd.text_w(P_SMALL, gd.goal_label(card)) <= gd.CARD_W - 12, card["name"]  # (bold where it fits)
    assert max(gd._goal_card_need(0, card) for card in deck().values()) <= gd.GOAL_H


def test_the_score_sheet_is_a_table_of_parts_per_player():
    s = reach(4, lambda s: s["phase"] == "over", options={"extras": True})
    view = E.view(s, None)
    texts = drawn(render_score_sheet, "geodeto", view, NAMES[:4])
    for label in ("Groups (3 / 1)", "Famous places", "Research stations", "Fulfilled goals (+2)",
                  "Cards in hand (-1)", "Continents (+2)", "Last goal (+1)", "Extra cards (+2)", "Total"):
        assert label in texts
    rows = view["score_sheet"]["players"]
    for seat, row in enumerate(rows):
        assert NAMES[seat] in texts and str(row["total"]) in texts
    assert any(row["fulfilled"] for row in rows)  # (the game reached: someone fulfilled a goal)
    for row in rows:
        if row["fulfilled"]:
            assert f"+{row['fulfilled']}" in texts
    img = png(render_score_sheet("geodeto", view, NAMES[:4]))
    assert img.width == 600 and img.height <= 1250


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 6, 7, 10, 12])
def test_my_goals_fits_what_a_phone_shows(size):
    """Any hand is 600 px wide and at most 1250 tall (as tall as the tallest phone board): one card a row, whole,
    up to three, two a row without the geo-tweet up to six, then five rows of two, compact, the rest counted."""
    hand = [dict(card, met=False, met_on=None) for card in list(deck().values())[:size]]
    view = {"hand": hand, "seat": 0, "current": 1, "phase": "turn"}
    img = png(render_private("geodeto", view, "Ana"))
    assert img.width == 600 and img.height <= 1250, img.size
    texts = drawn(render_private, "geodeto", view, "Ana")
    for card in hand[:gd.HAND_SHOWN]:
        assert any(t.startswith(card["name"].split()[0][:5]) for t in texts), card["name"]
    assert any(t.endswith(f"({size - gd.HAND_SHOWN} not shown)") for t in texts) == (size > gd.HAND_SHOWN)


def test_a_crowded_oceans_ships_keep_every_letter_visible(monkeypatch):
    """Ships in a crowded Ocean are squeezed only as far as the Ocean needs: here (a ship of four among eight
    pyramids, six players' action cards below) each pyramid of a ship rises at least CRAMPED_STEP above the one
    below, so its letter shows (any squeeze made them 8 px apart: only the top letter showed)."""
    from games.geodeto.rules import OCEAN
    from render.geodeto import pieces

    s = copy.deepcopy(reach(6, lambda s: s["phase"] == "turn" and s["step"] is None, options={"extras": True}))
    ocean = [[14, 11, 4, 16], [10], [5], [2, 0]]
    moved = {p for t in ocean for p in t}
    s["towers"] = [[kept for t in place if (kept := [p for p in t if p not in moved])] for place in s["towers"]]
    s["towers"][OCEAN] = ocean + s["towers"][OCEAN]
    placed: list[tuple[int, float, float]] = []
    put = pieces.put_pyramid

    def recorded(img, d, p, x, base, **kwargs):
        if kwargs.get("height") is None and not kwargs.get("ghost"):  # on the board (not a card's trio)
            placed.append((p, x, base))
        return put(img, d, p, x, base, **kwargs)

    monkeypatch.setattr(pieces, "put_pyramid", recorded)
    render_board("geodeto", E.view(s, None), NAMES, None, None)
    where: dict[int, tuple[float, float]] = {}
    for p, x, base in placed:  # the towers come first (then other pictures, the pips' legend)
        where.setdefault(p, (x, base))
    bases = [where[p][1] for p in ocean[0]]
    rises = [below - above for below, above in zip(bases, bases[1:], strict=False)]
    natural = [pieces.PYR_H[p % 3] - pieces.OVERLAP for p in ocean[0][:-1]]
    assert any(r < n for r, n in zip(rises, natural, strict=True)), (rises, natural)  # squeezed
    assert min(rises) >= pieces.CRAMPED_STEP, rises


def test_the_ocean_never_runs_past_its_box_in_the_sample_games():
    """However crowded (as many as 14 pyramids in 11 towers, a gold arrow over each), the Ocean's towers fit its
    box, drawn smaller and squeezed only as far as needed (each step at least CRAMPED_STEP, so every letter
    shows): nothing is drawn outside the box, nor on the Epidemic and Pirates cards below it. (412 of these
    boards drew past it, 201 of them onto the cards, up to 190 px, over the players' strip too.) Drawn for the
    phone (600 px wide, pyramids no smaller than 0.85), one board of the 4,882 (two players, a ship of four and
    one of three among nine towers, gold arrows) squeezes below CRAMPED_STEP, its lower letters partly covered:
    at least 16 px a step, the box still holds it."""
    from render.geodeto import board as B
    from render.geodeto.pieces import CRAMPED_STEP

    ground = (1, 2, 3)
    boards = crowded = cramped = 0
    for players in range(2, 7):
        for seed in range(5):
            for s in gd.sample_game(players, seed, {"extras": players > 2}):
                view = E.view(s, None)
                marks = B._marks(view, None)
                ocean, cards, _ = B.ocean_column(view, marks, B._rows(view, gd.players_height(players)))
                assert ocean[3] < cards[1]  # the boxes themselves apart
                height = ocean[3] - ocean[1]
                scale, squeeze = B._ocean_fit(view, marks, height)
                where = f"{players} players, seed {seed}, Ocean {view['ocean']}"
                assert B._ocean_need(view, marks, squeeze, scale) <= height, where
                assert squeeze is None or squeeze >= 16, where
                cramped += squeeze is not None and squeeze < CRAMPED_STEP
                boards += 1
                crowded += scale < 1 or squeeze is not None
                if scale == 1 and squeeze is None and boards % 10:
                    continue  # (every tenth roomy Ocean drawn too)
                img = Image.new("RGB", (600, B.board_height(view)), ground)
                B._ocean(img, ImageDraw.Draw(img), view, ocean, marks)
                drawn = ImageChops.difference(img, Image.new("RGB", img.size, ground)).getbbox()
                assert drawn is not None and drawn[0] >= ocean[0] and drawn[1] >= ocean[1], where
                assert drawn[2] <= ocean[2] + 1 and drawn[3] <= ocean[3] + 1, (where, drawn, ocean)
    assert boards > 4000 and crowded > 250 and cramped <= 1, (boards, crowded, cramped)


def test_who_holds_an_action_card_is_named_whole():
    """"held by A…" hid even a three-letter name in the action cards' narrow box: the name comes whole ("with
    Alice" when "held by Alice" does not fit)."""
    view = E.view(E.new(2, {}, 1), None)
    for name in ("Ana", "Dee", "Alice"):
        held = dict(view, epidemic={"continent": None, "holder": 0, "on_board": False},
                    pirates={"holder": 0, "pyramids": []})
        texts = board_texts(held, names=[name, "Bo"])
        holds = [t for t in texts if t.endswith(name) and t != name]
        assert len(holds) == 2 and all(t in (f"held by {name}", f"with {name}") for t in holds), texts
    texts = board_texts(dict(view, pirates={"holder": 1, "pyramids": []}), names=["Alice", "Bo"])
    assert "held by Bo" in texts  # where it fits, the whole phrase


def test_the_epidemic_names_its_continent_whole():
    """"Antarctica" under "Epidemic" where "on Antarctica" would be clipped to "on Antarc…" (a playtester's find)."""
    from tests.render.test_legibility import geodeto_states

    state = next(s for what, s in geodeto_states() if what.startswith("geodeto 6p over"))
    for c, continent in enumerate(CONTINENT_NAMES):
        closed = copy.deepcopy(state)
        closed["epidemic"]["continent"] = c
        with record_texts() as texts:
            render.render_board("geodeto", Geodeto().view(closed, None), ["Ana", "Bo", "Cy", "Dee", "Eve", "Fay"])
        assert f"on {continent}" in texts or continent in texts, (continent, texts)
        assert not [t for t in texts if "…" in t], continent


def test_the_padlock_never_covers_a_pyramids_letter(monkeypatch):
    """The padlock on the pyramid that may not be taken back sits beside its letter, clear of every letter on the
    board (its own, the ones above it in its tower, a neighbouring tower's, a goal card's trio). (It sat on the
    right flank at the letter's height: on a small pyramid it covered its own letter, in 1,420 of 4,182 boards
    of these games.)"""
    from render.common import HEADER_H, P_SMALL, font
    from render.geodeto import pieces

    placed: list[tuple[int, float, float]] = []
    locks: list[tuple[float, float]] = []
    put, lock = pieces.put_pyramid, pieces.padlock

    def recorded_pyramid(img, d, p, x, base, **kwargs):
        if not kwargs.get("ghost"):
            placed.append((p, x, base))
        return put(img, d, p, x, base, **kwargs)

    def recorded_lock(d, x, y):
        if y > HEADER_H:  # (the one on the note's line under the ring stands beside its words)
            locks.append((x, y))
        return lock(d, x, y)

    monkeypatch.setattr(pieces, "put_pyramid", recorded_pyramid)
    monkeypatch.setattr(pieces, "padlock", recorded_lock)

    def letter(p: int, x: float, base: float) -> tuple[float, float, float, float]:
        left, top, right, bottom = font(P_SMALL).getbbox(gd.LETTERS[p // 3], anchor="ms", stroke_width=1)
        y = base - pieces.LETTER_Y
        return x + left - 1, y + top - 1, x + right + 1, y + bottom + 1  # (a pixel for the sprite's rounding)

    def overlap(a, b) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    boards = 0
    for seed in range(12):
        for s in gd.sample_game(2, seed):
            view = E.view(s, None)
            if view.get("forbidden") is None:
                continue
            placed.clear()
            locks.clear()
            render.draw_board("geodeto", view, NAMES[:2])
            boards += 1
            [(x, y)] = locks
            box = pieces.LOCK_BOX
            padlock = (x + box[0], y + box[1], x + box[2], y + box[3])
            covered = [p for p, px, base in placed if overlap(padlock, letter(p, px, base))]
            assert not covered, (seed, view["forbidden"], covered)
    assert boards > 1000
