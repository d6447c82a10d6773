"""A first hello (issue 19): when the bot joins a server it posts one short message in the server's system
channel, in the server's language, if it may post there; never again when the server comes back at a start;
/help says the same at any time, to the asker only, in their language."""

from tests.bot import sight
from tests.bot.conftest import ANA
from tests.bot.harness import BotRunner

QUIET, DENIED, GERMAN, SPANISH = 3 << 22, 4 << 22, 5 << 22, 6 << 22


async def test_a_new_server_is_greeted_once_in_its_language(fake, tmp_path):
    runner = BotRunner(fake, str(tmp_path / "geotable.db"))
    bot = await runner.start()
    try:
        before = len(fake.messages)
        await fake.join(QUIET, (610,))  # no system channel: nothing
        await fake.join(DENIED, (620, 621), system_channel=620, may_send=False)  # may not post there: nothing
        await fake.join(GERMAN, (630, 631), system_channel=631, locale="de")
        await fake.join(SPANISH, (640,), system_channel=640, locale="es-419")
        await fake.wait_until(lambda: all(bot.get_guild(g) for g in (QUIET, DENIED, GERMAN, SPANISH)),
                              what="the bot to know the new servers")
        await fake.settle()
        assert len(fake.messages) == before + 2
        assert not fake.messages_in(610) and not fake.messages_in(620) and not fake.messages_in(630)
        [hallo] = fake.messages_in(631)
        assert sight.content(hallo).startswith("Hallo! Ich bin Geotable")
        assert "`/spielen`" in sight.content(hallo) and "`/regeln`" in sight.content(hallo)
        [hola] = fake.messages_in(640)
        assert sight.content(hola).startswith("¡Hola! Soy Geotable") and "`/jugar`" in sight.content(hola)
        assert not fake.rejections

        # a start: the servers come back (READY lists them, GUILD_CREATE says "unavailable": false): no hello
        bot = await runner.restart()
        await fake.wait_until(lambda: bot.get_guild(GERMAN) is not None, what="the German server back")
        await fake.settle()
        assert len(fake.messages) == before + 2
        assert fake.messages_in(631) == [hallo]
    finally:
        await runner.stop()


async def test_help_says_the_same_to_the_asker_in_their_language(fake, tmp_path):
    fake.locales[ANA] = "de"
    runner = BotRunner(fake, str(tmp_path / "geotable.db"))
    await runner.start()
    try:
        it = await fake.slash(ANA, 600, "help")
        [answer] = fake.replies_to(it)
        assert fake.ephemeral_of[int(answer["id"])] == ANA
        assert sight.is_v2(answer) and sight.title(answer) == "Geotable"  # a screen of the house
        said = sight.description(answer)
        assert said.startswith("Hallo! Ich bin Geotable") and "`/hilfe`" in said, said
        assert not fake.messages_in(600)
    finally:
        await runner.stop()
