"""Bad input gets one clear error (file and line where there is a file) and the documented
exit code, never a traceback, a runaway or a green run that hides a failure (issue 13).
Processes and in-process adapters: tests/test_hygiene.py, tests/test_inprocess.py."""

from __future__ import annotations

import json
import shutil
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "data" / "fixtures"
MTRAIN = shutil.which("mtrain") or str(Path(sys.executable).with_name("mtrain"))

# Eleven levels of ten aliases each: 10**11 nodes once expanded, a few hundred bytes.
BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{q}: &{q} [{', '.join([f'*{p}'] * 10)}]\n" for p, q in pairwise("abcdefghijkl"))
BOMB_LINE = 5  # where the expansion passes 100,000 nodes (line 1 holds 11)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


def one_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """A usage error: exit 2 and exactly one line on stderr."""
    rc, _, err = run(capsys, *args)
    assert rc == 2, err
    assert err.count("\n") == 1, err
    return err


def copy_fixtures(tmp_path: Path) -> Path:
    root = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, root)
    return root


def conform_json(capsys: pytest.CaptureFixture[str], root: Path,
                 *args: str) -> tuple[int, dict[str, Any]]:
    rc, out, _ = run(capsys, "conform", "--fixtures", str(root), "--format", "json", *args)
    return rc, json.loads(out)


# --- YAML: aliases, encodings, odd files ------------------------------------------------


def test_alias_bomb_in_a_fixture_file_is_a_load_error(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    root = copy_fixtures(tmp_path)
    (root / "bomb.yaml").write_text(BOMB)
    rc, report = conform_json(capsys, root)
    assert rc == 1
    [error] = report["load_errors"]
    assert error.endswith(f"bomb.yaml:{BOMB_LINE}: with its aliases expanded this holds more than "
                          "100,000 nodes (write the data out, or alias less)")
    assert report["summary"]["pass"] == 12  # the other files ran
    rc, out, _ = run(capsys, "lint", str(root))
    assert rc == 1 and f"bomb.yaml:{BOMB_LINE}: with its aliases expanded" in out


def test_alias_bomb_in_a_skip_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    skip = tmp_path / "skip.yaml"
    skip.write_text(BOMB)
    err = one_error(capsys, "conform", "--fixtures", str(FIXTURES), "--skip", str(skip))
    assert f"--skip {skip}:{BOMB_LINE}: with its aliases expanded" in err


def test_alias_bomb_in_a_rule_set_file(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    variant = tmp_path / "mine.yaml"
    variant.write_text("name: mine\ntitle: Mine\nbase: pagat\n" + BOMB)
    err = one_error(capsys, "diff", "pagat", str(variant))
    assert f"{variant}:{BOMB_LINE + 3}: with its aliases expanded" in err


def test_non_utf8_fixture_file_names_the_line_and_the_rest_runs(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = copy_fixtures(tmp_path)
    (root / "basic" / "latin1.yaml").write_bytes(b"# ok\n# caf\xe9\n")
    rc, report = conform_json(capsys, root)
    assert rc == 1
    assert [e.rsplit("/", 1)[-1] for e in report["load_errors"]] == [
        "latin1.yaml:2: not valid UTF-8 (byte 0xe9)"]
    assert report["summary"]["pass"] == 12


def test_folder_named_yaml_and_dangling_link(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    root = copy_fixtures(tmp_path)
    (root / "basic").rename(root / "basic.yaml")  # a folder: walked, not read
    (root / "gone.yaml").symlink_to(tmp_path / "nowhere.yaml")
    rc, report = conform_json(capsys, root)
    assert rc == 1
    [error] = report["load_errors"]
    assert error == f"{root}/gone.yaml: a link to {tmp_path}/nowhere.yaml, which does not exist"
    assert report["summary"]["pass"] == 12


@pytest.mark.parametrize("content, fault", [
    (b"- fixture: basic-001\n  reason: caf\xe9\n", ":2: not valid UTF-8 (byte 0xe9)"),
    (b"- fixture: basic-001\n  reason: one\n  reason: two\n",
     ":3: duplicate key 'reason' (lines 2 and 3)"),
    (b"- fixture: basic-001\n  reason: x\n- fixture: [\n", ":4: YAML syntax error"),
    (b"- fixture: basic-001\n- fixture: deal-001\n  reason: x\n",
     ":1: entry 1: every known failure needs a 'reason'"),
])
def test_bad_skip_files_name_file_and_line(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path, content: bytes, fault: str) -> None:
    skip = tmp_path / "skip.yaml"
    skip.write_bytes(content)
    err = one_error(capsys, "conform", "--fixtures", str(FIXTURES), "--skip", str(skip))
    assert f"--skip {skip}{fault}" in err


def test_empty_skip_file_skips_nothing(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    skip = tmp_path / "skip.yaml"
    skip.write_text("# nothing known to fail\n")
    rc, report = conform_json(capsys, FIXTURES, "--skip", str(skip))
    assert rc == 0 and report["summary"]["pass"] == 12
