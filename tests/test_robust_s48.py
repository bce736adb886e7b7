"""Inputs the earlier robustness rounds let through (robust-s48): the hello shared --timeout
with every request, so an engine slow to start (a JVM) had to slow every hang found later;
each killed process whose stderr a daemon of its own held cost half a second of waiting on
the stderr reader, and the daemon itself was left running after the run; a -k pattern no
id can match (a typo) ran nothing, or hid among other patterns, and exited as a failure of
the engine, not as the usage error it is."""

from __future__ import annotations

import contextlib
import os
import select
import shlex
import sys
import threading
from pathlib import Path
from typing import Any, cast

import pytest

from mtrain.cli import main
from mtrain.conformance.child import ChildProcess
from mtrain.conformance.process import (
    ImplementationCrashed,
    ImplementationTimeout,
    ProcessImplementation,
)

FAR = 120
"""A bound on a wait for an event (a process's exit), far above the need: it only keeps a
broken run from hanging the suite."""

SILENT = [sys.executable, "-c", "import signal; signal.pause()"]
"""A program that never answers anything, its hello included, nor reads it (one that read
it is told otherwise, robust-s53)."""

# answers its hello once a second has passed: longer than any --timeout the test gives its
# requests, at any load (the delay is a floor, never a ceiling)
SLOW_START = """\
import json, sys, time
time.sleep(1)
for line in sys.stdin:
    r = json.loads(line)
    print(json.dumps({"id": r["id"], "ok": True, "protocol": 1, "name": "slow",
                      "version": "1", "variants": ["pagat"]}), flush=True)
"""


def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


# --- a start-up bound of its own -------------------------------------------------------------


def test_a_program_slow_to_start_is_waited_for_under_the_start_timeout(tmp_path: Path) -> None:
    # with one bound for all, its hello timed out under a --timeout that fits its requests
    program = [sys.executable, write(tmp_path / "slow.py", SLOW_START)]
    with ProcessImplementation(program, timeout=0.3, start_timeout=FAR) as impl:
        assert impl.start()["name"] == "slow"


def test_a_hello_never_answered_names_the_start_timeout() -> None:
    with ProcessImplementation(SILENT, timeout=FAR, start_timeout=0.2) as impl, \
            pytest.raises(ImplementationTimeout) as info:
        impl.start()
    assert info.value.message == (
        "while starting: no answer to the hello request within 0.2 s (--start-timeout) (it "
        "has not read the hello yet: a program slow to start needs a "
        "longer --start-timeout; the other requests keep --timeout); the implementation was "
        "killed")


def test_conform_identify_and_fuzz_each_bound_the_start_by_start_timeout(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    silent = shlex.join(SILENT)
    said = ("while starting: no answer to the hello request within 0.2 s (--start-timeout)")
    capsys.readouterr()
    # (robust-s49: a hello that fails stops conform, as it stops identify and fuzz)
    assert main(["conform", "--impl", silent, "--variant", "pagat", "-k", "doubles-001",
                 "--situations", "0", "--timeout", str(FAR), "--start-timeout", "0.2"]) == 2
    assert said in capsys.readouterr().err
    assert main(["identify", "--impl", silent, "--timeout", str(FAR),
                 "--start-timeout", "0.2"]) == 2
    assert said in capsys.readouterr().err
    assert main(["fuzz", "--impl", silent, "--timeout", str(FAR), "--start-timeout", "0.2",
                 "--games", "1", "--out", str(tmp_path / "out")]) == 2
    assert said in capsys.readouterr().err


@pytest.mark.parametrize("command", ["conform", "identify", "fuzz"])
@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf"])
def test_a_start_timeout_that_is_no_time_is_refused(
        capsys: pytest.CaptureFixture[str], command: str, value: str) -> None:
    from test_robust_cli import one_error

    assert one_error(capsys, command, "--impl", "true", "--start-timeout", value) == (
        f"mtrain {command}: error: argument --start-timeout: must be a positive number of "
        f"seconds: '{value}' (see 'mtrain {command} --help')")


def test_the_pytest_plugin_bounds_the_start_by_a_start_timeout_of_its_own(
        tmp_path: Path) -> None:
    # the plugin bounded the hello by --mtrain-timeout: a slow start meant a long bound on
    # every request; --mtrain-start-timeout was refused as an unknown argument (exit 4)
    from test_robust_s45 import run_pytest

    fixtures = Path(__file__).parent / "data" / "fixtures" / "basic"
    ran = run_pytest(tmp_path, "--mtrain-impl", shlex.join(SILENT), "--mtrain-fixtures",
                     str(fixtures), "--mtrain-variant", "pagat", "--mtrain-timeout", str(FAR),
                     "--mtrain-start-timeout", "0.2")
    # (robust-s49: the hello's failure is the session's usage error, naming the plugin's
    # own option; it failed every test, naming conform's --start-timeout)
    assert ran.returncode == 4, ran.stdout + ran.stderr
    assert ("while starting: no answer to the hello request within 0.2 s "
            "(--mtrain-start-timeout)") in ran.stderr
    helped = run_pytest(tmp_path, "--help")
    said = " ".join(helped.stdout.split())  # as pytest wraps it
    assert ("--mtrain-start-timeout=SECONDS for the hello that opens each process of the "
            "implementation, which waits on its start: a JVM or a large runtime needs more "
            "than a request (default 60)") in said, helped.stdout


# --- a killed process: no fixed wait, and nothing of it left running -------------------------

# writes its last words on stderr, starts a daemon in a session of its own that holds
# only stderr (stdin and stdout /dev/null), tells its pid on stdout and exits
DAEMON = """\
import subprocess, sys
sys.stderr.write("last words\\n"); sys.stderr.flush()
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         start_new_session=True)
print(child.pid, flush=True)
"""


def test_a_kill_waits_on_no_reader_and_leaves_no_daemon_holding_stderr(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    proc = ChildProcess([sys.executable, write(tmp_path / "daemon.py", DAEMON)], 1000,
                        None, None)
    line = proc.receive(FAR)
    assert isinstance(line, bytes), line
    daemon = int(line)
    exited = os.pidfd_open(daemon)
    joined: list[Any] = []
    join = threading.Thread.join

    def spy(self: threading.Thread, timeout: float | None = None) -> None:
        joined.append((self.name, timeout))
        join(self, timeout)

    monkeypatch.setattr(threading.Thread, "join", spy)
    try:
        assert proc.exit_code(FAR) == 0  # woken by its exit
        proc.kill()
        monkeypatch.undo()
        # the reader thread was joined for half a second at each kill (settle(0.5)): its
        # daemon held the pipe open, so no end of file came
        assert [j for j in joined if j[0] == "mtrain-stderr"] == []
        assert "last words" in proc.stderr.tail()  # read at the kill, not by the thread
        # the daemon held neither stdin nor stdout, so it was left running
        assert select.select([exited], [], [], FAR)[0] == [exited], "the daemon lives on"
    finally:
        os.close(exited)
        with contextlib.suppress(ProcessLookupError):  # (it was killed: gone)
            os.kill(daemon, 9)


def test_the_exit_code_is_waited_for_until_the_program_exits(tmp_path: Path) -> None:
    # a program that closed its stdout and exits once the test closes its stdin
    program = "import os, sys; os.close(1); sys.stdin.buffer.read(); sys.exit(5)"
    proc = ChildProcess([sys.executable, "-c", program], 1000, None, None)
    try:
        assert proc.receive(FAR) is None  # its stdout closed: the program still runs
        assert proc.exit_code(0) is None
        assert proc.popen.stdin is not None
        proc.popen.stdin.close()
        assert proc.exit_code(FAR) == 5
    finally:
        proc.kill()


# tells its pid on stderr, closes its stdout before answering its hello, and runs on until
# its stdin ends (which never comes: the harness kills it)
CLOSES_STDOUT = ("import os, sys; print(os.getpid(), file=sys.stderr, flush=True); "
                 "os.close(1); sys.stdin.buffer.read()")


def test_a_program_that_closed_its_stdout_is_killed_with_no_wait_for_its_exit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # its exit was waited for a second (exit_code(1.0)) before the kill, for each process:
    # one that closed its stdout and runs on does not exit by itself
    waits: list[tuple[float, bool]] = []
    exit_code = ChildProcess.exit_code

    def spy(self: ChildProcess, wait: float) -> int | None:
        waits.append((wait, self.killed))
        return exit_code(self, wait)

    monkeypatch.setattr(ChildProcess, "exit_code", spy)
    with ProcessImplementation([sys.executable, "-c", CLOSES_STDOUT], timeout=FAR,
                               start_timeout=FAR) as impl, \
            pytest.raises(ImplementationCrashed) as info:
        impl.start()
    assert info.value.message == (
        "while starting: the implementation closed its stdout while still running, before "
        "answering the hello request")
    assert [wait for wait, killed in waits if wait > 0 and not killed] == []
    pid = int(info.value.stderr.split()[0])
    with pytest.raises(ChildProcessError):  # killed and reaped: no longer a child of ours
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG)


@pytest.mark.parametrize("program, said", [
    ("import os; os._exit(3)", "exited with code 3"),
    ("import sys; sys.exit(4)", "exited with code 4"),
    ("import os, signal; os.kill(os.getpid(), signal.SIGTERM)", "was killed by SIGTERM"),
])
def test_a_program_on_its_way_out_keeps_its_own_exit_code(program: str, said: str) -> None:
    # its stdout ends a moment before it has exited: the kill that follows at once (no wait)
    # is dropped by the system for a process already exiting, so the code is its own
    with ProcessImplementation([sys.executable, "-c", program], timeout=FAR,
                               start_timeout=FAR) as impl, \
            pytest.raises(ImplementationCrashed) as info:
        impl.start()
    assert info.value.message == (
        f"while starting: the implementation {said}, before answering the hello request")


# --- -k: a part of an id or a glob of a whole id; one matching nothing refused ---------------


@pytest.mark.parametrize("patterns, said", [
    (["doubels-001"], "-k doubels-001: no fixture id matches it, nor any id of a situation "
     "from play (play-KIND-NNN); ids close to it: doubles-001"),
    (["doubel"], "-k doubel: no fixture id matches it, nor any id of a situation from play "
     "(play-KIND-NNN); ids close to it: doubles-001"),
    # a slip among patterns that match: the run held what the others selected, exit 0
    (["marker-001", "markr-001"], "-k markr-001: no fixture id matches it, nor any id of a "
     "situation from play (play-KIND-NNN); ids close to it: marker-001"),
    (["zzzz"], "-k zzzz: no fixture id matches it, nor any id of a situation from play "
     "(play-KIND-NNN); -k takes part"),
    # slips undone said as such: ids are matched as written (and written in lower case)
    (["DOUBLES-001"], "-k DOUBLES-001: no fixture id matches it, nor any id of a situation "
     "from play (play-KIND-NNN); in lower case, as ids are written, -k doubles-001 matches "
     "doubles-001, generated-doubles-001; -k takes part"),
    ([" doubles-001"], "-k  doubles-001: no fixture id matches it, nor any id of a situation "
     "from play (play-KIND-NNN); without the spaces at its ends, -k doubles-001 matches "
     "doubles-001, generated-doubles-001; -k takes part"),
])
def test_a_pattern_no_id_can_match_is_refused_naming_close_ids(
        capsys: pytest.CaptureFixture[str], patterns: list[str], said: str) -> None:
    argv = ["conform", "--variant", "pagat", "--situations", "0"]
    for p in patterns:
        argv += ["-k", p]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"mtrain conform: {said}"), captured.err


@pytest.mark.parametrize("pattern", ["doubles-0?1", "doubles-00", "play-opendbl-007",
                                     "[dm]oubles-001"])
def test_a_part_of_an_id_a_glob_or_a_situation_id_is_taken(
        capsys: pytest.CaptureFixture[str], pattern: str) -> None:
    assert main(["conform", "--variant", "pagat", "--situations", "0", "-k", pattern]) \
        in (0, 1)  # (a situation's id runs nothing with --situations 0: exit 1, said so)
    assert "no fixture id matches it" not in capsys.readouterr().err


def test_the_help_of_k_says_part_of_an_id_or_a_glob_with_examples(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["conform", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert ("only fixtures whose id contains PATTERN (-k doubles-00: doubles-001 to "
            "doubles-009), or, if PATTERN holds * ? or [, whose whole id it matches as a glob "
            "(-k 'doubles-0?1'; quote it from the shell)") in help_text


# --- answers valid as JSON, wrong in shape -----------------------------------------------------

# answers its hello, then each request with the line argv[1] gives, its `{id}` the request's
# id and `{prev}` the one before it (the hello's, for the first)
SCRIPTED = """\
import json, sys
prev = None
for line in sys.stdin:
    r = json.loads(line)
    if r["type"] == "hello":
        answer = json.dumps({"id": r["id"], "ok": True, "protocol": 1, "name": "s",
                             "version": "1", "variants": ["pagat"]})
    else:
        answer = sys.argv[1].replace("{id}", str(r["id"])).replace("{prev}", str(prev))
    prev = r["id"]
    sys.stdout.write(answer + "\\n")
    sys.stdout.flush()
"""


def scripted(tmp_path: Path, line: str) -> ProcessImplementation:
    return ProcessImplementation(
        [sys.executable, write(tmp_path / "scripted.py", SCRIPTED), line], timeout=FAR)


@pytest.mark.parametrize("line, said", [
    # "an error answer needs error.message" of an answer that has one, of the wrong type
    ('{"id": {id}, "ok": false, "error": {"kind": "internal", "message": 7}}',
     'wrong answer shape to the legal request: error.message must be a string, got 7: '),
    ('{"id": {id}, "ok": false, "error": {"kind": "internal", "message": null}}',
     'wrong answer shape to the legal request: error.message must be a string, got null: '),
    ('{"id": {id}, "ok": false, "error": "boom"}',
     'wrong answer shape to the legal request: an error answer\'s error must be an object '
     '{"kind": ..., "message": ...}, got "boom": '),
    # an unsupported misspelt: an error, not not-applicable, and now said why
    ('{"id": {id}, "ok": false, "error": {"kind": "unsuported", "message": "no"}}',
     "the implementation answered the legal request with an error (unsuported, a kind "
     "protocol v1 has not: unsupported?): no"),
    ('{"id": {id}, "ok": false, "error": {"kind": 5, "message": "no"}}',
     "the implementation answered the legal request with an error (5, a kind protocol v1 "
     "has not; its kinds: bad-request, unsupported, protocol-version, internal, "
     "refused-setup): no"),
    # the answer to the request before (the hello's): one answer twice, or one behind
    ('{"id": {prev}, "ok": true, "actions": []}',
     "the answer to the legal request (id 2) carries id 1, an earlier request's: it answered "
     "that request twice, or answers one request behind: one answer per request, in order; "
     "the implementation was killed"),
])
def test_an_answer_wrong_in_shape_is_told_what_is_wrong(
        tmp_path: Path, line: str, said: str) -> None:
    from mtrain.conformance.process import HarnessError

    with scripted(tmp_path, line) as impl, pytest.raises(HarnessError) as info:
        impl.legal({}, {})
    assert info.value.message.startswith(said), info.value.message


def _two_seats() -> dict[str, Any]:
    from mtrain.reference import codec
    from mtrain.reference.deal import deal
    from mtrain.reference.rules import Rules
    from mtrain.spec.catalog import catalog

    return codec.state_to_json(deal(Rules.of(catalog().ruleset("pagat")), 2, 1, seed=3))


class _Scores:
    """An adapter whose score answers what the test gives it."""

    def __init__(self, scores: Any) -> None:
        self.scores = scores

    def score(self, ruleset: Any, state: Any, winner: Any) -> Any:
        return self.scores


@pytest.mark.parametrize("scores, said", [
    # a 401-digit round score: "expected round scores [0, 20], got [1000...(all 401
    # digits), 20]", a fail charged to the scoring rule
    ([10**400, 20], "score: the answer breaks the schema: score [protocol.schema.json#/$defs/"
     "score_answer] scores/0: 10000000000000000000... (401 characters written out) is not in "
     "0..2147483647, the round scores a state's result holds [state.schema.json#/$defs/"
     "result]"),
    ([0, -3], "score: the answer breaks the schema: score [protocol.schema.json#/$defs/"
     "score_answer] scores/1: -3 is not in 0..2147483647, the round scores a state's result "
     "holds [state.schema.json#/$defs/result]"),
    # a score for a seat the table has not: told as wrong scores, charged to scoring
    ([0, 20, 11], "score: the answer breaks the schema: score [protocol.schema.json#/$defs/"
     "score_answer]: one score per seat, seat 0 first: 3 for the state's 2 seats"),
    ([0], "score: the answer breaks the schema: score [protocol.schema.json#/$defs/"
     "score_answer]: one score per seat, seat 0 first: 1 for the state's 2 seats"),
])
def test_a_score_answer_no_state_could_hold_is_a_broken_schema(
        scores: list[int], said: str) -> None:
    from mtrain.conformance.answers import AnswerError, checked

    with pytest.raises(AnswerError) as info:
        cast(Any, checked(cast(Any, _Scores(scores)))).score({}, _two_seats(), 0)
    assert info.value.status == "error"
    assert str(info.value) == said


def test_a_score_answer_of_one_score_per_seat_passes() -> None:
    from mtrain.conformance.answers import checked

    scores = cast(Any, checked(cast(Any, _Scores([0, 2147483647])))).score(
        {}, _two_seats(), 0)
    assert scores == [0, 2147483647]


# --- YAML: characters that look like a space, or like nothing ---------------------------------


def _own(tmp_path: Path) -> str:
    from test_robust_s46 import fixture

    return Path(fixture(tmp_path)).read_text(encoding="utf-8")


@pytest.mark.parametrize("change, line, said", [
    # two fixture files joined with `cat`, the second saved with a byte order mark
    (lambda t: t + "\ufeff" + t.replace("own-001", "own-002"), 23,
     "did not find expected '-' indicator (while parsing a block collection at line 1) (the "
     "line holds a byte order mark (U+FEFF) past the file's start: files joined with `cat`, "
     "each saved with one? delete it)"),
    (lambda t: "# a comment\n\ufeff" + t, 3,
     "did not find expected '-' indicator (while parsing a block collection at line 2) (line "
     "2 holds a byte order mark (U+FEFF) past the file's start: files joined with `cat`, each "
     "saved with one? delete it)"),
    # an indentation pasted from a web page
    (lambda t: t.replace("    engine: 9\n", "\u00a0   engine: 9\n"), 6,
     "did not find expected '-' indicator (while parsing a block collection at line 1) (the "
     "line holds a no-break space (U+00A0) where YAML wants a plain space (pasted from a web "
     "page or a word processor?))"),
    (lambda t: t.replace("  table:\n", "  table:\u3000\n"), 6,
     "could not find expected ':' (while scanning a simple key at line 5) (line 5 holds an "
     "ideographic space (U+3000) where YAML wants a plain space)"),
])
def test_a_syntax_error_names_the_invisible_character_that_caused_it(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, change: Any, line: int,
        said: str) -> None:
    # each was the syntax error alone, pointing at a line that looks right
    path = write(tmp_path / "joined.yaml", change(_own(tmp_path)))
    from test_robust_s46 import lint_errors

    assert lint_errors(capsys, "--no-scopes", path) == [
        f"error: {path}:{line}: YAML syntax error: {said}"]


def test_a_byte_order_mark_at_the_start_and_line_ends_of_any_kind_still_load(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    text = _own(tmp_path)
    for name, variant in (("bom", "\ufeff" + text), ("crlf", text.replace("\n", "\r\n")),
                          ("cr", text.replace("\n", "\r"))):
        assert main(["lint", "--no-scopes", write(tmp_path / f"{name}.yaml", variant)]) == 0
    capsys.readouterr()
