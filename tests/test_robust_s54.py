"""Bad inputs and misbehaving engines, round 26 (robust-s54). An engine's own texts (an
error's message and kind, a refusal's reason and clause, a refused setup's message, an
`unsupported` reason) were quoted whole with every result they touched: an answer line may
be 4 MiB, and ten fixtures answered with a 2 MB reason wrote a 16 MB report."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from command_errors import FAR, PLAYS, write

from mtrain.cli import main
from mtrain.conformance.interface import Refused, RefusedSetup, Unsupported
from mtrain.conformance.protocol import ErrorAnswer, check_answer

HUGE = 1_000_000


# --- an engine's texts are cut where the harness reads them -----------------------------------

def test_an_error_answers_huge_message_and_kind_are_cut_with_their_lengths() -> None:
    answer = {"id": 3, "ok": False, "error": {"kind": "k" * HUGE, "message": "m" * HUGE}}
    with pytest.raises(ErrorAnswer) as caught:
        check_answer("legal", 3, answer)
    assert caught.value.message == "m" * 300 + "... (1,000,000 characters)"
    assert caught.value.kind == "k" * 300 + "... (1,000,000 characters)"


def test_an_error_answers_message_of_ordinary_length_is_kept_whole() -> None:
    message = "no hand size for 9 players " * 12  # 324 characters
    with pytest.raises(ErrorAnswer) as caught:
        check_answer("deal", 1, {"id": 1, "ok": False,
                                 "error": {"kind": "internal", "message": message}})
    assert (caught.value.kind, caught.value.message) == ("internal", message)


@pytest.mark.parametrize("raised", [Refused, RefusedSetup])
def test_a_huge_refusal_reason_and_clause_are_cut(raised: type[Refused]) -> None:
    refusal = raised("r" * HUGE, "X" * HUGE)
    assert refusal.reason == "r" * 300 + "... (1,000,000 characters)" == str(refusal)
    assert refusal.clause == "X" * 300 + "... (1,000,000 characters)"
    assert (raised("why", None).reason, raised("why", None).clause) == ("why", None)


def test_a_huge_unsupported_reason_is_cut() -> None:
    assert Unsupported("u" * HUGE).reason == "u" * 300 + "... (1,000,000 characters)"


def test_a_report_of_refusals_of_megabytes_is_a_report_of_lines(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the report quoted each refusal whole: 2 MB a result
    adapter = write(tmp_path / "wordy.py", """
from mtrain.conformance.adapter import ReferenceImplementation, Refused

class Engine(ReferenceImplementation):
    def apply(self, ruleset, state, action):
        raise Refused("because " * 250_000, "TURN-" + "7" * 1_000_000)
""")
    fixtures = write(tmp_path / "ends.yaml", PLAYS)
    assert main(["conform", "--adapter", f"{adapter}:Engine", "--variant", "pagat",
                 "--fixtures", fixtures]) == 1
    out = capsys.readouterr().out
    assert "was refused: because because" in out and "(2,000,000 characters)" in out, out
    assert "[TURN-7777" in out and "(1,000,005 characters)]" in out, out[-2000:]
    assert len(out) < 20_000, len(out)


# --- a `next-round` step before the round is over --------------------------------------------

# seat 0 lays its last tile: the round is over, and the next round is dealt (as
# lastround-003 of the corpus, whose table it is)
GOES_OUT = """\
- id: out-001
  description: Seat 0 goes out and the next round is dealt
  clauses: [MATCH-1]
  source: [pagat]
  note: Seat 0 lays its last tile [6-2]; round 12 of 13 is over, and round 13 is dealt.
  table:
    engine: 1
    seat: 0
    hands:
      0: [6-2]
      1: [9-8, 3-2]
      2: [7-7, 4-2]
    trains:
      0: [1-3, 3-6]
      1: [1-4]
      2: [1-8]
      mexican: [1-5]
    scores: [100, 90, 80]
    outs: [5, 4, 2]
  steps: [play 6-2 on 0, next-round]
  expect:
    - variants: [pagat]
      state:
        engine: 0
"""


def _results(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, object]]:
    main(["conform", "--variant", "pagat", "--format", "json", *args])
    results: list[dict[str, object]] = __import__("json").loads(
        capsys.readouterr().out)["results"]
    return results


def test_a_next_round_the_rules_do_not_reach_either_is_the_fixtures_fault(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # it was a FAIL charged to the implementation ("the rules end it by the steps before"),
    # the reference's own run of it too
    early = GOES_OUT.replace("hands:\n      0: [6-2]", "hands:\n      0: [6-2, 5-5]")
    fixtures = write(tmp_path / "early.yaml", early)
    [result] = _results(capsys, "--fixtures", fixtures)
    assert result["status"] == "error", result
    assert "step 2 `next-round` comes while the round is not over under the rules too" in \
        str(result["messages"]), result


def test_a_next_round_after_a_round_the_implementation_did_not_end_still_fails(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    adapter = write(tmp_path / "endless.py", """
from mtrain.conformance.adapter import ReferenceImplementation

class Engine(ReferenceImplementation):
    def apply(self, ruleset, state, action):
        after = super().apply(ruleset, state, action)
        return {**after, "result": None, "phase": "start"}
""")
    fixtures = write(tmp_path / "out.yaml", GOES_OUT)
    [result] = _results(capsys, "--fixtures", fixtures, "--adapter", f"{adapter}:Engine")
    assert result["status"] == "fail", result
    assert "the rules end it by the steps before" in str(result["messages"]), result


# --- a program started again that answers its hello otherwise ---------------------------------

# answers its hello, naming the start it is (counted in a file), then exits on any request
COUNTS_ITS_STARTS = """
import json, sys
path = sys.argv[1]
try:
    start = int(open(path).read()) + 1
except FileNotFoundError:
    start = 1
open(path, "w").write(str(start))
hello = json.loads(sys.stdin.readline())
variants = ["*"] if start == 1 or sys.argv[2] == "same" else ["puremco"]
print(json.dumps({"id": hello["id"], "ok": True, "protocol": 1, "name": "counter",
                  "version": "1", "variants": variants}), flush=True)
sys.stdin.readline()
"""


def _second_start(tmp_path: Path, hello: str) -> str:
    """What the harness says of the request that started the program a second time."""
    from mtrain.conformance.process import HarnessError, ProcessImplementation
    engine = write(tmp_path / "counter.py", COUNTS_ITS_STARTS)
    said = []
    with ProcessImplementation([sys.executable, engine, str(tmp_path / "starts"), hello],
                               timeout=FAR) as impl:
        assert impl.info()["variants"] == ["*"]
        for _ in range(2):  # the first exits unanswered; the second starts it again
            with pytest.raises(HarnessError) as caught:
                impl.legal({}, {})
            said.append(caught.value.message)
    assert "exited" in said[0], said
    return said[1]


def test_a_program_started_again_answering_its_hello_otherwise_is_refused(
        tmp_path: Path) -> None:
    # the run went on under the first hello's declaration with a program that had
    # declared another: nothing said
    said = _second_start(tmp_path, "other")
    assert said == ("while starting: the implementation, started again, answered its hello "
                    "otherwise than at its first start (its 'variants' was [\"*\"], now "
                    "[\"puremco\"]): a run tests one implementation, and reads what it plays "
                    "from its first hello"), said


def test_a_program_started_again_answering_its_hello_alike_is_asked_again(
        tmp_path: Path) -> None:
    assert "exited" in _second_start(tmp_path, "same")


def test_a_second_jobs_program_answering_its_hello_otherwise_is_refused(
        tmp_path: Path) -> None:
    # each job's program was greeted on its own: the second job ran a program declaring
    # other variants than the run had read from the first
    from mtrain.conformance.process import HarnessError, ProcessImplementation
    engine = write(tmp_path / "counter.py", COUNTS_ITS_STARTS)
    argv = [sys.executable, engine, str(tmp_path / "starts"), "other"]
    hellos: dict[str, dict[str, object]] = {}
    with ProcessImplementation(argv, timeout=FAR, hellos=hellos) as first, \
            ProcessImplementation(argv, timeout=FAR, hellos=hellos) as second:
        assert first.info()["variants"] == ["*"]
        with pytest.raises(HarnessError) as caught:
            second.info()
    assert "its 'variants' was [\"*\"], now [\"puremco\"]" in caught.value.message


# --- standard streams closed when the command starts (`>&-`, `<&-`) -------------------------
# Python has no stream for a closed descriptor: sys.stdout (or sys.stdin) is None, and each
# command died of an AttributeError's traceback


@pytest.mark.parametrize("args", [["explain", "DBL-1"], ["variants"], ["serve"]])
def test_a_closed_stdout_is_one_line_saying_so(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        args: list[str]) -> None:
    monkeypatch.setattr(sys, "stdout", None)
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"mtrain {args[0]}: cannot write the output: standard output is "
                          "closed") and err.count("\n") == 1, err


def test_a_closed_stdin_to_serve_is_one_line_saying_so(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", None)
    assert main(["serve"]) == 2
    assert capsys.readouterr().err == ("mtrain serve: standard input is closed: the server "
                                       "reads its requests there\n")



def test_a_script_without_its_interpreter_line_is_told_to_name_one(tmp_path: Path) -> None:
    # it was the system's "Exec format error" alone
    from mtrain.conformance.process import ConfigurationError, ProcessImplementation
    script = tmp_path / "engine.py"
    script.write_text("print('no #! line above me')\n", encoding="utf-8")
    script.chmod(0o755)
    with pytest.raises(ConfigurationError) as caught, \
            ProcessImplementation([str(script)], timeout=FAR) as impl:
        impl.info()
    assert str(caught.value) == (
        f"cannot run {script}: {script} is not a program the system can start (a script "
        f"needs a #! line naming its interpreter, or name it: --impl \"python {script}\")")
