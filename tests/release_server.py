"""A local HTTP server standing in for the published release locations (no internet in tests).

It serves ``MIRROR/<host>/<path>`` the way ``chronotasks prepare --mirror MIRROR`` asks for
``https://<host>/<path>``: e.g. ``/github.com/KHUSHBOO0012/tab-vlm/raw/<commit>/data/...``. It
honours ``Range`` (206), and can misbehave on purpose: drop the connection half way through a
file (``drop``: path -> how many times), serve altered bytes (``corrupt``: path -> how many
times; -1 = always), answer slowly (``delay`` seconds per request). ``hits`` counts GETs per
path and ``ranges`` records the Range headers received.
"""

from __future__ import annotations

import http.server
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable
from pathlib import Path


class ReleaseServer:
    def __init__(self) -> None:
        self.files: dict[str, bytes | Callable[[], bytes]] = {}
        self.drop: Counter = Counter()
        self.corrupt: Counter = Counter()
        self.delay = 0.0
        self.hits: Counter = Counter()
        self.ranges: list[tuple[str, str]] = []
        self.lock = threading.Lock()
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):  # noqa: N802 (http.server's name)
                path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
                with server.lock:
                    server.hits[path] += 1
                    drop = server.drop[path] > 0
                    if drop:
                        server.drop[path] -= 1
                    corrupt = server.corrupt[path] != 0
                    if server.corrupt[path] > 0:
                        server.corrupt[path] -= 1
                if server.delay:
                    time.sleep(server.delay)
                body = server.files.get(path)
                if body is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                data = body() if callable(body) else body
                if corrupt:
                    data = data[:-1] + bytes([data[-1] ^ 0xFF])
                start = 0
                header = self.headers.get("Range")
                if header:
                    server.ranges.append((path, header))
                    start = int(header.split("=")[1].split("-")[0])
                    if start >= len(data):
                        self.send_response(416)
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                payload = data[start:]
                self.send_response(206 if start else 200)
                self.send_header("Content-Length", str(len(payload)))
                if start:
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                self.end_headers()
                if drop:
                    self.wfile.write(payload[: len(payload) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(payload)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def add_release(self, release, folder: Path) -> None:
        """Serve the files of ``release`` (a chronotasks.data.fetch.Release) from ``folder``, a copy
        of the release's inner folder (e.g. a whole copy's tabvlm/ for data/)."""
        from chronotasks.benchmarks.release import inner_path

        for path in release.files:
            url = urllib.parse.urlsplit(release.url(path))
            self.files[f"/{url.netloc}{urllib.parse.unquote(url.path)}"] = (folder / inner_path(release, path)).read_bytes()

    def start(self) -> ReleaseServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
