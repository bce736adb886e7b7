"""identify's hand-table measure where a hand grows before play: pullman's engine procedure
of its own (tests/examples/pullman_engine.py) deals every tile and, when nobody holds the
engine, its first player alone draws for it, so one hand of each deal holds more than the
table says. The other hands still show the size dealt."""

from __future__ import annotations

import sys
from pathlib import Path

from mtrain.conformance.identify.measure import (
    Dealer,
    Deals,
    measure_table,
    size_beside_a_grown_hand,
)
from mtrain.conformance.process import ProcessImplementation
from mtrain.spec.catalog import catalog
from mtrain.spec.scope import Space

PULLMAN = Path(__file__).parent / "examples" / "pullman_engine.py"


def hands(*sizes: int) -> dict[str, list[list[str]]]:
    return {"hands": [["0-0"] * n for n in sizes]}


def test_the_size_dealt_is_the_one_every_hand_but_a_larger_one_holds() -> None:
    assert size_beside_a_grown_hand(hands(13, 20, 13, 13)) == 13
    assert size_beside_a_grown_hand(hands(74, 16)) == 16
    assert size_beside_a_grown_hand(hands(13, 13, 13)) is None  # nothing grew
    assert size_beside_a_grown_hand(hands(13, 12, 13)) is None  # one short: not this
    assert size_beside_a_grown_hand(hands(13, 14, 15)) is None  # no size shared


def test_a_starter_drawing_for_the_engine_leaves_the_table_measured() -> None:
    # pullman's own table (its rule-set file): 2: 16, 3: 14, 4: 13, 5: 11, 6: 10, 7: 9,
    # 8: 8; its deals, with the engine [12-12] last in the pool (never dealt), leave one
    # hand grown by the draw for it at every count
    rs = catalog().ruleset("pagat")
    assert rs["engine_procedure"] != "set-aside"  # the pool holds the engine
    deals = Deals()
    with ProcessImplementation([sys.executable, str(PULLMAN), "--fixed", "1,2,3"]) as impl:
        measure_table(Dealer(impl), Space(), rs, deals, None)
    assert deals.table == {2: 16, 3: 14, 4: 13, 5: 11, 6: 10, 7: 9, 8: 8}
    assert deals.problems == []  # not "deals that are not deals of the set"
    assert deals.grown.startswith("one hand held more than the others before play")
    assert "2p: one of 74" in deals.grown  # 16 dealt + 59 drawn - the engine laid
