"""How long `mtrain conform` takes over the whole shipped corpus.

    python benchmarks/conform_speed.py [--runs 5] [--json]

Times, as a user would see them (wall clock, the whole command, as a subprocess; the
CPU time of the command and its children is shown too, as a check on a busy machine):

    in-process   mtrain conform                            target: under 2 s
    protocol     mtrain conform --impl "mtrain serve"      target: under 5 s

and prints the median of --runs runs of each (after one untimed run, so that the
operating system's file cache is warm). Every run parses and schema-checks every fixture
file. Exit code 1 when a median misses its target, or a run does not pass.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGETS = {"in-process": 2.0, "protocol": 5.0}


def mtrain_command() -> str:
    found = Path(sys.executable).with_name("mtrain")
    return str(found) if found.exists() else (shutil.which("mtrain") or "mtrain")


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_run(argv: list[str], env: dict[str, str]) -> tuple[float, float, dict[str, int]]:
    """(wall seconds, CPU seconds of the command and its children, the summary)."""
    cpu = _cpu()
    start = time.perf_counter()
    done = subprocess.run([*argv, "--format", "json"], capture_output=True, text=True,
                          env=env, cwd=Path.home(), timeout=600)
    elapsed = time.perf_counter() - start
    cpu = _cpu() - cpu
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    report = json.loads(done.stdout)
    for problem in report["load_errors"] + [
            f"{r['status']} {r['fixture']} [{r['variant']}]: {r['message']}"
            for r in report["results"] if r["status"] != "pass"]:
        print(f"  {problem[:300]}", file=sys.stderr)
    summary: dict[str, int] = report["summary"]
    return elapsed, cpu, summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    mtrain = mtrain_command()
    cases = {"in-process": [mtrain, "conform"],
             "protocol": [mtrain, "conform", "--impl", f"{mtrain} serve"]}
    env = dict(os.environ)
    time_run(cases["in-process"], env)  # warms the file cache
    out: dict[str, dict[str, object]] = {}
    ok = True
    for mode in ("warm",):
        for name, argv in cases.items():
            times: list[float] = []
            cpus: list[float] = []
            summary: dict[str, int] = {}
            for _ in range(args.runs):
                elapsed, cpu, summary = time_run(argv, env)
                times.append(elapsed)
                cpus.append(cpu)
            median = statistics.median(times)
            key = name if mode == "warm" else f"{name} (cold)"
            passed = summary.get("pass", 0)
            total = sum(summary.values())
            out[key] = {"median": round(median, 3), "runs": [round(t, 3) for t in times],
                        "cpu_median": round(statistics.median(cpus), 3),
                        "target": TARGETS[name], "results": total, "passed": passed}
            if mode == "warm" and median >= TARGETS[name]:
                ok = False
            if passed != total:
                ok = False
    if args.json:
        json.dump({"ok": ok, **out}, sys.stdout, indent=2)
        print()
    else:
        for key, row in out.items():
            runs = ", ".join(f"{t:.2f}" for t in row["runs"])  # type: ignore[attr-defined]
            print(f"{key:<22} median {row['median']:.2f} s, CPU {row['cpu_median']:.2f} s  "
                  f"(target < {row['target']} s; runs {runs}; "
                  f"{row['passed']}/{row['results']} pass)")
        print("OK" if ok else "MISSED A TARGET")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
