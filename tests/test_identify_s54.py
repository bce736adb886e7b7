"""identify on an engine that plays highest-draw whatever it is told (session 54).

The fixtures are asked under the measured start or the base's, which draw for nothing, so
the harness sent no draw for the start (runner.deal_with_draw): such an engine refused
every deal of a fixture with a draw (SEAT-5), and each refusal counted against
highest-draw, which the scope partition plays with the draw. A double-12 rule set of
highest-draw (tests/test_identify.py, KNOWN_GAPS until then) was found `starting_seat:
other`, 22 fixtures of the SEAT clauses against highest-draw. Now a deal refused for want
of the draw is asked again with the fixture's draw, as measure.py asks the designed deals.
"""

from __future__ import annotations

from mtrain.conformance.fixture import load_corpus
from mtrain.conformance.identify import observe
from mtrain.conformance.serve import FixedRules
from mtrain.spec.catalog import catalog


def test_a_deal_refused_for_want_of_the_draw_is_asked_again_with_the_fixtures_draw() -> None:
    cat = catalog()
    fixtures, errors = load_corpus()
    assert not errors
    fx = next(f for f in fixtures if f.id == "generated-starting-seat-005")
    assert fx.deal_draw() is not None  # the draw [0-0] for seat 0, [1-0] for seat 1
    # its entries: seat 0 starts under puremco (rotate), seat 1 under highest-draw
    assert [e.variants for e in fx.expect] == [("puremco",), ("puremco+highest-draw-start",)]
    engine = FixedRules(cat.ruleset("puremco+highest-draw-start"))
    [seen] = observe([fx], engine, cat.ruleset("puremco"))
    assert not seen.refused
    assert seen.outcomes == ("fail", "pass")
    # an engine of the rotating start is asked as before: the draw is never sent
    [seen] = observe([fx], FixedRules(cat.ruleset("puremco")), cat.ruleset("puremco"))
    assert seen.outcomes == ("pass", "fail")
