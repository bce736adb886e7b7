"""Profile an mtrain command on the CPU clock, and set two such profiles side by side.

    python benchmarks/cpu_profile.py run OUT -- conform --impl "..."   # writes OUT
    python benchmarks/cpu_profile.py diff A B [--top 40]               # B against A

`run` runs `mtrain ARGS...` in this process under cProfile timed by
`time.process_time`, so that time spent waiting (on a pipe, on the machine's other
jobs) is not counted as the program's: a wall-clock profiler (py-spy, cProfile's
default) charges a harness waiting for its server's answer to the line that waits.
cProfile's own cost inflates every Python call alike, so read shares and differences,
not seconds.

`diff` prints the functions whose own CPU grew most from A to B (calls and own and
cumulative seconds in each), then the whole of each profile: how session 52 found
where `mtrain conform --impl "mtrain serve"`'s harness spends what the in-process run
with every result played does not (`protocol_split.py --keep DIR` records the answers
to replay, so that the server's CPU stays out of the harness's profile).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import re
import sys
import time
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parents[1]) + "/"
_EDITABLE = re.compile(r"^.*/__editable__[^/]*/mtrain/")
"""The folder an editable install maps the package to (`mtrain.conformance.x` imported
from there or from the checkout itself names one file)."""


def _where(key: tuple[str, int, str]) -> str:
    path, line, name = key
    short = _EDITABLE.sub("", path).removeprefix(_ROOT)
    return f"{short}:{line}({name})" if line else name


def _stats(path: str) -> dict[str, tuple[int, float, float]]:
    """Each function's (calls, own seconds, cumulative seconds), keyed by a place that
    reads alike whichever install path the module was imported from."""
    out: dict[str, tuple[int, float, float]] = {}
    for key, (_, calls, own, cum, _) in pstats.Stats(path).stats.items():  # type: ignore[attr-defined]
        where = _where(key)
        had = out.get(where, (0, 0.0, 0.0))
        out[where] = (had[0] + calls, had[1] + own, had[2] + cum)
    return out


def profile(out: str, args: list[str]) -> int:
    from mtrain.cli import main

    sys.argv = ["mtrain", *args]
    profiler = cProfile.Profile(time.process_time)
    code = 0
    try:
        profiler.runcall(main)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    finally:
        profiler.dump_stats(out)
    return code


def diff(a: str, b: str, top: int) -> int:
    before, after = _stats(a), _stats(b)
    total_a = sum(v[1] for v in before.values())
    total_b = sum(v[1] for v in after.values())
    rows = sorted(((after.get(k, (0, 0.0, 0.0))[1] - before.get(k, (0, 0.0, 0.0))[1], k)
                   for k in before.keys() | after.keys()), reverse=True)
    print(f"own CPU in all: A {total_a:.2f} s, B {total_b:.2f} s (profiled)")
    print(f"{'B - A':>7}  {'calls A':>9} {'own A':>7} {'cum A':>7}  {'calls B':>9} "
          f"{'own B':>7} {'cum B':>7}  function")
    for grew, key in rows[:top]:
        ca, oa, ua = before.get(key, (0, 0.0, 0.0))
        cb, ob, ub = after.get(key, (0, 0.0, 0.0))
        print(f"{grew:7.2f}  {ca:9d} {oa:7.2f} {ua:7.2f}  {cb:9d} {ob:7.2f} {ub:7.2f}  {key}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    run = sub.add_parser("run", help="profile `mtrain ARGS...` into OUT")
    run.add_argument("out")
    run.add_argument("args", nargs=argparse.REMAINDER)
    two = sub.add_parser("diff", help="the functions whose own CPU grew most from A to B")
    two.add_argument("a")
    two.add_argument("b")
    two.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    if args.what == "run":
        given = args.args[1:] if args.args[:1] == ["--"] else args.args
        if not given:
            parser.error("run: name the mtrain command after OUT (e.g. -- conform)")
        return profile(args.out, given)
    return diff(args.a, args.b, args.top)


if __name__ == "__main__":
    sys.exit(main())
