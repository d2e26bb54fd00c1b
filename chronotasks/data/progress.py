"""Progress for long work: a tqdm bar on a terminal, plain periodic lines elsewhere (logs, CI, nohup).

tqdm alone redraws one line with carriage returns, which a log file shows as nothing useful;
when stderr is not a terminal we print ``desc: n/total (p%), elapsed, ~left`` every
``$CHRONOTASKS_PROGRESS_SECONDS`` seconds (default 30), and a last line at the end when there
was an earlier one.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any, TextIO, TypeVar

from tqdm import tqdm

T = TypeVar("T")
INTERVAL_ENV = "CHRONOTASKS_PROGRESS_SECONDS"


def _interval() -> float:
    try:
        return float(os.environ.get(INTERVAL_ENV, "30"))
    except ValueError:
        return 30.0


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


class Progress:
    """``update(n)`` as work is done; ``close()`` (or a ``with`` block) at the end."""

    def __init__(
        self, total: int | None = None, desc: str = "", unit: str = "it", file: TextIO | None = None, interval: float | None = None
    ) -> None:
        self.file = file or sys.stderr
        self.tty = bool(getattr(self.file, "isatty", lambda: False)())
        self.total, self.desc, self.unit = total, desc, unit
        self.interval = _interval() if interval is None else interval
        self.n, self.start = 0, time.monotonic()
        self.last_line = self.start
        self.lines = 0
        self.note = ""
        self.bar = tqdm(total=total, desc=desc, unit=unit, file=self.file, disable=not self.tty, dynamic_ncols=True)
        self.closed = False

    def update(self, n: int = 1, note: str | None = None) -> None:
        self.n += n
        if note is not None:
            self.note = note
            self.bar.set_postfix_str(note, refresh=False)
        self.bar.update(n)
        now = time.monotonic()
        if not self.tty and now - self.last_line >= self.interval:
            self.last_line = now
            self.lines += 1
            self._line(now)

    def _line(self, now: float, final: bool = False) -> None:
        elapsed = now - self.start
        if self.total:
            share = f"{self.n}/{self.total} {self.unit} ({100 * self.n / self.total:.0f}%)"
            left = "" if final or not self.n else f", ~{_duration(elapsed * (self.total - self.n) / self.n)} left"
        else:
            share, left = f"{self.n} {self.unit}", ""
        note = f" [{self.note}]" if self.note else ""
        print(f"{self.desc}: {share}, {_duration(elapsed)} elapsed{left}{note}{' (done)' if final else ''}", file=self.file, flush=True)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.bar.close()
        if not self.tty and self.lines:  # work short enough to need no progress line needs no final one either
            self._line(time.monotonic(), final=True)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def progress(iterable: Iterable[T], total: int | None = None, desc: str = "", unit: str = "it") -> Iterator[T]:
    """Iterate with progress (see ``Progress``)."""
    if total is None and hasattr(iterable, "__len__"):
        total = len(iterable)  # type: ignore[arg-type]
    with Progress(total=total, desc=desc, unit=unit) as bar:
        for item in iterable:
            yield item
            bar.update()
