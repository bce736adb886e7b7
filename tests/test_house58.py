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
refused, the entry is not applicable; played, it is judged as before."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

from mtrain.cli import main

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
