"""Bad inputs and interrupt paths, round 25 (robust-s53): a Ctrl-C in the first half second
of a command. orjson's module start imports uuid (and datetime, dataclasses, json) and uses
what came back unchecked: an interrupt inside that import left it NULL and the process died
of SIGSEGV (1 early SIGINT to `mtrain conform` in ~250; session 52 saw 1 in ~80). The
console script imported mtrain.cli, and all it imports, before any code of ours could catch
an interrupt: a traceback and death by SIGINT (19 of 60 SIGINTs in the first 120 ms). An
interrupt Python raised where it cannot be raised (a weakref callback of its import locks,
an object's __del__) was printed "Exception ignored" and lost: the command ran to its end
and exited 0."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from command_errors import FAR

ROOT = Path(__file__).resolve().parent.parent


def _run(tmp_path: Path, script: str, *args: str) -> tuple[int, str, str]:
    """`script` run as a program: its exit code, stdout and stderr."""
    path = tmp_path / "start.py"
    path.write_text(script, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(path), *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=FAR)  # a bound on a hang, far above the need
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out, err


# A SIGINT that comes while `name` is being imported, the first time (raise_signal delivers
# it at once; Python raises KeyboardInterrupt at the import machinery's next step).
INTERRUPT_AT = """
import signal, sys

class InterruptAt:
    def __init__(self, name):
        self.name = name

    def find_spec(self, name, path, target=None):
        if name == self.name:
            sys.meta_path.remove(self)
            signal.raise_signal(signal.SIGINT)
        return None

sys.meta_path.insert(0, InterruptAt(sys.argv.pop(1)))
"""


def test_an_interrupt_while_orjson_starts_is_one_line_not_a_segfault(tmp_path: Path) -> None:
    # orjson's start got NULL for uuid and read an attribute of it: exit -11, "Fatal
    # Python error: Segmentation fault"
    code, out, err = _run(tmp_path, INTERRUPT_AT + """
assert "orjson" not in sys.modules and "uuid" not in sys.modules
from mtrain.cli import main
sys.exit(main(["variants"]))
""", "uuid")
    assert (code, out, err) == (130, "", "mtrain variants: interrupted\n")


def _console_script() -> str:
    """The program pip writes for the `mtrain` command, from pyproject.toml's entry."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    module, _, function = scripts["project"]["scripts"]["mtrain"].partition(":")
    return (f"import sys\nfrom {module} import {function}\nif __name__ == '__main__':\n"
            f"    sys.argv[0] = 'mtrain'\n    sys.exit({function}())\n")


def test_an_interrupt_while_the_console_script_imports_the_command_line_is_one_line(
        tmp_path: Path) -> None:
    # the script pip writes imports its entry point's module before calling it: with
    # mtrain.cli as that module, an interrupt among cli's imports was a traceback and
    # death by SIGINT (exit -2)
    code, out, err = _run(tmp_path, INTERRUPT_AT + _console_script(),
                          "mtrain.commands.printing", "variants")
    assert (code, out, err) == (130, "", "mtrain variants: interrupted\n")


def test_the_console_script_imports_nothing_before_its_entry_can_catch_an_interrupt(
        tmp_path: Path) -> None:
    # what the script imports before calling the entry point is beyond any catch: the
    # package and the entry's module only, and no module of Python's the interpreter's
    # start has not loaded (mtrain/__init__ took pathlib, re and 20 more)
    code, out, err = _run(tmp_path, """
import sys
before = set(sys.modules)
""" + _console_script().split("if __name__")[0] + """
print(" ".join(sorted(set(sys.modules) - before)))
""")
    assert code == 0 and err == "", err
    assert out.split() == ["mtrain", "mtrain.__main__"], out


# An object whose __del__ is interrupted, dropped while the command line starts: Python
# prints "Exception ignored in" and goes on (as for its import locks' weakref callbacks).
INTERRUPT_LOST = """
import sys
from mtrain import cli

class Interrupted:
    def __del__(self):
        raise KeyboardInterrupt

build = cli.build_parser

def build_interrupted(*args):
    Interrupted()  # dropped at once
    return build(*args)

cli.build_parser = build_interrupted
sys.argv = ["mtrain", "variants"]
sys.exit(cli.main())
"""


def test_an_interrupt_python_could_not_raise_still_stops_the_command(tmp_path: Path) -> None:
    # the KeyboardInterrupt was "ignored": the variants were listed and the exit was 0
    code, out, err = _run(tmp_path, INTERRUPT_LOST)
    assert (code, out, err) == (130, "", "mtrain variants: interrupted\n")


# An interrupt while a class is made, in a descriptor's __set_name__ (an import making an
# Enum or a class with a cached_property, as ipaddress does): Python 3.11 raises it as a
# RuntimeError whose cause is the KeyboardInterrupt.
INTERRUPT_IN_A_CLASS = """
import sys
from mtrain import cli

class Named:
    def __set_name__(self, owner, name):
        raise KeyboardInterrupt

build = cli.build_parser

def build_interrupted(*args):
    type("Made", (), {"field": Named()})
    return build(*args)

cli.build_parser = build_interrupted
sys.exit(cli.main(["variants"]))
"""


def test_an_interrupt_while_a_class_is_made_is_one_line_not_a_runtime_error(
        tmp_path: Path) -> None:
    # "RuntimeError: Error calling __set_name__ on 'cached_property' instance 'hostmask'
    # in 'IPv6Interface'" and its traceback, exit 1 (1 SIGINT in 300 to a starting conform)
    code, out, err = _run(tmp_path, INTERRUPT_IN_A_CLASS)
    assert (code, out, err) == (130, "", "mtrain variants: interrupted\n")


# --- an engine whose helper, in a session of its own, holds its stdin alone -----------------

# An engine that plays nothing the run asks (every fixture not applicable: it is asked its
# hello and its shutdown only), and starts a helper in a session of its own that keeps the
# engine's stdin, its stdout and stderr elsewhere; it writes the helper's id first.
HELPER_ON_STDIN = """
import json, os, subprocess, sys
helper = subprocess.Popen([sys.executable, "-c", "import signal; signal.pause()"],
                          start_new_session=True, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
with open(sys.argv[1], "w") as out:
    out.write(str(helper.pid))
for line in sys.stdin:
    ask = json.loads(line)
    if ask["type"] == "hello":
        answer = {"id": ask["id"], "ok": True, "protocol": 1, "name": "helped",
                  "version": "1", "variants": ["no-such-rules"]}
    else:
        answer = {"id": ask["id"], "ok": True}
    print(json.dumps(answer), flush=True)
    if ask["type"] == "shutdown":
        break
"""


@pytest.mark.slow  # plays a program under conform
def test_a_helper_in_a_session_of_its_own_holding_the_engines_stdin_is_killed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # docs/protocol.md: such a process goes with the program while it holds the program's
    # stdin or stdout. The harness had closed its end of stdin at the shutdown, before the
    # kill looked for a holder, and took the closed end for nobody: the helper lived on
    import select

    from command_errors import PLAYS, write

    from mtrain.cli import main

    program = shlex.join([sys.executable, write(tmp_path / "helped.py", HELPER_ON_STDIN),
                          str(tmp_path / "helper.pid")])
    fixtures = write(tmp_path / "one.yaml", PLAYS)
    main(["conform", "--impl", program, "--fixtures", fixtures, "--timeout", str(FAR)])
    capsys.readouterr()
    helper = int((tmp_path / "helper.pid").read_text())
    try:
        exited = os.pidfd_open(helper)
    except ProcessLookupError:
        return  # gone already
    try:
        poller = select.poll()
        poller.register(exited, select.POLLIN)
        gone = poller.poll(FAR * 1000)  # its exit: a bound far above the need
    finally:
        os.close(exited)
        if not gone:
            os.kill(helper, signal.SIGKILL)
    assert gone, "the helper lives on"


# --- an engine that reads its whole input before answering ----------------------------------


def test_the_bytes_an_engine_has_not_read_of_its_stdin_are_counted() -> None:
    from mtrain.conformance.child import ChildProcess

    line = b'{"id":1,"type":"hello","protocol":1}\n'
    never = ChildProcess(["sleep", str(FAR)], 1 << 20, None, None)  # reads nothing
    echo = ChildProcess(["cat"], 1 << 20, None, None)  # reads a line, writes it back
    try:
        never.send(line)
        echo.send(line)
        assert echo.receive(FAR) == line  # the event: it has read the line
        assert (never.stdin_pending(), echo.stdin_pending()) == (len(line), 0)
    finally:
        never.kill()
        echo.kill()


@pytest.mark.parametrize("read", [False, True])
def test_a_hello_read_and_never_answered_is_told_from_a_program_slow_to_start(
        monkeypatch: pytest.MonkeyPatch, read: bool) -> None:
    # a program that reads its input to the end before answering (`sys.stdin.read()`,
    # `json.load(stdin)`, a stream's end event) was told it was slow to start and needed
    # a longer --start-timeout, which only made it wait longer; whether it has read the
    # hello (its stdin holds none of it) tells the two apart
    from mtrain.conformance.child import ChildProcess
    from mtrain.conformance.process import ImplementationTimeout, ProcessImplementation

    if read:  # as `sys.stdin.read()` would have, by the time the hello is late
        monkeypatch.setattr(ChildProcess, "stdin_pending", lambda self: 0)
    impl = ProcessImplementation(["sleep", str(FAR)], timeout=FAR, start_timeout=0.05,
                                 start_attempts=1)
    try:
        with pytest.raises(ImplementationTimeout) as caught:
            impl.start()  # `sleep` answers nothing, at any load
    finally:
        impl.close()
    said = str(caught.value)
    assert said.startswith("while starting: no answer to the hello request within 0.05 s "
                           "(--start-timeout) ("), said
    if read:
        assert ("it read the hello (none of it is left in its stdin) and wrote nothing: a "
                "program that reads its input to the end before answering (read(), "
                "json.load(stdin), a stream's end event) waits for ever, as the harness "
                "writes the next request only once this one is answered: read a line, "
                "answer it and flush; a program slow to start needs a longer "
                "--start-timeout)") in said, said
    else:
        assert "it has not read the hello yet" in said and "--start-timeout" in said, said


# --- answers a program's author writes by mistake, told as such ------------------------------

HELLO = '{"id": 1, "ok": true, "protocol": 1, "name": "x", "version": "1", "variants": ["*"]}'


def _started(answer: str) -> str:
    """What the harness says of a program that answers its hello with `answer`."""
    from mtrain.conformance.process import HarnessError, ProcessImplementation

    program = [sys.executable, "-c", "import sys; sys.stdin.readline(); "
               f"print({answer!r}, flush=True); sys.stdin.read()"]
    with ProcessImplementation(program, timeout=FAR, start_attempts=1) as impl, \
            pytest.raises(HarnessError) as caught:
        impl.start()
    return caught.value.message


def test_a_python_dict_printed_as_an_answer_is_told_to_be_written_as_json() -> None:
    # "not JSON (Expecting property name enclosed in double quotes at character 1)" alone
    said = _started("{'id': 1, 'ok': True, 'protocol': 1}")
    assert said.endswith(
        "(single quotes, True, False or None: a Python dict as print() or str() writes it, "
        "which is not JSON; write json.dumps(answer)); the implementation was killed"), said


def test_an_id_written_as_text_is_told_so_not_out_of_order() -> None:
    # "carries id \"1\": one answer per request, in order", as if it answered another
    said = _started(HELLO.replace('"id": 1', '"id": "1"'))
    assert said == ('while starting: the answer to the hello request (id 1) carries id "1": '
                    "the id sent, written as text: an id is an integer, written without "
                    "quotes (1, not \"1\"); the implementation was killed"), said


def test_a_program_that_exits_after_each_answer_is_told_one_process_answers_the_run() -> None:
    # "the implementation exited with code 0, before answering the legal request", once
    # per request, the program started again for each: nothing said what a clean exit
    # there meant
    from mtrain.conformance.process import ImplementationCrashed, ProcessImplementation

    program = [sys.executable, "-c", "import sys; sys.stdin.readline(); "
               f"print({HELLO!r}, flush=True); sys.stdin.readline()"]
    with ProcessImplementation(program, timeout=FAR) as impl, \
            pytest.raises(ImplementationCrashed) as caught:
        impl.legal({}, {})
    assert caught.value.message == (
        "the implementation exited with code 0, before answering the legal request (a clean "
        "exit: the harness sends every request of the run to one process, which exits only "
        "at the shutdown or the end of its input)"), caught.value.message


# --- part of a line after the last answer, the shutdown unanswered ----------------------------

# An engine that plays nothing the run asks (asked its hello and its shutdown only), which
# writes part of a line after its hello's answer, in the same write, and then answers
# nothing more (the shutdown neither).
HALF_A_LINE_AFTER = """
import json, sys
ask = json.loads(sys.stdin.readline())
hello = {"id": ask["id"], "ok": True, "protocol": 1, "name": "halting", "version": "1",
         "variants": ["no-such-rules"]}
sys.stdout.write(json.dumps(hello) + '\\n{"id": 2, "ok": tr')
sys.stdout.flush()
sys.stdin.read()
"""


@pytest.mark.slow  # plays a program under conform
def test_part_of_a_line_after_the_last_answer_is_a_problem_of_the_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a whole line there is said (robust-s51); part of one, the program alive and silent
    # at the shutdown, was dropped unsaid and the run passed but for its nothing-ran
    import json

    from command_errors import PLAYS, write

    from mtrain.cli import main

    program = shlex.join([sys.executable, write(tmp_path / "half.py", HALF_A_LINE_AFTER)])
    fixtures = write(tmp_path / "one.yaml", PLAYS)
    main(["conform", "--impl", program, "--fixtures", fixtures, "--timeout", str(FAR),
          "--format", "json"])
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert [p.split(": '")[0] for p in problems] == [
        "after its answer to the last request the implementation wrote part of a line, "
        "never ended with a newline"], problems
    assert "'{\"id\": 2, \"ok\": tr'" in problems[0], problems
