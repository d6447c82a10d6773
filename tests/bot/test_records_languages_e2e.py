"""/privacy, /history, /leaderboard, /stats, /replay and /mod's answers in the member's or the server's
language (issue 19): what only the member sees follows their Discord language, what the channel sees the
server's; the pseudo-language shows every word of them went through the catalogs."""

import random
import re

import pytest

import i18n
from bot.store import FORMER_PLAYER
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, MOD
from tests.bot.harness import BotRunner
from tests.bot.test_computers_e2e import ana_moves_when_her_turn_comes
from tests.bot.test_geodeto_e2e import over
from tests.bot.test_privacy_e2e import ephemeral_message, play_to_the_end

PLAIN_WORD = re.compile(r"(?<![\w/#@<:.-])[A-Za-z]*[aeiouncyAEIOUNCY][A-Za-z]*(?![\w>])")


def leaks(text: str, allowed: set[str]) -> list[str]:
    """Words of plain ASCII letters in a pseudo-language message: never marked (names and ids aside)."""
    text = re.sub(r"<[#@t][^>]*>|https?://\S+", " ", text)
    return [w for w in PLAIN_WORD.findall(text) if w not in allowed and len(w) > 1]


@pytest.fixture
async def bot(fake, tmp_path):
    runner = BotRunner(fake, str(tmp_path / "geotable.db"))
    await runner.start()
    yield runner
    await runner.stop()


async def test_privacy_speaks_the_members_language(fake, bot):
    fake.locales[ANA] = "de"
    await fake.slash(ANA, CHANNEL, "privacy", "show")
    listing = ephemeral_message(fake, ANA)
    assert sight.title(listing) == "Was Geotable auf diesem Server über dich speichert", listing
    assert "**Wertungen hier:** keine." in sight.content(listing)
    assert "`/datenschutz löschen` löscht deine Einstellungen" in sight.content(listing)
    await fake.click(ANA, listing, "Meine Daten löschen…")
    confirm = ephemeral_message(fake, ANA)
    assert sight.content(confirm).startswith("Deine Daten löschen? Das löscht deine Einstellungen"), confirm
    await fake.click(ANA, confirm, "Behalten")
    assert sight.content(ephemeral_message(fake, ANA)) == "Es wurde nichts gelöscht."

    fake.locales[BO] = "es-419"
    await fake.slash(BO, CHANNEL, "history")
    assert sight.content(ephemeral_message(fake, BO)) == "Aún no ha terminado ninguna partida en este canal."
    await fake.slash(BO, CHANNEL, "replay", id="abc")
    assert sight.content(ephemeral_message(fake, BO)) == "Los id de partida son números, p. ej. #12 (mira /historial)."


async def test_public_answers_speak_the_servers_language(fake, bot):
    fake.guild_locales[fake.guild_id] = "de"
    it = await fake.slash(ANA, CHANNEL, "leaderboard", game="geoneo")
    [answer] = fake.replies_to(it)
    assert sight.content(answer) == ("In GEONEO ist auf diesem Server noch niemand gewertet: Ein Spiel zwischen zwei "
                                 "oder mehr Personen ohne Computer wertet seine Spieler, wenn es endet.")
    it = await fake.slash(ANA, CHANNEL, "stats", member=BO)
    [answer] = fake.replies_to(it)
    assert sight.content(answer) == "Bo hat auf diesem Server noch kein Spiel beendet."


async def test_no_word_of_these_answers_escapes_translation(fake, bot):
    qps = i18n.install_pseudo()
    try:
        for user in (ANA, BO, MOD):
            fake.locales[user] = qps
        fake.guild_locales[fake.guild_id] = qps
        table = await play_to_the_end(fake)
        said = []
        for command, path, options in (("privacy", ("show",), {}), ("history", (), {}),
                                       ("history", (), {"scope": "server"}), ("stats", (), {}),
                                       ("replay", (), {"id": "abc"}), ("replay", (), {"id": "999"}),
                                       ("replay", (), {"id": str(table)}),
                                       ("leaderboard", (), {"game": "geek_out"})):
            it = await fake.slash(ANA, CHANNEL, command, *path, **options)
            said += [sight.content(m) for m in fake.replies_to(it)]
            said += [d for m in fake.replies_to(it) for _t, d, _f in sight.pages(m)]  # /history's lines
            said += [w for m in fake.replies_to(it) for w in sight.image_words(m)]  # what a screen reader says
        for options in ({"seconds": 45}, {}):
            it = await fake.slash(MOD, CHANNEL, "mod", "timeout", **options)
            said += [sight.content(m) for m in fake.replies_to(it)]
        for options in ({"days": 3}, {}, {"days": 0}):
            it = await fake.slash(MOD, CHANNEL, "mod", "retention", **options)
            said += [sight.content(m) for m in fake.replies_to(it)]
        it = await fake.slash(MOD, CHANNEL, "mod", "channels", action="allow")
        said += [sight.content(m) for m in fake.replies_to(it)]
        allowed = {"Ana", "Bo", "Geek", "Out", "Masters", "Geotable", "UTC", *FORMER_PLAYER.split()}  # names
        found = {text: leaks(text, allowed) for text in said}
        assert len(said) >= 14 and all(said)
        assert not {t: w for t, w in found.items() if w}
    finally:
        i18n.remove_language(qps)


async def test_history_names_computers_in_the_members_language(fake, tmp_path):
    """A finished game against a computer: /history said "Ana, Computer (normal); ganada por ..." in Spanish."""
    runner = BotRunner(fake, str(tmp_path / "geotable.db"), computer_pause=0.01)
    await runner.start()
    try:
        await fake.slash(ANA, CHANNEL, "play", "geek-out", turns=1, computers=1)
        await fake.click(ANA, fake.messages_in(CHANNEL)[-1], "Start")
        rng = random.Random(7)
        while not over(fake):
            await ana_moves_when_her_turn_comes(fake, rng)
        fake.locales[BO] = "es-ES"
        await fake.slash(BO, CHANNEL, "history")
        line = sight.description(ephemeral_message(fake, BO)).splitlines()[0]
        assert "Ordenador (normal)" in line and "Computer" not in line, line
    finally:
        await runner.stop()
