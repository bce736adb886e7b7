"""What `mtrain conform` still leaves not applicable for house-rule engines: for each
example engine that declares a rule `other` (tests/test_house_engines.py), conform under
its honest rule-set file with the planted bugs off, its not-applicable results counted
by reason (the message conform prints), and the failures (none should be but those the
test lists as found by the suite, not planted, `Engine.found`: printed, and any other
makes the exit status 1).

    python benchmarks/house_not_applicable.py [NAME ...] [--reference] [--skip-compiled]
                                              [--json FILE] [--top N]

`--reference`: the embedded reference plays in the engine's place (the rule file alone
decides which results are not applicable; no failures are counted then), which is fast
and needs no compiler. `--skip-compiled`: leave out the engines in C, C++, Rust and Java.
Not a test: a measurement by hand; the load is printed, as it slows every run alike.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzz_games_to_find import engines
from test_house_engines import Engine


def reason(message: str) -> str:
    """A not-applicable message with what names one fixture or seat taken out, so that
    the same reason counts once."""
    text = re.sub(r"\[[0-9]+(-[0-9]+)*\]", "[T]", message.strip().splitlines()[0])
    text = re.sub(r"\bstep \d+\b", "step N", text)
    return re.sub(r"\b\d+\b", "N", text) if "(played its own way)" not in text else text


def conform(engine: Engine, reference: bool) -> dict[str, Any]:
    target = [] if reference else engine.target(fixed=True)
    done = subprocess.run(
        [sys.executable, "-m", "mtrain", "conform", *target, "--rules", engine.rules,
         "--format", "json"], capture_output=True, text=True, check=False,
        env={**os.environ, "PYTHONHASHSEED": "0"})
    if done.returncode not in (0, 1) or not done.stdout.strip():
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SystemExit(f"{engine.name}: conform exited {done.returncode}: {last}")
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument("--reference", action="store_true",
                        help="the embedded reference in each engine's place")
    parser.add_argument("--skip-compiled", action="store_true")
    parser.add_argument("--json", help="write the counts to this file")
    parser.add_argument("--top", type=int, default=4, help="reasons printed per engine")
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.1f}", flush=True)
    total: collections.Counter[str] = collections.Counter()
    out: dict[str, Any] = {}
    failed = 0
    for engine in engines():
        if "other" not in engine.truth.values() or (args.names and engine.name not in args.names):
            continue
        if args.skip_compiled and (engine.c or engine.cpp or engine.rust or engine.java):
            continue
        results = conform(engine, args.reference)["results"]
        na = collections.Counter(reason(r.get("message") or "")
                                 for r in results if r["status"] == "not-applicable")
        fails = [] if args.reference else [
            r["fixture"] for r in results if r["status"] in ("fail", "error")]
        known = [f for f in fails if f in engine.found]
        fails = [f for f in fails if f not in engine.found]
        failed += len(fails)
        total.update(na)
        ran = len(results) - sum(na.values())
        out[engine.name] = {"ran": ran, "not_applicable": sum(na.values()),
                            "reasons": dict(na), "failed": fails, "known": known}
        print(f"{engine.name}: {ran} ran, {sum(na.values())} n/a, {len(fails)} failed"
              + (f" ({', '.join(fails[:5])})" if fails else "")
              + (f", {len(known)} known ({', '.join(known)})" if known else ""), flush=True)
        for why, n in na.most_common(args.top):
            print(f"    {n:4}  {why}")
    print(f"all: {sum(total.values())} n/a")
    for why, n in total.most_common():
        print(f"  {n:5}  {why}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
