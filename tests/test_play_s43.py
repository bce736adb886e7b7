"""Faults of the suite found by writing coupling (tests/examples/coupling_engine.py), an
in-process engine on a double-9 set with a draw rule and a match length of its own, as
an outside author would, and using the suite on it (session 43)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation, RefusedSetup


class TwoOuts(ReferenceImplementation):
    """The reference under a match of its own: it ends after the round in which some seat
    goes out, so a later round (its totals carried in after the deal) does not exist. The
    deal cannot tell (it carries no totals): the table's first question is refused."""

    @staticmethod
    def _exists(state: JSON) -> None:
        if state["phase"] != "over" and max(state["outs"], default=0) >= 1:
            raise RefusedSetup("the match ended when a seat went out", None)

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        self._exists(state)
        return super().legal(ruleset, state)

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        self._exists(state)
        return super().apply(ruleset, state, action)


def test_fuzz_takes_a_later_rounds_refused_table_under_a_match_of_its_own_for_no_round(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A match length of its own decides which rounds exist (conform: not applicable);
    fuzz took a refused deal so, but a table refused at its first question (where the
    deal cannot know the totals that end the match) was two findings, `refuses the setup
    on legal` and `on apply`, for an engine without a bug (coupling's, bugs off)."""
    rules = tmp_path / "two-outs.yaml"
    rules.write_text("name: two-outs\nbase: pagat\noptions:\n  match_length: other\n",
                     encoding="utf-8")
    capsys.readouterr()
    code = main(["fuzz", "--adapter", f"{__file__}:TwoOuts", "--rules", str(rules),
                 "--games", "3", "--seed", "1", "--out", str(tmp_path / "out"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert [f["signature"] for f in report["findings"]] == [] and code == 0
    assert list(report["ended_early"]) == [
        "its own rules (match_length) have no such round: its table was refused"], report
