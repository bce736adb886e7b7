"""Faults of the suite that layover (tests/examples/layover_engine.py, an app's game
logic: double-10 for 2 to 12 players, three house rules, its hello declaring two of them
by wrong names) showed, each pinned in process."""

from __future__ import annotations

import dataclasses

from mtrain.conformance.identify.found import OptionFinding
from mtrain.conformance.identify.measure import Deals
from mtrain.conformance.identify.run import _as_declared
from mtrain.conformance.identify.solve import Solution
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER, Ruleset

LEANING = "heaviest-in-hand"


def _unseated() -> Deals:
    deals = Deals(tile_set="double-10", procedure="set-aside", unseated=True)
    deals.evidence["engine_procedure"] = (
        "8 deals for 2 players: dealt as set-aside deals, the first player as under no "
        "known starting seat (a start of its own?)")
    return deals


def _leaning() -> tuple[Solution, list[OptionFinding]]:
    """The fixtures' answer for layover: a known seat the deals contradict."""
    best = Solution({"starting_seat": LEANING, "tile_set": "double-10"}, 0, [])
    return best, [OptionFinding("starting_seat", LEANING, "contradicted", 54, ["78 show it"]),
                  OptionFinding("tile_set", "double-10", "measured", 0, ["dealt 0 to 10"])]


def _declared(seat: str) -> Ruleset:
    cat = catalog()
    rs = cat.ruleset(next(iter(cat.variants)))
    return dataclasses.replace(rs, choices=tuple(
        (o, seat if o == "starting_seat" else v) for o, v in rs.choices))


def test_undeclared_engine_whose_deals_fit_no_seat_is_written_other() -> None:
    best, findings = _leaning()
    out = _as_declared(best, findings, None, _unseated())
    seat = next(f for f in out if f.option == "starting_seat")
    assert (seat.value, seat.status) == (OTHER, "other")
    assert best.values["starting_seat"] == OTHER
    assert "measured" in seat.evidence[0] and LEANING in seat.evidence[0]
    assert next(f for f in out if f.option == "tile_set").value == "double-10"


def test_declared_known_seat_the_deals_contradict_is_other_with_it_as_rival() -> None:
    best, findings = _leaning()
    out = _as_declared(best, findings, _declared("rotate"), _unseated())
    seat = next(f for f in out if f.option == "starting_seat")
    assert (seat.value, seat.status, seat.alternatives) == (OTHER, "contradicted", ["rotate"])
    assert best.values["starting_seat"] == OTHER


def test_deals_that_fit_a_known_seat_leave_the_fixtures_answer() -> None:
    best, findings = _leaning()
    deals = _unseated()
    deals.unseated = False
    out = _as_declared(best, findings, None, deals)
    assert next(f for f in out if f.option == "starting_seat").value == LEANING
