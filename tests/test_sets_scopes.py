"""Fixtures about rule sets with a hand table of their own (DEAL-10, DEAL-11): the scope
check plays the tables of the rule-set files of spec/data/rulesets/ (`custom:NAME`) and any
other table (`custom`), and `conform --rules` runs the fixtures that speak about them."""

from __future__ import annotations

import filecmp
import textwrap
from pathlib import Path

import pytest

from mtrain.cli import main
from mtrain.conformance.fixture import load_file
from mtrain.conformance.lint.scopes import check_scopes
from mtrain.conformance.selection import entry_for
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

SPACE = Space()
ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"

# Round 1 on a double-18 set: seat 0 holds [18-3] and [5-5]; only [18-3] fits the engine.
PLAY = """\
- id: own-001
  description: "An 18 opens a train on the [18-18] engine"
  clauses: [SET-6, TRAIN-2]
  source: [puremco]
  table:
    engine: 18
    seat: 0
    first_turns: all
    hands:
      0: [18-3, 5-5]
      1: [rest]
      2: [9-9]
  expect:
    - variants: [double-18]
{when}      legal: [play 18-3 on 0, play 18-3 on mexican]
"""

# A 3-player deal: the hand size is the table's own.
DEAL = """\
- id: own-002
  description: "Sorted deal, 3 players"
  clauses: [DEAL-1, DEAL-11]
  source: [computation]
  deal:
    players: 3
    order: sorted
  expect:
    - variants: [double-18]
{when}      state:
        hand_sizes: [20, 20, 20]
"""


def write(tmp_path: Path, text: str, when: str = "") -> Path:
    path = tmp_path / "own.yaml"
    path.write_text(text.format(when=when), encoding="utf-8")
    return path


def test_the_rule_set_files_are_in_the_space_and_the_docs() -> None:
    cat = catalog()
    assert set(cat.examples) == {"double-6", "double-7", "double-8", "double-10", "double-11",
                                 "double-13", "double-14", "double-16", "double-17",
                                 "double-18"}
    hands = SPACE.options["hand_sizes"]
    assert hands[-11:] == ("custom:double-10", "custom:double-11", "custom:double-13",
                           "custom:double-14", "custom:double-16", "custom:double-17",
                           "custom:double-18", "custom:double-6", "custom:double-7",
                           "custom:double-8", "custom")
    for name in cat.examples:  # docs/examples/NAME.yaml is the same file
        shipped = ROOT / "spec" / "data" / "rulesets" / f"{name}.yaml"
        assert filecmp.cmp(shipped, EXAMPLES / f"{name}.yaml", shallow=False)
        rs = cat.rules_file(EXAMPLES / f"{name}.yaml")
        assert SPACE.point(rs)["hand_sizes"] == f"custom:{name}"
    assert not any(SPACE.unnamed.values())  # double-6, 8, 10 and 18 are live now


def test_a_scope_wrong_on_double_18_is_an_error(tmp_path: Path) -> None:
    # the double-18 file plays puremco's single-tile start; under pagat's chain first turn
    # the Mexican Train is closed on the first turn (FIRST-2)
    path = write(tmp_path, PLAY, "      when: {tile_set: [double-18]}\n")
    report = check_scopes(load_file(path))
    # one fault alike in every region of the scope: said once, the regions counted
    (error,) = report.errors
    assert " regions of its scope, all within tile_set=double-18" in error, error
    assert "; e.g. where tile_set=double-18, " in error and "(e.g. " in error, error


def test_a_deal_scoped_to_any_table_of_ones_own_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path, DEAL, "      when: {tile_set: [double-18], hand_sizes: [custom]}\n")
    report = check_scopes(load_file(path))
    errors = [e for e in report.errors if "hand_sizes=custom," in e]
    assert errors and all("reads the hand size for 3 players" in e for e in errors)


def test_a_deal_scoped_to_the_file_holds_there(tmp_path: Path) -> None:
    report = check_scopes(load_file(write(tmp_path, DEAL)))
    assert report.errors == []


@pytest.mark.parametrize("name", ["double-18", "double-6"])
def test_conform_under_a_rule_set_file_runs_its_fixtures(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    rules = str(EXAMPLES / f"{name}.yaml")
    assert main(["conform", "--rules", rules, "-k", "sets-*", "--situations", "0"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    head = next(line.split() for line in lines if line.startswith("rule set "))
    row = next(line.split() for line in lines if line.startswith(name + " "))
    ran = int(row[head.index("ran") - 1])  # `rule set` is two words of the header
    assert ran >= 7  # the sets-* fixtures on its set


def test_a_table_of_ones_own_that_deals_no_such_players_is_not_spoken_about(
        tmp_path: Path) -> None:
    (fx,) = load_file(write(tmp_path, PLAY, "      when: {tile_set: [double-18]}\n"))
    rules = tmp_path / "mine.yaml"
    rules.write_text(textwrap.dedent("""\
        base: puremco
        options:
          tile_set: double-18
          hand_sizes: {2: 25, 4: 22}
        """), encoding="utf-8")
    rs = catalog().rules_file(rules)
    assert SPACE.point(rs)["hand_sizes"] == "custom"
    exp, why = entry_for(fx, rs, SPACE)
    assert exp is None and why is None  # 3 players: DEAL-7 refuses the setup
    rules.write_text(rules.read_text().replace("4: 22", "3: 22"), encoding="utf-8")
    exp, why = entry_for(fx, catalog().rules_file(rules), SPACE)
    assert exp is fx.expect[0]
