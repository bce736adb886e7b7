"""Whether tests/fast_loop_moved.txt still fits the tests, read from one run's CPU seconds
(a report at the end of the run, never a failure: a test's CPU moves with the load).

- a fast test function costly enough to have been moved (its cases average MOVE_AT CPU s
  or more) that is in neither list: tests/fast_loop_moved.txt nor tests/fast_loop_kept.txt
  (the costly tests kept in the fast loop on purpose, each with its reason), nor sampled
  by FAST_CASES, nor its file's last fast test (a file keeps one);
- a moved function that the run ran (the whole suite) and that became cheap: its cases
  average under BACK_BELOW CPU s, so it could come back to the fast loop.

A session fixture's cost is charged to the first test that asks for it, so a function
can look costly in one run and not in the next: a report to read, not a rule."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

MOVE_AT = 0.2
"""CPU seconds a case, averaged over a function's cases, from which a fast function is
reported as costly (session 63 moved those of 0.2 and up, then of 0.1 and up at load 7 to
8: the higher mark, since the load moves a figure by half)."""
BACK_BELOW = 0.05
"""CPU seconds a case under which a moved function is reported as cheap now."""
KEPT_FILE = Path(__file__).with_name("fast_loop_kept.txt")
"""The costly test functions kept in the fast loop on purpose (FILE::FUNCTION, # why;
read as the moved list is, conftest.read_moved)."""


def function_of(nodeid: str) -> str:
    """`FILE.py::FUNCTION` (the file's name, no folder; no class, no parameters) of a
    node id, as tests/fast_loop_moved.txt names it."""
    path, _, rest = nodeid.partition("::")
    return f"{path.rsplit('/', 1)[-1]}::{rest.split('[', 1)[0].rsplit('::', 1)[-1]}"


@dataclass
class Drift:
    costly: list[tuple[float, int, str]]
    """(CPU s a case, cases, function): fast, costly, in no list."""
    cheap: list[tuple[float, int, str]]
    """(CPU s a case, cases, function): moved, ran, cheap now."""


def drift(cpu: Mapping[str, float], slow: Collection[str], moved: Collection[str],
          kept: Collection[str], sampled: Collection[str]) -> Drift:
    """What the run's CPU seconds (`cpu`, by node id; `slow`: the node ids marked slow)
    say of the moved list (`moved`), the kept one (`kept`) and the families FAST_CASES
    samples (`sampled`), all by function name."""
    fast: defaultdict[str, list[float]] = defaultdict(list)
    ran_moved: defaultdict[str, list[float]] = defaultdict(list)
    for nodeid, seconds in cpu.items():
        name = function_of(nodeid)
        if nodeid not in slow:
            fast[name].append(seconds)
        elif name in moved:
            ran_moved[name].append(seconds)
    per_file: defaultdict[str, int] = defaultdict(int)
    for name in fast:
        per_file[name.partition("::")[0]] += 1
    costly = [(sum(s) / len(s), len(s), name) for name, s in fast.items()
              if sum(s) / len(s) >= MOVE_AT and name not in moved and name not in kept
              and name not in sampled and per_file[name.partition("::")[0]] > 1]
    cheap = [(sum(s) / len(s), len(s), name) for name, s in ran_moved.items()
             if sum(s) / len(s) < BACK_BELOW]
    return Drift(sorted(costly, reverse=True), sorted(cheap))


def report_lines(found: Drift, shown: int = 15) -> list[str]:
    """The report's lines (none when the list fits the run)."""
    out: list[str] = []
    if found.costly:
        out.append(f"fast tests of {MOVE_AT:g} CPU s a case or more in neither "
                   "tests/fast_loop_moved.txt nor tests/fast_loop_kept.txt "
                   "(move one, make it cheaper, or say there why it stays):")
        out += [f"  {each:6.2f} s x {count:4d}  {name}"
                for each, count, name in found.costly[:shown]]
        if len(found.costly) > shown:
            out.append(f"  ... and {len(found.costly) - shown} more")
    if found.cheap:
        out.append(f"moved tests now under {BACK_BELOW:g} CPU s a case (they could come back "
                   "to the fast loop: take them out of tests/fast_loop_moved.txt):")
        out += [f"  {each:6.2f} s x {count:4d}  {name}"
                for each, count, name in found.cheap[:shown]]
        if len(found.cheap) > shown:
            out.append(f"  ... and {len(found.cheap) - shown} more")
    return out
