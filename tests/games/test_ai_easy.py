"""Easy computers are beginners, not wrecks (issue 24): they make mistakes but still play toward the goal.
Seeded games against a uniformly random player (the same seeds every run: deterministic, never flaky);
``benchmarks/easy.py`` measures the same over more games (docs/ai.md)."""

import random
import statistics

from games import get_engine
from games.ai import choose


def play(slug: str, strengths: list[str], seed: int, options: dict | None = None) -> dict:
    """A game of computers and random players (``"random"``) from ``seed``; the final state."""
    engine = get_engine(slug)
    state = engine.new(len(strengths), options or {}, seed)
    pick = random.Random(seed)
    while not engine.is_over(state):
        seat = sorted(engine.to_act(state))[0]
        if strengths[seat] == "random":
            key = pick.choice(engine.legal_actions(state, seat)).key
        else:
            key = choose(engine, state, seat, strengths[seat], ("easy test", seed))
        state, _events = engine.apply(state, seat, key)
    return state


def test_globe_twister_easy_rebuilds_its_photo_within_ten_turns_in_nearly_every_round():
    """Its cell-by-cell programs alone got stuck: a third of the rounds ended unsolved after ten turns."""
    rebuilt = []
    for seed in range(20):
        seats = ["easy", "random"] if seed % 2 == 0 else ["random", "easy"]
        [log] = play("globe_twister", seats, 100 + seed)["travel_log"]
        rebuilt.append(log["winner"] == seats.index("easy"))
    assert sum(rebuilt) >= 18, rebuilt


def test_geodeto_easy_completes_a_goal_in_nearly_every_game():
    """Its noise once swamped the gain of a move toward a goal: no goal at all in a third of its games."""
    goals = []
    for seed in range(16):
        seats = ["easy", "random"] if seed % 2 == 0 else ["random", "easy"]
        goals.append(len(play("geodeto", seats, 100 + seed)["fulfilled"][seats.index("easy")]))
    assert sum(g > 0 for g in goals) >= 15 and statistics.mean(goals) >= 2, goals


def test_geek_out_easy_scores_clearly_between_random_play_and_normal():
    """Random play scores about half a point a turn, normal about ten; easy's rule of thumb for every die
    scored 2.4. Easy pushes its luck blindly and plays the odd loose die, but plays most dice well."""
    means = {}
    for strength in ("random", "easy", "normal"):
        turns = [points for seed in range(40) for points in play("geek_out", [strength], seed, {"turns": 10})["scores"][0]]
        means[strength] = statistics.mean(turns)
    assert means["random"] + 3 < means["easy"] < means["normal"] - 2, means
