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

    python tests/cpu_weights.py --log CI_LOG [CI_LOG ...]

takes what a run's log says (every run ends with its costliest files' CPU seconds, and the
tests over their budget with theirs): each file listed takes its figure, each test listed
its own, and the committed figures of the file's other heavy tests are scaled with the
file's; every other file keeps the committed ones. A clean-clone CI run's log is then the
weights' source, no table needed (CI writes none). It prints too what the README quotes of
the (last) log's run: its tests, CPU seconds and load, pytest's seconds and result, and
whether it was green (a red run's figures are not the suite's).
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


_LOG_FILE = re.compile(r"^\s*(\d+(?:\.\d+)?) s\s+\d+ tests\s+(tests/\S+\.py)\s*$")
_LOG_TEST = re.compile(r"^\s*(\d+(?:\.\d+)?) s > \d+(?:\.\d+)? s\s+(\S+::.+?) \(wall ")
_LOG_COSTLY = re.compile(r"^\s*(\d+(?:\.\d+)?) s\s+(\S+::.+?) \(wall [\d.]+ s\)$")


_QUOTE = re.compile(r"^> ?")


def _log_lines(path: Path) -> list[str]:
    """The log's lines, each without the "> " the issue tracker quotes a CI run's output
    with (`issues ci > LOG`): that log read as the run printed it."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return [_QUOTE.sub("", line, count=1) for line in f]


def read_log(path: Path) -> tuple[dict[str, float], dict[str, float]]:
    """The CPU seconds a run's log gives: per file (the costliest files, the summary at
    the end of every run: conftest.py) and per test (the costliest tests, listed there
    too, and those over their time budget)."""
    files: dict[str, float] = {}
    tests: dict[str, float] = {}
    for line in _log_lines(path):
        if (m := _LOG_FILE.match(line)) is not None:
            files[m[2]] = float(m[1])
        elif (m := _LOG_TEST.match(line) or _LOG_COSTLY.match(line)) is not None:
            tests[m[2]] = float(m[1])
    if not files:
        raise ValueError(f"{path}: no file's CPU seconds (the summary \"CPU seconds of the "
                         f"{COSTLIEST} costliest test files\" at the end of a run's log)")
    return files, tests


_LOG_ALL = re.compile(r"^\s*(\d+(?:\.\d+)?) s\s+(\d+) tests\s+in all \(load average at the end "
                      r"([\d. ]+?)[;)]")
_LOG_COUNT = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed)\b")
_LOG_SECONDS = re.compile(r" in (\d+(?:\.\d+)?)s\b")


def run_figures(path: Path) -> str:
    """What the README quotes of a run, from its log: its tests and their CPU seconds (the
    summary's line "in all"), the load, pytest's result line and seconds, and whether the
    run was green: a red run's figures are not the suite's."""
    cpu = seconds = None
    result = ""
    for line in _log_lines(path):
        if (m := _LOG_ALL.match(line)) is not None:
            cpu = m
        elif (s := _LOG_SECONDS.search(line)) is not None and _LOG_COUNT.search(line):
            result, seconds = line, s  # pytest's last words: "6611 passed ... in 882.12s"
    if cpu is None or seconds is None:
        return f"{path}: no line \"in all\" or no pytest result line: the run's figures unread"
    counts = {kind.rstrip("s") if kind.startswith("error") else kind: int(n)
              for n, kind in _LOG_COUNT.findall(result)}
    said = ", ".join(f"{n:,} {kind}" for kind, n in counts.items())
    red = counts.get("failed", 0) + counts.get("error", 0)
    return (f"the run: {int(cpu[2]):,} tests, {float(cpu[1]):,.0f} CPU s (load at the end "
            f"{cpu[3]}), {float(seconds[1]):,.0f} s of pytest ({said}); "
            + (f"NOT green ({red} failed or in error): not the figures to quote" if red
               else "green"))


def from_log(weights: Mapping[str, Mapping[str, float]], files: Mapping[str, float],
             tests: Mapping[str, float]) -> dict[str, dict[str, float]]:
    """`weights` with each file the log lists taking its figure, each test the log lists
    its own, and the file's other heavy tests the committed figures scaled as the file's
    (no test above what its file leaves them); the files the log does not list kept, but
    where the log holds a whole summary (its COSTLIEST files), no unlisted file above the
    cheapest listed: it cost less than that in the run, and a stale figure kept (a shared
    corpus play charged to whichever test asked first) would count the same CPU twice."""
    old_files = weights.get("files", {})
    floor = min(files.values()) if len(files) >= COSTLIEST else None
    capped = {f: floor for f, s in old_files.items()
              if floor is not None and f not in files and s > floor}
    new_files = {**old_files, **capped, **{f: round(s, 2) for f, s in files.items()}}
    new_tests: dict[str, float] = {}
    for nodeid, s in weights.get("tests", {}).items():
        file = nodeid.split("::", 1)[0]
        if (file in files or file in capped) and old_files.get(file):
            s = s * new_files[file] / old_files[file]
        new_tests[nodeid] = round(s, 2)
    for nodeid, s in tests.items():
        file = nodeid.split("::", 1)[0]
        if file in new_files:  # a test of a file the weights know (the lists are of this suite)
            new_tests[nodeid] = round(s, 2)
    for file, total in files.items():  # the listed tests first; the others share what is left
        mine = [n for n in new_tests if n.split("::", 1)[0] == file]
        exact = sum(new_tests[n] for n in mine if n in tests)
        rest = [n for n in mine if n not in tests]
        scaled = sum(new_tests[n] for n in rest)
        if scaled > max(total - exact, 0.0):
            k = max(total - exact, 0.0) / scaled
            for n in rest:
                new_tests[n] = round(new_tests[n] * k, 2)
    return {"files": dict(sorted(new_files.items())),
            "tests": dict(sorted((n, s) for n, s in new_tests.items() if s >= HEAVY))}


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


COSTLIEST_TESTS = 30
"""How many tests the summary at the end of every run lists: a CI log (CI writes no table)
then says which tests a file's growth is in. Session 60's log named only files and the
tests over their budget (none of test_house_engines'), so --log scaled every test of that
file by its file's 1.27 and no test's own figure was known (docs/performance.md, session
61)."""


def costliest_tests(seconds: Mapping[str, float], wall: Mapping[str, float],
                    count: int = COSTLIEST_TESTS) -> list[str]:
    """The summary's lines for the `count` tests that took the most CPU seconds, the
    costliest first (ties by node id): each test's CPU and wall seconds, as read_log
    reads them back."""
    ranked = sorted(seconds.items(), key=lambda kv: (-kv[1], kv[0]))[:count]
    return [f"{cpu:8.2f} s  {nodeid} (wall {wall.get(nodeid, 0.0):.2f} s)"
            for nodeid, cpu in ranked]


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
    if argv[:1] == ["--log"]:
        return _main_log(argv[1:])
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


def _main_log(paths: list[str]) -> int:
    if not paths:
        print("error: --log needs a run's log (its summary of the costliest files)",
              file=sys.stderr)
        return 2
    files: dict[str, float] = {}
    tests: dict[str, float] = {}
    for name in paths:  # a later log's figure replaces an earlier's
        try:
            more_files, more_tests = read_log(Path(name))
        except (OSError, ValueError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        files.update(more_files)
        tests.update(more_tests)
    weights = from_log(load(WEIGHTS), files, tests)
    WEIGHTS.write_text(json.dumps(weights, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{WEIGHTS}: {len(files)} files and {len(tests)} tests from the log; "
          f"{len(weights['files'])} files, {sum(weights['files'].values()):.0f} s in all")
    print(run_figures(Path(paths[-1])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
