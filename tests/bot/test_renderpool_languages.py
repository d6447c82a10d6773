"""Words travel to the render workers as ``Text`` (not as their English), so a worker says them in the language
asked: a board's names and last move are drawn in the server's language (issue 19)."""

import i18n
from bot.workers.renderpool import RenderPool
from games.ai import computer_name, stand_in_name


async def test_a_text_reaches_a_worker_as_text_and_is_said_there_in_the_language_asked():
    pool = RenderPool(1)
    try:
        name = computer_name("strong", 2)
        said = await pool.run(i18n.localize, [name, stand_in_name("Dee"), "Ana"], "de")
        assert said == ["Computer 2 (stark)", "Computer für Dee", "Ana"]
        assert await pool.run(i18n.localize, i18n._("Closed"), "es") == "Cerrada"
        assert await pool.run(i18n.localize, name, "en") == "Computer 2 (strong)"
    finally:
        for worker in pool._workers:
            worker.close()
