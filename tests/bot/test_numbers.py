"""Numbers in the reader's language (issue 24, item 2): a score of 61.5 reads "61,5" in German and Spanish in
the final standings, the replay's final scores, /stats and a lesson's outcome, as the boards already wrote it."""

import pytest

import i18n
from bot import replay
from bot.cogs import learn, records
from bot.store import GameStats, TableRow
from bot.table.model import Table
from bot.ui import final
from games import get_engine
from games.core import Result

ANA = {"id": 101, "name": "Ana"}
BO = {"id": 102, "name": "Bo"}
HALF = Result(scores=(61.5, 40), ranking=((0,), (1,)))


def geoneo_table() -> Table:
    engine = get_engine("geoneo")
    state = engine.new(2, {}, 3)
    row = TableRow(id=1, guild_id=500, channel_id=600, game="geoneo", options={}, seed=3, status="finished",
                   players=[ANA, BO], host_id=ANA["id"], state=engine.encode(state), version=5, message_id=None,
                   last_move=None, end_reason=None, created_at=0.0, updated_at=0.0)
    return Table(row, engine, state)


@pytest.mark.parametrize("lang,points", [("en", "61.5 points"), ("de", "61,5 Punkte"), ("es", "61,5 puntos")])
def test_the_standings_write_a_half_point_the_readers_way(lang, points):
    text = final.standings(geoneo_table(), HALF, lang)
    assert points in text, text


@pytest.mark.parametrize("lang,said", [("en", "Ana 61.5, Bo 40"), ("de", "Ana 61,5, Bo 40"), ("es", "Ana 61,5, Bo 40")])
def test_the_replay_s_final_scores_write_a_half_point_the_readers_way(lang, said):
    assert said in replay.final_scores(["Ana", "Bo"], HALF, lang)


@pytest.mark.parametrize("lang,said", [("en", "61.5"), ("de", "61,5"), ("es", "61,5")])
def test_stats_and_a_lesson_write_a_half_point_the_readers_way(lang, said):
    stats = GameStats(game="geoneo", games=0, wins=0, unrated=1, rating=None, best_score=61.5, trend=[])
    assert said in i18n.localize(records.stats_line(stats), lang)
    lesson = i18n.localize(learn.outcome(Result(scores=(61.5, 40.0), ranking=((0,), (1,))), 2), lang)
    assert said in lesson and " 40" in lesson and "40.0" not in lesson and "40,0" not in lesson, lesson


@pytest.mark.parametrize("lang,said", [("en", "3,650 days"), ("de", "3.650 Tage")])
def test_a_big_count_is_grouped_the_readers_way(lang, said):
    from bot.cogs.admin import retention_set_sentence, retention_shown_sentence

    for sentence in (retention_shown_sentence(3650), retention_set_sentence(3650)):
        assert said in i18n.localize(sentence, lang)
