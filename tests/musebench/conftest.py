"""Fixtures of the MuseBench tests."""

import json

import pytest

from chronotasks.cli import main


@pytest.fixture
def prepare_musebench(tmp_path, capsys):
    """``prepare_musebench(catalog, *flags, name=...)`` runs `chronotasks prepare musebench` into
    tmp_path/name and returns (prepare_report.json, what it printed, the output folder)."""

    def _run(catalog, *flags, name="musebench"):
        out = tmp_path / name
        assert main(["prepare", "musebench", "--catalog", str(catalog), "--out", str(out), *flags]) == 0
        return json.loads((out / "prepare_report.json").read_text()), capsys.readouterr().out, out

    return _run
