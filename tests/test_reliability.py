"""Bad input gets one clear error (file and line where there is a file) and the documented
exit code, never a traceback, a runaway or a green run that hides a failure (issue 13).
Processes and in-process adapters: tests/test_process_groups.py, tests/test_inprocess.py."""

from __future__ import annotations

import io
import json
import shlex
import shutil
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.adapter import ReferenceImplementation, RefusedSetup, ruleset_json
from mtrain.conformance.serve import Server, serve
from mtrain.reference.codec import MAX_SEATS, StateError
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import table_state
from mtrain.spec.ruleset import CUSTOM

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "data" / "fixtures"
ADAPTERS = HERE / "broken_impls" / "adapters.py"
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
    assert error.endswith(f"bomb.yaml:{BOMB_LINE}: its aliases expand to more than "
                          "100,000 nodes (write the data out, or alias less)")
    assert report["summary"]["pass"] == 12  # the other files ran
    rc, out, _ = run(capsys, "lint", str(root))
    assert rc == 1 and f"bomb.yaml:{BOMB_LINE}: its aliases expand to more" in out


def test_alias_bomb_in_a_skip_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    skip = tmp_path / "skip.yaml"
    skip.write_text(BOMB)
    err = one_error(capsys, "conform", "--fixtures", str(FIXTURES), "--skip", str(skip))
    assert f"--skip {skip}:{BOMB_LINE}: its aliases expand to more" in err


def test_alias_bomb_in_a_rule_set_file(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    variant = tmp_path / "mine.yaml"
    variant.write_text("name: mine\ntitle: Mine\nbase: pagat\n" + BOMB)
    err = one_error(capsys, "diff", "pagat", str(variant))
    assert f"{variant}:{BOMB_LINE + 3}: its aliases expand to more" in err


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


# --- the state codec: every field's type and range ------------------------------------

D9 = catalog().ruleset("puremco-d9")
RJ = ruleset_json(D9)
# The last round of a puremco-d9 match: seat 0 holds only [4-0].
STATE = table_state({"engine": 0, "hands": {0: ["0-4"], 1: ["3-3", "2-1"]},
                     "trains": {1: ["0-5"]}, "scores": [30, 12], "outs": [4, 5]}, D9)
OVER = ReferenceImplementation().apply(RJ, STATE, {"type": "play", "tile": "4-0", "train": 0})


def state_error(state: dict[str, Any], ruleset: dict[str, Any] = RJ) -> str:
    """The message of the bad-request answer `mtrain serve` gives, which is also what
    the reference engine raises (never an internal error)."""
    with pytest.raises(StateError) as e:
        ReferenceImplementation().legal(ruleset, state)
    answer, stop = Server().handle(json.dumps(
        {"id": 1, "type": "legal", "ruleset": ruleset, "state": state}))
    assert not stop and answer["error"]["kind"] == "bad-request"
    assert answer["error"]["message"] == f"legal: {e.value}"
    return str(e.value)


def test_more_seats_than_any_rule_set_deals_to() -> None:
    pagat = catalog().ruleset("pagat")
    table: dict[str, Any] = {"boneyard": [],
                             "hands": {s: ["rest"] if s == 0 else [] for s in range(21)}}
    state = table_state(table, pagat)
    assert MAX_SEATS == 20  # rules.schema.json: a hand-size table lists at most 20 players
    assert state_error(state, ruleset_json(pagat)) == (
        "state.hands: 21 hands, but a table has at most 20 seats (the most any rule set "
        "deals to)")
    del table["hands"][MAX_SEATS]
    reference = ReferenceImplementation()
    with pytest.raises(RefusedSetup) as refused:  # pagat deals to 2..10 players only
        reference.legal(ruleset_json(pagat), table_state(table, pagat))
    assert refused.value.clause == "DEAL-7"
    twenty = catalog().from_values({**dict(pagat.choices), "hand_sizes": CUSTOM}, "twenty",
                                   ((20, 4),))  # 80 tiles of 91: a table can deal to 20
    assert reference.legal(ruleset_json(twenty), table_state(table, twenty))


@pytest.mark.parametrize("change, fault", [
    ({"passes": -4}, "state.passes: -4 is not a count of passes 0..2147483647"),
    ({"passes": 10**400}, "state.passes: 1000"),
    ({"passes": True}, "state.passes has the wrong type: True"),
    ({"scores": [-1, 0]}, "state.scores[0]: -1 is not in 0..2147483647"),
    ({"scores": [2**31, 0]}, "state.scores[0]: 2147483648 is not in 0..2147483647"),
    ({"outs": [0, 11]}, "state.outs[1]: 11 is not in 0..10"),
    ({"outs": [0, False]}, "state.outs must be a list of 2 integers"),
    ({"first_turns": [True]}, "state.first_turns: True is not a seat 0..1"),
    ({"trains": [{"tiles": [], "end": False, "marker": False},
                 {"tiles": ["0-5"], "end": 5, "marker": False}]},
     "state.trains[0].end: False but the tiles end in 0"),
])
def test_counts_are_checked(change: dict[str, Any], fault: str) -> None:
    assert state_error({**STATE, **change}).startswith(fault)


def test_passes_are_bounded_by_the_seats_where_passes_end_the_round() -> None:
    rs = catalog().ruleset("puremco-d9+passes-end-round")
    state = table_state({"engine": 0, "hands": {0: ["0-4"], 1: ["rest"]},
                         "trains": {1: ["0-5"]}, "boneyard": [], "passes": 1}, rs)
    assert ReferenceImplementation().legal(ruleset_json(rs), {**state, "passes": 2})
    assert state_error({**state, "passes": 3}, ruleset_json(rs)) == (
        "state.passes: 3 is not a count of passes 0..2")


@pytest.mark.parametrize("winner, fault", [
    (99, "state.result.winner: 99 is not a seat 0..1 (a round that went out has a winner)"),
    (True, "state.result.winner: True is not a seat 0..1 (a round that went out has a winner)"),
    ("zero", "state.result.winner: 'zero' is not a seat 0..1 (a round that went out has a winner)"),
    ([0], "state.result.winner: [0] is not a seat 0..1 (a round that went out has a winner)"),
    (None, "state.result.winner: None is not a seat 0..1 (a round that went out has a winner)"),
    (1, "state.result.winner: seat 1 still holds tiles, so it did not go out [END-1]"),
])
def test_the_winner_is_a_seat_that_went_out(winner: Any, fault: str) -> None:
    result = {**OVER["result"], "winner": winner}
    assert state_error({**OVER, "result": result}) == fault


def test_a_blocked_round_has_no_winner() -> None:
    result = {**OVER["result"], "end": "blocked"}
    assert state_error({**OVER, "result": result}) == (
        "state.result.winner: 0, but a blocked round has no winner (null)")
    result["winner"] = None
    assert ReferenceImplementation().legal(RJ, {**OVER, "result": result}) == []


def test_a_request_nested_200000_deep_is_a_bad_request() -> None:
    server = Server()
    line = '{"id": 1, "type": "legal", "state": ' + "[" * 200_000 + "]" * 200_000 + "}"
    answer, stop = server.handle(line)
    assert not stop and answer["error"]["kind"] == "bad-request"
    assert "nested too deeply" in answer["error"]["message"]
    out = io.BytesIO()
    hello = json.dumps({"id": 2, "type": "hello", "protocol": 1})
    assert serve(io.BytesIO(f"{line}\n{hello}\n".encode()), out) == 0
    assert [json.loads(x)["id"] for x in out.getvalue().splitlines()] == [None, 2]


# --- fuzz: a crash is never "0 disagreements" -------------------------------------------


def broken(script: str, *args: object) -> str:
    return shlex.join([sys.executable, str(HERE / "broken_impls" / script), *map(str, args)])


# The hanging program must have started and written its stderr line before the timeout
# for the hint to be given: 3 s leaves room for a Python start-up on a loaded machine (0.5 s
# failed once at load 20); the wait is sleep, not CPU.
@pytest.mark.parametrize("script, args, timeout, fault", [
    ("crash_at_start.py", (), "0.5", "did not start (crash): while starting: the "
     "implementation exited with code 3, before answering the hello request"),
    ("hang.py", (1,), "3", "did not start (timeout): while starting: no answer to the hello "
     "request within 3 s (--start-timeout) (it wrote to stderr after the request, nothing "
     "to stdout: if it answered, flush stdout after every answer; an answer left in its "
     "output buffer never arrives); the implementation was killed"),
])
def test_fuzz_against_a_program_that_fails_at_start(capsys: pytest.CaptureFixture[str],
                                                    script: str, args: tuple[int, ...],
                                                    timeout: str, fault: str) -> None:
    rc, _, err = run(capsys, "fuzz", "--impl", broken(script, *args), "--timeout", timeout,
                     "--start-timeout", timeout, "--games", "1")
    assert rc == 2  # a configuration error: nothing could be fuzzed
    assert err.startswith(f"mtrain fuzz: the implementation {fault}")


def test_fuzz_fails_when_the_implementation_crashed(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    # Only the first process crashes: asked again, the next one agrees with the reference.
    impl = broken("crash_mid_run.py", 30, tmp_path / "marker")
    rc, out, _ = run(capsys, "fuzz", "--impl", impl, "--games", "1", "--variant",
                     "puremco-d9", "--players", "2", "--out", str(tmp_path / "out"))
    assert rc == 1  # the crash is a finding of its own, though the next process agrees
    assert "crash on" in out and "exited with code 7" in out


def test_an_infinite_timeout_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:  # argparse: the usage, then the error
        main(["conform", "--impl", "x", "--timeout", "inf"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "must be a positive number of seconds: 'inf'" in err
    assert one_error(capsys, "fuzz", "--impl", "x", "--timeout", "inf") == (
        "mtrain fuzz: error: --shrink-seconds and --timeout must be positive (and finite) "
        "(see 'mtrain fuzz --help')\n")


# --- outputs: missing folders, broken pipes ---------------------------------------------


@pytest.mark.parametrize("args", [
    ["conform", "--fixtures", str(FIXTURES), "--output", "{tmp}/missing/report.json",
     "--format", "json"],
    ["conform", "--fixtures", str(FIXTURES), "--output", "{tmp}/missing/report.txt"],
    ["render", "basic-001", "--fixtures", str(FIXTURES), "--out", "{tmp}/missing/x.svg"],
])
def test_an_output_into_a_missing_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         args: list[str]) -> None:
    err = one_error(capsys, *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert err.endswith(f": no such folder: {tmp_path}/missing\n")


def test_outputs_that_are_folders_or_under_files(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    err = one_error(capsys, "conform", "--fixtures", str(FIXTURES), "--output", str(tmp_path))
    assert err == f"mtrain conform: --output {tmp_path}: is a folder; name a file\n"
    (tmp_path / "afile").write_text("")
    err = one_error(capsys, "docs", "--out", str(tmp_path / "afile" / "docs"))
    assert err == (f"mtrain docs: --out {tmp_path}/afile/docs: {tmp_path}/afile is a file, "
                   "not a folder\n")


@pytest.mark.parametrize("adapter, code", [("ForgetsDraw", 1), ("Reference", 0)])
def test_a_broken_pipe_keeps_the_verdict(adapter: str, code: int) -> None:
    # As `mtrain conform | head`, with the reader gone before the report is written.
    argv = [MTRAIN, "conform", "--fixtures", str(FIXTURES), "--adapter",
            f"{HERE / 'broken_impls' / 'adapters.py'}:{adapter}", "-v"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(30) == code, err
    assert err == ""


def test_a_broken_pipe_elsewhere_is_not_success() -> None:
    proc = subprocess.Popen([MTRAIN, "variants", "--json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(30) == 1 and err == ""


# --- fixture expectations against their table -------------------------------------------

BAD_EXPECTATIONS = """\
- id: bad-001
  description: Expectations that this two-seat table cannot meet
  clauses: [TRAIN-2]
  source: pagat
  table:
    hands: {0: [5-3, 9-1], 1: [11-11, 10-0]}
    trains: {0: [12-5], 1: [12-3]}
  steps: [play 5-3 on 7]
  expect:
    - variants: [pagat]
      state:
        hands: {0: [13-13], 5: [9-1]}
        trains: {mexican: [], 3: []}
        scores: [0, 0, 0]
      result: {end: domino, winner: 3}
    - variants: [puremco, puremco-d9]
      legal: [play 5-3 on 4, play 10-3 on mexican]
      winners: [2]
      refused:
        play 5-3 on 7: TRAIN-1
"""


def test_expectations_the_table_cannot_meet_are_load_errors(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(BAD_EXPECTATIONS)
    at = f"{path}:"
    expected = [
        f"{at}1: fixture bad-001: step 1: the train: 7 is not a train (a seat or mexican) at "
        "this table (seats 0..1)",
        f"{at}10: fixture bad-001: expected state.hands[0]: tile '13-13' is not in a "
        "double-12 set (under pagat)",
        f"{at}10: fixture bad-001: expected state.hands: 5 is not a seat at this table "
        "(seats 0..1)",
        f"{at}10: fixture bad-001: expected state.trains: 3 is not a train (a seat or "
        "mexican) at this table (seats 0..1)",
        f"{at}10: fixture bad-001: expected state.scores: expected one value per seat (2), "
        "got [0, 0, 0]",
        f"{at}10: fixture bad-001: expected result.winner: 3 is not a seat at this table "
        "(seats 0..1)",
        f"{at}16: fixture bad-001: expected winners: 2 is not a seat at this table (seats "
        "0..1)",
        f"{at}16: fixture bad-001: expected legal action `play 5-3 on 4`: the train: 4 is "
        "not a train (a seat or mexican) at this table (seats 0..1)",
        f"{at}16: fixture bad-001: expected legal action `play 10-3 on mexican`: the tile: "
        "tile '10-3' is not in a double-9 set (under puremco-d9)",
    ]
    rc, report = conform_json(capsys, path)
    assert rc == 1 and report["results"] == []  # nothing blamed on the implementation
    assert sorted(report["load_errors"]) == sorted(expected)
    rc, out, _ = run(capsys, "lint", str(path))
    assert rc == 1
    assert sorted(x.removeprefix("error: ") for x in out.splitlines()
                  if x.startswith("error: ")) == sorted(expected)


def test_the_shipped_corpus_meets_its_tables(capsys: pytest.CaptureFixture[str]) -> None:
    # the tables only: the scope check of the corpus is tests/test_fixtures.py's
    _, out, _ = run(capsys, "lint", "--json", "--no-scopes")
    report = json.loads(out)
    assert report["errors"] == [] and report["scopes"] is None


def test_hands_and_trains_read_before_are_read_again_for_their_own_set() -> None:
    """The codec remembers the hands and trains it has read, by their texts: the same
    texts under a smaller set are refused all the same (SET-1)."""
    pagat, d9 = catalog().ruleset("pagat"), catalog().ruleset("puremco-d9")
    state = table_state({"engine": 9, "hands": {0: ["12-11"], 1: ["rest"]},
                         "trains": {0: ["9-12", "12-10"]}, "boneyard": []}, pagat)
    assert ReferenceImplementation().legal(ruleset_json(pagat), state)  # read, remembered
    as_d9 = {**state, "round": 1, "hands": [state["hands"][0], []]}
    d9_json = ruleset_json(d9)
    assert state_error(as_d9, d9_json).startswith("state.hands[0][0]: tile '12-11' is not")
    as_d9["hands"] = [[], []]
    assert state_error(as_d9, d9_json).startswith("state.trains[0].tiles[0]: tile '9-12' is not")


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc")
@pytest.mark.parametrize("args", [
    ["identify", "--adapter", f"{ADAPTERS}:Reference", "--output", "/proc/found.yaml"],
    ["conform", "--fixtures", str(FIXTURES), "--output", "/proc/report.txt"],
])
def test_an_output_where_nothing_can_be_written_is_refused_before_the_run(
        capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    # identify ran its minutes, then failed to write what it found
    start = time.process_time()
    err = one_error(capsys, *args)
    assert err.startswith(f"mtrain {args[0]}: {args[-2]} {args[-1]}: cannot write there: "), err
    assert time.process_time() - start < 5  # no fixture was played


def test_an_output_file_is_probed_without_being_changed(tmp_path: Path) -> None:
    from mtrain.conformance.outputs import check_output

    kept = tmp_path / "kept.txt"
    kept.write_text("what was there")
    check_output(str(kept), "--output")
    assert kept.read_text() == "what was there"
    check_output(str(tmp_path / "new.txt"), "--output")
    assert not (tmp_path / "new.txt").exists()
