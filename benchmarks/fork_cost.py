"""What starting worker pools from a forkserver costs, next to forking (forking.py).

    python benchmarks/fork_cost.py [--runs 5] [--games 6] [--mutants 4]

Each run is a fresh process that fuzzes a mutant with two workers and runs a few mutants
with two workers, either alone (its pools fork) or with an idle thread of its own (its
pools come from the forkserver, as under pytest-xdist or in a threaded program). This
process becomes a subreaper, so that the forkserver and its workers, orphaned when the run
ends, are reaped here and their CPU time counted. Prints each run's CPU seconds (user+sys,
every process) and the medians with their ratio.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import statistics
import subprocess
import sys
import textwrap

RUN = textwrap.dedent("""
    import sys, tempfile, threading
    from mtrain.conformance import fuzz as F
    from mtrain.conformance.fixture import load_corpus
    from mtrain.conformance.forking import pool_context
    from mtrain.conformance.mutants.catalogue import MUTANTS
    from mtrain.conformance.mutants.runs import run_mutants

    games, mutants, threaded = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
    if threaded:
        threading.Thread(target=threading.Event().wait, daemon=True).start()
    print(pool_context().get_start_method(), file=sys.stderr)
    target = F.Target("mutant", "marker-up-on-draw", "marker-up-on-draw")
    F.fuzz(target, ["puremco"], games, 2, out=tempfile.mkdtemp(), jobs=2, shrink_seconds=1)
    run_mutants(load_corpus()[0][:40], sorted(MUTANTS)[:mutants], jobs=2)
""")


def cpu_of(args: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", RUN, *args], check=True)
    while True:  # the orphans (the forkserver and its workers) come back to us
        try:
            os.wait()
        except ChildProcessError:
            break
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--mutants", type=int, default=4)
    args = parser.parse_args()
    PR_SET_CHILD_SUBREAPER = 36
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    times: dict[str, list[float]] = {"fork": [], "forkserver": []}
    for _ in range(args.runs):  # interleaved: a change in the machine's load hits both
        for mode, threaded in (("fork", "0"), ("forkserver", "1")):
            times[mode].append(cpu_of([str(args.games), str(args.mutants), threaded]))
            print(f"{mode}: {times[mode][-1]:.2f} CPU s", flush=True)
    fork, server = (statistics.median(times[m]) for m in ("fork", "forkserver"))
    print(f"median CPU s: fork {fork:.2f}, forkserver {server:.2f} "
          f"(x{server / fork:.2f}); load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
