"""What every ``chronotasks prepare <benchmark>`` shares: where it reads (the published release,
fetched and verified, or ``--source DIR``), where it writes (the data root by default), and how
it downloads (retries, resume, a mirror, "no network" found once).

    chronotasks prepare <b>                    fetch the public release into the download cache, then build
    chronotasks prepare <b> --source DIR       an offline copy: the repository root or its data folder
    chronotasks prepare <b> --out DIR          write elsewhere than <data root>/<b>
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path

from chronotasks.data.fetch import MIRROR_ENV, Downloader, NoNetwork, Release, fetch_release, sha256_of
from chronotasks.data.loading import DataError
from chronotasks.data.locations import downloads_dir, local_data_root


def add_common_arguments(parser: argparse.ArgumentParser, benchmark: str, source_help: str) -> None:
    parser.add_argument("--source", default=None, help=source_help + " (default: download the published release)")
    parser.add_argument(
        "--out",
        default=None,
        help=f"benchmark folder to write (default: <data root>/{benchmark}, the folder the tasks read when CHRONOTASKS_DATA is unset)",
    )
    parser.add_argument("--force", action="store_true", help="replace prepared task files even by fewer records")
    parser.add_argument("--mirror", default=None, help=f"fetch https://HOST/PATH as MIRROR/HOST/PATH (a lab's copy; also ${MIRROR_ENV})")
    parser.add_argument("--retries", type=int, default=3, help="download attempts per file (default 3)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per download attempt (default 30)")
    parser.add_argument("--backoff", type=float, default=1.0, help="first back-off in seconds, doubled per retry (default 1)")


def output_folder(args: argparse.Namespace, benchmark: str) -> Path:
    if args.out:
        return Path(args.out)
    try:
        return local_data_root() / benchmark
    except ValueError as err:
        raise DataError(str(err)) from err


def make_downloader(args: argparse.Namespace, show: Callable[[str], None] = print) -> Downloader:
    def unreachable(host: str, why: str) -> None:
        show(f"no network: {why}. Nothing more is downloaded from {host} in this run.")

    return Downloader(
        retries=getattr(args, "retries", 3),
        timeout=getattr(args, "timeout", 30.0),
        backoff=getattr(args, "backoff", 1.0),
        mirror=getattr(args, "mirror", None),
        on_unreachable=unreachable,
    )


def fetched_release(release: Release, benchmark: str, downloader: Downloader, show: Callable[[str], None] = print) -> Path:
    """The release files in the download cache (fetched now, or kept from an earlier run), verified."""
    folder = downloads_dir(benchmark) / release.commit[:12]
    try:
        downloader.require(release.url(next(iter(release.files))))
        return fetch_release(release, folder, downloader, show=show)
    except NoNetwork as err:
        raise DataError(
            f"cannot download the {benchmark} release: {err}. No network? Prepare from an offline copy "
            f"instead: chronotasks prepare {benchmark} --source DIR (a copy of {release.home})"
        ) from err


def verify_against(release: Release, files: dict[str, Path]) -> list[str]:
    """Lines saying which of ``files`` ({path in repository: local file}) match the published release."""
    lines = []
    for path, local in files.items():
        expected = release.files.get(path)
        if expected is None:
            continue
        same = sha256_of(local) == expected
        lines.append(
            f"{'verified' if same else 'DIFFERS from the published release'}: {local}"
            + ("" if same else f" (not {release.repository}@{release.commit[:7]}:{path}; counts below are checked)")
        )
    return lines


def first_existing(source: Path, candidates: list[str], test: Callable[[Path], bool]) -> Path | None:
    """The first of ``source/<candidate>`` that passes ``test`` (the release root or an inner folder)."""
    for candidate in candidates:
        folder = source / candidate if candidate else source
        if folder.is_dir() and test(folder):
            return folder
    return None


def listing(folder: Path, most: int = 12) -> str:
    """A short listing of a folder for error messages ("found: a/, b.json, ...")."""
    if not folder.exists():
        return "(it does not exist)"
    if not folder.is_dir():
        return "(it is a file)"
    names = sorted(p.name + ("/" if p.is_dir() else "") for p in folder.iterdir())
    if not names:
        return "(it is empty)"
    return ", ".join(names[:most]) + (f", ... ({len(names)} entries)" if len(names) > most else "")


def where_tasks_read(out: Path, benchmark: str) -> str:
    """A sentence saying whether the tasks will find ``out`` with the current data root."""
    from chronotasks.data.locations import DATA_ENV, data_root_spec

    spec = data_root_spec()
    if not spec.startswith("hf://") and out.resolve() == (Path(spec).expanduser() / benchmark).resolve():
        return "The tasks read it from there" + ("" if os.environ.get(DATA_ENV) else " (no environment variable needed)") + "."
    return f"The tasks read {spec}/{benchmark}; point them here with: export {DATA_ENV}={out.resolve().parent}" + (
        "" if out.name == benchmark else f" (and name the folder {benchmark})"
    )


def inner_path(release: Release, path: str) -> str:
    """A repository path without the release's inner folder ("data/x.csv" -> "x.csv")."""
    prefix = release.inner.rstrip("/") + "/" if release.inner else ""
    return path[len(prefix) :] if prefix and path.startswith(prefix) else path


def published_files(release: Release, inner: Path) -> dict[str, Path]:
    """{repository path: file under the inner folder} for the release files present there."""
    found = {path: inner / inner_path(release, path) for path in release.files}
    return {path: local for path, local in found.items() if local.is_file()}
