"""Faults of the suite found by writing coupling (tests/examples/coupling_engine.py), an
in-process engine on a double-9 set with a draw rule and a match length of its own, as
an outside author would, and using the suite on it (session 43)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from file_module import file_module

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation, RefusedSetup

EXAMPLES = Path(__file__).parent / "examples"


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


class FirstOfTied(ReferenceImplementation):
    """The reference, but a tie for the lowest total goes to the lowest seat alone
    (coupling's bug 3, MATCH-4)."""

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        return super().winners(ruleset, state)[:1]


class NeverOver(ReferenceImplementation):
    """The reference, but its match of its own has not ended where the fixtures' has."""

    def winners(self, ruleset: JSON, state: JSON) -> list[int]:
        return []


@pytest.mark.parametrize(("adapter", "status", "said"), [
    ("FirstOfTied", "fail", "winners: expected [1, 2], got [1] (or none, while its own "
                            "match goes on)"),
    ("NeverOver", "pass", None), ("ReferenceImplementation", "pass", None)])
def test_under_a_match_length_of_its_own_named_winners_are_still_checked(
        adapter: str, status: str, said: str | None, tmp_path: Path) -> None:
    """Under `match_length: other` every fixture that ends a match was not applicable (29
    of coupling's results), so who wins a match that is over (a tie shared, MATCH-4) was
    checked nowhere, and coupling's bug 3 failed nothing. The match length decides whether
    the match is over, not who wins it: match-003 (a three-way tie, two seats on the
    lowest total) now runs, an empty answer passing (its match goes on)."""
    rules = tmp_path / "match-own.yaml"
    rules.write_text("name: match-own\nbase: pagat\noptions:\n  match_length: other\n",
                     encoding="utf-8")
    target = (f"{__file__}:{adapter}" if adapter != "ReferenceImplementation"
              else "mtrain.conformance.adapter:ReferenceImplementation")
    out = tmp_path / "report.json"
    main(["conform", "--adapter", target, "--rules", str(rules), "-k", "match-003",
          "--situations", "0", "--format", "json", "--output", str(out)])
    report = json.loads(out.read_text(encoding="utf-8"))
    [result] = report["results"]
    assert result["status"] == status, result
    if said is not None:
        assert result["messages"] == [said] and result["charged"] == ["MATCH-4"], result


@pytest.mark.parametrize(("written", "line", "said"), [
    # identify's report and the wire call a table of one's own `custom`
    ("options:\n  tile_set: double-9\n  hand_sizes: custom\n", 5,
     "hand_sizes `custom` (a table of one's own, as the wire and identify's report name "
     "it) is written as the table itself"),
    # the wire's rule set: the table beside the options
    ("options:\n  tile_set: double-9\nhand_sizes: {2: 13, 3: 11}\n", 5,
     "a hand-size table goes under `options:` in a rule-set file (`options: {hand_sizes: "
     "{2: 15, 3: 13}}`, players: tiles), not beside it as on the wire")])
def test_a_hand_table_written_as_identify_or_the_wire_names_it_is_told_where_it_goes(
        written: str, line: int, said: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """An author writing coupling's rule-set file from the docs wrote the table as the
    wire has it and then as identify reports it; the suite said `unknown key
    'hand_sizes'; allowed keys: ...` and `unknown value 'custom' for hand_sizes; known:
    pagat, ...`, naming no way to give a table of one's own."""
    path = tmp_path / "mine.yaml"
    path.write_text(f"name: mine\nbase: pagat\n{written}", encoding="utf-8")
    capsys.readouterr()
    assert main(["rules", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:{line}: {said}" in err and err.count("\n") == 1, err


def _coupling() -> Any:
    """tests/examples/coupling_engine.py, loaded from its file (an example, no package)."""
    return file_module(EXAMPLES / "coupling_engine.py", "_coupling_s43b")


WRAPS_TO_STARTER = _coupling().Coupling(fixed={2, 3})
"""Coupling with its bug 1 alone on: after the last seat, the round's starter moves."""


@pytest.mark.parametrize(("adapter", "failing"), [
    (f"{__file__}:WRAPS_TO_STARTER", True),
    (f"{EXAMPLES / 'coupling_engine.py'}:Fixed", False)], ids=["bug-1", "fixed"])
def test_the_turn_after_the_last_seats_tile_is_asked_under_a_draw_rule_of_its_own(
        adapter: str, failing: bool, tmp_path: Path) -> None:
    """The situations that took a step mid-round (passes, drawn doubles laid) start from
    a drawn tile, which coupling's draw rule of its own decides: none was asked, and its
    turn back to the round's starter after the last seat (bug 1, SEAT-1) failed 2
    results of 1,111. `play-wrap-` lays the last seat's tile that ends its turn, no tile
    drawn: bug 1 fails 20 of 1,136 (18 of its 25 wraps, those of a round not started by
    seat 0), each charged to SEAT-1; with the bugs off none fails."""
    out = tmp_path / "report.json"
    main(["conform", "--adapter", adapter, "--rules", str(EXAMPLES / "coupling-rules.yaml"),
          "-k", "play-wrap-", "--format", "json", "--output", str(out)])
    results = json.loads(out.read_text(encoding="utf-8"))["results"]
    failed = [r for r in results if r["status"] != "pass"]
    assert len(results) >= 20 and all(r["fixture"].startswith("play-wrap-") for r in results)
    if not failing:
        assert failed == [], failed[:2]
        return
    assert len(failed) >= 10, len(failed)
    assert all(r["status"] == "fail" and r["charged"] == ["SEAT-1"]
               and re.search(r"^seat: expected 0, got [1-9]$", "\n".join(r["messages"]),
                             re.MULTILINE) for r in failed), failed[:2]
