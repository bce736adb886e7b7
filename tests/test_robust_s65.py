"""Bad inputs and misbehaving engines, round 38 (robust-s65): an engine that signals the
harness by one of its threads' ids, by a pidfd opened from /proc, or by making it the
owner of a file's SIGIO; then hostile fixtures, rule-set files, answers and arguments."""

from __future__ import annotations

import json
import os
import shlex
import struct
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "data" / "fixtures" / "basic" / "play.yaml"
BROKEN = HERE / "broken_impls"
MTRAIN = str(Path(sys.executable).with_name("mtrain"))


def _seccomp() -> bool:
    try:
        return "Seccomp:" in Path("/proc/self/status").read_text()
    except OSError:
        return False


guarded = pytest.mark.skipif(not sys.platform.startswith("linux") or not _seccomp()
                             or not hasattr(os, "pidfd_open")
                             or os.uname().machine not in ("x86_64", "aarch64"),
                             reason="the guard is a seccomp filter of x86_64 and aarch64")


# --- 1. signals to the harness by other ways than its id ---------------------------------


# Under the reaper: what each way of signalling (signal 0, which sends nothing) says of a
# harness's thread, of the harness through a pidfd of /proc/PID, and of making the harness
# or itself its stdin's owner (F_SETOWN: SIGIO to the owner at each write of the harness)
WAYS = textwrap.dedent("""
    import ctypes, fcntl, os, signal, subprocess, sys

    harness, thread = int(sys.argv[1]), int(sys.argv[2])
    libc = ctypes.CDLL(None, use_errno=True)
    TKILL, SIGQUEUE, SEND = {{"x86_64": (200, 129, 424), "aarch64": (130, 138, 424)}}[
        os.uname().machine]

    def call(number, *args):
        if libc.syscall(number, *args) >= 0:
            return "yes"
        return os.strerror(ctypes.get_errno()).split()[0]

    def kill(pid):
        try:
            os.kill(pid, 0)
            return "yes"
        except OSError as e:
            return type(e).__name__

    def owner(pid):
        try:
            fcntl.fcntl(0, fcntl.F_SETOWN, pid)
            return "yes"
        except OSError as e:
            return type(e).__name__

    info = ctypes.create_string_buffer(128)
    info[8:12] = (-1).to_bytes(4, "little", signed=True)  # si_code SI_QUEUE
    proc = os.open(f"/proc/{{harness}}", os.O_RDONLY | os.O_DIRECTORY)
    own = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    said = [call(TKILL, thread, 0), kill(thread), call(SIGQUEUE, thread, 0, info),
            call(SEND, proc, 0, None, 0), owner(harness), owner(-os.getpgid(harness)),
            owner(thread), owner(os.getpid()), kill(own.pid)]
    own.kill()
    said.append(str(own.wait()))
    print(*said, flush=True)
    sys.stdin.read()
""")


@guarded
def test_the_engine_cannot_signal_the_harness_by_a_thread_a_pidfd_or_a_file(
        tmp_path: Path) -> None:
    # each but the last three was allowed: tkill or kill of another thread's id, a
    # pidfd_send_signal on /proc/HARNESS (each a SIGKILL of the whole harness), and the
    # harness as its stdin's owner (the harness killed by SIGIO at its next request)
    from mtrain.conformance.child import ChildProcess

    started, done = threading.Event(), threading.Event()
    ids: list[int] = []

    def waiting() -> None:
        ids.append(threading.get_native_id())
        started.set()
        done.wait(120)

    other = threading.Thread(target=waiting, daemon=True)
    other.start()
    started.wait(60)
    script = tmp_path / "ways.py"
    script.write_text(WAYS.format())
    engine = ChildProcess([sys.executable, str(script), str(os.getpid()), str(ids[0])],
                          1 << 16, None, None)
    try:
        line = engine.receive(60.0)
    finally:
        engine.kill()
        done.set()
    assert isinstance(line, bytes), line
    # refused: the thread three ways, the pidfd, the harness, its group and its thread as
    # owners; allowed: itself as owner, a signal to its own child (which it then killed)
    assert line.split() == [b"Operation", b"PermissionError", b"Operation", b"Operation",
                            b"PermissionError", b"PermissionError", b"PermissionError",
                            b"yes", b"yes", b"-9"], line


# Under the reaper: it reads a thread id on stdin (a thread the harness started after the
# engine: in no list the filter was built with) and says what a kill (signal 0) of it, of
# its reaper, of its own child and of no process does; then it kills its child
LATE = textwrap.dedent("""
    import os, subprocess, sys

    thread = int(sys.stdin.readline())

    def kill(pid, sig=0):
        try:
            os.kill(pid, sig)
            return "yes"
        except OSError as e:
            return type(e).__name__

    own = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    said = [kill(thread), kill(os.getppid()), kill(own.pid), kill(own.pid, 9), str(own.wait())]
    print(*said, flush=True)
    sys.stdin.read()
""")


@guarded
def test_the_engine_cannot_kill_a_harness_thread_started_after_it() -> None:
    # the filter names the harness's threads of the engine's start only: a kill of a later
    # one's id (the engine's stderr reader, a pool's) killed the whole harness (exit -9)
    from mtrain.conformance.child import ChildProcess

    engine = ChildProcess([sys.executable, "-c", LATE], 1 << 16, None, None)
    started, done = threading.Event(), threading.Event()
    ids: list[int] = []

    def waiting() -> None:
        ids.append(threading.get_native_id())
        started.set()
        done.wait(120)

    other = threading.Thread(target=waiting, daemon=True)
    try:
        other.start()
        started.wait(60)
        engine.send(f"{ids[0]}\n".encode())
        line = engine.receive(60.0)
    finally:
        engine.kill()
        done.set()
    assert isinstance(line, bytes), line
    # refused: the harness's thread; allowed: its reaper, its own child (killed: -9)
    assert line.split() == [b"PermissionError", b"yes", b"yes", b"yes", b"-9"], line


# The reference, but at its hello it makes the harness (its reaper's parent) the owner of
# its stdin with O_ASYNC: each request the harness writes then sends the harness SIGIO,
# whose default is to end it. What fcntl said goes to OUT.
SIGIO = textwrap.dedent("""
    import fcntl, os, sys
    sys.path.insert(0, {broken!r})
    from _base import run

    out = sys.argv[1]

    def parent(pid):
        with open(f"/proc/{{pid}}/stat", "rb") as f:
            return int(f.read().rsplit(b")", 1)[-1].split()[1])

    def hook(n, request, answer):
        if n == 1:
            try:
                fcntl.fcntl(0, fcntl.F_SETOWN, parent(os.getppid()))
                fcntl.fcntl(0, fcntl.F_SETFL, fcntl.fcntl(0, fcntl.F_GETFL) | os.O_ASYNC)
                said = "owned"
            except OSError as e:
                said = type(e).__name__
            with open(out, "w") as f:
                f.write(said)
        return answer

    run(hook)
""")


@guarded
def test_an_engine_cannot_make_the_harness_its_stdin_owner(tmp_path: Path) -> None:
    # the harness ended by SIGIO (exit -29) at its second request, with no report
    script = tmp_path / "sigio.py"
    script.write_text(SIGIO.format(broken=str(BROKEN)))
    said = tmp_path / "said"
    done = subprocess.run([MTRAIN, "conform", "--impl", shlex.join(
        [sys.executable, str(script), str(said)]), "--fixtures", str(FIXTURES),
        "--format", "json", "-k", "basic-001", "--variant", "pagat"],
        capture_output=True, text=True, timeout=300)
    assert said.read_text() == "PermissionError"
    assert done.returncode == 0, (done.returncode, done.stderr)
    [result] = json.loads(done.stdout)["results"]
    assert result["status"] == "pass", result


def test_the_filter_jumps_inside_itself_and_names_the_threads() -> None:
    # classic BPF: jumps go forward, a conditional one 255 instructions at most
    from mtrain.conformance import reaper

    threads = tuple(range(5000, 5000 + 2 * reaper.THREADS))
    for program in (reaper._filter(1234, 1200), reaper._filter(1234, 1200, threads)):
        count = len(program) // 8
        assert len(program) == 8 * count and count <= 4096
        ks = set()
        for i in range(count):
            op, jt, jf, k = struct.unpack_from("=HBBI", program, 8 * i)
            assert op in (0x20, 0x15, 0x05, 0x06), op
            if op == 0x15:
                assert i + 1 + max(jt, jf) < count, i
            if op == 0x05:
                assert i + 1 + k < count, i
            if op == 0x20:
                assert k in (0, 4, 16, 24, 32), k
            ks.add(k)
        assert program[-8:] == struct.pack("=HBBI", 0x06, 0, 0, 0x7FFF0000)
    # the threads named, as many as the jumps allow
    assert 5000 in ks and 5000 + reaper.THREADS - 1 in ks and 5000 + reaper.THREADS not in ks


# --- 2. a declared table of one's own written as a rule-set file writes it ----------------


# The reference, its hello declaring double-8's rules with the hand table (json) written
# in `rules.options.hand_sizes`, where a rule-set file has it
INLINE_TABLE = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {broken!r})
    from _base import run
    from mtrain.spec.catalog import catalog

    table = json.loads(sys.argv[1])

    def hook(n, request, answer):
        if n == 1:
            hello = json.loads(answer)
            options = dict(catalog().ruleset("double-8").choices)
            options["hand_sizes"] = table
            hello["rules"] = {{"name": "house-8", "options": options}}
            return (json.dumps(hello) + "\\n").encode()
        return answer

    run(hook)
""")


def test_a_declared_table_written_in_the_options_is_told_where_it_goes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # it was "expected a value's name, got {...}": a house-rules author who copied the
    # table from a rule-set file was not told that a declaration gives it apart
    from mtrain.cli import main

    script = tmp_path / "inline.py"
    script.write_text(INLINE_TABLE.format(broken=str(BROKEN)))
    table = {"2": 10, "3": 9}
    rc = main(["conform", "--impl", shlex.join([sys.executable, str(script),
                                                 json.dumps(table)]),
               "--fixtures", str(FIXTURES), "-k", "basic-001"])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert err == ("mtrain conform: the implementation's declared rules: "
                   "`rules.options.hand_sizes`: a table of one's own is declared apart: "
                   '`rules.hand_sizes` (players -> tiles, e.g. {"2": 15}) with '
                   '`rules.options.hand_sizes` `custom`, got {"2": 10, "3": 9}\n'), err


# --- 3. the reference server: a partial rule set, a request's article --------------------


def _served(*requests: dict[str, object]) -> list[dict[str, object]]:
    from mtrain.conformance.protocol import decode, encode
    from mtrain.conformance.serve import Server

    server = Server()
    answers = []
    for request in requests:
        answer, _ = server.handle(json.dumps(request).encode() + b"\n")
        answers.append(decode(encode(answer)))
    return answers


def test_a_partial_rule_set_is_told_what_it_lacks_before_its_values_are_checked() -> None:
    # it was "x: hand-size table 'pagat' cannot be dealt from a double-9 set ...": the
    # options it left out were read as pagat's, and their conflict told in their place
    order = [f"{a}-{b}" for a in range(10) for b in range(a + 1)]
    _, answer = _served({"id": 1, "type": "hello", "protocol": 1},
                        {"id": 2, "type": "deal", "players": 2, "round": 1, "order": order,
                         "ruleset": {"name": "x", "options": {"tile_set": "double-9"}}})
    assert answer["ok"] is False, answer
    error = answer["error"]
    assert isinstance(error, dict) and error["kind"] == "bad-request", error
    assert str(error["message"]).startswith(
        "deal: ruleset.options lacks hand_sizes, engine_procedure, "), error


@pytest.mark.parametrize("kind, field", [("apply", "action"), ("legal", "ruleset"),
                                         ("score", "ruleset"), ("deal", "ruleset")])
def test_a_request_lacking_a_field_is_named_with_its_article(kind: str, field: str) -> None:
    # "a apply request needs 'action'"
    request: dict[str, object] = {"id": 2, "type": kind}
    if field == "action":
        request.update(ruleset={"options": {}}, state={})
    _, answer = _served({"id": 1, "type": "hello", "protocol": 1}, request)
    error = answer["error"]
    assert isinstance(error, dict), answer
    article = "an" if kind == "apply" else "a"
    assert error["message"] == f"{article} {kind} request needs {field!r}", error


# --- 4. fixture fields of every scalar type: each refused at its line ----------------------


_HEAD = ("- id: hostile-001\n  description: a hostile input of session 65\n"
         "  clauses: [TRAIN-2]\n  source: [pagat]\n  table:\n")
_REST = ("    hands: {0: [5-3, 9-1], 1: [11-11, 10-0]}\n    trains: {0: [12-5]}\n"
         "  expect:\n    - variants: [pagat]\n      legal: [play 5-3 on 0]\n")


@pytest.mark.parametrize("line, said", [
    ("seat: 1.0", "[0].table.seat: expected an integer, got a number (1.0)"),
    ("seat: -0.0", "[0].table.seat: expected an integer, got a number (-0.0)"),
    ("seat: true", "[0].table.seat: expected an integer, got a boolean (True)"),
    ("seat: '1'", "[0].table.seat: expected an integer, got a string ('1')"),
    ("seat: 100000000000000000000000000", "is greater than the maximum of 19"),
    ("engine: 12.0", "[0].table.engine: expected an integer, got a number (12.0)"),
    ("engine: 1e400", "'1e400' is read as text by YAML 1.1 and as a number by YAML 1.2"),
    ("engine: .nan", "'.nan' is a number written in a form YAML versions read differently"),
    ("passes: 99999999999999999999999", "is greater than the maximum of 2147483647"),
    ("scores: [true, false]", "[0].table.scores[0]: expected an integer, got a boolean"),
    ("outs: ['1', 0]", "[0].table.outs[0]: expected an integer, got a string ('1')"),
    ("phase: 1", "[0].table.phase: bad value 1; allowed values: start, chain"),
    ("first_turns: ALL", "[0].table.first_turns: expected \"all\" or a list"),
    ("drawn: 44", "[0].table.drawn: expected null or a tile"),
    ("marked: [-1]", "[0].table.marked[0]: -1 is less than the minimum of 0"),
    ("boneyard_size: 3", "unknown key 'boneyard_size' in [0].table"),
])
def test_a_table_field_of_the_wrong_type_is_refused_at_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, said: str) -> None:
    from mtrain.cli import main

    path = tmp_path / "f.yaml"
    path.write_text(_HEAD + f"    {line}\n" + _REST)
    rc = main(["lint", "--no-scopes", str(path)])
    out = capsys.readouterr()
    assert rc == 1, out
    assert f"error: {path}:6: " in out.out + out.err, out
    assert said in out.out + out.err, out


@pytest.mark.parametrize("hands, said", [
    ("{0: [\u0665-3], 1: [11-11]}", "got a string ('\u0665-3')"),  # an Arabic-Indic five
    ("{0: [\uff15-3], 1: [11-11]}", "got a string ('\uff15-3')"),  # a full-width five
    ("{0: [5\u20133], 1: [11-11]}", "got a string ('5\u20133')"),  # an en dash
    ("{0.0: [5-3], 1: [11-11]}", "key '0.0' is read as a number (0.0)"),
    ("{false: [5-3], true: [11-11]}", "key 'false' is read as a boolean (False)"),
    ("{~: [5-3], 1: [11-11]}", "key '~' is read as null (None)"),
    ("{0: [5-3], 99999999999999999999: [11-11]}", "key '99999999999999999999' is not a seat"),
])
def test_a_hand_written_in_lookalike_characters_or_keys_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], hands: str, said: str) -> None:
    from mtrain.cli import main

    path = tmp_path / "f.yaml"
    path.write_text(_HEAD + f"    hands: {hands}\n    trains: {{0: [12-5]}}\n"
                    "  expect:\n    - variants: [pagat]\n      legal: [play 5-3 on 0]\n")
    rc = main(["lint", "--no-scopes", str(path)])
    out = capsys.readouterr()
    assert rc == 1, out
    assert f"error: {path}:6: " in out.out + out.err, out
    assert said in out.out + out.err, out
