"""Languages and lessons (issue 19), measured: what German and Spanish words cost, what /learn's coach costs.

    python -m benchmarks.languages [--quick] [--game slug]

Every figure is a ratio against a baseline measured in the same run, interleaved with it (this machine is
noisy and shared; ratios travel), except the lesson step, which has an absolute budget:

- boards: ``render_board`` of the same views (seeded games in play, the last move's words in the footer) with
  ``locale="de"`` and ``"es"`` against ``"en"``, per game, each board drawn in the three languages back to
  back and the median of those paired ratios taken; target <= 1.15 (a translation is a catalog lookup per
  text; the glyph masks are cached per string in every language alike);
- a move's words: ``i18n.localize`` (German) of everything a move says (its events, the next seat's button
  labels) against building them (``engine.apply`` and ``legal_actions``), per game; for information;
- /learn's step: ``games.coach.advise`` for the learner against the computer's own ``games.ai.choose`` at the
  lesson's strength ("normal") on the same positions (the learner's turns of seeded lessons set up as
  bot/cogs/learn.py sets them up: the learner follows the advice most of the time; walked in order, so a
  turn's plan is paid at its first click, as in the bot), p50/p99/max and the ratio of the medians; and the
  whole step a click costs (the lesson replayed from its log, the learner's move, the
  computer's answer, the advice and the board in German), whose maximum should stay under ``STEP_BUDGET``
  (Discord wants an answer within 3 s; the cog defers first, but a lesson should feel instant). The slowest
  advice of each game is profiled: the coach or computer functions that took its time are printed;
- the slash-command translator: the sync payload of every command with ``bot/translator.py``'s
  ``CatalogTranslator`` against the plain payload (``to_dict``), built once at start: absolute ms and ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import importlib
import json
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable

import games
import i18n
import render
from games.ai import choose
from games.coach import advise
from games.core import Engine

BOARD_TARGET = 1.15
"""German or Spanish board / the same board in English."""
STEP_BUDGET = 1.0
"""Seconds a whole lesson step (and so its advice) may take at most."""
LANGS = ("de", "es")
NAMES = ["Ana", "Bo", "Cy", "Dee"]
BOARD_PLAYERS = {"geek_out": 4, "geoneo": 3, "geodeto": 3, "geomancy": 2, "globe_twister": 2}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def interleaved(fns: dict[str, Callable[[], object]], rounds: int, per_round: int, warmup: int = 3) -> dict:
    """Median seconds of each function over ``rounds`` interleaved rounds (so a slow spell of the shared
    machine hits them all), after a warm-up."""
    for fn in fns.values():
        for _ in range(warmup):
            fn()
    samples: dict[str, list[float]] = {name: [] for name in fns}
    for r in range(rounds):
        order = list(fns.items()) if r % 2 == 0 else list(reversed(fns.items()))
        for name, fn in order:
            for _ in range(per_round):
                t0 = time.perf_counter()
                fn()
                samples[name].append(time.perf_counter() - t0)
    return {name: statistics.median(s) for name, s in samples.items()}


def cycle(items: list) -> Callable[[], object]:
    k = iter(range(10**12))
    return lambda: items[next(k) % len(items)]


# --- seeded games -------------------------------------------------------------------------------------------
def moves_of(engine: Engine, players: int, n: int, seed0: int = 0, every: int = 1) -> list[tuple]:
    """(state, seat, key, events) of ``n`` moves of seeded games with random legal play (every ``every``-th
    move kept), from the start to the end of games."""
    out, seed = [], seed0
    while len(out) < n:
        state, pick = engine.new(players, {}, seed), random.Random(seed)
        for step in range(400):
            acting = engine.to_act(state)
            if not acting or len(out) >= n:
                break
            seat = min(acting)
            key = pick.choice(engine.legal_actions(state, seat)).key
            after, events = engine.apply(state, seat, key)
            if step % every == 0:
                out.append((state, seat, key, events))
            state = after
        seed += 1
    return out


def boards_of(engine: Engine, n: int) -> list[tuple]:
    """(view, names, last) of boards in play: the last move's words (a Text) in the footer."""
    players = BOARD_PLAYERS.get(engine.slug, 2)
    out = []
    for state, seat, key, _events in moves_of(engine, players, n, seed0=100, every=5):
        after, events = engine.apply(state, seat, key)
        last = i18n.join([e.text for e in events]) if events else None
        out.append((engine.view(after, None), NAMES[:players], last))
    return out


# --- 1. boards and a move's words -----------------------------------------------------------------------------
def bench_boards(engine: Engine, quick: bool) -> dict[str, tuple[float, float, float]]:
    """Per language: (the median of paired ratios, median ms in it, median ms in English). Each board is drawn
    in the three languages back to back, in an order that rotates, and the pair's ratio taken at once: a slow
    spell of the shared machine hits both sides of a pair (a ratio of two medians drifts with it)."""
    boards = boards_of(engine, 8)
    langs = ("en", *LANGS)
    for lang in langs:  # every glyph mask and fitted label of every board cached, in every language
        for board in boards:
            render.render_board(engine.slug, *board, locale=lang)
    times: dict[str, list[float]] = {lang: [] for lang in langs}
    ratios: dict[str, list[float]] = {lang: [] for lang in LANGS}
    for r in range(-1, 12 if quick else 25):  # round -1: a warm-up, not counted
        for k, board in enumerate(boards):
            once = {}
            for lang in langs[(r + k) % 3:] + langs[:(r + k) % 3]:
                t0 = time.perf_counter()
                render.render_board(engine.slug, *board, locale=lang)
                once[lang] = time.perf_counter() - t0
            if r < 0:
                continue
            for lang in langs:
                times[lang].append(once[lang])
            for lang in LANGS:
                ratios[lang].append(once[lang] / once["en"])
    en = statistics.median(times["en"])
    return {lang: (statistics.median(ratios[lang]), statistics.median(times[lang]), en) for lang in LANGS}


def bench_words(engine: Engine, quick: bool) -> tuple[float, float]:
    """(localize a move's words in German, build them: apply + the next seat's legal actions), medians."""
    moves = moves_of(engine, BOARD_PLAYERS.get(engine.slug, 2), 40, seed0=200, every=3)

    def said(move):
        state, seat, key, events = move
        after, _events = engine.apply(state, seat, key)
        nxt = engine.to_act(after)
        labels = [a.label for a in engine.legal_actions(after, min(nxt))] if nxt else []
        return [e.text for e in events] + labels

    texts = [said(m) for m in moves]

    def build(move):
        state, seat, key, _events = move
        after, _ = engine.apply(state, seat, key)
        nxt = engine.to_act(after)
        if nxt:
            engine.legal_actions(after, min(nxt))

    nm, nt = cycle(moves), cycle(texts)
    times = interleaved({"build": lambda: build(nm()), "localize": lambda: i18n.localize(nt(), "de")},
                        rounds=5 if quick else 15, per_round=len(moves), warmup=len(moves))
    return times["localize"], times["build"]


# --- 2. /learn ------------------------------------------------------------------------------------------------
def lesson_positions(engine: Engine, n: int, seed0: int = 0) -> list[tuple]:
    """(players, options, seed, log, state, key) at the learner's turns of seeded lessons, set up as /learn sets
    them up: the computer plays "normal"; the learner follows the coach's advice four times in five (else a
    random legal move: ``key``), so the positions are the ones a learner meets, in the order met."""
    from bot.cogs.learn import OPPONENT
    from games.coach import LEARNER, computers_move, get_coach

    out, seed, coach = [], seed0, get_coach(engine.slug)
    while len(out) < n:
        players, options = coach.lesson(seed % coach.levels)
        state, log = engine.new(players, options, seed), []
        state, _ = computers_move(engine, state, seed, log, OPPONENT)
        pick = random.Random(seed)
        for _step in range(200):
            if not engine.to_act(state) or len(out) >= n:
                break
            legal = engine.legal_actions(state, LEARNER)
            key = advise(engine, state, LEARNER).key if pick.random() < 0.8 else pick.choice(legal).key
            out.append((players, options, seed, list(log), state, key))
            state, _ = engine.apply(state, LEARNER, key)
            log.append((LEARNER, key))
            state, _ = computers_move(engine, state, seed, log, OPPONENT)
        seed += 1
    return out


def lesson_step(engine: Engine, position: tuple, lang: str = "de") -> None:
    """What one click costs the bot, without Discord (bot/cogs/learn.py ``click`` and ``panel``): replay the
    lesson from its log, play the learner's move, the computer's answer, the next advice and the board."""
    from bot.cogs.learn import OPPONENT
    from games.coach import LEARNER, computers_move

    players, options, seed, log, _state, key = position
    state = engine.replay(players, options, seed, log)
    after, _ = engine.apply(state, LEARNER, key)
    log = [*log, (LEARNER, key)]
    after, _ = computers_move(engine, after, seed, log, OPPONENT)
    if engine.to_act(after):
        advise(engine, after, LEARNER)
    render.render_board(engine.slug, engine.view(after, None), NAMES[:players], None, None,
                        tuple(range(1, players)), locale=lang)


def hot_functions(fn: Callable[[], object], top: int = 4) -> str:
    """The games/ functions (coach, computer, rules) that took the most of ``fn``'s time, cumulative."""
    profile = cProfile.Profile()
    profile.enable()
    fn()
    profile.disable()
    stats = pstats.Stats(profile).stats
    total = max((ct for (_f, _l, _n), (_cc, _nc, _tt, ct, _callers) in stats.items()), default=1e-9)
    rows = []
    for (filename, _line, name), (_cc, _nc, _tt, cumulative, _callers) in stats.items():
        if "/games/" in filename and name not in ("advise", "<lambda>"):
            where = filename.split("/games/", 1)[1].removesuffix(".py").replace("/", ".")
            rows.append((cumulative, f"{where}.{name}"))
    rows.sort(reverse=True)
    return ", ".join(f"{name} {c / total:.0%}" for c, name in rows[:top])


POSITION_CACHES = {
    "geoneo": ("games.geoneo.ai:_clear_value",),
    "globe_twister": ("games.globe_twister.ai:program_for", "games.globe_twister.solver:_plan"),
}
"""Memo caches keyed by a position (a board's value, a turn's program): emptied at each lesson's start (and
before each timed step), so a fresh position costs what it costs a learner. Tables that fill once per process
and then serve every game (Geek Out's turn values and solvers, Globe Twister's action lists) stay warm, as in
a running bot."""


def position_caches(slug: str) -> list:
    out = []
    for where in POSITION_CACHES.get(slug, ()):
        module, name = where.split(":")
        out.append(getattr(importlib.import_module(module), name))
    return out


def emptied(caches: list) -> None:
    for c in caches:
        c.cache_clear()


def timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def bench_learn(engine: Engine, quick: bool) -> dict:
    """Advice and the computer's choice on every learner's position, walked lesson by lesson in the order a
    learner meets them, the position caches emptied at each lesson's start (so a turn's first click pays for
    its plan and the turn's later clicks find it, as in the bot); then whole steps, each from a state where
    only the position on screen was advised (the panel before the click)."""
    from bot.cogs.learn import OPPONENT
    from games.coach import LEARNER

    positions = lesson_positions(engine, 120 if quick else 400)
    caches = position_caches(engine.slug)
    coach, computer = [], []
    lesson = None
    for i, (_p, _o, seed, _log, state, _key) in enumerate(positions):
        if seed != lesson:
            emptied(caches)
            lesson = seed
        calls = [(coach, lambda state=state: advise(engine, state, LEARNER)),
                 (computer, lambda state=state, seed=seed, i=i: choose(engine, state, LEARNER, OPPONENT, (seed, i)))]
        for samples, fn in (calls if i % 2 == 0 else reversed(calls)):
            samples.append(timed(fn))
    slowest = max(range(len(positions)), key=lambda k: coach[k])
    state = positions[slowest][4]
    emptied(caches)
    hot = hot_functions(lambda: advise(engine, state, LEARNER))
    steps = []
    for position in positions[:: max(1, len(positions) // (30 if quick else 100))]:
        emptied(caches)
        advise(engine, position[4], LEARNER)  # the panel the learner clicked on
        steps.append(timed(lambda position=position: lesson_step(engine, position)))
    return {"coach": coach, "computer": computer,
            "slowest": (coach[slowest], state.get("phase", "?"), slowest, hot), "steps": steps}


# --- 3. the slash-command translator ---------------------------------------------------------------------------
def bench_translator(quick: bool) -> tuple[float, float, float]:
    """(localized payload, plain payload, first call with the imports) in seconds: medians of a few builds."""
    from bot import translator

    t0 = time.perf_counter()
    commands = translator.all_commands()
    first = time.perf_counter() - t0
    tree = translator._tree()
    catalog = translator.CatalogTranslator()

    async def localized():
        return [await c.get_translated_payload(tree, catalog) for c in commands]

    def plain():
        return [c.to_dict(tree) for c in commands]

    loop = asyncio.new_event_loop()
    try:
        payload = loop.run_until_complete(localized())
        assert any(p.get("name_localizations") for p in payload), "the translator localized nothing"
        times = interleaved({"localized": lambda: loop.run_until_complete(localized()), "plain": plain},
                            rounds=5 if quick else 20, per_round=3, warmup=1)
    finally:
        loop.close()
    return times["localized"], times["plain"], first


# --- the report -------------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.languages", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer boards and positions (a smoke run)")
    parser.add_argument("--game", help="one game's slug")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    engines = [e for e in games.all_engines() if args.game in (None, e.slug) and render.has_board(e.slug)]
    if not engines:
        print(f"no game {args.game!r}")
        return 1
    render.warm_up(tuple(e.slug for e in engines))
    for lang in LANGS:
        i18n.catalog(lang)
    started = time.perf_counter()
    figures: list[tuple[str, float, float, float, float | None]] = []
    print("Languages and lessons (issue 19): ratios against a baseline measured in the same run")
    print(f"{'figure':48} {'ratio':>7} {'target':>7}   (measured ms / baseline ms)")

    def line(name, value, base, target, ratio=None):
        """``ratio``: the median of paired ratios where measured so (else value / base, medians)."""
        ratio = value / base if ratio is None else ratio
        figures.append((name, ratio, value, base, target))
        shown = "-" if target is None else f"<={target:g}"
        over = target is not None and ratio > target
        print(f"{name:48} {ratio:7.2f} {shown:>7}   ({value * 1e3:.3f} / {base * 1e3:.3f})"
              + ("   ABOVE TARGET" if over else ""), flush=True)

    for engine in engines:
        for lang, (ratio, value, base) in bench_boards(engine, args.quick).items():
            line(f"{engine.slug}: board {lang} / en", value, base, BOARD_TARGET, ratio)
    for engine in engines:
        value, base = bench_words(engine, args.quick)
        line(f"{engine.slug}: a move's words in de / building them", value, base, None)
    localized, plain, first = bench_translator(args.quick)
    line("slash commands: localized payload / plain", localized, plain, None)
    print(f"  (once at start: {localized * 1e3:.1f} ms for every command in de, es-ES, es-419 and the other"
          f" locales Discord asks for; collecting the commands with their imports: {first * 1e3:.0f} ms)")
    print()
    print(f"/learn: the coach's advice / the computer's own choice ({'normal'}) on the learner's positions;"
          f" a whole step must stay under {STEP_BUDGET:g} s")
    over_budget = False
    learn: dict = {}
    for engine in engines:
        r = bench_learn(engine, args.quick)
        coach, computer, steps = r["coach"], r["computer"], r["steps"]
        worst, phase, at, hot = r["slowest"]
        line(f"{engine.slug}: advise / choose (medians)", statistics.median(coach), statistics.median(computer),
             None)
        flag = "" if max(coach) < STEP_BUDGET and max(steps) < STEP_BUDGET else "   ABOVE BUDGET"
        over_budget |= bool(flag)
        print(f"  advise  p50 {percentile(coach, .5) * 1e3:8.2f} ms  p99 {percentile(coach, .99) * 1e3:8.2f} ms"
              f"  max {worst * 1e3:8.1f} ms  ({len(coach)} positions)")
        print(f"  choose  p50 {percentile(computer, .5) * 1e3:8.2f} ms  p99 {percentile(computer, .99) * 1e3:8.2f}"
              f" ms  max {max(computer) * 1e3:8.1f} ms")
        print(f"  a whole step (replay, move, the computer's answer, advice, board in de): p50"
              f" {percentile(steps, .5) * 1e3:.1f} ms  max {max(steps) * 1e3:.1f} ms ({len(steps)} steps){flag}")
        print(f"  slowest advice: position {at} (phase {phase!r}): {hot}")
        learn[engine.slug] = {"advise_p50_ms": round(percentile(coach, .5) * 1e3, 2),
                              "advise_p99_ms": round(percentile(coach, .99) * 1e3, 2),
                              "advise_max_ms": round(worst * 1e3, 1),
                              "step_max_ms": round(max(steps) * 1e3, 1)}
    print(json.dumps({"ratios": {n: round(r, 3) for n, r, _v, _b, _t in figures}, "learn": learn}))
    print(f"languages and lessons: {time.perf_counter() - started:.0f} s")
    above = any(t is not None and r > t for _n, r, _v, _b, t in figures)
    return 1 if above or over_budget else 0


if __name__ == "__main__":
    sys.exit(main())
