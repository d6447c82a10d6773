"""Geek Out computer (games/geek_out/ai.py): the turn solver is exact, strong plays it, and its last turn
plays for the win rather than the points."""

from functools import cache

from games.ai import choose
from games.core import get_engine
from games.geek_out.ai import (
    POINTS,
    POINTS_CONTINUE,
    TURN_DISTRIBUTION,
    SweptSolver,
    TurnSolver,
    normal_rolls_on,
    one_more_roll_pays,
    points_solver,
    rolls,
    timeout_play,
    win_utility,
)
from games.geek_out.rules import best_move, moves, points_for

OPP = {"42": "heart", "heart": "42", "meeple": "ship", "ship": "meeple", "hero": "dragon", "dragon": "hero"}
FACES = ("42", "heart", "meeple", "ship", "hero", "dragon")


@cache
def brute(active: tuple, inactive: int, scored: int, continues: int) -> float:
    """Expectimax written from the rule text, with at most ``continues`` more rolls of the used dice."""
    actions = [i for i, f in enumerate(active) if f in ("heart", "meeple", "ship", "hero")]
    if not actions:
        if "dragon" in active:
            return 0.0
        scored += len(active)
        used = 10 - scored - inactive
        bank = float(points_for(scored))
        if used == 0 or continues == 0:
            return bank
        outcomes = [()]
        for _ in range(used):
            outcomes = [o + (f,) for o in outcomes for f in FACES]
        roll = sum(brute(tuple(sorted(o)), inactive, scored, continues - 1) for o in outcomes) / len(outcomes)
        return max(bank, roll)
    best = None
    for i in actions:
        face, rest = active[i], active[:i] + active[i + 1:]
        values = []
        if face == "heart":
            if inactive:
                values.append(sum(brute(tuple(sorted(rest + (f,))), inactive - 1, scored, continues)
                                  for f in FACES) / 6)
            else:
                values.append(brute(rest, inactive, scored, continues))
        elif not rest:
            values.append(0.0 if face == "ship" else brute(rest, inactive, scored, continues))
        else:
            for j in range(len(rest)):
                others = rest[:j] + rest[j + 1:]
                if face == "meeple":
                    values.append(sum(brute(tuple(sorted(others + (f,))), inactive, scored, continues)
                                      for f in FACES) / 6)
                elif face == "hero":
                    values.append(brute(tuple(sorted(others + (OPP[rest[j]],))), inactive, scored, continues))
                else:
                    values.append(brute(tuple(sorted(others)), inactive + 1, scored, continues))
        best = max([*values] + ([best] if best is not None else []))
    return best


def test_the_solver_matches_a_brute_force_expectimax_on_small_turns():
    solver = points_solver()
    order = {f: i for i, f in enumerate(FACES)}
    cases = [((), 0, 9), ((), 0, 8), ((), 1, 8), ((), 2, 7), (("42", "meeple"), 0, 8), (("hero", "dragon"), 1, 7),
             (("heart", "ship", "42"), 1, 6), (("meeple", "dragon", "42"), 0, 7)]
    for active, inactive, scored in cases:
        mine = solver.value(tuple(sorted(active, key=order.__getitem__)), inactive, scored)
        theirs = brute(tuple(sorted(active)), inactive, scored, 40)
        assert abs(mine - theirs) < 1e-9, (active, inactive, scored, mine, theirs)
    # one die left with nine 42s scored: continuing once is worth 55/6 + 45/2, so pass (45)
    assert abs(solver.cont[(9, 0)] - (55 / 6 + 45 / 2)) < 1e-12 and not solver.continues(9, 0)


def test_the_kept_continue_table_is_the_solvers_fixed_point():
    """One more sweep of value iteration over every position leaves the table as it is."""
    solver = TurnSolver(POINTS, POINTS_CONTINUE)
    for (scored, inactive), kept in POINTS_CONTINUE.items():
        again = sum(p * solver.value(roll, inactive, scored) for roll, p in rolls(10 - scored - inactive))
        assert abs(again - kept) < 1e-8, (scored, inactive, again, kept)


def test_the_turn_distribution_adds_up_to_the_optimum():
    assert abs(sum(TURN_DISTRIBUTION) - 1) < 1e-9
    mean = sum(p * points_for(n) for n, p in enumerate(TURN_DISTRIBUTION))
    assert abs(mean - points_solver().turn_start()) < 1e-6
    assert 19.0 < points_solver().turn_start() < 19.1


def at_choice(scored: int, inactive: int, my_total: int, their_total: int, their_turns_left: int):
    """Two players, seat 0 on its last of 5 turns at the Continue/Pass choice with ``scored`` 42s."""
    engine = get_engine("geek_out")
    state = engine.new(2, {}, 3)
    state["current"] = 0
    state["turns"] = [4, 5 - their_turns_left]
    state["scores"] = [[my_total, 0, 0, 0], [their_total] + [0] * (4 - their_turns_left)]
    dice = {n: "42" for n in range(1, scored + 1)}
    inact = {n: "42" for n in range(scored + 1, scored + 1 + inactive)}
    used = {n: "hero" for n in range(scored + 1 + inactive, 11)}
    engine.arrange(state, scored=dice, inactive=inact, used=used)
    assert state["phase"] == "choose"
    return engine, state


def test_strong_plays_its_last_turn_to_win_not_for_points():
    # 15 points at risk with 3 inactive: for points, pass (a roll is worth 12.3); 20 behind, only a roll can win
    engine, state = at_choice(5, 3, 10, 30, 0)
    assert not points_solver().continues(5, 3)
    assert choose(engine, state, 0, "strong", 1) == "c"
    assert choose(engine, state, 0, "normal", 1) == "p"
    # 6 points at risk with nothing inactive: for points, roll (21.3); 5 behind with the other done: bank and win
    engine, state = at_choice(3, 0, 20, 25, 0)
    assert points_solver().continues(3, 0)
    assert choose(engine, state, 0, "strong", 1) == "p"
    assert choose(engine, state, 0, "normal", 1) == "c"



def test_the_swept_solver_values_positions_as_the_recursion_does():
    """Swept to convergence over the flat dice graph, the points utility gives the kept Continue table and
    the recursive solver's values."""
    swept = SweptSolver(POINTS, tolerance=1e-9, max_sweeps=1000)
    for key, kept in POINTS_CONTINUE.items():
        assert abs(swept.cont[key] - kept) < 1e-6, (key, swept.cont[key], kept)
    solver = points_solver()
    for roll, _ in rolls(7)[::7]:
        for inactive, scored in ((3, 0), (0, 1), (1, 2)):
            assert abs(swept.value(roll, inactive, scored) - solver.value(roll, inactive, scored)) < 1e-6


def test_the_last_turn_solver_is_a_fixed_amount_of_work_close_to_the_exact_chance():
    """Strong's last turn: at most six sweeps a scored level (it took up to 1.5 s, 2.5 s on a loaded core,
    before), and the chance to win it finds within 0.002 of the converged one."""
    for mine, others in ((40, [(45, 1)]), (100, [(90, 2)])):
        utility = win_utility(mine, others)
        budget = SweptSolver(utility)
        assert budget.sweeps <= 6 * 11
        exact = SweptSolver(utility, tolerance=1e-12, max_sweeps=1000)
        assert exact.sweeps > budget.sweeps
        assert abs(budget.turn_start() - exact.turn_start()) < 0.002


def test_normals_continue_table_is_its_one_roll_rule():
    for scored in range(11):
        for inactive in range(11 - scored):
            assert normal_rolls_on(inactive, scored) == one_more_roll_pays(inactive, scored), (scored, inactive)


def test_normals_dice_in_floats_are_the_timeouts_exact_choice():
    for roll, _ in rolls(7)[::3]:
        if moves(roll):
            for inactive, scored in ((3, 0), (0, 2)):
                assert timeout_play().best(roll, inactive, scored) == best_move(roll, inactive, scored)[0]
