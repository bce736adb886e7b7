"""lint's value pairs once every double-N set is a value (SET-1): a pair must be told apart
only between values a rule set a fixture can name takes (a variant's, an overlay's, a
rule-set file's of spec/data/rulesets/). The sets options.yaml's `every_double` rule gives
(double-7, -11, -13, -14, -17) were at first played by no rule set a fixture can name, so
they paired with nothing and each had to lie in the scope of some fixture that depends on
the set; since session 62 each has a rule-set file of spec/data/rulesets/, so they pair
like any other set, and the scope rule is shown on a copy of the data without one file.

The expected counts are worked out here from the data's lists, never from lint's own.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mtrain.conformance.lint import lint, nameable_values
from mtrain.spec.catalog import catalog
from mtrain.spec.data_folder import DATA_ENV

EVERY_DOUBLE = ("double-7", "double-11", "double-13", "double-14", "double-17")
DATA = Path(__file__).resolve().parents[1] / "spec" / "data"


def test_the_every_double_sets_are_named_by_their_rule_set_files() -> None:
    cat = catalog()
    named = nameable_values(cat)
    # a variant's or a rule-set file's: all thirteen, the five through their files alone
    assert named["tile_set"] == {"double-6", "double-7", "double-8", "double-9", "double-10",
                                 "double-11", "double-12", "double-13", "double-14",
                                 "double-15", "double-16", "double-17", "double-18"}
    for name in EVERY_DOUBLE:
        assert cat.examples[name]["tile_set"] == name
        assert not any(v.options.get("tile_set") == name
                       for v in (*cat.variants.values(), *cat.overlays.values()))
    assert set(EVERY_DOUBLE) <= set(cat.options["tile_set"].values)


def test_lint_tells_every_pair_of_nameable_sets_apart() -> None:
    report = lint(scopes=False)
    # before the five sets were values: 147 pairs, 28 of them the 8 sets' (8 x 7 / 2), so
    # 119 of the other options; now 13 nameable sets: 13 x 12 / 2 = 78, 197 in all, each
    # told apart (the 50 new ones by sets/s62-set-pairs.yaml's deal on every set)
    assert report.pairs == 119 + 13 * 12 // 2
    assert report.pairs_missing == []
    assert report.errors == []


def test_a_set_no_fixture_that_depends_on_the_set_holds_for_is_an_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A corpus whose one fixture depends on the set and holds only on double-11 and
    larger, under a copy of the data without the double-7 file: double-7, then named by
    no rule set, lies in no scope that names the set, and lint says so, naming it; those
    in the scope are not named."""
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    (data / "rulesets" / "double-7.yaml").unlink()
    monkeypatch.setenv(DATA_ENV, str(data))
    assert "double-7" not in nameable_values(catalog())["tile_set"]
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
