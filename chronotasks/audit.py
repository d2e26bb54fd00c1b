"""`chronotasks audit RUN_DIR`: is a model's score limited by its answer format?

Reads the per-sample logs lmms-eval writes with ``--log_samples`` (``*_samples_<task>.jsonl``
under RUN_DIR, searched recursively) and prints, per task, the share of replies whose answer was
decided by the rules (``AnswerSpace.parse``), by the LLM extractor (when it was on: each sample
logs ``extractor``), and abstained (no answer: the task's ``parse_failure``; ``empty_answer`` for
free-text MuseBench VQA; for TempViz, ``parse_failure`` of each sample's judge ``verdict``), how
many judgements failed (TempViz: the judge could not be asked, e.g. an API answering HTTP 500; such
a sample has no reply to read, so it is among neither the decided nor the unreadable), and the most
common unreadable replies (for TempViz, the judge's). The same rows are written as CSV (``--csv``,
default RUN_DIR/parse_audit.csv) with one line per task and one per frequent unreadable reply.

TempViz samples logged by a run on several processes carry no verdict (lmms-eval aggregates
gathered copies); they are not counted (``<judge_cache_dir>/samples/tempviz_<category>.jsonl``
holds their verdicts).
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chronotasks.reporting import read_samples

FAILURE_KEYS = ("parse_failure", "judge_parse_failure", "empty_answer")
_SAMPLES = re.compile(r"_samples_(.+)\.jsonl$")


@dataclass
class TaskAudit:
    task: str
    files: list[str] = field(default_factory=list)
    samples: int = 0
    scored: int = 0  # samples with a failure flag
    failures: int = 0
    judge_failures: int = 0  # TempViz: judgements that failed (no verdict at all)
    extractor: Counter = field(default_factory=Counter)
    unread: Counter = field(default_factory=Counter)

    @property
    def failure_rate(self) -> float | None:
        return self.failures / self.scored if self.scored else None

    @property
    def by_llm(self) -> int:
        """Samples whose answer the LLM extractor gave (0 when it was off)."""
        return self.extractor.get("llm", 0)

    @property
    def by_rules(self) -> int:
        """Samples whose answer the rules gave: read, and not by the extractor."""
        return self.scored - self.failures - self.by_llm


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_dir", help="an lmms-eval --output_path folder written with --log_samples")
    parser.add_argument("--top", type=int, default=5, help="how many of the most common unreadable replies to show per task")
    parser.add_argument("--width", type=int, default=100, help="characters of each reply shown")
    parser.add_argument("--csv", default=None, help="CSV file to write (default: RUN_DIR/parse_audit.csv)")


def _verdict(sample: dict[str, Any]) -> dict[str, Any] | None:
    """A TempViz sample's judge verdict: its metric values are the sample's item, which holds the
    ``verdict`` after the task's aggregation judged it (single-process runs)."""
    item = sample.get("judge_parse_failure")
    verdict = item.get("verdict") if isinstance(item, dict) else None
    return verdict if isinstance(verdict, dict) else None


def _reply(sample: dict[str, Any]) -> str:
    verdict = _verdict(sample)
    if verdict is not None:
        return str(verdict.get("reply") or "")  # what could not be read is the judge's reply
    for key in ("filtered_resps", "resps"):
        value = sample.get(key)
        while isinstance(value, list) and value:
            value = value[0]
        if isinstance(value, str):
            return value
    return ""


def _failure(sample: dict[str, Any]) -> float | None:
    verdict = _verdict(sample)
    if verdict is not None:
        return float(bool(verdict.get("parse_failure")))
    for key in FAILURE_KEYS:
        value = sample.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    return None


def sample_files(run_dir: Path) -> list[Path]:
    return sorted(p for p in Path(run_dir).rglob("*.jsonl") if _SAMPLES.search(p.name))


def audit(run_dir: Path) -> dict[str, TaskAudit]:
    """Per task: sample and failure counts and the unreadable replies, from the sample logs."""
    tasks: dict[str, TaskAudit] = {}
    for path in sample_files(run_dir):
        task = _SAMPLES.search(path.name).group(1)
        entry = tasks.setdefault(task, TaskAudit(task))
        entry.files.append(str(path))
        for sample in read_samples(path):
            entry.samples += 1
            if "extractor" in sample:
                entry.extractor[str(sample["extractor"])] += 1
            verdict = _verdict(sample)
            if verdict is not None and verdict.get("judge_failure"):
                entry.judge_failures += 1  # no judge reply: neither decided nor unreadable
                continue
            failed = _failure(sample)
            if failed is None:
                continue
            entry.scored += 1
            if failed >= 0.5:
                entry.failures += 1
                entry.unread[" ".join(_reply(sample).split())] += 1
    return tasks


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _share(count: int, total: int) -> str:
    return f"{count} ({100 * count / total:.1f}%)" if total else "n/a"


def report(tasks: dict[str, TaskAudit], top: int, width: int) -> str:
    lines = [
        "| task | samples | decided by rules | by LLM extractor | abstained (unreadable) | judge failed |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, t in sorted(tasks.items()):
        llm = _share(t.by_llm, t.scored) if t.extractor else "off"
        lines.append(
            f"| {name} | {t.samples} | {_share(t.by_rules, t.scored)} | {llm} | {_share(t.failures, t.scored)} | {t.judge_failures} |"
        )
    for name, t in sorted(tasks.items()):
        if not t.unread:
            continue
        lines.append(f"\n{name}: most common unreadable replies")
        for reply, count in t.unread.most_common(top):
            lines.append(f"  {count:>5} x {_shorten(reply, width)!r}")
    return "\n".join(lines)


def write_csv(tasks: dict[str, TaskAudit], path: Path, top: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        header = ["task", "row", "samples", "rules", "llm_extracted", "unreadable", "rate", "judge_failures", "count", "reply"]
        writer.writerow(header)
        for name, t in sorted(tasks.items()):
            rate = "" if t.failure_rate is None else f"{t.failure_rate:.4f}"
            llm = t.by_llm if t.extractor else ""
            writer.writerow([name, "task", t.samples, t.by_rules, llm, t.failures, rate, t.judge_failures, "", ""])
            for reply, count in t.unread.most_common(top):
                # the task row's counts left empty: count and reply in their own columns
                writer.writerow([name, "unreadable_reply"] + [""] * (len(header) - 4) + [count, reply])
    tmp.replace(path)


def run(args: argparse.Namespace) -> int:
    run_dir = Path(args.run_dir)
    if not run_dir.is_dir():
        print(f"chronotasks audit: {run_dir} is not a folder", file=sys.stderr)
        return 2
    try:
        tasks = audit(run_dir)
    except ValueError as error:
        print(f"chronotasks audit: {error}", file=sys.stderr)
        return 2
    if not tasks:
        print(f"chronotasks audit: no *_samples_<task>.jsonl under {run_dir} (run lmms-eval with --log_samples)", file=sys.stderr)
        return 2
    print(report(tasks, args.top, args.width))
    out = Path(args.csv) if args.csv else run_dir / "parse_audit.csv"
    write_csv(tasks, out, args.top)
    print(f"\nCSV written to {out}")
    return 0


__all__ = ["TaskAudit", "add_arguments", "audit", "report", "run", "write_csv"]
