"""The suite's faults found while writing and running coaling (tests/examples/
coaling_engine.py, a double-16 engine for 4 to 10 players with a table of its own and
two house rules that work together: a double may be laid only on its layer's own train,
`doubles: other`; a double a train ends in at the round's end is charged to its owner,
`scoring: other`), each fixed with a test that failed before the fix.

Going out on a double under a doubles rule of one's own (out_alone.py) ran the entry with
its open doubles set aside, as if that rule decided only what a double does once laid.
Yet where a double may be laid is the doubles rule's question too (every known value lets
it go wherever a tile of its number may): coaling's own rule refused the last step of
bone12-014 ([1-1] on the Mexican Train), a false failure charged to TRAIN-4. The steps of
such an entry that lay a double are now its own rule's to refuse (`Expectation.own_steps`):
refused, the entry is not applicable; played, it is judged as before.

Under a scoring rule of one's own, an engine whose `score` answer disagreed with the
round scores its own finished state gave (coaling with its `score` request forgetting its
bare doubles) passed conform and fuzz: the round's worth was set aside as the rule's own
(round_end_alone.py), and with it any question of the scores. Yet whatever a rule counts,
a round's scores are those of the table it ended on (the protocol's `score`: computed
again from the hands): where a step of the entry ends the round and nothing else judges
its scores, the implementation is asked to score the table it ended on, and its answer
must be its own result's (runner.check_own_score)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation

EXAMPLES = Path(__file__).parent / "examples"
COALING = EXAMPLES / "coaling_engine.py"
RULES = EXAMPLES / "coaling-rules.yaml"


def conform(target: list[str], tmp_path: Path, *pattern: str) -> dict[str, Any]:
    out = tmp_path / "report.json"
    keep = [a for p in pattern for a in ("-k", p)]
    main(["conform", *target, "--rules", str(RULES), *keep, "--format", "json",
          "--output", str(out)])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def only(report: dict[str, Any], fixture: str) -> dict[str, Any]:
    found = [r for r in report["results"] if r["fixture"] == fixture]
    assert len(found) == 1, found
    result: dict[str, Any] = found[0]
    return result


def test_a_double_its_own_rule_will_not_lay_is_set_aside(tmp_path: Path) -> None:
    """coaling refuses [1-1] on the Mexican Train (its doubles rule): not applicable, its
    reason the own step's, not a failure charged to TRAIN-4."""
    engine = shlex.join([sys.executable, str(COALING), "--fixed", "1,2,3"])
    result = only(conform(["--impl", engine], tmp_path, "bone12-014"), "bone12-014")
    assert result["status"] == "not-applicable", result
    assert "refused a step whose legality a rule it plays its own way" in result["message"]
    assert "doubles played its own way" in result["message"]


def test_a_double_laid_still_judges_the_entry(tmp_path: Path) -> None:
    """The reference in process, under the same file, lays the double and goes out: the
    entry runs and passes (its result and hands judged), as before."""
    result = only(conform([], tmp_path, "bone12-014"), "bone12-014")
    assert result["status"] == "pass", result


OWN_SCORING = """name: own-scoring
base: pagat
options:
  tile_set: double-6
  hand_sizes: {2: 7, 3: 6, 4: 5}
  first_turn: single
  scoring: other
"""


class ScoresAgain(ReferenceImplementation):
    """The reference, its `score` request answered as its round's result scores."""


class ScoresTwice(ReferenceImplementation):
    """A `score` request answered twice what its own round's result says (a scoring of
    its own written twice, once in the round's end and once behind `score`)."""

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        return [2 * x for x in super().score(ruleset, state, winner)]


@pytest.mark.parametrize(("adapter", "status"), [("ScoresAgain", "pass"),
                                                 ("ScoresTwice", "fail")])
def test_a_score_request_must_agree_with_its_own_round_end(
        adapter: str, status: str, tmp_path: Path) -> None:
    """bone12-014 ends its round by its step (seat 3 goes out, 9, 13, 10 and 0 under
    penalty scoring): under a scoring of one's own, the score request about the table it
    ended on must give the result's own scores."""
    rules = tmp_path / "own-scoring.yaml"
    rules.write_text(OWN_SCORING, encoding="utf-8")
    out = tmp_path / "report.json"
    main(["conform", "--adapter", f"{__file__}:{adapter}", "--rules", str(rules),
          "-k", "bone12-014", "--format", "json", "--output", str(out)])
    result = only(json.loads(out.read_text(encoding="utf-8")), "bone12-014")
    assert result["status"] == status, result
    if status == "fail":
        assert "its own result" in result["message"], result
        assert "[18, 26, 20, 0]" in result["message"], result
