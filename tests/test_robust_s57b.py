"""Bad inputs and misbehaving engines, round 30 (robust-s57b): a harness killed with
SIGKILL left its engines running (parent 1, for ever when they hang); `mtrain docs --out`
on a full disk left pages cut short; a cache write killed midway left a temporary file
that no prune removed."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from procwatch import BOUND, alive, hung, recorded, started, survivors

from mtrain.conformance import watchdog
from mtrain.spec import cache

HERE = Path(__file__).resolve().parent
BROKEN = HERE / "broken_impls"
FIXTURES = HERE / "data" / "fixtures"
MTRAIN = str(Path(sys.executable).with_name("mtrain"))

posix = pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")


def _sleeper() -> list[str]:
    return [sys.executable, "-c", "import time; time.sleep(600)"]


# --- 1. engines outliving a harness killed outright ------------------------------------


HARNESS = textwrap.dedent("""
    import sys, threading, time
    from mtrain.conformance.child import ChildProcess

    def start():
        procs.append(ChildProcess(sys.argv[2:], 1 << 16, None, None))

    procs = []
    worker = threading.Thread(target=start)  # as a pool's worker starts an engine
    worker.start()
    worker.join()
    with open(sys.argv[1], "a") as f:
        f.write(f"{procs[0].popen.pid}\\n")
    time.sleep(600)
""")


@posix
def test_an_engine_started_by_a_thread_outlives_the_thread_not_the_harness(
        pids: Path) -> None:
    harness = subprocess.Popen([sys.executable, "-c", HARNESS, str(pids), *_sleeper()])
    try:
        started(pids, 1)
        [engine] = recorded(pids)
        # the thread that started it has ended: the engine is still the harness's to use
        # (PR_SET_PDEATHSIG, tied to that thread, would have killed it by now)
        assert alive(engine)
        harness.kill()
        harness.wait(BOUND)
        assert survivors(pids) == []
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.wait()


@posix
def test_conform_with_jobs_killed_outright_leaves_no_process(pids: Path) -> None:
    # each engine hangs on its second request, with a child of its own in its group
    impl = shlex.join([sys.executable, str(BROKEN / "fork_child.py"), "hang", "2", str(pids)])
    argv = [MTRAIN, "conform", "--fixtures", str(FIXTURES), "--jobs", "2", "--timeout", "300",
            "--impl", impl]
    harness = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        started(pids, 4)
        hung(pids, 2)
        harness.kill()  # no handler runs, no exit handler: only the watchdog is left
        harness.wait(BOUND)
        assert survivors(pids) == []
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.wait()


@posix
def test_fuzz_with_jobs_killed_outright_leaves_no_worker_nor_engine(
        tmp_path: Path, pids: Path) -> None:
    # the engines hang on the deal: the harness's own (it only says hello) and one in
    # each of the two workers, whose pool waits for tasks its dead harness never sends
    impl = shlex.join([sys.executable, str(BROKEN / "fork_child.py"), "hang", "2", str(pids)])
    argv = [MTRAIN, "fuzz", "--jobs", "2", "--games", "4", "--timeout", "300",
            "--variant", "puremco-d9", "--out", str(tmp_path / "out"), "--impl", impl]
    harness = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        started(pids, 6)
        hung(pids, 2)
        # its workers and its watchdog, and (on Linux) the reaper of its own engine
        own = [int(p) for p in os.listdir("/proc") if p.isdigit() and _parent(p) == harness.pid
               and int(p) not in recorded(pids)]
        assert len(own) == 3 + _reaping()
        harness.kill()
        harness.wait(BOUND)
        assert survivors(pids) == []
        deadline = time.monotonic() + BOUND
        while any(alive(p) for p in own) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(p) for p in own)
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.wait()


@posix
def test_check_with_jobs_killed_outright_leaves_no_worker() -> None:
    env = {**os.environ, cache.CACHE_ENV: "off"}  # its checks run, not read from a cache
    harness = subprocess.Popen([MTRAIN, "check", "--jobs", "2"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    own: list[int] = []
    try:
        deadline = time.monotonic() + BOUND
        while len(own := _children(harness.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(own) == 2, "the workers did not start"
        harness.kill()
        harness.wait(BOUND)
        while any(alive(p) for p in own) and time.monotonic() < deadline + BOUND:
            time.sleep(0.05)
        assert not any(alive(p) for p in own)
    finally:
        if harness.poll() is None:
            harness.kill()
            harness.wait()
        for pid in own:  # whatever a failing test left: ours to end
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def _children(pid: int) -> list[int]:
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and _parent(p) == pid]


def _reaping() -> int:
    """1 where engines are started under a reaper (child.REAPS), their parent; else 0."""
    from mtrain.conformance.child import REAPS

    return int(REAPS)


def _parent(pid: str) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


@posix
def test_the_watchdog_kills_the_groups_told_and_not_those_released() -> None:
    kept = subprocess.Popen(_sleeper(), start_new_session=True)
    released = subprocess.Popen(_sleeper(), start_new_session=True)
    try:
        dog = subprocess.Popen([sys.executable, "-I", "-S", watchdog.__file__],
                               stdin=subprocess.PIPE)
        assert dog.stdin is not None
        dog.stdin.write(f"+{kept.pid}\n+{released.pid}\nnonsense\n+\n-{released.pid}\n"
                        .encode())
        dog.stdin.close()  # as when the harness dies
        assert dog.wait(BOUND) == 0
        assert kept.wait(BOUND) == -signal.SIGKILL
        assert released.poll() is None
    finally:
        for proc in (kept, released):
            proc.kill()
            proc.wait()


def test_no_watchdog_where_none_can_start(monkeypatch: pytest.MonkeyPatch) -> None:
    # a system without posix_spawn, or one that refuses it: engines run as before
    monkeypatch.setattr(watchdog, "_fd", -1)
    monkeypatch.setattr(watchdog, "_pid", 0)
    monkeypatch.setattr(watchdog, "_failed", False)
    monkeypatch.delattr(os, "posix_spawn", raising=False)
    watchdog.guard(12345)
    watchdog.release(12345)
    assert (watchdog._fd, watchdog._pid, watchdog._failed) == (-1, 0, False)

    def refuse(*args: object, **kwargs: object) -> int:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(os, "posix_spawn", refuse, raising=False)
    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 0
    watchdog.guard(12345)
    watchdog.guard(12345)  # not tried again
    assert (watchdog._fd, watchdog._pid, watchdog._failed) == (-1, 0, True)
    if before:
        assert len(os.listdir("/proc/self/fd")) == before  # its pipe closed again


@posix
def test_a_watchdog_killed_is_not_waited_for_nor_started_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(watchdog, "_fd", -1)
    monkeypatch.setattr(watchdog, "_pid", 0)
    monkeypatch.setattr(watchdog, "_failed", False)
    watchdog.guard(2 ** 22 + 1)  # a group nobody has: the first guard starts a watchdog
    dog = watchdog._pid
    assert dog and watchdog._fd >= 0
    os.kill(dog, signal.SIGKILL)
    os.waitpid(dog, 0)
    watchdog.release(2 ** 22 + 1)  # its pipe broken: no error, and given up
    watchdog.guard(2 ** 22 + 2)
    assert (watchdog._fd, watchdog._pid, watchdog._failed) == (-1, dog, True)


# --- 2. `mtrain docs --out` on a full disk ----------------------------------------------


FULL_DOCS = textwrap.dedent("""
    import resource, signal, sys
    from pathlib import Path
    from mtrain import docgen

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit: EFBIG, as ENOSPC
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
    try:
        docgen.write(Path(sys.argv[1]), {"small.md": "a page\\n", "big.md": "x" * 100_000})
    except OSError as e:
        print(e.strerror)
""")


@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="no file size limit here")
def test_docs_on_a_full_disk_leave_no_page_cut_short(tmp_path: Path) -> None:
    # the file size limit fails the write as a full disk does, in a process of its own
    done = subprocess.run([sys.executable, "-c", FULL_DOCS, str(tmp_path)],
                          capture_output=True, text=True, timeout=BOUND)
    assert done.stdout.strip() == os.strerror(27) and done.returncode == 0, done.stderr
    assert (tmp_path / "small.md").read_text() == "a page\n"
    assert not (tmp_path / "big.md").exists()  # not 4096 bytes of it
    assert not (tmp_path / "GENERATED").exists()  # the manifest is the last written


# --- 3. a cache write killed midway ----------------------------------------------------


def _dead_pid() -> int:
    done = subprocess.Popen([sys.executable, "-c", ""])
    done.wait()  # reaped: its id is nobody's (until reused, which the age bound covers)
    return done.pid


def test_the_prune_removes_the_temporary_files_of_dead_writers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path))
    kind = tmp_path / "kind"
    kind.mkdir()
    dead, live, now = _dead_pid(), os.getpid(), time.time()
    minutes, hours = now - 5 * 60, now - 5 * 3600

    def temporary(name: str, pid: int, when: float) -> Path:
        path = kind / f".{name}.{pid}.{threading.get_ident()}.tmp"
        path.write_bytes(b"half an entry")
        os.utime(path, (when, when))
        return path

    killed = temporary("a.b", dead, minutes)  # its writer killed between write and move
    forgotten = temporary("c", live, hours)  # so old that its pid is another's now
    writing = temporary("d", live, minutes)  # a live writer's, however slow
    unseen = temporary("e", dead, now)  # perhaps a writer's this process cannot see
    other = kind / ".notes"  # not a temporary file of the cache's
    other.write_text("kept")
    os.utime(other, (hours, hours))
    cache.write("kind", "f", {"x": 1})  # a write prunes its kind's folder
    assert cache.read("kind", "f") == {"x": 1}
    assert not killed.exists() and not forgotten.exists()
    assert writing.exists() and unseen.exists() and other.exists()
