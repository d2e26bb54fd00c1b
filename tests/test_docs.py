"""The documents a newcomer reads: README short, every link in the docs leads somewhere, nothing points
outside the repository, every command the README names exists, and each benchmark README cites its paper."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chronotasks.benchmarks.cards import CARDS
from chronotasks.cli import build_parser

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
README_LIMIT = 15 * 1024  # bytes: the README says what chronotasks is and how to start; the rest is in docs/
BENCHMARKS = ("tabvlm", "chronovision", "musebench", "tempviz")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def user_docs() -> list[Path]:
    """Every markdown file a user or contributor reads (the parse corpus's own README is a test fixture's)."""
    docs = [README, REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").rglob("*.md"))]
    return docs + sorted((REPO / "chronotasks" / "tasks").glob("*/README.md"))


def slug(heading: str) -> str:
    """The anchor GitHub gives a markdown heading."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", text, flags=re.M)}


def test_readme_is_short():
    size = len(README.read_bytes())
    assert size <= README_LIMIT, f"README.md is {size} bytes (limit {README_LIMIT}): move detail into docs/"


def test_readme_links_into_docs_and_every_docs_page_is_linked():
    targets = {m.group(1).split("#")[0] for m in LINK.finditer(README.read_text(encoding="utf-8"))}
    pages = {str(p.relative_to(REPO)) for p in (REPO / "docs").glob("*.md")}
    assert pages and pages <= targets, f"docs pages the README does not link: {sorted(pages - targets)}"


@pytest.mark.parametrize("doc", user_docs(), ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_resolves(doc):
    broken = []
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        resolved = (doc.parent / path).resolve() if path else doc
        if not resolved.exists():
            broken.append(f"{target}: no file {resolved}")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{target}: no heading with anchor #{anchor} in {resolved.relative_to(REPO)}")
    assert not broken, f"{doc.relative_to(REPO)}: " + "; ".join(broken)


@pytest.mark.parametrize("doc", user_docs(), ids=lambda p: str(p.relative_to(REPO)))
def test_docs_point_only_inside_the_repository(doc):
    """A user's clone has nothing beside it, and a tracker's issue numbers mean nothing to its reader."""
    text = doc.read_text(encoding="utf-8")
    found = re.findall(r"\.\./shared|shared/(?:papers|seed-data)|DESIGN\.md|\bissues? #?\d+", text, flags=re.I)
    assert not found, f"{doc.relative_to(REPO)} names {found}"


def test_every_chronotasks_command_in_the_readme_exists():
    commands = set(build_parser("tasks-path")._subparsers._group_actions[0].choices)
    named = set(re.findall(r"`chronotasks ([a-z][a-z-]*)", README.read_text(encoding="utf-8")))
    assert named and named <= commands, f"README names commands the CLI lacks: {sorted(named - commands)}"


@pytest.mark.parametrize("folder", BENCHMARKS)
def test_each_benchmark_readme_gives_its_papers_bibtex(folder):
    text = (REPO / "chronotasks" / "tasks" / folder / "README.md").read_text(encoding="utf-8")
    assert "## Paper and citation" in text
    assert f"```bibtex\n{CARDS[folder]['citation']}\n```" in text, f"{folder}'s README: BibTeX differs from cards.py"
