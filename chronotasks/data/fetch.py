"""Downloading public release files: retries, resume, checksums, and "no network" found once.

- ``Release``: where a paper's release files are published (a GitHub repository pinned to a
  commit) and the SHA-256 of each file we use, so a download is verified byte for byte.
- ``Downloader``: HTTP GET with retries and exponential back-off (connection errors, timeouts,
  408/425/429/5xx; a numeric Retry-After is honoured), resuming a dropped transfer from the bytes
  already on disk (``Range``), writing atomically (``<file>.part`` then rename). Before the first
  request to a host it checks that the host can be reached at all (DNS + TCP connect, a few
  seconds); a host that cannot be reached is remembered and every later download from it is
  skipped at once, so an offline machine is detected once instead of retrying every file.
- A mirror (``--mirror URL`` or ``$CHRONOTASKS_MIRROR``) serves ``scheme://host/path`` as
  ``URL/host/path``: a lab's own copy of the release, or a local server in the tests.
"""

from __future__ import annotations

import hashlib
import os
import socket
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MIRROR_ENV = "CHRONOTASKS_MIRROR"
RETRY_STATUS = {408, 425, 429, 500, 502, 503, 504}
USER_AGENT = "chronotasks-prepare/0.1"
PROBE_TIMEOUT = 5.0


class NoNetwork(RuntimeError):
    """A host cannot be reached (no network, DNS failure, refused connection)."""


class DownloadError(RuntimeError):
    """A file could not be downloaded or failed its checksum."""


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@dataclass(frozen=True)
class Release:
    """A paper's public release: files of a GitHub repository at a pinned commit."""

    repository: str  # "owner/name"
    commit: str
    files: dict[str, str]  # path in the repository -> SHA-256 of the published file
    inner: str = ""  # the folder of the repository that holds the data ("data", "test & ans")
    notes: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def url(self, path: str) -> str:
        return f"https://github.com/{self.repository}/raw/{self.commit}/{urllib.parse.quote(path)}"

    @property
    def home(self) -> str:
        return f"https://github.com/{self.repository}/tree/{self.commit}"


def mirrored(url: str, mirror: str | None = None) -> str:
    """``url`` as served by the mirror (``MIRROR/host/path``), or unchanged without one."""
    base = mirror if mirror is not None else os.environ.get(MIRROR_ENV)
    if not base:
        return url
    parts = urllib.parse.urlsplit(url)
    return f"{base.rstrip('/')}/{parts.netloc}{parts.path}" + (f"?{parts.query}" if parts.query else "")


def _host_port(url: str) -> tuple[str, int]:
    parts = urllib.parse.urlsplit(url)
    return parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80)


class Downloader:
    """See the module docstring. ``get`` returns None or why not; ``fetch`` raises."""

    def __init__(
        self,
        retries: int = 3,
        timeout: float = 30.0,
        backoff: float = 1.0,
        mirror: str | None = None,
        session: Any = None,
        sleep: Callable[[float], None] = time.sleep,
        on_unreachable: Callable[[str, str], None] | None = None,
    ) -> None:
        self.retries, self.timeout, self.backoff = max(1, retries), timeout, backoff
        self.mirror = mirror
        self.sleep = sleep
        self._session = session
        self.unreachable: dict[str, str] = {}  # "host:port" -> why it cannot be reached
        self.reachable: set[str] = set()
        self.on_unreachable = on_unreachable

    @property
    def session(self) -> Any:
        if self._session is None:
            import requests

            self._session = requests.Session()
        return self._session

    # -- reachability ------------------------------------------------------------------------
    def probe(self, url: str) -> str | None:
        """None if the host of ``url`` (after the mirror) accepts a TCP connection, else why not."""
        host, port = _host_port(mirrored(url, self.mirror))
        key = f"{host}:{port}"
        if key in self.unreachable:
            return self.unreachable[key]
        if key in self.reachable:
            return None
        try:
            with socket.create_connection((host, port), timeout=min(self.timeout, PROBE_TIMEOUT)):
                pass
        except OSError as err:
            why = f"cannot reach {key} ({type(err).__name__}: {err})"
            self.unreachable[key] = why
            if self.on_unreachable:
                self.on_unreachable(key, why)
            return why
        self.reachable.add(key)
        return None

    def require(self, url: str) -> None:
        """Raise NoNetwork if the host of ``url`` cannot be reached."""
        why = self.probe(url)
        if why:
            raise NoNetwork(why)

    # -- one file ----------------------------------------------------------------------------
    def get(self, url: str, target: Path) -> str | None:
        """Download ``url`` to ``target`` (atomically, resuming a partial ``.part``); None or the last error."""
        import requests

        why = self.probe(url)
        if why:
            return f"skipped: {why}"
        source = mirrored(url, self.mirror)
        target = Path(target)
        part = target.with_name(target.name + ".part")
        error = "not attempted"
        for attempt in range(self.retries):
            if attempt:
                self.sleep(self.backoff * 2 ** (attempt - 1))
            try:
                status, retry_after = self._transfer(source, part)
            except requests.RequestException as err:
                error = f"{type(err).__name__}: {err}"
                continue
            if status is None:
                os.replace(part, target)
                return None
            error = f"HTTP {status}"
            if status not in RETRY_STATUS:
                return error
            if retry_after.isdigit():
                self.sleep(min(float(retry_after), 60.0))
        if error.startswith(("ConnectionError", "ConnectTimeout", "ReadTimeout", "Timeout")):
            # the host stopped answering: check it once more so that a machine that went offline
            # stops here instead of retrying every remaining file
            host, port = _host_port(source)
            self.reachable.discard(f"{host}:{port}")
            self.probe(url)
        return error

    def _transfer(self, url: str, part: Path) -> tuple[int | None, str]:
        """One GET into ``part`` (appending after the bytes already there when the server honours
        Range); (None, "") when complete, else (HTTP status, Retry-After)."""
        have = part.stat().st_size if part.exists() else 0
        headers = {"User-Agent": USER_AGENT}
        if have:
            headers["Range"] = f"bytes={have}-"
        part.parent.mkdir(parents=True, exist_ok=True)
        with self.session.get(url, headers=headers, timeout=self.timeout, stream=True) as response:
            if response.status_code == 416 and have:  # nothing left to send: the part file is complete
                return None, ""
            if response.status_code not in (200, 206):
                return response.status_code, response.headers.get("Retry-After", "")
            mode = "ab" if response.status_code == 206 and have else "wb"
            with open(part, mode) as handle:
                for chunk in response.iter_content(1 << 16):
                    handle.write(chunk)
        if part.stat().st_size == 0:
            return 204, ""
        return None, ""

    def fetch(self, url: str, target: Path, sha256: str | None = None) -> Path:
        """``target`` with the content of ``url``, verified against ``sha256`` when given.

        A file already there with the right checksum is kept (a rerun resumes); a download with
        the wrong checksum is deleted and fetched once more before giving up.
        """
        target = Path(target)
        if target.is_file() and (sha256 is None or sha256_of(target) == sha256):
            return target
        for attempt in range(2):
            target.unlink(missing_ok=True)
            self.require(url)
            error = self.get(url, target)
            if error:
                raise DownloadError(f"{url}: {error}")
            if sha256 is None:
                return target
            got = sha256_of(target)
            if got == sha256:
                return target
            bad = target.with_name(target.name + ".corrupt")
            os.replace(target, bad)
            if attempt:
                raise DownloadError(
                    f"{url}: the download does not match the published file (sha256 {got}, expected "
                    f"{sha256}); kept as {bad}. The mirror or a proxy may serve a changed copy."
                )
        raise AssertionError("unreachable")


def fetch_release(
    release: Release, folder: Path, downloader: Downloader, paths: list[str] | None = None, show: Callable[[str], None] = print
) -> Path:
    """Download (or keep, when already verified) the release files under ``folder/<path in repo>``.

    Returns ``folder``; every file is checked against the release's SHA-256.
    """
    from chronotasks.data.progress import Progress

    chosen = paths or list(release.files)
    show(f"Fetching {len(chosen)} release file(s) of {release.repository} at {release.commit[:7]} ({release.home})")
    with Progress(total=len(chosen), desc=f"{release.repository} files", unit="file") as bar:
        for path in chosen:
            downloader.fetch(release.url(path), folder / path, release.files[path])
            bar.update(note=path.rsplit("/", 1)[-1])
    return folder
