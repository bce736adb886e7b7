"""The rest of an entry under a marker rule of one's own.

A play by a seat whose marker is up, or on a marked train, reads the marker rule (MARK-3,
MARK-4, MARK-5) for which marker comes off, so under `marker_removal: other` the whole
entry was not applicable, and with it what the play does besides: the legal set after it,
a refusal, the phase, the seat, the open doubles. An engine whose marker comes off when
its owner plays on their own train or on the Mexican Train (tests/examples/c/bogie_engine.c)
had 50 fixtures set aside, though in many of them only the `marked` field was the rule's:
ownmex-001's follow-up may not open the Mexican Train (FIRST-10) whichever marker came off.
So where the reference, playing the entry without its `marked` field under every known
marker rule in turn (the rule set's other values kept), finds it holds each time and reads
no other rule played its own way, that cut entry runs: which markers are up stays the
rule's own. Where the entry reads a scoring, blank values or tie rule of one's own as
well (sixes' tie), what the round's end is worth is set aside too (round_end_alone.py),
and each of those options is asked in turn alike; so is a start of one's own, which
decides who starts a table that writes no starter (13 of 16 such entries under
`marker_removal: other` and `starting_seat: other` on pagat were set aside). Where such an
entry fails, the search for the step after which the engine first departed from the
reference compares no marker taken off (divergence.MARKERS_OFF): which markers come off is
its own rule's there, never a departure; a marker put up (MARK-1) still is one.

Every known value is asked, as the other cuts ask (seat_alone.py, round_end_alone.py):
owner-plays-own leaves up the most markers, owner-plays-anywhere takes off the mover's
and anyone-plays-on the train's, so a legal set the three agree on is, as far as the known
rules can show, one the markers the steps leave do not decide. (A house rule that leaves
up a set of markers none of them does could still see another legal set; with known values
as evidence, as elsewhere, such an engine is then charged where its rule is not at fault.)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Set

from mtrain.conformance.divergence import ROUND_END
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.round_end_alone import holds_under_each_value, worth_aside
from mtrain.spec.ruleset import Ruleset
from mtrain.spec.scope import Space

OPTION = "marker_removal"
ONLY_MARKER = f"its outcome depends on {OPTION} (played its own way)"
"""`applies`'s answer for an entry that only a marker rule of one's own decides."""
MARKER_FIELDS = ("marked",)
"""The fields of a state the marker rule decides (MARK-3..5)."""


START = "starting_seat"
"""A start of one's own: it decides who starts a table that writes no starter, and the
cut is asked under each of its known values too (as seat_alone.table_entry asks it)."""


def marker_options(why: str) -> frozenset[str]:
    """The options `applies`'s reason names, where they are the marker rule of one's own
    and perhaps round-end options or a start of one's own besides (ROUND_END, START);
    else none."""
    named = frozenset(re.findall(r"(\w+) \(played its own way\)", why))
    return (named if OPTION in named and named - {OPTION} <= ROUND_END | {START}
            else frozenset())


def markers_aside(exp: Expectation) -> Expectation:
    """`exp` without the markers: everything else it checks stays."""
    return dataclasses.replace(
        exp, state={k: v for k, v in exp.state.items() if k not in MARKER_FIELDS})


def marker_entry(exp: Expectation, fx: Fixture, rs: Ruleset, space: Space,
                 named: Set[str] = frozenset((OPTION,))) -> Expectation | None:
    """`exp` without its `marked` field (and what the round's end is worth, where `named`,
    the options `rs` plays its own way that the entry reads, has round-end ones), where
    no known value of those options changes the rest under `rs`'s other rules; None where
    that cannot be shown or nothing is left to check."""
    own = set(rs.unknown)
    if (OPTION not in own or not named <= own or not fx.steps
            or exp.refused_setup is not None):
        return None
    cut = markers_aside(worth_aside(exp, named & ROUND_END) if named & ROUND_END else exp)
    if cut.checks == 0:
        return None
    return cut if holds_under_each_value(fx, cut, rs, space, named, own - named) else None
