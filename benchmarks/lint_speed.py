"""How much CPU `mtrain lint` takes over the shipped corpus: cold, warm, and warm after
one fixture changed.

    python benchmarks/lint_speed.py [--runs 3] [--json]

Each case is a fresh `mtrain lint --coverage FOLDER` process on a copy of the corpus (the
same checks as a plain `mtrain lint`: the copy is there to be changed), with a cache
folder of the benchmark's own (MTRAIN_CACHE_DIR):

    cold      an empty cache: every fixture's check read from the package's shipped
              checks where they are current (lint/shipped_scopes.py), else explored
                                                                  target: at most 20 CPU s
    unshipped (with --unshipped) an empty cache, nothing shipped read
              (MTRAIN_SHIPPED_SCOPES=off): every fixture explored, as a user's first
              lint after the code or the data changed
    warm      the cache the run before left, nothing changed
    changed   one fixture's description changed since the last run  target: at most 3 CPU s

Each run must report what a plain run reports (the same errors and scope figures: a
cache may only save time). Prints each case's median CPU seconds (user + system) and wall
time, with the load average before and after, and the reference runs of the scope check
(its cells: one per region of equal outcome, served by the memo of runs or played; the
same for every case, as the cache keeps each fixture's count). Exit code 1 when a target
is missed.

With `--base REV` (a git revision, e.g. main), a cold lint of that revision's code runs
too, in the same turns, with its own empty cache; it must report what the new code's
cold lint reports, and the ratio new / base of the cold medians is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from measure import Timed, base_env, load, median, mtrain_command, run, verdict

from mtrain.conformance.fixture import FIXTURE_ROOT

TARGETS = {"cold": 20.0, "changed": 3.0}


def lint(mtrain: str, folder: Path, cache: Path,
         base: dict[str, str] | None = None, shipped: bool = True
         ) -> tuple[Timed, dict[str, Any]]:
    env = {**(base or os.environ), "MTRAIN_CACHE_DIR": str(cache),
           **({} if shipped else {"MTRAIN_SHIPPED_SCOPES": "off"})}
    argv = [sys.executable, "-m", "mtrain"] if base is not None else [mtrain]
    timed = run([*argv, "lint", "--coverage", "--json", str(folder)], env=env)
    if timed.code not in (0, 1):
        raise SystemExit(f"mtrain lint exited {timed.code}:\n{timed.stderr[-2000:]}")
    report: dict[str, Any] = json.loads(timed.stdout)
    return timed, report


def verdict_of(report: dict[str, Any]) -> Any:
    """What a lint finds, without what depends on the cache or the clock."""
    scopes = {k: v for k, v in report["scopes"].items()
              if k not in ("seconds", "fixtures_explored")}
    return {**report, "scopes": scopes}


def touch_one(folder: Path, k: int) -> None:
    """Change one fixture's description (a change the scope check must see)."""
    path = sorted(folder.rglob("*.yaml"))[0]
    text = path.read_text(encoding="utf-8")
    at = text.index("description: ") + len("description: ")
    quote = text[at] if text[at] in "\"'" else ""
    at += len(quote)
    path.write_text(f"{text[:at]}({k}) {text[at:]}", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--base", metavar="REV", help="also a cold lint of git revision REV")
    parser.add_argument("--unshipped", action="store_true",
                        help="also a cold lint that reads no shipped checks")
    args = parser.parse_args()
    mtrain = mtrain_command()
    before = load()
    times: dict[str, list[Timed]] = {"cold": [], "warm": [], "changed": []}
    if args.unshipped:
        times = {"unshipped": [], **times}
    if args.base:
        times = {"base cold": [], **times}
    explored: dict[str, list[int]] = {name: [] for name in times}
    runs_of: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp, "fixtures")
        shutil.copytree(FIXTURE_ROOT, folder)
        base = base_env(args.base, Path(tmp, "base")) if args.base else None
        expected = base_found = None
        for k in range(args.runs):
            cache = Path(tmp, f"cache-{k}")
            for name in times:
                if name == "changed":
                    touch_one(folder, k)
                if name == "base cold":
                    timed, report = lint(mtrain, folder, Path(tmp, f"base-cache-{k}"), base)
                elif name == "unshipped":
                    timed, report = lint(mtrain, folder, Path(tmp, f"unshipped-cache-{k}"),
                                         shipped=False)
                else:
                    timed, report = lint(mtrain, folder, cache)
                times[name].append(timed)
                # (absent from a lint without the cache: every fixture is explored)
                explored[name].append(report["scopes"].get("fixtures_explored",
                                                            report["fixtures"]))
                runs_of[name] = report["scopes"]["reference_runs"]
                found = verdict_of(report)
                if name == "base cold":
                    base_found = found
                    continue
                if name == "cold" and base and found != base_found:
                    raise SystemExit("the base's cold lint found otherwise than the new one")
                if name != "changed":
                    if expected is None:
                        expected = found
                    elif found != expected:
                        raise SystemExit(f"the {name} lint found otherwise than the first")
    after = load()
    cpu = {name: median([t.cpu for t in runs]) for name, runs in times.items()}
    ok = {name: cpu[name] <= target for name, target in TARGETS.items()}
    out = {"ok": all(ok.values()), "runs": args.runs, "load_before": before,
           "load_after": after,
           **{name: {"cpu_median": round(cpu[name], 3),
                     "wall_median": round(median([t.wall for t in runs]), 3),
                     "cpu": [round(t.cpu, 3) for t in runs],
                     "fixtures_explored": explored[name],
                     "reference_runs": runs_of[name],
                     "target": TARGETS.get(name)} for name, runs in times.items()},
           **({"cold_new_over_base": round(cpu["cold"] / cpu["base cold"], 3)}
              if args.base else {})}
    if args.json:
        json.dump(out, sys.stdout, indent=2)
        print()
    else:
        print(f"{args.runs} runs of each; {before} before, {after} after")
        for name, runs in times.items():
            target = (f"target <= {TARGETS[name]:g}: {verdict(ok[name])}" if name in TARGETS
                      else "no target")
            print(f"{name:<9} CPU median {cpu[name]:.2f} s (runs "
                  f"{', '.join(f'{t.cpu:.2f}' for t in runs)}); wall median "
                  f"{median([t.wall for t in runs]):.2f} s; fixtures explored "
                  f"{explored[name]}; {runs_of[name]:,} reference runs; {target}")
        if args.base:
            print(f"cold: new / base {cpu['cold'] / cpu['base cold']:.2f}")
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
