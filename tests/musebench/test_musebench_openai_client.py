"""The shared cached/retrying OpenAI-compatible client against a local stub server."""

import json

import pytest
from openai_stub import OpenAIStub, count_images, last_user_text
from PIL import Image

from chronotasks.chat_client import CachedChatClient, ChatError, image_part, text_part


def _echo(body):
    return f"echo:{last_user_text(body)}|images={count_images(body)}"


def test_reply_cache_and_data_url_images(tmp_path):
    image = Image.new("RGB", (4, 4), (255, 0, 0))
    messages = [{"role": "user", "content": [image_part(image), image_part(image), text_part("何时?")]}]
    with OpenAIStub(responder=_echo) as stub:
        client = CachedChatClient(stub.base_url, "stub-model", cache_dir=tmp_path / "cache", backoff_base=0.01)
        assert client.chat(messages, temperature=0) == "echo:何时?|images=2"
        assert client.chat(messages, temperature=0) == "echo:何时?|images=2"
        assert len(stub.requests) == 1  # second call served from the disk cache
        url = stub.requests[0]["messages"][0]["content"][0]["image_url"]["url"]
        assert url.startswith("data:image/png;base64,")
        assert stub.requests[0]["temperature"] == 0
        # different params -> a different request
        client.chat(messages, temperature=0.5)
        assert len(stub.requests) == 2
    # a new client (e.g. after a crash) reads the same cache and calls nothing: the server is down now
    again = CachedChatClient(stub.base_url, "stub-model", cache_dir=tmp_path / "cache", max_retries=0)
    assert again.chat(messages, temperature=0) == "echo:何时?|images=2"
    assert again.stats == {"cache_hits": 1, "api_calls": 0, "retries": 0}


def test_retries_429_and_500_then_succeeds(tmp_path):
    with OpenAIStub(responder=_echo, failures=[429, 500, 503]) as stub:
        client = CachedChatClient(stub.base_url, "m", cache_dir=tmp_path, max_retries=5, backoff_base=0.01)
        assert client.chat([{"role": "user", "content": "hi"}]) == "echo:hi|images=0"
        assert stub.statuses == [429, 500, 503, 200]
        assert client.stats["retries"] == 3


def test_gives_up_after_max_retries_and_does_not_retry_400(tmp_path):
    with OpenAIStub(failures=[500] * 10) as stub:
        client = CachedChatClient(stub.base_url, "m", cache_dir=tmp_path, max_retries=2, backoff_base=0.01)
        with pytest.raises(ChatError, match="after 3 attempts"):
            client.chat([{"role": "user", "content": "hi"}])
        assert len(stub.requests) == 3
    with OpenAIStub(failures=[400]) as stub:
        client = CachedChatClient(stub.base_url, "m", cache_dir=tmp_path, max_retries=5, backoff_base=0.01)
        with pytest.raises(ChatError):
            client.chat([{"role": "user", "content": "bad"}])
        assert len(stub.requests) == 1
    # nothing failed was cached
    assert not any(p.suffix == ".json" and "reply" in json.loads(p.read_text()) for p in tmp_path.rglob("*.json"))


def _flip_a_letter(path):
    path.write_text(path.read_text(encoding="utf-8").replace("echo:", "echo;"), encoding="utf-8")


def _another_requests_reply(path):
    other = next(p for p in path.parent.parent.rglob("*.sealed.json") if p != path)
    path.write_bytes(other.read_bytes())


def _torn(path):
    path.write_bytes(path.read_bytes()[:30])


def _a_number(path):
    path.write_text("3")


@pytest.mark.parametrize(
    "damage", [_flip_a_letter, _another_requests_reply, _torn, _a_number], ids=["flipped", "another_request", "torn", "number"]
)
def test_a_damaged_cached_reply_is_named_once_dropped_and_asked_again(tmp_path, caplog, damage):
    import logging

    with OpenAIStub(responder=_echo) as stub:
        client = CachedChatClient(stub.base_url, "stub-model", cache_dir=tmp_path, backoff_base=0.01)
        client.chat([{"role": "user", "content": "first"}])
        client.chat([{"role": "user", "content": "second"}])
        (path,) = [p for p in tmp_path.rglob("*.sealed.json") if "first" in p.read_text(encoding="utf-8")]
        damage(path)
        caplog.set_level(logging.WARNING, logger="chronotasks")
        again = CachedChatClient(stub.base_url, "stub-model", cache_dir=tmp_path, backoff_base=0.01)
        assert again.chat([{"role": "user", "content": "first"}]) == "echo:first|images=0"
        assert again.chat([{"role": "user", "content": "first"}]) == "echo:first|images=0"
        assert again.stats["api_calls"] == 1 and len(stub.requests) == 3
    assert [r.getMessage().split()[2] for r in caplog.records if "is damaged" in r.getMessage()] == [str(path)]
