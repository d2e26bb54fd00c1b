"""Reading the tables of a `chronotasks report` page back, for the report tests."""

from __future__ import annotations


def table(page: str, title_start: str) -> list[list[str]]:
    """The rows (cells) of the markdown table that follows the line starting with ``title_start``."""
    block = page.split("\n" + title_start, 1)[1].split("\n\n", 2)[1]
    return [[c.strip() for c in line.strip("|").split("|")] for line in block.splitlines()[2:]]


def row(rows: list[list[str]], *labels: str) -> list[str]:
    found = [r for r in rows if r[: len(labels)] == list(labels)]
    assert len(found) == 1, (labels, rows)
    return found[0]


def interval(text: str) -> tuple[float, float, float]:
    """'62.5 [25.0, 100.0] ± 17.7' -> (62.5, 25.0, 100.0)."""
    value, rest = text.split(" [", 1)
    low, high = rest.split("]", 1)[0].split(", ")
    return float(value), float(low), float(high)
