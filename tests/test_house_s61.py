"""Session 61's suite faults, shown by dolly (tests/examples/js/dolly_engine.js): a
double-11 engine for 3 to 7 players with a table of its own and three house rules no
known value describes, the heaviest hand dealt leading (`starting_seat: other`), a tile
tax on each tile left in hand (`scoring: other`) and the lightest last hand breaking a
tie (`tie_rule: other`).

- fuzz set every deal aside under a starting seat of one's own (11 of dolly's 4,573
  answers in 12 games): the deal reads the starting seat for its seat and starter, and
  with them went the hands, the boneyard and the engine, which conform judges by
  seat_alone.dealt_entry. Now a deal whose rest every known starting seat deals alike is
  judged but for its seat and starter (own_rules.rest_alone): a deal that misplaces a
  tile is found.
- conform set aside whole a table played to its end and the next round dealt where both
  the starting seat and the scoring (or the blank values, or the tie rule) were one's
  own, though each alone let it run cut (seat_alone.dealt_entry, round_end_alone): neither
  cut took the other's option. It runs now cut of both (seat_worth_alone): dolly's
  points-003, not applicable before, passes, and a next deal that forgets the out fails.

The engines here are the reference in process, playing a known value whatever the
request's rule set says in its place: a rule of its own to the harness, told `other`.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path
from typing import Any, ClassVar

import pytest

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.reference.rules import Rules

OWN_START = """name: own-start
base: puremco
options:
  tile_set: double-6
  hand_sizes: {3: 6, 4: 5}
  follow_up: anywhere
  starting_seat: other
"""


class Plays(ReferenceImplementation):
    """The reference playing OWN whatever the request says in its place."""

    OWN: ClassVar[tuple[tuple[str, str], ...]] = ()

    def rules(self, ruleset: JSON) -> Rules:
        return super().rules({**ruleset, "options": {**ruleset["options"], **dict(self.OWN)}})


class HeaviestTileLeads(Plays):
    """Its start: the player dealt the heaviest tile leads (a known value, SEAT-6; the
    stand-in plays another)."""

    OWN = (("starting_seat", "heaviest-in-hand"),)


class MisdealsOneTile(HeaviestTileLeads):
    """A planted bug in the deal, apart from who starts: seat 0's first tile and the
    boneyard's first change places (DEAL-1: hands come from the order's front)."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        st = super().deal(ruleset, players, round, order, draw)
        hand, pile = st["hands"][0], st["boneyard"]
        if hand and pile:
            hand[0], pile[0] = pile[0], hand[0]
        return st


def _fuzz(adapter: str, games: int, tmp_path: Path,
          capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    rules = tmp_path / "own-start.yaml"
    rules.write_text(OWN_START, encoding="utf-8")
    capsys.readouterr()
    main(["fuzz", "--adapter", f"{__file__}:{adapter}", "--rules", str(rules), "--games",
          str(games), "--seed", "1", "--json", "--out", str(tmp_path / adapter),
          "--shrink-seconds", "5"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert report["judged"] + sum(report["not_judged"].values()) == report["answered"]
    return report


def test_a_deal_under_a_starting_seat_of_ones_own_is_judged_but_for_its_seat(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Three games: the honest engine's deals are judged but for the seat and starter
    (`judged_by_cut`, none set aside) and agree; the misdealt tile is found as a deal
    whose hands differ. Before, every deal was set aside and the misdeal went unseen."""
    honest = _fuzz("HeaviestTileLeads", 3, tmp_path, capsys)
    assert honest["findings"] == [], [f["signature"] for f in honest["findings"]]
    assert honest["judged_by_cut"].get("starting_seat", 0) >= 3, honest["judged_by_cut"]
    assert "starting_seat" not in honest["not_judged"], honest["not_judged"]
    buggy = _fuzz("MisdealsOneTile", 3, tmp_path, capsys)
    signatures = [f["signature"] for f in buggy["findings"]]
    assert "deal: hands" in signatures, signatures
    assert all(s.startswith("deal") for s in signatures), signatures


OWN_START_AND_WORTH = """name: own-start-and-worth
base: puremco
options:
  follow_up: anywhere
  starting_seat: other
  scoring: other
"""


class HeaviestTileLeadsAndWinnerScores(Plays):
    """Its start: the heaviest tile dealt leads (SEAT-6); its scoring: the one who goes out
    scores the others' hands (SCORE-6). The stand-ins play other known values."""

    OWN = (("starting_seat", "heaviest-in-hand"), ("scoring", "positive"))


class ForgetsTheOut(HeaviestTileLeadsAndWinnerScores):
    """A planted bug past both rules: going out does not count in `outs` (END-1: the
    player who plays their last tile has gone out, and the match counts it)."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(ruleset, state, action)
        if after.get("phase") == "over" and after["result"]["winner"] is not None:
            after = {**after, "outs": list(state["outs"])}
        return after


def _conform(adapter: str, fixture: str, tmp_path: Path,
             capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    rules = tmp_path / "own-start-and-worth.yaml"
    rules.write_text(OWN_START_AND_WORTH, encoding="utf-8")
    capsys.readouterr()
    main(["conform", "--adapter", f"{__file__}:{adapter}", "--rules", str(rules), "-k",
          fixture, "--situations", "0", "--format", "json"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    return report


def test_a_next_deal_runs_under_a_starting_seat_and_a_scoring_of_ones_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """points-003 (round 2 gone out, round 3 dealt on [10-10], the out counted): each rule
    of one's own alone let it run, both together set it aside (not applicable). Now it
    runs cut of both: the honest engine passes it, the one that forgets the out fails."""
    honest = _conform("HeaviestTileLeadsAndWinnerScores", "points-003", tmp_path, capsys)
    assert [r["status"] for r in honest["results"]] == ["pass"], honest["results"]
    buggy = _conform("ForgetsTheOut", "points-003", tmp_path, capsys)
    assert [r["status"] for r in buggy["results"]] == ["fail"], buggy["results"]
    assert "outs" in buggy["results"][0]["message"], buggy["results"][0]["message"]


DOLLY = Path(__file__).parent / "examples" / "js" / "dolly_engine.js"
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed: dolly is a JavaScript engine")
def test_dolly_its_next_deal_runs_and_its_deals_are_judged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dolly itself, bugs off: points-003 runs and passes (not applicable before), and
    fuzz's two games judge its deals but for the seat (set aside before)."""
    command = shlex.join([NODE or "node", str(DOLLY)])
    rules = str(DOLLY.with_name("dolly-rules.yaml"))
    capsys.readouterr()
    main(["conform", "--impl", command, "--rules", rules, "-k", "points-003",
          "--situations", "0", "--format", "json"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert [(r["fixture"], r["status"]) for r in report["results"]] == [("points-003", "pass")]
    main(["fuzz", "--impl", command, "--rules", rules, "--games", "2", "--seed", "1",
          "--json", "--out", str(tmp_path / "fuzz")])
    fuzzed: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert fuzzed["findings"] == []
    assert fuzzed["judged_by_cut"].get("starting_seat", 0) >= 2, fuzzed["judged_by_cut"]
    assert "starting_seat" not in fuzzed["not_judged"], fuzzed["not_judged"]
