"""Bad inputs and interrupt paths, round 24 (robust-s52): a worker pool whose terminate waited
for ever on a lock a dead worker held (`mtrain fuzz --jobs 2` stopped by a SIGTERM to its
whole process group hung, 1 run in ~50 under stress); the in-process reference refused a
play written with the wrong JSON types, citing no clause, where `mtrain serve` answers the
same request `bad-request`."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from command_errors import FAR, PLAYS, one_error, write

from mtrain import cli
from mtrain.conformance import child
from mtrain.conformance.adapter import ReferenceImplementation, Refused, ruleset_json
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import table_state

RS = catalog().ruleset("puremco-d9")
RJ = ruleset_json(RS)
# seat 0 to act, holding [4-0] on a double-9 set, two seats: seat 1's train ends in 5
STATE = table_state({"engine": 0, "hands": {0: ["0-4"], 1: ["3-3", "2-1"]},
                     "trains": {1: ["0-5"]}, "scores": [30, 12], "outs": [4, 5]}, RS)

# --- 1. a pool whose worker died holding the task queue's lock ------------------------------

# A pool of one worker, which waits for its next task holding the task queue's read lock;
# it is killed there (as a SIGTERM to the whole group ends fuzz's workers, os._exit in their
# handler), and the pool is then terminated, as an interrupted fuzz or mutants run does.
DEAD_HOLDER = """
import multiprocessing, os, signal
from mtrain.conformance.forking import new_pool

pool = new_pool(multiprocessing.get_context("fork"), 1)
worker = pool.apply(os.getpid)  # it has run a task; it goes back for the next one
rlock = pool._inqueue._rlock
while rlock.acquire(False):  # taken before the worker took it again: give it back
    rlock.release()
os.kill(worker, signal.SIGKILL)  # waiting in the queue, the lock held: held for good
pool.terminate()
print("terminated", flush=True)
"""


# A pool of one worker, and a process of the pool's (as a worker is) that dies while
# writing a result: the result queue's write lock held, half a message in its pipe, which
# the pool's result thread waits to read the rest of. The pool is then terminated and
# joined, as an interrupted fuzz run does (finish).
HALF_RESULT = """
import multiprocessing, os, struct
from mtrain.conformance.forking import new_pool

ctx = multiprocessing.get_context("fork")
pool = new_pool(ctx, 1)
pool.apply(os.getpid)  # its worker has started
results = pool._outqueue

def cut_off_in_a_result():
    results._wlock.acquire()
    os.write(results._writer.fileno(), struct.pack("!i", 1000) + b"x" * 10)
    os._exit(1)

writer = ctx.Process(target=cut_off_in_a_result)
writer.start()
writer.join()
pool.terminate()
pool.join()
print("terminated", flush=True)
"""


# Two workers, each of which, stopped by the pool's SIGTERM, sends one to the harness (as a
# SIGTERM to the whole group reaches both): a second interrupt while the pool stops.
SECOND_INTERRUPT = """
import multiprocessing, os, signal
from mtrain.conformance import child
from mtrain.conformance.forking import new_pool

harness = os.getpid()
ctx = multiprocessing.get_context("fork")
both_busy = ctx.Barrier(3)  # the two workers, each in a task, and the harness

def stopped_stops_the_harness():
    def stop(signum, frame):
        os.kill(harness, signal.SIGTERM)
        os._exit(1)
    signal.signal(signal.SIGTERM, stop)

def busy(_):
    both_busy.wait()
    signal.pause()  # until the pool's SIGTERM, whose handler exits

with child.stop_on_signals():
    pool = new_pool(ctx, 2, stopped_stops_the_harness)
    pool.map_async(busy, range(2), chunksize=1)
    both_busy.wait()
    workers = list(pool._pool)
    try:
        pool.terminate()
    except child.Interrupted:
        print("interrupted once they ended:", [w.exitcode for w in workers], flush=True)
    pool.join()
"""


def _run(tmp_path: Path, script: str) -> tuple[str, str]:
    """What `script` printed (stdout, stderr), run as a program; it must exit 0."""
    path = tmp_path / "pool.py"
    path.write_text(script, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=FAR)  # a bound on a hang, far above the need
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0 and "Traceback" not in err, (proc.returncode, out, err)
    return out, err


@pytest.mark.parametrize("script", [DEAD_HOLDER, HALF_RESULT], ids=["read-lock", "half-result"])
def test_a_pool_terminates_whatever_a_dead_worker_left_in_its_queues(
        tmp_path: Path, script: str) -> None:
    # multiprocessing's own Pool.terminate waits for ever: for the task queue's read lock,
    # for the result queue's write lock, for the result thread reading the rest
    out, err = _run(tmp_path, script)
    assert out == "terminated\n" and "Exception" not in err, (out, err)


def test_a_second_interrupt_while_a_pool_stops_comes_once_its_workers_are_gone(
        tmp_path: Path) -> None:
    # it was raised in the middle of terminate (a worker stopped, the next not yet), and
    # the stress's interrupted fuzz --jobs 2 then hung in the pool's join (2 runs of 22 of
    # a SIGTERM sent twice to the group)
    out, _ = _run(tmp_path, SECOND_INTERRUPT)
    assert out == "interrupted once they ended: [1, 1]\n", out


# A fuzz worker stopped (SIGTERM) with a game under way, whose counts of games cut short are
# locked for good by a process that died holding the lock (a worker that a second SIGTERM
# ended inside its own handler, while it added its game).
COUNTS_HELD = """
import multiprocessing, os, signal, types
from mtrain.conformance.fuzz import run

ctx = multiprocessing.get_context("fork")
counts = ctx.Array("q", 4)
holder = ctx.Process(target=lambda: (counts.get_lock().acquire(), os._exit(0)))
holder.start()
holder.join()
game = types.SimpleNamespace(steps=5, rounds=1, answered=7)
run._WORKER.update(session=types.SimpleNamespace(under_way=game), cut_short=counts)
signal.signal(signal.SIGTERM, run._worker_stop)
os.kill(os.getpid(), signal.SIGTERM)
for _ in range(10 ** 9):  # the handler runs between two of these
    pass
print("the handler returned", flush=True)
"""


def test_a_stopped_fuzz_worker_exits_though_the_counts_lock_is_held_for_good(
        tmp_path: Path) -> None:
    # its handler waited for the lock for ever, and the pool's terminate for the worker
    path = tmp_path / "worker.py"
    path.write_text(COUNTS_HELD, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=FAR)  # a bound on a hang, far above the need
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 1 and out == "" and "Traceback" not in err, (
        proc.returncode, out, err)  # the handler's os._exit(1)


# --- 2. a malformed play, in process ----------------------------------------------------------


class _Unremembering(ReferenceImplementation):
    remembers_states = False  # the path without the answers memo (the mutants' engine)


MALFORMED = [
    {"type": "play", "tile": 40, "train": 0},
    {"type": "play", "tile": ["4", "0"], "train": 0},
    {"type": "play", "tile": None, "train": 0},
    {"type": "play", "tile": "four-nothing", "train": 0},
    {"type": "play", "train": 0},
    {"type": "play", "tile": "4-0", "train": "0"},
    {"type": "play", "tile": "4-0", "train": None},
    {"type": "play", "tile": "4-0", "train": True},
    {"type": "play", "tile": "4-0", "train": -1},
    {"type": "play", "tile": "4-0"},
]


@pytest.mark.parametrize("engine", [ReferenceImplementation, _Unremembering])
@pytest.mark.parametrize("action", MALFORMED)
def test_the_in_process_reference_answers_a_malformed_play_as_serve_does_not_by_a_refusal(
        engine: type[ReferenceImplementation], action: dict[str, Any]) -> None:
    # protocol.md: such an action is no action of the game, a bad-request over the
    # protocol; in process, an exception other than Refused (a ValueError naming the field)
    impl = engine()
    for _ in range(2):  # asked again: not answered from a memo as a refusal either
        with pytest.raises(ValueError) as caught:
            impl.apply(RJ, STATE, action)
        assert not isinstance(caught.value, Refused)
        field = "tile" if action.get("tile") != "4-0" else "train"
        assert field in str(caught.value), caught.value


@pytest.mark.parametrize("engine", [ReferenceImplementation, _Unremembering])
@pytest.mark.parametrize(("action", "clause"), [
    ({"type": "play", "tile": "13-1", "train": 0}, "SET-1"),  # a tile of no double-9 set
    ({"type": "play", "tile": "4-0", "train": 2}, "TRAIN-1"),  # two seats: no train 2
])
def test_the_in_process_reference_still_refuses_a_well_formed_play_of_no_such_tile_or_train(
        engine: type[ReferenceImplementation], action: dict[str, Any], clause: str) -> None:
    impl = engine()
    for _ in range(2):
        with pytest.raises(Refused) as caught:
            impl.apply(RJ, STATE, action)
        assert caught.value.clause == clause


# --- 3. an interrupt while the command line starts ------------------------------------------


def test_an_interrupt_while_the_command_line_starts_is_one_line_and_exit_130(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # a Ctrl-C in the first quarter second (its imports, its parser) printed a traceback
    # and killed the process by SIGINT: 9 runs of 20 of `mtrain conform` signalled then
    def interrupted(*args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", interrupted)
    assert cli.main(["conform", "--impl", "x"]) == 130
    assert capsys.readouterr() == ("", "mtrain conform: interrupted\n")


# --- 4. bad inputs on the command line -------------------------------------------------------


def test_an_adapter_named_with_two_colons_is_told_to_dot_the_inner_object(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # it was "cannot import ad.py:E: No module named 'ad.py:E'; 'ad' is not a package"
    fixtures = write(tmp_path / "one.yaml", PLAYS)
    err = one_error(capsys, "conform", "--adapter", "ad.py:Engine:inner", "--fixtures",
                    fixtures)
    assert "one colon" in err and "ad.py:Engine.inner" in err, err


# --- 5. a run under nohup -------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")
def test_a_command_started_under_nohup_outlives_its_terminal() -> None:
    # nohup starts a command with SIGHUP ignored; stop_on_signals put its own handler in
    # its place, so `nohup mtrain conform ... &` stopped ("interrupted (SIGHUP)") when the
    # terminal closed, which is what nohup is for
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with child.stop_on_signals():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            signal.raise_signal(signal.SIGHUP)  # ignored: nothing is raised
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before)
