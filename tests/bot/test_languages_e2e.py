"""Every player's language through the real discord.py client and the loopback Discord (issue 19).

What the channel sees (lobby, board, its image, pings, standings) follows the server: ``/mod language``, else
the server's Discord language (its preferred locale); what only one member sees (a refusal, a private panel,
a confirmation) follows that member's Discord client (``interaction.locale``), the games' own words (a move's
description, a button of the engine, a rule page) too.
"""

import io
import re

import pytest
from PIL import Image

import i18n
import render
from bot.computers import computer_seats
from bot.store import GuildSettings
from bot.table.words import board_view
from playground.fake_discord import DiscordError, snapshot
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY, MOD
from tests.bot.harness import BotRunner

DEE = 104
NAMES = ("Ana", "Bo", "Cy", "Dee", "Mo")
UTILITY = ("hand", "rules", "rematch", "pings.off")


# --- reading the loopback Discord, in any language ------------------------------------------------------------
def components(message):
    return sight.components(message)


key_of = sight.key_of  # a component's key, the same in every language


def table_of(message) -> int:
    return int(components(message)[0]["custom_id"].split(":")[1])


def boards(fake, channel=CHANNEL):
    return sight.boards(fake, channel)


def lobby(fake, channel=CHANNEL):
    return [m for m in fake.messages_in(channel) if any(key_of(c) == "join" for c in components(m))][-1]


def to_act(message) -> int | None:
    """Who is to act on a board: the mention on its first line ("To act: **Ana** (<@101>)", in any language)."""
    first = sight.description(message).splitlines()[0]
    found = re.findall(r"<@(\d+)>", first)
    return int(found[0]) if found else None


def standings(fake, channel=CHANNEL):
    found = [m for m in fake.messages_in(channel) if sight.content(m).startswith("🏆")]
    return sight.content(found[-1]) if found else None


async def click_key(fake, user, message, key):
    component = next(c for c in components(message) if c["type"] == 2 and key_of(c) == key)
    return await fake.click(user, message, custom_id=component["custom_id"])


async def move(fake, channel=CHANNEL, prefer=("p",)) -> int:
    """The player to act makes a move: a public one when the board offers it (``prefer``ed keys first), else
    from their panel ("My hand"). Returns who moved."""
    b = boards(fake, channel)[-1]
    who = to_act(b)
    menus = [c for c in components(b) if c["type"] == 3]
    public = [c for c in components(b) if c["type"] == 2 and key_of(c) not in UTILITY
              and not key_of(c).startswith("overlay.")]
    if menus:
        await fake.select(who, b, menus[0]["options"][0]["value"])
    elif public:
        chosen = next((c for k in prefer for c in public if key_of(c) == k), public[0])
        await fake.click(who, b, custom_id=chosen["custom_id"])
    else:
        await click_key(fake, who, b, "hand")
        panel = fake.ephemerals(who)[-1]
        first = components(panel)[0]
        if first["type"] == 3:
            await fake.select(who, panel, first["options"][0]["value"])
        else:
            await fake.click(who, panel, custom_id=first["custom_id"])
    return who


async def play_to_the_end(fake, channel=CHANNEL, limit=800, prefer=("p",)):
    for _ in range(limit):
        if standings(fake, channel):
            return
        await move(fake, channel, prefer)
    raise AssertionError("the game did not end")


async def open_table(fake, game, players, channel=CHANNEL, **options):
    await fake.slash(players[0], channel, "play", game, **options)
    lob = lobby(fake, channel)
    for p in players[1:]:
        await click_key(fake, p, lobby(fake, channel), "join")
    return lob


def png_of(fake, message) -> bytes:
    return fake.files[int(message["attachments"][0]["id"])]


async def drawn_in(runner, table_id: int, lang: str) -> bytes:
    """The table's public board as the renderer draws it in ``lang`` (in this process)."""
    table = await runner.bot.service.get(table_id)
    return render.render_board(table.row.game, board_view(table.engine, table.state), table.names,
                               table.last_move(lang), table.focus(), tuple(computer_seats(table.players)),
                               locale=lang)


@pytest.fixture
async def german(fake, database):
    """A bot in a server whose Discord language is German (GUILD_CREATE says so), its members too."""
    fake.guild_locales[fake.guild_id] = "de"
    for user in (ANA, BO, CY):
        fake.locales[user] = "de"
    r = BotRunner(fake, database)
    await r.start()
    yield r
    await r.stop()


# --- a German server ---------------------------------------------------------------------------------------------
async def test_a_german_server_plays_geek_out_from_play_to_standings(fake, german):
    it = await fake.slash(ANA, CHANNEL, "play", "geek-out", turns=1)
    assert sight.content(fake.replies_to(it)[0]) == ("Hier ist jetzt ein Tisch für Geek Out! Masters offen; die Lobby "
                                                 "steht unten.")
    lob = lobby(fake)
    assert sight.title(lob) == "Geek Out! Masters · Lobby"
    assert [c["label"] for c in components(lob) if c["type"] == 2] == [
        "Starten", "Beitreten", "Verlassen", "Regeln", "Computer übernimmt freie Plätze: an"]  # Start first: it may
    assert [c["placeholder"] for c in components(lob) if c["type"] == 3] == ["Computer hinzufügen (Spielstärke wählen)",
                                                                          "Tempo des Spiels"]
    assert "Ana hat den Tisch eröffnet." in sight.description(lob)
    assert sight.footer(lob).startswith("Tisch ")
    await click_key(fake, BO, lob, "join")
    assert "Bo ist beigetreten." in sight.description(lobby(fake))
    await click_key(fake, BO, lob, "join")
    assert sight.content(fake.ephemerals(BO)[-1]) == "Du sitzt schon an diesem Tisch."
    await click_key(fake, ANA, lob, "start")

    b = boards(fake)[-1]
    assert sight.title(b) == f"Geek Out! Masters · Tisch {table_of(b)} · Zug 1 von 1 je Person"  # turns=1
    assert sight.description(b).startswith("Am Zug: **")
    assert "Letzter Zug: Das Spiel beginnt." in sight.description(b)
    assert [c["label"] for c in components(b) if key_of(c) == "rules"] == ["Regeln"]
    first, other = to_act(b), ({ANA, BO} - {to_act(b)}).pop()
    wanted = next(c for c in components(b) if key_of(c) not in UTILITY)
    await fake.click(other, b, custom_id=wanted["custom_id"])
    assert sight.content(fake.ephemerals(other)[-1]) == f"Du bist nicht dran: Wir warten auf {NAMES[first - ANA]}."

    await play_to_the_end(fake)
    final = boards(fake)[-1]
    sheet = standings(fake)
    assert sheet.startswith("🏆 **Geek Out! Masters: Endstand**")
    assert re.search(r"\n1\. \*\*.*: \d+ Punkte?\n", sheet), sheet
    assert "**Spielende.**" in sight.description(final)
    assert [c["label"] for c in components(final)] == ["Revanche"]
    # the image: what the renderer draws in German from the final table, byte for byte
    assert png_of(fake, final) == await drawn_in(german, table_of(final), "de")
    assert png_of(fake, final) != await drawn_in(german, table_of(final), "en")
    assert not fake.rejections


async def test_a_german_game_ended_by_a_departure_says_so_on_its_board_in_german(fake, german):
    await open_table(fake, "geek-out", (ANA, BO))
    lob = lobby(fake)
    await click_key(fake, ANA, lob, "takeover.off")
    await click_key(fake, ANA, lobby(fake), "start")
    await fake.slash(BO, CHANNEL, "game", "leave")
    assert sight.content(fake.ephemerals(BO)[-1]) == "Du hast das Spiel verlassen."
    final = boards(fake)[-1]
    assert "Das Spiel endete vorzeitig: Bo ist gegangen." in sight.description(final)
    image = png_of(fake, final)
    assert image == await drawn_in(german, table_of(final), "de")
    # the board's top bar ("Vorzeitig beendet: Bo ist gegangen", "Spielende") is the game flow's: not English
    assert image != await drawn_in(german, table_of(final), "en")
    Image.open(io.BytesIO(image)).verify()


# --- a Spanish server, private panels ----------------------------------------------------------------------------
async def test_a_spanish_server_plays_geoneo_with_panels_in_spanish(fake, runner):
    await fake.set_guild_locale("es-ES")  # a GUILD_UPDATE: the server's language changed while the bot ran
    fake.locales.update({ANA: "es-ES", BO: "es-419"})
    lob = await open_table(fake, "geoneo", (ANA, BO))
    assert sight.title(lobby(fake)) == "GEONEO · sala"
    await click_key(fake, ANA, lob, "start")
    panels_seen = 0
    for _ in range(800):
        if standings(fake):
            break
        b = boards(fake)[-1]
        assert sight.description(b).startswith("Turno de **")
        who = await move(fake)
        mine = fake.ephemerals(who)
        if mine and mine[-1]["attachments"]:  # a private panel (hand): the player's language
            assert sight.content(mine[-1]).startswith("Tu mano (solo tú lo ves; se mantiene al día mientras juegues "
                                               "desde aquí).")
            panels_seen += 1
    else:
        raise AssertionError("the game did not end")
    assert panels_seen
    assert standings(fake).startswith("🏆 **GEONEO: clasificación final**")
    final = boards(fake)[-1]
    assert png_of(fake, final) == await drawn_in(runner, table_of(final), "es")
    assert not fake.rejections


# --- one table, several languages --------------------------------------------------------------------------------
async def test_a_mixed_table_each_member_reads_their_own_language_and_the_channel_german(fake, runner):
    fake.add_user(DEE, "Dee")
    await fake.set_guild_locale("de")
    fake.locales.update({ANA: "en-US", BO: "de", CY: "es-ES"})
    lob = await open_table(fake, "geoneo", (ANA, BO, CY))
    assert [c["label"] for c in components(lobby(fake)) if key_of(c) == "join"] == ["Beitreten"]
    screen = snapshot(lob)  # the lobby as their screens still show it
    await click_key(fake, ANA, lob, "start")
    for who in (ANA, BO, CY):  # a refusal each: the game has begun
        await click_key(fake, who, screen, "start")
    assert [sight.content(fake.ephemerals(u)[-1]) for u in (ANA, BO, CY)] == [
        "This game has already started.", "Dieses Spiel hat schon begonnen.", "Esta partida ya ha empezado."]
    b = boards(fake)[-1]
    assert sight.description(b).startswith("Am Zug: **")
    first = to_act(b)
    for who in (ANA, BO, CY):  # each opens their hand
        await click_key(fake, who, boards(fake)[-1], "hand")
    opening = {ANA: "Your hand (only you can see this", BO: "Deine Karten (nur du siehst das",
               CY: "Tu mano (solo tú lo ves"}
    waiting = {ANA: "It is not your turn: waiting for ", BO: "Du bist nicht dran: Wir warten auf ",
               CY: "No es tu turno: esperando a "}
    for who in (ANA, BO, CY):
        panel = fake.ephemerals(who)[-1]
        assert sight.content(panel).startswith(opening[who]), sight.content(panel)
        if who != first:
            assert waiting[who] in sight.content(panel)
    # a stranger's click is refused in the stranger's language; the table is unchanged
    fake.locales[DEE] = "es-419"
    await click_key(fake, DEE, boards(fake)[-1], "hand")
    assert sight.content(fake.ephemerals(DEE)[-1]) == "No juegas en esta mesa."
    # a move: the panels the bot keeps up to date stay in their players' languages, the board in German
    await move(fake)
    for who in (ANA, BO, CY):
        panels = [m for m in fake.ephemerals(who) if m["attachments"]]
        assert sight.content(panels[-1]).startswith(opening[who]), sight.content(panels[-1])
    assert sight.description(boards(fake)[-1]).startswith("Am Zug: **")
    assert not fake.rejections


async def test_a_panel_keeps_its_players_language_across_a_restart(fake, runner):
    await fake.set_guild_locale("de")
    fake.locales.update({ANA: "en-US", BO: "de", CY: "es-ES"})
    lob = await open_table(fake, "geoneo", (ANA, BO, CY))
    await click_key(fake, ANA, lob, "start")
    for who in (ANA, BO, CY):
        await click_key(fake, who, boards(fake)[-1], "hand")
    panels = {who: [m for m in fake.ephemerals(who) if m["attachments"]][-1]["id"] for who in (ANA, BO, CY)}
    await runner.restart()  # the panels are read back from the store, each with its language
    await fake.slash(MOD, CHANNEL, "mod", "end", reason="Feierabend")
    assert [sight.content(fake.messages[int(panels[who])]) for who in (ANA, BO, CY)] == [
        "This game is over.", "Dieses Spiel ist vorbei.", "Esta partida ha terminado."]
    assert "Das Spiel wurde beendet: Feierabend" in sight.content(fake.messages_in(CHANNEL)[-1])
    assert not fake.rejections


# --- /mod language -----------------------------------------------------------------------------------------------
async def test_mod_language_switches_the_public_language_and_bad_input_changes_nothing(fake, runner):
    fake.locales[MOD] = "en-GB"
    await fake.slash(MOD, CHANNEL, "mod", "language")
    assert sight.content(fake.ephemerals(MOD)[-1]).startswith(
        "Game messages and boards in this server follow its Discord language: English.")
    await fake.slash(MOD, CHANNEL, "mod", "language", language="es")
    assert sight.content(fake.ephemerals(MOD)[-1]) == "Game messages and boards in this server are now in Español."
    assert (await runner.bot.store.guild_settings(fake.guild_id)).language == "es"
    await open_table(fake, "geek-out", (ANA, BO))
    assert sight.title(lobby(fake)) == "Geek Out! Masters · sala"
    assert sight.content(fake.ephemerals(ANA)[-1]).startswith("Opened a Geek Out! Masters table here")  # Ana: en-US
    it = await fake.slash(ANA, CHANNEL, "leaderboard", game="geek_out")  # a public answer: the server's language
    assert sight.content(fake.replies_to(it)[-1]).startswith("Nadie tiene aún puntuación en Geek Out! Masters")
    # bad input: a member without Manage Server, a language Discord does not offer; nothing changes
    await fake.slash(BO, CHANNEL, "mod", "language", language="de")
    assert sight.content(fake.ephemerals(BO)[-1]) == "You need the Manage Server permission to do that."
    with pytest.raises(DiscordError):
        await fake.slash(MOD, CHANNEL, "mod", "language", language="fr")
    assert (await runner.bot.store.guild_settings(fake.guild_id)).language == "es"
    await fake.slash(MOD, CHANNEL, "mod", "language")
    assert sight.content(fake.ephemerals(MOD)[-1]).startswith("Game messages and boards in this server are in Español")
    # following the server's Discord language again, which a moderator of the server then changes to German
    await fake.slash(MOD, CHANNEL, "mod", "end", reason="test")
    await fake.slash(MOD, CHANNEL, "mod", "language", language="server")
    assert sight.content(fake.ephemerals(MOD)[-1]) == ("Game messages and boards in this server now follow its Discord "
                                                   "language: English.")
    assert (await runner.bot.store.guild_settings(fake.guild_id)).language is None
    await fake.set_guild_locale("de")
    await open_table(fake, "geek-out", (ANA, BO))
    assert sight.title(lobby(fake)) == "Geek Out! Masters · Lobby"
    assert [c["label"] for c in components(lobby(fake)) if key_of(c) == "start"] == ["Starten"]


async def test_the_language_setting_is_stored_by_both_backends(fake, runner):
    store = runner.bot.store
    await store.save_guild_settings(GuildSettings(77, language="de", retention_days=3))
    assert (await store.guild_settings(77)).language == "de"
    await store.save_guild_settings(GuildSettings(77))
    assert (await store.guild_settings(77)).language is None


# --- the leak check: a member who reads the pseudo-language --------------------------------------------------------
PLAIN_WORD = re.compile(r"(?<![\w<@#/.:-])[A-Za-z]{2,}(?![\w>])")
"""A word of plain ASCII letters: in the pseudo-language every translated word has an accent."""


def untranslated(text: str, allowed: set[str]) -> list[str]:
    text = re.sub(r"https?://\S+|<[@#t][^>]*>", " ", text)  # links and mentions
    # a word the pseudo-language cannot mark ("pts": none of its letters takes an accent) is no evidence
    return [w for w in PLAIN_WORD.findall(text) if w not in allowed and i18n.pseudo(w) != w]


async def test_a_member_reading_the_pseudo_language_sees_no_unmarked_word_in_a_whole_game(fake, runner):
    pseudo = i18n.install_pseudo()
    shown = []  # every version of every ephemeral message Ana's client showed (a panel is edited all game long)
    fake.observers.append(lambda event, message: shown.append(snapshot(message))
                          if event == "message" and fake.ephemeral_of.get(int(message["id"])) == ANA else None)
    try:
        fake.locales[ANA] = pseudo
        lob = await open_table(fake, "geoneo", (ANA, BO))
        await click_key(fake, ANA, lob, "join")  # a refusal: already seated
        await click_key(fake, ANA, lob, "start")
        await click_key(fake, ANA, boards(fake)[-1], "rules")
        await fake.slash(ANA, CHANNEL, "game", "pings", enabled="on")
        await play_to_the_end(fake)
        await fake.slash(ANA, CHANNEL, "game", "status")
        allowed = set(NAMES) | {"GEONEO", "Discord"}
        leaks = []
        for message in shown:
            for text in sight.texts(message):  # its words, a rule page's, its buttons' and menus'
                leaks += untranslated(text, allowed)
        panels = [m for m in shown if m["attachments"] and m["attachments"][0]["filename"].startswith("panel")]
        assert len(panels) > 5 and all(sight.content(m).startswith(i18n.pseudo("Your hand")) for m in panels)
        assert any(a["filename"].startswith("rules-") for m in shown for a in m["attachments"])  # the Rules button's page was read too
        assert not leaks, sorted(set(leaks))
    finally:
        i18n.remove_language(pseudo)
