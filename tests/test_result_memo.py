"""conform's memo of results (conformance/resultmemo.py): a pass given without playing
must be the result playing gives, and a rule set that answers otherwise must play."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.known_failures import SkipEntry
from mtrain.conformance.pool import Runner, run_tasks
from mtrain.conformance.report import Result
from mtrain.conformance.resultmemo import ResultMemo, entry_key
from mtrain.conformance.runner import Outcome
from mtrain.conformance.selection import Task, default_rulesets, load_fixtures, select
from mtrain.conformance.situation_deals import round_deals
from mtrain.conformance.target import Target
from mtrain.spec.catalog import catalog

# chaindbl-001 with a scope too wide: it holds where the first turn is a chain on a
# double-12 table, and not where the first turn is played otherwise, or the tile set's
# engine is another (the table's engine is 12)
WIDE = """
- id: memo-wide-001
  description: "A double inside a first-turn chain, claimed for every tile set and first turn"
  clauses: [FIRST-4, FIRST-1, FIRST-2]
  source: [pagat, decision]
  table:
    engine: 12
    first_turns: all
    hands:
      0: [12-5, 5-5, 5-3, 3-1, 7-2]
      1: [12-6, 4-4]
      2: [12-8, 1-1]
  steps: [play 12-5 on 0, play 5-5 on 0]
  expect:
    - when:
        - {tile_set: [double-9, double-12, double-15, double-18]}
      legal: [play 5-3 on 0]
      refused:
        end-chain: FIRST-4
      state:
        seat: 0
        phase: chain
        trains:
          0: [12-5, 5-5]
"""


def _results(path: Path, memo: bool, skips: list[SkipEntry] | None = None,
             ) -> tuple[list[Result], ResultMemo | None]:
    fixtures, errors = load_fixtures(str(path))
    assert not errors
    tasks, _ = select(fixtures, default_rulesets(fixtures), [])
    args = argparse.Namespace(impl=None, adapter=None, timeout=10.0, fixtures=str(path),
                              require_clauses=False, format="text")
    ref = ReferenceImplementation()
    runner = Runner(args, Target(lambda: ref, {}, "reference", True), ref.info(),
                    skips or [])
    if memo:
        runner.memo = ResultMemo(tasks)
    return run_tasks(tasks, runner, ref, 1), runner.memo


def _seen(results: list[Result]) -> list[tuple[object, ...]]:
    return [(r.fixture, r.variant, r.status, tuple(r.messages), r.charged, r.null_refusals,
             r.refused_step, r.diverged, r.unreached) for r in results]


def test_the_memo_gives_what_playing_gives(tmp_path: Path) -> None:
    path = tmp_path / "wide.yaml"
    path.write_text(WIDE, encoding="utf-8")
    played, _ = _results(path, memo=False)
    kept, memo = _results(path, memo=True)
    assert _seen(kept) == _seen(played)
    statuses = {r.status for r in played}
    assert "pass" in statuses and statuses - {"pass"}  # both kinds, so the test can fail
    assert memo is not None and 0 < memo.served < len(played)


def test_only_the_embedded_reference_is_served() -> None:
    class Own(ReferenceImplementation):
        pass

    assert ResultMemo.serves(ReferenceImplementation())
    assert not ResultMemo.serves(Own())


def _deal_tasks(names: list[str], wrong: str | None = None) -> list[Task]:
    """Later rounds' deals (situation_deals.round_deals: no random play) under each rule
    set of `names`, each rule set's its own Fixture objects; under `wrong`, the first
    one's expected hand of seat 0 given another tile."""
    tasks: list[Task] = []
    for name in names:
        rs = catalog().ruleset(name)
        for fx in round_deals(rs, lambda fid: fid <= "play-dealt-003"):
            if name == wrong and not any(t.ruleset.name == wrong for t in tasks):
                exp = fx.expect[0]
                hands = {**exp.state["hands"]}
                hands[0] = [*hands[0][1:], "0-0" if hands[0][0] != "0-0" else "1-0"]
                fx = dataclasses.replace(fx, expect=(dataclasses.replace(
                    exp, state={**exp.state, "hands": hands}),))
            tasks.append(Task(len(tasks), fx, rs, fx.expect[0], rs))
    return tasks


def _run(tasks: list[Task], memo: bool) -> tuple[list[Result], ResultMemo | None]:
    args = argparse.Namespace(impl=None, adapter=None, timeout=10.0, fixtures=None,
                              require_clauses=False, format="text")
    ref = ReferenceImplementation()
    runner = Runner(args, Target(lambda: ref, {}, "reference", True), ref.info(), [])
    if memo:
        runner.memo = ResultMemo(tasks)
    return run_tasks(tasks, runner, ref, 1), runner.memo


def test_equal_situations_of_several_rule_sets_are_one_entry() -> None:
    # the same deals under rule sets that deal alike: made once per rule set, each its own
    # objects, known by their content; one whose expectation differs is played, and fails
    names = ["pagat", "pagat+blanks-25", "puremco"]
    tasks = _deal_tasks(names, wrong="pagat+blanks-25")
    played, _ = _run(tasks, memo=False)
    kept, memo = _run(tasks, memo=True)
    assert _seen(kept) == _seen(played)
    assert [r.status for r in played].count("fail") == 1  # the changed one, so it can fail
    assert memo is not None and memo.served > 0
    keys = {entry_key(t.fixture, t.expectation) for t in tasks
            if t.expectation is not None}
    assert None not in keys and len(keys) < len(tasks)


def test_a_pass_as_the_memo_builds_it_is_the_outcome_of_those_fields() -> None:
    # Outcome.passed gives every field in order: a field added or moved must not shift them
    fx = _deal_tasks(["pagat"])[0].fixture
    built = Outcome.passed(fx, "pagat", ["note"], 1, ["TURN-1"], 2, 3, True)
    assert built == Outcome(fx, "pagat", "pass", ["note"], null_refusals=1, charged=["TURN-1"],
                            step=2, diverged=3, unreached=True)
