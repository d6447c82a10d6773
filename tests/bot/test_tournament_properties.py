"""Properties of the tournament rules over thousands of random tournaments (docs/rules/tournaments.md): each
example plays a whole tournament with random results and drops, and every round is checked; on small fields the
repeats are compared with a brute-force minimum."""

import random
from functools import cache
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournament.pairing import (
    Entrant,
    Played,
    bracket,
    champion,
    knockout_round,
    knockout_rounds,
    standings,
    swiss_round,
    table_sizes,
)
from bot.tournament.standings import meetings


def results(rnd: random.Random, number: int, table: tuple[int, ...]) -> Played:
    """Random places; one table in six shares a place."""
    order = list(table)
    rnd.shuffle(order)
    places = {uid: i + 1 for i, uid in enumerate(order)}
    if len(table) > 1 and rnd.random() < 1 / 6:
        k = rnd.randrange(len(table) - 1)
        places[order[k + 1]] = places[order[k]]
    return Played(number, table, tuple(places[uid] for uid in table))


def repeats(tables, met) -> int:
    return sum(met.get((min(a, b), max(a, b)), 0) for t in tables for a, b in combinations(t, 2))


def fewest_repeats(ids: list[int], sizes: list[int], met, bye_candidates) -> int:
    """Brute force: the fewest repeat meetings of any seating of ``ids`` in tables of ``sizes`` (with one of
    ``bye_candidates`` out on a bye, when given)."""
    @cache
    def best(left: frozenset, sizes: tuple[int, ...]) -> float:
        if not left:
            return 0
        first, rest = min(left), left - {min(left)}
        out = float("inf")
        for size in set(sizes):
            others = list(sizes)
            others.remove(size)
            for company in combinations(sorted(rest), size - 1):
                cost = repeats([(first, *company)], met)
                out = min(out, cost + best(rest - set(company), tuple(sorted(others))))
        return out

    if bye_candidates:
        return min(best(frozenset(ids) - {b}, tuple(sorted(sizes))) for b in bye_candidates)
    return best(frozenset(ids), tuple(sorted(sizes)))


def sorted_properly(rows, size: int) -> None:
    def key(s):
        if size == 2:
            return (-round(s.points, 6), -round(s.tiebreaks[0], 6), -round(s.tiebreaks[1], 6))
        return (-round(s.points, 6), s.tiebreaks[0], -round(s.tiebreaks[1], 6))

    for i, row in enumerate(rows):
        if i == 0:
            assert row.place == 1
            continue
        before = rows[i - 1]
        assert key(before) <= key(row)
        if key(before) == key(row):
            assert row.place == before.place and before.seed <= row.seed
        else:
            assert row.place == i + 1


def play_swiss(seed: int, n: int, size: int, rounds: int, brute: bool) -> None:
    rnd = random.Random(seed)
    dropped: dict[int, int] = {}
    played: list[Played] = []
    seeds = list(range(1, n + 1))
    rnd.shuffle(seeds)
    ids = [1000 + 7 * i for i in range(n)]
    for number in range(1, rounds + 1):
        if rnd.random() < 0.15 and len(ids) - len(dropped) > 2:  # someone leaves between rounds
            dropped[rnd.choice([u for u in ids if u not in dropped])] = number - 1
        entrants = [Entrant(u, s, dropped.get(u)) for u, s in zip(ids, seeds, strict=True)]
        active = [e.id for e in entrants if e.active_in(number)]
        rnd_ = swiss_round(entrants, played, size, number)
        seated = [u for t in rnd_.tables for u in t] + list(rnd_.byes)
        assert sorted(seated) == sorted(active), "every active entrant exactly once"
        byes_had = {u: sum(1 for g in played if g.bye and g.seats == (u,)) for u in active}
        if len(active) == 1:
            assert rnd_.tables == () and rnd_.byes == tuple(active)
        elif size == 2:
            assert all(len(t) == 2 for t in rnd_.tables) and len(rnd_.byes) == len(active) % 2
        else:
            assert sorted(len(t) for t in rnd_.tables) == sorted(table_sizes(len(active), size))
            assert rnd_.byes == ()
        for b in rnd_.byes:
            assert byes_had[b] == min(byes_had.values()), "no second bye while someone has had none"
        met = meetings(played, number)
        if brute:
            candidates = [u for u in active if byes_had[u] == min(byes_had.values())] if rnd_.byes else None
            sizes = [2] * (len(active) // 2) if size == 2 else table_sizes(len(active), size)
            assert repeats(rnd_.tables, met) == fewest_repeats(active, sizes, met, candidates)
        shuffled = list(entrants)
        rnd.shuffle(shuffled)
        assert swiss_round(shuffled, list(reversed(played)), size, number) == rnd_, "deterministic"
        played += [results(rnd, number, t) for t in rnd_.tables]
        played += [Played(number, (b,), (1,), bye=True) for b in rnd_.byes]
        if seated and rnd.random() < 0.1:  # someone leaves during the round: they took part in it
            out = rnd.choice(seated)
            dropped.setdefault(out, number)
        entrants = [Entrant(u, s, dropped.get(u)) for u, s in zip(ids, seeds, strict=True)]
        rows = standings("swiss", entrants, played, size)
        assert sorted(r.id for r in rows) == sorted(ids)
        sorted_properly(rows, size)
        assert {r.id for r in rows if r.dropped} == set(dropped)
        total = sum(r.points for r in rows)
        assert abs(total - (played_points := sum(1 if size == 2 else 4 for g in played if g.bye)
                            + sum(_table_total(g, size) for g in played if not g.bye))) < 1e-6, played_points


def _table_total(game: Played, size: int) -> float:
    from bot.tournament.model import table_points

    return sum(table_points(game.places, size))


@settings(max_examples=600)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 10), rounds=st.integers(1, 9))
def test_swiss_duels_small_fields_against_brute_force(seed, n, rounds):
    play_swiss(seed, n, 2, rounds, brute=True)


@settings(max_examples=400)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 9), size=st.sampled_from((3, 4)), rounds=st.integers(1, 6))
def test_swiss_tables_small_fields_against_brute_force(seed, n, size, rounds):
    play_swiss(seed, n, size, rounds, brute=True)


@settings(max_examples=200)
@given(seed=st.integers(0, 2**32), n=st.integers(11, 40), size=st.sampled_from((2, 3, 4)), rounds=st.integers(1, 7))
def test_swiss_larger_fields(seed, n, size, rounds):
    play_swiss(seed, n, size, rounds, brute=False)


def play_knockout(seed: int, n: int, size: int, drops: bool) -> None:
    rnd = random.Random(seed)
    ids = [500 + 3 * i for i in range(n)]
    entrants = [Entrant(u, i + 1) for i, u in enumerate(ids)]
    played: list[Played] = []
    still_in = set(ids)
    number = 1
    plan = bracket(entrants, played, size)
    assert len(plan) == knockout_rounds(n, size) and len(plan[-1]) == 1
    assert all(len(plan[k]) == len(plan[k + 1]) * size for k in range(len(plan) - 1))
    while True:
        got = knockout_round(entrants, played, size, number)
        if got is None:
            break
        seated = [u for t in got.tables for u in t] + list(got.byes)
        assert len(seated) == len(set(seated)) and set(seated) <= still_in
        assert all(e.active_in(number) for e in entrants if e.id in seated)
        assert all(2 <= len(t) <= size for t in got.tables)
        if not drops:
            assert set(seated) == still_in, "everyone still in is seated or has a bye"
            if number == 2:
                assert len(seated) == size ** (knockout_rounds(n, size) - 1), "round 1 leaves a power of the size"
            if number > 1:
                assert got.byes == () and all(len(t) == size for t in got.tables)
        games = [results(rnd, number, t) for t in got.tables]
        played += games
        winners = set(got.byes)
        for g in games:
            ranked = sorted(g.seats, key=lambda u: (g.places[g.seats.index(u)], ids.index(u)))
            winners.add(ranked[0])
        assert len(winners) == len(got.tables) + len(got.byes), "one goes on from each table"
        still_in = winners
        if drops and rnd.random() < 0.3:
            out = rnd.choice(ids)
            entrants = [Entrant(e.id, e.seed, number) if e.id == out and e.dropped_after is None else e
                        for e in entrants]
        number += 1
        assert number <= 12
    if not drops:
        assert number - 1 == knockout_rounds(n, size)
        assert champion(entrants, played, size) in still_in and len(still_in) == 1
    done = bracket(entrants, played, size)
    assert all(m.winner is not None for r in done for m in r if any(u is not None for u in m.seats))
    rows = standings("knockout", entrants, played, size)
    assert sorted(r.id for r in rows) == sorted(ids)
    assert [r.place for r in rows] == sorted(r.place for r in rows)
    winner = champion(entrants, played, size)
    if winner is not None:
        assert rows[0].id == winner and rows[0].place == 1 and rows[1].place == 2


@settings(max_examples=500)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 70), size=st.sampled_from((2, 3, 4)))
def test_knockout_halves_the_field_to_one_winner(seed, n, size):
    play_knockout(seed, n, size, drops=False)


@settings(max_examples=300)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 40), size=st.sampled_from((2, 3, 4)))
def test_knockout_with_drops(seed, n, size):
    play_knockout(seed, n, size, drops=True)


def test_no_repeat_pairing_in_a_round_robin_length_swiss():
    """Eight players, seven rounds: a repeat-free pairing exists every round only if earlier rounds left one; the
    search must find it whenever it exists (the brute force says so in the small-field properties)."""
    es = [Entrant(i, i) for i in range(1, 9)]
    played: list[Played] = []
    for number in range(1, 8):
        got = swiss_round(es, played, 2, number)
        met = meetings(played, number)
        best = fewest_repeats([e.id for e in es], [2] * 4, met, None)
        assert repeats(got.tables, met) == best
        played += [Played(number, t, (1, 2)) for t in got.tables]


def test_a_256_player_swiss_stays_fast():
    """The issue's target is 100 ms a pairing (benchmarks/pairing.py measures it: about 10 ms); five times that
    here, on a shared machine, catches a search that turned exponential."""
    import time

    from benchmarks.pairing import play

    for size in (2, 4):
        entrants, played = play(256, size, 9)
        for number in (1, 5, 9):
            start = time.perf_counter()
            got = swiss_round(entrants, [g for g in played if g.round < number], size, number)
            assert time.perf_counter() - start < 0.5, (size, number)
            assert sum(len(t) for t in got.tables) + len(got.byes) == sum(e.active_in(number) for e in entrants)
