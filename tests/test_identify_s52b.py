"""Session 52 (ident52b): what identify says would settle an undetermined option.

reefer's `scoring` was left undetermined with "33 decided by its own rules (blank_values:
other, marker_removal undetermined, match_length: other, tie_rule undetermined)": a
union of names, read as if its blank rule of its own set aside every scoring fixture.
Its blank rule pins 3 of them, its match of its own 31; and the one situation that told
`penalty` from `penalty-blocked-winner` under its answer (play-end-003@1.0, engine 3-3: a
blocked round, no blank in any hand) is set in round 6, which its five-round match
refuses. The message now counts the fixtures each rule pins: "blank_values: other in 3,
marker_removal undetermined in 12, match_length: other in 31, tie_rule undetermined in 7"."""

from __future__ import annotations

from mtrain.conformance.identify.cells import Piece
from mtrain.conformance.identify.findings import _settling
from mtrain.spec.scope import Space


def test_settling_counts_the_fixtures_each_rule_of_ones_own_pins() -> None:
    """Three fixtures tell scoring's values apart only where the match length (`other` in
    the answer) is pinned; one of them pins the blank rule (`other`) too. The blank rule
    is named with 1, the match length with 3: not both as if each decided all three."""
    values = {"scoring": "penalty", "blank_values": "other", "match_length": "other",
              "tie_rule": "lowest-seat"}
    pen, pbw = frozenset({"penalty"}), frozenset({"penalty-blocked-winner"})
    full = {"match_length": frozenset({"full"})}
    face = {"blank_values": frozenset({"face"})}

    def told(extra: dict[str, frozenset[str]]) -> list[Piece]:
        # the values differ only in pieces that pin the match length (and `extra`)
        return [Piece({"scoring": pen, **full, **extra}, ("pass",), ()),
                Piece({"scoring": pbw, **full, **extra}, ("fail",), ()),
                Piece({"match_length": frozenset({"single-round"})}, ("fail",), ())]
    parts = {"end-1": told({}), "end-2": told({}), "end-3": told(face)}
    seen = {fid: ("pass",) for fid in parts}
    said = _settling("scoring", values, Space(), parts, seen)
    assert said == ("(of the 3 fixtures that tell its values apart here, 3 decided by its "
                    "own rules (blank_values: other in 1, match_length: other in 3), not "
                    "read as bugs: end-1, end-2, end-3)")
