"""Every season rating /leaderboard season: shows equals OpenSkill recomputed independently: from the stored
results the season counted (``results.season_id``, in the order they finished), with the ranking each result's
standings hold and the ``openskill`` library alone (no code of the bot's), everyone from a fresh start. A game
counts for the season its last move is made in (docs/rules/ratings.md 12): one started before the season and
ended in it does, one started in it and ended after its end does not, nor one before it."""

from __future__ import annotations

import json
import re

from openskill.models import PlackettLuce

from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY, MOD
from tests.bot.test_geek_out_e2e import start_game
from tests.bot.test_records_e2e import play_to_the_end, reply

MODEL = PlackettLuce()
PEOPLE = {"Ana": ANA, "Bo": BO, "Cy": CY}


def shown_by_openskill(results: list[dict]) -> dict[str, tuple[int, int]]:
    """Name -> (the rating shown, 1000 + 40 (mu - 3 sigma) rounded; rated games), from ``results`` in order."""
    skill: dict[int, object] = {}
    games: dict[int, int] = {}
    names: dict[int, str] = {}
    for r in results:
        standings = r["standings"] if isinstance(r["standings"], dict) else json.loads(r["standings"])
        players = standings["players"]
        groups = standings["ranking"]  # seats, best first; a group shares its place
        seats = [seat for group in groups for seat in group]
        ranks = [float(k) for k, group in enumerate(groups) for _seat in group]
        ids = [players[seat]["id"] for seat in seats]
        for seat, who in zip(seats, ids, strict=True):
            names[who] = players[seat]["name"]
        rated = MODEL.rate([[skill.get(who) or MODEL.rating()] for who in ids], ranks=ranks)
        for who, [after] in zip(ids, rated, strict=True):
            skill[who] = after
            games[who] = games.get(who, 0) + 1
    return {names[who]: (round(1000 + 40 * (s.mu - 3 * s.sigma)), games[who]) for who, s in skill.items()}


async def test_the_season_ratings_shown_equal_openskill_recomputed_from_its_results(fake, runner):
    store = runner.bot.store
    await start_game(fake)  # before the season: all-time only
    await play_to_the_end(fake, {"Ana": ANA, "Bo": BO})
    await start_game(fake)  # started before the season, ended in it: the season's (its last move counts)
    await fake.slash(MOD, CHANNEL, "mod", "season", "start", name="Spring", weeks=1)
    for k, players in enumerate(((ANA, BO), (BO, CY), (ANA, BO, CY), (CY, ANA))):
        if k:
            await start_game(fake, players=players)
        seated = {n: i for n, i in PEOPLE.items() if i in players}
        await play_to_the_end(fake, seated, keen=[n for n in ("Ana", "Cy") if n in seated])
    season = await store.season_named(fake.guild_id, "Spring")
    results = await store.season_games(season.id)
    assert season.games == len(results) == 4
    expected = shown_by_openskill(results)
    for asker in (ANA, BO, CY):
        it = await fake.slash(asker, CHANNEL, "leaderboard", game="geek_out", season="Spring")
        [words] = sight.image_words(reply(fake, it))
        shown = {name: int(rating) for name, rating in re.findall(r"\d+\. (\w+) (\d+)", words)}
        assert shown == {name: rating for name, (rating, _n) in expected.items()}, (words, expected)
    board = await store.season_board(season.id, "geek_out", 10)
    assert {r.name: (r.rating, r.games) for r in board.rows} == expected
    await start_game(fake)  # started in the season, ended after its end: all-time only
    await fake.slash(MOD, CHANNEL, "mod", "season", "end")
    await play_to_the_end(fake, {"Ana": ANA, "Bo": BO})
    assert len(await store.results(fake.guild_id)) == 6  # six games ended here, four of them the season's
    assert len(await store.season_games(season.id)) == 4
    [podium] = await store.podiums(fake.guild_id, season_id=season.id)
    ordered = sorted(expected.items(), key=lambda item: -item[1][0])
    assert [(name, rating) for _place, _user, name, rating, _games in podium.rows] == [
        (name, rating) for name, (rating, _n) in ordered]
    assert not fake.rejections
