"""How much coarser the scope check's partition could be, and what that would change
(issue 25: a cold `mtrain lint` <= 20 CPU s).

    python benchmarks/partition_shape.py [--every N] [--json]                # the shape
    python benchmarks/partition_shape.py --time values|answers [--every N]  # CPU of one
    python benchmarks/partition_shape.py --compare [--every N]              # findings

The exploration (conformance/partition.py) splits a region on every VALUE of every option
a run read; the memo of runs (conformance/runmemo.py) serves a cell whose rule sets answer
every question of an earlier run alike, so the runs played and checked are one per region
of equal answers (a leaf of the memo's question tree), and the other cells cost a
completion and a walk of the tree each. `explore_by_answers` (below, an experiment, not
used by lint) splits a region instead by the ANSWER to each question the run asked: the
values of the option behind it that answer as the run's rule set does stay together
(every flag of reference/rules.py but one reads one option, so the regions stay boxes).

The shape, per fixture (every N-th with `--every`): `cells` (lint's "reference runs"),
`leaves` (runs played and checked: distinct runs among the cells), `results` (distinct
outcomes, messages, refusals left out and outcomes as played among them: what a partition
by outcome would have), and the cells `explore_by_answers` makes.

`--time` explores (and checks, proposes) every fixture with one explorer, in this process
alone: run it once per explorer, in turns, and compare the CPU seconds.

`--compare`: where the proposals (`propose`) of the two partitions differ, as text and as
sets of valid rule sets, and whether the breaches do.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

from measure import load

from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.partition import (
    Cell,
    Partition,
    _rest,
    _single,
    _written_values,
    breaches,
    explore,
    plays_of,
    propose,
)
from mtrain.conformance.runmemo import Question, RunMemo, answer
from mtrain.conformance.traced import Run, _kept, logged_run
from mtrain.reference.rules import FLAG_OPTIONS, Rules
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import CUSTOM, Ruleset
from mtrain.spec.scope import PROBE_TABLE, Region, Space

Explorer = Callable[[Fixture, Space], Partition]


def asked_run(fx: Fixture, rs: Ruleset, values: dict[str, str], memo: RunMemo
              ) -> tuple[Run, tuple[Question, ...]]:
    """traced.traced_run with a memo, and the questions the run asked, in order (kept
    with each run in this memo of runs, with the player counts whose size it read)."""
    _, rules, said = _kept(rs)
    found = memo.runs.find(rules, rs, said)[0]
    if found is not None:
        run = Run(**{**found[0].__dict__, "values": values})
        asked: tuple[Question, ...] = found[1]
        sizes: frozenset[int] = found[2]
    else:
        run, log = logged_run(fx, rs, fx.expect, values, memo)
        asked, sizes = tuple(log.asked), frozenset(log.sizes)
        memo.runs.keep(asked, rules, rs, (run, asked, sizes), said)
    if values.get("hand_sizes") == CUSTOM and rs.hand_table == PROBE_TABLE and sizes:
        said_text = (f"the outcome reads the hand size for {', '.join(map(str, sorted(sizes)))} "
                     "players, which a table of one's own sets: name the rule-set files it "
                     "holds for (spec/data/rulesets/) instead of hand_sizes=custom",)
        run = Run(values, tuple("fail" for _ in fx.expect), run.read,
                  tuple(said_text for _ in fx.expect))
    return run, asked


def behind(question: Question, names: tuple[str, ...]) -> tuple[str, ...]:
    """The options whose values decide the answer to `question` (those the traced run
    logs as read with it)."""
    kind, arg = question
    if kind == "flag":
        return FLAG_OPTIONS[arg]
    if kind == "option":
        return (arg,)
    if kind in ("says", "pool"):
        return (arg[0],)
    if kind in ("size", "deals", "counts", "custom"):
        return ("hand_sizes",)
    if kind == "every":
        return names
    return ()  # "unknown": no value of the space is played its own way


class Alike:
    """Which values of an option answer a question as a point does, each value's answer
    found once (a rule set of the point with that value, its flags). An answer is a
    function of the option's value alone (FLAG_OPTIONS; the hand table of `hand_sizes`).
    Errors (their text may name the rule set) and `custom` (PROBE_TABLE stands for any
    table; traced_run fails a run that reads its sizes) stand alone."""

    def __init__(self, space: Space) -> None:
        self.space = space
        self.said: dict[tuple[Question, str], object] = {}
        self.groups: dict[tuple[Question, frozenset[str], object], frozenset[str]] = {}

    def answer(self, question: Question, option: str, value: str,
               point: Mapping[str, str]) -> object:
        key = (question, value)
        found = self.said.get(key, key)
        if found is key:
            rs: Ruleset = self.space.ruleset({**point, option: value})
            try:
                found = answer(question, Rules.of(rs), rs)
            except (KeyError, ValueError):
                found = None
            if found is None or (isinstance(found, tuple) and found[:1] == ("raised",)) or (
                    option == "hand_sizes" and value == CUSTOM):
                found = ("alone", value, found)
            self.said[key] = found
        return found

    def values(self, question: Question, option: str, now: frozenset[str],
               point: Mapping[str, str]) -> frozenset[str]:
        mine = self.answer(question, option, point[option], point)
        key = (question, now, mine)
        found = self.groups.get(key)
        if found is None:
            found = frozenset(v for v in now
                              if self.answer(question, option, v, point) == mine)
            self.groups[key] = now if found == now else found
        return self.groups[key]


_alike: dict[int, tuple[Space, Alike]] = {}


def explore_by_answers(fx: Fixture, space: Space) -> Partition:
    """partition.explore, each region split by the answers to the run's questions (see
    the module docstring); as exact: every rule set of a cell answers every question of
    its run alike, so it plays the fixture as the run did."""
    kept = _alike.get(id(space))
    if kept is None or kept[0] is not space:
        kept = _alike[id(space)] = (space, Alike(space))
    alike = kept[1]
    part = Partition(fx)
    pending: list[Region] = [space.full()]
    complete = space.completer(_written_values(fx, space.cat))
    names = tuple(space.names)
    memo = RunMemo(plays_of(fx))
    while pending:
        region = pending.pop()
        point = complete(region)
        if point is None:
            continue
        values = dict(zip(names, point, strict=True))
        rs = space.ruleset_at(point, values)
        run, asked = asked_run(fx, rs, values, memo)
        cell = dict(region)
        for question in asked:
            options = behind(question, names)
            if len(options) == 1:
                option = options[0]
                now = cell[option]
                same = alike.values(question, option, now, values)
                if same is not now:
                    if now - same:
                        pending.append({**cell, option: now - same})
                    cell[option] = same
                continue
            for option in options:  # ("every", `rounds`): value by value, as explore
                now = cell[option]
                left = _rest(now, values[option])
                if left:
                    pending.append({**cell, option: left})
                cell[option] = _single(values[option])
        part.cells.append(Cell(cell, run))
    return part


def _result(c: Cell) -> tuple[Any, ...]:
    r = c.run
    return (r.outcomes, r.messages, r.unlisted, r.played)


def _minus(p: Region, q: Region) -> list[Region]:
    """p less q, as disjoint boxes."""
    out, cur = [], dict(p)
    for o, vs in q.items():
        if not cur[o] & vs:
            return [p]
        if cur[o] - vs:
            out.append({**cur, o: cur[o] - vs})
        cur[o] = cur[o] & vs
    return out


def _valid_beyond(a: list[Region], b: list[Region], space: Space) -> dict[str, str] | None:
    """A valid rule set of a union `a` outside the union `b`, or None."""
    for box in a:
        pieces = [box]
        for other in b:
            pieces = [r for x in pieces for r in _minus(x, other)]
        for x in pieces:
            found = space.complete(x)
            if found is not None:
                return found
    return None


def shape(fixtures: list[Fixture], space: Space) -> dict[str, Any]:
    totals = {"fixtures": 0, "cells": 0, "leaves": 0, "results": 0, "cells_by_answers": 0}
    for fx in fixtures:
        try:
            part = explore(fx, space)
        except RuntimeError:
            continue
        totals["fixtures"] += 1
        totals["cells"] += len(part.cells)
        totals["leaves"] += len({id(c.run.outcomes) for c in part.cells})
        totals["results"] += len({_result(c) for c in part.cells})
        totals["cells_by_answers"] += len(explore_by_answers(fx, space).cells)
    return totals


def timed(fixtures: list[Fixture], space: Space, explorer: Explorer) -> dict[str, Any]:
    cpu = {"explore": 0.0, "propose": 0.0, "breaches": 0.0}
    cells = 0
    for fx in fixtures:
        t0 = time.process_time()
        try:
            part = explorer(fx, space)
        except RuntimeError:
            continue
        t1 = time.process_time()
        propose(part, space)
        t2 = time.process_time()
        breaches(part, space)
        cpu["explore"] += t1 - t0
        cpu["propose"] += t2 - t1
        cpu["breaches"] += time.process_time() - t2
        cells += len(part.cells)
    return {"cells": cells, **{f"{k}_cpu_s": round(v, 2) for k, v in cpu.items()},
            "cpu_s": round(sum(cpu.values()), 2)}


def compare(fixtures: list[Fixture], space: Space) -> dict[str, Any]:
    full = space.full()
    entries = text_differs = sets_differ = 0
    breaches_differ: list[str] = []
    owners: list[str] = []
    for fx in fixtures:
        try:
            fine = explore(fx, space)
        except RuntimeError:
            continue
        coarse = explore_by_answers(fx, space)
        for k, (a, b) in enumerate(zip(propose(fine, space), propose(coarse, space),
                                       strict=True)):
            entries += 1
            if set(a.products) == set(b.products):
                continue
            text_differs += 1
            ra = [{**full, **p.region()} for p in a.products]
            rb = [{**full, **p.region()} for p in b.products]
            if _valid_beyond(ra, rb, space) or _valid_beyond(rb, ra, space):
                sets_differ += 1
                owners.append(f"{fx.id} entry {k + 1}")
        if ({(x.entry, x.outcome) for x in breaches(fine, space)}
                != {(x.entry, x.outcome) for x in breaches(coarse, space)}):
            breaches_differ.append(fx.id)
    return {"entries": entries, "proposals_whose_text_differs": text_differs,
            "proposals_whose_rule_sets_differ": sets_differ, "those": owners,
            "fixtures_whose_breaches_differ": breaches_differ}


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--every", type=int, default=1, help="every N-th fixture")
    parser.add_argument("--time", choices=("values", "answers"))
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    fixtures, _ = load_corpus()
    fixtures = fixtures[::args.every]
    space = Space(catalog())
    before = load()
    if args.time:
        found = timed(fixtures, space, explore if args.time == "values" else explore_by_answers)
    elif args.compare:
        found = compare(fixtures, space)
    else:
        found = shape(fixtures, space)
    out = {"load_before": before, "load_after": load(), "fixtures": len(fixtures), **found}
    if args.json:
        json.dump(out, sys.stdout, indent=2)
        print()
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
