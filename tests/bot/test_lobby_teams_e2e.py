"""GEONEO with four players: players pick their partner in the lobby, and the game's teams are the chosen
ones (issue 16, item 16)."""

from games import get_engine
from tests.bot import sight
from tests.bot.conftest import ANA, BO, CHANNEL, CY
from tests.bot.test_geoneo_e2e import DEE


def lobby(fake):
    return sight.lobby(fake, CHANNEL)


def labels(message):
    return [c.get("label", "") for c in sight.components(message)]  # a menu has none


async def test_four_players_pick_their_partners_before_the_start(fake, runner):
    fake.add_user(DEE, "Dee")
    await fake.slash(ANA, CHANNEL, "play", "geoneo")
    for p in (BO, CY):
        await fake.click(p, lobby(fake), "Join")
    assert not any(label.startswith("Team up") for label in labels(lobby(fake)))  # three players: no teams
    await fake.click(DEE, lobby(fake), "Join")
    shown = sight.description(lobby(fake))
    assert "**Teams**: Ana & Cy · Bo & Dee" in shown, shown
    assert [x for x in labels(lobby(fake)) if x.startswith("Team up")] == [
        "Team up with Ana", "Team up with Bo", "Team up with Cy", "Team up with Dee"]

    await fake.click(ANA, lobby(fake), "Team up with Bo")
    shown = sight.description(lobby(fake))
    assert "**Teams**: Ana & Bo · Cy & Dee" in shown and "Ana teamed up with Bo." in shown, shown
    await fake.click(ANA, lobby(fake), "Team up with Ana")
    assert sight.content(fake.ephemerals(ANA)[-1]) == "Pick another player as your partner."
    await fake.click(BO, lobby(fake), "Team up with Ana")
    assert sight.content(fake.ephemerals(BO)[-1]) == "Ana is already your partner."
    await fake.click(ANA, lobby(fake), "Start")

    [row] = [r for r in [await runner.bot.store.open_table_in(CHANNEL)] if r]
    table = await runner.bot.store.get_table(row.id)
    engine = get_engine("geoneo")
    state = engine.decode(table.state)
    seat = {p["id"]: s for s, p in enumerate(table.players)}
    colours = engine.view(state, None)["colours"]
    assert colours[seat[ANA]] == colours[seat[BO]] and colours[seat[CY]] == colours[seat[DEE]]
    assert colours[seat[ANA]] != colours[seat[CY]]
    assert [seat[ANA], seat[BO]] in engine.teams(4)


async def test_a_spectator_cannot_rearrange_the_teams(fake, runner):
    fake.add_user(DEE, "Dee")
    fake.add_user(105, "Eve")
    await fake.slash(ANA, CHANNEL, "play", "geoneo")
    for p in (BO, CY, DEE):
        await fake.click(p, lobby(fake), "Join")
    await fake.click(105, lobby(fake), "Team up with Ana")
    assert sight.content(fake.ephemerals(105)[-1]) == "Only a seated player can pick a partner."
    assert "**Teams**: Ana & Cy · Bo & Dee" in sight.description(lobby(fake))
