"""Inputs the earlier robustness rounds let through (robust-s38): each is refused by name,
at its file and line where it has one, never read past nor met with a traceback, and a
long bad text is quoted by a readable prefix and its length, not whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.spec.errors import cut_long_runs, shown

LONG = "z" * 5000


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one line a refused command prints: exit 2, no traceback."""
    try:
        rc = main(list(args))
    except SystemExit as e:
        rc = e.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert rc == 2 and "Traceback" not in out + err, (rc, out[-500:], err[-500:])
    return err.strip().splitlines()[0]


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- an unknown option is said to be unknown, whatever its value -----------------------


@pytest.mark.parametrize("value", ["5", "[single]", "{a: 1}", "double-9"])
def test_an_unknown_option_in_a_rules_file_is_unknown_whatever_its_value(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, value: str) -> None:
    # `tile_sett: 5` said "options.tile_sett: expected a string or a mapping, got an
    # integer": the schema's complaint about the value came before the misspelt name
    rules = write(tmp_path / "r.yaml", f"name: x\nbase: pagat\noptions:\n  tile_sett: {value}\n")
    line = refused(capsys, "rules", rules)
    assert line.startswith(f"mtrain rules: {rules}:4: unknown option 'tile_sett'; known: "
                           "tile_set,"), line
    assert "expected" not in capsys.readouterr().err


def test_an_option_named_by_a_number_is_refused_without_a_traceback(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rules = write(tmp_path / "r.yaml", "name: x\nbase: pagat\noptions:\n  5: single\n")
    assert f"{rules}:4: unknown option 5" in refused(capsys, "rules", rules)


def test_an_unknown_option_in_a_fixtures_when_is_unknown_whatever_its_value(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    fixture = write(tmp_path / "f.yaml", """\
- id: robust-001
  description: an unknown option under when, with a number for its value
  clauses: [TURN-1]
  source: [pagat]
  table:
    hands:
      0: [1-0]
      1: [2-0]
  expect:
    - variants: [pagat]
      when:
        - {tile_sett: 5}
      legal: [draw]
""")
    main(["lint", fixture])
    err = capsys.readouterr().out
    assert f"{fixture}:12: `when` names unknown option 'tile_sett'" in err, err
    assert "expected a string or a list" not in err


# --- a long bad text is cut to a prefix and its length --------------------------------


def test_a_long_unknown_value_in_a_rules_file_is_cut(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    rules = write(tmp_path / "r.yaml", f"name: x\nbase: pagat\noptions:\n  first_turn: {LONG}\n")
    line = refused(capsys, "rules", rules)
    assert f"{rules}:4: unknown value 'zzz" in line and "(5,000 characters)" in line
    assert len(line) < 400 + len(rules), len(line)


@pytest.mark.parametrize("args", [["explain", LONG], ["conform", "--variant", LONG],
                                  ["diff", "pagat", LONG], ["state", LONG],
                                  ["simulate", "--variant", LONG, "--rounds", "1"]])
def test_a_long_unknown_name_on_the_command_line_is_cut(capsys: pytest.CaptureFixture[str],
                                                        args: list[str]) -> None:
    line = refused(capsys, *args)
    assert "(5,000 characters)" in line and len(line) < 400, line


@pytest.mark.parametrize("args", [["docs", "--out", LONG], ["lint", LONG],
                                  ["conform", "--output", LONG],
                                  ["conform", "--skip", LONG], ["serve", "--rules", LONG],
                                  ["fuzz", "--mutant", "wrong-engine-double", "--out", LONG]])
def test_a_path_too_long_for_the_file_system_is_refused_and_cut(
        capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    # `docs --out` with a 5,000-character name was a traceback (OSError: File name too
    # long, from checking the folder); the others quoted the whole name
    line = refused(capsys, *args)
    assert "(5,000 characters)" in line and len(line) < 400, line
    assert "too long" in line.lower(), line


def test_shown_and_cut_long_runs() -> None:
    assert shown("pagat") == "'pagat'"
    assert shown(LONG) == f"'{'z' * 59}... (5,000 characters)"
    assert shown(12) == "12"
    assert cut_long_runs(f"--out {LONG}: File name too long") == (
        f"--out {'z' * 60}... (5,000 characters): File name too long")
    text = "known: " + ", ".join(["double-12"] * 40)  # spaced: left whole
    assert cut_long_runs(text) == text


def test_serve_cuts_a_long_bad_request_type_and_field(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import json
    lines = [json.dumps({"id": 1, "type": LONG}),
             json.dumps({"id": 2, "type": "hello", "protocol": 1, LONG: 1}),
             json.dumps({"id": 3, "type": "shutdown"})]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(
        ("\n".join(lines) + "\n").encode())))
    main(["serve"])
    answers = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    for answer in answers[:2]:
        message = answer["error"]["message"]
        assert answer["ok"] is False and "(5,000 characters)" in message, message
        assert len(message) < 300, len(message)


def test_a_long_name_an_implementation_gives_itself_is_cut_in_the_report(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    adapter = write(tmp_path / "longname.py", f"""\
from mtrain.conformance.adapter import ReferenceImplementation


class Engine(ReferenceImplementation):
    def info(self):
        return {{**super().info(), "name": "{LONG}"}}
""")
    main(["conform", "--adapter", f"{adapter}:Engine", "--variant", "pagat", "-k",
          "marker-001"])
    head = capsys.readouterr().out.splitlines()[0]
    assert "(5,000 characters)" in head and len(head) < 300 + len(adapter), head


@pytest.mark.parametrize("entry, said", [
    # keys of two types could not be sorted: a traceback
    ("{fixture: a, reason: b, 1: x, z: y}", "entry 1: unknown key 1"),
    # a reason of the wrong type was "needs a 'reason'", which it has
    ("{fixture: a, reason: [x]}", "entry 1: 'reason' must be text, got ['x']"),
    (LONG, "(5,000 characters)")])
def test_a_bad_skip_entry_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                   entry: str, said: str) -> None:
    skip = write(tmp_path / "skip.yaml", f"- {entry}\n")
    line = refused(capsys, "conform", "--skip", skip, "-k", "marker-001")
    assert f"--skip {skip}:1: " in line and said in line and len(line) < 300, line
