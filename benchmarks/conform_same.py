"""Whether a revision and the working tree give the same `mtrain conform` report.

    python benchmarks/conform_same.py --base REV [-- CONFORM ARGS...]
    python benchmarks/conform_same.py --base REV --house    # the default run and three
                                                            # house engines with their rules
    python benchmarks/conform_same.py --base REV --house --again  # the new side twice: its
                                                            # second run reads its cache

Each run writes its report as JSON (`--format json`), compared with every `duration`
taken out, byte for byte, and its exit code; with `--text`, a second run of each writes
the text report, compared with the headline's seconds taken out (the text is rendered
from what the JSON holds, so this doubles the cost for a check of the renderer). Each
side keeps a cache folder of its own (and the base reads its own shipped files): a
speed change must not change a result, whatever either side's cache holds. Exit code 1
when any pair differs, with the first lines that differ.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from measure import base_env, load

from mtrain.spec.cache import CACHE_ENV

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = "tests/examples"
HOUSE = [
    [],  # the default run: every shipped rule set, in-process
    ["--impl", f"python {EXAMPLES}/yardmaster_engine.py", "--rules",
     f"{EXAMPLES}/yardmaster-rules.yaml"],
    ["--impl", f"node {EXAMPLES}/js/hostler_engine.js", "--rules",
     f"{EXAMPLES}/js/hostler-rules.yaml"],
    ["--adapter", f"{EXAMPLES}/house_engine.py:HouseEngine", "--rules",
     f"{EXAMPLES}/house-rules.yaml"],
]
SECONDS = re.compile(r"; [0-9.]+ s$", re.M)


def _without_durations(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_durations(v) for k, v in value.items() if k != "duration"}
    if isinstance(value, list):
        return [_without_durations(v) for v in value]
    return value


def report(env: dict[str, str], args: list[str], text: bool) -> tuple[str, str, int]:
    """(the JSON report without durations, the text report without its seconds or "",
    the exit code)."""
    command = [sys.executable, "-m", "mtrain", "conform", *args]
    as_json = subprocess.run([*command, "--format", "json"], env=env, cwd=ROOT,
                             capture_output=True, text=True)
    try:
        data = _without_durations(json.loads(as_json.stdout))
    except json.JSONDecodeError:
        raise SystemExit(f"conform {' '.join(args)}: no JSON report "
                         f"(exit {as_json.returncode}):\n{as_json.stderr[-2000:]}") from None
    shown = ""
    if text:
        as_text = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
        shown = SECONDS.sub("; S s", as_text.stdout)
    return json.dumps(data, indent=1, sort_keys=True), shown, as_json.returncode


def first_difference(a: str, b: str) -> str:
    for i, (x, y) in enumerate(zip(a.splitlines(), b.splitlines(), strict=False)):
        if x != y:
            return f"line {i + 1}:\n  base: {x[:200]}\n  new:  {y[:200]}"
    return f"one is longer ({len(a.splitlines())} against {len(b.splitlines())} lines)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the git revision to compare with")
    parser.add_argument("--house", action="store_true",
                        help="the default run and three house engines with their rules")
    parser.add_argument("--text", action="store_true", help="compare the text reports too")
    parser.add_argument("--again", action="store_true",
                        help="run the new side a second time, reading what its first run "
                             "kept in its cache, and compare that too")
    parser.add_argument("conform", nargs="*", help="arguments of mtrain conform")
    args = parser.parse_args()
    runs = HOUSE if args.house else [args.conform]
    differ = 0
    with tempfile.TemporaryDirectory(prefix="conform-same-") as tmp:
        base = base_env(args.base, Path(tmp) / "base")
        base[CACHE_ENV] = str(Path(tmp) / "cache-base")
        new = {**os.environ, CACHE_ENV: str(Path(tmp) / "cache-new")}
        print(load())
        for run_args in runs:
            named = " ".join(run_args) or "(the default run)"
            bj, bt, bc = report(base, run_args, args.text)
            for which in ("first", "again")[:1 + args.again]:
                nj, nt, nc = report(new, run_args, args.text)
                results = len(json.loads(nj).get("results", []))
                same = bj == nj and bt == nt and bc == nc
                print(f"{'same' if same else 'DIFFERENT'}: {named}"
                      f"{' (new side run again)' * (which == 'again')}: {results} results, "
                      f"exit {nc}, JSON {len(nj):,} bytes, text {len(nt):,} bytes")
                if not same:
                    differ += 1
                    if bc != nc:
                        print(f"  exit codes: base {bc}, new {nc}")
                    for kind, b, n in (("JSON", bj, nj), ("text", bt, nt)):
                        if b != n:
                            print(f"  {kind}: {first_difference(b, n)}")
        print(load())
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
