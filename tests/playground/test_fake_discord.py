"""The fake must refuse what Discord refuses, or the bot's tests prove nothing."""

import json

import aiohttp
import pytest

from playground.fake_discord import FakeDiscord


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
