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

from typing import Any

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


def test_situations_from_play_keep_to_the_rounds_the_engine_deals() -> None:
    """reefer (tests/examples/js) deals rounds 1 to 5 of a double-8 set's nine. identify's
    legal-move situations from play were drawn at any round of a full match: 11 of 24
    past round 5 (refused by the engine, each entry failed or unseen). With the rounds it
    deals (carried.dealt_rounds), every kind's table is of round 5 at most; the deals'
    situations were so already (rounds 1 and 2)."""
    from mtrain.conformance.situations import SEED, legal_only, situations

    cat = catalog()
    reefer = cat.rules_file("tests/examples/js/reefer-rules.yaml")
    rs = cat.from_values({**dict(reefer.choices), "match_length": "full",
                          "hand_sizes": "custom"}, "reefer-full", reefer.hand_table)
    top = 8

    def rounds_of(made: list[Any]) -> list[int]:  # a table's engine is top - round + 1
        return [top - fx.table["engine"] + 1 for fx in made if fx.table is not None]

    every = rounds_of([legal_only(fx) for fx in situations(rs, 24, seed=SEED, ends=False)])
    assert max(every) > 5  # the full match's rounds, as drawn before
    last = {n: 5 for n, _ in reefer.hand_table}
    kept = [legal_only(fx) for fx in situations(rs, 24, seed=SEED, ends=False, rounds=last)]
    assert len(kept) == 24
    assert max(rounds_of(kept)) <= 5
