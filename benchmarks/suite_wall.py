"""The wall time of `pytest -n WORKERS` on quiet cores, predicted from a CPU table.

    python benchmarks/suite_wall.py TABLE [--workers 2] [--cores 2] [-m "not slow"]
                                          [--order warm|weights|cold]

TABLE is what `pytest --cpu-table TABLE` wrote (each test's CPU seconds, its children's
included). The suite is collected here (the same selection: `-m`), in pytest's order,
and replayed on WORKERS simulated workers sharing CORES cores:

- the tests are handed out as tests/conftest.py's scheduler hands them out (whole files,
  the heaviest first, each to the first worker free; a file past SPLIT_SHARE test by
  test), or as pytest-xdist's own `load`
  scheduler does (`--dist load`: chunks of consecutive tests);
- a test runs at one core's speed, or on two where the table shows it took less wall
  than CPU time (a command whose jobs run in two processes: `mtrain check`);
- the session parts the workers share (conftest.py's `corpus_explored` and
  `corpus_blame`, PARTS each) are computed by the first worker that asks for a part, and
  a worker asking for a part the other is computing waits for it; the table charges a
  part to the test that computed it, which here pays only its own share;
- each worker first collects the suite (COLLECT CPU seconds, measured below).

It prints the predicted wall time, each worker's busy and waiting seconds, and the sum of
CPU (its floor on CORES cores: sum / CORES). What it leaves out: pytest's own CPU in the
controller (reports, the terminal), module fixtures a split file sets up on two workers
(`--dist load` only), and the neighbours of a shared machine.
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SHARED = {"corpus_explored": 24.0, "corpus_blame": 83.0}
"""The session parts' whole CPU seconds (measured 2026-12-05: `test_corpus_is_lint_clean`
alone 25.2 CPU s of which the lint about 1.2; the blame 2026-12-06, session 50: every
mutant of 677 blamed in one process, 83.3 CPU s at load 9, 0.12 a mutant as at session
48's end), each computed in PARTS parts of equal cost."""
USES = {"corpus_explored": ("corpus_explored",),
        "corpus_blame": ("corpus_blame", "corpus_play_changes")}
"""The fixtures that ask for each session part (a test's fixture names are the closure of
what it asks for: a fixture of its module that asks for one counts)."""
PARTS = 2


@dataclass
class Test:
    nodeid: str
    cpu: float
    wall: float
    fixtures: frozenset[str]
    own: float = 0.0  # its CPU without the session parts the table charged it
    speed: float = 1.0  # cores it keeps busy


@dataclass
class Worker:
    number: int
    queue: list[Test] = field(default_factory=list)
    running: Test | None = None
    left: float = 0.0  # CPU seconds left of the running step
    waiting_for: tuple[str, int] | None = None
    parts: list[tuple[str, int]] = field(default_factory=list)  # still to get, in order
    busy: float = 0.0
    waited: float = 0.0
    computing: tuple[str, int] | None = None
    left_test: float = 0.0  # the test's own CPU left while it computes a part


def collect(marks: str | None) -> list[tuple[str, frozenset[str]]]:
    """The suite's tests in pytest's order, with the fixtures each asks for."""
    code = (
        "import sys, pytest\n"
        "class R:\n"
        "    def pytest_collection_finish(self, session):\n"
        "        for i in session.items:\n"
        "            print('TEST', i.nodeid, ' '.join(getattr(i, 'fixturenames', ())),\n"
        "                  sep='\\t')\n"
        "sys.exit(pytest.main(sys.argv[1:], plugins=[R()]))\n")
    args = [sys.executable, "-c", code, "--collect-only", "-q", "-p", "no:cacheprovider"]
    if marks:
        args += ["-m", marks]
    out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        if line.startswith("TEST\t"):
            _, nodeid, names = line.split("\t")
            found.append((nodeid, frozenset(names.split())))
    return found


def read_table(path: Path) -> dict[str, tuple[float, float]]:
    with open(path, encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return {r["nodeid"]: (float(r["cpu_s"]), float(r["wall_s"])) for r in rows}


def tests_of(table: dict[str, tuple[float, float]],
             order: list[tuple[str, frozenset[str]]]) -> list[Test]:
    tests = []
    for nodeid, fixtures in order:
        cpu, wall = table.get(nodeid, (0.0, 0.0))
        t = Test(nodeid, cpu, wall, fixtures, own=cpu)
        if wall > 0 and wall < 0.85 * cpu:  # its work ran in more than one process
            t.speed = min(2.0, cpu / wall)
        tests.append(t)
    for name, whole in SHARED.items():
        users = [t for t in tests if t.fixtures & set(USES[name])]
        # the table charged each part once, to a user that computed it: the costliest
        left = PARTS
        for t in sorted(users, key=lambda t: -t.cpu):
            k = next((k for k in range(left, 0, -1) if t.cpu >= 0.9 * whole * k / PARTS), 0)
            t.own = max(0.0, t.cpu - whole * k / PARTS)
            left -= k
    return tests


SPLIT_SHARE = 0.5
"""As tests/conftest.py's: a file heavier than this share of a worker's part goes test by
test."""


def by_cost(tests: list[Test], workers: int,
            known: dict[str, float] | None = None) -> list[list[Test]]:
    """conftest.py's order: whole files (or single tests of a file past SPLIT_SHARE), the
    heaviest first (each worker takes the next unit when it is free), by what the
    scheduler knows of each test's cost (`known`; default: the table's own figures, as
    with a warm cache)."""
    cost = known if known is not None else {t.nodeid: t.cpu for t in tests}
    files: dict[str, list[Test]] = defaultdict(list)
    for t in tests:
        files[t.nodeid.split("::")[0]].append(t)
    share = sum(cost[t.nodeid] for t in tests) / workers
    units = [unit for ts in files.values()
             for unit in ([[t] for t in ts]
                          if sum(cost[t.nodeid] for t in ts) > SPLIT_SHARE * share
                          else [ts])]
    return sorted(units, key=lambda ts: -sum(cost[t.nodeid] for t in ts))


def known_costs(tests: list[Test], order: str) -> dict[str, float] | None:
    """What the scheduler knows of each test: the table (a warm cache), nothing (a clean
    clone before tests/cpu_weights.json), or the committed weights (a clean clone)."""
    if order == "warm":
        return None
    sys.path.insert(0, str(ROOT / "tests"))
    from cpu_weights import estimates, load

    return estimates([t.nodeid for t in tests], {},
                     load() if order == "weights" else {"files": {}, "tests": {}})


def simulate(tests: list[Test], workers: int, cores: float, collect_cpu: float,
             dist: str, known: dict[str, float] | None = None) -> tuple[float, list[Worker]]:
    ws = [Worker(i) for i in range(workers)]
    done_at: dict[tuple[str, int], float] = {}
    taken: dict[tuple[str, int], int] = {}
    units: list[list[Test]]
    if dist == "load":  # xdist's LoadScheduling: chunks of consecutive tests
        pending = list(tests)
        chunk = max(min(len(tests) // workers // 4, len(tests)), 2)
        for w in ws:
            w.queue, pending = pending[:chunk], pending[chunk:]
        units = []
    else:
        units = by_cost(tests, workers, known)
        pending = []
    now = collect_cpu * workers / min(cores, workers)  # every worker collects first

    def refill(w: Worker, last_wall: float) -> None:
        nonlocal pending
        if dist == "load":
            if not pending:
                return
            low = max(2, len(pending) // workers // 4)
            high = max(2, len(pending) // workers // 2)
            if len(w.queue) < low and not (last_wall >= 0.1 and len(w.queue) >= 2):
                n = high - len(w.queue)
                w.queue, pending = w.queue + pending[:n], pending[n:]
        elif not w.queue and units:
            w.queue = list(units.pop(0))

    def start_next(w: Worker) -> None:
        while w.running is None and (w.queue or (dist != "load" and units)):
            refill(w, 0.0)
            if not w.queue:
                return
            t = w.queue.pop(0)
            w.running = t
            w.left = t.own
            w.parts = []
            for name in SHARED:
                if t.fixtures & set(USES[name]):
                    first = w.number % PARTS
                    w.parts += [(name, (first + k) % PARTS) for k in range(PARTS)]
            advance_parts(w)

    def advance_parts(w: Worker) -> None:
        while w.parts and w.computing is None:
            part = w.parts[0]
            if part in done_at and done_at[part] <= now:
                w.parts.pop(0)
                w.waiting_for = None
                continue
            if part in taken and taken[part] != w.number:
                w.waiting_for = part
                return
            taken[part] = w.number
            w.computing = part
            w.parts.pop(0)
            w.waiting_for = None
            w.left_test, w.left = w.left, SHARED[part[0]] / PARTS
            return

    for w in ws:
        refill(w, 0.0)
        start_next(w)
    while any(w.running for w in ws):
        active = [w for w in ws if w.running and w.waiting_for is None]
        demand = sum(1.0 if w.computing else w.running.speed for w in active if w.running)
        scale = min(1.0, cores / demand) if demand else 1.0
        rates = {w.number: (1.0 if w.computing else w.running.speed) * scale
                 for w in active if w.running}
        step = min((w.left / rates[w.number] for w in active), default=None)
        if step is None:  # everyone waits: cannot happen unless a part is lost
            raise SystemExit("deadlock in the simulation")
        now += step
        for w in ws:
            if w.running is None:
                continue
            if w.waiting_for is not None:
                w.waited += step
                continue
            w.left -= step * rates[w.number]
            w.busy += step
        for w in ws:
            if w.running is None or w.waiting_for is not None or w.left > 1e-9:
                continue
            if w.computing is not None:
                done_at[w.computing] = now
                w.computing = None
                w.left = w.left_test
                for other in ws:
                    if other.waiting_for is not None:
                        advance_parts(other)
                advance_parts(w)
                continue
            if w.parts:
                advance_parts(w)
                continue
            last = w.running
            w.running = None
            refill(w, last.wall)
            start_next(w)
        for w in ws:
            if w.running is not None and w.waiting_for is not None:
                advance_parts(w)
    return now, ws


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument("table", type=Path)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cores", type=float, default=2.0)
    ap.add_argument("-m", dest="marks", default=None)
    ap.add_argument("--dist", choices=("cost", "load"), default="cost",
                    help="cost: tests/conftest.py's scheduler (default); load: xdist's own")
    ap.add_argument("--order", choices=("warm", "weights", "cold"), default="warm",
                    help="what conftest's scheduler knows of the costs: warm, the table "
                    "(pytest's cache, default); weights, tests/cpu_weights.json (a clean "
                    "clone); cold, nothing (every test alike)")
    ap.add_argument("--collect-cpu", type=float, default=None,
                    help="CPU seconds a worker takes to collect (default: measured here)")
    args = ap.parse_args()
    collect_cpu = args.collect_cpu
    if collect_cpu is None:
        t0 = os.times()
        order = collect(args.marks)
        t1 = os.times()
        collect_cpu = t1.children_user + t1.children_system - t0.children_user \
            - t0.children_system
    else:
        order = collect(args.marks)
    tests = tests_of(read_table(args.table), order)
    total = sum(t.cpu for t in tests)
    wall, ws = simulate(tests, args.workers, args.cores, collect_cpu, args.dist,
                        known_costs(tests, args.order))
    print(f"{len(tests)} tests, {total:.1f} CPU s (floor on {args.cores:g} cores: "
          f"{total / args.cores:.1f} s); collection {collect_cpu:.1f} CPU s per worker")
    for w in ws:
        print(f"  worker {w.number}: busy {w.busy:.1f} s, waiting for a session part "
              f"{w.waited:.1f} s")
    print(f"predicted wall time ({args.dist}, order {args.order}): {wall:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
