"""A round's end under a scoring, blank values or tie rule of one's own
(conformance/round_end_alone.py): what the last step does still runs, what the end is
worth does not."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.adapter import JSON
from mtrain.conformance.fixture import FIXTURE_ROOT, Fixture, load_file
from mtrain.conformance.round_end_alone import only_round_end
from mtrain.conformance.selection import entry_for
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

SPACE = Space()
SEMAPHORE = Path(__file__).parent / "examples" / "semaphore-rules.yaml"
sys.path.insert(0, str(Path(__file__).parent / "examples"))
from semaphore_engine import Fixed  # noqa: E402


class NoOut(Fixed):
    """semaphore without its planted bugs, but a player who goes out is not counted in
    `outs`: a step that ends the round, whose scores its own scoring decides."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        out = super().apply(ruleset, state, action)
        if out["phase"] == "over" and state["phase"] != "over":
            out["outs"] = list(state["outs"])
        return out


def going_out(fid: str) -> Fixture:
    return next(fx for fx in load_file(Path(FIXTURE_ROOT) / "round-end" / "going-out.yaml")
                if fx.id == fid)


def test_going_out_runs_without_what_the_end_is_worth() -> None:
    """end-003 (going out with a double on the Mexican Train, END-1) was not applicable
    as a whole under semaphore's own scoring: its last step, the phase and the trains now
    run, its round scores do not."""
    rs = catalog().rules_file(str(SEMAPHORE))
    fx = going_out("end-003")
    exp, why = entry_for(fx, rs, SPACE)
    assert why is None and exp is not None
    assert exp.result == {"end": "domino", "winner": 0}  # the round scores left out
    assert exp.winners is None and exp.match_over is None
    assert "scores" not in exp.state and exp.state["phase"] == "over"
    # under a known scoring the whole entry runs, its scores included
    known, _ = entry_for(fx, catalog().ruleset("pagat"), SPACE)
    assert known is not None and known.result["scores"] == [0, 20, 11]
    # end-004 checks the round's result alone: how it ended and who went out still run
    mine, why = entry_for(going_out("end-004"), rs, SPACE)
    assert why is None and mine is not None and mine.result == {"end": "domino", "winner": 0}


def test_only_the_round_end_options_are_cut_away() -> None:
    assert only_round_end("its outcome depends on scoring (played its own way), "
                          "blank_values (played its own way)")
    assert not only_round_end("its outcome depends on scoring (played its own way), "
                              "draw_rule (played its own way)")
    assert not only_round_end("outside the expectation's scope")


def test_fuzz_judges_a_round_end_its_own_scoring_scores(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The step that ended a round read semaphore's own scoring, so fuzz judged none of it
    (only a broken state): a going out left uncounted was never found. Now all but the
    round's scores and the totals is judged, and the finding shrinks and replays."""
    capsys.readouterr()
    code = main(["fuzz", "--adapter", f"{__file__}:NoOut", "--rules", str(SEMAPHORE),
                 "--games", "1", "--seed", "1", "--out", str(tmp_path), "--json"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert code == 1
    assert [f["signature"] for f in report["findings"]] == ["round end: outs"]
    found = report["findings"][0]
    assert found["problems"] == [] and found["reproducer"] and found["shrink"]["written"]
    # the reproducer names the clause conform charges an uncounted going out to (it named
    # only the play's, TRAIN-2)
    [written] = load_file(Path(found["reproducer"]))
    assert "MATCH-5" in written.clauses


def test_a_replay_under_its_own_scoring_departs_on_no_total(tmp_path: Path) -> None:
    """doubles-013 (going out on a double) under semaphore's own scoring, against NoOut:
    the replay's diagnosis named the totals its own scoring gives (`scores`), so the
    failure was charged to penalty scoring (SCORE-5), a rule it does not play; the first
    departure is the uncounted going out."""
    out = tmp_path / "report.json"
    main(["conform", "--adapter", f"{__file__}:NoOut", "--rules", str(SEMAPHORE),
          "-k", "doubles-013", "--format", "json", "--output", str(out)])
    [result] = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert result["status"] == "fail"
    assert result["messages"][0].startswith("diagnosis:") and "outs:" in result["messages"][0]
    assert not any(m.startswith("scores") or " scores:" in m for m in result["messages"])
    assert result["charged"] == ["MATCH-5"]  # the outs' clause, as in every other such failure
