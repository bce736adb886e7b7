"""What the bad-input tests (tests/test_robust_s49.py onwards) share: a file written for a
command to read, the one line a command that stops at once writes, and a bound on waits."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtrain.cli import main

FAR = 120
"""A bound on a wait for an event (a process's answer), far above the need: it only keeps
a broken run from hanging the suite."""


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def one_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one line a command that stops at once writes (exit 2, nothing on stdout)."""
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (code, out[-800:], err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err
