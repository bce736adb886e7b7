"""identify on house engines, session 57.

An engine whose rounds run a ladder of their own (tipper's "even stops",
tests/examples/c/tipper_engine.c: round r on [k-k], k = 16 - 2(r - 1), lifted from the
whole set wherever it lies) deals none of the designed deals as a known procedure does,
so the deals measured no procedure; the solver was then kept to the known procedures (the
table the engine deals pins them, DEAL-8), `other` out of its reach however the fixtures
read, and the fixtures set at rounds of ENG-1's ladder (round 2 on [15-15]), which the
engine deals on an engine of its own, were charged to the next clause they name, SEAT-3:
`starting_seat: other`, wrong. Deals that stand against every known procedure leave
`other` open to the fixtures (priced as any rule of one's own).
"""

from __future__ import annotations

from mtrain.conformance.adapter import JSON
from mtrain.conformance.identify.measure import Deals, measure
from mtrain.conformance.identify.measured import base_values, measured_region, solving_region
from mtrain.conformance.process import HarnessError
from mtrain.conformance.serve import FixedRules
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.scope import Space

CAT = catalog()
SPACE = Space(CAT)
PUREMCO = CAT.ruleset("puremco")  # the engine set aside (ENG-2), round r on [12-r+1]


def puremco_with(procedure: str) -> Ruleset:
    return CAT.from_values({**dict(PUREMCO.choices), "engine_procedure": procedure},
                           f"puremco-{procedure}", PUREMCO.hand_table)


class EvenStops(FixedRules):
    """Set-aside's deal, but round r's engine is [k-k], k = top - 2(r - 1) (every other
    double skipped), taken out of the whole set wherever it lies; a pool without it is
    no request it answers (tipper's bad request)."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        top = self._fixed.max_pip
        k = top - 2 * (round - 1)
        engine = f"{k}-{k}"
        if engine not in order:
            raise HarnessError("order: not the whole set")
        # set-aside's deal of the round whose engine ENG-1 makes [k-k], from the rest
        state = super().deal(ruleset, players, top - k + 1,
                             [t for t in order if t != engine], draw)
        state["round"] = round
        state["seat"] = state["starter"] = (round - 1) % players  # SEAT-3
        return state


class BoneyardShort(EvenStops):
    """EvenStops with a bug in its deal: the boneyard's last tile lost (tender's, DEAL-1)."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        state = super().deal(ruleset, players, round, order, draw)
        state["boneyard"] = state["boneyard"][:-1]
        return state


def deals_of(engine: FixedRules) -> Deals:
    _, base = base_values(CAT, None)
    deals, _ = measure(engine, SPACE, base)
    return deals


def test_deals_of_a_ladder_of_its_own_leave_other_to_the_fixtures() -> None:
    deals = deals_of(EvenStops(PUREMCO))
    assert deals.procedure is None and deals.unknown
    allowed = measured_region(SPACE, deals)
    assert OTHER not in allowed["engine_procedure"]  # the table's region: known values
    solving = solving_region(allowed, deals)
    assert solving["engine_procedure"] == allowed["engine_procedure"] | {OTHER}
    assert {o: vs for o, vs in solving.items() if o != "engine_procedure"} == {
        o: vs for o, vs in allowed.items() if o != "engine_procedure"}


def test_deals_a_known_procedure_deals_keep_the_solver_to_it() -> None:
    for procedure in ("set-aside", "holder-lays"):
        deals = deals_of(FixedRules(puremco_with(procedure)))
        assert deals.procedure == procedure and not deals.unknown
        allowed = measured_region(SPACE, deals)
        assert solving_region(allowed, deals) == allowed


def test_a_deal_that_loses_a_tile_is_a_bug_not_a_ladder_of_its_own() -> None:
    deals = deals_of(BoneyardShort(PUREMCO))
    assert deals.procedure is None and not deals.unknown
    allowed = measured_region(SPACE, deals)
    assert solving_region(allowed, deals) == allowed
