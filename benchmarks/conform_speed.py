"""How much CPU `mtrain conform` takes over the whole shipped corpus, in-process and
through the protocol.

    python benchmarks/conform_speed.py [--runs 5] [--json]

Three cases, each a fresh command as a user runs it (its report written to a pipe):

    in-process   mtrain conform                          target: at most 5 CPU s
    played       the same, every result played           (MTRAIN_RESULT_MEMO=off)
    protocol     mtrain conform --impl "mtrain serve"    target: at most 1.3x in-process

In-process, the embedded reference's passes are kept by what their rule sets read
(conformance/resultmemo.py) and most results are given without playing; through the
protocol every result is played, so the ratio is printed against both in-process runs
(the one with every result played is the like-for-like one, and is the one judged).

The two take turns, run after run, so that both meet the same machine; each is judged on
the median of its CPU seconds (user + system, the server's included), and the protocol
case on the ratio of the medians. Wall times are shown too, with the load average before
and after: on a machine shared with other work they say how busy it was. One untimed run
first warms the file cache and mtrain's cache, a folder of the benchmark's own
(`--cache DIR` to name one): the user's folder is shared with every other mtrain on the
machine, and their situations push these out (a run that makes them again costs twice).
Exit code 1 when a target is missed or a run does not pass.

With `--base REV` (a git revision, e.g. main), the same two cases run from that revision's
code too, in the same turns, and the ratios new / base are printed: on a busy machine the
only comparison worth making.
"""

from __future__ import annotations

import argparse
import json
import os
import re
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


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--base", metavar="REV", help="also run git revision REV's code")
    parser.add_argument("--cache", metavar="DIR", help="mtrain's cache folder for every run "
                        "(default: a new one, warmed by an untimed first run)")
    args = parser.parse_args()
    mtrain = mtrain_command()
    cases = {"in-process": [mtrain, "conform"], "played": [mtrain, "conform"],
             "protocol": [mtrain, "conform", "--impl", f"{mtrain} serve"]}
    with tempfile.TemporaryDirectory() as tmp:
        # a cache of the run's own, warmed by the first run: the user's folder is shared
        # with every other mtrain on the machine, whose entries push these out
        own = {**os.environ, CACHE_ENV: args.cache or str(Path(tmp) / "cache")}
        envs: dict[str, dict[str, str] | None] = {name: own for name in cases}
        envs["played"] = {**own, MEMO_ENV: "off"}
        if args.base:
            python = f"{sys.executable} -m mtrain"
            env = {**base_env(args.base, Path(tmp)), CACHE_ENV: own[CACHE_ENV]}
            cases |= {"base in-process": [*python.split(), "conform"],
                      "base protocol": [*python.split(), "conform", "--impl",
                                        f"{python} serve"]}
            envs |= {"base in-process": env, "base protocol": env}
        before = load()
        run(cases["in-process"], env=own)  # warms the file cache and mtrain's own
        if args.base:  # the base's code keeps situations of its own
            run(cases["base in-process"], env=envs["base in-process"])
        timed: dict[str, list[Timed]] = {name: [] for name in cases}
        counts: dict[str, tuple[int, int]] = {}
        for _ in range(args.runs):
            for name, argv in cases.items():
                timed[name].append(run(argv, env=envs[name]))
                counts[name] = passed(timed[name][-1], name)
    after = load()
    cpu = {name: median([t.cpu for t in runs]) for name, runs in timed.items()}
    wall = {name: median([t.wall for t in runs]) for name, runs in timed.items()}
    ratio = cpu["protocol"] / cpu["played"]
    pairs = median([p.cpu / i.cpu for i, p in zip(timed["played"], timed["protocol"],
                                                   strict=True)])
    ratio_memo = cpu["protocol"] / cpu["in-process"]
    ok_cpu, ok_ratio = cpu["in-process"] <= TARGET_CPU, ratio <= TARGET_RATIO
    out = {"ok": ok_cpu and ok_ratio, "runs": args.runs, "load_before": before,
           "load_after": after, "ratio": round(ratio, 3), "ratio_of_pairs": round(pairs, 3),
           "ratio_to_memo": round(ratio_memo, 3),
           **({"new_over_base": {name: round(cpu[name] / cpu[f"base {name}"], 3)
                                 for name in ("in-process", "protocol")}} if args.base else {}),
           **{name: {"cpu_median": round(cpu[name], 3), "wall_median": round(wall[name], 3),
                     "cpu": [round(t.cpu, 3) for t in runs],
                     "results": counts[name][0], "passed": counts[name][1]}
              for name, runs in timed.items()}}
    if args.json:
        json.dump(out, sys.stdout, indent=2)
        print()
    else:
        print(f"{args.runs} runs of each, taking turns; {before} before, {after} after")
        for name, runs in timed.items():
            shown = ", ".join(f"{t.cpu:.2f}" for t in runs)
            print(f"{name:<11} CPU median {cpu[name]:.2f} s (runs {shown}); wall median "
                  f"{wall[name]:.2f} s; {counts[name][1]}/{counts[name][0]} pass")
        print(f"in-process: {cpu['in-process']:.2f} CPU s, target <= {TARGET_CPU:g}: "
              f"{verdict(ok_cpu)}")
        print(f"protocol / in-process with every result played: {ratio:.2f} (median of "
              f"the pairs {pairs:.2f}), target <= {TARGET_RATIO:g}: {verdict(ok_ratio)}")
        print(f"protocol / in-process with the memo of results: {ratio_memo:.2f}")
        for name in ("in-process", "protocol"):
            if f"base {name}" in cpu:
                print(f"{name}: new / base {cpu[name] / cpu[f'base {name}']:.2f}")
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
