"""Session 49's house engine hopper (tests/examples/js/hopper_engine.js, node), written
from the docs alone, and the suite's faults its runs showed. Each test here failed before
the fix it names."""

from __future__ import annotations

from pathlib import Path

from mtrain.conformance.fixture import load_corpus
from mtrain.conformance.partition import applies
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

EXAMPLES = Path(__file__).parent / "examples"
HOPPER_RULES = EXAMPLES / "js" / "hopper-rules.yaml"


def test_an_open_double_of_an_earlier_turn_binds_as_the_doubles_rule_says(
        tmp_path: Path) -> None:
    """Whether a double left open on an earlier turn binds the player to move (DBL-6) is
    the doubles rule's (DBL-6 applies under `doubles: open` alone). hopper lays a double
    on the Mexican Train as an ordinary tile (`doubles: other`), so such a double binds
    nobody there; with its bugs off, 63 of its 1,198 results failed as rule differences
    (DBL-6 54, DBL-7 5, DBL-10 4: fixtures and situations with an open Mexican double of
    an earlier turn) until the reference read `doubles` where a double of an earlier turn
    is open. doubles-039: the cover due on the Mexican Train."""
    fixtures, errors = load_corpus()
    assert not errors
    (fx,) = [f for f in fixtures if f.id == "doubles-039"]
    rules = catalog().rules_file(str(HOPPER_RULES))
    why = [applies(e, fx, rules, Space()) for e in fx.expect]
    assert why and all("doubles (played its own way)" in (w or "") for w in why), why
    # with doubles open and its first turn still its own, the entry runs: the first
    # turns are over at that table
    text = HOPPER_RULES.read_text(encoding="utf-8")
    assert "  doubles: other" in text
    own = tmp_path / "hopper-open.yaml"
    own.write_text(text.replace("  doubles: other", "  doubles: open"), encoding="utf-8")
    assert [applies(e, fx, catalog().rules_file(str(own)), Space()) for e in fx.expect] == [
        None]

