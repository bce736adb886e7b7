"""identify on house engines, session 55.

A start of one's own that goes to the seat dealt the highest double (dispatcher's house
rule, tests/examples/dispatcher_engine.py, `starting_seat: other`) under an engine
procedure that deals the engine (holder-lays and its kin): the round's double is the
highest dealt in every designed deal but one of round 2 with the set's top double beside
it in the same hand, so the engine's holder always led, and the start was measured
`engine-holder`, wrong. A design with the top double and the round's double in different
hands (measure._designs) sets them apart.
"""

from __future__ import annotations

import pytest

from mtrain.conformance.adapter import JSON
from mtrain.conformance.identify.measure import measure
from mtrain.conformance.identify.measured import base_values
from mtrain.conformance.serve import FixedRules
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

CAT = catalog()
SPACE = Space(CAT)
PAGAT = CAT.ruleset("pagat")  # every tile dealt, the holder lays the engine (ENG-3)


def pagat_with(procedure: str, seat: str) -> Ruleset:
    return CAT.from_values({**dict(PAGAT.choices), "engine_procedure": procedure,
                            "starting_seat": seat}, f"pagat-{procedure}-{seat}",
                           PAGAT.hand_table)


class DealtHighDoubleLeads(FixedRules):
    """A rule set whose engine's holder leads (SEAT-2), but the seat dealt the highest
    double leads instead, the round's engine counted as its holder's; while the players
    still look for the engine, the search's seat as before."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        state = super().deal(ruleset, players, round, order, draw)
        if state["phase"] == "engine":
            return state
        doubles = [(int(t.split("-")[0]), seat) for seat, hand in enumerate(state["hands"])
                   for t in hand if len(set(t.split("-"))) == 1]
        doubles.append((state["engine"], state["starter"]))  # laid by its holder
        state["seat"] = state["starter"] = max(doubles)[1]
        return state


def measured(engine: FixedRules) -> tuple[str | None, str | None]:
    _, base = base_values(CAT, None)
    deals, _ = measure(engine, SPACE, base)
    return deals.procedure, deals.seat


@pytest.mark.parametrize("procedure", ["holder-lays", "holder-lays-and-draws",
                                       "everyone-draws"])
def test_a_start_of_the_highest_double_dealt_is_not_the_engine_holders(
        procedure: str) -> None:
    engine = DealtHighDoubleLeads(pagat_with(procedure, "engine-holder"))
    assert measured(engine) == (procedure, None)  # no known seat: left to the fixtures


@pytest.mark.parametrize("seat", ["engine-holder", "rotate", "after-engine"])
def test_the_known_starts_of_a_dealt_engine_are_still_measured(seat: str) -> None:
    assert measured(FixedRules(pagat_with("holder-lays", seat))) == ("holder-lays", seat)
