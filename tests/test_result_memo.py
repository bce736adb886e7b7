"""conform's memo of results (conformance/resultmemo.py): a pass given without playing
must be the result playing gives, and a rule set that answers otherwise must play."""

from __future__ import annotations

import argparse
from pathlib import Path

from mtrain.conformance.adapter import ReferenceImplementation
from mtrain.conformance.pool import Runner, run_tasks
from mtrain.conformance.report import Result
from mtrain.conformance.resultmemo import ResultMemo
from mtrain.conformance.selection import default_rulesets, load_fixtures, select
from mtrain.conformance.target import Target

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


def _results(path: Path, memo: bool) -> tuple[list[Result], ResultMemo | None]:
    fixtures, errors = load_fixtures(str(path))
    assert not errors
    tasks, _ = select(fixtures, default_rulesets(fixtures), [])
    args = argparse.Namespace(impl=None, adapter=None, timeout=10.0, fixtures=str(path),
                              require_clauses=False, format="text")
    ref = ReferenceImplementation()
    runner = Runner(args, Target(lambda: ref, {}, "reference", True), ref.info(), [])
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
