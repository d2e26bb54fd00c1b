"""Checking that a `chronotasks` command fails as a user should see it: exit status 1 and one line on stderr."""

from __future__ import annotations

import re


def one_line_error(capsys, argv: list[str], pattern: str) -> str:
    """Run ``chronotasks ARGV`` in-process; it must return 1 and print one line matching ``pattern``, no traceback."""
    from chronotasks.cli import main

    capsys.readouterr()
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert re.search(pattern, err), err
    return err
