"""Bad inputs and misbehaving engines, round 27 (robust-s55): a command started with its
stderr closed (`2>&-`) wrote its errors into its stdout; one started with SIGINT ignored (a
shell's `&`) ignored it for its first half second, then obeyed it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from command_errors import FAR

from mtrain.conformance import child

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
