"""Bad inputs and misbehaving engines, round 29 (robust-s57): `mtrain serve` writing its
answers onto a full disk (`> /dev/full`) died of an OSError's traceback."""

from __future__ import annotations

import errno
import io
import sys

import pytest

from mtrain.cli import main

HELLO = b'{"id":1,"type":"hello","protocol":1}\n'


class _Full(io.RawIOBase):
    """A standard output on a full disk: every write fails as /dev/full's does."""

    def writable(self) -> bool:
        return True

    def write(self, data: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


class _Streams:
    """sys.stdin or sys.stdout, as far as serve and the command line use them."""

    def __init__(self, buffer: object) -> None:
        self.buffer = buffer

    def fileno(self) -> int:
        raise io.UnsupportedOperation("no descriptor")

    def flush(self) -> None:
        """Nothing held."""


def test_serve_on_a_full_disk_is_one_line_not_a_traceback(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", _Streams(io.BufferedReader(io.BytesIO(HELLO))))
    monkeypatch.setattr(sys, "stdout", _Streams(_Full()))
    assert main(["serve"]) == 1
    assert capsys.readouterr().err == ("mtrain serve: cannot write the output: No space left "
                                       "on device\n")


def test_serve_told_undeclared_without_rules_is_a_usage_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    # the switch was read by nothing: the server ran, exit 0, as if it had not been given
    assert main(["serve", "--undeclared"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (
        "mtrain serve: error: --undeclared is for --rules FILE (play those rules without "
        "declaring them); without --rules the server declares no rules anyway: it plays the "
        "rule set each request names (see 'mtrain serve --help')\n"), err
