"""Bad inputs and misbehaving engines, round 27 (robust-s55): a command started with its
stderr closed (`2>&-`) wrote its errors into its stdout; one started with SIGINT ignored (a
shell's `&`) ignored it for its first half second, then obeyed it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from command_errors import FAR, PLAYS, write

from mtrain.cli import main
from mtrain.conformance import child
from mtrain.spec.rules_file_shape import _names_an_option
from mtrain.spec.yamlload import SpecError, SpecErrors

# --- 1a. stderr closed ----------------------------------------------------------------------


def _with_stderr_closed(*words: str) -> subprocess.CompletedProcess[str]:
    """`mtrain WORDS 2>&-`, as the console script runs it."""
    return subprocess.run([sys.executable, "-m", "mtrain", *words], stdout=subprocess.PIPE,
                          text=True, timeout=FAR, preexec_fn=lambda: os.close(2), check=False)


@pytest.mark.parametrize("words", [
    ["rules", "no-such-variant"],  # the command's own error
    ["conforn"],  # argparse's usage and its error
], ids=["input-error", "usage-error"])
def test_an_error_with_stderr_closed_is_not_written_to_stdout(words: list[str]) -> None:
    # sys.stderr was None, and print(..., file=None) writes to stdout: the error stood
    # on stdout, where a report is read
    done = _with_stderr_closed(*words)
    assert (done.returncode, done.stdout) == (2, ""), done


def test_a_command_with_stderr_closed_still_writes_its_output() -> None:
    done = _with_stderr_closed("explain", "TURN-6")
    assert done.returncode == 0 and "TURN-6" in done.stdout, done


# --- 1b. SIGINT ignored ---------------------------------------------------------------------


def test_a_command_started_with_sigint_ignored_keeps_ignoring_it() -> None:
    # stop_on_signals put its own handler in place of the ignore, 0.5 s in (once the
    # command's modules were imported): a SIGINT before then was lost, one after it
    # stopped the run
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with child.stop_on_signals():
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            signal.raise_signal(signal.SIGINT)  # ignored: nothing is raised
            # SIGTERM still stops the run (and so kills its engines on the way out)
            with pytest.raises(child.Interrupted):
                signal.raise_signal(signal.SIGTERM)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_command_started_with_sigint_obeyed_still_obeys_it() -> None:
    with child.stop_on_signals(), pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)


# --- 2. a rule-set file of thousands of stray options ---------------------------------------


def test_a_file_of_thousands_of_problems_says_a_hundred_and_counts_the_rest(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # every one was said, with the 18 known options each time: 300,000 strays wrote 120 MB
    strays = "".join(f"  o{i}: v\n" for i in range(3000))
    rules = write(tmp_path / "strays.yaml", f"name: strays\nbase: pagat\noptions:\n{strays}")
    assert main(["rules", rules]) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert out == "" and len(lines) == 101, (len(lines), lines[-2:])
    assert lines[0].endswith("strays.yaml:4: unknown option 'o0'; known: tile_set, hand_sizes, "
                             "engine_procedure, starting_seat, first_turn, mexican_first_turn, "
                             "own_train_first, doubles, follow_up, double_order, "
                             "uncoverable_double, marker_removal, draw_rule, blocked_round, "
                             "scoring, blank_values, tie_rule, match_length"), lines[0]
    assert lines[99].startswith(f"{tmp_path}/strays.yaml:103: unknown option 'o99';"), lines[99]
    assert lines[100] == "... and 2,900 more problems, not shown (3,000 in all)"


def test_a_hundred_problems_are_all_said() -> None:
    errors = [SpecError("f.yaml", n, f"problem {n}") for n in range(1, 101)]
    assert str(SpecErrors(errors)).splitlines() == [f"f.yaml:{n}: problem {n}"
                                                    for n in range(1, 101)]


@pytest.mark.parametrize("text, named", [
    ("f.yaml:4: options.tie_rul: 3 is not of type 'string'", True),
    ("f.yaml:4: options.tie_rule: 3 is not of type 'string'", False),  # a longer word
    ("f.yaml:4: options.tie: 3 is not of type 'string'", False),  # a shorter one
    ("f.yaml:4: the options.tie_rul.2 key", True),  # a path under it
    ("f.yaml:4: myoptions.tie_rul: ...", False),  # `options` as a word only
    ("f.yaml:4: options.x-y: bad", True),  # a name not all word characters
])
def test_a_schema_error_about_a_stray_option_is_known_by_its_path(text: str,
                                                                  named: bool) -> None:
    # each schema error was searched for each stray, a regular expression each: 20,000
    # strays took 54 s, now 2 (the 300,000 of 120 MB took 200 s, mostly the schema's)
    assert _names_an_option(text, {"tie_rul", "x-y"}) is named


# --- 3. an adapter module that prints, or reads its input, when imported --------------------


def test_an_adapter_printing_at_import_leaves_the_report_whole(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # its line stood at the head of the JSON report on stdout, which no longer parsed
    adapter = write(tmp_path / "chatty.py", """
print("engine loaded")
from mtrain.conformance.adapter import ReferenceImplementation as Engine
""")
    fixtures = write(tmp_path / "ends.yaml", PLAYS)
    assert main(["conform", "--adapter", f"{adapter}:Engine", "--variant", "pagat",
                 "--fixtures", fixtures, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert [r["status"] for r in json.loads(out)["results"]] == ["pass"], out[:300]
    assert "engine loaded" in err


def test_an_adapter_reading_its_input_at_import_neither_waits_nor_takes_the_calls(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # in the harness it read the user's terminal (for ever); in the process that hosts
    # the adapter it read the harness's calls, and the run stopped at the start timeout
    adapter = write(tmp_path / "looping.py", """
import sys
for line in sys.stdin:  # a protocol loop, left unguarded
    print(line)
from mtrain.conformance.adapter import ReferenceImplementation as Engine
""")
    fixtures = write(tmp_path / "ends.yaml", PLAYS)
    code = main(["conform", "--adapter", f"{adapter}:Engine", "--variant", "pagat",
                 "--fixtures", fixtures, "--start-timeout", "30"])
    out, err = capsys.readouterr()
    assert code == 0 and "OK: 1 results ran (1 pass)" in out, (code, out[-500:], err)


# --- 4. an adapter module that ends the process, or blocks, when imported (robust55b) -----


@pytest.mark.parametrize("where", ["at import", "in __init__"])
def test_an_adapter_ending_the_process_at_its_start_is_an_error_not_a_silent_exit_0(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str) -> None:
    # the harness imported it itself: os._exit(0) ended the run there, exit 0, no output
    body = ("import os\nos._exit(0)\n"
            "from mtrain.conformance.adapter import ReferenceImplementation as Engine\n"
            if where == "at import" else
            "import os\nfrom mtrain.conformance.adapter import ReferenceImplementation\n"
            "class Engine(ReferenceImplementation):\n"
            "    def __init__(self):\n        os._exit(0)\n")
    adapter = write(tmp_path / "quitter.py", body)
    fixtures = write(tmp_path / "ends.yaml", PLAYS)
    code = main(["conform", "--adapter", f"{adapter}:Engine", "--variant", "pagat",
                 "--fixtures", fixtures])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (code, out, err)
    assert "exited with code 0 while starting" in err and "nothing was run" in err, err


def test_an_adapter_blocking_at_import_stops_at_the_start_timeout(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the harness imported it itself and waited with it, until Ctrl-C
    adapter = write(tmp_path / "sleeper.py", """
import time
time.sleep(3600)
from mtrain.conformance.adapter import ReferenceImplementation as Engine
""")
    fixtures = write(tmp_path / "ends.yaml", PLAYS)
    code = main(["conform", "--adapter", f"{adapter}:Engine", "--variant", "pagat",
                 "--fixtures", fixtures, "--start-timeout", "1"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", (code, out, err)
    assert "did not start a worker within 1 s (--start-timeout)" in err, err
