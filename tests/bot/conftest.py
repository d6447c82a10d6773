import pytest

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


@pytest.fixture
async def runner(fake, tmp_path):
    r = BotRunner(fake, str(tmp_path / "geotable.db"))
    await r.start()
    yield r
    await r.stop()
