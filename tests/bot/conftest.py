import pytest

from bot.store import is_postgres_url
from playground.fake_discord import FakeDiscord
from tests.bot.harness import BotRunner

ANA, BO, CY, MOD = 101, 102, 103, 199
CHANNEL = 600


@pytest.fixture
async def fake():
    f = FakeDiscord()
    await f.start()
    f.add_user(ANA, "Ana")
    f.add_user(BO, "Bo")
    f.add_user(CY, "Cy")
    f.add_user(MOD, "Mo", moderator=True)
    yield f
    await f.stop()
    f.assert_spec_kept()


@pytest.fixture
async def runner(fake, database):
    """The bot on a fresh database of each backend (``database``: SQLite, then PostgreSQL)."""
    r = BotRunner(fake, database)
    await r.start()
    assert r.bot.store.dialect == ("postgres" if is_postgres_url(database) else "sqlite")
    yield r
    await r.stop()
