"""Inputs the earlier robustness rounds let through (robust-s42): a caller's program that
runs the harness from a thread is not run again by its workers, and one command ending
does not kill the programs another still runs beside it; a run interrupted before
its first result says so rather than blaming the declaration; serve refuses a rule set
with a field the protocol has not (`tile_set` beside `options`) instead of reading past
it; a table naming a seat it
has not (or one number too few per seat) is the fixture's fault at its line, not the
implementation's; a program that answers with empty lines is told so at the timeout."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.child import ChildProcess, stop_on_signals
from mtrain.conformance.report import Report

CHAIN = Path(__file__).parent.parent / "conformance" / "fixtures" / "chain-doubles" / "chain.yaml"


# --- a caller's own program ----------------------------------------------------------


def test_a_caller_running_the_harness_from_a_thread_is_not_run_again_by_its_workers(
        tmp_path: Path) -> None:
    # with a second thread the pools come from a forkserver (forking.py), whose workers
    # ran the caller's main script again, as `__mp_main__`: its top level once more per
    # worker (unguarded, it started the whole run again in each)
    ran = tmp_path / "ran.txt"
    script = tmp_path / "caller.py"
    script.write_text(textwrap.dedent(f"""\
        import threading
        from mtrain.conformance.forking import pool_context

        with open({str(ran)!r}, "a") as f:  # the caller's top level: once
            f.write("ran\\n")

        def work():
            ctx = pool_context()
            print(type(ctx).__name__)
            with ctx.Pool(1) as pool:
                print(pool.map(abs, [-3]))

        if __name__ == "__main__":
            t = threading.Thread(target=work)
            t.start()
            t.join()
        """), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["_Forkserver", "[3]"]  # a forkserver's worker did it
    assert ran.read_text() == "ran\n"


def test_a_command_ending_leaves_the_programs_of_another_one_running() -> None:
    # every command ends by killing each program the harness started (stop_on_signals):
    # a caller running conform beside mutants, each on a thread, had its implementation
    # killed by SIGKILL when mutants ended ("the implementation was killed by SIGKILL,
    # before answering the apply request")
    with stop_on_signals():
        program = ChildProcess([sys.executable, "-c", "import time; time.sleep(60)"],
                               1000, None, None)
        other = threading.Thread(target=_one_command)
        other.start()
        other.join()
        assert program.alive()  # the other command's end left it alone
    assert not program.alive()  # the last command's end reaps it


def _one_command() -> None:
    with stop_on_signals():
        pass


# --- an interrupt before the first result ------------------------------------------------


def test_a_run_interrupted_before_its_first_result_says_so() -> None:
    # said "no fixture speaks about the rule sets run; declare the rules the implementation
    # plays": advice about a declaration that was not at fault
    report = Report(results=[], outside={"pagat": 201}, rulesets="1 rule set, as asked",
                    interrupted="interrupted (SIGINT)")
    assert report.failed
    assert report.headline() == ("FAILED: nothing ran: it was interrupted (SIGINT) before "
                                 "its first result")
    assert "declare" in (Report(results=[], outside={"pagat": 201}).nothing_ran or "")


# --- a table naming seats it has not ------------------------------------------------------


@pytest.mark.parametrize("written, said", [
    ("first_turns: [0, 9]", "first_turns: 9 is not a seat at this table (seats 0..2)"),
    ("first_turns: [0, 2, 0]", "first_turns: seat 0 is listed twice"),
    ("first_turns: all\n    seat: 9", "seat: 9 is not a seat at this table (seats 0..2)"),
    ("first_turns: all\n    starter: 3", "starter: 3 is not a seat at this table (seats 0..2)"),
    ("first_turns: all\n    scores: [1]", "scores: 1 numbers for 3 seats"),
    ("first_turns: all\n    outs: [0, 0, 0, 0]", "outs: 4 numbers for 3 seats")])
def test_a_table_naming_a_seat_it_has_not_is_the_fixtures_fault_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, written: str, said: str) -> None:
    # the state went to the implementation as written, whose decoder refused it: "the
    # implementation's answer could not be used: StateError: ... (at codec.py:362)"; a
    # seat listed twice in first_turns ran as written and passed
    one = CHAIN.read_text(encoding="utf-8").split("\n- id: chaindbl-002")[0]
    assert "    first_turns: all\n" in one
    path = tmp_path / "f.yaml"
    path.write_text(one.replace("    first_turns: all\n", f"    {written}\n"),
                    encoding="utf-8")
    line = 1 + path.read_text(encoding="utf-8").splitlines().index(
        "    " + written.split("\n")[-1].strip())
    rc = main(["conform", "--fixtures", str(path), "--variant", "pagat"])
    out = capsys.readouterr().out
    assert rc == 1
    # the file's fault, named once as such, no engine asked (9d82953)
    assert f"LOAD ERROR {path}:{line}: chaindbl-001 [pagat]: {said}\n" in out, out[-1500:]
    assert "StateError" not in out


# --- a program answering with empty lines ----------------------------------------------------


def test_a_program_answering_with_empty_lines_is_told_so_at_the_timeout() -> None:
    # blank lines are skipped (no answer, and no fault alone), so the timeout said only
    # "no answer within 2 s", as if the program had written nothing. The timeout starts
    # once the program says it has written the line (test_robust_impls.late): under 2 s
    # from its start, a loaded machine could time it out before it had written anything.
    from test_robust_impls import late

    assert late("blank-line", "wrote an empty line") == (
        "no answer to the hello request within 0.2 s (it wrote 1 empty line and no answer: "
        "an answer is one JSON object on one line); the implementation was killed")


# --- a rule set with a field the protocol has not -------------------------------------------


def test_serve_refuses_a_rule_set_with_a_field_the_protocol_has_not(
        capsys: pytest.CaptureFixture[str]) -> None:
    # `tile_set` written beside `options` was read past: the request was answered under
    # the options' double-12 set, as if the client had not asked for a double-6 one
    from mtrain.conformance.serve import Server

    assert main(["state", "chaindbl-001", "--variant", "pagat"]) == 0
    request = json.loads(capsys.readouterr().out)
    server = Server()
    answer, _ = server.handle(json.dumps(request).encode() + b"\n")
    assert answer["ok"] is True, answer  # as written, answered
    rs = request["ruleset"]
    for ruleset, said in [
            ({**rs, "tile_set": "double-6"}, "legal.ruleset has no field 'tile_set'"),
            ({**rs, "Options": {}}, "legal.ruleset has no field 'Options'")]:
        line = json.dumps({**request, "ruleset": ruleset})
        answer, stop = server.handle(line.encode() + b"\n")
        assert not stop and answer["ok"] is False, answer
        assert answer["error"]["kind"] == "bad-request"
        assert answer["error"]["message"].startswith(said), answer
