"""How long `mtrain check` takes, as a user runs it, and where the time goes.

    python benchmarks/check_speed.py [--runs 3] [--only options] [--jobs N]

Each run is a fresh `mtrain check --json` process (default: 2 worker processes). Prints
each run's wall time and its children's CPU time, the slowest checks (each check's own
wall time, measured inside its worker), and the median wall time. The budget is 30 s on
a 2-core machine; a machine shared with other work is slower, so the CPU time is printed
too: with two workers the wall time cannot drop much below half of it.
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
    walls, per_check = [], {}
    for k in range(args.runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd="/")
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        result = json.loads(done.stdout)
        for c in result["checks"]:
            per_check.setdefault(c["name"], []).append(c["seconds"])
        fails = [c["name"] for c in result["checks"] if c["status"] == "fail"]
        print(f"run {k + 1}: {walls[-1]:.1f} s wall, {cpu:.1f} s CPU, exit {done.returncode}"
              + (f" (failed: {', '.join(fails)})" if fails else ""))
    slow = sorted(per_check.items(), key=lambda kv: -statistics.median(kv[1]))[:8]
    print("slowest checks (median s): " + ", ".join(
        f"{name} {statistics.median(s):.1f}" for name, s in slow))
    print(f"median {statistics.median(walls):.1f} s over {args.runs} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
