"""The suite's faults trestle (tests/examples/trestle_engine.py, a double-8 engine for 2 to
6 players whose hello names no rules, and five house rules at once) showed as its author
ran identify, then conform and fuzz under what identify found, each fixed with a test that
failed before the fix. Each behaviour is played here by a few lines over the reference,
on a table worked by hand or made by situations from play."""

from __future__ import annotations

from pathlib import Path

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fixture import load_file
from mtrain.conformance.runner import run_one
from mtrain.conformance.situations import situations
from mtrain.spec.catalog import catalog

RULES = """name: trestle
options:
  tile_set: double-8
  hand_sizes: {2: 11, 3: 10, 4: 9, 5: 7, 6: 6}
  engine_procedure: set-aside
  starting_seat: rotate
  first_turn: single
  mexican_first_turn: anyone
  own_train_first: not-required
  doubles: open
  follow_up: anywhere
  double_order: oldest-first
  uncoverable_double: released
  marker_removal: owner-plays-own
  draw_rule: draw-one
  blocked_round: full-round-of-passes
  scoring: penalty
  blank_values: double-blank-50
  tie_rule: shared
  match_length: full
"""
"""trestle's rules with a known value in place of each of its own (what fuzz plays in
their place): none of them decides what a pass after a draw in vain does."""


class CountsEveryPass(ReferenceImplementation):
    """trestle's bug 2: a pass is counted towards END-3's full round of passes whatever
    the boneyard holds, where END-3 counts those made on an empty boneyard."""

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        after = super().apply(ruleset, state, action)
        if action.get("type") == "pass" and state["boneyard"] and after["phase"] != "over":
            after = {**after, "passes": after["passes"] + 1}
        return after


PASS_WITH_TILES_LEFT = """
- id: house47a-001
  description: "Seat 0 draws [7-6], which fits nowhere, and passes with a tile left to draw"
  clauses: [TURN-2, TURN-4, MARK-1]
  source: [computation]
  table:
    seat: 0
    starter: 0
    hands:
      0: [6-5]
      1: [rest]
    trains:
      0: [8-3]
      1: [8-4]
      mexican: [8-2]
    boneyard: [7-6, 1-1]
    first_turns: []
  steps: [draw, pass]
  rules: rules.yaml
  expect:
  - variants: [trestle]
    state:
      seat: 1
      marked: [0]
      drawn: null
      passes: 0
"""
"""By hand: the open ends are 3 (seat 0's own), 2 (the Mexican Train) and 4 (seat 1's,
unmarked): [6-5] fits none, so seat 0 draws [7-6] (TURN-2), which fits none either, and
passes (TURN-4): marker up, seat 1 to move, and no pass counted, since [1-1] is still in
the boneyard (END-3 counts passes made on an empty one)."""


def _rules(tmp_path: Path) -> Path:
    path = tmp_path / "rules.yaml"
    path.write_text(RULES, encoding="utf-8")
    return path


def test_a_pass_counted_with_tiles_left_is_charged_to_the_count_of_passes(
        tmp_path: Path) -> None:
    """trestle's bug 2 counted every pass: conform charged the wrong `passes` to TURN-4,
    the clause of the pass the fixture lists (its marker), and fuzz named the finding
    TURN-4 alike; the count is END-3's."""
    rs = catalog().rules_file(str(_rules(tmp_path)))
    path = tmp_path / "fx.yaml"
    path.write_text(PASS_WITH_TILES_LEFT, encoding="utf-8")
    fx = load_file(path)[0]
    assert run_one(fx, rs, fx.expect[0], ReferenceImplementation()).status == "pass"
    out = run_one(fx, rs, fx.expect[0], CountsEveryPass())
    assert out.status == "fail" and "passes: expected 0, got 1" in out.messages
    assert out.charged == ["END-3"]


def test_a_pass_after_a_draw_in_vain_checks_the_count_of_passes(tmp_path: Path) -> None:
    """`play-pass-` checked the marker, the seat, the drawn tile and the first turns after
    the pass, not the passes counted: trestle's bug 2 failed nothing in conform under a
    draw-one file (fuzz alone found it). Now each such pass with tiles left in the
    boneyard fails, charged to END-3; the reference passes them all."""
    rs = catalog().rules_file(str(_rules(tmp_path)))
    made = [fx for fx in situations(rs, 70) if fx.id.startswith("play-pass-")]
    assert len(made) >= 5
    for fx in made:
        assert "passes" in fx.expect[0].state
        assert run_one(fx, rs, fx.expect[0], ReferenceImplementation()).status == "pass"
    failed = [run_one(fx, rs, fx.expect[0], CountsEveryPass()) for fx in made]
    failed = [o for o in failed if o.status == "fail"]
    assert len(failed) >= 3
    assert all(o.charged == ["END-3"] for o in failed), [o.charged for o in failed]
