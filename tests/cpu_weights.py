"""What each test costs before this checkout has measured it: the weights the conftest's
xdist scheduler orders the suite by when pytest's cache has no figure for a test.

The scheduler (tests/conftest.py, `pytest_xdist_make_scheduler`) hands out the heaviest
files first by the CPU their tests took in the last runs, which it reads from pytest's
cache. A clean clone (CI) has no cache: every test counted the same, files went out by
their number of tests, and the longest tests (identify on the house engines, the corpus
explored, blame) could start last while the other worker sat idle. The weights committed
here (cpu_weights.json: each file's CPU seconds, and each test's of a second or more)
stand in until the cache has a figure.

    python tests/cpu_weights.py TABLE [TABLE ...] [--cpu-total SECONDS] [--update]

writes cpu_weights.json from what a whole run measured: a `--cpu-table` (tab-separated,
conftest.py; or its PATH.partial, the same rows without the header, written as each test
ends: a run stopped early still measured what it ran) or the output of `pytest
--durations=0` (seconds of setup, call and teardown, summed per test; wall time, which
orders the files as CPU does on a machine equally loaded throughout: `--cpu-total` scales
the figures to the run's CPU seconds, as `/usr/bin/time` measured them, so that they read
as the cache's). A later table's figure for a test replaces an earlier's. With
`--update`, a file the tables measure takes their figures and every other file keeps the
committed ones (a run of some files, or one stopped early).
"""

from __future__ import annotations

import json
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path

WEIGHTS = Path(__file__).with_name("cpu_weights.json")
HEAVY = 1.0
"""A test of this many CPU seconds or more is listed by itself; the others of its file
share what is left of the file's figure."""
UNMEASURED = 0.05
"""The CPU seconds a test no figure covers counts for (half the tests take 0.01 or less,
nine in ten 0.15 or less)."""

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s (setup|call|teardown)\s+(\S.*?)\s*$")


def read_table(path: Path) -> dict[str, float]:
    """Each test's seconds, from a `--cpu-table` or `--durations` output."""
    seconds: defaultdict[str, float] = defaultdict(float)
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if lines and (lines[0].startswith("cpu_s\t") or _cpu_row(lines[0])):
        first = 2 if lines[0].startswith("cpu_s\t") else 1  # a .partial has no header
        for number, line in enumerate(lines[first - 1:], start=first):
            fields = line.split("\t")
            try:
                seconds[fields[3]] += float(fields[0])
            except (IndexError, ValueError):
                raise ValueError(f"{path}:{number}: not a --cpu-table row: {line!r}") from None
        return dict(seconds)
    for line in lines:
        m = _DURATION.match(line)
        if m is not None:
            seconds[m[3]] += float(m[1])
    if not seconds:
        raise ValueError(f"{path}: neither a --cpu-table nor a --durations list")
    return dict(seconds)


def _cpu_row(line: str) -> bool:
    """Whether a line is a --cpu-table row: seconds, seconds, 0 or 1, a node id."""
    fields = line.split("\t")
    try:
        float(fields[0]), float(fields[1])
    except (IndexError, ValueError):
        return False
    return len(fields) >= 4 and fields[2] in ("0", "1") and "::" in fields[3]


def updated(weights: Mapping[str, Mapping[str, float]],
            seconds: Mapping[str, float]) -> dict[str, dict[str, float]]:
    """`weights` with every file `seconds` measures taking its new figures (the file's
    and its heavy tests'), the others kept."""
    new = weights_of(seconds)
    files = {f: s for f, s in weights.get("files", {}).items() if f not in new["files"]}
    tests = {n: s for n, s in weights.get("tests", {}).items()
             if n.split("::", 1)[0] not in new["files"]}
    return {"files": dict(sorted({**files, **new["files"]}.items())),
            "tests": dict(sorted({**tests, **new["tests"]}.items()))}


def weights_of(seconds: Mapping[str, float]) -> dict[str, dict[str, float]]:
    """The committed form: every file's seconds, and each heavy test's."""
    files: defaultdict[str, float] = defaultdict(float)
    for nodeid, s in seconds.items():
        files[nodeid.split("::", 1)[0]] += s
    return {"files": {f: round(s, 2) for f, s in sorted(files.items())},
            "tests": {n: round(s, 2) for n, s in sorted(seconds.items()) if s >= HEAVY}}


COSTLIEST = 15
"""How many files the summary at the end of every run lists (conftest.py)."""


def costliest_files(seconds: Mapping[str, float],
                    count: int = COSTLIEST) -> list[tuple[str, float, int]]:
    """The `count` files whose tests took the most CPU seconds: each file, its seconds
    and its number of tests, the costliest first (ties by name, so a run's list reads
    the same whatever order its tests ended in)."""
    files: defaultdict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    for nodeid, s in seconds.items():
        tally = files[nodeid.split("::", 1)[0]]
        tally[0] += s
        tally[1] += 1
    ranked = sorted(files.items(), key=lambda kv: (-kv[1][0], kv[0]))
    return [(f, cpu, int(n)) for f, (cpu, n) in ranked[:count]]


def load(path: Path = WEIGHTS) -> dict[str, dict[str, float]]:
    """The committed weights; none when the file is missing or spoiled (the scheduler
    then counts every test as UNMEASURED, as before the file existed)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {"files": {str(k): float(v) for k, v in data["files"].items()},
                "tests": {str(k): float(v) for k, v in data["tests"].items()}}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {"files": {}, "tests": {}}


def estimates(collection: Iterable[str], measured: Mapping[str, float],
              weights: Mapping[str, Mapping[str, float]]) -> dict[str, float]:
    """Each collected test's expected CPU seconds: what the cache measured, else its
    committed figure, else its share of what its file's figure leaves to its tests not
    listed, else UNMEASURED."""
    files: defaultdict[str, list[str]] = defaultdict(list)
    for nodeid in collection:
        files[nodeid.split("::", 1)[0]].append(nodeid)
    tests = weights.get("tests", {})
    file_seconds = weights.get("files", {})
    found: dict[str, float] = {}
    for file, nodeids in files.items():
        others = [n for n in nodeids if n not in tests]
        left = file_seconds.get(file, 0.0) - sum(tests[n] for n in nodeids if n in tests)
        share = max(left, 0.0) / len(others) if others and file in file_seconds else None
        for n in nodeids:
            if n in measured:
                found[n] = measured[n]
            elif n in tests:
                found[n] = tests[n]
            else:
                found[n] = UNMEASURED if share is None else share
    return found


def main(argv: list[str]) -> int:
    total = None
    update = "--update" in argv
    argv = [a for a in argv if a != "--update"]
    if "--cpu-total" in argv:
        at = argv.index("--cpu-total")
        try:
            total = float(argv[at + 1])
        except (IndexError, ValueError):
            print("error: --cpu-total needs a number of seconds", file=sys.stderr)
            return 2
        argv = argv[:at] + argv[at + 2:]
    if not argv:
        print(__doc__.strip().split("\n\n")[2].strip(), file=sys.stderr)
        return 2
    seconds: dict[str, float] = {}
    for name in argv:
        try:
            seconds.update(read_table(Path(name)))
        except (OSError, ValueError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    if total is not None and seconds:
        scale = total / sum(seconds.values())
        seconds = {n: s * scale for n, s in seconds.items()}
    weights = updated(load(WEIGHTS), seconds) if update else weights_of(seconds)
    WEIGHTS.write_text(json.dumps(weights, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{WEIGHTS}: {len(weights['files'])} files, {len(weights['tests'])} tests of "
          f"{HEAVY:g} s or more, {sum(weights['files'].values()):.0f} s in all"
          + (f" ({sum(seconds.values()):.0f} s measured now)" if update else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
