"""Bad inputs and misbehaving engines, round 31 (robust-s58): what an engine started in a
session or group of its own outlived a harness killed outright; a pool worker that ended
by os._exit left its watchdog to whoever adopted it; `mtrain lint --write-scopes` cut a
fixture short when the disk filled while it wrote."""

from __future__ import annotations

import contextlib
import resource
import shlex
import signal
import stat
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from procwatch import BOUND, started, survivors

from mtrain.cli import main
from mtrain.conformance.outputs import check_output
from mtrain.spec.errors import InputError

BROKEN = Path(__file__).resolve().parent / "broken_impls"

posix = pytest.mark.skipif(not Path("/proc/self/environ").exists(),
                           reason="process groups and /proc are Linux's")


# --- 1. what an engine started out of its group, after the harness is killed ------------


HARNESS = textwrap.dedent("""
    import sys, time
    from mtrain.conformance.child import ChildProcess

    proc = ChildProcess(sys.argv[1:], 1 << 16, None, None)
    time.sleep(600)
""")

# the engine starts a child that leaves its session (setsid) or only its group (setpgid),
# closes the pipes it inherited (so that no look at who holds them finds it) and sleeps;
# with "orphan" the engine exits once the child has said its pid, the child now init's
ESCAPER = textwrap.dedent("""
    import os, sys, time
    pids, how, orphan = sys.argv[1], sys.argv[2], sys.argv[3] == "orphan"
    if os.fork() == 0:
        os.setsid() if how == "setsid" else os.setpgid(0, 0)
        if os.fork() == 0:  # a daemon's second fork: its parent is gone at once
            for fd in (0, 1, 2):
                os.close(fd)
            with open(pids, "a") as f:
                f.write(f"{os.getpid()}\\n")
            time.sleep(600)
        os._exit(0)
    with open(pids, "a") as f:
        f.write(f"{os.getpid()}\\n")
    if not orphan:
        time.sleep(600)
    # the orphan's engine ends once its daemon has said its pid: an engine's reaper
    # (conformance/reaper.py) kills what it leaves when it ends, and a daemon killed before
    # it wrote its pid was never seen to start (at load 5 in CI)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with open(pids) as f:
            if len(f.read().split()) >= 2:
                break
        time.sleep(0.02)
""")


@posix
@pytest.mark.parametrize("how, orphan", [("setsid", "stay"), ("setpgid", "orphan")])
def test_what_an_engine_started_out_of_its_group_dies_with_a_harness_killed_outright(
        pids: Path, how: str, orphan: str) -> None:
    engine = [sys.executable, "-c", ESCAPER, str(pids), how, orphan]
    harness = subprocess.Popen([sys.executable, "-c", HARNESS, *engine])
    try:
        started(pids, 2)
        harness.kill()  # no handler runs, no exit handler: only the watchdog is left
        harness.wait(BOUND)
        assert survivors(pids) == []
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.wait()


# --- 2. a worker's watchdog, when the worker ends without its exit handlers -------------


# The helper adopts what its workers leave (a subreaper, as a container's init or a CI
# runner is): a worker's watchdog found among its children was left unreaped.
ADOPTER = textwrap.dedent("""
    import ctypes, multiprocessing, os, signal, sys
    from mtrain.conformance import forking, watchdog
    from mtrain.conformance.child import ChildProcess
    from mtrain.conformance.fuzz import run

    ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER

    def work(how, told):
        ChildProcess([sys.executable, "-c", "import time; time.sleep(600)"], 1 << 16,
                     None, None)
        os.write(told, b"%d" % watchdog._pid)
        if how == "orphaned":  # its harness is gone
            forking._die()
        elif how == "fuzz":  # fuzz's own handler of a pool's SIGTERM
            run._worker_stop(signal.SIGTERM, None)

    for how in sys.argv[1:]:
        read, told = os.pipe()
        worker = multiprocessing.get_context("fork").Process(target=work, args=(how, told))
        worker.start()
        os.close(told)
        dog = int(os.read(read, 32))
        worker.join()
        try:
            adopted = os.waitpid(dog, 0)[0] == dog
        except ChildProcessError:
            adopted = False
        print(how, "adopted" if adopted else "reaped", flush=True)
""")


@posix
def test_a_worker_reaps_its_watchdog_however_it_ends() -> None:
    hows = ["return", "orphaned", "fuzz"]
    out = subprocess.run([sys.executable, "-c", ADOPTER, *hows], capture_output=True,
                         text=True, timeout=BOUND)
    assert out.stdout.splitlines() == [f"{how} reaped" for how in hows], out.stderr


# --- 3. lint --write-scopes on a full disk -----------------------------------------------

OWN_FIXTURE = """\
- id: mine-001
  description: a deal under the house table
  clauses: [DEAL-1]
  source: [decision]
  rules: rulesets/house.yaml
  deal: {players: 4, order: sorted}
  expect:
    - variants: [house]
      state: {hand_sizes: [11, 11, 11, 11]}
"""


@contextlib.contextmanager
def _files_up_to(size: int) -> Iterator[None]:
    """No file written past `size` bytes (EFBIG, as a full disk refuses a write)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)


@posix
def test_write_scopes_on_a_full_disk_leaves_the_fixture_whole(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "house.yaml").write_text(
        "name: house\nbase: pagat\noptions:\n  hand_sizes: {2: 11, 3: 11, 4: 11, 8: 9}\n")
    mine = tmp_path / "mine.yaml"
    mine.write_text(OWN_FIXTURE)
    mine.chmod(0o640)
    monkeypatch.chdir(tmp_path)
    with _files_up_to(len(OWN_FIXTURE) // 2):
        code = main(["lint", "--write-scopes", "mine.yaml"])
    assert (code, mine.read_text()) == (2, OWN_FIXTURE)
    assert capsys.readouterr().err.startswith("mtrain lint: --write-scopes: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.yaml", "rulesets"]
    assert main(["lint", "--write-scopes", "mine.yaml"]) == 0  # room again: written whole
    assert "when:" in mine.read_text() and stat.S_IMODE(mine.stat().st_mode) == 0o640


# --- 4. a hello that names no rule set here ---------------------------------------------


def test_fuzz_says_which_declared_variant_is_no_rule_set(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # conform warned of it; fuzz said only "supports none of the shipped variants"
    impl = shlex.join([sys.executable, str(BROKEN / "hello.py"), '{"variants": ["Pagat"]}'])
    assert main(["fuzz", "--games", "1", "--out", str(tmp_path / "out"), "--impl", impl]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mtrain fuzz: the implementation supports none of the shipped "
                          "variants and overlays; the hello's variants name 'Pagat', which "
                          "is no rule set here (unknown variant 'Pagat' (did you mean "
                          "'pagat'?"), err
    assert not (tmp_path / "out").exists()


# --- 5. an output FILE written as a folder ------------------------------------------------


@pytest.mark.parametrize("tail", ["new/", "made.txt/", "new/."])
def test_an_output_file_written_as_a_folder_is_refused_before_the_run(
        tmp_path: Path, tail: str) -> None:
    # `--output reports/` passed the check (Path drops the slash) and the run's report
    # was lost at its end: "Is a directory"
    (tmp_path / "made.txt").write_text("kept\n")
    path = f"{tmp_path}/{tail}"
    with pytest.raises(InputError, match=r"names a folder \(a path that ends so is one\); "
                                         r"name a file$"):
        check_output(path, "--output")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["made.txt"]
