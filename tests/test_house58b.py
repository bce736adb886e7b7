"""The suite's faults found while writing and running bogey (tests/examples/tcl/bogey.tcl,
a double-16 engine in Tcl for 6 to 12 players with a table of its own, ordinary doubles,
and a match length and a tie rule of its own), each fixed with a test that failed before
the fix.

A play on a train the table does not have (train n at a table of n seats) is refused by
TRAIN-1, and the corpus asked it at a table of three alone (first-026): an engine whose
hand-size table has no row for three seats never met the question, so bogey's planted
bug 2, which keeps the Mexican Train as train n and so takes a play on train n for one on
the Mexican Train, passed every result of conform. Now every mid-round situation from play
asks the refusal of a held tile on train n, at whatever table the rule set deals
(situations._fixture), where no option decides it; identify's situations leave it out
(legal_only: it reads no option, so it tells no rule sets apart). The engine here is the
reference in process with that bug, under a table of its own for 5 to 7 seats."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.situations import _from_data, _to_data, legal_only, situations
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import action_json

RULES = """name: long-table
base: pagat
options:
  hand_sizes: {5: 12, 6: 11, 7: 10}
  first_turn: single
"""


class MexicanAtN(ReferenceImplementation):
    """A planted bug: the Mexican Train kept as train n, so a play on train n is taken
    as one on the Mexican Train (breaks TRAIN-1)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        if action.get("type") == "play" and action.get("train") == len(state["hands"]):
            action = {**action, "train": "mexican"}
        return super().apply(ruleset, state, action)


def _rules(tmp_path: Path) -> Path:
    path = tmp_path / "long-table.yaml"
    path.write_text(RULES, encoding="utf-8")
    return path


def _conform(adapter: str, tmp_path: Path) -> dict[str, Any]:
    out = tmp_path / "report.json"
    main(["conform", "--adapter", f"{__file__}:{adapter}", "--rules", str(_rules(tmp_path)),
          "-k", "play-mid-00*", "--format", "json", "--output", str(out)])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def _failures(report: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
    return [(r["fixture"], "\n".join(r["messages"] or [r["message"]]), r["charged"])
            for r in report["results"] if r["status"] not in ("pass", "not-applicable")]


def test_a_play_on_the_train_past_the_last_seat_is_asked_at_every_table(
        tmp_path: Path) -> None:
    """Before, no situation asked a refusal; now each mid-round one asks the play of a tile
    the mover holds on train n (TRAIN-1), kept through the cache's form, and left out of
    what identify asks."""
    rs = catalog().rules_file(str(_rules(tmp_path)))
    mids = situations(rs, 70, wanted=lambda fid: fid.startswith("play-mid-"))
    assert len(mids) >= 5
    for fx in mids:
        assert fx.table is not None and "TRAIN-1" in fx.clauses
        seats = len(fx.table["hands"])
        [(text, clauses)] = fx.expect[0].refused.items()
        action = action_json(text)
        assert action["train"] == seats and clauses == ("TRAIN-1",), (fx.id, text)
        mover = fx.table["hands"][fx.table.get("seat", 0)]
        assert action["tile"] in mover or "-".join(action["tile"].split("-")[::-1]) in mover
        assert _from_data(_to_data(fx), rs).expect[0].refused == fx.expect[0].refused
        assert legal_only(fx).expect[0].refused == {}


def test_an_engine_taking_train_n_for_the_mexican_train_fails_charged_to_train_1(
        tmp_path: Path) -> None:
    """Before, it passed every mid-round situation (no fixture of the corpus asks train n
    at 5 to 7 seats); now each fails, charged to TRAIN-1, and the reference passes."""
    fails = _failures(_conform("MexicanAtN", tmp_path))
    assert len(fails) >= 5
    assert all(charged == ["TRAIN-1"] and "TRAIN-1" in text for _, text, charged in fails), fails
    right = _conform("ReferenceImplementation", tmp_path)
    assert _failures(right) == [] and right["summary"]["pass"] >= 5
