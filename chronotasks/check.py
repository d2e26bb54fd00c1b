"""`chronotasks check RUN_DIR [TASKS]`: did an lmms-eval run give results, or did it fail?

lmms-eval 0.7.3 exits 0 after an evaluation error, and a task whose judge, images or replies all
failed still prints figures. This reads what the run wrote under RUN_DIR (its ``--output_path``)
and exits 1 naming every task that has no results or is a failed task (chronotasks/failures.py:
a failure metric over the threshold, 0.5 by default; ``--max-failure`` or
``$CHRONOTASKS_MAX_FAILURE``), each with a one-line cause when the run left one: the real error
from the run's log (any ``*.log`` file under RUN_DIR, e.g. the quickstart's ``lmms_eval.log``;
lmms-eval buries it in a traceback under ``RetryError[<Future ...>]``), else the reason the
``--log_samples`` files give (a judge's error, the commonest unreadable reply). Exit 0 when every
task has results that stand.

TASKS is a comma list of task and group names as given to ``--tasks`` (groups are expanded through
the results file's ``group_subtasks``); without it, every task of every results file is checked.
Under RUN_DIR the newest results file of each folder is the run (lmms-eval writes one file per
invocation, one folder per model).
"""

from __future__ import annotations

import argparse
import math
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chronotasks import provenance, reporting
from chronotasks.failures import MAX_FAILURE_ENV, failed_metrics, max_failure_rate, task_failure_rates

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_LOGURU = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[.\d]* \| *[A-Z]+ *\| \S+ - ")  # lmms-eval's line prefix
_EXCEPTION = re.compile(r"^(?:[A-Za-z_][\w]*\.)*([A-Z]\w*(?:Error|Exception|Exit)): (.+)$")
_WRAPPERS = ("RetryError",)  # exceptions that only wrap the real one (tenacity, lmms-eval's task loading)


@dataclass
class Problem:
    task: str
    what: str  # "no results" or "judge_failure 1.00 > 0.50"
    cause: str | None = None

    def line(self) -> str:
        return f"{self.task}: {self.what}" + (f" — {self.cause}" if self.cause else "")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run_dir", help="the --output_path folder of an lmms-eval run")
    parser.add_argument("tasks", nargs="?", default=None, help="comma list of the tasks and groups given to --tasks (default: all found)")
    parser.add_argument(
        "--max-failure",
        type=float,
        default=None,
        help=f"largest share of failed samples a task may have (default ${MAX_FAILURE_ENV} or 0.5)",
    )


# -- the run's log ---------------------------------------------------------------------------------
def log_lines(run_dir: Path) -> list[str]:
    """The lines of every ``*.log`` file under ``run_dir`` (oldest file first), without colour codes."""
    lines: list[str] = []
    for path in sorted(run_dir.rglob("*.log"), key=lambda p: p.stat().st_mtime):
        lines += [_ANSI.sub("", line).rstrip() for line in path.read_text(encoding="utf-8", errors="replace").splitlines()]
    return lines


def last_error(lines: list[str]) -> str | None:
    """The last real exception of a log (``DataError: no tabvlm data ...``), not the ``RetryError``
    that wraps it; else lmms-eval's own "Error during evaluation" line."""
    found = None
    for line in lines:
        match = _EXCEPTION.match(line.strip())
        if match and match.group(1) not in _WRAPPERS:
            found = f"{match.group(1)}: {match.group(2)}"
    if found:
        return found
    evaluation = [_LOGURU.sub("", line).strip() for line in lines if "Error during evaluation" in line]
    return evaluation[-1] if evaluation else None


def task_warning(lines: list[str], task: str) -> str | None:
    """The last log line that names ``task`` and says something failed (e.g. the judge's errors)."""
    pattern = re.compile(rf"\b{re.escape(task)}\b.*\bfail")
    found = [line for line in lines if pattern.search(line)]
    return _LOGURU.sub("", found[-1]).strip() if found else None


# -- the samples -----------------------------------------------------------------------------------
def _samples(run: reporting.RunResults, task: str) -> list[dict[str, Any]]:
    path = reporting.samples_file(run, task)
    try:
        return reporting.read_samples(path) if path else []
    except (OSError, ValueError):
        return []


def samples_cause(run: reporting.RunResults, task: str, metric: str) -> str | None:
    """Why the samples of ``task`` failed on ``metric``, from its ``--log_samples`` file."""
    samples = _samples(run, task)
    if metric in ("judge_failure", "judge_parse_failure", "generation_failure"):
        errors = [
            item["verdict"].get("error") or item["verdict"].get("reply")
            for sample in samples
            for item in [sample.get(metric)]
            if isinstance(item, dict)
            and isinstance(item.get("verdict"), dict)
            and item["verdict"].get(metric.replace("judge_parse_failure", "parse_failure"))
        ]
        errors = [str(e) for e in errors if e]
        return f"last: {errors[-1][:300]}" if errors else None
    if metric == "parse_failure":
        replies = Counter()
        for sample in samples:
            if sample.get("parse_failure") == 1:
                reply = sample.get("filtered_resps") or sample.get("resps")
                while isinstance(reply, list) and reply:
                    reply = reply[0]
                replies[" ".join(str(reply).split())[:120]] += 1
        if replies:
            reply, count = replies.most_common(1)[0]
            return f"commonest unreadable reply ({count} of {len(samples)}): {reply!r}"
    return None


# -- the check -------------------------------------------------------------------------------------
def newest_runs(run_dir: Path) -> list[reporting.RunResults]:
    """The newest ``*_results.json`` of each folder under ``run_dir``."""
    newest: dict[Path, Path] = {}
    for path in sorted(run_dir.rglob("*_results.json")):
        if path.parent not in newest or path.stat().st_mtime >= newest[path.parent].stat().st_mtime:
            newest[path.parent] = path
    return [reporting.load_run(path) for path in newest.values()]


def _leaves(name: str, group_subtasks: dict[str, list[str]]) -> list[str]:
    """The tasks under a task or group name (lmms-eval lists a task run on its own with no subtasks)."""
    if not group_subtasks.get(name):
        return [name]
    return [leaf for sub in group_subtasks[name] for leaf in _leaves(sub, group_subtasks)]


def _has_values(task_result: dict[str, Any]) -> bool:
    return any("," in k and "stderr" not in k and isinstance(v, (int, float)) for k, v in task_result.items())


def task_problems(run: reporting.RunResults, tasks: list[str], threshold: float, lines: list[str]) -> list[Problem]:
    """What is wrong with ``tasks`` (leaf tasks) in one results file."""
    found, counts = run.results, run.data.get("n-samples", {})
    problems = []
    for task in tasks:
        result = found.get(task) or {}
        if not _has_values(result) or not (counts.get(task) or {}).get("effective", 1):
            problems.append(Problem(task, "no results", task_warning(lines, task) or last_error(lines)))
            continue
        rates = task_failure_rates(result)
        for metric in failed_metrics(rates, threshold):
            cause = task_warning(lines, task) or samples_cause(run, task, metric)
            problems.append(Problem(task, f"{metric} {rates[metric]:.2f} > {threshold:.2f}: a failed task, its figures are NaN", cause))
    return problems


def check(run_dir: Path, requested: list[str] | None, threshold: float) -> tuple[list[Problem], list[str]]:
    """(problems, the tasks checked) of the run under ``run_dir``."""
    lines = log_lines(run_dir)
    runs = newest_runs(run_dir)
    if not runs:
        return [Problem(str(run_dir), "no lmms-eval results (it exits 0 after an evaluation error)", last_error(lines))], []
    problems: list[Problem] = []
    checked: list[str] = []
    for name in requested or []:
        if not any(name in run.results or name in run.data.get("group_subtasks", {}) for run in runs):
            problems.append(Problem(name, "no results", last_error(lines)))
    for run in runs:
        groups = run.data.get("group_subtasks", {})
        names = [n for n in requested if n in run.results or n in groups] if requested else list(run.results)
        leaves = list(dict.fromkeys(leaf for name in names for leaf in _leaves(name, groups)))
        problems += task_problems(run, leaves, threshold, lines)
        checked += leaves
    return problems, checked


def run(args: argparse.Namespace) -> int:
    run_dir = Path(args.run_dir)
    if not run_dir.exists():
        print(
            f"chronotasks check: error: {run_dir} does not exist: lmms-eval most likely failed before writing any "
            "result (it exits 0 even then); the real error is in the traceback above the last line it printed",
            file=sys.stderr,
        )
        return 1
    if not run_dir.is_dir():
        print(f"chronotasks check: error: {run_dir} is a file, not a folder (give the run's --output_path)", file=sys.stderr)
        return 1
    try:
        threshold = max_failure_rate() if args.max_failure is None else args.max_failure
    except ValueError as err:  # a $CHRONOTASKS_MAX_FAILURE that is not a share
        print(f"chronotasks check: error: {err}", file=sys.stderr)
        return 1
    if not 0.0 <= threshold <= 1.0 or math.isnan(threshold):
        print(f"chronotasks check: error: --max-failure {args.max_failure}: expected a share between 0 and 1", file=sys.stderr)
        return 1
    requested = [t.strip() for t in args.tasks.split(",") if t.strip()] if args.tasks else None
    try:
        problems, checked = check(run_dir, requested, threshold)
    except ValueError as err:  # a results file that is not JSON
        print(f"chronotasks check: error: {err}", file=sys.stderr)
        return 1
    print_provenance(run_dir, checked)
    if problems:
        print(f"FAILED: {len(problems)} problem(s) in {run_dir}:\n  " + "\n  ".join(p.line() for p in problems), file=sys.stderr)
        return 1
    print(f"OK: {len(checked)} task(s) with results in {run_dir}, none with more than {threshold:.0%} failed samples")
    return 0


def print_provenance(run_dir: Path, checked: list[str]) -> None:
    """What produced each checked task (``chronotasks.provenance``), per results file."""
    for found in newest_runs(run_dir):
        tasks = [task for task in checked if task in (found.data.get("configs") or {})]
        if tasks:
            print(f"Provenance ({found.path}):\n  " + "\n  ".join(provenance.lines(found.data, tasks)))


__all__ = ["Problem", "add_arguments", "check", "last_error", "run", "task_problems"]
