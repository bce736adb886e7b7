"""What `mtrain identify` says of each example engine (tests/examples), against the rules
its docstring says it plays, with its planted bugs on and off.

    python benchmarks/identify_house_engines.py [NAME ...] [--sample] [--bugs on|off|both]

Per engine and setting: how many options are written right (the true value, not
contradicted), wrong (another known value), `other` (a rule of its own where the truth is
a known value) or contradicted (either reading left open); how many values are right
however marked, and how many wrong ones are called sure or measured (the goal: none).
Every option not plainly right is listed. CPU seconds (identify and the engine) and the
machine's load beside each. Run with a fixed PYTHONHASHSEED to repeat a run exactly
(issue 21: identify's path depends on it). `--sample`: SAMPLE's fifteen engines (every
language, every option some engine plays `other`) rather than all 54; a table of every
run at the end (the first run of a process after a change to the package explores the
corpus afresh: its CPU seconds are that, not the engine's).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import test_house_engines
from test_house_engines import Engine

from mtrain.conformance.declaration import declared_ruleset
from mtrain.conformance.identify import Watched, identify
from mtrain.conformance.target import greet, target_of
from mtrain.spec.ruleset import OTHER

ENGINES = {e.name: e for e in vars(test_house_engines).values() if isinstance(e, Engine)}
KINDS = ("right", "wrong", "other", "contradicted")
DUMP: str | None = None
SAMPLE = ("trolley", "wagonway", "dandy", "gantry", "bogey", "ballbridge", "reachstacker",
          "gondola", "semaphore", "coupling", "tenwheeler", "tender", "ninepins", "trestle",
          "cantina")
"""A spread of the engines (session 61): C, Java, Perl, C++, Tcl, Rust, JavaScript (2),
in-process adapters (2), Python programs (5); among their truths every option some
engine of the 54 plays `other`."""
ROWS: list[tuple[str, int, int, int, int, float]] = []
"""Each run's row of the closing table: label, options right, wrong and sure, wrong and
likely, undetermined or contradicted, CPU s."""


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def measure(engine: Engine, fixed: bool) -> None:
    began = cpu()
    how, where = engine.target(fixed)  # a program (--impl) or an adapter (--adapter)
    args = argparse.Namespace(impl=where if how == "--impl" else None,
                              adapter=where if how == "--adapter" else None, timeout=10.0)
    target = target_of(args)
    impl = target.make()
    try:
        info = greet(impl, target)
        found = identify(Watched(impl), declared=declared_ruleset(info))
    finally:
        close = getattr(impl, "close", None)
        if callable(close):
            close()
    counts = dict.fromkeys(KINDS, 0)
    lines, values, sure, likely, open_ = [], 0, 0, 0, 0
    for f in found.findings:
        truth = engine.truth[f.option]
        kind = ("contradicted" if f.status == "contradicted" else "right" if f.value == truth
                else "other" if f.value == OTHER else "wrong")
        counts[kind] += 1
        values += f.value == truth
        sure += f.value != truth and f.status in ("sure", "measured")
        likely += f.value != truth and f.status == "likely"
        open_ += f.status in ("undetermined", "contradicted")
        if kind != "right":
            lines.append(f"    {f.option}: {f.value} {f.status} margin {f.margin} (truth {truth})"
                         + (f": {', '.join(f.evidence[:4])}" if f.status == "sure" else ""))
    label = f"{engine.name}, bugs {'off' if fixed else 'on'}"
    ROWS.append((label, counts["right"], sure, likely, open_, cpu() - began))
    print(f"{label:<22} " + " ".join(f"{k} {counts[k]}" for k in KINDS)
          + f"; values right {values}, wrong when sure {sure}, likely and wrong {likely}, "
          f"undetermined or contradicted {open_}; {cpu() - began:.1f} CPU s, "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
    for line in lines:
        print(line, flush=True)
    if DUMP:  # every finding, for a reading apart (--dump FILE: one JSON line per run)
        with open(DUMP, "a", encoding="utf-8") as out:
            out.write(json.dumps({"engine": engine.name, "fixed": fixed, "findings": [
                {"option": f.option, "value": f.value, "status": f.status,
                 "margin": f.margin, "truth": engine.truth[f.option], "evidence": f.evidence,
                 "alternatives": f.alternatives, "agreement": f.agreement}
                for f in found.findings], "unexplained": found.unexplained}) + "\n")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("names", nargs="*", metavar="NAME", help=", ".join(ENGINES))
    p.add_argument("--bugs", choices=("on", "off", "both"), default="both")
    p.add_argument("--sample", action="store_true", help=f"the engines {', '.join(SAMPLE)}")
    p.add_argument("--dump", metavar="FILE", help="append every finding, as JSON lines")
    args = p.parse_args()
    global DUMP
    DUMP = args.dump
    unknown = [n for n in args.names if n not in ENGINES]
    if unknown:
        p.error(f"no example engine {', '.join(unknown)} (there are {', '.join(ENGINES)})")
    settings = {"on": [False], "off": [True], "both": [False, True]}[args.bugs]
    for name in args.names or (SAMPLE if args.sample else list(ENGINES)):
        for fixed in settings:
            measure(ENGINES[name], fixed)
    print("\n| engine | right | sure and wrong | likely and wrong | undetermined or "
          "contradicted | CPU s |\n|---|---|---|---|---|---|")
    for label, right, sure, likely, open_, took in ROWS:
        print(f"| {label} | {right} | {sure} | {likely} | {open_} | {took:.1f} |")
    print(f"| all | {sum(r[1] for r in ROWS)} | {sum(r[2] for r in ROWS)} | "
          f"{sum(r[3] for r in ROWS)} | {sum(r[4] for r in ROWS)} | "
          f"{sum(r[5] for r in ROWS):.1f} |")


if __name__ == "__main__":
    main()
