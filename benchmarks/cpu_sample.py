"""Where an mtrain command spends its CPU, by sampling: no cost added to each call.

    python benchmarks/cpu_sample.py [--every MS] [--top N] -- conform [ARGS...]

The command runs in this process; every MS milliseconds of the process's CPU (SIGPROF,
ITIMER_PROF: time spent waiting is not sampled) the stacks of its busy threads are
read, and each function is counted once per sample it is on (its share of the run, the
functions it calls included) and once more where it is the frame running ("self").
cProfile (cpu_profile.py) adds a fixed cost to every Python call and to every call of a
builtin, so code made of many small calls looks dearer than it is: session 62's
cProfile of the default conform put the memo of runs' walk (runmemo.find) and
`dict.get` on top at 9 % and 8 %, this sampler at 4 % (and 0.66 of 13.1 CPU s timed
alone). A thread blocked in a system call (a pipe's read) is on its stack at every
sample: judge a run through the protocol by its main thread's functions.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import signal
import sys
import threading
import time
from collections import Counter
from types import FrameType

_IDLE = ("wait", "_wait_for_tstate_lock", "select", "poll")
"""Functions a thread waits in, not counted (a pool's main thread joining its workers)."""


def _where(frame: FrameType) -> str:
    return f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_code.co_name}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=float, default=2.0, help="CPU ms between samples")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="mtrain's arguments")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    samples = [0]
    me = threading.get_ident()

    def sample(_signal: int, frame: FrameType | None) -> None:
        for thread, top in sys._current_frames().items():
            at = frame if thread == me else top
            if at is None or (thread != me and at.f_code.co_name in _IDLE):
                continue
            samples[0] += 1
            own[_where(at)] += 1
            seen: set[str] = set()
            walk: FrameType | None = at
            while walk is not None:
                name = _where(walk)
                if name not in seen:  # (a recursive function counted once a sample)
                    seen.add(name)
                    inclusive[name] += 1
                walk = walk.f_back

    from mtrain.cli import main as mtrain_main

    signal.signal(signal.SIGPROF, sample)
    every = args.every / 1000
    start = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, every, every)
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # the report is not the point
            mtrain_main(command)
    except SystemExit:
        pass
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
    cpu = time.process_time() - start
    n = max(samples[0], 1)
    print(f"{cpu:.2f} CPU s, {samples[0]} samples, load {os.getloadavg()[0]:.2f}")
    for title, counts in (("self", own), ("with what it calls", inclusive)):
        print(f"\n{title}:")
        for name, count in counts.most_common(args.top):
            print(f"  {100 * count / n:5.1f} %  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
