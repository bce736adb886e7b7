"""Faults of the suite that waybill (tests/examples/perl/waybill_engine.pl, a club's
tournament scorekeeper grown into a rules engine, in Perl 5, on double-18) showed, each
fixed in the suite's general logic and tested here on a small in-process case."""

from __future__ import annotations

from typing import Any

import pytest

from mtrain.conformance.adapter import Unsupported
from mtrain.conformance.identify.found import OptionFinding
from mtrain.conformance.identify.measure import Dealer, Deals, _sliced, measure_start
from mtrain.conformance.identify.run import _as_declared
from mtrain.conformance.identify.solve import Solution
from mtrain.conformance.serve import FixedRules
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import OTHER, Ruleset
from mtrain.spec.scope import Space

CAT = catalog()
SPACE = Space(CAT)


class EngineFromTheBottom(FixedRules):
    """puremco's rules but for the deal, as waybill deals: every tile is dealt from the
    whole set; whoever was dealt the round's engine places it and takes the boneyard's
    LAST tile in its place; an engine nobody holds is picked out of the boneyard. A pool
    without the engine (set-aside's) is `unsupported`. The state is the reference's
    set-aside deal of the pool so rearranged (hands from the front, the rest the
    boneyard), which is exactly that table."""

    def deal(self, ruleset: Any, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> Any:
        top = int(self.ruleset["tile_set"].split("-")[1])
        engine = f"{top - round + 1}-{top - round + 1}"
        if engine not in order:
            raise Unsupported("the whole set is dealt, the engine among it")
        size = dict(self.ruleset.hand_table)[players]
        hands = [order[s * size:(s + 1) * size] for s in range(players)]
        rest = order[players * size:]
        holder = next((s for s, h in enumerate(hands) if engine in h), None)
        if holder is None:
            rest = [t for t in rest if t != engine]
        else:
            hands[holder] = [t for t in hands[holder] if t != engine] + [rest.pop()]
        return super().deal(ruleset, players, round, [t for h in hands for t in h] + rest)


class RoundRobin(FixedRules):
    """puremco dealing one tile to each seat in turn (a bug in DEAL-1), never a
    procedure: its hands hold other slices' tiles."""

    def deal(self, ruleset: Any, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> Any:
        state = super().deal(ruleset, players, round, order, draw)
        dealt = sum(len(h) for h in state["hands"])
        state["hands"] = [order[p:dealt:players] for p in range(players)]
        return state


def test_deals_no_known_procedure_makes_of_the_pools_slices_are_a_procedure_of_its_own(
        ) -> None:
    """waybill's holder takes the boneyard's last tile for the engine, and refuses a pool
    without the engine: its deals matched no known procedure, so none was measured, and
    the fixtures, which nothing about set-aside's pools contradicted (each answered
    `unsupported`), wrote set-aside `likely`; its hello's holder-lays-and-draws was named
    nowhere. The deals rule out every known procedure: `other`, the declared value its
    rival (`contradicted`)."""
    rs = CAT.ruleset("puremco")
    deals = Deals(table=dict(rs.hand_table))
    measure_start(Dealer(EngineFromTheBottom(rs)), SPACE, rs, deals)
    assert deals.procedure is None and deals.unmatched, deals.evidence
    declared = Ruleset("declared", tuple(
        (o, "holder-lays-and-draws" if o == "engine_procedure" else v)
        for o, v in rs.choices), rs.hand_table)
    best = Solution(dict(rs.choices), 0, [])
    found = [OptionFinding("engine_procedure", "set-aside", "likely", 12, ["play-deal-001"])]
    (f,) = _as_declared(best, found, declared, deals)
    assert (f.value, f.status, f.alternatives) == (OTHER, "contradicted",
                                                   ["holder-lays-and-draws"])
    assert best.values["engine_procedure"] == OTHER


class ShortBoneyard(FixedRules):
    """puremco losing the pool's last tile from the boneyard (tender's bug 1, ENG-2)."""

    def deal(self, ruleset: Any, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> Any:
        state = super().deal(ruleset, players, round, order, draw)
        state["boneyard"] = state["boneyard"][:-1]
        return state


@pytest.mark.parametrize("engine", [RoundRobin, ShortBoneyard])
def test_a_deal_bug_is_no_procedure_of_its_own(engine: type[FixedRules]) -> None:
    """A round-robin deal (turntable's bug in DEAL-1) or one that loses a tile (tender's,
    ENG-2) matches no procedure either, but its hands are not the pool's slices, or a
    tile is gone: no procedure of its own is read into a deal bug."""
    rs = CAT.ruleset("puremco")
    deals = Deals(table=dict(rs.hand_table))
    measure_start(Dealer(engine(rs)), SPACE, rs, deals)
    assert deals.procedure is None and not deals.unmatched


def test_hands_that_only_gave_up_the_engine_are_no_procedure_of_its_own() -> None:
    """A deal whose holder only laid the engine (holder-lays' hands, or everyone-draws'
    before the search) under a first player no known seat predicts (a calibration
    engine's seat of its own, its draw for the start never asked) was read as a
    procedure of its own, and wrote engine_procedure `other` where the hands are a known
    procedure's: only a hand that took a tile of the boneyard in the engine's place, or
    no hand but one drawing, shows one's own (measure._sliced)."""
    order = [f"{b}-{a}" for a in range(13) for b in range(a, 13)]  # written high end first
    order.remove("12-12")
    order.insert(3, "12-12")  # the engine in seat 0's slice of 2 x 15
    hands = [order[:15], order[15:30]]
    rest = order[30:]
    laid = [[t for t in hands[0] if t != "12-12"], hands[1]]
    assert not _sliced([(1, order)], [((laid, rest),)], 2, 15, 12)
    took = [laid[0] + [rest[-1]], hands[1]]
    assert _sliced([(1, order)], [((took, rest[:-1]),)], 2, 15, 12)
    both = [laid[0] + [rest[-1]], hands[1] + [rest[-2]]]  # two hands drew: a search
    assert not _sliced([(1, order)], [((both, rest[:-2]),)], 2, 15, 12)
