"""Bad inputs and misbehaving engines, round 29 (robust-s57): `mtrain serve` writing its
answers onto a full disk (`> /dev/full`) died of an OSError's traceback; `serve
--undeclared` without `--rules` was read by nothing; a report or rule-set file that a full
disk cut short was left where the whole one belonged."""

from __future__ import annotations

import errno
import io
import sys
from pathlib import Path
from typing import TextIO

import pytest

from mtrain.cli import main
from mtrain.conformance.outputs import write_file, write_output
from mtrain.spec.errors import InputError

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


# --- an output cut short by a full disk --------------------------------------------------


def test_an_output_file_a_full_disk_cut_short_is_taken_away(tmp_path: Path) -> None:
    # conform --output, identify --output and every --out left the part written (an empty
    # report.xml, half a rule-set file) beside the one line saying the write failed
    out = tmp_path / "report.xml"
    out.write_text("the last run's report\n", encoding="utf-8")

    def half(f: TextIO) -> None:
        f.write("<testsuites>")
        f.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(InputError) as info:
        write_output(str(out), "--output", half)
    assert str(info.value) == f"--output {out}: No space left on device"
    assert not out.exists()


def test_an_output_that_cannot_be_opened_leaves_what_is_there(tmp_path: Path) -> None:
    with pytest.raises(InputError) as info:
        write_output(str(tmp_path), "--out", lambda f: f.write("x"))
    assert str(info.value) == f"--out {tmp_path}: Is a directory"
    assert tmp_path.is_dir()


def test_an_output_written_whole_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "found.yaml"
    write_output(str(out), "--output", lambda f: f.write("name: x\n"))
    assert out.read_text(encoding="utf-8") == "name: x\n"


def test_a_file_a_full_disk_cut_short_is_taken_away_and_the_error_raised(
        tmp_path: Path) -> None:
    # fuzz's reproducers on a full disk: each attempt left an empty file, whose name the
    # next attempt took as used (42 empty files for one finding)
    out = tmp_path / "fuzz-x-0-001.yaml"

    def half(f: TextIO) -> None:
        f.write("- id: fuzz-x-0-001\n")
        f.flush()
        raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError) as info:
        write_file(out, half)
    assert info.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []
