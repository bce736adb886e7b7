"""Session 61's scenarios (conformance/fixtures/*/s61-*.yaml) and what they showed.

A `when` condition that holds for no rule set (a named hand-size table on a set it is
not for, a table the set cannot deal) was taken in silently: the scope check partitions
the valid rule sets only, so it was never played and never failed, dead text in the
fixture. `mtrain lint` now reports it at the condition's line (lint/dead_scopes.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_robust_s46 import fixture, lint_errors

from mtrain.cli import main
from mtrain.conformance.fixture import load_corpus
from mtrain.conformance.lint.dead_scopes import dead_conditions
from mtrain.spec.scope import Space

DEAD = "so nothing can ever check it: write values some rule set takes together, or leave it out"


@pytest.mark.parametrize("when, line, said", [
    # DEAL-11: no named table deals a double-11 set
    ("      when: {tile_set: [double-11], hand_sizes: [pagat]}\n", 20,
     "`when` (tile_set=double-11, hand_sizes=pagat) holds for no rule set (DEAL-11, No "
     "published table for double-7, -8, -10, -11, -13, -14, -16, -17 or -18: where it "
     "applies, it requires a table of its rule-set file's own for hand_sizes)"),
    # DEAL-12: Celko's double-6 table is for double-6 alone, whichever sets are listed
    ("      when: {hand_sizes: [celko-d6], tile_set: [double-12, double-15]}\n", 20,
     "`when` (tile_set in {double-12, double-15}, hand_sizes=celko-d6) holds for no rule "
     "set (DEAL-12, Hand sizes, Celko double-6: where it applies, it requires tile_set in "
     "{double-6})"),
    # DEAL-8: Cardinal's 4 x 15 tiles are more than a double-9 set's 55; the line is the
    # dead condition's, the other one lives
    ("      when:\n        - {tile_set: [double-15]}\n"
     "        - {tile_set: [double-9], hand_sizes: [cardinal]}\n", 22,
     "`when` condition 2 (tile_set=double-9, hand_sizes=cardinal) holds for no rule set "
     "(it holds for some with hand_sizes or tile_set left free; a hand-size table must be "
     "dealable from the set, DEAL-8)"),
    # the double-18 example's table on a double-6 set: a table of one's own that cannot be dealt
    ("      when: {hand_sizes: [\"custom:double-18\"], tile_set: [double-6]}\n", 20,
     "`when` (tile_set=double-6, hand_sizes=custom:double-18) holds for no rule set (it "
     "holds for some with hand_sizes or tile_set left free; a hand-size table must be "
     "dealable from the set, DEAL-8)"),
])
def test_a_when_condition_no_rule_set_takes_is_a_lint_error_at_its_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, when: str, line: int,
        said: str) -> None:
    path = fixture(tmp_path, when=when)
    assert lint_errors(capsys, "--no-scopes", path) == [
        f"error: {path}:{line}: own-001 entry 1: {said}, {DEAD}"]


@pytest.mark.parametrize("when", [
    "      when: {tile_set: [double-11], hand_sizes: [custom]}\n",  # a table of one's own
    "      when: {tile_set: [double-9], hand_sizes: [celko-d9, cardinal]}\n",  # one value lives
    "      when: {tile_set: [double-15], hand_sizes: [celko-d15]}\n",
])
def test_a_when_condition_some_rule_set_takes_is_no_error(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, when: str) -> None:
    path = fixture(tmp_path, when=when)
    assert main(["lint", "--no-scopes", path]) == 0, capsys.readouterr().out


def test_the_corpus_has_no_when_condition_that_holds_for_no_rule_set() -> None:
    fixtures, errors = load_corpus()
    assert not errors
    conditions = sum(len(e.conditions) for fx in fixtures for e in fx.expect)
    assert conditions > 1000  # the check saw the corpus's written scopes
    assert dead_conditions(fixtures, Space()) == []
