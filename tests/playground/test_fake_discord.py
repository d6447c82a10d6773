"""The fake must refuse what Discord refuses, or the bot's tests prove nothing."""

import contextlib
import json

import aiohttp
import discord
import pytest
from discord import app_commands

from playground.fake_discord import APP_ID, DiscordError, FakeDiscord, check_message
from tests.bot.harness import BotRunner


@pytest.fixture
async def fake():
    f = FakeDiscord()
    await f.start()
    f.add_user(1, "Ana")
    yield f
    await f.stop()


async def post(fake, path, payload):
    async with aiohttp.ClientSession() as s, s.post(fake.api_base + path, json=payload) as r:
        return r.status, json.loads(await r.text() or "null")


def interaction(fake):
    it, _ = fake._interaction(2, 1, 600, {"name": "x"})
    return it


async def test_a_second_acknowledgement_is_refused_with_40060(fake):
    it = interaction(fake)
    status, _ = await post(fake, f"/interactions/{it.id}/{it.token}/callback", {"type": 4, "data": {"content": "hi"}})
    assert status == 200
    status, body = await post(fake, f"/interactions/{it.id}/{it.token}/callback", {"type": 4, "data": {"content": "x"}})
    assert (status, body["code"]) == (400, 40060)


async def test_a_response_after_three_seconds_is_refused_with_10062(fake):
    it = interaction(fake)
    fake.clock_offset = 3.5
    status, body = await post(fake, f"/interactions/{it.id}/{it.token}/callback", {"type": 5})
    assert (status, body["code"]) == (404, 10062)


async def test_an_expired_token_is_refused_with_50027(fake):
    it = interaction(fake)
    await post(fake, f"/interactions/{it.id}/{it.token}/callback", {"type": 5})
    fake.clock_offset = 15 * 60 + 1
    status, body = await post(fake, f"/webhooks/1/{it.token}", {"content": "late"})
    assert (status, body["code"]) == (401, 50027)


@pytest.mark.parametrize("payload", [
    {"content": "x" * 2001},
    {"embeds": [{"description": "x" * 4097}]},
    {"embeds": [{"description": "x" * 4000}, {"description": "x" * 2001}]},
    {"components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "a", "custom_id": str(i)}
                                                for i in range(6)]}]},
    {"components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "a", "custom_id": "c" * 101}]}]},
    {"components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "a" * 81, "custom_id": "c"}]}]},
    {"components": [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": [
        {"label": str(i), "value": str(i)} for i in range(26)]}]}]},
    {"components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "a", "custom_id": "same"}]},
                    {"type": 1, "components": [{"type": 2, "style": 1, "label": "b", "custom_id": "same"}]}]},
    {"components": [{"type": 1, "components": [{"type": 2, "style": 1, "label": "a", "custom_id": str(i)}]}
                    for i in range(6)]},
])
async def test_messages_over_discords_limits_are_refused(fake, payload):
    status, body = await post(fake, "/channels/600/messages", payload)
    assert (status, body["code"]) == (400, 50035)
    assert fake.messages_in(600) == []


async def test_a_valid_message_is_kept(fake):
    status, body = await post(fake, "/channels/600/messages", {"content": "hello"})
    assert status == 200 and fake.messages_in(600)[0]["content"] == "hello"


async def test_a_nonce_enforced_answers_the_first_message_for_a_few_minutes_then_makes_a_new_one(fake):
    once = {"content": "hello", "nonce": "daily-1", "enforce_nonce": True}
    first = await post(fake, "/channels/600/messages", once)
    again = await post(fake, "/channels/600/messages", once)
    assert first[0] == again[0] == 200 and again[1]["id"] == first[1]["id"]
    assert len(fake.messages_in(600)) == 1
    await post(fake, "/channels/600/messages", {**once, "enforce_nonce": False})  # not enforced: a new message
    assert len(fake.messages_in(600)) == 2
    fake.clock_offset += 121  # past the window: Discord makes a new message
    assert (await post(fake, "/channels/600/messages", once))[1]["id"] != first[1]["id"]
    status, body = await post(fake, "/channels/600/messages", {**once, "nonce": "x" * 26})
    assert (status, body["code"]) == (400, 50035) and len(fake.messages_in(600)) == 3


async def test_a_required_option_left_out_is_refused_like_discords_client_does(fake):
    fake.commands["echo"] = {"id": "1", "name": "echo", "type": 1, "options": [
        {"name": "text", "type": 3, "required": True}, {"name": "times", "type": 4, "min_value": 1}]}
    with pytest.raises(DiscordError, match="text: required"):
        await fake.slash(1, 600, "echo", times=2)
    with pytest.raises(DiscordError, match="times: below 1"):
        await fake.slash(1, 600, "echo", text="hi", times=0)


def command_with_a_channel_option(channel_types: list[int]) -> list[dict]:
    return [{"name": "mod", "description": "Moderate", "type": 1, "options": [
        {"name": "channels", "description": "Choose channels", "type": 1, "options": [
            {"name": "channel", "description": "The channel", "type": 7, "channel_types": channel_types}]}]}]


async def put(fake, path, payload):
    async with aiohttp.ClientSession() as s, s.put(fake.api_base + path, json=payload) as r:
        return r.status, json.loads(await r.text() or "null")


async def test_a_command_sync_with_a_kind_of_channel_the_spec_does_not_list_is_refused(fake):
    """Discord's API spec lists no channel type 16 (media) in ChannelTypes: the whole sync is refused, with the
    errors tree discord.py shows ("In 0.options.0.options.0.channel_types.2: ...")."""
    status, body = await put(fake, f"/applications/{APP_ID}/commands", command_with_a_channel_option([0, 15, 16]))
    assert (status, body["code"], body["message"]) == (400, 50035, "Invalid Form Body")
    [error] = body["errors"]["0"]["options"]["0"]["options"]["0"]["channel_types"]["2"]["_errors"]
    assert error["code"] == "BASE_TYPE_CHOICES" and "16" in error["message"]
    assert fake.commands == {} and [(m, p) for m, p, _ in fake.invalid_bodies] == [
        ("PUT", f"/applications/{APP_ID}/commands")]
    with pytest.raises(AssertionError, match="channel_types"):
        fake.assert_spec_kept()
    status, _ = await put(fake, f"/applications/{APP_ID}/guilds/500/commands", command_with_a_channel_option([16]))
    assert status == 400  # a guild's commands too
    status, _ = await put(fake, f"/applications/{APP_ID}/commands", command_with_a_channel_option([0, 15]))
    assert status == 200 and option_types(fake.commands["mod"]) == [0, 15]


def option_types(command: dict) -> list[int]:
    return command["options"][0]["options"][0]["channel_types"]


@pytest.mark.parametrize("payload", [
    {"attachments": [{"id": 0, "filename": "a.png"}]},  # a snowflake is a string
    {"content": "hi", "allowed_mentions": {"parse": [], "users": [101]}},
    {"content": "hi", "allowed_mentions": {"parse": ["nobody"]}},
    {"embeds": [{"title": "t" * 257}]},
    {"embeds": [{"color": -1}]},
    {"components": [{"type": 1, "components": [{"type": 2, "style": 9, "label": "a", "custom_id": "b"}]}]},
    {"components": [{"type": 1, "components": [{"type": 3, "custom_id": "s", "options": []}]}]},
])
async def test_a_message_the_spec_refuses_is_refused(fake, payload):
    status, body = await post(fake, "/channels/600/messages", payload)
    assert (status, body["code"]) == (400, 50035) and body["errors"]
    assert fake.messages_in(600) == [] and len(fake.invalid_bodies) == 1


async def test_interaction_callbacks_and_webhooks_are_checked_against_the_spec(fake):
    it = interaction(fake)
    path = f"/interactions/{it.id}/{it.token}/callback"
    status, body = await post(fake, path, {"type": 3})  # no such callback type
    assert (status, body["code"]) == (400, 50035)
    status, body = await post(fake, path, {"type": 4, "data": {"content": "hi", "flags": "64"}})
    assert (status, list(body["errors"]["data"])) == (400, ["flags"])
    status, _ = await post(fake, path, {"type": 5, "data": {"flags": 64}})
    assert status == 200
    status, body = await post(fake, f"/webhooks/{APP_ID}/{it.token}", {"content": "x", "username": ""})
    assert (status, list(body["errors"])) == (400, ["username"])
    assert fake.messages_in(600) == [] and len(fake.invalid_bodies) == 3


async def test_attachments_are_served_like_discords_cdn(fake):
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"attachments": [{"id": "0", "filename": "run.gif"}]}))
    form.add_field("files[0]", b"GIF89a...", filename="run.gif")
    async with aiohttp.ClientSession() as s:
        async with s.post(fake.api_base + "/channels/600/messages", data=form) as r:
            [attachment] = (await r.json())["attachments"]
        async with s.get(attachment["url"]) as r:
            assert (r.status, r.content_type, await r.read()) == (200, "image/gif", b"GIF89a...")
    assert attachment["content_type"] == "image/gif"


@pytest.fixture
async def bot(fake, tmp_path):
    """The real bot with two more commands: one with an autocomplete, one that answers too late."""
    failed = set()
    fake.observers.append(lambda event, data: event == "failed" and failed.add(data.id))
    runner = BotRunner(fake, str(tmp_path / "geotable.db"))
    bot = await runner.start()

    @app_commands.command(name="fruit", description="Name a fruit")
    async def fruit(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"You chose {name}.", ephemeral=True)

    @fruit.autocomplete("name")
    async def fruits(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f.title(), value=f) for f in FRUITS if f.startswith(current)]

    @app_commands.command(name="slow", description="Answers after Discord's 3 seconds")
    async def slow(interaction: discord.Interaction) -> None:
        # only once the member's client has said it failed: late for sure, whatever the machine's load
        await fake.wait_until(lambda: interaction.id in failed, what="the interaction to fail")
        with contextlib.suppress(discord.NotFound):
            await interaction.response.send_message("Too late.")

    bot.tree.add_command(fruit)
    bot.tree.add_command(slow)
    await bot.tree.sync()
    yield bot
    await runner.stop()


FRUITS = ("apple", "apricot", "banana")


async def test_an_autocomplete_reaches_the_bot_and_brings_back_its_choices(fake, bot):
    choices = await fake.autocomplete(1, 600, "fruit", focused="name", name="ap")
    assert choices == [{"name": "Apple", "value": "apple"}, {"name": "Apricot", "value": "apricot"}]
    it = await fake.slash(1, 600, "fruit", name="apple")
    [reply] = fake.replies_to(it)
    assert reply["content"] == "You chose apple." and fake.ephemeral_of[int(reply["id"])] == 1
    # what Discord's client shows above a command's answer: "Ana used /fruit"
    assert reply["interaction"]["name"] == "fruit" and reply["interaction_metadata"]["user"]["id"] == "1"


async def test_observers_see_an_unanswered_interaction_fail_and_the_late_answer_refused(fake, bot):
    seen = []
    fake.observers.append(lambda event, data: seen.append((event, data)))
    it = await fake.slash(1, 600, "slow", settle=False)
    await fake.wait_until(lambda: len(seen) >= 2, what="the failure and the refusal")
    await fake.settle()
    assert [e for e, _ in seen] == ["failed", "refused"]
    assert seen[0][1] is it and seen[1][1][2].code == 10062


# --- Components V2 (the flag IS_COMPONENTS_V2): what Discord refuses of such a message ---------------------------
V2 = 1 << 15


def text(content: str = "words", **more) -> dict:
    return {"type": 10, "content": content, **more}


def button(custom_id: str = "b", label: str = "Go") -> dict:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*items) -> dict:
    return {"type": 1, "components": list(items)}


def box(*items) -> dict:
    return {"type": 17, "accent_color": 0xE69F00, "components": list(items)}


def gallery(n: int = 1, description: str = "the board") -> dict:
    return {"type": 12, "items": [{"media": {"url": f"attachment://b{i}.png"}, "description": description}
                                  for i in range(n)]}


VALID_V2 = {"flags": V2, "components": [box(text("## Table 1"), gallery(), row(button("x"), button("y")),
                                            {"type": 9, "components": [text("1. Ana")], "accessory": button("z")},
                                            {"type": 14})]}


async def test_a_valid_v2_message_is_kept_and_its_buttons_are_found(fake):
    status, body = await post(fake, "/channels/600/messages", VALID_V2)
    assert status == 200, body
    [message] = fake.messages_in(600)
    assert message["flags"] & V2 and message["content"] == "" and message["embeds"] == []
    assert fake.find_component(message, custom_id="z")["label"] == "Go"  # a section's accessory
    assert fake.find_component(message, custom_id="y")  # a row inside the container


@pytest.mark.parametrize(("why", "payload", "code"), [
    ("content with the flag", {"flags": V2, "content": "hi", "components": [text()]},
     "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
    ("embeds with the flag", {"flags": V2, "embeds": [{"description": "x"}], "components": [text()]},
     "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
    ("41 components counting nested ones", {"flags": V2, "components": [box(*(text(str(i)) for i in range(40)))]},
     "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED"),
    ("4,001 characters of text", {"flags": V2, "components": [text("x" * 2000), box(text("x" * 2001))]},
     "COMPONENT_MAX_TEXT_LENGTH_EXCEEDED"),
    ("6 buttons in a row", {"flags": V2, "components": [row(*(button(str(i)) for i in range(6)))]},
     "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
    ("a text display in an action row", {"flags": V2, "components": [row(text())]},
     "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
    ("a select beside a button", {"flags": V2, "components": [row(button(), {
        "type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]})]},
     "COMPONENT_LAYOUT_WIDTH_EXCEEDED"),
    ("a section without an accessory", {"flags": V2, "components": [{"type": 9, "components": [text()]}]},
     "BASE_TYPE_REQUIRED"),
    ("a section with 4 texts", {"flags": V2, "components": [
        {"type": 9, "components": [text(), text(), text(), text()], "accessory": button()}]}, "BASE_TYPE_BAD_LENGTH"),
    ("a section whose accessory is a text", {"flags": V2, "components": [
        {"type": 9, "components": [text()], "accessory": text()}]}, "UNION_TYPE_CHOICES"),
    ("a container in a container", {"flags": V2, "components": [box(box(text()))]}, "UNION_TYPE_CHOICES"),
    ("a button outside a row", {"flags": V2, "components": [box(button())]}, "UNION_TYPE_CHOICES"),
    ("a gallery of 11", {"flags": V2, "components": [gallery(11)]}, "BASE_TYPE_BAD_LENGTH"),
    ("an empty gallery", {"flags": V2, "components": [gallery(0)]}, "BASE_TYPE_BAD_LENGTH"),
    ("a 1,025-character image description", {"flags": V2, "components": [gallery(1, "x" * 1025)]},
     "BASE_TYPE_MAX_LENGTH"),
    ("two components with one id", {"flags": V2, "components": [text(id=7), text(id=7)]}, "COMPONENT_DUPLICATE_ID"),
])
async def test_v2_messages_discord_refuses_are_refused(fake, why, payload, code):
    """Refused over HTTP (50035 with the field's error: the API schema's own where it refuses first) and by the
    fake's own V2 rules, with Discord's error code."""
    status, body = await post(fake, "/channels/600/messages", payload)
    assert (status, body["code"]) == (400, 50035) and body.get("errors"), why
    assert fake.messages_in(600) == []
    with pytest.raises(DiscordError) as refused:
        check_message(payload, {})
    assert refused.value.code == 50035 and code in json.dumps(refused.value.errors), (why, refused.value)
    fake.invalid_bodies.clear()


async def test_a_v2_message_never_loses_its_flag_and_a_classic_one_converts_only_cleared(fake):
    status, body = await post(fake, "/channels/600/messages", VALID_V2)
    path = f"/channels/600/messages/{body['id']}"
    async with aiohttp.ClientSession() as s:
        async with s.patch(fake.api_base + path, json={"flags": 0, "components": [row(button())]}) as r:
            refused = json.loads(await r.text())
            assert r.status == 400 and "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG" in json.dumps(refused)
        async with s.patch(fake.api_base + path, json={"content": "back to words"}) as r:
            assert r.status == 400  # a V2 message takes no content, flag or not in the edit
    assert fake.messages_in(600)[0]["flags"] & V2

    status, body = await post(fake, "/channels/600/messages", {"content": "old", "embeds": [{"title": "board"}]})
    path = f"/channels/600/messages/{body['id']}"
    async with aiohttp.ClientSession() as s:
        async with s.patch(fake.api_base + path, json={"flags": V2, "components": [text()]}) as r:
            assert r.status == 400, "the classic message's content and embed would stay beside the flag"
        async with s.patch(fake.api_base + path, json={"flags": V2, "content": None, "embeds": [],
                                                      "components": [text("now V2")]}) as r:
            assert r.status == 200, await r.text()
    converted = fake.messages_in(600)[-1]
    assert converted["flags"] & V2 and converted["content"] == "" and converted["embeds"] == []
    fake.invalid_bodies.clear()
