"""Session 61's scenarios (conformance/fixtures/*/s61-*.yaml) and what they showed.

A `when` condition that holds for no rule set (a named hand-size table on a set it is
not for, a table the set cannot deal) was taken in silently: the scope check partitions
the valid rule sets only, so it was never played and never failed, dead text in the
fixture. `mtrain lint` now reports it at the condition's line (lint/dead_scopes.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_robust_s46 import fixture, lint_errors

from mtrain.cli import main
from mtrain.conformance import partition
from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.lint.dead_scopes import dead_conditions
from mtrain.conformance.partition import explore, propose
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


# --- a proposed scope says only values some rule set of it takes ---------------------------
# s61-blank-003 holds tiles up to 13. Its proposal for the face-value entry read "tile_set in
# {double-9, double-6, double-8, double-7, double-13}, hand_sizes in {pagat, ..., custom:double-18}"
# beside "tile_set=double-13": _grow takes in a value that meets no rule set for nothing, so
# the condition named four sets the table cannot be built on and eleven tables none of
# which deals double-13 (DEAL-10, DEAL-11), and said nothing the third condition did not.


def _corpus_fixture(fid: str) -> Fixture:
    (fx,) = [f for f in load_corpus()[0] if f.id == fid]
    return fx


def test_a_proposed_scope_lists_no_value_none_of_its_rule_sets_takes() -> None:
    space = Space()
    fx = _corpus_fixture("s61-blank-003")
    scopes = propose(explore(fx, space), space)
    face = scopes[0]
    extra = face.products[len(face.variants):]
    assert extra
    for product in extra:
        region = product.region()
        for option, values in region.items():
            for v in values:  # each value listed holds some rule set of the condition
                assert space.complete({**region, option: frozenset((v,))}) is not None, (
                    product.text(space.cat), option, v)
    sets = set().union(*(p.region().get("tile_set", frozenset()) for p in extra))
    assert sets and not sets & {"double-6", "double-7", "double-8", "double-9"}, sets


@pytest.mark.parametrize("fid", ["s61-blank-003", "s61-round-001"])
def test_a_proposed_scope_holds_the_same_rule_sets_with_its_dead_values_left_out(
        monkeypatch: pytest.MonkeyPatch, fid: str) -> None:
    space = Space()
    fx = _corpus_fixture(fid)
    part = explore(fx, space)
    pruned = propose(part, space)
    monkeypatch.setattr(partition, "_live", lambda product, space: product)
    grown = propose(part, space)
    listed = sum(len(vs) for scope in pruned for p in scope.products for _, vs in p.allowed)
    unpruned = sum(len(vs) for scope in grown for p in scope.products for _, vs in p.allowed)
    # since session 63 the partition keeps together the hand tables that answer a run's
    # rows alike, and s61-blank-003's proposal has no dead value left (its 11 tables came
    # from regions split per table); s61-round-001's still has (288 values against 443)
    assert listed < unpruned if fid == "s61-round-001" else listed <= unpruned
    rng = random.Random(61)
    points = 0
    for _ in range(3000):  # valid rule sets of the space, drawn one option value at a time
        region = {o: frozenset((rng.choice(vs),)) for o, vs in space.options.items()
                  if rng.random() < 0.4}
        values = space.complete(region)
        if values is None:
            continue
        points += 1
        for a, b in zip(pruned, grown, strict=True):
            assert a.contains(values) == b.contains(values), values
    assert points > 1000
    if fid != "s61-blank-003":
        return
    # and every entry's rule sets on double-13 are still there
    on13 = {"tile_set": frozenset(("double-13",))}
    assert all(any(space.meets(p.region(), on13) for p in scope.products) for scope in pruned)

