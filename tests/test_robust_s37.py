"""Inputs the earlier robustness rounds let through (robust-s37): each is refused by name,
never read past nor met with a traceback."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mtrain.cli import main

HERE = Path(__file__).resolve().parent
BROKEN = HERE / "broken_impls"
FIXTURES = HERE / "data" / "fixtures"
MTRAIN = str(Path(sys.executable).with_name("mtrain"))


def usage_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """What a refused command line prints: exit 2, no traceback, one message (argparse
    raises SystemExit after its usage lines; our own InputError is one line)."""
    try:
        rc = main(list(args))
    except SystemExit as e:
        rc = e.code  # type: ignore[assignment]
    out, err = capsys.readouterr()
    assert rc == 2 and "Traceback" not in out + err, (rc, out, err)
    return err.splitlines()[-1]


# --- seeds and seconds out of range -------------------------------------------------------


@pytest.mark.parametrize("command", [["fuzz", "--mutant", "wrong-engine-double"],
                                     ["simulate", "--variant", "pagat"]])
@pytest.mark.parametrize("seed", ["-1", "9" * 260])
def test_a_seed_out_of_range_is_refused(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path, command: list[str],
                                        seed: str) -> None:
    # -1 played seed 1's games under another name (Python's random takes the seed's size);
    # a seed of 260 digits named a reproducer file longer than a name may be (a traceback
    # once a finding was written).
    err = usage_error(capsys, *command, "--seed", seed, "--out" if command[0] == "fuzz"
                      else "--rounds", str(tmp_path / "out") if command[0] == "fuzz" else "1")
    assert "--seed" in err and ("from 0 to 9,223,372,036,854,775,807" in err
                                or "at least 0" in err or "too large" in err), err


@pytest.mark.parametrize("option, value", [("--shrink-seconds", "nan"),
                                           ("--shrink-seconds", "inf"),
                                           ("--max-seconds", "inf"),
                                           ("--max-seconds", "nan")])
def test_fuzz_seconds_that_are_no_time_are_refused(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path, option: str,
                                                   value: str) -> None:
    # nan passed `< 0` and inf `> 0`: both were taken, nan as a shrink that never stops.
    err = usage_error(capsys, "fuzz", "--mutant", "wrong-engine-double", "--games", "1",
                      "--out", str(tmp_path / "out"), option, value)
    assert err.startswith(f"mtrain fuzz: {option}") and "finite" in err, err


# --- fixture files -------------------------------------------------------------------------


@pytest.mark.parametrize("refusal, unknown", [("draw: TURN-1", "draw: NOPE-99"),
                                              ("draw: TURN-1", "draw: [TURN-1, ZZ-3]")])
def test_a_refusal_naming_no_clause_is_the_fixtures_fault_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, refusal: str,
        unknown: str) -> None:
    # lint --no-scopes passed it (only `clauses:` was looked up) and conform charged the
    # implementation with "refused by TURN-1, expected NOPE-99": a slip of the fixture.
    text = (FIXTURES / "basic" / "play.yaml").read_text().split("\n- id: basic-002")[0]
    assert refusal in text
    path = tmp_path / "play.yaml"
    path.write_text(text.replace(refusal, unknown))
    line = 1 + text[:text.index(refusal)].count("\n")
    bad = unknown.split(": ")[1].strip("[]").split(", ")[-1]
    rc = main(["lint", "--no-scopes", str(path)])
    out = capsys.readouterr().out
    assert rc == 1 and f"{path}:{line}: fixture basic-001: unknown clause {bad}:" in out, out
    rc = main(["conform", "--fixtures", str(path), "--impl", f"{MTRAIN} serve",
               "--format", "json"])
    out = capsys.readouterr().out
    assert rc == 1 and "no fixture could be loaded" in out and f"unknown clause {bad}" in out


# --- requests to serve ---------------------------------------------------------------------


@pytest.mark.parametrize("written", ["\u0669-1", "\uff19-1", "9-1 ", " 9-1", "09-1", "9 -1",
                                     "9-1\n", "9" * 5000 + "-1"])
def test_a_tile_written_other_than_the_schema_says_is_not_a_tile(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, written: str) -> None:
    # int() read an Arabic-Indic or full-width 9, a space or a leading zero as the tile 9-1
    # (serve answered as if 9-1 had been written), and 5,000 digits as Python's own limit
    # message. The hand is [9-1, 5-3].
    from mtrain.conformance.protocol import decode, encode
    from mtrain.conformance.serve import Server

    server = Server()
    server.handle(b'{"type":"hello","id":0,"protocol":1}\n')
    path = tmp_path / "legal.json"
    assert main(["state", "basic-001", "--fixtures", str(FIXTURES), "--as", "legal",
                 "--out", str(path)]) == 0
    request = json.loads(path.read_text())
    assert request["state"]["hands"][0] == ["9-1", "5-3"]
    request["state"]["hands"][0][0] = written
    answer, _ = server.handle(encode(request))
    answer = decode(encode(answer))
    assert answer["ok"] is False and answer["error"]["kind"] == "bad-request", answer
    assert answer["error"]["message"].startswith(
        f"legal: state.hands[0][0]: not a tile: {written!r}"), answer
