"""A tournament on a German server (issue 28 item 4): the tournament message, the round posts, the threads and
their pings, the standings and the podium in German; each member's own answers in their Discord's language (a
Spanish member, a German one, an English moderator); no English word in what the channel sees."""

from __future__ import annotations

import re

from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, MOD
from tests.bot.test_tournament_e2e import last_ephemeral, play_out

LUCIA, JOERG = 120, 121
ENGLISH = re.compile(r"\b(round|rounds|table|tables|tournament|pts?|won|signed|players?|wins|is over|Join|Leave|"
                     r"Cancel|Standings|each in its own thread|at the latest)\b")


def tournament_message(fake) -> dict:
    return next(m for m in fake.messages_in(CHANNEL) if sight.content(m).startswith("## Geek Out! Masters-Turnier #1\n"))


def round_threads(fake, number: int) -> list[int]:
    return [int(t["id"]) for t in fake.threads_of(CHANNEL) if f"Runde {number} ·" in t["name"]]


async def wait_round(fake, number: int) -> list[int]:
    await fake.wait_until(lambda: len(round_threads(fake, number)) == 2
                          and all(sight.boards(fake, t) for t in round_threads(fake, number)),
                          what=f"Runde {number}")
    await fake.settle()
    return round_threads(fake, number)


def german(text: str) -> str:
    assert not ENGLISH.search(text), (ENGLISH.search(text), text)
    return text


async def test_a_tournament_on_a_german_server_with_a_spanish_member(fake, runner):
    fake.add_user(LUCIA, "Lucía", locale="es-ES")
    fake.add_user(JOERG, "Jörg", locale="de")
    await fake.slash(MOD, CHANNEL, "mod", "language", language="de")
    await fake.slash(MOD, CHANNEL, "tournament", "create", "geek-out", rounds=2, turns=1, signup_hours=24)
    assert last_ephemeral(fake, MOD) == "The sign-up of Geek Out! Masters tournament #1 is open below."
    text = german(sight.content(tournament_message(fake)))
    assert "Schweizer System, 2 Runden · Duelle · live" in text and "Drück auf **Mitmachen**, um teilzunehmen. Die Anmeldung schließt und Runde 1 beginnt <t:" in text, text
    assert "Es werden mindestens 4 Spieler gebraucht." in text and "**0 Spieler angemeldet**" in text, text
    assert sight.labels(tournament_message(fake)) == ["Mitmachen", "Abmelden", "Start", "Abbrechen"]
    said = {}
    for user in (LUCIA, JOERG, ANA, BO):
        await fake.click(user, tournament_message(fake), "Mitmachen")
        said[user] = last_ephemeral(fake, user)
    assert said == {LUCIA: "Estás dentro. ¡Suerte!", JOERG: "Du bist dabei. Viel Glück!",
                    ANA: "You are in. Good luck!", BO: "You are in. Good luck!"}
    await fake.click(LUCIA, tournament_message(fake), "Mitmachen")
    assert last_ephemeral(fake, LUCIA) == "Ya estás inscrito en este torneo."
    await fake.click(JOERG, tournament_message(fake), "Start")
    assert last_ephemeral(fake, JOERG) == "Das kann nur ein Moderator (Server verwalten oder die Turnierrolle)."
    await fake.click(MOD, tournament_message(fake), "Start")
    for number in (1, 2):
        threads = await wait_round(fake, number)
        post = next(m for m in fake.messages_in(CHANNEL) if f"Runde {number} von 2\n" in sight.content(m) + "\n")
        text = german(sight.content(post))
        assert "2 Tische, jeder in einem eigenen Thread:" in text and "Die Runde endet spätestens" in text, text
        assert sight.has_image(post) == (number == 2)  # the standings after round 1
        for thread in threads:
            ping = german(sight.content(fake.messages_in(thread)[0]))
            assert re.fullmatch(rf"<@\d+> · <@\d+>: Runde {number}, Tisch \d von Geek Out! Masters-Turnier #1\. "
                                r"Viel Glück!", ping), ping
            await play_out(fake, thread)
    over = "## Geek Out! Masters-Turnier #1 ist vorbei. "
    await fake.wait_until(lambda: any(sight.content(m).startswith(over) for m in fake.messages_in(CHANNEL)),
                          what="das Podium")
    final = next(m for m in fake.messages_in(CHANNEL) if sight.content(m).startswith(over))
    text = german(sight.content(final))
    assert text.split("\n")[0].endswith(("teilen sich den ersten Platz!", "gewinnt!")), text
    assert "🥇" in text and re.search(r"^1\. \S+ · [\d.]+ Pkt\. · Buchholz [\d.]+ · \d von 2 gewonnen$", text, re.M), text
    assert sight.has_image(final)
    german(sight.content(tournament_message(fake)))
    assert "Das Turnier ist vorbei." in sight.content(tournament_message(fake))
    assert not fake.rejections
