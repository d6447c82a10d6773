"""bot/language.py: which language a message is in (the member's, or the server's)."""

from types import SimpleNamespace

import discord

from bot import language
from bot.database import open_store
from bot.store import GuildSettings
from bot.table.service import TableService


def test_a_member_reads_their_discord_language_and_anything_else_is_english():
    assert language.member_language(SimpleNamespace(locale=discord.Locale.german)) == "de"
    assert language.member_language(SimpleNamespace(locale=discord.Locale.latin_american_spanish)) == "es"
    assert language.member_language(SimpleNamespace(locale=discord.Locale.french)) == "en"
    assert language.member_language(SimpleNamespace()) == "en"


def test_the_servers_setting_comes_before_its_discord_language():
    assert language.choose(None, discord.Locale.spain_spanish) == "es"
    assert language.choose("de", discord.Locale.spain_spanish) == "de"
    assert language.choose("xx", "de") == "de"  # a stored value we do not speak: follow Discord
    assert language.choose(None, None) == "en"


async def test_server_language_reads_the_cached_setting_then_the_guilds_locale(database):
    service = TableService(await open_store(database))
    service.discord_locale = lambda guild_id: "es-ES" if guild_id == 5 else None
    assert await language.server_language(service, 5) == "es" == await service.language(5)
    assert await language.server_language(service, 6) == "en"
    assert await language.server_language(service, 6, "de") == "de"  # an interaction's guild_locale
    assert await language.server_language(service, SimpleNamespace(id=6, preferred_locale="de")) == "de"
    await service.save_settings(GuildSettings(5, language="de"))
    assert await language.server_language(service, 5) == "de" == await service.language(5)
    assert await language.server_language(service, None, "es-419") == "es"  # no server (a direct message)
    await service.store.close()
