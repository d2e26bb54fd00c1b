"""The README's install story is true today: chronotasks is not on PyPI yet, so the card's
`pip install chronotasks` cannot work; the README says so, shows the wheel built from a clone with the
file name the build really writes, and the card's model-class line names the `[hf]` extra that
`--model qwen2_5_vl` needs."""

from __future__ import annotations

import re
from pathlib import Path

import tomllib

REPO = Path(__file__).resolve().parents[2]


def _readme() -> str:
    return (REPO / "README.md").read_text(encoding="utf-8")


def test_the_card_names_the_hf_extra_and_says_what_works_today():
    card = _readme().split("\n\n", 3)[2]  # the indented command block under the title paragraph
    assert 'pip install "chronotasks[hf]"' in card and "--model qwen2_5_vl" in card
    assert "today install the wheel built from a clone" in card
    assert "chronotasks is not published on PyPI yet: today `pip install chronotasks` finds no distribution" in _readme()


def test_the_wheel_the_readme_installs_is_the_one_the_build_writes():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wheel = f"dist/chronotasks-{project['version']}-py3-none-any.whl"
    install = _readme().split("## Install", 1)[1].split("\n## ", 1)[0]
    assert "python3 -m pip wheel --no-deps -w dist ." in install
    assert f'python3 -m pip install -c constraints.txt "{wheel}[hf]"' in install
    assert "hf" in project["optional-dependencies"] and any(r.startswith("qwen-vl-utils") for r in project["optional-dependencies"]["hf"])
    assert re.search(
        r"Once published, `pip install chronotasks` \(or `pip install \"chronotasks\[hf\]\"`\) installs the same wheel", install
    )
