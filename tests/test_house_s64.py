"""The suite's faults lamplighter (tests/examples/js/lamplighter_engine.js, a double-15
engine in JavaScript with three house rules: a marker off as its owner's turn begins, a
round blocked once every train is marked, a tie to the fewest doubles) showed, each fixed
with a test that failed before the fix. The program itself runs in
tests/test_house_engines.py."""

from __future__ import annotations

from pathlib import Path

from mtrain.conformance.declaration import declared_ruleset
from mtrain.conformance.fixture import load_file
from mtrain.conformance.traced import logged_run
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import CUSTOM

RULES = Path(__file__).parent / "examples" / "js" / "lamplighter-rules.yaml"

OPTIONS = {"tile_set": "double-15", "hand_sizes": CUSTOM, "engine_procedure": "set-aside",
           "starting_seat": "rotate", "first_turn": "single", "mexican_first_turn": "anyone",
           "own_train_first": "not-required", "doubles": "ordinary", "follow_up": "anywhere",
           "double_order": "oldest-first", "uncoverable_double": "stays-open",
           "marker_removal": "other", "draw_rule": "draw-one", "blocked_round": "other",
           "scoring": "penalty", "blank_values": "face", "tie_rule": "other",
           "match_length": "full"}
GOODSAM = {"2": 16, "3": 15, "4": 14, "5": 13, "6": 12, "7": 11, "8": 10}
"""lamplighter's own table for its double-15 box, row for row the Good Sam club's
double-12 table (spec/data/options.yaml, `goodsam`)."""


def test_a_declared_table_of_ones_own_is_not_a_named_table_of_another_set() -> None:
    """A hello declaring `hand_sizes: custom` with a table whose rows a named table of
    another set has (goodsam's, a double-12 table) was read as that named table, and
    DEAL-10 (a published table is for its own set) then stopped every run, exit 2, though
    the message itself advised a table of one's own: the rule-set file reading keeps such
    a table one's own, and so does the declaration now."""
    rs = declared_ruleset({"rules": {"name": "lamplighter", "options": OPTIONS,
                                     "hand_sizes": GOODSAM}})
    assert rs is not None
    assert rs["tile_set"] == "double-15" and rs.custom_table
    assert dict(rs.hand_table) == {int(k): v for k, v in GOODSAM.items()}
    # the same table under its own set is still the named table
    same = declared_ruleset({"rules": {"name": "club", "options": {
        **OPTIONS, "tile_set": "double-12"}, "hand_sizes": GOODSAM}})
    assert same is not None and same["hand_sizes"] == "goodsam" and not same.custom_table


TURN_START = """
- id: house64-001
  description: "Seat 0 passes on an empty boneyard; seat 1, marked, is next to move"
  clauses: [TURN-4, MARK-1]
  source: [computation]
  table:
    seat: 0
    starter: 0
    hands:
      0: [6-0]
      1: [3-3, rest]
    boneyard: []
    trains:
      mexican: [15-9]
      0: [15-10]
      1: [15-11]
    marked: [1]
  steps: [pass]
  rules: rules.yaml
  expect:
  - variants: [lamplighter]
    state:
      seat: 1
      marked: [0, 1]
"""
"""A situation lamplighter failed with its bugs off (play-pass-001 and 38 more, charged to
TURN-4; 15 more charged to MARK-3): its house rule takes seat 1's marker off as seat 1's
turn begins."""


def test_a_marker_at_its_owners_turn_start_is_the_marker_rules(tmp_path: Path) -> None:
    """No known marker rule moves a marker as its owner's turn begins, so the reference
    read none there, and a rule of one's own that takes it down then was judged by the
    stand-in's: 54 false failures of lamplighter, charged to TURN-4 (the pass) and MARK-3.
    A turn that passes to a marked seat now reads the marker rule, so the traced run names
    it (conform then judges the entry without its markers, marker_alone.py); a turn that
    passes to an unmarked seat reads none."""
    stand_in = RULES.read_text(encoding="utf-8").replace(
        "marker_removal: other", "marker_removal: owner-plays-own").replace(
        "blocked_round: other", "blocked_round: full-round-of-passes").replace(
        "tie_rule: other", "tie_rule: shared")
    (tmp_path / "rules.yaml").write_text(stand_in, encoding="utf-8")
    rs = catalog().rules_file(str(tmp_path / "rules.yaml"))
    read = {}
    for marked in ("[1]", "[]"):
        path = tmp_path / "fx.yaml"
        path.write_text(TURN_START.replace("marked: [1]", f"marked: {marked}").replace(
            "marked: [0, 1]", "marked: [0]" if marked == "[]" else "marked: [0, 1]"),
            encoding="utf-8")
        fx = load_file(path)[0]
        _, log = logged_run(fx, rs, fx.expect, dict(rs.choices))
        read[marked] = "marker_removal" in log.decides
    assert read == {"[1]": True, "[]": False}
