"""The fields of an entry that a table of one's own leaves as they are.

A rule-set file that gives its own hand table (`hand_sizes: {3: 14, ...}`) is played by
the reference exactly: it deals that table itself. An entry whose scope names other tables
and whose outcome, played with this one, is not the entry's was not applicable as a whole
(partition.OWN_TABLE), though often only some of its fields are the table's: a reversed
3-player deal (engine-004) expects 14 tiles in seat 0's hand, the boneyard's size and the
hand itself, which 14 tiles each change, and the seat to move and the starter, which they
do not. Across the example engines' files 560 results were set aside so (session 48).

So the entry is cut to the state fields the reference, playing the rule set's own table
(and a known value in place of each option played its own way, as `applies` plays it),
finds as the entry writes them, where nothing else it checks (a legal set, a refusal, a
result) fails there and no option played its own way decides them: those values are the
rules' under that table, written by hand and checked by the reference, never made by it.
The fields it finds otherwise are the table's own, and left out; with none left, the
entry stays not applicable.
"""

from __future__ import annotations

import dataclasses

from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.traced import logged_run, with_table
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Region, Space


def own_table_entry(exp: Expectation, fx: Fixture, rs: Ruleset,
                space: Space) -> Expectation | None:
    """`exp` with only the state fields that hold under `rs`'s own table, where the rest
    of it holds there too and reads no option `rs` plays its own way; None where that
    cannot be shown or no field is left."""
    if not rs.custom_table or exp.refused_setup is not None or not exp.state:
        return None
    own = set(rs.unknown)
    values = space.point(rs)
    if own:
        region: Region = {o: frozenset((v,)) for o, v in values.items() if o not in own}
        sample = space.complete(region)
        if sample is None:
            return None
        known = space.ruleset(sample)
        stand_in = with_table(known, rs.hand_table)
    else:
        sample, stand_in = dict(values), rs

    def holds(cut: Expectation) -> bool:
        run, log = logged_run(fx, stand_in, [cut], dict(sample))
        return run.outcomes == ("pass",) and not own & log.decides

    kept = {k: v for k, v in exp.state.items()
            if holds(dataclasses.replace(exp, state={k: v}))}
    if not kept or len(kept) == len(exp.state):
        return None  # nothing of the table's left to check, or the whole entry (applies)
    cut = dataclasses.replace(exp, state=kept)
    return cut if holds(cut) else None
