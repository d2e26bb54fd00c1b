"""A small OpenAI-compatible chat client with an on-disk cache and retries.

Used by API judges and by data builders (e.g. ``chronotasks build musebench-qa``)::

    client = CachedChatClient("http://localhost:8000/v1", "qwen2.5-vl", cache_dir="cache/")
    reply = client.chat([{"role": "user", "content": [text_part("Describe"), image_part(img)]}],
                        temperature=0)

- Cache: every finished call is stored as one JSON file under ``cache_dir``,
  keyed by the SHA-256 of the request (model, messages with their images as
  data, params; not the base_url nor the API key, so the same model served
  elsewhere reuses it). A rerun or a run resumed after a crash repeats no
  finished call. Each file is sealed (``cache_files.seal``: it holds its key and
  the SHA-256 of its content) and written under a temporary name, then renamed;
  one that fails its check is named in a warning, deleted and asked again.
- Retries: 429, 5xx, timeouts and connection errors are retried up to
  ``max_retries`` times with exponential backoff and jitter (honouring a
  ``Retry-After`` header when the server sends one, capped); other 4xx
  errors are raised at once. The openai library's own retries are off so the
  policy is in one place.
- Images go in OpenAI content parts as data URLs (``image_part``).

Imports nothing of lmms-eval; ``openai`` is imported when a client is made.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import random
import threading
import time
from pathlib import Path
from typing import Any

from chronotasks.data.cache_files import CacheDamage, drop_damaged, seal, unseal

RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})


def image_to_data_url(image: Any, fmt: str = "PNG") -> str:
    """A PIL image, raw bytes or an image file path as a ``data:image/...;base64,`` URL."""
    if isinstance(image, (str, Path)):
        path = Path(image)
        data = path.read_bytes()
        ext = path.suffix.lower().lstrip(".") or "png"
        mime = {"jpg": "jpeg", "jpeg": "jpeg", "png": "png", "webp": "webp", "gif": "gif"}.get(ext, "png")
    elif isinstance(image, (bytes, bytearray)):
        data, mime = bytes(image), "png"
    else:
        buffer = io.BytesIO()
        image.convert("RGB").save(buffer, format=fmt)
        data, mime = buffer.getvalue(), fmt.lower()
    return f"data:image/{mime};base64,{base64.b64encode(data).decode('ascii')}"


def text_part(text: str) -> dict[str, Any]:
    return {"type": "text", "text": str(text)}


def image_part(image: Any, detail: str | None = None) -> dict[str, Any]:
    """An ``image_url`` content part holding the image as a data URL."""
    url: dict[str, Any] = {"url": image_to_data_url(image)}
    if detail:
        url["detail"] = detail
    return {"type": "image_url", "image_url": url}


def request_key(model: str, messages: list[dict[str, Any]], params: dict[str, Any]) -> str:
    """The cache key of one request: SHA-256 of its canonical JSON."""
    blob = json.dumps({"model": model, "messages": messages, "params": params}, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ChatError(RuntimeError):
    """A chat call that failed for good (non-retryable error, or retries exhausted)."""


class CachedChatClient:
    """OpenAI-compatible chat completions with a disk cache and retry/backoff.

    ``chat(messages, **params)`` returns the reply text of the first choice;
    ``params`` go to ``chat.completions.create`` (temperature, max_tokens, ...).
    ``stats`` counts cache hits, API calls and retries.
    """

    def __init__(
        self,
        base_url: str | None,
        model: str,
        api_key: str | None = None,
        cache_dir: str | Path | None = None,
        max_retries: int = 5,
        timeout: float = 60,
        backoff_base: float = 1.0,
        backoff_max: float = 60.0,
    ) -> None:
        import openai

        self.model = model
        self.max_retries = int(max_retries)
        self.backoff_base = float(backoff_base)
        self.backoff_max = float(backoff_max)
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        if self.cache_dir is not None:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
        key = api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY"  # local servers accept any key
        self._openai = openai
        self._client = openai.OpenAI(base_url=base_url, api_key=key, timeout=timeout, max_retries=0)
        self._lock = threading.Lock()
        self.stats = {"cache_hits": 0, "api_calls": 0, "retries": 0}

    # -- cache -------------------------------------------------------------------------------
    def _cache_path(self, key: str) -> Path | None:
        """``<cache_dir>/<ab>/<key>.sealed.json`` (files of the earlier, unsealed format are not read)."""
        return None if self.cache_dir is None else self.cache_dir / key[:2] / f"{key}.sealed.json"

    def _cached(self, key: str) -> str | None:
        """The cached reply of the request with this key, or None when it was never answered or its
        file is damaged (then named, deleted and asked again)."""
        path = self._cache_path(key)
        if path is None:
            return None
        try:
            record = unseal(path.read_bytes())
            if record.get("key") != key or not isinstance(record.get("reply"), str):
                raise CacheDamage("it holds the reply to another request")
        except FileNotFoundError:
            return None
        except (CacheDamage, OSError) as err:
            drop_damaged(path, str(err))
            return None
        return record["reply"]

    def _store(self, key: str, reply: str) -> None:
        path = self._cache_path(key)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_bytes(seal({"key": key, "model": self.model, "reply": reply}))
        os.replace(tmp, path)

    # -- calls -------------------------------------------------------------------------------
    def _delay(self, attempt: int, error: Exception) -> float:
        retry_after = None
        response = getattr(error, "response", None)
        if response is not None:
            try:
                retry_after = float(response.headers.get("retry-after"))
            except (TypeError, ValueError):
                retry_after = None
        delay = retry_after if retry_after is not None else self.backoff_base * (2**attempt) * (0.5 + random.random() / 2)
        return min(max(delay, 0.0), self.backoff_max)

    def _retryable(self, error: Exception) -> bool:
        oa = self._openai
        if isinstance(error, (oa.APITimeoutError, oa.APIConnectionError)):
            return True
        if isinstance(error, oa.APIStatusError):
            return error.status_code in RETRY_STATUS or error.status_code >= 500
        return False

    def chat(self, messages: list[dict[str, Any]], **params: Any) -> str:
        """The reply text to ``messages`` (from the cache when this exact request was answered)."""
        key = request_key(self.model, messages, params)
        hit = self._cached(key)
        if hit is not None:
            with self._lock:
                self.stats["cache_hits"] += 1
            return hit
        last: Exception | None = None
        for attempt in range(self.max_retries + 1):
            try:
                with self._lock:
                    self.stats["api_calls"] += 1
                response = self._client.chat.completions.create(model=self.model, messages=messages, **params)
                reply = response.choices[0].message.content or ""
                self._store(key, reply)
                return reply
            except Exception as error:  # noqa: BLE001 - classified below
                if not self._retryable(error):
                    raise ChatError(f"chat request to model {self.model!r} failed: {error}") from error
                last = error
                if attempt < self.max_retries:
                    with self._lock:
                        self.stats["retries"] += 1
                    time.sleep(self._delay(attempt, error))
        raise ChatError(f"chat request to model {self.model!r} failed after {self.max_retries + 1} attempts: {last}") from last


__all__ = ["CachedChatClient", "ChatError", "image_part", "image_to_data_url", "request_key", "text_part"]
