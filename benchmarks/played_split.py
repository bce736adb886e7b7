"""The default `mtrain conform`'s results, in three parts, each on the CPU clock: the
entries that run once (played untraced), the first runs of the entries shared by several
rule sets (traced, their passes kept), and the results the memo of passes serves.

    python benchmarks/played_split.py [--runs 3] [--base REV] [--args "--variant pagat"]

Each run is a fresh process that lets `mtrain conform` select its tasks as it does (the
tasks handed to resultmemo.ResultMemo), stops it there, and then plays them with that
memo as the pool asks it (`kept`, else `run`), timing each part with
`time.process_time`: none of the selection, the report or the imports is counted, so a
change to the played path shows at a tenth of a full run's cost and noise. With `--base
REV`, that revision's code runs the same way in the same turns (its tree laid out by
measure.base_env and compiled beforehand), and the ratios new / base are printed. The
load average is printed before and after: read the ratios, not the seconds.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PARTS = ("once", "traced", "served")


class _Selected(Exception):
    """Raised from inside `mtrain conform` once its tasks are known."""


def child(conform_args: list[str]) -> dict[str, Any]:
    """Select the tasks as `mtrain conform` does, then play them; each part's CPU s."""
    from mtrain.cli import main
    from mtrain.conformance.adapter import ReferenceImplementation, ruleset_json
    from mtrain.conformance.resultmemo import ResultMemo

    caught: list[Any] = []
    made = ResultMemo.__init__

    def catch(memo: ResultMemo, tasks: Any) -> None:
        made(memo, tasks)
        caught.append(tasks)
        raise _Selected

    ResultMemo.__init__ = catch  # type: ignore[method-assign,assignment]
    try:
        main(["conform", "--output", os.devnull, *conform_args])
    except _Selected:
        pass
    finally:
        ResultMemo.__init__ = made  # type: ignore[method-assign]
    if not caught:
        raise SystemExit("conform stopped before selecting its tasks")
    tasks = caught[0]
    memo = ResultMemo(tasks)
    impl = ReferenceImplementation()
    sent: dict[int, Any] = {}
    cpu = dict.fromkeys(PARTS, 0.0)
    count = dict.fromkeys(PARTS, 0)
    clock = time.process_time
    for t in tasks:
        if t.expectation is None or t.sent is None or t.why is not None:
            continue
        rj = sent.get(id(t.sent))
        if rj is None:
            rj = sent[id(t.sent)] = ruleset_json(t.sent)
        shared = memo._keys.get((id(t.fixture), id(t.expectation))) in memo._shared
        start = clock()
        if shared and memo.kept(t, impl) is not None:
            part = "served"
        else:
            memo.run(t, impl, rj, looked=True)
            part = "traced" if shared else "once"
        cpu[part] += clock() - start
        count[part] += 1
    return {"cpu": cpu, "count": count}


def run_child(env: dict[str, str] | None, conform_args: list[str]) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", "--args",
                           shlex.join(conform_args)], env=env, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"a run failed ({done.returncode}):\n{done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--base", help="a git revision to run in the same turns")
    parser.add_argument("--args", default="", help="arguments added to `mtrain conform`")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    conform_args = shlex.split(args.args)
    if args.child:  # (measure.py is not on the path of a base's run)
        print(json.dumps(child(conform_args)))
        return 0
    from measure import base_env, load, median

    print(load(), "(before)")
    with tempfile.TemporaryDirectory() as tmp:
        sides: dict[str, dict[str, str] | None] = {"new": None}
        if args.base:
            sides["base"] = base_env(args.base, Path(tmp))
            # compiled once here: this machine sets PYTHONDONTWRITEBYTECODE, and an
            # uncompiled tree compiles every module it imports inside each run
            compileall.compile_dir(Path(tmp) / "pkg", quiet=1)
        runs: dict[str, list[dict[str, Any]]] = {side: [] for side in sides}
        run_child(None, conform_args)  # warms the cache (situations, fixture files)
        for _ in range(args.runs):
            for side, env in sides.items():
                runs[side].append(run_child(env, conform_args))
    for side, got in runs.items():
        counts = got[0]["count"]
        for part in PARTS:
            values = [r["cpu"][part] for r in got]
            n = counts[part]
            m = median(values)
            print(f"{side:4} {part:6} {n:7d} results  CPU median {m:6.3f} s "
                  f"({', '.join(f'{v:.3f}' for v in values)}); "
                  f"{m / n * 1e6 if n else 0:.0f} us a result")
    if args.base:
        for part in PARTS:
            new = median([r["cpu"][part] for r in runs["new"]])
            base = median([r["cpu"][part] for r in runs["base"]])
            pairs = [n["cpu"][part] / b["cpu"][part] for n, b in
                     zip(runs["new"], runs["base"], strict=True) if b["cpu"][part]]
            print(f"new / base {part:6}: {new / base if base else 0:.3f} (medians; the "
                  f"pairs' median {median(pairs) if pairs else 0:.3f})")
    print(load(), "(after)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
