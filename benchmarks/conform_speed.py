"""How much CPU `mtrain conform` takes over the whole shipped corpus, in-process and
through the protocol, warm and on a first run.

    python benchmarks/conform_speed.py [--runs 5] [--cases in-process,cold] [--json]
                                       [--args "--variant pagat --variant puremco"]

Four cases, each a fresh command as a user runs it (its report written to a pipe):

    in-process   mtrain conform                          target: at most 5 CPU s
    played       the same, every result played           (MTRAIN_RESULT_MEMO=off)
    protocol     mtrain conform --impl "mtrain serve"    target: at most 1.3x in-process
    cold         mtrain conform, first run               target: at most 5 CPU s

In-process, the embedded reference's passes are kept by what their rule sets read
(conformance/resultmemo.py) and most results are given without playing; through the
protocol every result is played, so the ratio is printed against both in-process runs
(the one with every result played is the like-for-like one, and is the one judged).
`cold` is the run a new user sees first, after the install or a change to the code the
situations from play or the fixtures' checks depend on: each of its runs has an empty
cache folder of its own, so it makes every situation and validates every fixture.
`--cases` names the ones to run (default: in-process, played, protocol).

The cases take turns, run after run, so that all meet the same machine; each is judged on
the median of its CPU seconds (user + system, the server's included), and the protocol
case on the ratio of the medians. Wall times are shown too, with the load average before
and after: on a machine shared with other work they say how busy it was. One untimed run
first warms the file cache and mtrain's cache, a folder of the benchmark's own
(`--cache DIR` to name one): the user's folder is shared with every other mtrain on the
machine, and their situations push these out (a run that makes them again costs twice).
Exit code 1 when a target is missed or a run does not pass.

With `--base REV` (a git revision, e.g. main), the same cases (but `played`) run from that
revision's code too, in the same turns, and the ratios new / base are printed: on a busy
machine the only comparison worth making. `--args` adds arguments to every conform
command (a few rule sets, say: a comparison of builds that fits a busy machine's time).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
import tempfile
from pathlib import Path

from measure import Timed, base_env, load, median, mtrain_command, run, verdict

from mtrain.conformance.resultmemo import MEMO_ENV
from mtrain.spec.cache import CACHE_ENV

TARGET_CPU = 5.0
TARGET_RATIO = 1.3
HEADLINE = re.compile(r"^(OK|FAILED): (\d+) results ran.*\((\d+) pass", re.M)


def passed(timed: Timed, name: str) -> tuple[int, int]:
    """(results run, passes) from the report's headline; a run that fails stops here."""
    found = HEADLINE.search(timed.stdout)
    if timed.code != 0 or found is None or found.group(1) != "OK":
        raise SystemExit(f"{name} exited {timed.code}:\n{timed.stdout[-2000:]}"
                         f"{timed.stderr[-2000:]}")
    return int(found.group(2)), int(found.group(3))


CASES = ("in-process", "played", "protocol", "cold")
DEFAULT_CASES = ("in-process", "played", "protocol")
BASED = ("in-process", "protocol", "cold")
"""The cases also run from the base revision's code under --base."""


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--base", metavar="REV", help="also run git revision REV's code")
    parser.add_argument("--cache", metavar="DIR", help="mtrain's cache folder for every warm "
                        "run (default: a new one, warmed by an untimed first run)")
    parser.add_argument("--cases", default=",".join(DEFAULT_CASES),
                        help=f"the cases to run, among {', '.join(CASES)} (default: %(default)s)")
    parser.add_argument("--args", default="", help="more arguments of every mtrain conform")
    args = parser.parse_args()
    more = shlex.split(args.args)
    chosen = [c.strip() for c in args.cases.split(",") if c.strip()]
    if not chosen or not set(chosen) <= set(CASES):
        parser.error(f"--cases: name some of {', '.join(CASES)}")
    if "protocol" in chosen and not {"in-process", "played"} <= set(chosen):
        parser.error("--cases: protocol is judged against in-process and played: name them too")
    mtrain = mtrain_command()
    argv = {"in-process": [mtrain, "conform", *more], "played": [mtrain, "conform", *more],
            "protocol": [mtrain, "conform", *more, "--impl", f"{mtrain} serve"],
            "cold": [mtrain, "conform", *more]}
    cases = {name: argv[name] for name in chosen}
    with tempfile.TemporaryDirectory() as tmp:
        # a cache of the run's own, warmed by the first run: the user's folder is shared
        # with every other mtrain on the machine, whose entries push these out
        own = {**os.environ, CACHE_ENV: args.cache or str(Path(tmp) / "cache")}
        envs: dict[str, dict[str, str]] = {name: own for name in cases}
        if "played" in cases:
            envs["played"] = {**own, MEMO_ENV: "off"}
        base: dict[str, str] | None = None
        if args.base:
            python = f"{sys.executable} -m mtrain"
            base = {**base_env(args.base, Path(tmp)), CACHE_ENV: own[CACHE_ENV]}
            based = {"in-process": [*python.split(), "conform", *more],
                     "protocol": [*python.split(), "conform", *more, "--impl",
                                  f"{python} serve"],
                     "cold": [*python.split(), "conform", *more]}
            for name in BASED:
                if name in chosen:
                    cases[f"base {name}"], envs[f"base {name}"] = based[name], base
        before = load()
        if set(chosen) - {"cold"}:
            run([mtrain, "conform", *more], env=own)  # warms the file cache and mtrain's own
            if base is not None:  # the base's code keeps situations of its own
                run([sys.executable, "-m", "mtrain", "conform", *more], env=base)
        timed: dict[str, list[Timed]] = {name: [] for name in cases}
        counts: dict[str, tuple[int, int]] = {}
        for k in range(args.runs):
            for name, command in cases.items():
                env = envs[name]
                if name.endswith("cold"):  # a first run: nothing kept, by anyone
                    env = {**env, CACHE_ENV: str(Path(tmp) / f"{name} {k}")}
                timed[name].append(run(command, env=env))
                counts[name] = passed(timed[name][-1], name)
    after = load()
    cpu = {name: median([t.cpu for t in runs]) for name, runs in timed.items()}
    wall = {name: median([t.wall for t in runs]) for name, runs in timed.items()}
    judged: dict[str, bool] = {}
    out: dict[str, object] = {"runs": args.runs, "load_before": before, "load_after": after}
    for name in ("in-process", "cold"):
        if name in cpu:
            judged[name] = cpu[name] <= TARGET_CPU
    if "protocol" in cpu:
        ratio = cpu["protocol"] / cpu["played"]
        judged["protocol"] = ratio <= TARGET_RATIO
        pairs = median([p.cpu / i.cpu for i, p in zip(timed["played"], timed["protocol"],
                                                       strict=True)])
        out |= {"ratio": round(ratio, 3), "ratio_of_pairs": round(pairs, 3),
                "ratio_to_memo": round(cpu["protocol"] / cpu["in-process"], 3)}
    out["ok"] = all(judged.values())
    if args.base:
        out["new_over_base"] = {name: round(cpu[name] / cpu[f"base {name}"], 3)
                                for name in BASED if f"base {name}" in cpu}
    out |= {name: {"cpu_median": round(cpu[name], 3), "wall_median": round(wall[name], 3),
                   "cpu": [round(t.cpu, 3) for t in runs],
                   "results": counts[name][0], "passed": counts[name][1]}
            for name, runs in timed.items()}
    if args.json:
        json.dump(out, sys.stdout, indent=2)
        print()
    else:
        print(f"{args.runs} runs of each, taking turns; {before} before, {after} after")
        for name, runs in timed.items():
            shown = ", ".join(f"{t.cpu:.2f}" for t in runs)
            print(f"{name:<16} CPU median {cpu[name]:.2f} s (runs {shown}); wall median "
                  f"{wall[name]:.2f} s; {counts[name][1]}/{counts[name][0]} pass")
        for name, what in (("in-process", "in-process"), ("cold", "first run (cold)")):
            if name in judged:
                print(f"{what}: {cpu[name]:.2f} CPU s, target <= {TARGET_CPU:g}: "
                      f"{verdict(judged[name])}")
        if "protocol" in judged:
            print(f"protocol / in-process with every result played: {out['ratio']:.2f} "
                  f"(median of the pairs {out['ratio_of_pairs']:.2f}), target <= "
                  f"{TARGET_RATIO:g}: {verdict(judged['protocol'])}")
            print(f"protocol / in-process with the memo of results: {out['ratio_to_memo']:.2f}")
        for name in BASED:
            if f"base {name}" in cpu:
                print(f"{name}: new / base {cpu[name] / cpu[f'base {name}']:.2f}")
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
