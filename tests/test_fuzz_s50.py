"""Session 50's fuzz and charge work where house rules live: a round's scores off by some
tiles' values charged to the clause that values tiles (SCORE-1 at face value, the blank
rule's own under blanks), whoever holds a blank, and wrong scores of another kind to who
scores (SCORE-5..7); a deal that shows only after the request before it asked again as
the next round after it (gantry's stale markers), run by conform under a start of one's
own without its seat; the heaviest hand's blanks where a blank rule of one's own would
leave it unjudged."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from mtrain.cli import main
from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fixture import load_file
from mtrain.conformance.fuzz import scoring
from mtrain.conformance.fuzz.judge import Probe
from mtrain.conformance.fuzz.rejudge import Judge
from mtrain.conformance.fuzz.round_end import heaviest
from mtrain.conformance.fuzz.rulesets import context, declared_context
from mtrain.conformance.selection import entry_for
from mtrain.reference.deal import deal_pool
from mtrain.spec import tiles as T
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import table_state
from mtrain.spec.scope import Space

# --- a round's scores off by a tile's value -------------------------------------------

GONE_OUT = """\
- id: fzs50-score-001
  description: "Seat 0 goes out; seat 1 holds a blank and a twelve, seat 2 a double"
  clauses: [END-1, SCORE-5, SCORE-1, SCORE-2]
  source: [pagat, decision]
  note: >-
    Seat 0 plays its last tile [6-3] on its own train (ending in 6) and the round ends
    (END-1). Penalty scoring (SCORE-5): each seat scores what its hand is worth. At face
    value (SCORE-1) seat 1's [0-5] and [12-11] are 0 + 5 + 12 + 11 = 28, seat 2's [4-4]
    is 8. With each blank end at 25 (SCORE-2) [0-5] is 25 + 5 = 30, so seat 1 scores
    30 + 23 = 53 and seat 2 still 8.
  table:
    engine: 12
    hands:
      0: [6-3]
      1: [0-5, 12-11]
      2: [4-4]
    trains:
      0: [12-6]
      1: [12-7]
      2: [12-8]
      mexican: [12-9]
    boneyard: [rest]
    first_turns: []
  steps: [play 6-3 on 0]
  expect:
    - variants: [pagat]
      when: {scoring: [penalty], blank_values: [face]}
      result: {end: domino, winner: 0, scores: [0, 28, 8]}
    - variants: [pagat]
      when: {scoring: [penalty], blank_values: [blank-25]}
      result: {end: domino, winner: 0, scores: [0, 53, 8]}
"""
"""Worked by hand (the note)."""

BLANKS_25 = """\
name: pagat-blanks-25
base: pagat
options:
  blank_values: blank-25
"""


class TwelveAsTen(ReferenceImplementation):
    """Honest, but its `score` counts a 12 end as 10 (a tile's value, SCORE-1)."""

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        hands = state["hands"]
        return [s - 2 * sum(t.split("-").count("12") for t in hands[i]) if i != winner else s
                for i, s in enumerate(super().score(ruleset, state, winner))]


class HandsTwice(ReferenceImplementation):
    """Honest, but its `score` counts every hand twice (who scores what, SCORE-5)."""

    def score(self, ruleset: JSON, state: JSON, winner: int | None) -> list[int]:
        return [2 * s for s in super().score(ruleset, state, winner)]


def _conform(tmp_path: Path, adapter: str, rules: str | None) -> dict[str, Any]:
    fixtures = tmp_path / "scores.yaml"
    fixtures.write_text(GONE_OUT, encoding="utf-8")
    where = ["--variant", "pagat"]
    if rules is not None:
        (tmp_path / "rules.yaml").write_text(rules, encoding="utf-8")
        where = ["--rules", str(tmp_path / "rules.yaml")]
    out = tmp_path / f"{adapter}.json"
    main(["conform", "--adapter", f"{__file__}:{adapter}", "--fixtures", str(fixtures),
          *where, "--format", "json", "--output", str(out)])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def test_a_score_off_by_a_face_value_beside_a_blank_is_the_face_values_clause(
        tmp_path: Path) -> None:
    """At face value a hand holding a blank scored 2 short for its 12 is SCORE-1's (the
    blank decided the charge before: SCORE-5, as the blank rule is face)."""
    (result,) = _conform(tmp_path, "TwelveAsTen", None)["results"]
    assert result["status"] == "fail", result
    assert result["charged"] == ["SCORE-1"]
    assert "expected round scores [0, 28, 8], got [0, 26, 8]" in "\n".join(result["messages"])


def test_every_hand_counted_twice_is_who_scores_blanks_in_hand_or_not(tmp_path: Path) -> None:
    """Under blanks at 25 every score doubled is the scoring rule's (SCORE-5), not the
    blank rule's because a hand holds a blank (charged SCORE-2 before)."""
    (result,) = _conform(tmp_path, "HandsTwice", BLANKS_25)["results"]
    assert result["status"] == "fail", result
    assert result["charged"] == ["SCORE-5"]
    assert "got [0, 106, 16]" in "\n".join(result["messages"])


def test_the_honest_engine_passes_both_scorings(tmp_path: Path) -> None:
    for rules in (None, BLANKS_25):
        (result,) = _conform(tmp_path, "ReferenceImplementation", rules)["results"]
        assert result["status"] == "pass", result


# --- a deal that shows only after the request before it --------------------------------

class KeepsMarkers(ReferenceImplementation):
    """Honest, but one table is kept between requests: a deal keeps the markers of the
    last table it was asked to apply a step on (gantry's bug 3: a new round starts with no
    marker up, MARK-1)."""

    def __init__(self) -> None:
        super().__init__()
        self.kept: list[int] = []

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        self.kept = [s for s, t in enumerate(state["trains"]) if t["marker"]]
        return super().apply(ruleset, state, action)

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        dealt = super().deal(ruleset, players, round, order, draw)
        trains = [{**t, "marker": t["marker"] or s in self.kept}
                  for s, t in enumerate(dealt["trains"])]
        return {**dealt, "trains": trains}


ENDING = {"engine": 12, "seat": 0, "hands": {0: ["6-3"], 1: ["4-4"], 2: ["rest"]},
          "trains": {0: ["12-6"], 1: ["12-7"], 2: ["12-8"], "mexican": ["12-9"]},
          "marked": [1], "boneyard": [], "first_turns": []}
"""Seat 0 goes out with [6-3] on its own train while seat 1's marker is up."""


def _deal_after(impl: ReferenceImplementation) -> tuple[Probe, Judge]:
    ctx = context("pagat")
    order = [T.NAMES[t] for t in deal_pool(ctx.rules, 2)]
    deal_spec = {"players": 3, "engine": 11, "order": order, "scores": [0, 8, 99],
                 "outs": [1, 0, 0]}
    return Probe("deal", "pagat", deal=deal_spec, before=(ENDING, "play 6-3 on 0")), Judge(impl)


def test_a_deal_shown_only_after_the_request_before_it_is_asked_as_the_next_round() -> None:
    """The deal alone, to an engine that was asked nothing before, shows nothing; asked as
    the next round after the step that ended the round before (its table's marker up),
    the kept marker breaks INV-FRESH-ROUND, and the reproducer ends `next-round`."""
    probe, judge = _deal_after(KeepsMarkers())
    assert judge.judge(probe) == []
    nxt = probe.next_round()
    assert nxt is not None and nxt.kind == "next" and nxt.steps == ("play 6-3 on 0",)
    (found,) = judge.judge(nxt) or []
    assert found.signature == "dealt state: INV-FRESH-ROUND"
    assert found.question == ("next-round",) and found.expect["state"]["marked"] == []
    assert Judge(ReferenceImplementation()).judge(nxt) == []


OWN_START = """\
name: own-start
base: pagat
options:
  starting_seat: other
"""

NEXT_ROUND = """\
- id: fzs50-next-001
  description: "Seat 0 goes out, seat 1's marker up; the next round is dealt with none"
  clauses: [END-1, MATCH-1, MARK-1, DEAL-1]
  source: [pagat, decision]
  note: >-
    Seat 0 lays its last tile [6-3] on its own train and the round is over (END-1); the
    next round (MATCH-1) is dealt afresh: nobody has passed in it, so no marker is up
    (MARK-1 puts one up only for a pass), whoever starts it.
  table:
    engine: 12
    seat: 0
    hands:
      0: [6-3]
      1: [4-4]
      2: [rest]
    trains:
      0: [12-6]
      1: [12-7]
      2: [12-8]
      mexican: [12-9]
    marked: [1]
    boneyard: []
    first_turns: []
  steps: [play 6-3 on 0, next-round]
  expect:
    - variants: [pagat]
      when: {tile_set: [double-12], starting_seat: [rotate]}
      state: {marked: [], seat: 1}
"""
"""Worked by hand (the note): round 2 of a rotating start begins at seat 1 (SEAT-3)."""


def test_a_next_round_under_a_start_of_ones_own_runs_without_its_seat(tmp_path: Path) -> None:
    """Under `starting_seat: other` a table ending `next-round` was not applicable (the
    deal reads the start); where every known start deals the rest alike it runs without
    the seat and starter, and the kept marker fails there."""
    (tmp_path / "next.yaml").write_text(NEXT_ROUND, encoding="utf-8")
    (fx,) = load_file(str(tmp_path / "next.yaml"))
    rs = catalog().rules_file(_written(tmp_path, OWN_START))
    exp, why = entry_for(fx, rs, Space())
    assert why is None and exp is not None and exp.state == {"marked": []}
    out = tmp_path / "keeps.json"
    main(["conform", "--adapter", f"{__file__}:KeepsMarkers", "--fixtures",
          str(tmp_path / "next.yaml"), "--rules", str(tmp_path / "rules.yaml"),
          "--format", "json", "--output", str(out)])
    (result,) = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert result["status"] == "fail" and result["charged"] == ["MARK-1"], result


def _written(tmp_path: Path, rules: str) -> str:
    (tmp_path / "rules.yaml").write_text(rules, encoding="utf-8")
    return str(tmp_path / "rules.yaml")


# --- the heaviest hand and the blanks ---------------------------------------------------

SPREAD = {"engine": 12, "seat": 1,
          "hands": {0: ["0-5", "1-1"], 1: ["3-3"], 2: ["4-4", "0-0"], 3: ["0-7", "7-7"]},
          "trains": {0: ["12-6"], 1: ["12-7"], 2: ["12-8"], 3: ["12-9"], "mexican": ["12-10"]},
          "boneyard": ["0-9", "8-8"], "first_turns": []}
"""Blanks in two seats' hands and in the boneyard; seat 1 moves, seat 2 gathers."""


def _own_blanks() -> Any:
    base = context("pagat").rs
    return declared_context(dataclasses.replace(base, name="own blank_values", choices=tuple(
        (o, "other" if o == "blank_values" else v) for o, v in base.choices)))


def test_the_heaviest_hand_holds_the_blanks_a_judged_blank_rule_prices() -> None:
    """Each other seat keeps a tile without a blank where it has one: the heavy hand holds
    every blank off the trains but the mover's."""
    heavy = heaviest(SPREAD, 1)
    assert heavy is not None
    assert heavy["hands"] == {0: ["1-1"], 1: ["3-3"], 3: ["7-7"],
                              2: ["4-4", "0-0", "0-9", "8-8", "0-5", "0-7"]}
    assert heavy["boneyard"] == []


def test_under_a_blank_rule_of_ones_own_the_heaviest_hand_is_judged() -> None:
    """Under `blank_values: other` a scored hand holding a blank reads that rule (its score
    is not judged); the heavy hand leaves the blanks in the boneyard, which nobody scores,
    and its scores read no rule of one's own (layover's tens counted 1 were asked only of
    hands that happened to hold no blank)."""
    ctx = _own_blanks()
    heavy = heaviest(SPREAD, 1, blanks=False)
    assert heavy is not None
    assert heavy["hands"] == {0: ["1-1"], 1: ["3-3"], 2: ["4-4", "8-8"], 3: ["7-7"]}
    assert sorted(heavy["boneyard"]) == ["0-0", "0-5", "0-7", "0-9"]
    scores, own = scoring.table_scores(ctx, _set_out(heavy, ctx))
    assert own == () and scores == [2, 6, 24, 14]
    with_blanks = heaviest(SPREAD, 1)
    assert with_blanks is not None
    assert scoring.table_scores(ctx, _set_out(with_blanks, ctx))[1] == ("blank_values",)


def _set_out(table: dict[str, Any], ctx: Any) -> JSON:
    """`table`'s state, the tiles it does not write left in the boneyard (not scored)."""
    return table_state({**table, "boneyard": [*table["boneyard"], "rest"]}, ctx.rs)
