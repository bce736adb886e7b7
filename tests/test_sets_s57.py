"""lint's value pairs once every double-N set is a value (SET-1): a pair must be told apart
only between values a rule set a fixture can name takes (a variant's, an overlay's, a
rule-set file's of spec/data/rulesets/). The sets options.yaml's `every_double` rule gives
(double-7, -11, -13, -14, -17) only a rule-set file of one's own plays: no two entries can
tell them from another set, so they pair with nothing, and each must instead lie in the
scope of some fixture that depends on the set.

The expected counts are worked out here from the data's lists, never from lint's own.
"""

from __future__ import annotations

from pathlib import Path

from mtrain.conformance.lint import lint, nameable_values
from mtrain.spec.catalog import catalog

EVERY_DOUBLE = ("double-7", "double-11", "double-13", "double-14", "double-17")


def test_the_every_double_sets_are_no_value_a_fixture_can_name() -> None:
    cat = catalog()
    named = nameable_values(cat)
    # the published sets: a variant's or a rule-set file's (6, 8, 10, 16, 18)
    assert named["tile_set"] == {"double-6", "double-8", "double-9", "double-10",
                                 "double-12", "double-15", "double-16", "double-18"}
    assert not named["tile_set"] & set(EVERY_DOUBLE)
    assert set(EVERY_DOUBLE) <= set(cat.options["tile_set"].values)


def test_lint_asks_no_pair_of_a_set_only_a_file_of_ones_own_plays() -> None:
    report = lint(scopes=False)
    # 8 nameable sets: 8 x 7 / 2 = 28 pairs, as before the five sets were values (lint of
    # main then: 147 pairs in all); 13 sets would ask 78, the 50 of the five sets being
    # pairs no two entries can tell apart (lint rc 1)
    assert report.pairs == 147
    assert report.pairs_missing == []
    assert report.errors == []


def test_a_set_no_fixture_that_depends_on_the_set_holds_for_is_an_error(
        tmp_path: Path) -> None:
    """A corpus whose one fixture depends on the set and holds only on double-11 and
    larger: every `every_double` set below (double-7) lies in no scope that names the
    set, and lint says so, naming it; those in the scope are not named."""
    path = tmp_path / "one.yaml"
    path.write_text("""\
- id: s57-001
  description: A round ends with [11-10] and [10-9] in hand, 21 + 19 = 40 pips
  clauses: [SET-1, SCORE-1, SCORE-5, END-1]
  source: [decision, computation]
  note: Seat 1 counts 11 + 10 + 10 + 9 = 40 (SCORE-1, SCORE-5).
  table:
    engine: 11
    hands:
      0: [3-1]
      1: [11-10, 10-9]
    trains:
      0: [11-4, 4-3]
      1: [11-2]
  steps: [play 3-1 on 0]
  expect:
    - variants: [pagat]
      when:
        - {tile_set: [double-12, double-11, double-13, double-14, double-17], scoring: [penalty]}
      result: {end: domino, winner: 0, scores: [0, 40]}
""", encoding="utf-8")
    report = lint(path, scopes=False, coverage=True)
    said = [e for e in report.errors if "only a rule-set file of one's own takes" in e]
    assert [e.split()[4] for e in said] == ["tile_set=double-7,"], said
