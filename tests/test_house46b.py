"""The suite's faults dandy (tests/examples/perl/dandy_engine.pl, a double-10 engine in
Perl with three house rules: who may open the Mexican Train, the draw and the marker)
showed, each fixed with a test that failed before the fix. Its house rules are played
here by a few lines over the reference where a table needs them (the Perl program itself
runs in tests/test_house_engines.py)."""

from __future__ import annotations

from pathlib import Path

from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.selection import entry_for
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

SPACE = Space()
DANDY = Path(__file__).parent / "examples" / "perl" / "dandy-rules.yaml"


def fixture(fid: str) -> Fixture:
    return next(fx for fx in load_corpus()[0] if fx.id == fid)


def test_who_may_open_the_empty_mexican_train_is_its_rule_where_the_own_train_holds_a_tile(
        ) -> None:
    """first-021: the Mexican Train empty, seat 1's own train holds [9-6], and it holds
    [9-4]. Every known value lets it open the Mexican Train, so the reference read
    mexican_first_turn only where the own train was empty, and the entry ran under a rule
    of one's own: dandy (an own train of two tiles first) failed it, charged to TRAIN-5,
    with its bugs off, and fuzz called the same a finding. Who may open it is the option's
    question wherever the mover could."""
    rs = catalog().rules_file(str(DANDY))
    exp, why = entry_for(fixture("first-021"), rs, SPACE)
    assert exp is None
    assert why == "its outcome depends on mexican_first_turn (played its own way)"
    # under a known value the entry runs as before
    known, why = entry_for(fixture("first-021"), catalog().ruleset("pagat"), SPACE)
    assert known is not None and why is None

