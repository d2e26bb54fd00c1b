"""A local OpenAI-compatible chat-completions stub for tests (127.0.0.1 only).

    from openai_stub import OpenAIStub      # tests/ is on sys.path via tests/conftest.py

    with OpenAIStub(responder=lambda body: "hello", failures=[429, 500]) as stub:
        client = CachedChatClient(stub.base_url, "stub-model", cache_dir=tmp_path)
        ...
        stub.requests      # every request body received (failed ones included)

- ``responder(body) -> str`` makes the reply text from the parsed JSON request.
- ``failures``: status codes answered, in order, to the first requests
  (e.g. ``[429, 500]``: two failures then successes).
- ``fail_every=k``: additionally every k-th request (1-based) fails with
  ``fail_status`` — an intermittently failing server.
The server runs in a daemon thread and is shut down when the ``with`` block ends.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def last_user_text(body: dict[str, Any]) -> str:
    """The text parts of the last user message of a request body, joined."""
    for message in reversed(body.get("messages", [])):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, str):
                return content
            return "\n".join(part.get("text", "") for part in content if part.get("type") == "text")
    return ""


def count_images(body: dict[str, Any]) -> int:
    n = 0
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, list):
            n += sum(1 for part in content if part.get("type") == "image_url")
    return n


class OpenAIStub:
    def __init__(
        self,
        responder: Callable[[dict[str, Any]], str] | None = None,
        failures: list[int] | None = None,
        fail_every: int | None = None,
        fail_status: int = 500,
        delay: float = 0.0,
    ) -> None:
        self.responder = responder or (lambda body: "ok")
        self.failures = list(failures or [])
        self.fail_every = fail_every
        self.fail_status = fail_status
        self.delay = delay
        self.requests: list[dict[str, Any]] = []
        self.statuses: list[int] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "stub not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    @property
    def n_success(self) -> int:
        return sum(1 for s in self.statuses if s == 200)

    def _decide(self, body: dict[str, Any]) -> int:
        with self._lock:
            self.requests.append(body)
            n = len(self.requests)
            if self.failures:
                status = self.failures.pop(0)
            elif self.fail_every and n % self.fail_every == 0:
                status = self.fail_status
            else:
                status = 200
            self.statuses.append(status)
            return status

    def __enter__(self) -> "OpenAIStub":
        stub = self

        class Handler(BaseHTTPRequestHandler):
            timeout = 30

            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                status = stub._decide(body)
                if stub.delay:
                    time.sleep(stub.delay)
                if status != 200:
                    headers = {"Retry-After": "0"} if status == 429 else None
                    self._send(status, {"error": {"message": f"stub failure {status}", "type": "stub", "code": status}}, headers)
                    return
                text = stub.responder(body)
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-stub-{len(stub.requests)}",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body.get("model", "stub"),
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
                    },
                )

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
