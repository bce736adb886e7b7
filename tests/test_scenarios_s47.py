"""Session 47's hand-worked scenarios for rule sets with a house rule (`other`) on what a
double does, the follow-up, the drawing rule or the marker: each was worked out to hold
under every known value of that option, so `mtrain conform` must keep it applicable
under the example rule-set files that declare it `other` (selection.entry_for: the
entry itself, or the cut of it that conform runs), and a fixture that does depend on the
option must still be left out."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.selection import entry_for
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

EXAMPLES = Path(__file__).parent / "examples"

STAYS_APPLICABLE = {
    "tandem-rules.yaml": [f"s47-dbl-00{n}" for n in range(1, 8)],  # doubles: other
    "cantina-rules.yaml": [f"s47-follow-00{n}" for n in range(1, 6)],  # follow_up: other
    "coupling-rules.yaml": ["s47-draw-002", "s47-draw-004", "s47-draw-005",
                            "s47-draw-006"],  # draw_rule: other
    "perl/dandy-rules.yaml": ["s47-marker-001", "s47-marker-002", "s47-marker-003"],
    "c/bogie-rules.yaml": ["s47-marker-001", "s47-marker-002", "s47-marker-003"],
    "sixes-rules.yaml": ["s47-marker-004"],  # marker_removal: other
}


def _fixtures() -> dict[str, Fixture]:
    fixtures, errors = load_corpus()
    assert not errors
    return {fx.id: fx for fx in fixtures if fx.id.startswith("s47-")}


@pytest.mark.parametrize("rules", sorted(STAYS_APPLICABLE))
def test_a_scenario_worked_for_every_known_value_stays_applicable_under_other(
        rules: str) -> None:
    fixtures, space = _fixtures(), Space()
    rs = catalog().rules_file(EXAMPLES / rules)
    left_out = {}
    for fid in STAYS_APPLICABLE[rules]:
        fx = fixtures[fid]
        entry, why = entry_for(fx, rs, space)
        if entry is None:
            left_out[fid] = why
    assert left_out == {}


def test_a_scenario_after_a_draw_is_still_left_out_where_the_drawing_is_ones_own() -> None:
    """s47-draw-001 lays the drawn tile after a draw, a question the drawing rule answers
    (TURN-3, TURN-5): under coupling's drawing rule of its own it is not applicable, so
    the check above can fail."""
    fx = _fixtures()["s47-draw-001"]
    rs = catalog().rules_file(EXAMPLES / "coupling-rules.yaml")
    entry, why = entry_for(fx, rs, Space())
    assert entry is None and why is not None and "draw_rule (played its own way)" in why
