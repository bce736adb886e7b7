"""How long `mtrain check` takes, as a user runs it, and where the time goes.

    python benchmarks/check_speed.py [--runs 3] [--only options] [--jobs N]

Each run is a fresh `mtrain check --json` process (default: 2 worker processes). Prints
each run's wall time and its children's CPU time, each job's CPU time (measured inside
its worker), and the median wall time. The budget is 30 s on a 2-core machine. On a
machine shared with other work the wall time says little, so the script also prints
what the jobs' CPU times give on two idle cores: the jobs handed out in `mtrain check`'s
order, each to the first free worker, as its process pool does.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=["options"])
    parser.add_argument("--jobs", type=int)
    args = parser.parse_args()
    mtrain = shutil.which("mtrain") or str(Path(sys.executable).with_name("mtrain"))
    cmd = [mtrain, "check", "--json"]
    if args.only:
        cmd += ["--only", args.only]
    if args.jobs:
        cmd += ["--jobs", str(args.jobs)]
    walls, idle = [], []
    per_job: dict[str, list[float]] = {}
    for k in range(args.runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd="/")
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        result = json.loads(done.stdout)
        jobs = {j["name"]: j["cpu_seconds"] for j in result["jobs"]}
        for name, seconds in jobs.items():
            per_job.setdefault(name, []).append(seconds)
        idle.append(two_workers([jobs[n] for n in result.get("plan", jobs)]))
        fails = [c["name"] for c in result["checks"] if c["status"] == "fail"]
        print(f"run {k + 1}: {walls[-1]:.1f} s wall, {cpu:.1f} s CPU, exit {done.returncode}"
              f"; on two idle cores {idle[-1]:.1f} s"
              + (f" (failed: {', '.join(fails)})" if fails else ""))
    print("CPU per job (median s): " + ", ".join(
        f"{name} {statistics.median(s):.1f}" for name, s in per_job.items()))
    print(f"median {statistics.median(walls):.1f} s wall over {args.runs} runs; "
          f"{statistics.median(idle):.1f} s on two idle cores")
    return 0


def two_workers(durations: list[float], workers: int = 2) -> float:
    """When the last job ends, each job going in turn to the first worker free."""
    free = [0.0] * workers
    for d in durations:
        k = free.index(min(free))
        free[k] += d
    return max(free)


if __name__ == "__main__":
    sys.exit(main())
