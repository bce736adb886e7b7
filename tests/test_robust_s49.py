"""Inputs the earlier robustness rounds let through (robust-s49): a hello answered without
`version` (or with a number for it) errored every result, three starts over; a hello that
timed out ran on, reporting that timeout under every rule set of the corpus (~2,000
results "ran"), the run's failure said nowhere once; the pytest plugin's message named the
command line's --start-timeout, an option pytest refuses."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from command_errors import FAR, PLAYS, one_error, plays, write

from mtrain.cli import main
from mtrain.conformance.process import ImplementationTimeout, ProcessImplementation

SILENT = [sys.executable, "-c", "import signal; signal.pause()"]
"""A program that never answers anything, its hello included, nor reads it (one that read
it is told otherwise, robust-s53)."""

# answers its hello with the fields given as JSON in argv[1] over a correct answer's
HELLO = """\
import json, sys
change = json.loads(sys.argv[1])
for line in sys.stdin:
    r = json.loads(line)
    answer = {"id": r["id"], "ok": True, "protocol": 1, "name": "h", "version": "1",
              "variants": ["*"]}
    answer.update(change)
    print(json.dumps({k: v for k, v in answer.items() if v is not None}), flush=True)
"""





# --- 1. a hello answer that is not one: one error at the start --------------------------------


@pytest.mark.parametrize("change, said", [
    ({"version": None}, "a hello answer needs 'version' (protocol, name and version, then "
     "rules or variants); got keys ['id', 'name', 'ok', 'protocol', 'variants']"),
    ({"version": 3}, 'hello.version must be a string ("1.0.0"), got 3'),
    ({"name": ["x"]}, 'hello.name must be a string ("my-engine"), got ["x"]'),
])
def test_a_hello_answer_lacking_version_stops_the_run_once(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, change: dict[str, object],
        said: str) -> None:
    # each result was an error, "while starting: wrong answer shape to the hello request: a
    # hello answer needs 'version'", after three starts; "hello.version must be a string"
    # did not say what it got
    program = shlex.join([sys.executable, write(tmp_path / "hello.py", HELLO),
                          json.dumps(change)])
    out = tmp_path / "report.json"
    err = one_error(capsys, "conform", "--impl", program, "--fixtures",
                    write(tmp_path / "ends.yaml", PLAYS), "--format", "json", "--output",
                    str(out))
    assert err == ("mtrain conform: the implementation's hello failed (error): while "
                   f"starting: wrong answer shape to the hello request: {said}; nothing was "
                   "run\n"), err
    assert not out.exists()


# --- 2. a hello not answered in time: said once, nothing run -----------------------------------


def test_a_hello_that_times_out_stops_conform_saying_so_once(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # it ran on: 1,984 results "ran (1984 timeout)" under every rule set of the corpus, the
    # hello's failure a warning among them (the program never answers: the result is the
    # same at any bound and load; 0.2 s bounds only the test's length)
    out = tmp_path / "report.json"
    err = one_error(capsys, "conform", "--impl", shlex.join(SILENT), "--timeout", str(FAR),
                    "--start-timeout", "0.2", "--output", str(out), "--fixtures",
                    write(tmp_path / "ends.yaml", PLAYS))
    assert err.startswith("mtrain conform: the implementation did not answer the hello "
                          "(timeout): while starting: no answer to the hello request within "
                          "0.2 s (--start-timeout)"), err
    assert err.endswith("; nothing was run\n"), err
    assert not out.exists()


def test_a_hello_failure_quotes_the_last_line_of_stderr_cut_to_its_start(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # a program's last words say why it did not start; a long last line is cut to its start
    program = write(tmp_path / "dies.py", "import sys\nsys.stderr.write('starting\\n')\n"
                    "sys.stderr.write('no licence: ' + '0123456789' * 99 + '\\n')\n"
                    "sys.exit(1)\n")
    err = one_error(capsys, "conform", "--impl", shlex.join([sys.executable, program]),
                    "--fixtures", write(tmp_path / "ends.yaml", PLAYS))
    assert ("exited with code 1, before answering the hello request (its stderr: no licence: "
            "0123456789") in err, err
    assert err.endswith("... (1,002 characters)); nothing was run\n"), err[-400:]
    assert len(err) < 600, err


# --- 3. the plugin's bound named as the plugin names it ----------------------------------------


def test_a_start_timeout_is_named_as_the_flags_given() -> None:
    # the plugin's hello that timed out said "(--start-timeout)", an option pytest refuses
    with ProcessImplementation(SILENT, timeout=FAR, start_timeout=0.2,
                               flags=("--mtrain-timeout", "--mtrain-start-timeout")) as impl, \
            pytest.raises(ImplementationTimeout) as info:
        impl.start()
    assert info.value.message == (
        "while starting: no answer to the hello request within 0.2 s (--mtrain-start-timeout) "
        "(it has not read the hello yet: a program slow to start needs a "
        "longer --mtrain-start-timeout; the other requests keep --mtrain-timeout); the "
        "implementation was killed")


# --- the hunt: rule sets written another way -------------------------------------------------


def declared(**rules: object) -> dict[str, object]:
    """A hello's info declaring pagat's options but for `rules`' changes."""
    from mtrain.spec.catalog import catalog

    options = dict(catalog().ruleset("pagat").choices)
    options.update(rules.pop("options", {}))  # type: ignore[call-overload]
    return {"name": "e", "rules": {"name": "e", "options": options, **rules}}


def test_a_declared_hand_table_that_is_empty_is_said_to_be_empty() -> None:
    # read as no table: "unknown value 'custom' for option hand_sizes", a value the wire has
    from mtrain.conformance.declaration import DeclarationError, declared_ruleset

    with pytest.raises(DeclarationError) as info:
        declared_ruleset(declared(options={"hand_sizes": "custom"}, hand_sizes={}))
    assert str(info.value) == (
        "`rules.hand_sizes` is empty: a hand table gives the tiles dealt for each player count "
        'it seats (e.g. {"2": 15})')


HINT = "(did you mean {!r}? names are in lower case, with no spaces at their ends)"


@pytest.mark.parametrize("change, said", [
    ({"options": {"Tile_set": "double-12"}},
     f"`rules.options` names unknown option 'Tile_set' {HINT.format('tile_set')}; known: "),
    ({"options": {"tile_set": "Double-12"}},
     f"`rules.options.tile_set`: unknown value 'Double-12' {HINT.format('double-12')}; "
     "known: "),
])
def test_a_declared_name_in_capitals_is_told_the_name_it_stands_for(
        change: dict[str, object], said: str) -> None:
    # the list of every known name alone left the reader to spot one capital letter
    from mtrain.conformance.declaration import DeclarationError, declared_ruleset

    with pytest.raises(DeclarationError) as info:
        declared_ruleset(declared(**change))
    assert str(info.value).startswith(said), str(info.value)


@pytest.mark.parametrize("name, said", [
    ("Pagat", f"unknown variant 'Pagat' {HINT.format('pagat')}; known: "),
    ("pagat+Blanks-25", f"unknown overlay 'Blanks-25' {HINT.format('blanks-25')}; known: "),
])
def test_a_rule_set_named_in_capitals_is_told_the_name_it_stands_for(
        name: str, said: str) -> None:
    from mtrain.spec.catalog import RulesetError, catalog

    with pytest.raises(RulesetError) as info:
        catalog().ruleset(name)
    assert str(info.value).startswith(said), str(info.value)


@pytest.mark.parametrize("line, said", [
    ("  Tile_set: double-12", f"unknown option 'Tile_set' {HINT.format('tile_set')}; known: "),
    ("  tile_set: Double-12",
     f"unknown value 'Double-12' for tile_set {HINT.format('double-12')}; known: "),
])
def test_a_rule_set_file_name_in_capitals_is_told_the_name_it_stands_for(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, line: str, said: str) -> None:
    path = write(tmp_path / "own.yaml", f"name: own\nbase: pagat\noptions:\n{line}\n")
    assert main(["rules", path]) == 2
    assert capsys.readouterr().err.startswith(f"mtrain rules: {path}:4: {said}")


# --- the hunt: misbehaving engines ----------------------------------------------------------

# the reference server, answering every legal request twice
TWICE = """\
import json, sys
from mtrain.conformance.serve import Server
server = Server()
for line in sys.stdin:
    answer, stop = server.handle(line)
    text = json.dumps(answer) + "\\n"
    if json.loads(line)["type"] == "legal":
        sys.stdout.write(text)
    sys.stdout.write(text)
    sys.stdout.flush()
    if stop:
        break
"""

LEGAL_ONLY = """\
- id: twice-001
  description: The legal actions of seat 0 (the run's last request)
  clauses: [TRAIN-2]
  source: [pagat]
  note: Seat 0's own train ends in 5 and it holds [5-3] and [9-1]; only [5-3] plays there.
  table:
    hands:
      0: [5-3, 9-1]
      1: [11-11, 10-0]
    trains:
      0: [12-5]
      1: [12-3]
  expect:
    - variants: [pagat]
      legal: [play 5-3 on 0]
"""


def test_the_last_request_answered_twice_is_an_error_of_its_result(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the second answer came after the last answer read: the shutdown's read took it and
    # went on, and the run passed (a request after it reads it as an answer out of order)
    program = shlex.join([sys.executable, write(tmp_path / "twice.py", TWICE)])
    fixtures = write(tmp_path / "legal.yaml", LEGAL_ONLY)
    out = tmp_path / "report.json"
    assert main(["conform", "--impl", program, "--fixtures", fixtures, "--timeout", str(FAR),
                 "--format", "json", "--output", str(out)]) == 1
    [result] = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert result["status"] == "error", result
    assert result["message"].startswith(
        "after its answer to the last request the implementation wrote another line, read "
        "only at the shutdown: '{\"id\": 2, \"ok\": true, \"actions\": [{\"type\": \"play\", "
        "\"tile\": \"5-3\", \"train\": 0}]}' (one answer per request: an answer written "
        "twice?)"), result
    assert "-k twice-001" in result["rerun"]


# answers its hello, then its first request, and closes its stdin before that answer (so
# the harness's next request, written after the answer is read, finds no reader); it then
# waits to be killed
CLOSES_STDIN = """\
import json, os, sys, time
hello = json.loads(sys.stdin.readline())
print(json.dumps({"id": hello["id"], "ok": True, "protocol": 1, "name": "c", "version": "1",
                  "variants": ["*"]}), flush=True)
asked = json.loads(sys.stdin.readline())
os.close(0)
print(json.dumps({"id": asked["id"], "ok": True, "winners": []}), flush=True)
time.sleep(1000)
"""

# answers its hello, then closes its stdin once a request waits in it, unread: lost
DROPS_A_REQUEST = """\
import json, os, select, sys, time
line = os.read(0, 65536)  # the hello, alone: nothing else is asked before its answer
hello = json.loads(line)
print(json.dumps({"id": hello["id"], "ok": True, "protocol": 1, "name": "d", "version": "1",
                  "variants": ["*"]}), flush=True)
select.select([0], [], [])  # a request has come
os.close(0)
time.sleep(1000)
"""


def test_a_request_to_a_program_that_closed_its_stdin_says_stdin(tmp_path: Path) -> None:
    # "the implementation closed its stdout while still running": it had closed its stdin
    from mtrain.conformance.process import ImplementationCrashed

    program = [sys.executable, write(tmp_path / "closes.py", CLOSES_STDIN)]
    with ProcessImplementation(program, timeout=FAR, start_timeout=FAR) as impl:
        assert impl.call("winners", ruleset={}, state={}) == {"id": 2, "ok": True,
                                                              "winners": []}
        with pytest.raises(ImplementationCrashed) as info:
            impl.call("winners", ruleset={}, state={})
    assert info.value.message == (
        "the implementation closed its stdin while still running (the request found no "
        "reader), before answering the winners request")


def test_a_request_lost_in_a_closed_stdin_is_said_at_its_timeout(tmp_path: Path) -> None:
    # a timeout, with nothing said of why. The program never answers, so the request times
    # out at any load; the bound must only outlast the program's close, a system call it
    # makes as soon as the request lands: 3 s is far above that need, and is what the test
    # costs in waiting (no CPU)
    program = [sys.executable, write(tmp_path / "drops.py", DROPS_A_REQUEST)]
    with ProcessImplementation(program, timeout=3, start_timeout=FAR) as impl, \
            pytest.raises(ImplementationTimeout) as info:
        impl.start()
        impl.call("winners", ruleset={}, state={})
    assert info.value.message == (
        "no answer to the winners request within 3 s (it had closed its stdin while still "
        "running: a request it had not read was lost); the implementation was killed")


# the reference, but a train it returns says it ends in a pip its last tile does not end in
WRONG_END = """\
from mtrain.conformance.adapter import ReferenceImplementation


class Engine(ReferenceImplementation):
    def apply(self, ruleset, state, action):
        new = super().apply(ruleset, state, action)
        new["trains"][0]["end"] = 4  # its tiles, 12-5 then 5-3, end in 3
        return new
"""


def test_a_train_whose_end_is_not_its_last_tiles_is_charged_to_train_2(
        tmp_path: Path) -> None:
    # every tile where it was, the train's `end` another pip: charged to each clause of the
    # fixture (TURN-6 here), none of which says where a train ends
    adapter = write(tmp_path / "wrong_end.py", WRONG_END)
    out = tmp_path / "report.json"
    assert main(["conform", "--adapter", f"{adapter}:Engine", "--fixtures",
                 write(tmp_path / "ends.yaml", PLAYS), "--format", "json", "--output",
                 str(out)]) == 1
    [result] = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert result["status"] == "fail" and result["charged"] == ["TRAIN-2"], result
    assert result["message"] == ("apply: the returned state is not a table: state.trains[0]"
                                 ".end: 4 but the tiles end in 3 [TRAIN-2]"), result


@pytest.mark.parametrize("command", ["render", "state"])
def test_a_fixture_id_in_capitals_is_told_the_id_it_stands_for(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str) -> None:
    # "no fixture 'ENDS-001'", beside no word of the id there is
    fixtures = write(tmp_path / "ends.yaml", PLAYS)
    err = one_error(capsys, command, "ENDS-001", "--fixtures", fixtures)
    assert f"no fixture 'ENDS-001' {HINT.format('ends-001')}" in err, err


@pytest.mark.parametrize("entry, said", [
    ("fixture: ENDS-001", f"skip entry ENDS-001 matches no selected fixture "
     f"{HINT.format('ends-001')}"),
    ("fixture: ends-001\n  variant: Pagat", f"variant 'Pagat' is no rule set: no variant or "
     f"rule-set file is named 'Pagat' {HINT.format('pagat')} (variants: "),
])
def test_a_skip_entry_in_capitals_is_told_the_name_it_stands_for(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, entry: str, said: str) -> None:
    # warned of as matching nothing, or as no rule set, with no word of the name it meant
    skip = write(tmp_path / "known.yaml", f"- {entry}\n  reason: our own rule\n")
    assert main(["conform", "--fixtures", write(tmp_path / "ends.yaml", PLAYS), "--skip",
                 skip, "--format", "json"]) == 0
    warnings = json.loads(capsys.readouterr().out)["warnings"]
    assert any(said in w for w in warnings), warnings


def test_the_plugins_errors_name_its_own_options(tmp_path: Path) -> None:
    # "--variant Pagat: unknown variant", an option pytest refuses; the plugin's is
    # --mtrain-variant (so --adapter, --impl and --fixtures in the errors of the others)
    from test_robust_s45 import run_pytest

    ran = run_pytest(tmp_path, "--mtrain-adapter", "nope", "--mtrain-variant", "Pagat")
    assert ran.returncode == 4, ran.stdout + ran.stderr
    assert f"ERROR: mtrain: --mtrain-variant Pagat: unknown variant 'Pagat' " \
        f"{HINT.format('pagat')}" in ran.stderr, ran.stderr


# the reference server, which at the shutdown writes its last answer again before the
# shutdown's: to the harness, the run's last request answered twice (the second line
# comes after the last answer read, before the shutdown's, at any load)
TWICE_AT_THE_END = """\
import sys
from mtrain.conformance.serve import Server
server = Server()
last = ""
for line in sys.stdin:
    answer, stop = server.handle(line)
    text = __import__("json").dumps(answer) + "\\n"
    sys.stdout.write((last if stop else "") + text)
    sys.stdout.flush()
    last = text
    if stop:
        break
"""


@pytest.mark.slow  # plays a game against a program
def test_fuzz_reports_the_last_request_answered_twice_as_an_error_of_its_game(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the second line was kept in `strays` at the shutdown and reported nowhere: the run
    # passed (exit 0), as conform's did before its shutdown read was charged to a result
    program = shlex.join([sys.executable, write(tmp_path / "twice.py", TWICE_AT_THE_END)])
    code = main(["fuzz", "--impl", program, "--games", "1", "--players", "2", "--variant",
                 "pagat", "--timeout", str(FAR), "--out", str(tmp_path / "found"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1, report
    assert report["findings"] == [], report["findings"]
    [error] = report["errors"]
    assert error.startswith("game 0 (pagat), its last request: after its answer to the last "
                            "request the implementation wrote another line, read only at the "
                            "shutdown: '{\"id\": "), error
    assert "(one answer per request: an answer written twice?); the last request sent: " \
        "'{\"id\":" in error, error


# a fixture whose one expectation holds `when:` the lines given (from line 17)
WHEN = plays(before_state="{when}\n")


@pytest.mark.parametrize("when, line, said", [
    ("      when:\n        tile_set: Double-12", 18,
     f"fixture ends-001: `when` tile_set: unknown value 'Double-12' {HINT.format('double-12')}"
     "; known: "),
    ("      when:\n        tile_set:\n          - double-12\n          - Double-15", 20,
     f"fixture ends-001: `when` tile_set: unknown value 'Double-15' {HINT.format('double-15')}"
     "; known: "),
    ("      when:\n        - tile_set: double-12\n        - tile_set: Double-9", 19,
     f"fixture ends-001: `when` tile_set: unknown value 'Double-9' {HINT.format('double-9')}"
     "; known: "),
    ("      when:\n        Tile_set: double-12", 18,
     f"`when` names unknown option 'Tile_set' {HINT.format('tile_set')}; known: "),
], ids=["value", "value-in-a-list", "value-of-a-part", "option"])
def test_a_when_name_in_capitals_is_told_the_name_it_stands_for_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, when: str, line: int,
        said: str) -> None:
    # a value had no hint, and its error stood at the `when:` line; an option had no hint,
    # and a second error of the schema's ("key 'Tile_set' does not match the pattern")
    path = write(tmp_path / "when.yaml", WHEN.format(when=when))
    assert main(["lint", "--no-scopes", path]) == 1
    errors = [e for e in capsys.readouterr().out.splitlines() if e.startswith("error:")]
    assert len(errors) == 1 and errors[0].startswith(f"error: {path}:{line}: {said}"), errors
