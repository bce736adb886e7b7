"""The scope check's partition never puts two tile sets in one region when the fixture's
outcome differs between them: the guard any coarser reading of the set (a run asking
"is [11-10] a tile of the set?" rather than which set it is) must keep.

The fixture is s55-set-001 (conformance/fixtures/sets/every-double-s55.yaml), whose
outcome depends on the set: its tiles [11-10], [10-9] and [11-4] exist only from
double-11 up (SET-1), and its engine 11 is round 1's on double-11 and a later round's on
the larger sets (ENG-1, MATCH-1). Which sets it passes on is worked out here from that
rule text, not from the engine.
"""

from __future__ import annotations

from pathlib import Path

from mtrain.conformance.fixture import load_file
from mtrain.conformance.partition import explore
from mtrain.conformance.traced import traced_run
from mtrain.spec.scope import Space, example_value, values_of

FIXTURES = Path(__file__).resolve().parents[1] / "conformance" / "fixtures"


def test_no_region_holds_two_sets_the_fixture_plays_differently() -> None:
    (fx,) = [f for f in load_file(FIXTURES / "sets" / "every-double-s55.yaml")
             if f.id == "s55-set-001"]
    space = Space()
    # every option but the set fixed to pagat's (the entry's own rule set: penalty
    # scoring, a full match), so that the set alone decides; the hands dealt by the table
    # of spec/data/rulesets/double-6.yaml, the one table that deals all 13 sets (each
    # named table is its set's own)
    pagat = values_of(space.cat, space.cat.ruleset("pagat"))
    start = {o: frozenset((v,)) for o, v in pagat.items() if o != "tile_set"}
    start["hand_sizes"] = frozenset((example_value("double-6"),))
    sets = [s for s in space.options["tile_set"]
            if space.complete({**start, "tile_set": frozenset((s,))}) is not None]
    # SET-1: a double-N set holds [11-10] only for N >= 11; there engine 11 is round
    # N - 10's (ENG-1), a round of the full match (MATCH-1) the entry speaks about
    passes = {s for s in sets if int(s.split("-")[1]) >= 11}
    assert len(sets) == 13
    assert passes and set(sets) - passes  # the outcome depends on the set
    part = explore(fx, space, start=start)
    seen = set()
    for cell in part.cells:
        for tile_set in cell.region["tile_set"]:
            values = space.complete({**cell.region, "tile_set": frozenset((tile_set,))},
                                    cell.run.values)
            if values is None:
                continue  # no valid rule set of the region on this set
            run = traced_run(fx, space.ruleset(values))
            # every set of a region plays as the region's run: its outcome predicted
            assert run.outcomes == cell.run.outcomes, (tile_set, cell.region["tile_set"])
            if run.outcomes == ("pass",):
                seen.add(tile_set)
    assert seen == passes
