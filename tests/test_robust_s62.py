"""Bad inputs and misbehaving engines, round 35 (robust-s62): a reaper told to end (the
watchdog's SIGTERM) in the moment after it said `run` and before it held the engine.

Session 61's clean-clone CI failed once on test_robust_s58's "a worker reaps its watchdog"
at load 2.8: the worker ended at once, its watchdog SIGTERMed the engine's reaper, the
SIGTERM came before the reaper's wake pipe was set, and was noted and lost. The reaper then
held the engine until the watchdog gave up on it (5 s) and killed the groups, and the
worker, waiting 2 s for its watchdog, left it to be adopted. Here the SIGTERM is sent at
that moment by the reaper itself, so the test fails every time where the signal is lost."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mtrain.conformance import reaper

linux = pytest.mark.skipif(not sys.platform.startswith("linux") or
                           not hasattr(os, "pidfd_open"), reason="subreapers are Linux's")

# reaper.py as the harness starts it, but it SIGTERMs itself just after it said `run`
TERMED_AFTER_RUN = textwrap.dedent("""
    import os, signal, sys
    sys.path.insert(0, os.path.dirname({path!r}))
    import reaper

    said = reaper._say

    def say_then_term(fd, text):
        done = said(fd, text)
        if text == "run":
            os.kill(os.getpid(), signal.SIGTERM)
        return done

    reaper._say = say_then_term
    reaper.main(sys.argv[1:])
""")


@linux
def test_a_sigterm_just_after_run_ends_the_engine_at_once(tmp_path: Path) -> None:
    script = tmp_path / "termed.py"
    script.write_text(TERMED_AFTER_RUN.format(path=reaper.__file__))
    ours, theirs = socket.socketpair()
    engine = [sys.executable, "-c", "import time; time.sleep(600)"]
    proc = subprocess.Popen([sys.executable, "-I", "-S", str(script), str(theirs.fileno()),
                             *engine], pass_fds=[theirs.fileno()])
    theirs.close()
    try:
        ours.settimeout(60)
        said = b""
        start = time.monotonic()
        while not said.endswith(b"end\n"):  # `run`, then `end` once it swept
            chunk = ours.recv(64)
            if not chunk:
                break
            said += chunk
        code = proc.wait(60)
        took = time.monotonic() - start
    finally:
        ours.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # the engine killed by the reaper (its SIGKILL, said as the reaper's own end)
    assert (said, code) == (b"run\nend\n", -9)
    assert took < 30, took  # at once, not at the engine's own end 600 s later
