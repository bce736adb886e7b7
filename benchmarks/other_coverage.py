"""How much of the suite still runs for an engine that plays options `other` (issue 21).

    python benchmarks/other_coverage.py [--base pagat] [--json]
    python benchmarks/other_coverage.py --options marker_removal,follow_up

Runs `mtrain conform --rules FILE --format json` (the embedded reference, the shipped
corpus, situations from play) for the base rule set as it is, then for a rule-set file on
top of it that declares one option `other`, for every option in turn, then for one file
declaring the four options `--four` names `other` at once. For each it prints the results
that ran (every status but not-applicable), and that count as a share of the base's. The
targets: each single option at least 80 % of the base, the four together at least 700
results. Not a test: a measurement to run by hand (about 2 s a run, one core).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from mtrain.spec.catalog import catalog

SINGLE_TARGET = 0.8
FOUR_TARGET = 700
FOUR = ("marker_removal", "follow_up", "double_order", "draw_rule")


def mtrain_command() -> str:
    found = Path(sys.executable).with_name("mtrain")
    return str(found) if found.exists() else (shutil.which("mtrain") or "mtrain")


def ran(base: str, other: tuple[str, ...], folder: Path) -> tuple[int, int] | None:
    """(results that ran, results not applicable) for `base` with `other` played `other`;
    None when the command refuses the file or fails (its error is printed)."""
    path = folder / f"{'-'.join(other) or 'none'}.yaml"
    lines = [f"name: other-{'-'.join(other) or 'none'}", f"base: {base}",
             "options:" if other else "options: {}", *(f"  {o}: other" for o in other)]
    path.write_text("\n".join(lines) + "\n")
    done = subprocess.run([mtrain_command(), "conform", "--rules", str(path), "--format",
                           "json"], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    if done.returncode not in (0, 1) or not done.stdout.strip():  # 1: some result failed
        last = done.stderr.strip().splitlines()[-1:] or ["no message"]
        print(f"other_coverage: {', '.join(other)} other: conform exited "
              f"{done.returncode}: {last[0]}", file=sys.stderr)
        return None
    results = json.loads(done.stdout)["results"]
    skipped = sum(r["status"] == "not-applicable" for r in results)
    return len(results) - skipped, skipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--base", default="pagat", help="a shipped variant (default pagat)")
    parser.add_argument("--options", help="comma-separated options (default: every option)")
    parser.add_argument("--four", default=",".join(FOUR),
                        help="the four options declared other together")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    # the tile set and the hand table cannot be `other` (a rule-set file names the set and
    # gives its table): they are left out unless asked for
    options = args.options.split(",") if args.options else [
        o for o in catalog().options if o not in ("tile_set", "hand_sizes")]
    four = tuple(args.four.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        base = ran(args.base, (), folder)
        if base is None:
            return 2
        base_ran, base_na = base
        measured = {o: ran(args.base, (o,), folder) for o in options}
        four_ran, four_na = ran(args.base, four, folder) or (0, 0)
    rows = {o: r for o, r in measured.items() if r is not None}
    failed = [o for o, r in measured.items() if r is None]
    if args.json:
        json.dump({"base": args.base, "base_ran": base_ran, "base_not_applicable": base_na,
                   "single": {o: {"ran": r, "not_applicable": n, "share": round(r / base_ran, 3)}
                              for o, (r, n) in rows.items()},
                   "failed": failed,
                   "four": {"options": four, "ran": four_ran, "not_applicable": four_na}},
                  sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print(f"{args.base}: {base_ran} results ran, {base_na} not applicable")
        for o, (r, n) in rows.items():
            mark = "" if r >= SINGLE_TARGET * base_ran else f"  (below {SINGLE_TARGET:.0%})"
            print(f"  {o:20} other: {r:5} ran  {n:4} n/a  {r / base_ran:6.1%}{mark}")
        for o in failed:
            print(f"  {o:20} other: the run failed (above)")
        mark = "" if four_ran >= FOUR_TARGET else f"  (below {FOUR_TARGET})"
        print(f"  {'+'.join(four)} other: {four_ran} ran, {four_na} n/a{mark}")
    low = [o for o, (r, _) in rows.items() if r < SINGLE_TARGET * base_ran]
    return 1 if low or failed or four_ran < FOUR_TARGET else 0


if __name__ == "__main__":
    raise SystemExit(main())
