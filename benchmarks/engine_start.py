"""What starting an engine costs the harness, under its reaper (conformance/reaper.py) and
started directly, in interleaved batches; and how many engines a run of tests starts.

    python benchmarks/engine_start.py [--starts 40] [--rounds 3] [ARGV ...]
    python benchmarks/engine_start.py --count PYTEST_ARGS ...

The first form starts ARGV (default /bin/cat, an engine that does nothing) `--starts`
times with the reaper, then as many times without, `--rounds` times over, each start
closed as conform closes an engine; it prints the CPU milliseconds per start of the
processes started (the reaper and the engine) and of this process (the pipes closed, the engine
waited for and killed, as conform's end does), with the load
average. The second runs pytest in this process with every ChildProcess start counted
(by the command's first two words), and prints the counts: the starts a test family
makes, times the milliseconds above, is what the reaper costs it.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time
from typing import Any


def _cpu() -> tuple[float, float]:
    t = os.times()
    return t.children_user + t.children_system, t.user + t.system


def batch(reaps: bool, starts: int, argv: list[str]) -> tuple[float, float]:
    """CPU seconds of `starts` starts (the processes started, this one's)."""
    from mtrain.conformance import child

    child.REAPS = reaps
    kids, own = _cpu()
    for _ in range(starts):
        proc = child.ChildProcess(argv, 1 << 20, None, None)
        proc.close_pipes()  # the engine reads its end of input and exits, as at a run's end
        proc.exit_code(2.0)
        proc.kill()
    after_kids, after_own = _cpu()
    return after_kids - kids, after_own - own


def measure(starts: int, rounds: int, argv: list[str]) -> None:
    from mtrain.conformance import child

    if not child.REAPS:
        print("no reaper on this system (not Linux, or no pidfds): nothing to compare")
        return
    sums = {True: [0.0, 0.0], False: [0.0, 0.0]}
    wall = time.monotonic()
    for _ in range(rounds):
        for reaps in (True, False):
            kids, own = batch(reaps, starts, argv)
            sums[reaps][0] += kids
            sums[reaps][1] += own
    n = starts * rounds
    print(f"{n} starts each of {' '.join(argv)}, {time.monotonic() - wall:.1f} s; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for reaps, label in ((True, "under the reaper"), (False, "started directly")):
        kids, own = sums[reaps]
        print(f"  {label:17} {1000 * kids / n:6.1f} ms a start (its processes), "
              f"{1000 * own / n:5.1f} ms (this process)")


def count(pytest_args: list[str]) -> int:
    import pytest

    from mtrain.conformance import child

    starts: collections.Counter[str] = collections.Counter()
    started = child.ChildProcess.__init__

    def counted(self: child.ChildProcess, argv: Any, *args: Any, **kwargs: Any) -> None:
        starts[" ".join(os.path.basename(str(a)) for a in list(argv)[:2])] += 1
        started(self, argv, *args, **kwargs)

    setattr(child.ChildProcess, "__init__", counted)  # noqa: B010 (a method replaced)
    code = int(pytest.main(pytest_args))
    print(f"\n{sum(starts.values())} engine starts in this process "
          "(a forked pool worker's are not seen here)")
    for argv, k in starts.most_common():
        print(f"  {k:6}  {argv}")
    return code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--count", action="store_true",
                        help="run pytest with the rest of the arguments, counting starts")
    args, rest = parser.parse_known_args()
    if args.count:
        return count(rest)
    measure(args.starts, args.rounds, rest or ["/bin/cat"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
