"""The CPU of a second `mtrain conform` under one rule file in one process, with the
selection kept from the first run (selection.select's memo) and without it.

    python benchmarks/conform_second_run.py [--repeats N] RULES TARGET...

e.g. `benchmarks/conform_second_run.py tests/examples/sleeper-rules.yaml --impl
"python tests/examples/sleeper_engine.py --fixed 1,2,3"`. Each repeat runs conform
twice, once with the memo emptied between the runs (as every run was before session
52b) and once kept, and times the second run: user+sys of this process and of the
engines it started and reaped (getrusage), so an engine's own CPU counts in both. Prints
each pair, the medians, their ratio, the CPU spent in select alone, and the load
average before and after (the figures are CPU, which the load moves little).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import resource
import statistics
import sys
import tempfile
import time

from mtrain.cli import main
from mtrain.conformance import selection


def cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def conform(argv: list[str], out: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
        main(["conform", *argv, "--format", "json", "--output", out])


def second_run(argv: list[str], keep: bool, out: str) -> tuple[float, float]:
    """(CPU of the second run, CPU of select within it)."""
    selection._MEMO.clear()
    conform(argv, out)
    if not keep:
        selection._MEMO.clear()
    spent = [0.0]
    original = selection.select

    def timed(*a: object, **k: object) -> object:
        t = time.process_time()
        try:
            return original(*a, **k)  # type: ignore[arg-type]
        finally:
            spent[0] += time.process_time() - t

    selection.select = timed  # type: ignore[assignment]
    try:
        before = cpu()
        conform(argv, out)
        return cpu() - before, spent[0]
    finally:
        selection.select = original  # type: ignore[assignment]


def main_() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("rules")
    p.add_argument("target", nargs=argparse.REMAINDER)
    args = p.parse_args()
    argv = [*args.target, "--rules", args.rules]
    print(f"load before: {os.getloadavg()}")
    off: list[tuple[float, float]] = []
    on: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "report.json")
        for k in range(args.repeats):
            off.append(second_run(argv, False, out))
            on.append(second_run(argv, True, out))
            print(f"repeat {k + 1}: memo off {off[-1][0]:.3f} s (select {off[-1][1]:.3f}), "
                  f"memo kept {on[-1][0]:.3f} s (select {on[-1][1]:.3f})")
    a, b = statistics.median(c for c, _ in off), statistics.median(c for c, _ in on)
    print(f"median second run: off {a:.3f} s, kept {b:.3f} s, ratio {a / b:.2f}; select "
          f"{statistics.median(s for _, s in off):.3f} s against "
          f"{statistics.median(s for _, s in on):.4f} s")
    print(f"load after: {os.getloadavg()}", file=sys.stdout)


if __name__ == "__main__":
    main_()
