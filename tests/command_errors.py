"""What the bad-input tests (tests/test_robust_s49.py onwards) share: a file written for a
command to read, the one line a command that stops at once writes, a bound on waits, and a
one-fixture corpus."""

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


def plays(fid: str = "ends-001", variants: str = "pagat", before_state: str = "") -> str:
    """A fixture whose clause is not the train's: the play ends the turn (a small corpus),
    expected under `variants` (written as a list's items), with `before_state` (lines)
    in its expectation before the state."""
    return f"""\
- id: {fid}
  description: After an ordinary play the turn passes to the next seat
  clauses: [TURN-6]
  source: [pagat]
  note: Seat 0 lays [5-3] on its own train (ends 5 -> 3); not a double, so the turn ends.
  table:
    hands:
      0: [5-3, 9-1]
      1: [11-11, 10-0]
    trains:
      0: [12-5]
      1: [12-3]
  steps:
    - play 5-3 on 0
  expect:
    - variants: [{variants}]
{before_state}      state:
        seat: 1
"""


PLAYS = plays()
"""The fixture under pagat alone."""
